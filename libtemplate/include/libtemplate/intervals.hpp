// Declared intervals: where each story of a tree sits in time according to the dates its
// author wrote (SPEC §4–§5), before any scheduling. Lint checks declared dates with it; the
// scheduler starts from it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "libtemplate/model.hpp"

namespace ptmpl {

/// A story's place in working days (SPEC §4). `start` and `finish` form the half-open
/// interval [S, F) that dependency constraints use: F = due + 1 for a task or deliverable,
/// F = S for a milestone. `due` is the last day the story occupies, inclusive, as a story
/// would declare it: a milestone (or any zero-length interval) still occupies its day S.
/// Offsets may be negative (work before the project start).
struct Interval {
  std::int64_t start = 0;   ///< S, the first working day
  std::int64_t finish = 0;  ///< F, one past the last working day; == start for a milestone
  std::int64_t due = 0;     ///< the last day occupied, inclusive; >= start

  /// Working days of the half-open interval: 0 for a milestone.
  [[nodiscard]] std::int64_t length() const { return finish - start; }
  friend bool operator==(const Interval&, const Interval&) = default;
};

/// The interval a story declares with its own keys, ignoring any sub_stories:
///   - none without `relative_start_date` (such a story is placed by its links alone);
///   - a milestone: [S, S), due S (its `relative_due_date` and `duration` are not used);
///   - with `relative_due_date`: [S, due + 1); none when due < start (`date-order`);
///   - otherwise S plus its `duration` when that is ≥ 0, else 1 working day (SPEC §5).
/// Dates win over `duration` when both are written (`duration-mismatch` reports a
/// disagreement). None when the arithmetic would overflow 64 bits.
[[nodiscard]] std::optional<Interval> own_interval(const Story& story);

/// Every story of a tree, numbered in pre-order (tree order: a story, then its whole
/// subtree, then its next sibling), with its declared interval. A leaf's interval is
/// `own_interval()`; a parent's is rolled up from its children that have one (min start, max
/// finish, max due), ignoring the parent's own dates, and is absent when none has one.
///
/// Building is linear in the number of stories and needs no recursion. Every lookup is O(1)
/// by pre-order index (one vector parallel to the numbering, no hashing); DependencyGraph
/// numbers the stories the same way, so an index names the same story in both. To visit
/// stories with their intervals, loop over the indices rather than `for_each_story`. Holds
/// pointers into `stories`, which must outlive it.
class DeclaredIntervals {
 public:
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  explicit DeclaredIntervals(std::span<const Story> stories);

  /// Number of stories at every level.
  [[nodiscard]] std::size_t size() const { return nodes_.size(); }
  /// The story numbered `index` (< size()).
  [[nodiscard]] const Story& story(std::size_t index) const { return *nodes_[index].story; }
  /// Index of the parent, or npos for a top-level story.
  [[nodiscard]] std::size_t parent(std::size_t index) const { return nodes_[index].parent; }
  /// One past the last index of the subtree: the descendants are (index, subtree_end).
  [[nodiscard]] std::size_t subtree_end(std::size_t index) const { return nodes_[index].end; }
  /// True when `descendant` lies in the subtree of `ancestor` (and is not `ancestor` itself).
  [[nodiscard]] bool is_ancestor(std::size_t ancestor, std::size_t descendant) const {
    return ancestor < descendant && descendant < nodes_[ancestor].end;
  }
  /// The declared (leaf) or rolled-up (parent) interval; absent when it cannot be derived.
  [[nodiscard]] const std::optional<Interval>& interval(std::size_t index) const { return nodes_[index].interval; }

  /// The project's span over every story that has an interval: the earliest start, the
  /// latest finish and the latest due. Absent when no story has one.
  [[nodiscard]] const std::optional<Interval>& project() const { return project_; }
  /// Working days from the earliest start to the latest due, inclusive (SPEC §5: a milestone
  /// still occupies its day, so a project ending on a milestone on day 9 that starts on day 0
  /// lasts 10 days). Absent without a span, or when it does not fit 64 bits.
  [[nodiscard]] std::optional<std::int64_t> project_duration() const;

 private:
  struct Node {
    const Story* story = nullptr;
    std::size_t parent = npos;
    std::size_t end = 0;
    std::optional<Interval> interval;
  };

  std::vector<Node> nodes_;
  std::optional<Interval> project_;
};

}  // namespace ptmpl
