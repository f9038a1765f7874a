// Rules about declared dates (docs/semantics.md §4–§5): date-order, date-missing, duration-mismatch,
// milestone-span, child-outside-parent, dependency-violated, template-duration-mismatch.
//
// Day numbers in messages are inclusive working-day offsets, as a story declares them; the
// comparisons use the half-open intervals of libtemplate/core/intervals.hpp. Offsets may be any
// int64, so differences are taken as unsigned magnitudes and sums are checked.
#include <span>
#include <string>
#include <vector>

#include "libtemplate/core/dependency_graph.hpp"
#include "libtemplate/core/intervals.hpp"
#include "libtemplate/core/schedule.hpp"
#include "rules/rule.hpp"

namespace ptmpl::rules {

namespace {

constexpr std::size_t npos = DeclaredIntervals::npos;

// hi - lo for lo <= hi, exact for any two int64 (the true value is below 2^64).
std::uint64_t gap(std::int64_t lo, std::int64_t hi) {
  return static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
}

std::string working_days(std::uint64_t n) {
  return std::to_string(n) + (n == 1 ? " working day" : " working days");
}

std::string day(std::int64_t offset) {
  return "day " + std::to_string(offset);
}

// `4 "Build"`, or `"Build"` without a temp_id, or `at /0/sub_stories/1` without either.
std::string name_of(const Story& story) {
  std::string title = story.title ? "\"" + std::string(*story.title) + "\"" : "";
  if (story.temp_id) return temp_id_key(*story.temp_id) + (title.empty() ? "" : " " + title);
  if (!title.empty()) return title;
  return "at " + story.pointer();
}

// The temp_id alone when there is one (links name stories by it).
std::string short_name_of(const Story& story) {
  return story.temp_id ? temp_id_key(*story.temp_id) : name_of(story);
}

std::string story_key_pointer(const Story& story, std::string_view key) {
  return story.pointer() + "/" + std::string(key);
}

// A key whose value the model left out because it has the wrong type: the `schema` rule
// reports it, and the date rules do not guess around it.
bool written_but_invalid(const Story& story, StoryKey key, bool in_model) {
  return !in_model && story.writes(key);
}

bool any_date_invalid(const Story& story) {
  return written_but_invalid(story, StoryKey::RelativeStartDate, story.relative_start_date.has_value()) ||
         written_but_invalid(story, StoryKey::RelativeDueDate, story.relative_due_date.has_value()) ||
         written_but_invalid(story, StoryKey::Duration, story.duration.has_value());
}

// Reports at the value of `key` when the story writes it, else at the story itself.
void report_at_key(Context& context, std::string_view rule, Severity severity, const TemplateSource& source,
                   const Story& story, std::string_view key, std::string message, std::optional<Fix> fix = {}) {
  if (const json::Value* value = story.origin.node.find(key))
    context.report(rule, severity, source, *value, story_key_pointer(story, key), std::move(message), std::move(fix));
  else
    context.report(rule, severity, source, story.origin.node, story.pointer(), std::move(message), std::move(fix));
}

// ---------------------------------------------------------------------------------------------
// dependency-violated

// The ends each link type ties (docs/semantics.md §5) come from the scheduler's own table, link_ends(), so
// lint and the schedule read a link the same way.

// For links into a parent (docs/semantics.md §5: they constrain every story of its subtree): the leaf with
// the earliest start and the one with the earliest finish in each subtree, npos when no leaf
// of it has dates. Filled in one backward pass over the pre-order numbering.
struct EarliestLeaves {
  std::vector<std::size_t> by_start;
  std::vector<std::size_t> by_finish;

