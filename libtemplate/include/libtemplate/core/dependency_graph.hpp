// The dependency graph of a template: its links resolved to stories, and the constraint graph
// they form with the story tree (docs/semantics.md §5), on which lint finds cycles and the scheduler orders
// stories.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "libtemplate/core/model.hpp"
#include "libtemplate/core/story_index.hpp"

namespace ptmpl {

namespace detail {
class TempIdTable;  // private: schedule/temp_id_table.hpp
}

/// `id` in the form that compares like its text (`temp_id_key()`) without building the text:
/// a string that spells an integer exactly as temp_id_key() would ("7", not "07" or "+7") becomes
/// that integer. Two canonical ids are equal (==) exactly when their texts are. A string keeps
/// pointing at the same characters.
[[nodiscard]] TempId canonical_temp_id(const TempId& id);

/// Hashes a canonical temp_id (see canonical_temp_id()), for maps keyed by temp_id.
struct TempIdHash {
  [[nodiscard]] std::size_t operator()(const TempId& id) const noexcept;
};

/// How the two stories of a link sit in the story tree.
enum class LinkNesting : std::uint8_t {
  Unrelated,             ///< neither contains the other: the only kind the constraint graph holds
  Same,                  ///< a story linked to itself
  SourceContainsTarget,  ///< the target is a sub-story (at any depth) of the source
  TargetContainsSource,  ///< the source is a sub-story (at any depth) of the target
};

/// One dependency whose target_id names a story of the template.
struct Link {
  // Story indices in 32 bits (as the graph's nodes and edges): a link is 48 bytes, not 56.
  std::uint32_t source = 0;  ///< the story that holds the dependency (its StoryIndex index)
  std::uint32_t target = 0;  ///< the story its target_id names
  /// The dependency as written: its `node` (the place in the file) and `index`; its pointer is
  /// `graph.story(source).dependency_pointer(*dependency)`.
  const Dependency* dependency = nullptr;
  std::optional<DependencyType> type;  ///< absent when `type` is missing or not 0–3
  std::int64_t lag = 0;                ///< working days; 0 when `lag` is absent or not an integer
  bool lag_invalid = false;            ///< `lag` is written but is not an integer (see lag_invalid())
  LinkNesting nesting = LinkNesting::Unrelated;

  /// True when the link constrains the schedule (docs/semantics.md §5): it joins two unrelated stories, with
  /// a valid type and a lag that is absent or an integer. Any other link is a lint error, which
  /// the scheduler skips (Schedule::skipped_links()) rather than guess at.
  [[nodiscard]] bool schedulable() const { return nesting == LinkNesting::Unrelated && type && !lag_invalid; }
};

/// True when `dependency`, one of `owner`'s, writes a `lag` that the model could not read as an
/// int64: a fraction, a string, another type, or an integer beyond 64 bits (lint's
/// `dependency-lag-invalid`). An absent lag is valid: it means 0 working days.
[[nodiscard]] bool lag_invalid(const Story& owner, const Dependency& dependency);

/// A dependency whose target_id is missing, invalid, or names no story.
struct DanglingLink {
  std::size_t source = 0;  ///< the story that holds it
  const Dependency* dependency = nullptr;
};

/// One cycle of the constraint graph, reported at the link that closes it (see find_cycles()).
struct Cycle {
  std::size_t closing_link = 0;  ///< index in links()
  /// The links around the cycle in order, the last being `closing_link`. Empty for cycles
  /// past CycleOptions::max_chains.
  std::vector<std::size_t> links;
  /// The chain of stories (pre-order indices): the first link's source, its target, and so on
  /// around the cycle back to the first story, which therefore ends the chain too. Two
  /// neighbours are either the source and target of a link, or a parent and a story inside
  /// it (the cycle passes through the parent's subtree, docs/semantics.md §5). Empty when `links` is.
  std::vector<std::size_t> stories;
};

struct CycleOptions {
  /// Cycles beyond this many are still found (each at its closing link) but carry no chain:
  /// a chain is as long as the cycle, and pathological templates could hold many long ones.
  std::size_t max_chains = 100;
};

/// The links of a template over its stories, and the constraint graph they form.
///
/// Stories are numbered by a StoryIndex (pre-order), shared with DeclaredIntervals, Rollup and
/// Schedule. A dependency belongs to the story that holds it (docs/semantics.md §3: stored on
/// the source), whatever its source_id says. Its target is the story whose temp_id has the
/// same text (`temp_id_key()`, so 7 and "7" are one id): the holding story itself when its own
/// temp_id matches, else the first such story in tree order (duplicate temp_ids are lint's
/// `temp-id-duplicate`). Invalid types and lags are carried as they are; lint reports them.
///
/// The constraint graph has two nodes per parent and one per leaf (docs/semantics.md §5): a link goes from
/// its source's *out* node to its target's *in* node; a parent's in node feeds the in node of
/// each of its children (a link into a parent constrains its whole subtree) and each child's out
/// node feeds the parent's out node (a link out of a parent uses its rolled-up interval). A leaf's
/// in and out are the same node. A parent and its subtree alone therefore never form a cycle.
/// Only links between unrelated stories are edges: a link of a story to itself, to a story
/// inside it or to a story that contains it is an error of its own, not a cycle.
///
/// Building is linear in the stories and dependencies and uses no recursion (any nesting
/// depth, up to 2^32 - 2 stories).
class DependencyGraph {
 public:
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  /// A directed edge of the constraint graph, between node ids (< node_count()).
  /// Node ids and link indices are held in 32 bits (a graph has fewer than 2^32 - 1 of each:
  /// the constructor throws std::length_error otherwise), so an edge is 12 bytes.
  struct Edge {
    static constexpr std::uint32_t kTreeEdge = static_cast<std::uint32_t>(-1);
    std::uint32_t from = 0;
    std::uint32_t to = 0;
    std::uint32_t link_index = kTreeEdge;  ///< index in links(), or kTreeEdge for an edge of the story tree

