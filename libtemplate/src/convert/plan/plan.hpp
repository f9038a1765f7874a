// The one import model: what every plan reader fills (MSPDI, `.mpp`, GanttProject `.gan`) and
// the one builder (builder.hpp) turns into a template. A reader says what the file holds, in
// the file's own units (minutes of work, dates with their time of day, links on their
// successors, calendars with their exceptions); the builder decides what a template makes of
// it and reports every approximation. A value the reader could not parse keeps its spelling,
// so that the builder's finding can quote it. Private to the converters.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/core/calendar.hpp"
#include "libtemplate/core/model.hpp"

namespace ptmpl::plan {

/// Where something is in the source: a byte of a text file (its line and column are worked out
/// when a finding is made), a row of a binary file's table (a `.mpp` file's tasks, links,
/// resources, assignments or calendars), or a cell of a workbook's sheet (the sheet is the one
/// the conversion reads: FindingSink::set_sheet); none of them for the whole file.
struct Place {
  enum class Table : std::uint8_t { None, Task, Link, Resource, Assignment, Calendar, Cell };
  /// The byte offset (Table::None), the cell (row × 2^14 + column, Table::Cell), else the row;
  /// -1: no place.
  std::int64_t at = -1;
  Table table = Table::None;
  /// A row's place in the plan, for the order of findings: the task's index in outline order
  /// (for a link, its successor's), the resource's or the assignment's index.
  std::uint32_t order = 0;

  [[nodiscard]] static Place offset(std::int64_t byte) { return {byte, Table::None, 0}; }
  [[nodiscard]] static Place row(Table table, std::int64_t row, std::size_t order = 0) {
    return {row, table, static_cast<std::uint32_t>(order)};
  }
  /// The cell in `row` (1 at the top) and `column` (0 for A).
  [[nodiscard]] static Place cell(std::size_t row, std::size_t column) {
    return {static_cast<std::int64_t>((row << 14) | column), Table::Cell, static_cast<std::uint32_t>(row)};
  }
  [[nodiscard]] bool known() const { return at >= 0; }
};

/// `B17`: the reference of the cell in `row` (1 at the top) and `column` (0 for A).
[[nodiscard]] std::string cell_reference(std::size_t row, std::size_t column);

/// "the task table's row 12" for a binary source's place, "cell B17" for a sheet's; "" for any
/// other.
[[nodiscard]] std::string describe(const Place& place);

/// A date and a time of day.
struct DateTime {
  Date date;
  int minute = 0;  ///< minutes since midnight, 0–1440

  friend bool operator==(const DateTime&, const DateTime&) = default;
};

/// `hh:mm[:ss]` in minutes since midnight (seconds ignored; 24:00 is the day's end).
[[nodiscard]] std::optional<int> parse_time(std::string_view text);

/// `yyyy-mm-ddThh:mm:ss` or `yyyy-mm-dd hh:mm:ss` (seconds ignored), or `yyyy-mm-dd`
/// (midnight); an hour of 24 is the day's end.
[[nodiscard]] std::optional<DateTime> parse_datetime(std::string_view text);

/// The unit a length (a duration, a lag) is given in. MS Project's DurationFormat and LagFormat
/// codes name them (3 m, 5 h, 7 d, 9 w, 11 mo, 19 %; the even code after each is elapsed; 32
/// more is estimated); a code ptmpl does not know counts as working days.
struct Format {
  enum class Unit : std::uint8_t { Minutes, Hours, Days, Weeks, Months, Percent };
  Unit unit = Unit::Days;
  bool elapsed = false;  ///< calendar time (nights, weekends and holidays count)

