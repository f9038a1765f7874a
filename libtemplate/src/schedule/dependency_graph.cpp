#include "libtemplate/core/dependency_graph.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <utility>

#include <boost/graph/depth_first_search.hpp>

#include "libtemplate/core/json.hpp"
#include "schedule/boost_graph.hpp"
#include "schedule/temp_id_table.hpp"
#include "text/text_width.hpp"

namespace ptmpl {

namespace {

using CsrGraph = detail::ConstraintCsr;
using Vertex = boost::graph_traits<CsrGraph>::vertex_descriptor;
using EdgeDescriptor = boost::graph_traits<CsrGraph>::edge_descriptor;

std::optional<DependencyType> type_of(const Dependency& dependency) {
  if (!dependency.type || *dependency.type < 0 || *dependency.type > 3) return std::nullopt;
  return static_cast<DependencyType>(*dependency.type);
}

// What the search keeps per node and finds; the visitor (copied by Boost) points to it.
struct Search {
  const std::vector<DependencyGraph::Edge>* edges = nullptr;
  std::vector<std::size_t> tree_edge;  // the edge that discovered each node, or npos for a root
  std::vector<std::size_t> last_link;  // the last link on the path from the root to each node
  std::vector<bool> closed;            // links that already close a reported cycle
  std::vector<std::pair<std::size_t, std::size_t>> back_edges;  // (edge, closing link)
};

class CycleVisitor : public boost::default_dfs_visitor {
 public:
  explicit CycleVisitor(Search& search) : search_(&search) {}

  void start_vertex(Vertex root, const CsrGraph&) {
    search_->tree_edge[root] = DependencyGraph::npos;
    search_->last_link[root] = DependencyGraph::npos;
  }

  void tree_edge(EdgeDescriptor e, const CsrGraph& g) {
    const std::size_t index = boost::get(boost::edge_index, g, e);
    const DependencyGraph::Edge& edge = (*search_->edges)[index];
    search_->tree_edge[edge.to] = index;
    search_->last_link[edge.to] = edge.is_link() ? edge.link() : search_->last_link[edge.from];
  }

  void back_edge(EdgeDescriptor e, const CsrGraph& g) {
    const std::size_t index = boost::get(boost::edge_index, g, e);
    const DependencyGraph::Edge& edge = (*search_->edges)[index];
    // The edges of the story tree alone form no cycle, so the path from the returning edge's
    // target to its source holds a link whenever the returning edge is not one.
    const std::size_t closing = edge.is_link() ? edge.link() : search_->last_link[edge.from];
    if (closing == DependencyGraph::npos || search_->closed[closing]) return;
    search_->closed[closing] = true;
    search_->back_edges.emplace_back(index, closing);
  }

 private:
  Search* search_;
};

}  // namespace

TempId canonical_temp_id(const TempId& id) {
  const auto* text = std::get_if<std::string_view>(&id);
  if (text == nullptr || text->empty()) return id;
  std::int64_t n = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), n);
  if (ec != std::errc() || end != text->data() + text->size()) return id;
  char spelled[24];
  auto [spelled_end, spelled_ec] = std::to_chars(spelled, spelled + sizeof spelled, n);
  if (std::string_view(spelled, static_cast<std::size_t>(spelled_end - spelled)) != *text) return id;
  return n;
}

std::size_t TempIdHash::operator()(const TempId& id) const noexcept {
  if (const auto* n = std::get_if<std::int64_t>(&id)) {
    // Mixed (MurmurHash3's finaliser): temp_ids are often consecutive or strided, and open
    // addressing takes the low bits.
    std::uint64_t x = static_cast<std::uint64_t>(*n);
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return static_cast<std::size_t>(x);
  }
  return std::hash<std::string_view>{}(std::get<std::string_view>(id)) ^ 0x9e3779b97f4a7c15ULL;
}

bool lag_invalid(const Story& owner, const Dependency& dependency) {
  // A regular dependency list holds no lag the model could not read (Story::irregular_keys).
  return !dependency.lag && owner.irregular(StoryKey::Dependencies) && dependency.node.find("lag") != nullptr;
}

DependencyGraph::DependencyGraph(std::span<const Story> stories)
    : DependencyGraph(std::make_unique<const StoryIndex>(stories)) {}

DependencyGraph::DependencyGraph(std::unique_ptr<const StoryIndex> own_index) : DependencyGraph(*own_index) {
  own_index_ = std::move(own_index);
}

DependencyGraph::DependencyGraph(DependencyGraph&&) noexcept = default;
DependencyGraph& DependencyGraph::operator=(DependencyGraph&&) noexcept = default;
DependencyGraph::~DependencyGraph() = default;

