// What the .mpp reader takes out of a file's tables, before it becomes the plan model
// (to_plan.cpp): one struct per table, in the file's own units (tenths of a minute, dates as
// yyyy-mm-ddThh:mm:ss).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "convert/cfb/compound_file.hpp"
#include "convert/mpp/mpp.hpp"
#include "convert/mpp/table.hpp"
#include "convert/plan/plan.hpp"
#include "libtemplate/core/result.hpp"

namespace ptmpl::detail::mpp {

/// Where a format keeps its tables and how some of its records are laid out (layout.cpp).
struct Layout {
  int version = 14;                    ///< 9, 12 or 14
  std::string folder;                  ///< the storage of the plan's data: "   114"
  std::string root_props;              ///< the root's Props stream: "Props14"
  bool written_2013_or_later = false;  ///< MPP14 written by Project 2013 and later
  std::size_t task_meta_size = 47;     ///< a task's FixedMeta item
  std::size_t link_meta_size = 10;
  std::size_t var_entry_size = 12;    ///< VarMeta entries (8 in MPP9)
  bool var_key_in_field_map = false;  ///< MPP9: a var data field's key is the map entry's byte +6
  // Item sizes measured on the corpus (FixedMeta and Fixed2Meta item counts come from the
  // stream sizes; the header's count at +8 is wrong in a few files). FixedMeta items are the
  // same in MPP9, MPP12 and MPP14.
  std::size_t resource_meta_size = 37;
  std::size_t assignment_meta_size = 34;
  std::size_t calendar_meta_size = 10;
  /// MPP12/14: fields continue in a second block (Fixed2Meta, Fixed2Data). MPP9's field maps
  /// use none: its Fixed2 streams (items of 9 to 19 bytes) hold no mapped field.
  bool second_block = true;
  /// A task's Fixed2Meta item: 86 bytes in MPP12; 0 in MPP14, whose item is 92–96 bytes (the
  /// size that divides the stream).
  std::size_t task_fixed2_size = 0;
  std::size_t resource_fixed2_size = 0;     ///< 49 in MPP12; 0 in MPP14: 50 or 51, the one that divides
  std::size_t assignment_fixed2_size = 53;  ///< MPP12 and MPP14
  std::size_t blank_task_size = 16;         ///< task records this short are blank rows (8 in MPP9)
  bool order_by_id = false;                 ///< MPP9: rows in ID order (MPP12/14: a key in Fixed2Data)
  bool manual_scheduling = false;           ///< MPP14: manual tasks, with their own dates (1283/1284)
  /// Password-protected files (write or read password): the folder's Props and every table's
  /// FixedData are XORed with this byte, which Source::stream() undoes; 0 when not.
  std::uint8_t xor_mask = 0;
};

/// The layout of `format`, or why it is not read (MPP8).
[[nodiscard]] Result<Layout> layout_of(const MppFormat& format, const std::string& path);

/// The root Props' password flag and code into `layout.xor_mask`. An MPP12 or MPP14 file with
/// a read password is refused (ErrorCode::kInvalid) with a message naming why.
[[nodiscard]] Status read_protection(const MppStreams& streams, const MppFormat& format, Layout& layout,
                                     const std::string& path);

struct Project {
  std::string title;
  std::optional<std::string> start;
  double minutes_per_day = 480;
  double minutes_per_week = 2400;
  double days_per_month = 20;
  std::optional<std::int32_t> calendar_uid;  ///< the project's calendar, when Props names it
  std::string currency;                      ///< the ISO 4217 code ("GBP"); empty when the file has none
  /// The project's "new tasks are manually scheduled" (MPP14), as MSPDI's NewTasksAreManual.
  std::optional<bool> new_tasks_manual;
};

struct Task {
  std::int32_t uid = 0;
  std::string name;
  std::int64_t level = 1;
  bool milestone = false;
  bool manual = false;
  std::int64_t duration_tenths = 0;
  std::uint16_t duration_units = 7;
  std::optional<std::string> start;
  std::optional<std::string> finish;
  std::uint64_t order = 0;  ///< the row's place on screen
  std::uint32_t row = 0;    ///< its row in the task table (TBkndTask)
  // read_task_fields (task_fields.cpp):
  std::string notes;                               ///< plain text (the file keeps RTF)
  std::optional<double> cost;                      ///< hundredths of the currency unit
  std::optional<double> actual_cost;               ///< hundredths of the currency unit
  std::optional<std::int64_t> work_tenths;         ///< tenths of a minute
  std::optional<std::int64_t> actual_work_tenths;  ///< tenths of a minute
  std::optional<std::int64_t> actual_duration_tenths;
  std::int64_t constraint_type = 0;  ///< MSPDI's numbering: 0 as soon as possible … 7 finish no later than
  std::optional<std::string> constraint_date;
  std::int64_t percent_complete = 0;
  std::int64_t percent_work_complete = 0;
  std::optional<std::string> actual_start;
  std::optional<std::string> actual_finish;
  std::optional<std::string> deadline;
  std::optional<std::int64_t> calendar_uid;  ///< -1: the project's
  bool ignore_resource_calendar = false;     ///< its work follows its own calendar alone
  bool estimated = false;
  bool active = true;
};

struct Link {
  std::int32_t predecessor = 0;
  std::int32_t successor = 0;
  std::int64_t type = 1;  ///< MSPDI's numbering: 0 FF, 1 FS, 2 SF, 3 SS
  std::int32_t lag_tenths = 0;
  std::uint16_t lag_units = 7;
  std::uint32_t row = 0;  ///< its row in the link table (TBkndCons)
};

/// Working times of one day: each a start and an end in 6-second units since midnight (an end
/// of 14400 is midnight at the day's end).
using WorkingTimes = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

/// One week day of a calendar: inherited from the base calendar, or working (with its times) or not.
struct CalendarDay {
  bool inherited = false;
  WorkingTimes times;  ///< empty: not a working day
};

/// An exception of a calendar, with MSPDI's numbering of its recurrence.
struct CalendarException {
  std::string from;  ///< first day, yyyy-mm-dd
  std::string to;    ///< last day (of the last occurrence), yyyy-mm-dd
  std::string name;
  int type = 1;  ///< MSPDI's Type: 1 daily (every day of the range), 2/3 yearly absolute/relative,
                 ///< 4/5 monthly absolute/relative, 6 weekly, 7 every `period` days
  int occurrences = 1;
  int period = 1;          ///< daily (7), weekly, monthly: every `period` days, weeks or months
  int days_of_week = 0;    ///< weekly: bit 0 Sunday … bit 6 Saturday
  int month_day = 1;       ///< absolute: the day of the month
  int month = 0;           ///< yearly: 0 = January
  int month_item = 0;      ///< relative: 0 day, 1 weekday, 2 weekend day, 3…9 Sunday…Saturday
  int month_position = 0;  ///< relative: 0…3 the first…fourth, 4 the last
  WorkingTimes times;      ///< empty: not working
};

/// A work week of a calendar (MPP12 and later): other week days over a range of dates.
struct CalendarWorkWeek {
  std::string name;
  std::string from;  ///< yyyy-mm-dd
  std::string to;
  std::array<CalendarDay, 7> days;  ///< index 0 = Sunday
};

/// A calendar of the file (TBkndCal): a base calendar, or a resource's calendar based on one.
struct Calendar {
  std::int32_t uid = 0;
  std::string name;                          ///< empty for most resource calendars
  std::optional<std::int32_t> base_uid;      ///< set for a calendar based on another
  std::optional<std::int32_t> resource_uid;  ///< the resource whose calendar it is
  std::array<CalendarDay, 7> days;           ///< index 0 = Sunday
  std::vector<CalendarException> exceptions;
  std::vector<CalendarWorkWeek> work_weeks;
};

/// A resource (TBkndRsc), in MSPDI's units: units as a fraction (1 = 100 %), rates and costs
/// as the file keeps them.
struct Resource {
  std::int32_t uid = 0;
  std::int32_t id = 0;
  std::string name;
  int type = 1;                ///< MSPDI's: 0 material (and cost), 1 work
  bool cost_resource = false;  ///< a cost resource (read from MPP14 only)
  std::string initials;
  std::string email;
  std::optional<double> max_units;
  double standard_rate = 0;
  double overtime_rate = 0;
  double cost_per_use = 0;
  std::optional<std::int32_t> calendar_uid;  ///< its own calendar, from the calendar table
  std::uint32_t row = 0;                     ///< its row in the resource table (TBkndRsc)
};

/// A period of an assignment's timephased work: the work done in it and the working time of the
/// assignment's calendar it lasts, both in minutes. Periods follow one another from the
/// assignment's start; one without work between two with work is a gap in a split task. A flat
/// assignment's work is one period `until_finish`: it lasts to the assignment's finish.
struct WorkPeriod {
  double work_minutes = 0;
  double working_minutes = 0;
  bool until_finish = false;
};

/// A resource's assignment to a task (TBkndAssn).
struct Assignment {
  std::int32_t uid = 0;
  std::int32_t task_uid = 0;
  std::int32_t resource_uid = 0;  ///< -65535: no resource (MSPDI's value too)
  std::optional<double> units;    ///< 1 = 100 %
  std::optional<double> work_minutes;
  std::optional<double> cost;  ///< in the currency's hundredths, as the file keeps it
  std::optional<std::string> start;
  std::optional<std::string> finish;
  std::vector<WorkPeriod> planned_work;  ///< timephased work still to do (MSPDI's Type 1), from `start`
  std::vector<WorkPeriod> actual_work;   ///< timephased work done (MSPDI's Type 2), from `start`
  std::uint32_t row = 0;                 ///< its row in the assignment table (TBkndAssn)
};

/// An assignment's timephased work from its var data item (resources.cpp): `planned` for the
/// "timephased work" field, else the "timephased actual work" one. Periods past `limit`, cut
/// short, or not finite are left out. An item counting no period is none, or for planned work
/// its total (the summary's double) as one period until the assignment's finish.
[[nodiscard]] std::vector<WorkPeriod> read_timephased_work(std::string_view item, bool planned,
                                                           std::size_t limit = 10000);

struct Plan {
  Project project;
  std::vector<Task> tasks;  ///< in screen order
  std::vector<Link> links;
  std::vector<Calendar> calendars;      ///< base calendars first, in the file's order; empty when none is readable
  std::vector<Resource> resources;      ///< in UID order
  std::vector<Assignment> assignments;  ///< in the file's order
};

/// Where the streams are, the plan's format and layout, and the streams read (kept for as long
/// as the Source, so that tables can hold views into them).
class Source {
 public:
  Source(const MppStreams& streams, MppFormat format, Layout layout, std::string path)
      : streams_(streams), format_(std::move(format)), layout_(std::move(layout)), path_(std::move(path)) {}
  /// The streams of `file`, which must outlive the Source.
  Source(const cfb::CompoundFile& file, MppFormat format, Layout layout, std::string path)
      : owned_(std::make_unique<CompoundFileStreams>(file)),
        streams_(*owned_),
        format_(std::move(format)),
        layout_(std::move(layout)),
        path_(std::move(path)) {}