  // `interval_of(i)`: leaf i's interval as the links read it (a milestone on its side).
  template <class IntervalOf>
  EarliestLeaves(const DeclaredIntervals& intervals, IntervalOf interval_of)
      : by_start(intervals.size(), npos), by_finish(intervals.size(), npos) {
    for (std::size_t i = intervals.size(); i-- > 0;) {
      if (!intervals.story(i).is_parent() && intervals.interval(i)) by_start[i] = by_finish[i] = i;
      const std::size_t parent = intervals.parent(i);
      if (parent == npos) continue;
      // Ties go to the first in tree order: i runs backwards, so a later `<=` wins.
      if (by_start[i] != npos &&
          (by_start[parent] == npos || interval_of(by_start[i])->start <= interval_of(by_start[parent])->start))
        by_start[parent] = by_start[i];
      if (by_finish[i] != npos &&
          (by_finish[parent] == npos || interval_of(by_finish[i])->finish <= interval_of(by_finish[parent])->finish))
        by_finish[parent] = by_finish[i];
    }
  }
};

// Milestones the schedule keeps on their declared day but at its end (docs/semantics.md §4), by
// story: lint accepts a milestone on either side of its day, and the side is the one its links
// place it on. Empty when no milestone is (the common case needs no schedule).
std::vector<std::uint8_t> milestones_at_day_end(const DependencyGraph& graph, const DeclaredIntervals& intervals) {
  bool any = false;
  for (const Link& link : graph.links()) {
    const std::optional<Interval>& to = intervals.interval(link.target);
    any = any || (to && to->length() == 0) || graph.story(link.target).is_parent();
  }
  std::vector<std::uint8_t> end_side;
  if (!any) return end_side;
  const Schedule schedule(graph);
  if (!schedule.ok()) return end_side;
  end_side.assign(intervals.size(), 0);
  for (std::size_t i = 0; i < intervals.size(); ++i) {
    const std::optional<Interval>& declared = intervals.interval(i);
    const Interval& early = schedule[i].early;
    if (!graph.story(i).is_parent() && declared && declared->length() == 0 && early.length() == 0 && early.end_side &&
        early.first_day() == declared->start)
      end_side[i] = 1;
  }
  return end_side;
}

// Story `i`'s declared interval, a milestone at the end of its day (milestones_at_day_end) as
// the moment after that day.
std::optional<Interval> placed(const DeclaredIntervals& intervals, std::span<const std::uint8_t> end_side,
                               std::size_t i) {
  std::optional<Interval> out = intervals.interval(i);
  if (out && i < end_side.size() && end_side[i] != 0) *out = Interval{out->start + 1, out->start + 1, out->start, true};
  return out;
}

void check_link(Context& context, const TemplateSource& source, const DeclaredIntervals& intervals,
                std::span<const std::uint8_t> end_side, std::optional<EarliestLeaves>& earliest, const Link& link) {
  const std::size_t a = link.source;
  const std::size_t b = link.target;
  const Dependency& dep = *link.dependency;
  const Story& owner = intervals.story(a);
  const Story& target = intervals.story(b);
  const LinkEnds& kind = link_ends(*link.type);
  const std::int64_t lag = link.lag;

  // Into a parent, the binding story is the descendant that starts (or finishes) first.
  auto first_under_target = [&](bool by_finish) {
    if (!target.is_parent()) return b;
    // Only templates with links into parents pay for it.
    if (!earliest) earliest.emplace(intervals, [&](std::size_t i) { return placed(intervals, end_side, i); });
    return by_finish ? earliest->by_finish[b] : earliest->by_start[b];
  };
  auto report = [&](std::size_t bound, bool to_finish, std::int64_t need, std::int64_t actual, std::string why) {
    const Interval to = *placed(intervals, end_side, bound);
    // Finish days are shown inclusive, as the story declares them: F - 1 for a task, its own
    // day for a milestone (F = S). A leaf's due is exactly that.
    const std::int64_t shown_shift = to_finish ? to.finish - to.due : 0;
    const std::int64_t shown_actual = to_finish ? to.due : to.start;
    const std::string verb = to_finish ? "finish" : "start";
    std::string message = std::string(kind.name) + " link " + short_name_of(owner) + " → " + short_name_of(target) +
                          " (lag " + std::to_string(lag) + ") needs ";
    message += target.is_parent() ? "every story under " + short_name_of(target) : short_name_of(target);
    message += " to " + verb + " on " + day(need - shown_shift) + " or later" + why + "; ";
    message += bound == b ? std::string("it") : short_name_of(intervals.story(bound));
    message += std::string(to_finish ? " finishes on " : " starts on ") + day(shown_actual) + ", " +
               working_days(gap(actual, need)) + " early";
    context.report("dependency-violated", Severity::Warning, source, dep.node, owner.dependency_pointer(dep),
                   std::move(message));
  };

  const std::optional<Interval> from = placed(intervals, end_side, a);
  std::int64_t need = 0;
  if (from && !__builtin_add_overflow(kind.from_finish ? from->finish : from->start, lag, &need)) {
    const std::size_t bound = first_under_target(kind.to_finish);
    if (bound != npos && intervals.interval(bound)) {
      const Interval to = *placed(intervals, end_side, bound);
      const std::int64_t actual = kind.to_finish ? to.finish : to.start;
      if (actual < need) {
        std::string why;
        if (owner.is_parent())
          why = " (" + short_name_of(owner) + "'s sub-stories " + (kind.from_finish ? "finish" : "start") + " on " +
                day(kind.from_finish ? from->due : from->start) + ")";
        report(bound, kind.to_finish, need, actual, std::move(why));
        return;
      }
    }
  }
  // A finish-to-finish link never places a story before day 0 (docs/semantics.md §5, MS Project's rule): the
  // schedule starts every story it reaches on day 0 or later, whatever the source's dates.
  if (kind.from_finish && kind.to_finish) {
    const std::size_t bound = first_under_target(false);
    if (bound == npos || !intervals.interval(bound)) return;
    const std::int64_t actual = intervals.interval(bound)->start;
    if (actual < 0) report(bound, false, 0, actual, " (a finish-to-finish link never places a story before day 0)");
  }
}

// ---------------------------------------------------------------------------------------------
// child-outside-parent

// One side of a story's extent in days: where it comes from and which key to point at.
struct Side {
  std::optional<std::int64_t> day;
  bool rolled_up = false;
  std::string_view key;
};

// A sub-story's own start and due as written; for a parent, a side it does not write is
// rolled up from its own sub-stories. A milestone leaf occupies its start day.
std::pair<Side, Side> extent_of(const DeclaredIntervals& intervals, std::size_t i) {
  const Story& story = intervals.story(i);
  const std::optional<Interval>& interval = intervals.interval(i);
  if (!story.is_parent()) {
    if (!interval) return {};
    // The key that sets the last day: a milestone's is its start; else the due date when the
    // interval ends on it, else the duration (story_length(): a duration wins over a due date).
    std::string_view due_key = "relative_due_date";
    if (story.effective_type() == StoryType::Milestone)
      due_key = "relative_start_date";
    else if (story.relative_due_date != interval->due)
      due_key = "duration";
    return {{interval->start, false, "relative_start_date"}, {interval->due, false, due_key}};
  }
  Side start{story.relative_start_date, false, "relative_start_date"};
  Side due{story.relative_due_date, false, "relative_due_date"};
  if (start.day && due.day && *due.day < *start.day) return {};  // date-order
  if (!start.day && interval) start = {interval->start, true, ""};
  if (!due.day && interval) due = {interval->due, true, ""};
  return {start, due};
}

}  // namespace

void check_date_order_story(Context& context, const TemplateSource& source, const Story& story) {
  if (!story.relative_start_date || !story.relative_due_date) return;
  const std::int64_t start = *story.relative_start_date;
  const std::int64_t due = *story.relative_due_date;
  if (due >= start) return;
  report_at_key(context, "date-order", Severity::Error, source, story, "relative_due_date",
                "story " + name_of(story) + " is due on " + day(due) + ", " + working_days(gap(due, start)) +
                    " before it starts (" + day(start) + ")");
}

namespace {

class DateMissing final : public StoryCheck {
 public:
  void start(Context&, const TemplateSource&) override {
    dated_ = false;
    candidates_.clear();
  }