DependencyGraph::DependencyGraph(const StoryIndex& index) : index_(&index) {
  const std::size_t count = index.size();
  std::size_t parents = 0;
  std::size_t dependencies = 0;
  for (std::size_t i = 0; i < count; ++i) {
    parents += index.is_parent(i) ? 1 : 0;
    dependencies += index.story(i).dependencies.size();
  }
  // Node ids and link indices are 32-bit (Edge), with one value kept for "no link".
  constexpr std::size_t kMost = Edge::kTreeEdge - 1;
  if (count + parents > kMost || dependencies > kMost)
    throw std::length_error("a template of more than 4,294,967,294 stories or dependencies");
  temp_ids_ = std::make_unique<const detail::TempIdTable>(index, repeated_temp_ids_);
  out_node_.resize(count);
  node_story_.resize(count + parents);
  for (std::size_t i = 0; i < count; ++i) {
    out_node_[i] = static_cast<std::uint32_t>(i);
    node_story_[i] = static_cast<std::uint32_t>(i);
  }
  for (std::size_t i = 0, next = count; i < count; ++i) {
    if (!index.is_parent(i)) continue;
    out_node_[i] = static_cast<std::uint32_t>(next);
    node_story_[next++] = static_cast<std::uint32_t>(i);
  }

  // Links, story by story, in the order written.
  links_.reserve(dependencies);
  std::vector<std::uint32_t> first_link(count + 1, 0);
  for (std::size_t i = 0; i < count; ++i) {
    first_link[i] = static_cast<std::uint32_t>(links_.size());
    const std::optional<TempId>& own = temp_ids_->key(i);
    for (const Dependency& dependency : index.story(i).dependencies) {
      std::size_t target = npos;
      if (dependency.target_id) {
        const TempId key = canonical_temp_id(*dependency.target_id);
        target = own == key ? i : temp_ids_->find(key);
      }
      if (target == npos) {
        dangling_.push_back({i, &dependency});
        continue;
      }
      Link link{static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(target), &dependency,
                type_of(dependency),           dependency.lag.value_or(0),         false,
                LinkNesting::Unrelated};
      if (!dependency.lag) link.lag_invalid = lag_invalid(index.story(i), dependency);
      if (target == i)
        link.nesting = LinkNesting::Same;
      else if (is_ancestor(i, target))
        link.nesting = LinkNesting::SourceContainsTarget;
      else if (is_ancestor(target, i))
        link.nesting = LinkNesting::TargetContainsSource;
      links_.push_back(link);
    }
  }
  first_link[count] = static_cast<std::uint32_t>(links_.size());

  // Edges, sorted by their node of origin: in nodes (= story indices) first, then the out
  // nodes of parents in the same order as their stories.
  std::size_t edge_count = 0;
  for (const Link& link : links_) edge_count += link.nesting == LinkNesting::Unrelated ? 1 : 0;
  for (std::size_t i = 0; i < count; ++i)
    edge_count += index.parent(i) != npos ? 2 : 0;  // parent in → child, child → parent out
  edges_.reserve(edge_count);
  auto edge = [](std::size_t from, std::size_t to, std::uint32_t link) {
    return Edge{static_cast<std::uint32_t>(from), static_cast<std::uint32_t>(to), link};
  };
  auto out_edges = [&](std::size_t i, std::size_t from) {
    for (std::uint32_t l = first_link[i]; l < first_link[i + 1]; ++l)
      if (links_[l].nesting == LinkNesting::Unrelated) edges_.push_back(edge(from, in_node(links_[l].target), l));
    if (index.parent(i) != npos) edges_.push_back(edge(from, out_node(index.parent(i)), Edge::kTreeEdge));
  };
  for (std::size_t i = 0; i < count; ++i) {
    if (index.is_parent(i)) {
      for (std::size_t child : index.children(i)) edges_.push_back(edge(i, in_node(child), Edge::kTreeEdge));
    } else {
      out_edges(i, i);
    }
  }
  for (std::size_t i = 0; i < count; ++i)
    if (index.is_parent(i)) out_edges(i, out_node(i));
}

std::size_t DependencyGraph::find(const TempId& temp_id) const {
  return temp_ids_->find(canonical_temp_id(temp_id));
}