    [[nodiscard]] bool is_link() const { return link_index != kTreeEdge; }
    /// The index in links(), or npos for an edge of the story tree.
    [[nodiscard]] std::size_t link() const { return is_link() ? link_index : npos; }
  };

  /// The graph of the stories of `index`, which must outlive it.
  explicit DependencyGraph(const StoryIndex& index);
  /// The graph of `stories` with an index of its own. Holds pointers into `stories`, which must
  /// outlive it.
  explicit DependencyGraph(std::span<const Story> stories);
  DependencyGraph(DependencyGraph&&) noexcept;
  DependencyGraph& operator=(DependencyGraph&&) noexcept;
  ~DependencyGraph();

  /// The numbering of the stories.
  [[nodiscard]] const StoryIndex& index() const { return *index_; }
  /// Number of stories at every level.
  [[nodiscard]] std::size_t size() const { return out_node_.size(); }
  /// The story numbered `index` (< size()); parent() and is_ancestor() are the StoryIndex's.
  [[nodiscard]] const Story& story(std::size_t index) const { return index_->story(index); }
  [[nodiscard]] std::size_t parent(std::size_t index) const { return index_->parent(index); }
  [[nodiscard]] bool is_ancestor(std::size_t ancestor, std::size_t descendant) const {
    return index_->is_ancestor(ancestor, descendant);
  }

  /// The first story in tree order whose temp_id has the same text as `temp_id`
  /// (`temp_id_key()`: 7, "7" and std::string("7") all find temp_id 7), or npos.
  [[nodiscard]] std::size_t find(const TempId& temp_id) const;
  /// The stories whose temp_id an earlier story in tree order already has (same text), in tree
  /// order: every story with a temp_id but the one find() returns for it.
  [[nodiscard]] std::span<const std::size_t> repeated_temp_ids() const { return repeated_temp_ids_; }

  /// Every dependency whose target was found, in tree order of the stories that hold them and
  /// then in the order written. Links of one story are consecutive.
  [[nodiscard]] std::span<const Link> links() const { return links_; }
  /// Dependencies whose target_id is missing, invalid or names no story, in the same order.
  [[nodiscard]] std::span<const DanglingLink> dangling() const { return dangling_; }

  /// Nodes of the constraint graph: story `i`'s in node is `i`; a parent's out node is
  /// numbered from size() on, in tree order of the parents; a leaf's out node is its in node.
  [[nodiscard]] std::size_t node_count() const { return node_story_.size(); }
  [[nodiscard]] std::size_t in_node(std::size_t story) const { return story; }
  [[nodiscard]] std::size_t out_node(std::size_t story) const { return out_node_[story]; }
  /// The story a node belongs to.
  [[nodiscard]] std::size_t story_of_node(std::size_t node) const { return node_story_[node]; }
  /// Every edge, sorted by `from`; the edges of one node in a fixed order (for a leaf or an out
  /// node: its links to unrelated stories as written, then the edge to its parent's out node;
  /// for a parent's in node: the edges to its children, in order).
  [[nodiscard]] std::span<const Edge> edges() const { return edges_; }

  /// The cycles of the constraint graph, found by one depth-first search (iterative: no
  /// recursion, however long a chain) that starts from the stories in tree order and follows
  /// each node's edges in the order of edges(). An edge back to a node on the current path
  /// closes a cycle, which is reported at its *closing link*: the last link on the cycle in the
  /// order of the search (the returning edge itself when that is a link). A link closes at most
  /// one reported cycle, so no two cycles are reported at one dependency. Cycles are in the
  /// order found. Empty exactly when the graph is acyclic; a cycle that shares links with a
  /// reported one may itself go unreported (breaking the reported ones shows it). Linear in
  /// nodes and edges, plus the length of the chains built (at most `options.max_chains`).
  [[nodiscard]] std::vector<Cycle> find_cycles(const CycleOptions& options = {}) const;

 private:
  explicit DependencyGraph(std::unique_ptr<const StoryIndex> own_index);

  const StoryIndex* index_;
  std::unique_ptr<const StoryIndex> own_index_;  // when built from stories
  std::vector<std::uint32_t> out_node_;          // by story: its out node (itself unless a parent)
  std::unique_ptr<const detail::TempIdTable> temp_ids_;
  std::vector<std::size_t> repeated_temp_ids_;
  std::vector<Link> links_;
  std::vector<DanglingLink> dangling_;
  std::vector<std::uint32_t> node_story_;
  std::vector<Edge> edges_;
};

/// A story as messages name it: its temp_id and title (`3 "Design"`, the title on one line and
/// cut at 40 columns), the title alone without a temp_id, its place without either.
[[nodiscard]] std::string story_reference(const Story& story);

/// A cycle as every message about it shows it (lint, schedule, convert): the stories around it,
/// each named by story_reference() where it first appears and by its temp_id where the chain
/// comes back to it (`1 "Design" → 2 "Build" → 1`), then why a step from a parent to a story
/// inside it, or back, belongs to the cycle. A cycle past CycleOptions::max_chains shows its
/// closing link alone (`7 "Test" → 3 "Design" → …`) and says why.
[[nodiscard]] std::string describe_cycle(const DependencyGraph& graph, const Cycle& cycle);

}  // namespace ptmpl
