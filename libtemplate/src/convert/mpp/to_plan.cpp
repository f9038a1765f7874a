// A .mpp plan's tables as the plan model (plan.hpp), which the one builder turns into a
// template: each table's records become the model's tasks, links, calendars, resources and
// assignments, each with its table and row as its place. Values are taken as MS Project's own
// XML of the same plan spells them (costs to the cent, durations to the second, rates to two
// decimals), so that a .mpp file and its MSPDI twin give the same template.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "convert/mpp/plan.hpp"

namespace ptmpl::detail::mpp {

namespace {

using plan::Place;

std::string whole(double value) {
  return std::to_string(static_cast<long long>(std::llround(value)));
}

// MSPDI: Cost in hundredths of the currency unit, as the file keeps it.
std::string amount_text(double value) {
  if (value == std::floor(value) && std::fabs(value) < 9e15) return whole(value);
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.2f", value);
  return buffer;
}

// A number as MSPDI writes units and amounts: up to two decimals, no trailing zeros.
std::string decimal(double value) {
  if (!std::isfinite(value)) return "0";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.2f", value);
  std::string out = buffer;
  while (out.back() == '0') out.pop_back();
  if (out.back() == '.') out.pop_back();
  return out == "-0" ? "0" : out;
}

// Tenths of a minute in minutes, as the duration MSPDI writes of them (PT#H#M#S) reads: whole
// minutes, then the seconds.
double tenths_to_minutes(std::int64_t tenths) {
  const std::int64_t magnitude = tenths < 0 ? -tenths : tenths;
  const double minutes = static_cast<double>(magnitude / 10) + static_cast<double>(magnitude % 10 * 6) / 60;
  return tenths < 0 ? -minutes : minutes;
}

// Minutes to the nearest tenth of a minute.
double rounded_minutes(double minutes) {
  const double tenths = std::isfinite(minutes) ? std::clamp(minutes * 10, -9.0e15, 9.0e15) : 0;
  return tenths_to_minutes(std::llround(tenths));
}

// An amount as MSPDI spells it, read back: whole, or to the cent.
double amount_value(const std::string& text) {
  return std::strtod(text.c_str(), nullptr);
}

// A time of day in 6-second units in minutes (seconds dropped; 0 as an end is midnight).
int minute_of(std::uint32_t six_seconds) {
  return static_cast<int>(std::min<std::uint32_t>(six_seconds * 6, 24 * 3600) / 60);
}

plan::DayRule day_rule(const WorkingTimes& times) {
  plan::DayRule rule;
  rule.working = !times.empty();
  int first = 24 * 60;
  int last = 0;
  for (auto [from, to] : times) {
    first = std::min(first, minute_of(from));
    const int end = minute_of(to);
    last = std::max(last, end == 0 ? 24 * 60 : end);
  }
  if (first < last) {
    rule.start = first;
    rule.end = last;
  }
  return rule;
}

std::optional<plan::DateTime> date_time(const std::optional<std::string>& text) {
  return text ? plan::parse_datetime(*text) : std::nullopt;
}

// The working time of a calendar of the plan, to place timephased work: its week days (inherited
// from its base calendars) and its daily exceptions (its own, then its base calendars'); the
// standard calendar when the plan has none. An assignment's calendar may be two calendars at
// once (a task's and its resource's), when only the time both work is working time. Times in
// minutes since midnight.
class WorkClock {
 public:
  using Times = std::vector<std::pair<double, double>>;
  /// The clock of `calendar` (the standard calendar when null), `also` intersected when set.
  WorkClock(const Plan& plan, const Calendar* calendar, const Calendar* also = nullptr)
      : layers_{Layer(plan, calendar)} {
    if (also) layers_.push_back(Layer(plan, also));
  }

  /// The calendar of `plan` with `uid`, or null.
  static const Calendar* find(const Plan& plan, std::optional<std::int64_t> uid) {
    if (!uid) return nullptr;
    for (const Calendar& c : plan.calendars)
      if (c.uid == *uid) return &c;
    return nullptr;
  }