std::vector<Cycle> DependencyGraph::find_cycles(const CycleOptions& options) const {
  std::vector<Cycle> cycles;
  if (edges_.empty()) return cycles;

  const CsrGraph graph = detail::to_boost_graph(*this);

  Search search;
  search.edges = &edges_;
  search.tree_edge.assign(node_count(), npos);
  search.last_link.assign(node_count(), npos);
  search.closed.assign(links_.size(), false);
  std::vector<boost::default_color_type> colours(node_count());
  boost::depth_first_search(graph, boost::visitor(CycleVisitor(search))
                                       .color_map(boost::make_iterator_property_map(
                                           colours.begin(), boost::get(boost::vertex_index, graph))));

  cycles.reserve(search.back_edges.size());
  for (const auto& [returning, closing] : search.back_edges) {
    Cycle& cycle = cycles.emplace_back();
    cycle.closing_link = closing;
    if (cycles.size() > options.max_chains) continue;
    // The returning edge's target is on the path to its source: walk the tree edges back.
    std::vector<std::size_t> path{returning};
    for (std::size_t node = edges_[returning].from; node != edges_[returning].to;) {
      const std::size_t edge = search.tree_edge[node];
      path.push_back(edge);
      node = edges_[edge].from;
    }
    std::reverse(path.begin(), path.end());
    // In the order of the search the closing link is the last link of the path (the last
    // one on the way to the returning edge's source, or that edge itself).
    for (std::size_t edge : path)
      if (edges_[edge].is_link()) cycle.links.push_back(edges_[edge].link());

    for (std::size_t link : cycle.links) {
      const Link& l = links_[link];
      if (cycle.stories.empty() || cycle.stories.back() != l.source) cycle.stories.push_back(l.source);
      cycle.stories.push_back(l.target);
    }
    if (cycle.stories.back() != cycle.stories.front()) cycle.stories.push_back(cycle.stories.front());
  }
  return cycles;
}

namespace detail {

ConstraintCsr to_boost_graph(const DependencyGraph& graph) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  pairs.reserve(graph.edges().size());
  for (const DependencyGraph::Edge& edge : graph.edges())
    pairs.emplace_back(static_cast<std::uint32_t>(edge.from), static_cast<std::uint32_t>(edge.to));
  // Edges are already sorted by origin, so each keeps its index in edges() as its edge_index.
  return ConstraintCsr(boost::edges_are_sorted, pairs.begin(), pairs.end(),
                       static_cast<std::uint32_t>(graph.node_count()));
}

}  // namespace detail

std::string story_reference(const Story& story) {
  constexpr std::size_t kTitleColumns = 40;
  std::string title;
  if (story.title && !story.title->empty())
    json::append_quoted(title, truncate_to_width(one_line(*story.title), kTitleColumns));
  if (!story.temp_id) return title.empty() ? "the story at " + story.pointer() : title;
  std::string out = temp_id_key(*story.temp_id);
  if (!title.empty()) out += " " + title;
  return out;
}

std::string describe_cycle(const DependencyGraph& graph, const Cycle& cycle) {
  if (cycle.stories.empty()) {
    const Link& closing = graph.links()[cycle.closing_link];
    return story_reference(graph.story(closing.source)) + " → " + story_reference(graph.story(closing.target)) +
           " → … (the rest of the chain is not shown: the template has more than " +
           std::to_string(CycleOptions{}.max_chains) + " cycles)";
  }
  // Where the chain comes back to a story it named, its temp_id is enough.
  auto short_name = [&](std::size_t at) {
    const Story& story = graph.story(at);
    return story.temp_id ? temp_id_key(*story.temp_id) : story_reference(story);
  };
  std::string chain;
  std::string notes;
  std::unordered_set<std::size_t> named;
  for (std::size_t i = 0; i < cycle.stories.size(); ++i) {
    const std::size_t at = cycle.stories[i];
    if (i > 0) chain += " → ";
    chain += named.insert(at).second ? story_reference(graph.story(at)) : short_name(at);
    if (i == 0) continue;
    // Neighbours that are not a link's two ends are a parent and a story inside it: the cycle
    // enters `outer` and goes on from `inner` inside it (`into`), or leaves `inner` for
    // `outer`, whose interval is rolled up from it.
    const std::size_t before = cycle.stories[i - 1];
    auto note = [&](std::size_t outer, std::size_t inner, bool into) {
      if (!notes.empty()) notes += "; ";
      notes += short_name(outer) + " contains " + short_name(inner) +
               (into ? ", so a link into " : ", so a link out of ") + short_name(outer) +
               (into ? " applies to " : " waits for ") + short_name(inner);
    };
    if (graph.is_ancestor(before, at))
      note(before, at, true);
    else if (graph.is_ancestor(at, before))
      note(at, before, false);
  }
  if (!notes.empty()) chain += " (" + notes + ")";
  return chain;
}

}  // namespace ptmpl
