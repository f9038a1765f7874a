// Primavera P6: what its two exports hold, before it becomes the plan model. The XER reader
// (xer_reader.cpp: the tab-separated tables) and the PMXML reader (pmxml_reader.cpp: P6's XML)
// each fill a p6::File with the values as P6 means them (hours, P6's enumerations decoded, dates
// with their times); to_plan.cpp turns one of its projects into the plan model once, for both,
// and says what a template cannot hold (findings `p6-*`). Private to the converters.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "convert/findings.hpp"
#include "convert/plan/plan.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/result.hpp"

namespace ptmpl::detail::p6 {

/// A number as written: its value, or nullopt when the text is not one (`text` keeps the
/// spelling for the finding), and where.
struct Number {
  std::optional<double> value;
  std::string_view text;
  plan::Place place;
  [[nodiscard]] bool written() const { return !text.empty(); }
};

/// A date and time as written (`yyyy-mm-dd hh:mm` in XER, `yyyy-mm-ddThh:mm:ss` in PMXML).
struct When {
  std::optional<plan::DateTime> value;
  std::string_view text;
  plan::Place place;
  [[nodiscard]] bool written() const { return !text.empty(); }
};

/// One period of work in a day: minutes since midnight, `finish` exclusive (XER's `f|12:00` and
/// PMXML's `11:59` are both 12:00 = 720). A 24-hour day is 0–1440.
struct Interval {
  int start = 0;
  int finish = 0;
  friend bool operator==(const Interval&, const Interval&) = default;
};

/// A date with its own working time (none: not worked).
struct CalendarException {
  Date date;
  std::vector<Interval> work;
  plan::Place place;
};

struct Calendar {
  std::int64_t id = 0;
  std::string_view name;
  std::optional<std::int64_t> base_id;
  /// Hours in a working day as the calendar declares them (XER day_hr_cnt, PMXML HoursPerDay);
  /// nullopt when not written or not a number.
  std::optional<double> hours_per_day;
  /// The work week, index 0 = Sunday: each day's periods of work (none: not worked). false when
  /// the calendar's data could not be read (its `notes` say why).
  std::array<std::vector<Interval>, 7> week;
  bool week_read = false;
  std::vector<CalendarException> exceptions;
  /// What could not be read of the calendar's data (clndr_data cut short, an unknown day…).
  std::vector<std::string> notes;
  plan::Place place;
};

struct Wbs {
  std::int64_t id = 0;
  std::optional<std::int64_t> parent_id;  ///< none, or a node not in the file: the project's top
  std::string_view code;                  ///< wbs_short_name / Code
  std::string_view name;
  std::int64_t sequence = 0;  ///< seq_num / SequenceNumber: the order among siblings
  bool project_node = false;  ///< XER proj_node_flag: the project itself, not a WBS element
  plan::Place place;
};

enum class ActivityType : std::uint8_t {
  TaskDependent,
  ResourceDependent,
  LevelOfEffort,
  StartMilestone,
  FinishMilestone,
  WbsSummary,
  Unknown,
};

enum class Status : std::uint8_t { NotStarted, InProgress, Completed, Unknown };

enum class ConstraintType : std::uint8_t {
  None,
  StartOn,
  StartOnOrAfter,
  StartOnOrBefore,
  FinishOn,
  FinishOnOrAfter,
  FinishOnOrBefore,
  AsLateAsPossible,
  MandatoryStart,
  MandatoryFinish,
  Unknown,
};

struct Constraint {
  ConstraintType type = ConstraintType::None;
  std::string_view text;  ///< as written (for an unknown type)
  When date;
  plan::Place place;
};

struct Activity {
  std::int64_t id = 0;    ///< task_id / ObjectId
  std::string_view code;  ///< task_code / Id: the story's temp_id
  std::string_view name;
  std::optional<std::int64_t> wbs_id;  ///< none, or the project node: directly under the project
  std::optional<std::int64_t> calendar_id;
  ActivityType type = ActivityType::TaskDependent;
  std::string_view type_text;
  Status status = Status::NotStarted;
  std::string_view status_text;
  Number planned_hours;    ///< target_drtn_hr_cnt / PlannedDuration
  Number remaining_hours;  ///< remain_drtn_hr_cnt / RemainingDuration
  /// The dates P6 scheduled the remaining work on (restart/reend, RemainingEarlyStart/Finish),
  /// else its early dates; the planned (target) dates; the actual ones.
  When start, finish;
  When planned_start, planned_finish;
  When actual_start, actual_finish;
  Constraint primary, secondary;
  double percent_complete = 0;  ///< 0–100, as XER writes it (PMXML's fractions times 100)
  std::string_view notes;       ///< plain text
  plan::Place place;
};

enum class RelationshipType : std::uint8_t { FinishToStart, StartToStart, FinishToFinish, StartToFinish, Unknown };

struct Relationship {
  std::int64_t successor_id = 0;
  std::int64_t predecessor_id = 0;
  bool cross_project = false;  ///< the predecessor is in another project
  RelationshipType type = RelationshipType::FinishToStart;
  std::string_view type_text;
  Number lag_hours;
  plan::Place place;
};

struct Resource {
  std::int64_t id = 0;
  std::string_view name;
  std::string_view short_name;
  std::optional<std::int64_t> calendar_id;
  /// A labor resource (XER RT_Labor, PMXML "Labor"): its units are hours of people's work.
  /// Nonlabor (equipment) and material units are not a time estimate.
  bool labor = true;
  plan::Place place;
};

struct Role {
  std::int64_t id = 0;
  std::string_view name;
  std::string_view short_name;
  plan::Place place;
};

struct Assignment {
  std::int64_t activity_id = 0;
  std::optional<std::int64_t> resource_id;
  std::optional<std::int64_t> role_id;
  Number planned_units;  ///< hours of work
  Number planned_cost;   ///< in the project's currency
  Number actual_units;
  plan::Place place;
};

/// Which calendar P6 counts a relationship's lag on (SCHEDOPTIONS
/// sched_calendar_on_relationship_lag, PMXML RelationshipLagCalendar).
enum class LagCalendar : std::uint8_t { Predecessor, Successor, TwentyFourHour, ProjectDefault, Unknown };

struct Project {
  std::int64_t id = 0;                      ///< proj_id / ObjectId
  std::string_view short_name;              ///< proj_short_name / Id: what `--project` names
  std::string_view name;                    ///< the project node's wbs_name / Name
  std::optional<std::int64_t> calendar_id;  ///< the activities' default calendar
  When data_date;                           ///< last_recalc_date / DataDate
  When planned_start;                       ///< plan_start_date / PlannedStartDate
  std::string_view currency;                ///< ISO code, when the file names one
  // Scheduling options (XER SCHEDOPTIONS; PMXML Project fields); not written: P6's defaults.
  LagCalendar lag_calendar = LagCalendar::Predecessor;
  std::string_view lag_calendar_text;
  plan::Place lag_calendar_place;
  bool retained_logic = true;
  bool progress_override = false;
  plan::Place logic_place;
  std::vector<Wbs> wbs;
  std::vector<Activity> activities;
  std::vector<Relationship> relationships;
  std::vector<Assignment> assignments;
  plan::Place place;
};

/// What one export holds: its projects, and the calendars, resources and roles they share.
struct File {
  std::vector<Project> projects;
  std::vector<Calendar> calendars;
  std::vector<Resource> resources;
  std::vector<Role> roles;
  std::string text;  ///< the file's text as UTF-8 (XER re-encoded from its code page), which the views point into
  /// What the views point into instead of `text`: PMXML's parsed document, whose values are
  /// decoded (entities, CDATA) in place.
  std::shared_ptr<const void> storage;
};

/// The text of an XER export as UTF-8: `bytes` in its code page (UTF-16LE with a byte order
/// mark, UTF-8 with or without one, else Windows-1252, which P6 writes on most machines and
/// never declares), byte order marks inside values dropped. Findings of read_xer() point into
/// this text. Fails (kInvalid) only on UTF-16 that is not (a lone surrogate).
[[nodiscard]] Result<std::string> decode_xer(std::string_view bytes, const std::string& path);

/// Reads an XER export already decoded (decode_xer()); the views of the File point into `text`,
/// which must outlive it. Fails (kInvalid, `path:line`) when the text is not an XER file (no
/// ERMHDR line first); what a row says that cannot be read goes to `findings`.
[[nodiscard]] Result<File> read_xer(std::string_view text, const std::string& path, FindingSink& findings);

/// Reads a PMXML export (root APIBusinessObjects, any or no namespace). Fails (kInvalid, with
/// line and column) when the text is not well-formed XML or not P6's.
[[nodiscard]] Result<File> read_pmxml(std::string_view text, const std::string& path, FindingSink& findings);

/// The plan model of `file.projects[project]`, with findings for what a template cannot hold as
/// P6 says it (an activity calendar other than the project's, the lag calendar, progress,
/// constraints, retained logic).
[[nodiscard]] plan::Plan to_plan(const File& file, std::size_t project, FindingSink& findings);

/// The template of the project of `file` that `options.project` names (its short name or its
/// id), or of the file's only project: to_plan(), then the one builder. A file with several
/// projects and no `options.project`, or a project it does not hold, is kUsage naming them.
[[nodiscard]] Result<Conversion> convert_file(const File& file, const std::string& path, const ConvertOptions& options,
                                              FindingSink& findings);

/// The template of `file.projects[project]`: to_plan(), then the one builder.
[[nodiscard]] Result<Conversion> convert_project(const File& file, std::size_t project, const std::string& path,
                                                 FindingSink& findings);

/// The part of a template's file name for `file.projects[project]`: its ID with each character
/// outside [A-Za-z0-9._-] replaced by `_`; its number when the ID is empty, only dots, or
/// another project's too.
[[nodiscard]] std::string file_name_part(const File& file, std::size_t project);

}  // namespace ptmpl::detail::p6

namespace ptmpl::detail {

/// Converts an XER export (`bytes` as read from the file `path`): decode_xer(), read_xer(),
/// p6::convert_file(). Errors: not an XER file (kInvalid), a project to choose (kUsage).
[[nodiscard]] Result<Conversion> convert_xer(std::string_view bytes, const std::string& path,
                                             const ConvertOptions& options);

/// Converts the P6 export `bytes` (XER or PMXML, told by content) as convert_xer() and
/// convert_pmxml() do, reading it once: one conversion for each project when it holds several
/// and `options.project` names none (with the project's ID), else one (with an empty ID).
[[nodiscard]] std::vector<std::pair<std::string, Result<Conversion>>> convert_p6_projects(
    std::string_view bytes, const std::string& path, const ConvertOptions& options);

/// Converts a PMXML export (UTF-8 text) as convert_xer() does: read_pmxml(),
/// p6::convert_file(). Errors: not well-formed XML or not P6's (kInvalid), a project to choose
/// (kUsage).
[[nodiscard]] Result<Conversion> convert_pmxml(std::string_view text, const std::string& path,
                                               const ConvertOptions& options);

}  // namespace ptmpl::detail