  [[nodiscard]] static Format ms_project(std::int64_t code);
  [[nodiscard]] bool percent() const { return unit == Unit::Percent; }
};

/// How a link ties its tasks: the successor's start or finish to the predecessor's.
enum class LinkType : std::uint8_t { FinishToStart, StartToStart, FinishToFinish, StartToFinish };

/// A link type in MS Project's numbering (MSPDI's Type, the `.mpp` link table: 0 FF, 1 FS,
/// 2 SF, 3 SS); nullopt for another number.
[[nodiscard]] std::optional<LinkType> link_type_ms_project(std::int64_t code);

/// A task's scheduling constraint.
enum class Constraint : std::uint8_t {
  AsSoonAsPossible,
  AsLateAsPossible,
  MustStartOn,
  MustFinishOn,
  StartNoEarlierThan,
  StartNoLaterThan,
  FinishNoEarlierThan,
  FinishNoLaterThan,
  Unknown,  ///< one the reader does not know
};

/// A constraint in MS Project's numbering (0 as soon as possible … 7 finish no later than).
[[nodiscard]] Constraint constraint_ms_project(std::int64_t code);

/// "Start No Earlier Than", as MS Project names a constraint.
[[nodiscard]] std::string_view constraint_name(Constraint constraint);

/// A link into a task (links sit on their successor, as in MS Project).
struct Link {
  /// A source that lists links on their predecessors (GanttProject) numbers them in its order:
  /// a task's links out are written in that order. MS Project's, all 0, keep the order of
  /// their successors.
  std::size_t source_order = 0;
  std::optional<std::int64_t> predecessor;  ///< the predecessor's UID; none written
  /// nullopt: a type the reader does not know, spelled `type_text`.
  std::optional<LinkType> type = LinkType::FinishToStart;
  std::string_view type_text;
  bool cross_project = false;  ///< from a task of another project (`cross_project_name`)
  std::string_view cross_project_name;
  /// The lag: minutes of working time (of calendar time when elapsed), or a percentage of the
  /// predecessor's duration; nullopt when `lag_text` could not be read.
  std::optional<double> lag = 0.0;
  Format lag_format;
  std::string_view lag_text;  ///< as written, when the source spells it (for messages)
  Place place;
  Place type_place;
  Place lag_place;
};

/// The places of a task's fields that findings point at.
enum class TaskField : std::uint8_t {
  Task,
  Start,
  Finish,
  Duration,
  Cost,
  Work,
  Constraint,
  Manual,
  Calendar,
  OutlineLevel,
  TempId,  ///< where the task gives its story's temp_id (temp_id below)
  Count
};

struct Task {
  std::int64_t uid = 0;
  /// false: the source gives the task no id of its own (GanttProject: a missing or repeated
  /// one, reported by its reader); its story has no temp_id and no link leads into it.
  bool has_uid = true;
  std::string_view name;
  std::int64_t level = 1;  ///< outline level, 1 at the top
  bool milestone = false;  ///< marked as one
  bool active = true;
  bool manual = false;  ///< manually scheduled
  /// Working minutes (calendar minutes when elapsed); nullopt when not written, or when
  /// `duration_text` is not a duration the reader reads.
  std::optional<double> duration;
  Format duration_format;
  std::string_view duration_text;
  /// Working days from its start, for a source that gives a task a start and a length but no
  /// finish (GanttProject): it is due on the last of them (a length of 0: no due).
  std::optional<std::int64_t> working_days;
  std::optional<DateTime> start;
  std::optional<DateTime> finish;
  std::string_view start_text;  ///< as written, when it is not a date and time
  std::string_view finish_text;
  std::string_view notes;  ///< plain text
  /// Hundredths of the currency unit (cents); `cost_text` is its spelling, for messages.
  std::optional<double> cost;
  std::string_view cost_text;
  std::optional<double> work;  ///< minutes
  Constraint constraint = Constraint::AsSoonAsPossible;
  std::optional<Date> constraint_date;
  // Progress: what makes a task started.
  std::int64_t percent_complete = 0;
  std::int64_t percent_work_complete = 0;
  double actual_duration = 0;  ///< minutes
  double actual_work = 0;      ///< minutes
  double actual_cost = 0;
  bool actual_start_is_start = false;  ///< an actual start on the task's own start
  bool actual_finish_is_finish = false;
  std::optional<std::int64_t> calendar_uid;  ///< its own calendar; negative: the project's
  // A story's keys the source keeps for a template (MSPDI: the extended attributes an export
  // wrote), as the story will have them; none when not kept.
  std::optional<std::string_view> tag_list;
  std::optional<std::vector<std::string_view>> checklist;
  std::optional<std::int64_t> weight;
  std::optional<ptmpl::TempId> temp_id;  ///< the story's temp_id, when it is not the UID
  std::size_t first_link = 0;            ///< its links into it: Plan::links[first_link, +link_count)
  std::size_t link_count = 0;
  Place places[static_cast<std::size_t>(TaskField::Count)];

