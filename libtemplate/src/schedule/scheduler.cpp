// The critical path method over the constraint graph of DependencyGraph (docs/semantics.md §5).
//
// The graph has one node per leaf and two per parent (in and out). Every node carries two
// numbers per pass, read according to its kind:
//   forward  leaf       early start, early finish
//            parent in  lower bounds on the start and on the finish of every story inside it
//                       (and, in EarlyDates::ff_floor, whether a finish-to-finish link binds it)
//            parent out the rolled-up early start (min) and finish (max) of its children
//   backward leaf       late start, late finish
//            parent in  the least late start and late finish inside it (what a link into the
//                       parent may push against)
//            parent out upper bounds on its children's start and finish (what links out of the
//                       parent allow)
// Both passes visit the nodes once, in topological order and then in reverse, and each node
// looks only at its own outgoing edges: linear in nodes and edges.
//
// The steps, each a function below: order the nodes (topological_order), read what the passes
// need of each story (read_network), the forward pass, the backward pass, the roll-up of the
// results onto the stories (roll_up), and the critical chains (trace_critical_chains).
#include "libtemplate/core/schedule.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <utility>

#include <boost/graph/topological_sort.hpp>

#include "schedule/boost_graph.hpp"

namespace ptmpl {

namespace {

constexpr std::size_t npos = DependencyGraph::npos;
constexpr std::int64_t kLimit = Schedule::kDayLimit;
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
  Base,         // its declared start, or day 0 (no incoming link, or a finish-to-finish link's floor)
  StartBound,   // the bound on its start (set by the edge in start_edge)
  FinishBound,  // the bound on its finish (set by the edge in finish_edge)
};

// A leaf's interval; `end_side` places a zero-length one (a milestone) at the end of day start − 1.
Interval make_interval(std::int64_t start, std::int64_t finish, bool end_side) {
  if (finish > start) return Interval{start, finish, finish - 1, false};
  return Interval{start, finish, end_side ? start - 1 : start, end_side};
}

// Moment a is before moment b (on one boundary, the end side is: docs/semantics.md §4).
bool earlier_moment(std::int64_t a, bool a_end_side, std::int64_t b, bool b_end_side) {
  return later_moment(b, b_end_side, a, a_end_side);
}

enum class Kind : std::uint8_t { Leaf, ParentIn, ParentOut };

// The constraint graph as the passes read it: its nodes in topological order, the edges of each
// node, and what the passes need of each story.
struct Network {
  const DependencyGraph* graph = nullptr;
  std::vector<std::uint32_t> order;       // topological
  std::vector<std::uint32_t> first_edge;  // node v's edges are [first_edge[v], first_edge[v + 1])
  std::vector<Kind> kind;                 // by node
  std::vector<std::int64_t> length;       // a leaf's story_length()
  std::vector<std::int64_t> declared;     // a leaf's declared start, kNoLowerBound without one (or asap)

