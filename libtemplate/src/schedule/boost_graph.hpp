// Private: the constraint graph of a DependencyGraph as a Boost.Graph graph, for the searches
// that Boost.Graph does for us (the cycle search, the scheduler's topological sort).
#pragma once

#include <cstdint>

#include <boost/graph/compressed_sparse_row_graph.hpp>

#include "libtemplate/core/dependency_graph.hpp"

// Boost.Graph's depth_first_search (under find_cycles() and topological_sort) is iterative
// unless BOOST_RECURSIVE_DFS is defined: a 100,000-link chain must not become 100,000 stack
// frames.
#ifdef BOOST_RECURSIVE_DFS
#error "the dependency graph and the scheduler rely on Boost.Graph's non-recursive depth-first search"
#endif

namespace ptmpl::detail {

using ConstraintCsr = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, boost::no_property,
                                                         boost::no_property, std::uint32_t, std::uint32_t>;

/// The constraint graph of `graph` in compressed sparse row form: the same node ids, and each
/// edge's boost::edge_index is its index in graph.edges(). Linear in nodes and edges.
[[nodiscard]] ConstraintCsr to_boost_graph(const DependencyGraph& graph);

}  // namespace ptmpl::detail
