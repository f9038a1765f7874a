// The critical path method over the constraint graph of DependencyGraph (SPEC §5).
//
// The graph has one node per leaf and two per parent (in and out). Every node carries two
// numbers per pass, read according to its kind:
//   forward  leaf       early start, early finish
//            parent in  lower bounds on the start and on the finish of every story inside it
//            parent out the rolled-up early start (min) and finish (max) of its children
//   backward leaf       late start, late finish
//            parent in  the least late start and late finish inside it (what a link into the
//                       parent may push against)
//            parent out upper bounds on its children's start and finish (what links out of the
//                       parent allow)
// Both passes visit the nodes once, in topological order and then in reverse, and each node
// looks only at its own outgoing edges: linear in nodes and edges.
#include "libtemplate/schedule.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>

#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/topological_sort.hpp>

namespace ptmpl {

namespace {

#ifdef BOOST_RECURSIVE_DFS
#error "the scheduler relies on Boost.Graph's non-recursive depth-first search"
#endif

using CsrGraph = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, boost::no_property,
                                                    boost::no_property, std::uint32_t, std::uint32_t>;

constexpr std::size_t npos = DependencyGraph::npos;
constexpr std::int64_t kLimit = std::int64_t{1} << 62;
constexpr std::int64_t kNoLowerBound = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kNoUpperBound = std::numeric_limits<std::int64_t>::max();

constexpr std::array<LinkEnds, 4> kLinkEnds = {{
    {"start-to-start", "SS", false, false},
    {"start-to-finish", "SF", false, true},
    {"finish-to-start", "FS", true, false},
    {"finish-to-finish", "FF", true, true},
}};

// a + b, kept within ±kLimit; `overflow` records that a result had to be clamped.
struct Arithmetic {
  bool overflow = false;