  void check(Context&, const TemplateSource&, const Story& story) override {
    dated_ = dated_ || story.relative_start_date || story.relative_due_date || story.duration;
    // A parent's own dates are not scheduled (docs/semantics.md §5: parents are rolled up).
    if (!story.is_parent() && lacks_dates(story)) candidates_.push_back(&story);
  }

  void finish(Context& context, const TemplateSource& source) override {
    // A template where no story has a date or a duration is an undated checklist: its
    // schedule means nothing, and an info on every story would be noise.
    if (!dated_) return;
    for (const Story* story : candidates_) {
      if (any_date_invalid(*story)) continue;
      context.report("date-missing", Severity::Info, source, story->origin.node, story->pointer(), message(*story));
    }
  }

 private:
  // A leaf whose dates leave the schedule guessing.
  static bool lacks_dates(const Story& story) {
    const bool due = story.relative_due_date.has_value();
    return (due && !story.relative_start_date) ||
           (story.effective_type() != StoryType::Milestone && !due && !story.duration);
  }

  // The finding about a leaf for which lacks_dates().
  static std::string message(const Story& story) {
    const bool milestone = story.effective_type() == StoryType::Milestone;
    const bool start = story.relative_start_date.has_value();
    const bool due = story.relative_due_date.has_value();
    const bool duration = story.duration.has_value();
    if (due && !start) {
      return "story " + name_of(story) + " has relative_due_date " + std::to_string(*story.relative_due_date) +
             " but no relative_start_date: the schedule places it by its links alone and does not use the due "
             "date";
    }
    if (!milestone && !due && !duration) {
      // A milestone's length is 0 by definition, and a start alone fixes its day.
      return "story " + name_of(story) +
             (start ? " has relative_start_date " + std::to_string(*story.relative_start_date) +
                          " but neither relative_due_date nor duration: the schedule gives it 1 working day"
                    : " has no relative_start_date, relative_due_date or duration: the schedule gives it 1 "
                      "working day, placed by its links alone");
    }
    return {};  // not reached: lacks_dates() is true
  }

