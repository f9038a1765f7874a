// The schedule of a template (docs/semantics.md §5): the critical path method over the dependency graph's
// constraint DAG — early and late dates of every story, total float, critical stories and the
// critical chains. What `ptmpl schedule` and `ptmpl stats` show.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "libtemplate/core/dependency_graph.hpp"
#include "libtemplate/core/intervals.hpp"
#include "libtemplate/core/model.hpp"
#include "libtemplate/core/story_index.hpp"

namespace ptmpl {

/// Which ends of its two stories a link type ties (docs/semantics.md §5): with predecessor A and successor
/// B, `B.(to_finish ? F : S) >= A.(from_finish ? F : S) + lag`.
struct LinkEnds {
  std::string_view name;          ///< "finish-to-start", …
  std::string_view abbreviation;  ///< "FS", …
  bool from_finish = false;
  bool to_finish = false;
};

/// The ends a type ties, in the service's numbering (0 = SS, 1 = SF, 2 = FS, 3 = FF).
[[nodiscard]] const LinkEnds& link_ends(DependencyType type);

struct ScheduleOptions {
  /// Drop declared starts: every story starts as soon as its links allow (day 0 without one).
  bool asap = false;
  /// A leaf made longer by some working days: what the critical path test of schedule health
  /// asks (health.hpp). Ignored for a parent.
  struct Delay {
    std::size_t story = 0;  ///< pre-order index
    std::int64_t days = 0;
  };
  std::optional<Delay> delay{};
};

/// One story in the schedule. Intervals are half-open [S, F) with `due` the last day occupied
/// (docs/semantics.md §4). A parent's dates roll up its children's: early = [min early start, max early
/// finish), late = [min late start, max late finish), and its total float is the least of its
/// subtree's, so a parent is critical exactly when a story inside it is.
struct ScheduledStory {
  Interval early;
  Interval late;
  std::int64_t total_float = 0;  ///< late start − early start (for a leaf)
  bool critical = false;         ///< total float ≤ 0
};

/// The critical path method over a template's stories (docs/semantics.md §5), O(V + E).
///
/// A leaf lasts its story_length() (intervals.hpp). Forward pass (MS Project's rules): a leaf
/// without an incoming link (on itself or an ancestor) starts on its declared
/// `relative_start_date`, or day 0 without one (or with `asap`); a leaf with incoming links
/// starts at the latest bound they put on it — before day 0 too — but no earlier than its
/// declared start (a start-no-earlier-than, dropped by `asap`), and no earlier than day 0 when
/// one of them is finish-to-finish. A link into a parent bounds every story of its subtree; a
/// link out of a parent reads the parent's rolled-up interval. Backward pass from the
/// project finish (the latest early finish): late dates, total float and the critical flag.
/// The binding constraints of the forward pass give the critical chains.
///
/// Only links that are Link::schedulable() constrain the schedule: links of a story to itself,
/// its ancestors or descendants, with an invalid type or with a lag that is not an integer are
/// lint errors, and are counted in skipped_links() instead of being guessed at.
///
/// A cyclic graph has no schedule: `cycles()` holds the cycles (DependencyGraph::find_cycles,
/// shared with lint's `dependency-cycle`) and no story has dates. Arithmetic saturates instead of
/// overflowing; a schedule whose dates leave ±2^62 working days is reported by out_of_range().
class Schedule {
 public:
  static constexpr std::size_t npos = DependencyGraph::npos;
  /// Every day the schedule computes (starts, finishes, late dates, and a declared start) must
  /// lie within ±kDayLimit; otherwise out_of_range() (lint: `schedule-out-of-range`).
  static constexpr std::int64_t kDayLimit = std::int64_t{1} << 62;

  /// Schedules `graph`, which must outlive the Schedule (and so must its StoryIndex).
  explicit Schedule(const DependencyGraph& graph, const ScheduleOptions& options = {});