  std::int64_t add(std::int64_t a, std::int64_t b) {
    std::int64_t sum = 0;
    if (__builtin_add_overflow(a, b, &sum) || sum > kLimit || sum < -kLimit) {
      overflow = true;
      return (b > 0) ? kLimit : -kLimit;
    }
    return sum;
  }
  std::int64_t sub(std::int64_t a, std::int64_t b) {
    if (b == std::numeric_limits<std::int64_t>::min()) {
      overflow = true;
      return kLimit;
    }
    return add(a, -b);
  }
};

// Why a leaf starts when it does (forward pass).
enum class Driver : std::uint8_t {
  Base,         // its declared start, or day 0
  StartBound,   // the bound on its start (set by the edge in start_edge)
  FinishBound,  // the bound on its finish (set by the edge in finish_edge)
};

Interval make_interval(std::int64_t start, std::int64_t finish) {
  return Interval{start, finish, finish > start ? finish - 1 : start};
}

}  // namespace

const LinkEnds& link_ends(DependencyType type) {
  return kLinkEnds[static_cast<std::size_t>(type)];
}

std::int64_t leaf_length(const Story& story) {
  if (story.effective_type() == StoryType::Milestone) return 0;
  if (story.duration && *story.duration >= 0) return *story.duration;
  if (story.relative_start_date && story.relative_due_date && *story.relative_due_date >= *story.relative_start_date) {
    std::int64_t span = 0;
    if (!__builtin_sub_overflow(*story.relative_due_date, *story.relative_start_date, &span) && span < kLimit)
      return span + 1;
  }
  return 1;
}

std::int64_t Schedule::project_duration() const {
  if (!project_) return 0;
  return project_->due - project_->start + 1;
}

Schedule::Schedule(const DependencyGraph& graph, const ScheduleOptions& options) : graph_(&graph) {
  const std::size_t n = graph.size();
  const std::size_t nodes = graph.node_count();
  const auto edges = graph.edges();
  const auto links = graph.links();

  stories_.resize(n);
  depth_.resize(n);
  for (std::size_t i = 0; i < n; ++i) depth_[i] = graph.parent(i) == npos ? 0 : depth_[graph.parent(i)] + 1;
  for (const Link& link : links)
    if (link.nesting != LinkNesting::Unrelated || !link.type) ++skipped_links_;
  if (n == 0) return;

  // Topological order of the nodes (Boost.Graph, non-recursive DFS); a cycle stops here.
  std::vector<std::uint32_t> order;
  order.reserve(nodes);
  {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
    pairs.reserve(edges.size());
    for (const DependencyGraph::Edge& edge : edges)
      pairs.emplace_back(static_cast<std::uint32_t>(edge.from), static_cast<std::uint32_t>(edge.to));
    const CsrGraph csr(boost::edges_are_sorted, pairs.begin(), pairs.end(), static_cast<std::uint32_t>(nodes));
    try {
      boost::topological_sort(csr, std::back_inserter(order));  // reverse topological order
    } catch (const boost::not_a_dag&) {
      cycles_ = graph.find_cycles();
      return;
    }
  }
  std::reverse(order.begin(), order.end());

  // First edge of each node (edges are sorted by origin).
  std::vector<std::uint32_t> first_edge(nodes + 1, 0);
  for (const DependencyGraph::Edge& edge : edges) ++first_edge[edge.from + 1];
  for (std::size_t v = 0; v < nodes; ++v) first_edge[v + 1] += first_edge[v];

  // What the passes need of each story, read once in index order: the passes visit nodes in
  // topological order, and reaching into the stories from there would miss the cache each time.
  enum class Kind : std::uint8_t { Leaf, ParentIn, ParentOut };
  std::vector<Kind> kind(nodes, Kind::ParentOut);
  std::vector<std::int64_t> length(n, 0);
  std::vector<std::int64_t> base(n, 0);  // a leaf's earliest start: declared, or day 0
  for (std::size_t i = 0; i < n; ++i) {
    const Story& story = graph.story(i);
    kind[i] = story.is_parent() ? Kind::ParentIn : Kind::Leaf;
    if (story.is_parent()) continue;
    length[i] = leaf_length(story);
    if (!options.asap && story.relative_start_date) base[i] = std::clamp(*story.relative_start_date, -kLimit, kLimit);
  }
  auto is_leaf = [&](std::size_t node) { return kind[node] == Kind::Leaf; };
  auto is_parent_in = [&](std::size_t node) { return kind[node] == Kind::ParentIn; };

  Arithmetic math;
  // Forward pass.
  std::vector<std::int64_t> early_s(nodes, kNoLowerBound);
  std::vector<std::int64_t> early_f(nodes, kNoLowerBound);
  std::vector<std::size_t> start_edge(nodes, npos);   // the edge that set early_s (bound or roll-up)
  std::vector<std::size_t> finish_edge(nodes, npos);  // the edge that set early_f
  std::vector<Driver> driver(n, Driver::Base);
  for (std::size_t v = n; v < nodes; ++v) early_s[v] = kNoUpperBound;  // out nodes take a minimum

  for (const std::uint32_t v : order) {
    if (is_leaf(v)) {
      std::int64_t start = base[v];
      // Ties go to the links, so that critical chains follow them.
      Driver why = Driver::Base;
      if (early_s[v] != kNoLowerBound && early_s[v] >= start) {
        start = early_s[v];
        why = Driver::StartBound;
      }
      if (early_f[v] != kNoLowerBound) {
        const std::int64_t from_finish = math.sub(early_f[v], length[v]);
        if (from_finish > start || (from_finish == start && why == Driver::Base)) {
          start = from_finish;
          why = Driver::FinishBound;
        }
      }
      driver[v] = why;
      early_s[v] = start;
      early_f[v] = math.add(start, length[v]);
    }
    for (std::size_t e = first_edge[v]; e < first_edge[v + 1]; ++e) {
      const DependencyGraph::Edge& edge = edges[e];
      const std::size_t to = edge.to;
      if (edge.link == npos) {
        if (is_parent_in(v)) {  // a parent hands its bounds to each child
          if (early_s[v] != kNoLowerBound && early_s[v] > early_s[to]) {
            early_s[to] = early_s[v];
            start_edge[to] = e;
          }
          if (early_f[v] != kNoLowerBound && early_f[v] > early_f[to]) {
            early_f[to] = early_f[v];
            finish_edge[to] = e;
          }
        } else {  // a child rolls up into its parent's out node
          if (early_s[v] < early_s[to]) {
            early_s[to] = early_s[v];
            start_edge[to] = e;
          }
          if (early_f[v] > early_f[to] || finish_edge[to] == npos) {
            early_f[to] = early_f[v];
            finish_edge[to] = e;
          }
        }
        continue;
      }
      const Link& link = links[edge.link];
      if (!link.type) continue;
      const LinkEnds& ends = link_ends(*link.type);
      const std::int64_t bound = math.add(ends.from_finish ? early_f[v] : early_s[v], link.lag);
      std::int64_t& target = ends.to_finish ? early_f[to] : early_s[to];
      std::size_t& why = ends.to_finish ? finish_edge[to] : start_edge[to];
      if (bound > target || (bound == target && why == npos)) {
        target = bound;
        why = e;
      }
    }
  }

  // The project finish: the latest early finish of any leaf.
  std::int64_t project_start = kNoUpperBound;
  std::int64_t project_finish = kNoLowerBound;
  std::int64_t project_due = kNoLowerBound;
  for (std::size_t i = 0; i < n; ++i) {
    if (!is_leaf(i)) continue;
    const Interval early = make_interval(early_s[i], early_f[i]);
    project_start = std::min(project_start, early.start);
    project_finish = std::max(project_finish, early.finish);
    project_due = std::max(project_due, early.due);
  }

  // Backward pass.
  std::vector<std::int64_t> late_s(nodes, kNoUpperBound);
  std::vector<std::int64_t> late_f(nodes, kNoUpperBound);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const std::size_t v = *it;
    const bool leaf = is_leaf(v);
    const bool parent_in = is_parent_in(v);
    // Upper bounds on this node's start and finish from each outgoing edge.
    std::int64_t up_s = kNoUpperBound;
    std::int64_t up_f = leaf ? project_finish : kNoUpperBound;
    for (std::size_t e = first_edge[v]; e < first_edge[v + 1]; ++e) {
      const DependencyGraph::Edge& edge = edges[e];
      const std::size_t to = edge.to;
      if (edge.link == npos) {
        if (parent_in) {  // the least late dates inside the parent
          up_s = std::min(up_s, late_s[to]);
          up_f = std::min(up_f, late_f[to]);
        } else {  // into the parent's out node: every child's finish, the earliest child's start
          up_f = std::min(up_f, late_f[to]);
          if (early_s[v] == early_s[to]) up_s = std::min(up_s, late_s[to]);
        }
        continue;
      }
      const Link& link = links[edge.link];
      if (!link.type) continue;
      const LinkEnds& ends = link_ends(*link.type);
      const std::int64_t limit = ends.to_finish ? late_f[to] : late_s[to];
      if (limit == kNoUpperBound) continue;
      std::int64_t& bound = ends.from_finish ? up_f : up_s;
      bound = std::min(bound, math.sub(limit, link.lag));
    }
    if (leaf) {
      std::int64_t finish = up_f;
      if (up_s != kNoUpperBound) finish = std::min(finish, math.add(up_s, length[v]));
      late_f[v] = finish;
      late_s[v] = math.sub(finish, length[v]);
    } else {
      late_s[v] = up_s;
      late_f[v] = up_f;
    }
  }
  if (math.overflow) {
    out_of_range_ = true;
    return;
  }

