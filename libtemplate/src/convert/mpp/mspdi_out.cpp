// A .mpp plan as an MS Project XML (MSPDI) document (plan.hpp), which the MSPDI reader then
// converts: one builder of stories, one place that turns dates into working days, one set of
// findings for both formats.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include <pugixml.hpp>

#include "convert/mpp/plan.hpp"

namespace ptmpl::detail::mpp {

namespace {

void text(pugi::xml_node parent, const char* name, const std::string& value) {
  parent.append_child(name).text().set(value.c_str());
}

std::string whole(double value) {
  return std::to_string(static_cast<long long>(std::llround(value)));
}

void write_project(pugi::xml_node project, const Project& p) {
  if (!p.title.empty()) text(project, "Title", p.title);
  if (p.start) text(project, "StartDate", *p.start);
  if (!p.currency.empty()) text(project, "CurrencyCode", p.currency);
  text(project, "MinutesPerDay", whole(p.minutes_per_day));
  text(project, "MinutesPerWeek", whole(p.minutes_per_week));
  text(project, "DaysPerMonth", whole(p.days_per_month));
  if (p.new_tasks_manual) text(project, "NewTasksAreManual", *p.new_tasks_manual ? "1" : "0");
}

// The standard calendar (Monday to Friday, 08:00–12:00 and 13:00–17:00), as the project's: for
// a file whose calendars cannot be read.
void write_standard_calendar(pugi::xml_node project) {
  text(project, "CalendarUID", "1");
  pugi::xml_node calendar = project.append_child("Calendars").append_child("Calendar");
  text(calendar, "UID", "1");
  text(calendar, "Name", "Standard");
  text(calendar, "IsBaseCalendar", "1");
  pugi::xml_node week = calendar.append_child("WeekDays");
  for (int day = 1; day <= 7; ++day) {
    pugi::xml_node weekday = week.append_child("WeekDay");
    text(weekday, "DayType", std::to_string(day));
    const bool working = day >= 2 && day <= 6;
    text(weekday, "DayWorking", working ? "1" : "0");
    if (!working) continue;
    pugi::xml_node times = weekday.append_child("WorkingTimes");
    for (auto [from, to] : {std::pair{"08:00:00", "12:00:00"}, std::pair{"13:00:00", "17:00:00"}}) {
      pugi::xml_node time = times.append_child("WorkingTime");
      text(time, "FromTime", from);
      text(time, "ToTime", to);
    }
  }
}

// MSPDI: Cost in hundredths of the currency unit, as the file keeps it.
std::string amount_text(double value) {
  if (value == std::floor(value) && std::fabs(value) < 9e15) return whole(value);
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.2f", value);
  return buffer;
}

// The elements from PercentComplete to Notes, in the schema's order.
void write_progress_and_constraint(pugi::xml_node node, const Task& task) {
  text(node, "PercentComplete", std::to_string(task.percent_complete));
  text(node, "PercentWorkComplete", std::to_string(task.percent_work_complete));
  if (task.cost) text(node, "Cost", amount_text(*task.cost));
  if (task.actual_start) text(node, "ActualStart", *task.actual_start);
  if (task.actual_finish) text(node, "ActualFinish", *task.actual_finish);
  if (task.actual_duration_tenths) text(node, "ActualDuration", duration_text(*task.actual_duration_tenths));
  if (task.actual_cost) text(node, "ActualCost", amount_text(*task.actual_cost));
  if (task.actual_work_tenths) text(node, "ActualWork", duration_text(*task.actual_work_tenths));
  text(node, "ConstraintType", std::to_string(task.constraint_type));
  if (task.calendar_uid) text(node, "CalendarUID", std::to_string(*task.calendar_uid));
  if (task.constraint_type != 0 && task.constraint_date) text(node, "ConstraintDate", *task.constraint_date);
  if (task.deadline) text(node, "Deadline", *task.deadline);
  if (!task.notes.empty()) text(node, "Notes", task.notes);
}

void write_working_times(pugi::xml_node parent, const WorkingTimes& times) {
  text(parent, "DayWorking", times.empty() ? "0" : "1");
  if (times.empty()) return;
  pugi::xml_node list = parent.append_child("WorkingTimes");
  for (auto [from, to] : times) {
    pugi::xml_node time = list.append_child("WorkingTime");
    text(time, "FromTime", time_text(from));
    text(time, "ToTime", time_text(to));
  }
}

// <WeekDays> with the days a calendar sets itself (MSPDI leaves out the inherited ones).
void write_week_days(pugi::xml_node parent, const std::array<CalendarDay, 7>& days) {
  if (std::all_of(days.begin(), days.end(), [](const CalendarDay& d) { return d.inherited; })) return;
  pugi::xml_node week = parent.append_child("WeekDays");
  for (std::size_t d = 0; d < days.size(); ++d) {
    if (days[d].inherited) continue;
    pugi::xml_node weekday = week.append_child("WeekDay");
    text(weekday, "DayType", std::to_string(d + 1));
    write_working_times(weekday, days[d].times);
  }
}

void write_period(pugi::xml_node parent, const std::string& from, const std::string& to) {
  pugi::xml_node period = parent.append_child("TimePeriod");
  text(period, "FromDate", from + "T00:00:00");
  text(period, "ToDate", to + "T23:59:00");
}

void write_exception(pugi::xml_node list, const CalendarException& e) {
  pugi::xml_node node = list.append_child("Exception");
  write_period(node, e.from, e.to);
  text(node, "Occurrences", std::to_string(e.occurrences));
  if (!e.name.empty()) text(node, "Name", e.name);
  text(node, "Type", std::to_string(e.type));
  auto number = [&](const char* name, int value) { text(node, name, std::to_string(value)); };
  switch (e.type) {
    case 2:
      number("Month", e.month);
      number("MonthDay", e.month_day);
      break;
    case 3:
      number("Month", e.month);
      number("MonthItem", e.month_item);
      number("MonthPosition", e.month_position);
      break;
    case 4:
      number("Period", e.period);
      number("MonthDay", e.month_day);
      break;
    case 5:
      number("Period", e.period);
      number("MonthItem", e.month_item);
      number("MonthPosition", e.month_position);
      break;
    case 6:
      number("Period", e.period);
      number("DaysOfWeek", e.days_of_week);
      break;
    case 7:
      number("Period", e.period);
      break;
    default:
      break;
  }
  write_working_times(node, e.times);
}

// Every calendar as MSPDI's <Calendars> holds it, and the project's; the standard calendar
// when the file has no readable one.
void write_calendars(pugi::xml_node project, const Plan& plan) {
  if (plan.calendars.empty()) {
    write_standard_calendar(project);
    return;
  }
  if (plan.project.calendar_uid) text(project, "CalendarUID", std::to_string(*plan.project.calendar_uid));
  pugi::xml_node calendars = project.append_child("Calendars");
  for (const Calendar& c : plan.calendars) {
    pugi::xml_node calendar = calendars.append_child("Calendar");
    text(calendar, "UID", std::to_string(c.uid));
    if (!c.name.empty()) text(calendar, "Name", c.name);
    text(calendar, "IsBaseCalendar", c.base_uid ? "0" : "1");
    text(calendar, "BaseCalendarUID", std::to_string(c.base_uid.value_or(-1)));
    write_week_days(calendar, c.days);
    if (!c.exceptions.empty()) {
      pugi::xml_node list = calendar.append_child("Exceptions");
      for (const CalendarException& e : c.exceptions) write_exception(list, e);
    }
    if (!c.work_weeks.empty()) {
      pugi::xml_node list = calendar.append_child("WorkWeeks");
      for (const CalendarWorkWeek& w : c.work_weeks) {
        pugi::xml_node week = list.append_child("WorkWeek");
        write_period(week, w.from, w.to);
        if (!w.name.empty()) text(week, "Name", w.name);
        write_week_days(week, w.days);
      }
    }
  }
}

void write_tasks(pugi::xml_node project, const Plan& plan) {
  std::unordered_map<std::int32_t, std::vector<const Link*>> into;
  for (const Link& link : plan.links) into[link.successor].push_back(&link);
  pugi::xml_node tasks = project.append_child("Tasks");
  std::int64_t id = 1;
  for (const Task& task : plan.tasks) {
    pugi::xml_node node = tasks.append_child("Task");
    text(node, "UID", std::to_string(task.uid));
    text(node, "ID", std::to_string(id++));
    text(node, "Name", task.name);
    text(node, "Active", task.active ? "1" : "0");
    text(node, "Manual", task.manual ? "1" : "0");
    text(node, "OutlineLevel", std::to_string(task.level));
    if (task.start) text(node, "Start", *task.start);
    if (task.finish) text(node, "Finish", *task.finish);
    text(node, "Duration", duration_text(task.duration_tenths));
    text(node, "DurationFormat", std::to_string(mspdi_format(task.duration_units)));
    if (task.work_tenths) text(node, "Work", duration_text(*task.work_tenths));
    text(node, "Estimated", task.estimated ? "1" : "0");
    text(node, "Milestone", task.milestone ? "1" : "0");
    write_progress_and_constraint(node, task);
    if (auto it = into.find(task.uid); it != into.end()) {
      for (const Link* link : it->second) {
        pugi::xml_node l = node.append_child("PredecessorLink");
        text(l, "PredecessorUID", std::to_string(link->predecessor));
        text(l, "Type", std::to_string(link->type));
        text(l, "LinkLag", std::to_string(link->lag_tenths));
        text(l, "LagFormat", std::to_string(mspdi_format(link->lag_units)));
      }
    }
  }
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

// Minutes as an MSPDI duration (PT#H#M#S), to the nearest tenth of a minute.
std::string minutes_text(double minutes) {
  const double tenths = std::isfinite(minutes) ? std::clamp(minutes * 10, -9.0e15, 9.0e15) : 0;
  return duration_text(std::llround(tenths));
}

// MSPDI's <Resources>, after <Tasks>. A resource names its own calendar only when the document
// holds that calendar: one it cannot find would read as a calendar without working time.
void write_resources(pugi::xml_node project, const Plan& plan) {
  if (plan.resources.empty()) return;
  std::unordered_set<long long> calendars;
  for (pugi::xml_node calendar : project.child("Calendars").children("Calendar"))
    calendars.insert(calendar.child("UID").text().as_llong(-1));
  pugi::xml_node resources = project.append_child("Resources");
  for (const Resource& r : plan.resources) {
    pugi::xml_node node = resources.append_child("Resource");
    text(node, "UID", std::to_string(r.uid));
    text(node, "ID", std::to_string(r.id));
    if (!r.name.empty()) text(node, "Name", r.name);
    text(node, "Type", std::to_string(r.type));
    text(node, "IsNull", "0");
    if (!r.initials.empty()) text(node, "Initials", r.initials);
    if (!r.email.empty()) text(node, "EmailAddress", r.email);
    if (r.max_units) text(node, "MaxUnits", decimal(*r.max_units));
    text(node, "StandardRate", decimal(r.standard_rate));
    text(node, "OvertimeRate", decimal(r.overtime_rate));
    text(node, "CostPerUse", decimal(r.cost_per_use));
    if (r.calendar_uid && calendars.count(*r.calendar_uid) != 0)
      text(node, "CalendarUID", std::to_string(*r.calendar_uid));
    if (r.cost_resource) text(node, "IsCostResource", "1");
  }
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

std::string datetime_text(std::chrono::sys_days day, double minute) {
  const std::chrono::year_month_day ymd{day};
  const long long seconds = std::llround(minute * 60);
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%04d-%02u-%02uT%02lld:%02lld:%02lld", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()), seconds / 3600, seconds / 60 % 60,
                seconds % 60);
  return buffer;
}

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
void write_blocks(pugi::xml_node node, const Assignment& a, const WorkClock& clock, int type,
                  const std::vector<Block>& blocks, std::size_t& budget) {
  auto piece = [&](Moment from, Moment to, double work) {
    pugi::xml_node data = node.append_child("TimephasedData");
    text(data, "Type", std::to_string(type));
    text(data, "UID", std::to_string(a.uid));
    text(data, "Start", datetime_text(from.day, from.minute));
    text(data, "Finish", datetime_text(to.day, to.minute));
    text(data, "Unit", "2");
    text(data, "Value", minutes_text(work));
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
void write_timephased(pugi::xml_node node, const Assignment& a, const WorkClock& clock, std::size_t& budget) {
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
  write_blocks(node, a, clock, 2, done, own);
  if (a.actual_work.empty()) from = *start;
  write_blocks(node, a, clock, 1, blocks_of(a.planned_work, clock, finish, from), own);
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

// MSPDI's <Assignments>, after <Resources>.
void write_assignments(pugi::xml_node project, const Plan& plan) {
  if (plan.assignments.empty()) return;
  pugi::xml_node assignments = project.append_child("Assignments");
  std::unordered_map<std::int32_t, const Task*> tasks;
  for (const Task& t : plan.tasks) tasks.emplace(t.uid, &t);
  std::unordered_map<std::int32_t, const Resource*> resources;
  for (const Resource& r : plan.resources) resources.emplace(r.uid, &r);
  std::map<AssignmentCalendars, WorkClock> clocks;
  // The pieces of the plan's timephased work (a day each mostly): 550 years of days.
  std::size_t budget = 200'000;
  for (const Assignment& a : plan.assignments) {
    pugi::xml_node node = assignments.append_child("Assignment");
    text(node, "UID", std::to_string(a.uid));
    text(node, "TaskUID", std::to_string(a.task_uid));
    text(node, "ResourceUID", std::to_string(a.resource_uid));
    if (a.cost) text(node, "Cost", decimal(*a.cost));
    if (a.finish) text(node, "Finish", *a.finish);
    if (a.start) text(node, "Start", *a.start);
    if (a.units) text(node, "Units", decimal(*a.units));
    if (a.work_minutes) text(node, "Work", minutes_text(*a.work_minutes));
    if (a.planned_work.empty() && a.actual_work.empty()) continue;
    const AssignmentCalendars calendars = assignment_calendars(plan, a, tasks, resources);
    auto clock = clocks.find(calendars);
    if (clock == clocks.end())
      clock = clocks
                  .emplace(calendars, WorkClock(plan, calendars.task ? calendars.task : calendars.resource,
                                                calendars.task ? calendars.resource : nullptr))
                  .first;
    write_timephased(node, a, clock->second, budget);
  }
}

}  // namespace

std::string write_mspdi(const Plan& plan) {
  pugi::xml_document doc;
  pugi::xml_node project = doc.append_child("Project");
  project.append_attribute("xmlns") = "http://schemas.microsoft.com/project";
  write_project(project, plan.project);
  write_calendars(project, plan);
  write_tasks(project, plan);
  write_resources(project, plan);
  write_assignments(project, plan);
  std::ostringstream out;
  doc.save(out, "", pugi::format_raw | pugi::format_no_declaration, pugi::encoding_utf8);
  return out.str();
}

}  // namespace ptmpl::detail::mpp