  [[nodiscard]] bool is_leaf(std::size_t node) const { return kind[node] == Kind::Leaf; }
  [[nodiscard]] bool is_parent_in(std::size_t node) const { return kind[node] == Kind::ParentIn; }
};

// The forward pass's numbers per node (see the file comment) and the edges that set them.
struct EarlyDates {
  std::vector<std::int64_t> start;
  std::vector<std::int64_t> finish;
  std::vector<std::size_t> start_edge;   // the edge that set `start` (bound or roll-up)
  std::vector<std::size_t> finish_edge;  // the edge that set `finish`
  // The side of each moment (docs/semantics.md §4): 1 when `start` (`finish`) is the end of the
  // day before it — a bound from a finish, a milestone placed there, a task's finish.
  std::vector<std::uint8_t> start_end_side;
  std::vector<std::uint8_t> finish_end_side;
  // A finish-to-finish link ends at the node (or at an ancestor's in node): the story may not
  // start before day 0 (docs/semantics.md §5).
  std::vector<std::uint8_t> ff_floor;
  std::vector<Driver> driver;  // by story
};

// The backward pass's numbers per node (see the file comment).
struct LateDates {
  std::vector<std::int64_t> start;
  std::vector<std::int64_t> finish;
};

// The nodes in topological order (Boost.Graph, non-recursive DFS); none when there is a cycle.
std::optional<std::vector<std::uint32_t>> topological_order(const DependencyGraph& graph) {
  std::vector<std::uint32_t> order;
  order.reserve(graph.node_count());
  const detail::ConstraintCsr csr = detail::to_boost_graph(graph);
  try {
    boost::topological_sort(csr, std::back_inserter(order));  // reverse order
  } catch (const boost::not_a_dag&) {
    return std::nullopt;
  }
  std::reverse(order.begin(), order.end());
  return order;
}

// What the passes need, read once in index order: the passes visit nodes in topological order,
// and reaching into the stories from there would miss the cache each time.
Network read_network(const DependencyGraph& graph, std::vector<std::uint32_t> order, const ScheduleOptions& options,
                     Arithmetic& math) {
  const std::size_t n = graph.size();
  const std::size_t nodes = graph.node_count();
  Network network;
  network.graph = &graph;
  network.order = std::move(order);
  network.first_edge.assign(nodes + 1, 0);
  for (const DependencyGraph::Edge& edge : graph.edges()) ++network.first_edge[edge.from + 1];
  for (std::size_t v = 0; v < nodes; ++v) network.first_edge[v + 1] += network.first_edge[v];

  network.kind.assign(nodes, Kind::ParentOut);
  network.length.assign(n, 0);
  network.declared.assign(n, kNoLowerBound);
  for (std::size_t i = 0; i < n; ++i) {
    const bool parent = graph.index().is_parent(i);
    network.kind[i] = parent ? Kind::ParentIn : Kind::Leaf;
    if (parent) continue;
    const Story& story = graph.story(i);
    const std::optional<std::int64_t> length = story_length(story);
    // A span beyond 64 bits is far beyond the range the passes compute in.
    if (!length) math.overflow = true;
    network.length[i] = length.value_or(kLimit);
    if (options.delay && options.delay->story == i)
      network.length[i] = math.add(network.length[i], options.delay->days);
    if (!options.asap && story.relative_start_date) {
      // A start beyond the range is refused, not moved to its edge (lint's schedule-out-of-range).
      if (*story.relative_start_date > kLimit || *story.relative_start_date < -kLimit) math.overflow = true;
      network.declared[i] = std::clamp(*story.relative_start_date, -kLimit, kLimit);
    }
  }
  return network;
}

// Early dates, in topological order: each node settles its own numbers from the bounds its
// predecessors left on it, then pushes bounds along its edges.
EarlyDates forward_pass(const Network& network, Arithmetic& math) {
  const DependencyGraph& graph = *network.graph;
  const std::size_t n = graph.size();
  const std::size_t nodes = graph.node_count();
  const auto edges = graph.edges();
  const auto links = graph.links();
  EarlyDates early;
  early.start.assign(nodes, kNoLowerBound);
  early.finish.assign(nodes, kNoLowerBound);
  early.start_edge.assign(nodes, npos);
  early.finish_edge.assign(nodes, npos);
  early.ff_floor.assign(nodes, 0);
  early.start_end_side.assign(nodes, 0);
  early.finish_end_side.assign(nodes, 0);
  early.driver.assign(n, Driver::Base);
  auto& early_s = early.start;
  auto& early_f = early.finish;
  auto& start_edge = early.start_edge;
  auto& finish_edge = early.finish_edge;
  for (std::size_t v = n; v < nodes; ++v) early_s[v] = kNoUpperBound;  // out nodes take a minimum

  for (const std::uint32_t v : network.order) {
    if (network.is_leaf(v)) {
      // MS Project's rule (docs/semantics.md §5): without an incoming link (on the leaf or an ancestor) a leaf
      // starts on its declared start, else on day 0; with one, where its links put it — before
      // day 0 too — but no earlier than its declared start (a start-no-earlier-than), and no
      // earlier than day 0 when one of them is finish-to-finish.
      const bool linked = early_s[v] != kNoLowerBound || early_f[v] != kNoLowerBound;
      std::int64_t start = network.declared[v];
      if (!linked && start == kNoLowerBound) start = 0;
      if (early.ff_floor[v] != 0) start = std::max<std::int64_t>(start, 0);
      const std::int64_t base = start;  // kNoLowerBound when the links alone place it
      // Ties go to the links, so that critical chains follow them.
      Driver why = Driver::Base;
      if (early_s[v] != kNoLowerBound && early_s[v] >= start) {
        start = early_s[v];
        why = Driver::StartBound;
      }
      if (early_f[v] != kNoLowerBound) {
        const std::int64_t from_finish = math.sub(early_f[v], network.length[v]);
        if (from_finish > start || (from_finish == start && why == Driver::Base)) {
          start = from_finish;
          why = Driver::FinishBound;
        }
      }
      early.driver[v] = why;
      // A task starts at the start of a day and finishes at the end of one. A milestone (or any
      // zero-length leaf) sits where its binding constraint puts it: at the end of a day when
      // that is a finish, at the start of one when it is a start, its declared day or day 0;
      // of several on its boundary, the start side (docs/semantics.md §4).
      bool end_side = network.length[v] == 0;
      if (end_side) {
        const bool from_base = base == start;
        const bool from_start_bound = early_s[v] == start && early.start_end_side[v] == 0;
        const bool from_finish_bound =
            early_f[v] != kNoLowerBound && early_f[v] - network.length[v] == start && early.finish_end_side[v] == 0;
        end_side = !(from_base || from_start_bound || from_finish_bound);
      }
      early_s[v] = start;
      early_f[v] = math.add(start, network.length[v]);
      early.start_end_side[v] = end_side ? 1 : 0;
      early.finish_end_side[v] = network.length[v] == 0 ? early.start_end_side[v] : 1;
    }
    for (std::size_t e = network.first_edge[v]; e < network.first_edge[v + 1]; ++e) {
      const DependencyGraph::Edge& edge = edges[e];
      const std::size_t to = edge.to;
      if (!edge.is_link()) {
        const bool s_end = early.start_end_side[v] != 0;
        const bool f_end = early.finish_end_side[v] != 0;
        if (network.is_parent_in(v)) {  // a parent hands its bounds to each child
          early.ff_floor[to] |= early.ff_floor[v];
          if (early_s[v] != kNoLowerBound &&
              later_moment(early_s[v], s_end, early_s[to], early.start_end_side[to] != 0)) {
            early_s[to] = early_s[v];
            early.start_end_side[to] = s_end;
            start_edge[to] = e;
          }
          if (early_f[v] != kNoLowerBound &&
              later_moment(early_f[v], f_end, early_f[to], early.finish_end_side[to] != 0)) {
            early_f[to] = early_f[v];
            early.finish_end_side[to] = f_end;
            finish_edge[to] = e;
          }
        } else {  // a child rolls up into its parent's out node
          if (earlier_moment(early_s[v], s_end, early_s[to], early.start_end_side[to] != 0) || start_edge[to] == npos) {
            early_s[to] = early_s[v];
            early.start_end_side[to] = s_end;
            start_edge[to] = e;
          }
          if (later_moment(early_f[v], f_end, early_f[to], early.finish_end_side[to] != 0) || finish_edge[to] == npos) {
            early_f[to] = early_f[v];
            early.finish_end_side[to] = f_end;
            finish_edge[to] = e;
          }
        }
        continue;
      }
      const Link& link = links[edge.link_index];
      if (!link.schedulable()) continue;
      const LinkEnds& ends = link_ends(*link.type);
      if (ends.from_finish && ends.to_finish) early.ff_floor[to] = 1;
      const std::int64_t bound = math.add(ends.from_finish ? early_f[v] : early_s[v], link.lag);
      // The lag keeps the side of the moment it counts from.
      const bool bound_end = (ends.from_finish ? early.finish_end_side[v] : early.start_end_side[v]) != 0;
      std::int64_t& target = ends.to_finish ? early_f[to] : early_s[to];
      std::uint8_t& target_end = ends.to_finish ? early.finish_end_side[to] : early.start_end_side[to];
      std::size_t& why = ends.to_finish ? finish_edge[to] : start_edge[to];
      if (later_moment(bound, bound_end, target, target_end != 0) || (bound == target && why == npos)) {
        target = bound;
        target_end = bound_end ? 1 : 0;
        why = e;
      }
    }
  }
  return early;
}

// A leaf's early interval.
Interval early_interval(const EarlyDates& early, std::size_t leaf) {
  return make_interval(early.start[leaf], early.finish[leaf], early.start_end_side[leaf] != 0);
}

// Two intervals as one: the earliest start (moment), the latest finish and the latest due.
Interval widen(const Interval& a, const Interval& b) {
  const bool a_first = earlier_moment(a.start, a.end_side, b.start, b.end_side);
  return Interval{a_first ? a.start : b.start, std::max(a.finish, b.finish), std::max(a.due, b.due),
                  a_first ? a.end_side : b.end_side};
}

// The project's early span: the earliest start, the latest finish and the latest due of any leaf.
Interval project_span(const Network& network, const EarlyDates& early) {
  std::optional<Interval> project;
  for (std::size_t i = 0; i < network.graph->size(); ++i) {
    if (!network.is_leaf(i)) continue;
    const Interval dates = early_interval(early, i);
    project = project ? widen(*project, dates) : dates;
  }
  return project.value_or(Interval{});
}

// Late dates, in reverse topological order from the project finish: each node takes the least
// upper bound its outgoing edges allow.
LateDates backward_pass(const Network& network, const EarlyDates& early, std::int64_t project_finish,
                        Arithmetic& math) {
  const DependencyGraph& graph = *network.graph;
  const std::size_t nodes = graph.node_count();
  const auto edges = graph.edges();
  const auto links = graph.links();
  LateDates late;
  late.start.assign(nodes, kNoUpperBound);
  late.finish.assign(nodes, kNoUpperBound);
  for (auto it = network.order.rbegin(); it != network.order.rend(); ++it) {
    const std::size_t v = *it;
    const bool leaf = network.is_leaf(v);
    const bool parent_in = network.is_parent_in(v);
    // Upper bounds on this node's start and finish from each outgoing edge.
    std::int64_t up_s = kNoUpperBound;
    std::int64_t up_f = leaf ? project_finish : kNoUpperBound;
    for (std::size_t e = network.first_edge[v]; e < network.first_edge[v + 1]; ++e) {
      const DependencyGraph::Edge& edge = edges[e];
      const std::size_t to = edge.to;
      if (!edge.is_link()) {
        if (parent_in) {  // the least late dates inside the parent
          up_s = std::min(up_s, late.start[to]);
          up_f = std::min(up_f, late.finish[to]);
        } else {  // into the parent's out node: every child's finish, the earliest child's start
          up_f = std::min(up_f, late.finish[to]);
          if (early.start[v] == early.start[to]) up_s = std::min(up_s, late.start[to]);
        }
        continue;
      }
      const Link& link = links[edge.link_index];
      if (!link.schedulable()) continue;
      const LinkEnds& ends = link_ends(*link.type);
      const std::int64_t limit = ends.to_finish ? late.finish[to] : late.start[to];
      if (limit == kNoUpperBound) continue;
      std::int64_t& bound = ends.from_finish ? up_f : up_s;
      bound = std::min(bound, math.sub(limit, link.lag));
    }
    if (leaf) {
      std::int64_t finish = up_f;
      if (up_s != kNoUpperBound) finish = std::min(finish, math.add(up_s, network.length[v]));
      late.finish[v] = finish;
      late.start[v] = math.sub(finish, network.length[v]);
    } else {
      late.start[v] = up_s;
      late.finish[v] = up_f;
    }
  }
  return late;
}

// Per story, into `stories` (one per story, as default-constructed): leaves directly, parents
// rolled up from their children (children follow their parent in pre-order, so a backward
// sweep completes each subtree before its parent). Returns how many stories are critical.
std::size_t roll_up(const Network& network, const EarlyDates& early, const LateDates& late,
                    std::span<ScheduledStory> stories) {
  const StoryIndex& index = network.graph->index();
  const std::size_t n = index.size();
  std::vector<bool> seen(n, false);
  std::size_t critical = 0;
  for (std::size_t i = n; i-- > 0;) {
    ScheduledStory& s = stories[i];
    if (network.is_leaf(i)) {
      // A milestone keeps its side late as early: what places it is the same kind of moment.
      s.early = early_interval(early, i);
      s.late = make_interval(late.start[i], late.finish[i], s.early.end_side);
      // Dates are within ±kLimit (2^62), so the difference fits unless a schedule that left the
      // range (Schedule::out_of_range(), refused) put them at opposite ends: then it saturates.
      if (__builtin_sub_overflow(late.start[i], early.start[i], &s.total_float))
        s.total_float = late.start[i] > early.start[i] ? std::numeric_limits<std::int64_t>::max()
                                                       : std::numeric_limits<std::int64_t>::min();
    }
    s.critical = s.total_float <= 0;
    if (s.critical) ++critical;
    const std::size_t p = index.parent(i);
    if (p == npos) continue;
    ScheduledStory& up = stories[p];
    if (!seen[p]) {
      up = s;
      seen[p] = true;
      continue;
    }
    up.early = widen(up.early, s.early);
    up.late = widen(up.late, s.late);
    up.total_float = std::min(up.total_float, s.total_float);
  }
  return critical;
}

// From each critical leaf that no chain has reached yet, latest finish first, back along the
// constraints that set its start. Ties go to the later story in topological order, so a chain
// is not cut short at a story that drives another one finishing at the same time (a milestone
// after a task).
std::vector<std::vector<std::size_t>> trace_critical_chains(const Network& network, const EarlyDates& early,
                                                            std::span<const ScheduledStory> stories) {
  const DependencyGraph& graph = *network.graph;
  const std::size_t nodes = graph.node_count();
  const auto edges = graph.edges();
  std::vector<std::uint32_t> position(nodes);
  for (std::size_t k = 0; k < nodes; ++k) position[network.order[k]] = static_cast<std::uint32_t>(k);
  std::vector<std::size_t> ends;
  for (std::size_t i = 0; i < stories.size(); ++i)
    if (network.is_leaf(i) && stories[i].critical) ends.push_back(i);
  std::sort(ends.begin(), ends.end(), [&](std::size_t a, std::size_t b) {
    if (stories[a].early.finish != stories[b].early.finish) return stories[a].early.finish > stories[b].early.finish;
    return position[a] > position[b];
  });
  std::vector<std::vector<std::size_t>> chains;
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
      if (network.is_leaf(v)) {
        if (early.driver[v] == Driver::Base) break;
        finish_side = early.driver[v] == Driver::FinishBound;
      }
      const std::size_t e = finish_side ? early.finish_edge[v] : early.start_edge[v];
      if (e == npos) break;
      const DependencyGraph::Edge& edge = edges[e];
      if (edge.is_link()) finish_side = link_ends(*graph.links()[edge.link_index].type).from_finish;
      v = edge.from;
    }
    std::reverse(chain.begin(), chain.end());
    chains.push_back(std::move(chain));
  }
  return chains;
}