  bool dated_ = false;
  std::vector<const Story*> candidates_;  // leaves with a finding, unless a date is invalid
};

}  // namespace

std::unique_ptr<StoryCheck> date_missing_check() {
  return std::make_unique<DateMissing>();
}

namespace {

// The span of a dated story that is no milestone, when its duration is written and disagrees
// with it (duration-mismatch); the story's length in the declared intervals is its duration.
std::optional<std::uint64_t> span_against_duration(const Story& story) {
  if (!story.duration || *story.duration < 0 || story.effective_type() == StoryType::Milestone) return std::nullopt;
  if (!story.relative_start_date || !story.relative_due_date) return std::nullopt;
  if (*story.relative_due_date < *story.relative_start_date) return std::nullopt;  // date-order
  const std::uint64_t span = gap(*story.relative_start_date, *story.relative_due_date) + 1;
  if (span == static_cast<std::uint64_t>(*story.duration)) return std::nullopt;
  return span;
}

}  // namespace

void check_duration_mismatch_story(Context& context, const TemplateSource& source, const Story& story) {
  if (!story.duration || *story.duration < 0) return;  // negative: a schema finding
  auto value_of_duration = [&]() -> const json::Value& { return *story.origin.node.find("duration"); };
  const std::int64_t duration = *story.duration;
  const bool dated = story.relative_start_date && story.relative_due_date;
  if (story.effective_type() == StoryType::Milestone) {
    if (duration == 0) return;
    // Only when the dates agree that it is a milestone is 0 surely the right duration.
    std::optional<Fix> fix;
    const json::Value& value = value_of_duration();
    if (dated && *story.relative_start_date == *story.relative_due_date)
      fix = context.replace_value(source, value, "0");
    context.report(
        "duration-mismatch", Severity::Warning, source, value, story_key_pointer(story, "duration"),
        "milestone " + name_of(story) + " has duration " + std::to_string(duration) + "; a milestone's duration is 0",
        std::move(fix));
    return;
  }
  const std::optional<std::uint64_t> disagreeing = span_against_duration(story);
  if (!disagreeing) return;
  const std::uint64_t span = *disagreeing;
  std::optional<Fix> fix;
  const json::Value& value = value_of_duration();
  if (span <= static_cast<std::uint64_t>(INT64_MAX)) fix = context.replace_value(source, value, std::to_string(span));
  context.report("duration-mismatch", Severity::Warning, source, value, story_key_pointer(story, "duration"),
                 "duration " + std::to_string(duration) + " of story " + name_of(story) + " differs from its span of " +
                     working_days(span) + " (" + day(*story.relative_start_date) + " to " +
                     day(*story.relative_due_date) + ")",
                 std::move(fix));
}

void check_milestone_span_story(Context& context, const TemplateSource& source, const Story& story) {
  if (story.effective_type() != StoryType::Milestone) return;
  if (!story.relative_start_date || !story.relative_due_date) return;
  const std::int64_t start = *story.relative_start_date;
  const std::int64_t due = *story.relative_due_date;
  if (due <= start) return;  // due before start is date-order's
  report_at_key(context, "milestone-span", Severity::Warning, source, story, "relative_due_date",
                "milestone " + name_of(story) + " starts on " + day(start) + " but is due on " + day(due) + ", " +
                    working_days(gap(start, due)) + " later; a milestone starts and is due on the same day");
}

void check_child_outside_parent(Context& context) {
  for (const TemplateSource& source : context.file().templates()) {
    const DeclaredIntervals& intervals = context.intervals(source);
    for (std::size_t c = 0; c < intervals.size(); ++c) {
      const std::size_t p = intervals.parent(c);
      if (p == npos) continue;
      const Story& parent = intervals.story(p);
      // The parent's OWN dates, as written; each written side bounds its sub-stories.
      const std::optional<std::int64_t> first = parent.relative_start_date;
      const std::optional<std::int64_t> last = parent.relative_due_date;
      if ((!first && !last) || (first && last && *last < *first)) continue;
      const Story& child = intervals.story(c);
      auto [start, due] = extent_of(intervals, c);
      const bool early = first && start.day && *start.day < *first;
      const bool late = last && due.day && *due.day > *last;
      if (!early && !late) continue;

      std::string message = "sub-story " + name_of(child);
      if ((early && start.rolled_up) || (late && due.rolled_up)) message += ", by its own sub-stories,";
      if (early) {
        message += " starts on " + day(*start.day) + ", " + working_days(gap(*start.day, *first)) +
                   " before its parent " + name_of(parent) + " starts (" + day(*first) + ")";
      }
      if (late) {
        message += early ? ", and" : "";
        message += " is due on " + day(*due.day) + ", " + working_days(gap(*last, *due.day)) + " after " +
                   (early ? std::string("it") : "its parent " + name_of(parent)) + " is due (" + day(*last) + ")";
      }
      const Side& at = early ? start : due;
      if (at.rolled_up || at.key.empty())
        context.report("child-outside-parent", Severity::Warning, source, child.origin.node, child.pointer(),
                       std::move(message));
      else
        report_at_key(context, "child-outside-parent", Severity::Warning, source, child, at.key, std::move(message));
    }
  }
}

void check_dependency_violated(Context& context) {
  for (const TemplateSource& source : context.file().templates()) {
    // Both number the stories in pre-order, so an index means the same story in each.
    const DependencyGraph& graph = context.graph(source);
    if (graph.links().empty()) continue;
    const DeclaredIntervals& intervals = context.intervals(source);
    const std::vector<std::uint8_t> end_side = milestones_at_day_end(graph, intervals);
    std::optional<EarliestLeaves> earliest;
    for (const Link& link : graph.links()) {
      // Links other rules report are left to them: self-links and links within one line of
      // descent, an invalid type or lag, a source_id that names another story.
      if (!link.schedulable()) continue;
      const Dependency& dep = *link.dependency;
      const Story& owner = graph.story(link.source);
      // The model holds source_id when it is valid; only then is there nothing to look up.
      if (dep.source_id ? !owner.temp_id || canonical_temp_id(*dep.source_id) != canonical_temp_id(*owner.temp_id)
                        : dep.node.find("source_id") != nullptr)
        continue;
      check_link(context, source, intervals, end_side, earliest, link);
    }
  }
}

namespace {

// The first leaf whose declared interval the project's span would leave out or take from an
// invalid value (docs/semantics.md §6: no figure and no fix from such a value), described for a message.
std::optional<std::string> invalid_interval_term(Context& context, const TemplateSource& source,
                                                 const DeclaredIntervals& intervals) {
  for (std::size_t i = 0; i < intervals.size(); ++i) {
    const Story& story = intervals.story(i);
    if (story.is_parent()) continue;  // rolled up from its sub-stories; its own dates are not used
    const bool milestone = story.effective_type() == StoryType::Milestone;
    const std::pair<StoryKey, bool> keys[] = {
        {StoryKey::RelativeStartDate, story.relative_start_date.has_value()},
        {StoryKey::RelativeDueDate, milestone || story.relative_due_date.has_value()},
        {StoryKey::Duration, milestone || story.duration.has_value()},
    };
    for (const auto& [key, held] : keys) {
      if (!written_but_invalid(story, key, held)) continue;
      const std::string_view name = key == StoryKey::RelativeStartDate ? "relative_start_date"
                                    : key == StoryKey::RelativeDueDate ? "relative_due_date"
                                                                       : "duration";
      const json::Value* value = story.origin.node.find(name);
      if (value == nullptr) continue;
      return story_key_pointer(story, name) + " (" + context.line_of(source, *value) + ") is " + describe(*value) +
             ", not an integer";
    }
    if (!milestone && story.duration && *story.duration < 0)
      return story_key_pointer(story, "duration") + " (" + context.line_of(source, story.origin.node) + ") is " +
             std::to_string(*story.duration) + ", a negative duration";
    if (story.relative_start_date && !intervals.interval(i)) {
      const bool reversed =
          !milestone && story.relative_due_date && *story.relative_due_date < *story.relative_start_date;
      return "story " + name_of(story) + " (" + context.line_of(source, story.origin.node) + ") " +
             (reversed ? "is due before it starts" : "ends beyond a 64-bit day number");
    }
  }
  return std::nullopt;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// schedule-out-of-range

namespace {

std::uint64_t magnitude(std::int64_t v) {
  return v < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
}

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  std::uint64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? UINT64_MAX : sum;
}

// A day number the schedule is computed from: a leaf's date or duration, or a link's lag.
struct DayValue {
  const Story* story = nullptr;
  const json::Value* value = nullptr;
  std::string pointer;
  std::string_view key;
  std::int64_t number = 0;
  std::uint64_t length = 0;  // a start's: the story's own length, which it must fit with
};

// A bound on every day the schedule of `graph` computes and, when `values` is given, every
// value it is computed from. Each computed day is a declared start (or day 0) plus or minus
// lengths and lags along one chain, each at most once on the way forward and once back from
// the project's finish. The bound alone reads nothing but the model.
std::uint64_t day_values(const DependencyGraph& graph, std::vector<DayValue>* values) {
  std::uint64_t widest_start = 0;
  std::uint64_t steps = 0;
  auto add = [&](const Story& story, std::string_view key, std::int64_t number, std::uint64_t length = 0) {
    if (values == nullptr) return;
    if (const json::Value* value = story.origin.node.find(key))
      values->push_back({&story, value, story_key_pointer(story, key), key, number, length});
  };
  for (std::size_t i = 0; i < graph.size(); ++i) {
    const Story& story = graph.story(i);
    if (graph.index().is_parent(i)) continue;  // a parent's own dates are not scheduled
    const std::optional<std::int64_t> length = story_length(story);
    if (story.relative_start_date) {
      widest_start = std::max(widest_start, magnitude(*story.relative_start_date));
      add(story, "relative_start_date", *story.relative_start_date, length ? magnitude(*length) : UINT64_MAX);
    }
    if (story.effective_type() != StoryType::Milestone) {
      if (story.duration) add(story, "duration", *story.duration);
      if (story.relative_due_date) add(story, "relative_due_date", *story.relative_due_date);
    }
    steps = saturating_add(steps, length ? magnitude(*length) : UINT64_MAX);
  }
  for (const Link& link : graph.links()) {
    if (!link.schedulable() || link.lag == 0) continue;
    const Story& owner = graph.story(link.source);
    const json::Value* value = values != nullptr ? link.dependency->node.find("lag") : nullptr;
    if (value != nullptr)
      values->push_back({&owner, value, owner.dependency_pointer(*link.dependency) + "/lag", "lag", link.lag});
    steps = saturating_add(steps, magnitude(link.lag));
  }
  const std::uint64_t twice = steps > UINT64_MAX / 2 ? UINT64_MAX : 2 * steps;
  return saturating_add(widest_start, saturating_add(twice, twice));
}

}  // namespace

void check_schedule_out_of_range(Context& context) {
  constexpr std::int64_t kLimit = Schedule::kDayLimit;
  for (const TemplateSource& source : context.file().templates()) {
    // A story list cut by the nesting bound is not scheduled at all (nesting-depth).
    if (source.story_list == nullptr || source.story_document->truncated()) continue;
    const DependencyGraph& graph = context.graph(source);
    // Ordinary templates stay far inside the range: only absurd values pay for a schedule.
    if (day_values(graph, nullptr) <= static_cast<std::uint64_t>(kLimit) / 2) continue;
    // `schedule --asap` drops the declared starts, which may move a chain to another place.
    const bool as_declared = Schedule(graph).out_of_range();
    const bool as_soon_as_possible = Schedule(graph, ScheduleOptions{.asap = true}).out_of_range();
    if (!as_declared && !as_soon_as_possible) continue;
    const std::string range = "the range of ±2^62 working days (±" + std::to_string(kLimit) +
                              ") that ptmpl schedule and stats compute in" +
                              (as_declared ? "" : " (with --asap, which ignores declared starts)");
    std::vector<DayValue> values;
    day_values(graph, &values);
    auto report = [&](const DayValue& v, std::string message) {
      context.report("schedule-out-of-range", Severity::Error, source, *v.value, v.pointer, std::move(message));
    };
    // Each value beyond the range on its own (a start together with its story's own length);
    // else the largest, where the schedule is likeliest to be brought back.
    bool any_alone = false;
    for (const DayValue& v : values) {
      std::string message = std::string(v.key) + " " + std::to_string(v.number) + " of story " + name_of(*v.story);
      if (magnitude(v.number) > static_cast<std::uint64_t>(kLimit)) {
        message += " lies beyond " + range;
      } else if (v.number > 0 && v.length > static_cast<std::uint64_t>(kLimit - v.number)) {
        message += ", with the story's length of " + working_days(v.length) + ", ends beyond " + range;
      } else {
        continue;
      }
      any_alone = true;
      report(v, std::move(message));
    }
    if (any_alone) continue;
    auto largest = std::max_element(values.begin(), values.end(), [](const DayValue& a, const DayValue& b) {
      return magnitude(a.number) < magnitude(b.number);
    });
    if (largest == values.end()) continue;  // not reached: a bound this large needs a large value
    report(*largest, "the schedule leaves " + range + "; its largest value is " + std::string(largest->key) + " " +
                         std::to_string(largest->number) + " of story " + name_of(*largest->story));
  }
}

void check_template_duration_mismatch(Context& context) {
  const TemplateFile& file = context.file();
  for (const TemplateSource& source : file.templates()) {
    if (source.template_pointer.empty()) continue;  // a bare story list has no template fields
    const json::Value* pt = json::resolve_pointer(file.document().root(), source.template_pointer);
    const json::Value* value = pt == nullptr ? nullptr : pt->find("duration");
    if (value == nullptr || !source.model.duration) continue;  // absent, or a schema finding
    // The whole story list, or no span: raw_json missing, or cut by the nesting bound.
    if (source.story_list == nullptr || source.story_document->truncated()) continue;
    const DeclaredIntervals& intervals = context.intervals(source);
    const std::optional<std::int64_t> expected = intervals.project_duration();
    if (!expected || *expected == *source.model.duration) continue;
    // docs/semantics.md §6: no span, and no fix, from a value that is itself invalid.
    if (std::optional<std::string> invalid = invalid_interval_term(context, source, intervals)) {
      context.report_at_offset("template-duration-mismatch", Severity::Warning, value->offset(),
                               source.template_pointer + "/duration",
                               "the template's duration " + std::to_string(*source.model.duration) +
                                   " cannot be compared with its stories' span, nor fixed: " + *invalid);
      continue;
    }
    // The span counts a story's duration, not its dates: while a story's duration disagrees
    // with its dates (duration-mismatch, whose safe fix changes the duration), a figure from
    // the stories as written would disagree with the same figure after that fix. The fix
    // waits until the stories agree with themselves.
    const Story* disagreeing = nullptr;
    for_each_story(source.model.stories, [&](const Story& story, int) {
      if (disagreeing == nullptr && span_against_duration(story)) disagreeing = &story;
    });
    std::string message = "the template's duration is " + std::to_string(*source.model.duration) +
                          ", but its stories span " + working_days(static_cast<std::uint64_t>(*expected)) + " (" +
                          day(intervals.project()->start) + " to " + day(intervals.project()->due) + ")";
    // The template's fields are in the file itself even when raw_json is a string, so the
    // value can always be patched (Context::replace_value declines for such templates).
    std::optional<Fix> fix;
    if (disagreeing != nullptr)
      message += "; no fix while the duration of story " + name_of(*disagreeing) +
                 " disagrees with its dates (duration-mismatch): fix that first";
    else if (std::optional<std::uint64_t> end = json::value_end(file.text(), *value))
      fix = Fix{value->offset(), *end - value->offset(), std::to_string(*expected)};
    context.report_at_offset("template-duration-mismatch", Severity::Warning, value->offset(),
                             source.template_pointer + "/duration", std::move(message), std::move(fix));
  }
}

}  // namespace ptmpl::rules
