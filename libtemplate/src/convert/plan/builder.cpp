// The one builder: a plan becomes a template document (builder.hpp).
#include "convert/plan/builder.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <span>
#include <unordered_map>

#include "convert/day_counter.hpp"
#include "convert/plan/work_calendar.hpp"
#include "libtemplate/core/json_emitter.hpp"
#include "libtemplate/core/lint.hpp"
#include "libtemplate/core/model.hpp"
#include "libtemplate/core/rollup.hpp"
#include "libtemplate/core/schedule.hpp"
#include "libtemplate/core/story_writer.hpp"
#include "libtemplate/core/template_file.hpp"

namespace ptmpl::plan {

namespace {

// Link types (FS, SS, FF, SF: plan::LinkType's order) in the service's numbering (docs/semantics.md §5).
constexpr std::int64_t kServiceLinkType[4] = {2, 0, 3, 1};
constexpr std::int64_t kNoResource = -65535;
constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

// Sums of costs never wrap: a plan whose costs leave int64 saturates (lint reports the budget).
std::int64_t add_cents(std::int64_t a, std::int64_t b) {
  std::int64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? std::numeric_limits<std::int64_t>::max() : sum;
}

// Minutes since midnight as a clock shows them: "13:30".
std::string format_time(int minute) {
  const int hours = minute / 60;
  const int minutes = minute % 60;
  return (hours < 10 ? "0" : "") + std::to_string(hours) + (minutes < 10 ? ":0" : ":") + std::to_string(minutes);
}

bool blank(std::string_view text) {
  return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

// Progress: actual dates, work or cost, or a percent complete.
bool has_progress(const plan::Task& in) {
  return in.percent_complete > 0 || in.percent_work_complete > 0 || in.actual_duration > 0 || in.actual_work > 0 ||
         in.actual_cost != 0 || in.actual_start_is_start || in.actual_finish_is_finish;
}

// A link into a task, as the template will write it (on its predecessor).
struct LinkIn {
  const Link* in = nullptr;
  std::int64_t predecessor = 0;
  std::int64_t successor = 0;  // the UID of the task the link leads into
  std::size_t from = kNone;    // the predecessor's index in the task list, once known
  LinkType type = LinkType::FinishToStart;
  double lag = 0;  // minutes, or a percentage
  std::int64_t lag_days = 0;
};

struct Task {
  const plan::Task* in = nullptr;
  std::int64_t uid = 0;
  std::string_view title;  // the plan's, or a name made up in Builder::names_
  std::int64_t level = 1;
  bool milestone = false;
  bool has_children = false;
  bool elapsed = false;     // its Duration is elapsed time (reported apart)
  double elapsed_days = 0;  // that time in 24-hour days (a leaf's, not a milestone's)
  bool split = false;       // its work has a gap (reported apart)
  // A finding of its own says why a schedule may start it later than the plan: progress, a
  // constraint, a manual task, its own calendar, a start not read or moved off a day the
  // calendar does not work, a lag into it changed (report_moved_tasks() adds nothing then).
  bool dates_reported = false;
  std::size_t parent = kNone;  // index in the task list
  std::optional<std::int64_t> start;
  std::optional<std::int64_t> due;
  std::optional<std::int64_t> duration;
  std::optional<std::int64_t> cost_cents;
  std::optional<std::int64_t> work_minutes;
  std::vector<std::int64_t> resources;
  double duration_days = 0;  // for percentage lags
  std::optional<DateTime> start_at;
  std::optional<DateTime> finish_at;

  [[nodiscard]] const Place& place(TaskField field) const { return in->place(field); }
};

// Task UIDs → indices in the task list. MS Project numbers tasks 1, 2, 3…: a table indexed by
// UID holds those; a UID that is negative or far beyond the tasks read so far goes to a map
// (so a hostile UID costs no memory).
class UidIndex {
 public:
  [[nodiscard]] std::size_t find(std::int64_t uid) const {
    if (uid >= 0 && static_cast<std::uint64_t>(uid) < table_.size()) return table_[static_cast<std::size_t>(uid)];
    auto it = others_.find(uid);
    return it == others_.end() ? kNone : it->second;
  }
  [[nodiscard]] bool contains(std::int64_t uid) const { return find(uid) != kNone; }
  /// Precondition: `uid` is not in the index yet.
  void insert(std::int64_t uid, std::size_t index) {
    const std::uint64_t bound = 2 * (static_cast<std::uint64_t>(count_) + 1024);
    ++count_;
    if (uid >= 0 && static_cast<std::uint64_t>(uid) < bound) {
      // Grown to at least twice the size, so growing costs each UID a constant time.
      if (static_cast<std::uint64_t>(uid) >= table_.size())
        grow(std::max<std::size_t>(static_cast<std::size_t>(uid) + 1, 2 * table_.size()));
      table_[static_cast<std::size_t>(uid)] = index;
      return;
    }
    others_.emplace(uid, index);
  }

 private:
  void grow(std::size_t size) {
    table_.resize(size, kNone);
    // UIDs the map held that the table covers now move to it, so each UID has one home.
    for (auto it = others_.begin(); it != others_.end();) {
      if (it->first >= 0 && static_cast<std::uint64_t>(it->first) < table_.size()) {
        table_[static_cast<std::size_t>(it->first)] = it->second;
        it = others_.erase(it);
      } else {
        ++it;
      }
    }
  }

  std::vector<std::size_t> table_;
  std::unordered_map<std::int64_t, std::size_t> others_;
  std::size_t count_ = 0;
};

class Builder {
 public:
  Builder(const Plan& plan, const std::string& path, detail::FindingSink& findings, std::size_t size_hint)
      : plan_(plan), path_(path), findings_(findings), size_hint_(size_hint) {}

  Result<Conversion> run();

 private:
  // A finding of the kind `kind` (`untitled-task`), named for the plan's format.
  void report(std::string_view kind, const Place& at, std::string message) {
    findings_.report(std::string(plan_.source.finding_prefix).append(kind), at, std::move(message));
  }
  // A finding that says why `task` may be scheduled later than the plan has it.
  void report_dates(Task& task, std::string_view kind, const Place& at, std::string message) {
    task.dates_reported = true;
    report(kind, at, std::move(message));
  }
  [[nodiscard]] std::string task_name(const Task& task) const {
    return "task " + (task.in->has_uid ? std::to_string(task.uid) + " " : std::string()) + "\"" +
           std::string(task.title) + "\"";
  }
  void read_project();
  // The minutes of a working day that durations and lags in minutes are divided by: the
  // project's, and the calendars' that have their own.
  void read_minutes_per_day();
  [[nodiscard]] double minutes_per_day(std::optional<std::int64_t> calendar_uid) const {
    const auto found = calendar_uid ? calendar_minutes_.find(*calendar_uid) : calendar_minutes_.end();
    return found == calendar_minutes_.end() ? minutes_per_day_ : found->second;
  }
  void read_tasks();
  void read_task(const plan::Task& in);
  // The parts of read_task: what a template does not keep of a task, said as findings; its
  // duration in working days; its cost and work; the links into it.
  void report_scheduling_losses(const plan::Task& in, Task& task);
  void read_duration(const plan::Task& in, Task& task);
  void read_amounts(const plan::Task& in, Task& task);
  void read_links(const plan::Task& in, Task& task);
  void read_resources();
  void read_assignments();
  // The project calendar's recurring exceptions, over the dates the calendar block records.
  void expand_calendar();
  // An assigned resource whose calendar works other days or hours than the project's, over
  // the dates of its tasks.
  void report_resource_calendars();
  void report_calendar_notes(std::vector<CalendarNote>& notes);
  // A gap in the work of an assignment (a split task) is reported on its task, once.
  void report_split(Task& task, const Assignment& assignment);
  void place_tasks();
  // A leaf whose Duration differs from the working days its Start and Finish span.
  void report_duration_spans();
  void report_elapsed(const Task& task, double days, std::optional<std::int64_t> span = std::nullopt);
  void place_elapsed(Task& task);
  // The template day a time of the plan falls on, by the project calendar's hours: a start at
  // or after the end of a day's work is the next working day's (a milestone's stays on its
  // day), a finish at or before its beginning the previous one's; a day off counts as the next
  // (previous) working day.
  [[nodiscard]] std::int64_t start_day(const DateTime& at, bool milestone, const detail::DayCounter& counter) const;
  [[nodiscard]] std::int64_t finish_day(const DateTime& at, const detail::DayCounter& counter) const;
  // The calendar a task works on: its own when the plan gives it a length of day (and it is
  // not the project's), else the project calendar.
  [[nodiscard]] const WorkCalendar& calendar_of(const Task& task);
  // In a plan whose calendars have their own lengths of day (P6), the template lag of a link
  // whose lag is `days` working days of its predecessor's calendar, counted where the plan
  // places its ends (link_lag_in_days()); nullopt otherwise.
  [[nodiscard]] std::optional<std::int64_t> link_lag_in_days(const LinkIn& link, const Task& from, const Task& to,
                                                             std::int64_t days, const detail::DayCounter& counter);
  [[nodiscard]] Status nest_tasks();
  // Writing the template: the links out of each task; the parents' dates and the template's
  // figures, rolled up from the tasks; then the document in its canonical order.
  struct Successors {
    std::vector<std::size_t> first;  // by task: where its links start in `links`; one more at the end
    std::vector<std::size_t> links;  // indices in links_, grouped by predecessor
  };
  struct Totals {
    std::optional<std::int64_t> min_start;
    std::optional<std::int64_t> max_due;
    std::int64_t cents = 0;
    bool any_cost = false;
  };
  [[nodiscard]] Successors successors_by_task() const;
  [[nodiscard]] Totals roll_up_parents();
  std::string write_document();
  [[nodiscard]] Template template_head(const Totals& totals, json::Arena& arena);
  void write_stories(StoryWriter& out, const Successors& successors);
  // The task a link leads into (for messages: it is looked up).
  [[nodiscard]] const Task& successor_of(const LinkIn& link) const { return tasks_[by_uid_.find(link.successor)]; }
  [[nodiscard]] Story story_of(std::size_t index) const;
  // The template as `ptmpl schedule` reads it: its dependency cycles, or else the tasks its
  // schedule puts later than the plan does, each with the reason (report_moved_tasks()).
  void report_schedule(std::string_view document);
  void report_moved_tasks(const Schedule& schedule);
  // A task's story's temp_id: the one the plan keeps for it, else its UID.
  [[nodiscard]] static TempId temp_id_of(const Task& task) { return task.in->temp_id.value_or(task.uid); }

  const Plan& plan_;
  const std::string& path_;
  detail::FindingSink& findings_;
  std::size_t size_hint_;

  double minutes_per_day_ = 480;
  std::unordered_map<std::int64_t, double> calendar_minutes_;  // by calendar UID, when it has its own
  std::map<std::int64_t, WorkCalendar> own_calendars_;         // those calendars, read once lags need them
  std::optional<DateTime> project_start_;
  std::optional<Date> first_date_;  // the span of the tasks' starts and finishes
  std::optional<Date> last_date_;
  struct Span {
    Date first, last;
  } counted_{};                               // the days the DayCounter of place_tasks holds
  std::optional<std::int64_t> calendar_uid_;  // the project calendar's
  WorkCalendar calendar_;
  std::optional<CalendarBlock> calendar_block_;  // what the template records of the calendar
  std::vector<Task> tasks_;
  std::vector<LinkIn> links_;      // every task's, in the order of the tasks
  std::deque<std::string> names_;  // titles made up for tasks without a name
  UidIndex by_uid_;
  std::map<std::int64_t, std::string_view> resources_;  // by UID, named resources only
  struct ResourceCalendar {
    std::int64_t uid = 0;
    Place at;
  };
  std::map<std::int64_t, ResourceCalendar> resource_calendars_;  // by resource UID: a calendar not the project's
};

Result<Conversion> Builder::run() {
  read_project();
  read_tasks();
  expand_calendar();
  read_resources();
  read_assignments();
  report_resource_calendars();
  place_tasks();
  if (Status nested = nest_tasks(); !nested.ok()) return nested.error();
  report_duration_spans();
  Conversion out;
  out.document = write_document();
  // Without links, every task is scheduled on its own dates.
  if (!links_.empty()) report_schedule(out.document);
  if (calendar_block_) {
    out.day_zero = calendar_block_->start;
    out.day_zero_source = project_start_ ? std::string_view("the plan's start") : plan_.source.day_zero_source;
  }
  return out;
}

void Builder::read_project() {
  read_minutes_per_day();
  project_start_ = plan_.project.start;
  std::vector<CalendarNote> notes;
  calendar_uid_ = plan_.project.calendar_uid;
  if (calendar_uid_) calendar_ = WorkCalendar::read(plan_.calendars, *calendar_uid_, notes);
  report_calendar_notes(notes);
}

void Builder::read_minutes_per_day() {
  // A day has at most 24 hours; 0 or less would make every duration endless or negative.
  auto usable = [](std::optional<double> minutes) { return minutes && *minutes > 0 && *minutes <= 24 * 60; };
  for (const Calendar& calendar : plan_.calendars)
    if (usable(calendar.minutes_per_day)) calendar_minutes_.emplace(calendar.uid, *calendar.minutes_per_day);
  const plan::Project& project = plan_.project;
  const std::optional<double> minutes = project.minutes_per_day;
  if (usable(minutes)) {
    minutes_per_day_ = *minutes;
    return;
  }
  if (!minutes && project.minutes_per_day_text.empty()) return;  // not written: 8 hours, as MS Project's default
  std::string value(project.minutes_per_day_text);               // as written; a binary plan's number otherwise
  if (value.empty()) {
    char digits[32];
    value.assign(digits, std::to_chars(digits, digits + sizeof digits, *minutes).ptr);
  }
  report("minutes-per-day", project.minutes_per_day_place,
         "a working day of \"" + value + "\" minutes (MinutesPerDay) is " +
             (minutes ? "no length a day has" : "not a number") +
             "; durations and lags are counted in days of 480 minutes (8 hours)");
}

void Builder::report_calendar_notes(std::vector<CalendarNote>& notes) {
  for (CalendarNote& note : notes)
    report("calendar-recurrence", note.at.known() ? note.at : plan_.project.calendars_place, std::move(note.message));
  notes.clear();
}

void Builder::expand_calendar() {
  // The days DayCounter's table covers (place_tasks), one more on each side: day 0 may be the
  // day after the project start.
  const std::optional<Date> start = project_start_ ? std::optional<Date>(project_start_->date) : first_date_;
  if (!start) return;
  const std::chrono::days margin{detail::DayCounter::kMarginDays + 1};
  std::vector<CalendarNote> notes;
  calendar_.expand(std::min(first_date_.value_or(*start), *start) - margin,
                   std::max(last_date_.value_or(*start), *start) + margin, notes);
  report_calendar_notes(notes);
}

void Builder::read_tasks() {
  tasks_.reserve(plan_.tasks.size());
  links_.reserve(plan_.links.size());
  for (const plan::Task& in : plan_.tasks) read_task(in);
}

void Builder::read_task(const plan::Task& in) {
  Task task;
  task.in = &in;
  task.uid = in.uid;
  task.level = std::max<std::int64_t>(in.level, 1);
  task.title = in.name;
  if (!in.active) {
    report("inactive-task", in.place(TaskField::Task), task_name(task) + " is inactive and is skipped");
    return;
  }
  if (in.has_uid && by_uid_.contains(task.uid)) {
    report("link-invalid", in.place(TaskField::Task),
           "a second task with UID " + std::to_string(task.uid) + " is skipped");
    return;
  }
  if (blank(task.title)) {
    task.title = names_.emplace_back(in.has_uid ? "Task " + std::to_string(task.uid) : "Untitled task");
    report("untitled-task", in.place(TaskField::Task),
           (in.has_uid ? "task " + std::to_string(task.uid) : std::string("a task")) + " has no name; it is called \"" +
               std::string(task.title) + "\"");
  }
  // MS Project shows any task of zero duration as a milestone, whatever its Milestone flag.
  task.milestone = in.milestone || in.duration == 0.0;

  report_scheduling_losses(in, task);
  read_duration(in, task);
  read_amounts(in, task);
  if (in.has_uid) read_links(in, task);  // no link can name a task without a UID
  task.start_at = in.start;
  task.finish_at = in.finish;
  for (const bool start : {true, false}) {
    const std::string_view text = start ? in.start_text : in.finish_text;
    if ((start ? in.start : in.finish) || blank(text)) continue;
    report_dates(task, "date-invalid", in.place(start ? TaskField::Start : TaskField::Finish),
                 task_name(task) + " has the " + (start ? "Start" : "Finish") + " \"" + std::string(text) +
                     "\", which is not a date and time (yyyy-mm-ddThh:mm:ss); it is not read");
  }
  for (const std::optional<DateTime>& d : {task.start_at, task.finish_at}) {
    if (!d) continue;
    first_date_ = first_date_ ? std::min(*first_date_, d->date) : d->date;
    last_date_ = last_date_ ? std::max(*last_date_, d->date) : d->date;
  }
  if (in.has_uid) by_uid_.insert(task.uid, tasks_.size());
  tasks_.push_back(std::move(task));
}

void Builder::report_scheduling_losses(const plan::Task& in, Task& task) {
  // Start No Earlier Than on the task's own start is what a declared start means (docs/semantics.md §5).
  const Constraint constraint = in.constraint;
  const bool start_no_earlier_than_start =
      constraint == Constraint::StartNoEarlierThan &&
      (in.constraint_date ? in.start && in.start->date == *in.constraint_date : !in.start && in.start_text.empty());
  if (constraint != Constraint::AsSoonAsPossible && !start_no_earlier_than_start)
    report_dates(task, "constraint", in.place(TaskField::Constraint),
                 task_name(task) + " has the constraint \"" + std::string(constraint_name(constraint)) +
                     "\"; only its start is kept (as a start-no-earlier-than)");
  if (in.manual)
    report_dates(task, "manual-task", in.place(TaskField::Manual),
                 task_name(task) + " is manually scheduled; its dates are kept as declared");
  if (has_progress(in))
    report_dates(
        task, "progress", in.place(TaskField::Task),
        task_name(task) + " has progress (actual dates, cost or percent complete), which a template does not keep");
  if (const auto calendar = in.calendar_uid; calendar && *calendar >= 0 && calendar != calendar_uid_)
    report_dates(task, "task-calendar", in.place(TaskField::Calendar),
                 task_name(task) + " has its own calendar (UID " + std::to_string(*calendar) +
                     "); the project calendar is used");
}

void Builder::read_duration(const plan::Task& in, Task& task) {
  if (in.working_days) {  // a length in working days: due on the last of them (place_tasks)
    task.duration = *in.working_days;
    task.duration_days = static_cast<double>(*in.working_days);
    return;
  }
  const std::string_view text = in.duration_text;
  auto invalid = [&](std::string_view why) {
    report("duration-invalid", in.place(TaskField::Duration),
           task_name(task) + " has the duration \"" + std::string(text) + "\", " + std::string(why) +
               "; the story has no duration");
  };
  if (!in.duration) {
    // Years and months have no fixed length; an infinite number is none either.
    if (!text.empty()) invalid("which is not a duration ptmpl reads (PT…H…M…S or P…D, finite)");
    return;
  }
  const bool elapsed = in.duration_format.elapsed;
  task.elapsed = elapsed;
  const double days = *in.duration / (elapsed ? 24 * 60 : minutes_per_day(in.calendar_uid));
  const double whole = std::ceil(days - 1e-9);
  const bool in_range = days >= 0 && whole < 1e12;
  if (task.milestone) {
    if (elapsed && in_range) report_elapsed(task, days);
    task.duration_days = days;
    return;
  }
  if (!in_range) {
    invalid("which no story can hold (0 to 10^12 working days)");
    return;
  }
  task.duration_days = days;
  // An elapsed duration is reported once the task is placed (place_tasks): its Start and
  // Finish say how many working days it covers.
  if (elapsed) {
    task.elapsed_days = days;
    task.duration = static_cast<std::int64_t>(whole);
    return;
  }
  if (std::fabs(whole - days) > 1e-9)
    report("fractional-duration", in.place(TaskField::Duration),
           task_name(task) + " lasts " + std::to_string(days).substr(0, std::to_string(days).find('.') + 3) +
               " working days; it is rounded up to " + std::to_string(static_cast<long long>(whole)));
  task.duration = static_cast<std::int64_t>(whole);
}

// Cost (hundredths of the currency unit: cents) and work.
void Builder::read_amounts(const plan::Task& in, Task& task) {
  if (const auto cost = in.cost) {
    const double rounded = std::round(*cost);
    if (std::fabs(rounded - *cost) > 1e-6)
      report("cost-fraction", in.place(TaskField::Cost),
             task_name(task) + " costs " + std::string(in.cost_text) + " hundredths; rounded to a whole cent");
    if (rounded > 0 && rounded < 9.2e18)
      task.cost_cents = static_cast<std::int64_t>(rounded);
    else if (rounded != 0)  // also NaN
      report("cost-invalid", in.place(TaskField::Cost),
             task_name(task) + " costs " + std::string(in.cost_text) +
                 " hundredths, which a budget estimate cannot hold (0 to 9.2·10^18 cents); the story has no budget");
  }
  if (const auto work = in.work; work && *work > 0) {
    const double minutes = std::round(*work);
    if (minutes <= 2147483647.0)
      task.work_minutes = static_cast<std::int64_t>(minutes);
    else
      report("work-overflow", in.place(TaskField::Work), task_name(task) + " has more work than a time estimate holds");
  }
}

void Builder::read_links(const plan::Task& in, Task& task) {
  for (std::size_t i = in.first_link; i < in.first_link + in.link_count; ++i) {
    const Link& link = plan_.links[i];
    LinkIn out;
    out.in = &link;
    if (!link.predecessor) {
      report("link-invalid", link.place, "a link into " + task_name(task) + " names no predecessor; it is dropped");
      continue;
    }
    out.predecessor = *link.predecessor;
    out.successor = task.uid;
    if (!link.type) {
      report("link-invalid", link.type_place,
             "a link into " + task_name(task) + " has the unknown type " + std::string(link.type_text) +
                 "; it is dropped");
      continue;
    }
    out.type = *link.type;
    if (link.cross_project) {
      report("cross-project-link", link.place,
             "a link into " + task_name(task) + " comes from another project (" + std::string(link.cross_project_name) +
                 "); it is dropped");
      continue;
    }
    if (!link.lag && !link.lag_text.empty())
      report_dates(task, "lag-invalid", link.lag_place,
                   "a link into " + task_name(task) + " has the LinkLag \"" + std::string(link.lag_text) +
                       "\", which is not a finite number; the link is written with lag 0");
    out.lag = link.lag.value_or(0);
    links_.push_back(out);
  }
}

void Builder::read_resources() {
  for (const Resource& resource : plan_.resources) {
    resources_.emplace(resource.uid, resource.name);
    if (const auto calendar = resource.calendar_uid; calendar && *calendar >= 0 && calendar != calendar_uid_)
      resource_calendars_.emplace(resource.uid, ResourceCalendar{*calendar, resource.calendar_place});
    if (resource.has_rates)
      report("resource-rates", resource.place,
             "resource " + std::to_string(resource.uid) + " \"" + std::string(resource.name) + "\" has " +
                 std::string(plan_.source.rates) + ", which a template does not keep");
  }
}

void Builder::read_assignments() {
  for (const Assignment& assignment : plan_.assignments) {
    const std::size_t t = by_uid_.find(assignment.task_uid);
    if (t != kNone && !tasks_[t].split) report_split(tasks_[t], assignment);
    if (t == kNone || assignment.resource_uid == kNoResource || resources_.count(assignment.resource_uid) == 0)
      continue;
    std::vector<std::int64_t>& list = tasks_[t].resources;
    if (std::find(list.begin(), list.end(), assignment.resource_uid) == list.end())
      list.push_back(assignment.resource_uid);
  }
}

void Builder::report_resource_calendars() {
  if (resource_calendars_.empty()) return;
  // The dates of each resource's tasks.
  std::map<std::int64_t, std::pair<Date, Date>> spans;
  for (const Task& task : tasks_) {
    if (!task.start_at) continue;
    const Date from = task.start_at->date;
    const Date to = task.finish_at ? std::max(task.finish_at->date, from) : from;
    for (const std::int64_t resource : task.resources) {
      if (resource_calendars_.count(resource) == 0) continue;
      auto [it, added] = spans.try_emplace(resource, from, to);
      if (!added) it->second = {std::min(it->second.first, from), std::max(it->second.second, to)};
    }
  }
  auto hours = [](const DayRule& day) {
    if (!day.working) return std::string("does not work");
    return "works between " + format_time(day.start) + " and " + format_time(day.end);
  };
  // Each day compared costs a look at both calendars: a file of many resources over centuries
  // is compared up to a bound, then said to differ by its definition alone.
  std::int64_t budget = 4'000'000;
  for (const auto& [resource, span] : spans) {
    const auto& [uid, at] = resource_calendars_.at(resource);
    if (calendar_uid_ && WorkCalendar::plain_child_of(plan_.calendars, uid, *calendar_uid_)) continue;
    const std::string who = "resource " + std::to_string(resource) + " \"" + std::string(resources_.at(resource)) +
                            "\" works on a calendar of its own (UID " + std::to_string(uid) + ")";
    const std::string kept = "; the tasks it works on keep their dates as working days of the project calendar";
    const std::int64_t length = (span.second - span.first).count() + 1;
    if ((budget -= length) < 0) {
      report("resource-calendar", at,
             who + ", not compared day by day with the project calendar (too many days of resource calendars)" + kept);
      continue;
    }
    std::vector<CalendarNote> ignored;  // its own recurrences' notes: the finding covers them
    WorkCalendar own = WorkCalendar::read(plan_.calendars, uid, ignored);
    own.expand(span.first, span.second, ignored);
    std::optional<Date> first_difference;
    std::int64_t differences = 0;
    for (Date d = span.first; d <= span.second; d += std::chrono::days{1}) {
      const DayRule mine = own.day(d);
      const DayRule project = calendar_.day(d);
      const bool same = mine.working == project.working &&
                        (!mine.working || (mine.start == project.start && mine.end == project.end));
      if (same) continue;
      if (!first_difference) first_difference = d;
      ++differences;
    }
    if (!first_difference) continue;
    report("resource-calendar", at,
           who + ", which differs from the project calendar over its tasks' dates (" + format_date(span.first) +
               " to " + format_date(span.second) + "): on " + format_date(*first_difference) + " the resource " +
               hours(own.day(*first_difference)) + " and the project " + hours(calendar_.day(*first_difference)) +
               (differences > 1 ? " (" + std::to_string(differences) + " days differ)" : std::string()) + kept);
  }
}

// MS Project keeps a split task's pieces in its assignments' timephased work (Type 1, work
// still to do; Type 2, work done): a period without work, on working time of the project
// calendar, between periods with work, is a gap the task's one stretch of days cannot hold.
void Builder::report_split(Task& task, const Assignment& assignment) {
  // Whether [from, to) holds working time of the project calendar; a period longer than
  // 400 days is taken to (it is no gap MS Project writes, and walking it would cost).
  auto working_time = [&](const DateTime& from, const DateTime& to) {
    if ((to.date - from.date).count() > 400) return true;
    for (Date d = from.date; d <= to.date; d += std::chrono::days{1}) {
      const DayRule day = calendar_.day(d);
      const int lo = d == from.date ? from.minute : 0;
      const int hi = d == to.date ? to.minute : 24 * 60;
      if (day.working && std::max(lo, day.start) < std::min(hi, day.end)) return true;
    }
    return false;
  };
  // The day a period's working time is on: its own, or the next when it begins at or after
  // the end of the day's work (MS Project's periods run from 17:00 to 17:00).
  auto first_working = [&](DateTime at) {
    if (const DayRule day = calendar_.day(at.date); day.working && at.minute < day.end) return at;
    for (int i = 0; i < 400; ++i)  // a week, unless exceptions close more days
      if (calendar_.working(at.date += std::chrono::days{1})) break;
    at.minute = 0;
    return at;
  };
  for (const std::int64_t type : {1, 2}) {
    bool worked = false;               // a period with work came before
    std::optional<DateTime> gap_from;  // the first idle working time since
    Place gap_at;
    for (const WorkPeriod& period : assignment.periods) {
      if (period.type != type) continue;
      const std::optional<DateTime>& from = period.from;
      const std::optional<DateTime>& to = period.to;
      if (!from || !to || to->date < from->date) continue;
      if (period.work > 0) {
        if (worked && gap_from) {
          task.split = true;
          report("split-task", gap_at,
                 task_name(task) + " is split: it does no work from " + format_date(gap_from->date) +
                     " and resumes on " + format_date(first_working(*from).date) +
                     "; a story is one stretch of working days: it keeps its Start and Finish and lasts "
                     "their span, pause included");
          return;
        }
        worked = true;
      } else if (worked && !gap_from && working_time(*from, *to)) {
        gap_from = first_working(*from);
        gap_at = period.place;
      }
    }
  }
}

// An elapsed duration runs through nights, weekends and holidays: the working days it covers
// depend on where it lies. Placed by MS Project, its Start and Finish say which: the story lasts
// that span, so that it keeps its dates (mspdiduration.xml: 7 elapsed days from a Wednesday
// cover 5 working days). Without both dates, its calendar days count as working days.
void Builder::place_elapsed(Task& task) {
  const bool placed = task.start && task.due;
  if (placed) task.duration = *task.due - *task.start + 1;
  report_elapsed(task, task.elapsed_days, placed ? task.duration : std::nullopt);
  if (!placed && std::fabs(static_cast<double>(*task.duration) - task.elapsed_days) > 1e-9)
    report("fractional-duration", task.place(TaskField::Duration),
           task_name(task) + " lasts " +
               std::to_string(task.elapsed_days).substr(0, std::to_string(task.elapsed_days).find('.') + 3) +
               " days; it is rounded up to " + std::to_string(*task.duration));
}

void Builder::report_elapsed(const Task& task, double days, std::optional<std::int64_t> span) {
  const std::string calendar_days = std::to_string(static_cast<long long>(std::ceil(days - 1e-9)));
  report("elapsed-duration", task.place(TaskField::Duration),
         task_name(task) + " has an elapsed duration (" + calendar_days + " calendar day" +
             (calendar_days == "1" ? "" : "s") + "); " +
             (span ? "the story lasts the " + std::to_string(*span) + " working day" + (*span == 1 ? "" : "s") +
                         " its Start and Finish span"
                   : "its calendar days are counted as working days"));
}

// A leaf keeps MS Project's Start and Finish: its `duration` is the working days they span, so
// that a schedule reproduces them (docs/semantics.md §5 takes the duration). When its Duration says
// otherwise (MPXJ's `sample.xml` "Second Task": 100 days over 50; a resource calendar or
// assignment units stretch or squeeze the task; a fraction of a day rounded up), the span wins
// and the finding names the Duration it replaces. Split tasks and elapsed durations have
// findings of their own; a milestone has no length.
void Builder::report_duration_spans() {
  for (Task& task : tasks_) {
    if (task.has_children || task.milestone || task.elapsed) continue;
    // A Start and Finish that span no working time (place_tasks() gives no due) span 0 days.
    if (!task.start || !task.finish_at || !task.duration) continue;
    const std::int64_t span = task.due ? *task.due - *task.start + 1 : 0;
    if (span == *task.duration) continue;
    const std::int64_t duration = *task.duration;
    task.duration = span;
    if (task.split) continue;
    const Place& written = task.place(TaskField::Duration);
    report("duration-span", written.known() ? written : task.place(TaskField::Task),
           task_name(task) + " lasts " + std::to_string(duration) + " working day" + (duration == 1 ? "" : "s") +
               " (its Duration), but its Start and Finish (" + format_date(task.start_at->date) + " to " +
               format_date(task.finish_at->date) + ") span " + std::to_string(span) +
               "; the story keeps the dates and lasts " + std::to_string(span));
  }
}

// Start and Finish → working-day offsets; lags → working days.
void Builder::place_tasks() {
  const std::optional<Date>& first = first_date_;
  const std::optional<Date>& last = last_date_;
  const Date start = project_start_ ? project_start_->date : first.value_or(Date{});
  // Day 0: the project start, moved to the next working day when it is not one (or when the
  // project starts after the end of its first day's working time).
  Date zero = start;
  if (project_start_ && project_start_->minute >= calendar_.day(zero).end) zero += std::chrono::days{1};
  const Date lo = first ? std::min(*first, zero) : zero;
  const Date hi = last ? std::max(*last, zero) : zero;
  if ((hi - lo).count() > 366 * 400) {
    findings_.report(plan_.source.dates_span_finding, plan_.project.place,
                     "the plan's dates span more than 400 years; dates are not converted");
    return;
  }
  const detail::DayCounter counter([this](Date d) { return calendar_.working(d); }, zero, lo, hi);
  counted_ = {lo - std::chrono::days{detail::DayCounter::kMarginDays},
              hi + std::chrono::days{detail::DayCounter::kMarginDays}};
  // docs/semantics.md §7: the template keeps the plan's day 0, week and exceptions (over the dates counted).
  // A file with neither a StartDate nor a dated task has no day 0 to record.
  if ((project_start_ || first) && !calendar_.week().empty())
    calendar_block_ = counter.calendar_block(counter.day_zero(), calendar_.week());

  for (std::size_t i = 0; i < tasks_.size(); ++i) {
    Task& task = tasks_[i];
    const std::optional<DateTime>& s = task.start_at;
    const std::optional<DateTime>& f = task.finish_at;
    if (!s) continue;
    if (!calendar_.working(s->date))
      report_dates(task, "off-calendar", task.place(TaskField::Start),
                   task_name(task) + " starts on " + format_date(s->date) + ", not a working day of " +
                       std::string(plan_.source.calendar) + "; it starts on the next working day");
    task.start = start_day(*s, task.milestone, counter);
    if (task.milestone) {
      task.due = task.start;
      continue;
    }
    if (!f) {
      if (const auto days = task.in->working_days; days && *days > 0) task.due = *task.start + *days - 1;
      continue;
    }
    if (!calendar_.working(f->date))
      report_dates(task, "off-calendar", task.place(TaskField::Finish),
                   task_name(task) + " finishes on " + format_date(f->date) + ", not a working day of " +
                       std::string(plan_.source.calendar) + "; it finishes on the previous working day");
    const std::int64_t due = finish_day(*f, counter);
    if (due < *task.start) {  // zero-length task: no day of its own
      task.duration = task.duration.value_or(0);
      continue;
    }
    task.due = due;
  }
  for (Task& task : tasks_)
    if (task.elapsed && !task.milestone && task.duration) place_elapsed(task);

  // Lags in working days (percentages against the predecessor's duration).
  for (LinkIn& link : links_) {
    const Format format = link.in->lag_format;
    // A lag is counted in working days of its predecessor's calendar (P6's default lag calendar).
    const std::size_t predecessor = by_uid_.find(link.predecessor);
    double days =
        link.lag / (predecessor == kNone ? minutes_per_day_ : minutes_per_day(tasks_[predecessor].in->calendar_uid));
    if (format.percent()) {
      days = predecessor == kNone ? 0 : link.lag / 100 * tasks_[predecessor].duration_days;
    } else if (format.elapsed) {
      days = link.lag / (24 * 60);
      if (link.lag != 0)
        report_dates(tasks_[by_uid_.find(link.successor)], "elapsed-lag", link.in->lag_place,
                     "the lag of a link into " + task_name(successor_of(link)) +
                         " is elapsed time; its calendar days count as working days");
    }
    const double whole = std::round(days);
    if (!(std::fabs(whole) < 1e12)) {
      report_dates(tasks_[by_uid_.find(link.successor)], "lag-invalid", link.in->lag_place,
                   "the lag of a link into " + task_name(successor_of(link)) + " (LinkLag " +
                       std::string(link.in->lag_text) +
                       ") is beyond a lag's range (10^12 working days either way); the link is written with lag 0");
      link.lag_days = 0;
      continue;
    }
    if (std::fabs(whole - days) > 1e-9)
      report_dates(tasks_[by_uid_.find(link.successor)], "fractional-lag", link.in->lag_place,
                   "the lag of a link into " + task_name(successor_of(link)) +
                       " is not a whole number of days; it is rounded to " +
                       std::to_string(static_cast<long long>(whole)));
    link.lag_days = static_cast<std::int64_t>(whole);
    if (predecessor != kNone && !format.percent() && !format.elapsed)
      if (const auto lag = link_lag_in_days(link, tasks_[predecessor], successor_of(link), link.lag_days, counter))
        link.lag_days = *lag;
  }
}

std::int64_t Builder::start_day(const DateTime& at, bool milestone, const detail::DayCounter& counter) const {
  // A milestone at the end of the working day is a moment at the end of this day, and on it
  // (docs/semantics.md §4).
  const DayRule day = calendar_.day(at.date);
  const bool next = day.working && at.minute >= day.end && !milestone;
  return counter.offset_on_or_after(at.date + std::chrono::days{next ? 1 : 0});
}

std::int64_t Builder::finish_day(const DateTime& at, const detail::DayCounter& counter) const {
  const DayRule day = calendar_.day(at.date);
  const bool previous = day.working && at.minute <= day.start;
  return counter.offset_on_or_before(at.date - std::chrono::days{previous ? 1 : 0});
}

const WorkCalendar& Builder::calendar_of(const Task& task) {
  const std::optional<std::int64_t> uid = task.in->calendar_uid;
  if (!uid || uid == calendar_uid_ || calendar_minutes_.count(*uid) == 0) return calendar_;
  auto [it, added] = own_calendars_.try_emplace(*uid);
  if (added) {
    std::vector<CalendarNote> ignored;  // reported with the calendar's own tasks
    it->second = WorkCalendar::read(plan_.calendars, *uid, ignored);
    if (first_date_ && last_date_)
      it->second.expand(*first_date_ - std::chrono::days{800}, *last_date_ + std::chrono::days{800}, ignored);
  }
  return it->second;
}

// P6 places a successor at a moment: its predecessor's finish (or start), the lag's hours
// later on the predecessor's calendar (P6's default lag calendar), then the first time the
// successor's own calendar works (for a start; for a finish, the last time it worked). The
// template lag is the day that moment falls on less the day the template's link gives with lag
// 0: a lag after a 7-day calendar becomes the project calendar's working days it spans, and a
// successor starting at 13:00 on the day its predecessor finishes at 12:00 follows it FS-1.
// A successor with progress keeps its actual dates where the link would not let it
// (out-of-sequence progress: P6's logic does not move actuals): the lag goes down to them.
std::optional<std::int64_t> Builder::link_lag_in_days(const LinkIn& link, const Task& from, const Task& to,
                                                      std::int64_t days, const detail::DayCounter& counter) {
  if (calendar_minutes_.empty()) return std::nullopt;
  const LinkEnds& ends = link_ends(static_cast<DependencyType>(kServiceLinkType[static_cast<std::size_t>(link.type)]));
  const std::optional<DateTime>& end = ends.from_finish ? from.finish_at : from.start_at;
  if (!end || !from.start) return std::nullopt;
  const std::string linked =
      std::string(ends.abbreviation) +
      (days != 0 ? (days > 0 ? "+" : "") + std::to_string(days) + " working days of its calendar" : std::string());
  // The walk stays within the days the counter holds (a lag beyond them, or a calendar that
  // (nearly) never works, would be cut short there): past them the lag is kept as written.
  const auto beyond = [&](Date date) {
    if (date >= counted_.first && date <= counted_.last) return false;
    report("link-lag", link.in->place,
           "the link from " + task_name(from) + " into " + task_name(to) + " (" + linked + ") reaches beyond " +
               format_date(date < counted_.first ? counted_.first : counted_.last) +
               ", past the days its calendars are counted over; its lag is kept as written");
    return true;
  };
  // The boundary the template's link starts from: a finish is the end of its day (the start of
  // the next), a start the start of its day; a milestone's is its time's (docs/semantics.md §4).
  const std::int64_t from_day =
      ends.from_finish ? std::max(finish_day(*end, counter) + 1, *from.start) : start_day(*end, false, counter);
  // The lag's working days on the predecessor's calendar, at the time of day it ends.
  const WorkCalendar& lag_calendar = calendar_of(from);
  DateTime at = *end;
  const std::chrono::days step{days > 0 ? 1 : -1};
  for (std::int64_t left = std::abs(days); left > 0;) {
    at.date += step;
    if (beyond(at.date)) return std::nullopt;
    if (lag_calendar.working(at.date)) --left;
  }
  // The successor's calendar: the first time it works from there (a start), the last time it
  // worked up to it (a finish).
  const WorkCalendar& own = calendar_of(to);
  const DayRule day = own.day(at.date);
  if (!ends.to_finish && (!day.working || at.minute >= day.end)) {
    while (!own.working(at.date += std::chrono::days{1}))
      if (beyond(at.date)) return std::nullopt;
    at.minute = own.day(at.date).start;
  } else if (ends.to_finish && (!day.working || at.minute <= day.start)) {
    while (!own.working(at.date -= std::chrono::days{1}))
      if (beyond(at.date)) return std::nullopt;
    at.minute = own.day(at.date).end;
  }
  const std::int64_t to_day = ends.to_finish ? finish_day(at, counter) + 1 : start_day(at, false, counter);
  std::int64_t lag = to_day - from_day;
  // Where the plan has the successor (its start; the day after its finish).
  const std::optional<std::int64_t> planned = ends.to_finish ? (to.due ? *to.due + 1 : to.due) : to.start;
  const bool out_of_sequence = has_progress(*to.in) && planned && *planned - from_day < lag;
  if (out_of_sequence) lag = *planned - from_day;
  if (lag == days) return lag;
  const std::string from_end = ends.from_finish ? "finish" : "start";
  std::string why;
  if (out_of_sequence) {
    // Its planned end may come from its remaining duration (started, no finish written).
    const std::optional<DateTime>& to_end = ends.to_finish ? to.finish_at : to.start_at;
    why = task_name(to) + " has progress and " + (ends.to_finish ? "finishes" : "starts") +
          (to_end ? " (" + format_date(to_end->date) + ")" : std::string()) +
          " before the link allows; a template keeps its dates";
  } else {
    why = "from " + task_name(from) + "'s " + from_end + " (" + format_date(end->date) + " " +
          format_time(end->minute) + ") the plan's lag and calendars reach " + format_date(at.date) + " " +
          format_time(at.minute) + ", and a template counts whole days of the project calendar";
  }
  report("link-lag", link.in->place,
         "the link from " + task_name(from) + " into " + task_name(to) + " (" + linked + ") is written with lag " +
             std::to_string(lag) + ": " + why);
  return lag;
}

// The outline: each task becomes a child of the nearest task above it with a lower level.
Status Builder::nest_tasks() {
  std::vector<std::size_t> open;  // the chain of parents above the current task
  for (std::size_t i = 0; i < tasks_.size(); ++i) {
    Task& task = tasks_[i];
    while (!open.empty() && tasks_[open.back()].level >= task.level) open.pop_back();
    if (open.size() >= detail::kMaxStoryLevels) {
      const Place& level = task.place(TaskField::OutlineLevel);
      return detail::too_deep_error(findings_.place_text(level.known() ? level : task.place(TaskField::Task)),
                                    task_name(task), open.size() + 1);
    }
    if (!open.empty() && task.level > tasks_[open.back()].level + 1)
      report("outline-gap", task.place(TaskField::OutlineLevel),
             task_name(task) + " is at outline level " + std::to_string(task.level) + ", more than one below " +
                 task_name(tasks_[open.back()]) + "; it becomes its sub-story");
    else if (open.empty() && task.level > 1)
      report("outline-gap", task.place(TaskField::OutlineLevel),
             task_name(task) + " is at outline level " + std::to_string(task.level) +
                 " with no task above it; it becomes a top-level story");
    if (!open.empty()) {
      task.parent = open.back();
      // A parent's dates become its children's span (see write_document()).
      Task& parent = tasks_[open.back()];
      parent.has_children = true;
      parent.start.reset();
      parent.due.reset();
    }
    open.push_back(i);
  }
  // Links, with the names of their ends known.
  for (LinkIn& link : links_) {
    link.from = by_uid_.find(link.predecessor);
    if (link.from == kNone)
      report("link-invalid", link.in->place,
             "a link into " + task_name(successor_of(link)) + " names task " + std::to_string(link.predecessor) +
                 ", which is not in the plan; it is dropped");
  }
  return Done{};
}

// Outgoing links by predecessor, in the order the successors come: counted, then placed.
Builder::Successors Builder::successors_by_task() const {
  Successors out;
  out.first.assign(tasks_.size() + 1, 0);
  for (const LinkIn& link : links_)
    if (link.from != kNone) ++out.first[link.from + 1];
  for (std::size_t i = 0; i < tasks_.size(); ++i) out.first[i + 1] += out.first[i];
  out.links.resize(out.first.back());
  std::vector<std::size_t> next(out.first.begin(), out.first.end() - 1);
  for (std::size_t l = 0; l < links_.size(); ++l)
    if (links_[l].from != kNone) out.links[next[links_[l].from]++] = l;
  // In the order the source lists them on their predecessor, when it does (plan::Link::source_order).
  auto by_source_order = [&](std::size_t a, std::size_t b) {
    return links_[a].in->source_order < links_[b].in->source_order;
  };
  for (std::size_t t = 0; t < tasks_.size(); ++t) {
    const auto first = out.links.begin() + static_cast<std::ptrdiff_t>(out.first[t]);
    const auto last = out.links.begin() + static_cast<std::ptrdiff_t>(out.first[t + 1]);
    if (last - first > 1) std::stable_sort(first, last, by_source_order);
  }
  return out;
}

// A parent's dates are its children's span (docs/semantics.md §5 rolls parents up; nest_tasks()
// cleared the plan's own). Tasks are in outline order, children after their parent: going
// backwards, a task is complete when it is reached, and adds itself to its parent. The
// template's figures, which come before raw_json in canonical order, are added up on the way.
// Costs are positive: their saturating sums do not depend on the order of the terms.
Builder::Totals Builder::roll_up_parents() {
  Totals totals;
  std::vector<std::int64_t> subtree_cents(tasks_.size(), 0);
  for (std::size_t i = tasks_.size(); i-- > 0;) {
    const Task& task = tasks_[i];
    if (task.has_children) {
      const std::string tasks(plan_.source.sub_tasks);
      // Only a cost the plan gives the summary task can differ from its tasks'.
      if (task.in->cost && task.cost_cents.value_or(0) != subtree_cents[i])
        report("summary-cost", task.place(TaskField::Cost),
               task_name(task) + " costs " + std::to_string(task.cost_cents.value_or(0)) + " cents, its " + tasks +
                   " " + std::to_string(subtree_cents[i]) + "; the template keeps its " + tasks +
                   "' costs (and rolls them up)");
    } else {
      subtree_cents[i] = task.cost_cents.value_or(0);
      if (task.cost_cents) {
        totals.cents = add_cents(totals.cents, *task.cost_cents);
        totals.any_cost = true;
      }
      if (task.start) {
        const std::int64_t due = task.due.value_or(*task.start);
        totals.min_start = totals.min_start ? std::min(*totals.min_start, *task.start) : *task.start;
        totals.max_due = totals.max_due ? std::max(*totals.max_due, due) : due;
      }
    }
    if (task.parent == kNone) continue;
    Task& parent = tasks_[task.parent];
    subtree_cents[task.parent] = add_cents(subtree_cents[task.parent], subtree_cents[i]);
    if (!task.start) continue;
    // A zero-length task occupies its start day, like a milestone (docs/semantics.md §4).
    const std::int64_t due = task.due.value_or(*task.start);
    parent.start = parent.start ? std::min(*parent.start, *task.start) : *task.start;
    parent.due = parent.due ? std::max(*parent.due, due) : due;
  }
  return totals;
}

std::string Builder::write_document() {
  const Successors successors = successors_by_task();
  const Totals totals = roll_up_parents();
  // A task takes more bytes in MSPDI (a dozen elements, each named twice) than as a story: the
  // size of the file is room enough for the template, made at once.
  JsonEmitter json(JsonLayout::Pretty, size_hint_);
  StoryWriter out(json);
  json::Arena arena;
  const Template head = template_head(totals, arena);
  out.begin_template(head);
  write_stories(out, successors);
  out.end_template(head);
  return json.finish();
}

// The project_template's keys before raw_json (title, budget, currency, duration, item_count),
// the assignees and the calendar block; `arena` holds the budget's spelling and a title made
// from the file's name.
Template Builder::template_head(const Totals& totals, json::Arena& arena) {
  Template head;
  std::string_view title = plan_.project.title;
  if (title.empty()) {
    const std::string file_name = path_.substr(path_.find_last_of('/') + 1);
    title = arena.copy(file_name.substr(0, file_name.find_last_of('.')));
  }
  head.title = title;
  if (!plan_.project.description.empty()) head.description = plan_.project.description;
  if (totals.any_cost) {
    head.is_budgeted = true;
    head.budget = json::Builder(arena).number_spelled(arena.copy(cents_to_budget(totals.cents)));
  }
  const std::string_view currency = plan_.project.currency;
  if (!currency.empty()) {
    if (is_currency_code(currency))
      head.currency = currency;
    else
      report("currency", plan_.project.currency_place,
             "the project's currency \"" + std::string(currency) + "\" is not an ISO 4217 code; the template has none");
  }
  if (totals.min_start && totals.max_due) head.duration = *totals.max_due - *totals.min_start + 1;
  head.item_count = static_cast<std::int64_t>(tasks_.size());
  for (const auto& [uid, name] : resources_) head.assignments.push_back({uid, name});
  head.calendar = calendar_block_;
  return head;
}

// The stories in outline order, which is the order of the tasks: a story's keys up to
// sub_stories, its children, then the keys after sub_stories once the next task is not among
// its children. `open` is the chain of stories being written (outline levels can be as deep as
// a file makes them); a story's dependencies are its links out, found through `successors`.
void Builder::write_stories(StoryWriter& out, const Successors& successors) {
  std::vector<std::pair<std::size_t, Story>> open;
  std::vector<Dependency> dependencies;
  auto close_story = [&] {
    auto& [t, story] = open.back();
    dependencies.clear();
    for (std::size_t l = successors.first[t]; l < successors.first[t + 1]; ++l) {
      const LinkIn& link = links_[successors.links[l]];
      Dependency& dependency = dependencies.emplace_back();
      dependency.source_id = temp_id_of(tasks_[t]);
      dependency.target_id = temp_id_of(successor_of(link));
      dependency.type = kServiceLinkType[static_cast<std::size_t>(link.type)];
      dependency.lag = link.lag_days;
    }
    story.dependencies = dependencies;
    out.end_story(story, tasks_[t].has_children);
    open.pop_back();
  };
  for (std::size_t i = 0; i < tasks_.size(); ++i) {
    // Titles point into the XML text, long out of the cache by now: fetched a few stories ahead.
    if (i + 8 < tasks_.size()) __builtin_prefetch(tasks_[i + 8].title.data());
    while (!open.empty() && open.back().first != tasks_[i].parent) close_story();
    open.emplace_back(i, story_of(i));
    out.begin_story(open.back().second, tasks_[i].has_children);
  }
  while (!open.empty()) close_story();
}

void Builder::report_schedule(std::string_view document) {
  const TemplateFile file = TemplateFile::parse(path_, FileText::borrow(document));
  if (file.templates().empty()) return;
  const ScheduledTemplate scheduled(file.templates().front().model.stories);
  const Schedule& schedule = scheduled.schedule();
  if (schedule.cycles().empty()) {
    if (schedule.ok()) report_moved_tasks(schedule);
    return;
  }
  // Task i is the story written i-th, its dependencies its links out in `successors`' order.
  const Successors successors = successors_by_task();
  detail::report_cycles(
      scheduled.graph(), schedule.cycles(), std::string(plan_.source.finding_prefix) + "dependency-cycle",
      [&](std::size_t task, std::size_t index, std::size_t) {
        const LinkIn& link = links_[successors.links[successors.first[task] + index]];
        return link.in != nullptr ? link.in->place : tasks_[task].place(TaskField::Task);
      },
      findings_);
}

// A leaf keeps its plan Start as a start-no-earlier-than (story_of()), so a schedule can only
// place it later: where a link holds it. Each such task is said once, with the reason: the
// task the link comes from is later than the plan has it too (`moved-by-task`, which names
// it, so a chain of findings leads back to the first cause); or the plan's own dates break the
// link, which a finding of the task's own may explain (Task::dates_reported: nothing more is
// said), or else `link-not-kept` names the link, and the hours where both its ends lie on one
// day of the plan.
void Builder::report_moved_tasks(const Schedule& schedule) {
  const DependencyGraph& graph = schedule.graph();
  // Working days from the plan's start (or finish) of task t to the schedule's.
  auto start_shift = [&](std::size_t t) {
    return tasks_[t].start ? schedule[t].early.first_day() - *tasks_[t].start : 0;
  };
  auto finish_shift = [&](std::size_t t) { return tasks_[t].due ? schedule[t].early.due - *tasks_[t].due : 0; };
  auto days = [](std::int64_t n) { return std::to_string(n) + " working day" + (n == 1 ? "" : "s"); };
  for (std::size_t t = 0; t < tasks_.size(); ++t) {
    const Task& task = tasks_[t];
    if (task.has_children || !task.start) continue;
    const std::int64_t shift = start_shift(t);
    if (shift <= 0) continue;
    const Place& start = task.place(TaskField::Start);
    const Place& at = start.known() ? start : task.place(TaskField::Task);
    const std::string moved = task_name(task) + " is scheduled " + days(shift) + " later than its Start in the plan (" +
                              format_date(task.start_at->date) + "): ";
    const std::size_t l = schedule.binding_link(t);
    if (l == Schedule::npos) {
      if (!task.dates_reported)
        report("link-not-kept", at, moved + "a finish-to-finish link keeps it from starting before day 0");
      continue;
    }
    const ptmpl::Link& link = graph.links()[l];
    const LinkEnds& ends = link_ends(*link.type);
    const Task& from = tasks_[link.source];
    const std::int64_t from_shift = ends.from_finish ? finish_shift(link.source) : start_shift(link.source);
    const std::string linked =
        std::string(ends.abbreviation) + (link.lag != 0 ? (link.lag > 0 ? "+" : "") + std::to_string(link.lag) : "");
    const std::string from_end_name = ends.from_finish ? "finish" : "start";
    // The task it follows moved as far (or a finding of its own says why it moved further).
    if (from_shift >= shift || (from_shift > 0 && task.dates_reported)) {
      report("moved-by-task", at,
             moved + "moved by " + task_name(from) + " (" + linked + "), whose " + from_end_name +
                 " the schedule puts " + days(from_shift) + " later too");
      continue;
    }
    if (task.dates_reported) continue;
    // What the task it follows moved is not all: the plan's own dates break the link.
    const std::string also = from_shift > 0 ? " (" + task_name(from) + "'s " + from_end_name + " is itself " +
                                                  days(from_shift) + " later than the plan has it)"
                                            : "";
    // The link kept within one day of the plan (its successor's end at or after its
    // predecessor's, on that day): the plan counts hours, a template whole days.
    const std::optional<DateTime>& from_end = ends.from_finish ? from.finish_at : from.start_at;
    const std::optional<DateTime>& to_end = ends.to_finish ? task.finish_at : task.start_at;
    const std::string why = from_end && to_end && from_end->date == to_end->date && from_end->minute <= to_end->minute
                                ? "the plan " + std::string(ends.to_finish ? "finishes" : "starts") + " it at " +
                                      format_time(to_end->minute) + " on the day " + task_name(from) + " " +
                                      (ends.from_finish ? "finishes" : "starts") + " (" +
                                      format_time(from_end->minute) + "), and a template counts whole days"
                                : "the plan's dates do not keep that link";
    report("link-not-kept", at,
           moved + "its link from " + task_name(from) + " (" + linked + ") holds it there: " + why + also);
  }
}

// A task as a story, but for its dependencies. A parent spans its children and holds no cost
// or work of its own (the template rolls theirs up).
Story Builder::story_of(std::size_t index) const {
  const Task& task = tasks_[index];
  const bool parent = task.has_children;
  Story story;
  if (task.milestone && !parent) story.story_type = StoryType::Milestone;
  story.title = task.title;
  if (task.in->has_uid) story.temp_id = temp_id_of(task);
  if (task.start) story.relative_start_date = *task.start;
  if (task.due) story.relative_due_date = *task.due;
  std::optional<std::int64_t> duration = task.milestone ? std::optional<std::int64_t>(0) : task.duration;
  if (parent && task.start && task.due) duration = *task.due - *task.start + 1;
  if (duration) story.duration = *duration;
  if (!task.in->notes.empty()) story.description = task.in->notes;
  if (!parent && task.cost_cents) story.budget_estimate_in_cents = *task.cost_cents;
  if (!parent && task.work_minutes) story.time_estimate_in_minutes = *task.work_minutes;
  if (!task.resources.empty()) story.assignments = std::span<const std::int64_t>(task.resources);
  story.tag_list = task.in->tag_list;
  if (task.in->checklist) story.checklist = std::span<const std::string_view>(*task.in->checklist);
  story.weight = task.in->weight;
  return story;
}

}  // namespace

Result<Conversion> build_template(const Plan& plan, const std::string& path, detail::FindingSink& findings,
                                  std::size_t size_hint) {
  return Builder(plan, path, findings, size_hint).run();
}

}  // namespace ptmpl::plan