  [[nodiscard]] const MppFormat& format() const { return format_; }
  [[nodiscard]] const Layout& layout() const { return layout_; }
  [[nodiscard]] const std::string& path() const { return path_; }

  /// The stream at `steps` inside the plan's folder. A missing one is an error naming it
  /// (every such file has it) unless `optional`, when it reads as std::nullopt.
  [[nodiscard]] Result<std::optional<std::string_view>> stream(std::initializer_list<std::string_view> steps,
                                                               bool optional = false);
  /// "<path>: Microsoft Project .mpp (MPP14, …) <what>".
  [[nodiscard]] Error invalid(const std::string& what) const;

 private:
  std::unique_ptr<MppStreams> owned_;
  const MppStreams& streams_;
  MppFormat format_;
  Layout layout_;
  std::string path_;
  std::vector<std::unique_ptr<std::string>> held_;
};

/// The project's properties and the table field maps, from the folder's Props.
struct Properties {
  Props props;
  FieldMap task_fields;
  FieldMap resource_fields;    ///< empty when the file has no resource map
  FieldMap assignment_fields;  ///< empty when the file has no assignment map
};
[[nodiscard]] Result<Properties> read_properties(Source& source, Project& project);

/// Tasks and links (tasks.cpp).
[[nodiscard]] Status read_tasks(Source& source, const Properties& properties, Plan& plan);
[[nodiscard]] Status read_links(Source& source, Plan& plan);
/// The fields of the task in `row` of the task table past its identity, dates and duration:
/// notes, cost, work, constraint, progress, deadline, calendar, estimated and active flags
/// (task_fields.cpp). `task.uid` is set. A field the file does not hold keeps its default.
void read_task_fields(const Table& table, std::size_t row, const Layout& layout, Task& task);

/// Calendars (calendars.cpp): every calendar of TBkndCal into `plan.calendars`, and the
/// project's calendar (the one Props names as the default) into `plan.project.calendar_uid`.
/// Fails, with a message naming why, when the file has no calendar table or no calendar in it;
/// the caller then counts on the standard calendar.
[[nodiscard]] Status read_calendars(Source& source, const Properties& properties, Plan& plan);

/// Resources and their assignments (resources.cpp). A file without the tables, or without
/// their field maps, has none; rows that are deleted, blank or cut short are skipped. Runs
/// after read_calendars(): a resource's own calendar is the one of `plan.calendars` naming it.
[[nodiscard]] Status read_resources(Source& source, const Properties& properties, Plan& plan);

/// A plan read from its streams, as convert_mpp_streams() writes it: every table in order.
/// Calendars that cannot be read leave the plan on the standard calendar, with the reason.
struct ReadPlan {
  Plan plan;
  std::optional<std::string> calendars_unread;
};
[[nodiscard]] Result<ReadPlan> read_plan(const MppStreams& streams, const MppFormat& format, const std::string& path);
/// The same for the bytes of a compound file (reader.cpp).
[[nodiscard]] Result<ReadPlan> read_plan(std::string_view bytes, const std::string& path);

/// The tables as the plan model (to_plan.cpp), whose views point into `tables` (which must
/// outlive it). Timephased work is placed on the assignments' calendars, in the pieces MS
/// Project's own XML shows.
[[nodiscard]] plan::Plan to_plan(const Plan& tables);

}  // namespace ptmpl::detail::mpp
