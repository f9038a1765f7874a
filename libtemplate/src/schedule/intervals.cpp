#include "libtemplate/intervals.hpp"

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

std::optional<Interval> own_interval(const Story& story) {
  if (!story.relative_start_date) return std::nullopt;
  const std::int64_t start = *story.relative_start_date;
  if (story.effective_type() == StoryType::Milestone) return Interval{start, start, start};
  if (story.relative_due_date) {
    const std::int64_t due = *story.relative_due_date;
    if (due < start) return std::nullopt;
    std::optional<std::int64_t> finish = checked_add(due, 1);
    if (!finish) return std::nullopt;
    return Interval{start, *finish, due};
  }
  // SPEC §5: the length falls back to duration, then to 1 day (the span needs both dates).
  const std::int64_t length = story.duration && *story.duration >= 0 ? *story.duration : 1;
  std::optional<std::int64_t> finish = checked_add(start, length);
  if (!finish) return std::nullopt;
  // A zero-length task occupies its start day, as a milestone does.
  return Interval{start, *finish, std::max(start, *finish - 1)};
}

DeclaredIntervals::DeclaredIntervals(std::span<const Story> stories) {
  static_assert(npos == kNoParent);
  // Pre-order numbering (kNoParent == npos).
  for_each_story_indexed(stories, [&](const Story& story, std::size_t, std::size_t parent, std::size_t) {
    nodes_.push_back({&story, parent, 0, std::nullopt});
  });

  // Children come after their parent: walking backwards finishes each subtree (its end and
  // its roll-up) before its parent takes it in.
  for (std::size_t i = nodes_.size(); i-- > 0;) {
    Node& node = nodes_[i];
    node.end = std::max(node.end, i + 1);
    if (!node.story->is_parent()) node.interval = own_interval(*node.story);
    if (node.parent == npos) {
      if (node.interval) widen(project_, *node.interval);
      continue;
    }
    Node& parent = nodes_[node.parent];
    parent.end = std::max(parent.end, node.end);
    if (node.interval) widen(parent.interval, *node.interval);
  }
}

std::optional<std::int64_t> DeclaredIntervals::project_duration() const {
  if (!project_) return std::nullopt;
  std::int64_t out = 0;
  if (__builtin_sub_overflow(project_->due, project_->start, &out)) return std::nullopt;
  return checked_add(out, 1);
}

}  // namespace ptmpl