  // Per story: leaves directly, parents rolled up from their children (children follow their
  // parent in pre-order, so a backward sweep completes each subtree before its parent).
  std::vector<bool> seen(n, false);
  for (std::size_t i = n; i-- > 0;) {
    ScheduledStory& s = stories_[i];
    if (is_leaf(i)) {
      s.early = make_interval(early_s[i], early_f[i]);
      s.late = make_interval(late_s[i], late_f[i]);
      s.total_float = late_s[i] - early_s[i];
    }
    const std::size_t p = graph.parent(i);
    if (p == npos) continue;
    ScheduledStory& up = stories_[p];
    if (!seen[p]) {
      up = s;
      seen[p] = true;
      continue;
    }
    up.early = Interval{std::min(up.early.start, s.early.start), std::max(up.early.finish, s.early.finish),
                        std::max(up.early.due, s.early.due)};
    up.late = Interval{std::min(up.late.start, s.late.start), std::max(up.late.finish, s.late.finish),
                       std::max(up.late.due, s.late.due)};
    up.total_float = std::min(up.total_float, s.total_float);
  }
  for (ScheduledStory& s : stories_) {
    s.critical = s.total_float <= 0;
    if (s.critical) ++critical_count_;
  }
  project_ = Interval{project_start, project_finish, project_due};

  // Critical chains: from each critical leaf that no chain has reached yet, latest finish
  // first, back along the constraints that set its start.
  // Ties go to the later story in topological order, so a chain is not cut short at a story
  // that drives another one finishing at the same time (a milestone after a task).
  std::vector<std::uint32_t> position(nodes);
  for (std::size_t k = 0; k < nodes; ++k) position[order[k]] = static_cast<std::uint32_t>(k);
  std::vector<std::size_t> ends;
  for (std::size_t i = 0; i < n; ++i)
    if (is_leaf(i) && stories_[i].critical) ends.push_back(i);
  std::sort(ends.begin(), ends.end(), [&](std::size_t a, std::size_t b) {
    if (stories_[a].early.finish != stories_[b].early.finish)
      return stories_[a].early.finish > stories_[b].early.finish;
    return position[a] > position[b];
  });
  std::vector<bool> visited(nodes, false);
  for (const std::size_t end : ends) {
    if (visited[end]) continue;
    std::vector<std::size_t> chain;
    std::size_t v = end;
    bool finish_side = false;  // which of the node's two numbers the chain follows
    while (true) {
      const std::size_t story = graph.story_of_node(v);
      if (chain.empty() || chain.back() != story) chain.push_back(story);
      if (visited[v]) break;
      visited[v] = true;
      std::size_t e = npos;
      if (is_leaf(v)) {
        if (driver[v] == Driver::Base) break;
        finish_side = driver[v] == Driver::FinishBound;
      }
      e = finish_side ? finish_edge[v] : start_edge[v];
      if (e == npos) break;
      const DependencyGraph::Edge& edge = edges[e];
      if (edge.link != npos) finish_side = link_ends(*links[edge.link].type).from_finish;
      v = edge.from;
    }
    std::reverse(chain.begin(), chain.end());
    chains_.push_back(std::move(chain));
  }
}

}  // namespace ptmpl