  /// The project's calendar: the one the project names, else its first base calendar.
  static const Calendar* project_calendar(const Plan& plan) {
    if (const Calendar* c = find(plan, plan.project.calendar_uid)) return c;
    for (const Calendar& c : plan.calendars)
      if (!c.base_uid && !c.resource_uid) return &c;
    return nullptr;
  }

  // A yyyy-mm-dd date (and more) → the day, when it reads as one.
  static std::optional<std::chrono::sys_days> day_of(const std::string& text) {
    int y = 0;
    unsigned m = 0, d = 0;
    if (std::sscanf(text.c_str(), "%4d-%2u-%2u", &y, &m, &d) != 3) return std::nullopt;
    const std::chrono::year_month_day ymd{std::chrono::year{y}, std::chrono::month{m}, std::chrono::day{d}};
    if (!ymd.ok()) return std::nullopt;
    return std::chrono::sys_days(ymd);
  }

  [[nodiscard]] Times times(std::chrono::sys_days day) const {
    Times out = layers_.front().times(day);
    for (std::size_t i = 1; i < layers_.size(); ++i) {
      const Times& other = layers_[i].times(day);
      Times both;
      for (const auto& [a_from, a_to] : out)
        for (const auto& [b_from, b_to] : other)
          if (std::max(a_from, b_from) < std::min(a_to, b_to))
            both.emplace_back(std::max(a_from, b_from), std::min(a_to, b_to));
      std::sort(both.begin(), both.end());
      out = std::move(both);
    }
    return out;
  }

  // `minutes` of working time on from `at` (days, minute of the day); the end of a day's last
  // working time stays on that day. Gives up after ten years without working time.
  void advance(std::chrono::sys_days& day, double& minute, double minutes) const {
    for (int i = 0; i < 3660; ++i) {
      for (const auto& [from, to] : times(day)) {
        if (to <= minute) continue;
        const double begin = std::max(from, minute);
        if (minutes <= to - begin) {
          minute = begin + minutes;
          return;
        }
        minutes -= to - begin;
        minute = to;
      }
      day += std::chrono::days{1};
      minute = 0;
    }
  }

  // The next start of working time at or after `at` (at itself when it is working time).
  void next_work(std::chrono::sys_days& day, double& minute) const {
    for (int i = 0; i < 3660; ++i) {
      for (const auto& [from, to] : times(day))
        if (minute < to) {
          minute = std::max(from, minute);
          return;
        }
      day += std::chrono::days{1};
      minute = 0;
    }
  }

 private:
  static Times minutes(const WorkingTimes& times) {
    Times out;
    for (const auto& [from, to] : times)
      if (from < to) out.emplace_back(from / 10.0, to / 10.0);
    return out;
  }
  struct Exception {
    std::chrono::sys_days from, to;
    Times times;
  };
  // One calendar: its week and its daily exceptions, the calendar's own before its bases'.
  class Layer {
   public:
    Layer(const Plan& plan, const Calendar* calendar) {
      for (int d = 0; d < 7; ++d) {
        week_[d] = d == 0 || d == 6 ? Times{} : Times{{480, 720}, {780, 1020}};
        const Calendar* c = calendar;
        for (int depth = 0; c && depth < 8; ++depth, c = find(plan, c->base_uid))
          if (!c->days[d].inherited) {
            week_[d] = minutes(c->days[d].times);
            break;
          }
      }
      const Calendar* c = calendar;
      for (int depth = 0; c && depth < 8; ++depth, c = find(plan, c->base_uid))
        for (const CalendarException& e : c->exceptions) {
          const auto from = day_of(e.from);
          const auto to = day_of(e.to);
          if (e.type == 1 && from && to && *from <= *to) exceptions_.push_back({*from, *to, minutes(e.times)});
        }
    }
    [[nodiscard]] const Times& times(std::chrono::sys_days day) const {
      for (const Exception& e : exceptions_)
        if (e.from <= day && day <= e.to) return e.times;
      return week_[std::chrono::weekday(day).c_encoding()];
    }

