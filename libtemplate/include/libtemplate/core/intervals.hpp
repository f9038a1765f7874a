// Declared intervals: where each story of a tree sits in time according to the dates its
// author wrote (docs/semantics.md §4–§5), before any scheduling. Lint checks declared dates with it; the
// scheduler starts from it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "libtemplate/core/model.hpp"
#include "libtemplate/core/story_index.hpp"

namespace ptmpl {

/// A story's place in working days (docs/semantics.md §4). `start` and `finish` form the
/// half-open interval [S, F) of boundaries between working days that dependency constraints
/// use: F = due + 1 for a task or deliverable, F = S for a milestone (a moment). `due` is the
/// last day the story shows, inclusive.
///
/// A moment at boundary t sits at the end of day t − 1 or at the start of day t: `end_side`
/// says which for the start (a milestone, or a parent whose earliest story is such a
/// milestone). A milestone's day is t − 1 at the end side, t at the start side; its `due` is
/// that day. first_day(), due and days() are the one span every view, roll-up and export shows.
/// Offsets may be negative (work before the project start).
struct Interval {
  std::int64_t start = 0;   ///< S, the first boundary (a task's first working day)
  std::int64_t finish = 0;  ///< F, one past the last working day; == start for a milestone
  std::int64_t due = 0;     ///< the last day shown, inclusive
  bool end_side = false;    ///< S is the end of day S − 1, not the start of day S

  /// Working days of the half-open interval: 0 for a milestone.
  [[nodiscard]] std::int64_t length() const { return finish - start; }
  /// The first day shown: S, or S − 1 when S is the end of that day.
  [[nodiscard]] std::int64_t first_day() const { return end_side ? start - 1 : start; }
  /// The duration shown: 0 for a moment (a milestone), else the days from first_day() to due,
  /// inclusive (a leaf's length; a parent's span of days, so a phase of four working days
  /// closed by a milestone on its last day lasts four).
  [[nodiscard]] std::int64_t days() const { return length() == 0 ? 0 : due - first_day() + 1; }
  friend bool operator==(const Interval&, const Interval&) = default;
};

/// The later of two moments on boundary `t`: the start side (the start of day t) is later on
/// the clock than the end side (the end of day t − 1).
[[nodiscard]] inline bool later_moment(std::int64_t a, bool a_end_side, std::int64_t b, bool b_end_side) {
  return a > b || (a == b && !a_end_side && b_end_side);
}

/// A leaf's working length in working days (docs/semantics.md §5), the one definition that lint and the
/// scheduler share: its `duration` when given (≥ 0); else its declared span, due − start + 1,
/// when it writes both dates and due ≥ start; else 1 day for a task or deliverable. A milestone's
/// is always 0. Absent only when the declared span does not fit in 64 bits. For a parent this
/// is its own declaration, which the scheduler does not use (a parent is rolled up).
[[nodiscard]] std::optional<std::int64_t> story_length(const Story& story);

/// The interval a story declares with its own keys, ignoring any sub_stories: its
/// `relative_start_date` S and its story_length(), [S, S + length), so the `duration` wins over a
/// due date that disagrees with it (`duration-mismatch` reports the disagreement). None:
///   - without `relative_start_date` (such a story is placed by its links alone);
///   - for a task or deliverable whose `relative_due_date` is before its start (`date-order`);
///   - when the length or the finish does not fit in 64 bits.
/// A milestone is [S, S), due S (its `relative_due_date` and `duration` are not used).
[[nodiscard]] std::optional<Interval> own_interval(const Story& story);

/// Every story of a tree with its declared interval, by the pre-order index of its StoryIndex.
/// A leaf's interval is `own_interval()`; a parent's is rolled up from its children that have
/// one (min start, max finish, max due), ignoring the parent's own dates, and is absent when
/// none has one.
///
/// Building is linear in the number of stories and needs no recursion. Every lookup is O(1)
/// by pre-order index (one vector parallel to the numbering, no hashing); DependencyGraph
/// shares the numbering, so an index names the same story in both. To visit stories with their
/// intervals, loop over the indices rather than `for_each_story`.
class DeclaredIntervals {
 public:
  static constexpr std::size_t npos = StoryIndex::npos;

  /// The intervals of the stories of `index`, which must outlive this object.
  explicit DeclaredIntervals(const StoryIndex& index);
  /// The intervals of `stories` with an index of their own. Holds pointers into `stories`, which
  /// must outlive it.
  explicit DeclaredIntervals(std::span<const Story> stories);

  /// The numbering of the stories.
  [[nodiscard]] const StoryIndex& index() const { return *index_; }
  /// Number of stories at every level.
  [[nodiscard]] std::size_t size() const { return intervals_.size(); }
  /// The story numbered `index` (< size()); parent(), subtree_end() and is_ancestor() are the
  /// StoryIndex's.
  [[nodiscard]] const Story& story(std::size_t index) const { return index_->story(index); }
  [[nodiscard]] std::size_t parent(std::size_t index) const { return index_->parent(index); }
  [[nodiscard]] std::size_t subtree_end(std::size_t index) const { return index_->subtree_end(index); }
  [[nodiscard]] bool is_ancestor(std::size_t ancestor, std::size_t descendant) const {
    return index_->is_ancestor(ancestor, descendant);
  }
  /// The declared (leaf) or rolled-up (parent) interval; absent when it cannot be derived.
  [[nodiscard]] const std::optional<Interval>& interval(std::size_t index) const { return intervals_[index]; }

  /// The project's span over every story that has an interval: the earliest start, the
  /// latest finish and the latest due. Absent when no story has one.
  [[nodiscard]] const std::optional<Interval>& project() const { return project_; }
  /// Working days from the earliest start to the latest due, inclusive (docs/semantics.md §5: a milestone
  /// still occupies its day, so a project ending on a milestone on day 9 that starts on day 0
  /// lasts 10 days). Absent without a span, or when it does not fit 64 bits.
  [[nodiscard]] std::optional<std::int64_t> project_duration() const;

 private:
  explicit DeclaredIntervals(std::unique_ptr<const StoryIndex> own_index);

  const StoryIndex* index_;
  std::unique_ptr<const StoryIndex> own_index_;  // when built from stories
  std::vector<std::optional<Interval>> intervals_;
  std::optional<Interval> project_;
};

}  // namespace ptmpl