// For each leaf, the link whose bound set its start or finish in the forward pass, found back
// through the in nodes of its parents (a link into a parent bounds its subtree); npos where its
// declared start or day 0 placed it. At most the depth of the outline per leaf.
std::vector<std::size_t> binding_links(const Network& network, const EarlyDates& early) {
  const DependencyGraph& graph = *network.graph;
  const auto edges = graph.edges();
  std::vector<std::size_t> out(graph.size(), npos);
  for (std::size_t leaf = 0; leaf < graph.size(); ++leaf) {
    if (!network.is_leaf(leaf) || early.driver[leaf] == Driver::Base) continue;
    const bool finish_side = early.driver[leaf] == Driver::FinishBound;
    for (std::size_t v = leaf;;) {
      const std::size_t e = finish_side ? early.finish_edge[v] : early.start_edge[v];
      if (e == npos) break;
      if (edges[e].is_link()) {
        out[leaf] = edges[e].link_index;
        break;
      }
      v = edges[e].from;
    }
  }
  return out;
}

}  // namespace

const LinkEnds& link_ends(DependencyType type) {
  return kLinkEnds[static_cast<std::size_t>(type)];
}

std::int64_t Schedule::project_duration() const {
  if (!project_) return 0;
  return project_->due - project_->first_day() + 1;
}

Schedule::Schedule(const DependencyGraph& graph, const ScheduleOptions& options) : graph_(&graph) {
  for (const Link& link : graph.links()) {
    if (link.schedulable()) continue;
    ++skipped_links_;
    if (link.lag_invalid) ++skipped_for_lag_;
  }
  stories_.resize(graph.size());
  if (graph.size() == 0) return;

  std::optional<std::vector<std::uint32_t>> order = topological_order(graph);
  if (!order) {
    cycles_ = graph.find_cycles();
    return;
  }
  Arithmetic math;
  const Network network = read_network(graph, std::move(*order), options, math);
  const EarlyDates early = forward_pass(network, math);
  const Interval project = project_span(network, early);
  const LateDates late = backward_pass(network, early, project.finish, math);
  if (math.overflow) {
    out_of_range_ = true;
    return;
  }
  critical_count_ = roll_up(network, early, late, stories_);
  project_ = project;
  chains_ = trace_critical_chains(network, early, stories_);
  binding_links_ = binding_links(network, early);
}

ScheduledTemplate::ScheduledTemplate(std::span<const Story> stories, const ScheduleOptions& options)
    : index_(stories), graph_(index_), schedule_(graph_, options) {}

}  // namespace ptmpl