   private:
    Times week_[7];
    std::vector<Exception> exceptions_;
  };
  std::vector<Layer> layers_;
};

// A point in time: a day and a minute of it (below 24 * 60).
struct Moment {
  std::chrono::sys_days day;
  double minute = 0;
  [[nodiscard]] double at() const {  // minutes since the epoch, to compare and subtract
    return static_cast<double>(day.time_since_epoch().count()) * 24 * 60 + minute;
  }
  [[nodiscard]] Moment plus(double minutes) const {
    Moment out = *this;
    out.minute += minutes;
    const auto days = static_cast<int>(std::floor(out.minute / (24 * 60)));
    out.day += std::chrono::days{days};
    out.minute -= days * 24.0 * 60;
    return out;
  }
};

Moment normal(std::chrono::sys_days day, double minute) {
  return Moment{day, 0}.plus(minute);
}

// A moment as a date and a minute, to the nearest second as MS Project's XML writes it (an hour
// of 24 is the day's end).
std::optional<plan::DateTime> date_time(const Moment& at) {
  const long long seconds = std::llround(at.minute * 60);
  if (seconds / 3600 > 24) return std::nullopt;
  return plan::DateTime{at.day, static_cast<int>(std::min<long long>(seconds / 60, 24 * 60))};
}

// The working minutes of `clock` between `from` and `to`, walked day by day (ten years at most).
double working_between(const WorkClock& clock, Moment from, Moment to) {
  double sum = 0;
  int days = 0;
  for (std::chrono::sys_days d = from.day; d <= to.day && days < 3660; d += std::chrono::days{1}, ++days) {
    const double lo = d == from.day ? from.minute : 0;
    const double hi = d == to.day ? to.minute : 24 * 60;
    for (const auto& [a, b] : clock.times(d)) sum += std::max(0.0, std::min(hi, b) - std::max(lo, a));
  }
  return sum;
}

// A stretch of an assignment's work at one rate: `work` minutes spread over the working time
// of [from, to).
struct Block {
  Moment from, to;
  double work = 0;
};

// The blocks of `periods` from `from`: each begins where the one before ended and lasts its
// working time on `clock` (a period to the assignment's finish ends there). Gives the end of
// the last one in `from`.
std::vector<Block> blocks_of(const std::vector<WorkPeriod>& periods, const WorkClock& clock,
                             const std::optional<Moment>& finish, Moment& from) {
  std::vector<Block> out;
  for (const WorkPeriod& period : periods) {
    Block block{from, from, period.work_minutes};
    if (period.until_finish) {
      if (!finish || finish->at() <= from.at()) continue;
      block.to = *finish;
    } else {
      if (!std::isfinite(period.working_minutes) || period.working_minutes <= 0) continue;
      Moment& end = block.to;
      clock.next_work(end.day, end.minute);
      clock.advance(end.day, end.minute, std::min(period.working_minutes, 1.0e7));
      end = normal(end.day, end.minute);
    }
    out.push_back(block);
    from = block.to;
  }
  return out;
}

// An assignment's timephased work as MSPDI's <TimephasedData> of `type`, in the pieces MS
// Project writes (its MSPDI files show them): from each block's start, a day at a time; the
// rest of a block, when shorter than a day, in one piece if it ends on the day it begins and
// the block is the only one or had a whole day, else an hour at a time (and the last hour, when
// it runs past the top of an hour, a minute at a time). A piece holds the block's work on its
// working time. Past `budget` pieces, a block is one piece.
void write_blocks(plan::Assignment& out, const WorkClock& clock, int type, const std::vector<Block>& blocks,
                  std::size_t& budget) {
  auto piece = [&](Moment from, Moment to, double work) {
    out.periods.push_back({type, date_time(from), date_time(to), rounded_minutes(work), out.place});
  };
  for (const Block& block : blocks) {
    if (!std::isfinite(block.work)) continue;
    const double working = working_between(clock, block.from, block.to);
    const double rate = working > 0 ? block.work / working : 0;
    Moment at = block.from;
    bool whole_day = blocks.size() == 1;
    bool hourly = false;
    bool by_minute = false;
    while (at.at() < block.to.at()) {
      if (budget == 0) {
        piece(at, block.to, rate * working_between(clock, at, block.to));
        break;
      }
      --budget;
      Moment next = at.plus(24 * 60);
      if (hourly || next.at() > block.to.at()) {
        hourly = hourly || block.to.day != at.day || !whole_day;
        next = hourly ? at.plus(60) : block.to;
        if (next.at() > block.to.at()) {
          // Less than an hour left: one piece, unless it runs past the top of an hour, when it is
          // written a minute at a time and the last fraction of a minute left out.
          const double left = block.to.at() - at.at();
          by_minute = by_minute || std::floor(at.at() / 60) != std::floor((block.to.at() - 1e-6) / 60);
          if (by_minute && left < 1) break;
          next = by_minute ? at.plus(1) : block.to;
        }
      } else {
        whole_day = true;
      }
      piece(at, next, rate * working_between(clock, at, next));
      at = next;
    }
  }
}

// The assignment's timephased work: the work done from its start, then the work still to do
// from where the work done ends (from its start when none is done).
void write_timephased(plan::Assignment& out, const Assignment& a, const WorkClock& clock, std::size_t& budget) {
  if (!a.start || (a.planned_work.empty() && a.actual_work.empty())) return;
  auto moment = [](const std::string& text) -> std::optional<Moment> {
    const auto day = WorkClock::day_of(text);
    if (!day) return std::nullopt;
    int hour = 0, minute_of_hour = 0;
    if (text.size() >= 16) std::sscanf(text.c_str() + 11, "%2d:%2d", &hour, &minute_of_hour);
    return normal(*day, std::clamp(hour * 60 + minute_of_hour, 0, 24 * 60));
  };
  const std::optional<Moment> start = moment(*a.start);
  if (!start) return;
  const std::optional<Moment> finish = a.finish ? moment(*a.finish) : std::nullopt;
  Moment from = *start;
  const std::vector<Block> done = blocks_of(a.actual_work, clock, finish, from);
  // 5,000 pieces an assignment (13 years of days), within the plan's budget.
  std::size_t own = std::min<std::size_t>(budget, 5000);
  budget -= own;
  write_blocks(out, clock, 2, done, own);
  if (a.actual_work.empty()) from = *start;
  write_blocks(out, clock, 1, blocks_of(a.planned_work, clock, finish, from), own);
  budget += own;
}

// The calendar an assignment's work is placed on, as MS Project schedules it: its work
// resource's calendar unless its task ignores resource calendars; the task's own calendar
// (both at once when the task has one and uses its resource's); the project's when neither.
struct AssignmentCalendars {
  const Calendar* task = nullptr;
  const Calendar* resource = nullptr;
  bool operator<(const AssignmentCalendars& o) const {
    return std::pair(task, resource) < std::pair(o.task, o.resource);
  }
};
AssignmentCalendars assignment_calendars(const Plan& plan, const Assignment& a,
                                         const std::unordered_map<std::int32_t, const Task*>& tasks,
                                         const std::unordered_map<std::int32_t, const Resource*>& resources) {
  AssignmentCalendars out;
  const auto task = tasks.find(a.task_uid);
  if (task != tasks.end()) out.task = WorkClock::find(plan, task->second->calendar_uid);
  const auto resource = resources.find(a.resource_uid);
  if (resource != resources.end() && resource->second->type == 1 &&
      (task == tasks.end() || !task->second->ignore_resource_calendar))
    out.resource = WorkClock::find(plan, resource->second->calendar_uid);
  if (!out.task && !out.resource) out.task = WorkClock::project_calendar(plan);
  return out;
}

// The standard calendar (Monday to Friday, 08:00–12:00 and 13:00–17:00), as the project's: for
// a file whose calendars cannot be read.
plan::Calendar standard_calendar() {
  plan::Calendar calendar;
  calendar.uid = 1;
  calendar.is_base = true;
  for (int day = 1; day <= 7; ++day) {
    plan::WeekDay& weekday = calendar.week_days.emplace_back();
    weekday.type = day;
    weekday.rule.working = day >= 2 && day <= 6;
  }
  return calendar;
}

void add_week_days(plan::Calendar& out, const std::array<CalendarDay, 7>& days) {
  for (std::size_t d = 0; d < days.size(); ++d) {
    if (days[d].inherited) continue;
    plan::WeekDay& weekday = out.week_days.emplace_back();
    weekday.type = static_cast<std::int64_t>(d + 1);
    weekday.rule = day_rule(days[d].times);
  }
}

plan::RecurrenceField number(int value) {
  return {true, value, {}};
}

plan::CalendarException exception_of(const CalendarException& e) {
  plan::CalendarException out;
  out.from = parse_date(e.from);
  out.to = parse_date(e.to);
  out.rule = day_rule(e.times);
  out.name = e.name;
  out.type = e.type;
  // The numbers each type of recurrence names, as MS Project's XML writes them.
  const bool yearly = e.type == 2 || e.type == 3;
  const bool relative = e.type == 3 || e.type == 5;
  if (yearly) out.month = number(e.month);
  if (e.type == 2 || e.type == 4) out.month_day = number(e.month_day);
  if (relative) {
    out.month_item = number(e.month_item);
    out.month_position = number(e.month_position);
  }
  if (e.type >= 4 && e.type <= 7) out.period = number(e.period);
  if (e.type == 6) out.days_of_week = number(e.days_of_week);
  return out;
}

void add_calendars(plan::Plan& out, const Plan& tables) {
  if (tables.calendars.empty()) {
    out.project.calendar_uid = 1;
    out.calendars.push_back(standard_calendar());
    return;
  }
  out.project.calendar_uid = tables.project.calendar_uid;
  for (const Calendar& c : tables.calendars) {
    plan::Calendar& calendar = out.calendars.emplace_back();
    calendar.uid = c.uid;
    calendar.is_base = !c.base_uid;
    calendar.base_uid = c.base_uid.value_or(-1);
    add_week_days(calendar, c.days);
    for (const CalendarException& e : c.exceptions) calendar.exceptions.push_back(exception_of(e));
    calendar.has_work_weeks = !c.work_weeks.empty();
  }
}

void add_task(plan::Plan& out, const Task& task) {
  plan::Task& t = out.tasks.emplace_back();
  t.uid = task.uid;
  t.name = task.name;
  t.level = task.level;
  t.milestone = task.milestone;
  t.active = task.active;
  t.manual = task.manual;
  t.duration = tenths_to_minutes(task.duration_tenths);
  t.duration_format = plan::Format::ms_project(mspdi_format(task.duration_units));
  t.start = date_time(task.start);
  t.finish = date_time(task.finish);
  t.notes = task.notes;
  if (task.cost) {
    t.cost_text = out.keep(amount_text(*task.cost));
    t.cost = amount_value(std::string(t.cost_text));
  }
  if (task.work_tenths) t.work = tenths_to_minutes(*task.work_tenths);
  t.constraint = plan::constraint_ms_project(task.constraint_type);
  if (task.constraint_type != 0 && task.constraint_date)
    t.constraint_date = parse_date(task.constraint_date->substr(0, 10));
  t.percent_complete = task.percent_complete;
  t.percent_work_complete = task.percent_work_complete;
  if (task.actual_duration_tenths) t.actual_duration = tenths_to_minutes(*task.actual_duration_tenths);
  if (task.actual_work_tenths) t.actual_work = tenths_to_minutes(*task.actual_work_tenths);
  if (task.actual_cost) t.actual_cost = amount_value(amount_text(*task.actual_cost));
  t.actual_start_is_start = task.actual_start && task.start && *task.actual_start == *task.start;
  t.actual_finish_is_finish = task.actual_finish && task.finish && *task.actual_finish == *task.finish;
  t.calendar_uid = task.calendar_uid;
  for (Place& place : t.places) place = Place::row(Place::Table::Task, task.row, out.tasks.size() - 1);
}

// Links sit on their successors, in the order of the tasks; a link into no task of the plan is
// none of its links.
void add_tasks_and_links(plan::Plan& out, const Plan& tables) {
  std::unordered_map<std::int32_t, std::vector<const Link*>> into;
  for (const Link& link : tables.links) into[link.successor].push_back(&link);
  out.tasks.reserve(tables.tasks.size());
  out.links.reserve(tables.links.size());
  for (const Task& task : tables.tasks) {
    if (task.uid == 0 || task.level == 0) continue;  // the project summary task
    add_task(out, task);
    plan::Task& t = out.tasks.back();
    t.first_link = out.links.size();
    if (auto it = into.find(task.uid); it != into.end()) {
      for (const Link* link : it->second) {
        plan::Link& l = out.links.emplace_back();
        l.predecessor = link->predecessor;
        l.type = plan::link_type_ms_project(link->type);
        if (!l.type) l.type_text = out.keep(std::to_string(link->type));
        l.lag = link->lag_tenths / 10.0;
        l.lag_format = plan::Format::ms_project(mspdi_format(link->lag_units));
        l.place = l.type_place = l.lag_place = Place::row(Place::Table::Link, link->row, out.tasks.size() - 1);
      }
    }
    t.link_count = out.links.size() - t.first_link;
  }
}

// A resource names its own calendar only when the plan holds that calendar: one it cannot find
// would read as a calendar without working time.
void add_resources(plan::Plan& out, const Plan& tables) {
  std::unordered_set<std::int64_t> calendars;
  for (const plan::Calendar& calendar : out.calendars) calendars.insert(calendar.uid);
  for (const Resource& r : tables.resources) {
    if (r.uid < 0 || r.name.empty()) continue;
    plan::Resource& resource = out.resources.emplace_back();
    resource.uid = r.uid;
    resource.name = r.name;
    resource.has_rates =
        decimal(r.standard_rate) != "0" || decimal(r.overtime_rate) != "0" || decimal(r.cost_per_use) != "0";
    if (r.calendar_uid && calendars.count(*r.calendar_uid) != 0) resource.calendar_uid = *r.calendar_uid;
    resource.place = resource.calendar_place = Place::row(Place::Table::Resource, r.row, out.resources.size() - 1);
  }
}

void add_assignments(plan::Plan& out, const Plan& tables) {
  std::unordered_map<std::int32_t, const Task*> tasks;
  for (const Task& t : tables.tasks) tasks.emplace(t.uid, &t);
  std::unordered_map<std::int32_t, const Resource*> resources;
  for (const Resource& r : tables.resources) resources.emplace(r.uid, &r);
  std::map<AssignmentCalendars, WorkClock> clocks;
  std::size_t budget = 200'000;
  out.assignments.reserve(tables.assignments.size());
  for (const Assignment& a : tables.assignments) {
    plan::Assignment& assignment = out.assignments.emplace_back();
    assignment.task_uid = a.task_uid;
    assignment.resource_uid = a.resource_uid;
    assignment.place = Place::row(Place::Table::Assignment, a.row, out.assignments.size() - 1);
    if (a.planned_work.empty() && a.actual_work.empty()) continue;
    const AssignmentCalendars calendars = assignment_calendars(tables, a, tasks, resources);
    auto clock = clocks.find(calendars);
    if (clock == clocks.end())
      clock = clocks
                  .emplace(calendars, WorkClock(tables, calendars.task ? calendars.task : calendars.resource,
                                                calendars.task ? calendars.resource : nullptr))
                  .first;
    write_timephased(assignment, a, clock->second, budget);
  }
}

}  // namespace

plan::Plan to_plan(const Plan& tables) {
  plan::Plan out;
  const Project& project = tables.project;
  out.project.title = project.title;
  out.project.start = date_time(project.start);
  // MS Project's XML holds whole minutes a day.
  out.project.minutes_per_day = static_cast<double>(std::llround(project.minutes_per_day));
  out.project.currency = project.currency;
  add_calendars(out, tables);
  add_tasks_and_links(out, tables);
  add_resources(out, tables);
  add_assignments(out, tables);
  return out;
}

}  // namespace ptmpl::detail::mpp