  [[nodiscard]] const Place& place(TaskField field) const { return places[static_cast<std::size_t>(field)]; }
  Place& place(TaskField field) { return places[static_cast<std::size_t>(field)]; }
};

struct Resource {
  std::int64_t uid = 0;
  std::string_view name;
  bool has_rates = false;  ///< a standard or overtime rate, or a cost per use
  std::optional<std::int64_t> calendar_uid;
  Place place;
  Place calendar_place;
};

/// A period of an assignment's timephased work.
struct WorkPeriod {
  int type = 1;  ///< 1 work still to do, 2 work done (MSPDI's TimephasedData Type)
  std::optional<DateTime> from;
  std::optional<DateTime> to;
  double work = 0;  ///< minutes
  Place place;
};

struct Assignment {
  std::int64_t task_uid = 0;
  std::int64_t resource_uid = 0;  ///< -65535: no resource
  std::vector<WorkPeriod> periods;
  Place place;
};

/// What a calendar says of one kind of day.
struct DayRule {
  bool working = false;
  int start = 8 * 60;  ///< first working minute
  int end = 17 * 60;   ///< last working minute (exclusive)
};

/// A week day of a calendar (DayType 1–7: Sunday–Saturday), or, as type 0, an exception over
/// the dates `from`–`to` (how Project 2003 and older write them); another type is none of them
/// (kept: the calendar still says something of its own).
struct WeekDay {
  std::int64_t type = -1;
  DayRule rule;
  std::optional<Date> from;
  std::optional<Date> to;
};

/// A number of a calendar exception's recurrence as written (its spelling, for messages).
struct RecurrenceField {
  bool written = false;
  std::optional<std::int64_t> value;  ///< nullopt: written but not an integer
  std::string_view text;
};

/// An exception of a calendar: a range of dates with its own working time, or a recurrence
/// (MSPDI's numbering: Type 1 daily, 2/3 yearly, 4/5 monthly, 6 weekly, 7 every `period` days).
struct CalendarException {
  std::optional<Date> from;  ///< nullopt: no readable range (the exception is not applied)
  std::optional<Date> to;
  DayRule rule;
  std::string_view name;
  std::optional<std::int64_t> type;  ///< not written: daily
  RecurrenceField period, month, month_day, days_of_week, month_item, month_position;
  Place place;
};

struct Calendar {
  std::int64_t uid = 0;
  std::optional<std::int64_t> base_uid;  ///< as written (negative: none)
  bool is_base = false;
  std::vector<WeekDay> week_days;
  std::vector<CalendarException> exceptions;
  bool has_work_weeks = false;
  /// A working day's minutes on this calendar, when the source gives each calendar its own
  /// (P6's day_hr_cnt): durations on it, and lags after a task on it, are counted in its days
  /// rather than the project's (Project::minutes_per_day).
  std::optional<double> minutes_per_day;
  Place place;
};

struct Project {
  std::string_view title;
  std::string_view description;  ///< plain text
  std::optional<DateTime> start;
  /// A working day's minutes (MSPDI's MinutesPerDay), as written when the source spells it:
  /// the builder takes 480 for a value it cannot use, and says so.
  std::optional<double> minutes_per_day;
  std::string_view minutes_per_day_text;
  Place minutes_per_day_place;
  std::optional<std::int64_t> calendar_uid;
  std::string_view currency;
  Place place;
  Place currency_place;
  Place calendars_place;  ///< where the calendars are (findings about them without a place of their own)
};

/// What the builder says differently of each format a plan comes from: the names of its
/// findings (docs/commands/convert.md lists each format's) and the words of their messages.
struct Source {
  std::string_view finding_prefix;      ///< the builder's finding `untitled-task` is `PREFIXuntitled-task`
  std::string_view dates_span_finding;  ///< the id of "the plan's dates span more than 400 years"
  std::string_view calendar;            ///< what messages call the plan's calendar
  std::string_view sub_tasks;           ///< what messages call a summary task's tasks
  std::string_view rates;               ///< what a resource with rates has
  std::string_view day_zero_source;     ///< what a plan without a start takes day 0 from

  /// MSPDI and `.mpp`.
  [[nodiscard]] static constexpr Source ms_project() {
    return {"mspdi-",
            "mspdi-task-calendar",
            "the project calendar",
            "tasks",
            "rates",
            "the earliest task's start; the file has no StartDate"};
  }
  /// GanttProject `.gan`.
  [[nodiscard]] static constexpr Source gantt_project() {
    return {"gan-", "gan-task-dates", "the plan's calendar", "sub-tasks", "a rate", "the earliest task's start"};
  }
  /// An Excel workbook's plan sheet (MS Project's "export to Excel" layout, or a generic one).
  [[nodiscard]] static constexpr Source excel() {
    return {"xlsx-", "xlsx-dates-span", "the standard calendar (Monday to Friday)",
            "tasks", "rates",           "the earliest task's start"};
  }
  /// Primavera P6 (XER, PMXML).
  [[nodiscard]] static constexpr Source primavera() {
    return {"p6-",        "p6-dates-span", "the project calendar",
            "activities", "rates",         "the earliest activity's start; the project has no data date"};
  }
};

struct Plan {
  Source source = Source::ms_project();
  Project project;
  std::vector<Task> tasks;  ///< in outline order
  std::vector<Link> links;  ///< grouped by successor, in the order of the tasks
  std::vector<Calendar> calendars;
  std::vector<Resource> resources;
  std::vector<Assignment> assignments;

  /// Keeps `text` for as long as the plan (for the views above, when a reader has no text of
  /// its own to point into).
  std::string_view keep(std::string text) { return kept_.emplace_back(std::move(text)); }

 private:
  std::deque<std::string> kept_;
};

}  // namespace ptmpl::plan
