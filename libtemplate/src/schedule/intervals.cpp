#include "libtemplate/core/intervals.hpp"

#include <algorithm>
#include <utility>

namespace ptmpl {

namespace {

// Offsets come straight from the file: any int64 is possible, so sums are checked.
std::optional<std::int64_t> checked_add(std::int64_t a, std::int64_t b) {
  std::int64_t out = 0;
  if (__builtin_add_overflow(a, b, &out)) return std::nullopt;
  return out;
}

void widen(std::optional<Interval>& into, const Interval& with) {
  if (!into) {
    into = with;
    return;
  }
  into->start = std::min(into->start, with.start);
  into->finish = std::max(into->finish, with.finish);
  into->due = std::max(into->due, with.due);
}

}  // namespace

std::optional<std::int64_t> story_length(const Story& story) {
  if (story.effective_type() == StoryType::Milestone) return 0;
  if (story.duration && *story.duration >= 0) return *story.duration;
  if (story.relative_start_date && story.relative_due_date && *story.relative_due_date >= *story.relative_start_date) {
    std::int64_t span = 0;
    if (__builtin_sub_overflow(*story.relative_due_date, *story.relative_start_date, &span)) return std::nullopt;
    return checked_add(span, 1);
  }
  return 1;
}

std::optional<Interval> own_interval(const Story& story) {
  if (!story.relative_start_date) return std::nullopt;
  const std::int64_t start = *story.relative_start_date;
  if (story.effective_type() == StoryType::Milestone) return Interval{start, start, start};
  if (story.relative_due_date && *story.relative_due_date < start) return std::nullopt;
  const std::optional<std::int64_t> length = story_length(story);
  if (!length) return std::nullopt;
  const std::optional<std::int64_t> finish = checked_add(start, *length);
  if (!finish) return std::nullopt;
  // A zero-length task occupies its start day, as a milestone does.
  return Interval{start, *finish, std::max(start, *finish - 1)};
}

DeclaredIntervals::DeclaredIntervals(std::span<const Story> stories)
    : DeclaredIntervals(std::make_unique<const StoryIndex>(stories)) {}

DeclaredIntervals::DeclaredIntervals(std::unique_ptr<const StoryIndex> own_index) : DeclaredIntervals(*own_index) {
  own_index_ = std::move(own_index);
}

DeclaredIntervals::DeclaredIntervals(const StoryIndex& index) : index_(&index), intervals_(index.size()) {
  // Children come after their parent: walking backwards finishes each subtree's roll-up before
  // its parent takes it in.
  for (std::size_t i = index.size(); i-- > 0;) {
    std::optional<Interval>& interval = intervals_[i];
    if (!index.is_parent(i)) interval = own_interval(index.story(i));
    if (!interval) continue;
    const std::size_t parent = index.parent(i);
    widen(parent == npos ? project_ : intervals_[parent], *interval);
  }
}

std::optional<std::int64_t> DeclaredIntervals::project_duration() const {
  if (!project_) return std::nullopt;
  std::int64_t out = 0;
  if (__builtin_sub_overflow(project_->due, project_->start, &out)) return std::nullopt;
  return checked_add(out, 1);
}

}  // namespace ptmpl