  /// True when the stories have dates: no cycle and nothing out of range.
  [[nodiscard]] bool ok() const { return cycles_.empty() && !out_of_range_; }
  /// The cycles that prevent scheduling (empty when acyclic).
  [[nodiscard]] std::span<const Cycle> cycles() const { return cycles_; }
  /// True when a date left ±2^62 working days (absurd declared dates or lags), or a declared
  /// start lies beyond them.
  [[nodiscard]] bool out_of_range() const { return out_of_range_; }

  [[nodiscard]] const DependencyGraph& graph() const { return *graph_; }
  /// Number of stories at every level, numbered by the graph's StoryIndex.
  [[nodiscard]] std::size_t size() const { return stories_.size(); }
  /// Story `index`'s dates (only meaningful when ok()).
  [[nodiscard]] const ScheduledStory& operator[](std::size_t index) const { return stories_[index]; }
  [[nodiscard]] std::span<const ScheduledStory> stories() const { return stories_; }
  /// Nesting level: 0 for a top-level story (the StoryIndex's).
  [[nodiscard]] std::size_t depth(std::size_t index) const { return graph_->index().depth(index); }

  /// The project's early span: earliest start, latest finish, latest due. Absent without
  /// stories (or when not ok()).
  [[nodiscard]] const std::optional<Interval>& project() const { return project_; }
  /// Working days from the earliest start to the latest due, inclusive; 0 without stories.
  [[nodiscard]] std::int64_t project_duration() const;

  /// Critical chains (pre-order indices), each in the order work flows: a story and then the
  /// one whose start or finish it drives, through parents where a link enters or leaves one
  /// (so `A → P → D`: A drives parent P's subtree, where D is bound by it). Every critical leaf
  /// ends up in exactly one chain; a chain that joins one already listed starts with the story
  /// where it joins. The chain that ends the project comes first; then by latest finish.
  [[nodiscard]] std::span<const std::vector<std::size_t>> critical_chains() const { return chains_; }
  /// Stories (at every level) with critical == true.
  [[nodiscard]] std::size_t critical_count() const { return critical_count_; }
  /// The link whose bound holds leaf `story` where the forward pass put it — a link into it,
  /// or into a parent above it — or npos when its declared start or day 0 does (and for a
  /// parent). What a converter names when a task is scheduled later than its plan says.
  [[nodiscard]] std::size_t binding_link(std::size_t story) const {
    return story < binding_links_.size() ? binding_links_[story] : npos;
  }
  /// Links that do not constrain the schedule (see the class comment).
  [[nodiscard]] std::size_t skipped_links() const { return skipped_links_; }
  /// Of skipped_links(), those whose lag is not an integer (they are not read as lag 0).
  [[nodiscard]] std::size_t skipped_for_lag() const { return skipped_for_lag_; }

 private:
  const DependencyGraph* graph_;
  std::vector<ScheduledStory> stories_;
  std::vector<Cycle> cycles_;
  std::optional<Interval> project_;
  std::vector<std::vector<std::size_t>> chains_;
  std::vector<std::size_t> binding_links_;  // by story
  std::size_t critical_count_ = 0;
  std::size_t skipped_links_ = 0;
  std::size_t skipped_for_lag_ = 0;
  bool out_of_range_ = false;
};

/// The one way from a template's stories to their schedule: the stories numbered once
/// (StoryIndex), their dependency graph over that numbering, and its Schedule, built together
/// and kept together (each refers to the one before, so the object neither copies nor moves).
/// What `ptmpl schedule`, `ptmpl stats` and the MS Project export start from; a Rollup over
/// index() adds the estimates. Holds pointers into `stories`, which must outlive it.
class ScheduledTemplate {
 public:
  explicit ScheduledTemplate(std::span<const Story> stories, const ScheduleOptions& options = {});
  ScheduledTemplate(const ScheduledTemplate&) = delete;
  ScheduledTemplate& operator=(const ScheduledTemplate&) = delete;

  [[nodiscard]] const StoryIndex& index() const { return index_; }
  [[nodiscard]] const DependencyGraph& graph() const { return graph_; }
  [[nodiscard]] const Schedule& schedule() const { return schedule_; }

 private:
  StoryIndex index_;
  DependencyGraph graph_;
  Schedule schedule_;
};

}  // namespace ptmpl
