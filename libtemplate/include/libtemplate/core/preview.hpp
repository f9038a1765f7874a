// Previews of a schedule (docs/semantics.md §9): the terminal Gantt chart, a table, JSON, CSV, Mermaid,
// SVG and a self-contained HTML page; and the template's totals (`ptmpl stats`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/core/calendar.hpp"
#include "libtemplate/core/result.hpp"
#include "libtemplate/core/rollup.hpp"
#include "libtemplate/core/schedule.hpp"
#include "libtemplate/core/template_file.hpp"

namespace ptmpl {

struct Hours;

enum class PreviewFormat : std::uint8_t { Gantt, Table, Json, Csv, Mermaid, Svg, Html };

/// "gantt", "table", "json", "csv", "mermaid", "svg", "html".
[[nodiscard]] std::string_view to_string(PreviewFormat format);
[[nodiscard]] std::optional<PreviewFormat> parse_preview_format(std::string_view name);

struct PreviewOptions {
  /// Real dates (`--start` with a calendar) instead of working-day offsets.
  std::optional<Calendar> calendar;
  /// Show stories down to this many levels (1 = top level only); all when absent.
  std::optional<std::size_t> depth;
  /// Show critical stories only (and the parents that contain them, so the tree stays readable).
  bool critical_only = false;
  /// Width of the terminal Gantt chart in columns (labels included); at least 40.
  std::size_t width = 80;
  /// ANSI colour in the Gantt chart and the table.
  bool color = false;
  /// The template's title, for the Mermaid, SVG and HTML titles; "Schedule" when empty.
  std::string title;
  /// The template's project_template_assignments, for the assignees' names on the HTML page.
  /// Views the caller's template, which must outlive the rendering.
  std::span<const TemplateAssignment> assignments;
  /// The deadline `calendar`'s day 0 was placed back from (deadline_of()): the JSON project
  /// adds `finish` and `latest_start`.
  std::optional<Date> finish;
  /// Hours by assignment (`--hours`, hours.hpp): the HTML page draws their chart under the Gantt.
  /// Must outlive the rendering.
  const Hours* hours = nullptr;
};

/// One row of a preview: a story shown, in tree order.
struct PreviewRow {
  std::size_t index = 0;  ///< pre-order index in the schedule
  std::size_t depth = 0;  ///< 0 for a top-level story
  std::string outline;    ///< "1", "1.2", "1.2.3": position among its siblings at each level
};

/// The rows the options select from a schedule that is ok(), in tree order. Outline numbers
/// count every story (filtered or not), so a story keeps its number whatever is shown.
[[nodiscard]] std::vector<PreviewRow> preview_rows(const Schedule& schedule, const PreviewOptions& options);

/// Renders a schedule that is ok() in `format`. Every output ends with a newline.
[[nodiscard]] std::string render_preview(const Schedule& schedule, PreviewFormat format, const PreviewOptions& options);

/// The same text, handed to `out` in pieces as it is made rather than held whole (JSON goes out
/// about 64 KiB at a time; the other formats, which are much smaller, in one piece). The pieces,
/// in order, are render_preview()'s text.
void render_preview_to(const Schedule& schedule, PreviewFormat format, const PreviewOptions& options,
                       const std::function<void(std::string_view)>& out);

/// Whether every template of `file` has a story list to schedule. Fails with the first reason
/// it has not, naming the file and the place: a syntax error (`FILE:LINE:COL: message`), one
/// inside a raw_json string (at the string, with the line and column inside it), nesting
/// beyond the bound (the stories below it were not read, and a preview must not drop them
/// silently), a file that holds no template, a template without a raw_json story list.
[[nodiscard]] Status check_schedulable(const TemplateFile& file);

/// The template of `file` that `schedule` and `stats` take (`--template NUMBER`, from 1; 0 for
/// a file that holds one): fails as check_schedulable() does, and (kUsage) naming the file when
/// it holds several and `number` is 0, or fewer than `number`.
[[nodiscard]] Result<const TemplateSource*> schedulable_template(const TemplateFile& file, std::size_t number);

/// Why `schedule` (of template `source` of `file`) has no dates, one message per problem, each
/// naming the file: `FILE:LINE:COL: dependency cycle: 3 → 5 → 3` at the dependency that closes
/// each cycle (stories without a temp_id appear as their quoted title), or that the dates leave
/// the range the scheduler computes in. Empty when schedule.ok().
[[nodiscard]] std::vector<std::string> schedule_errors(const TemplateFile& file, const TemplateSource& source,
                                                       const Schedule& schedule);

/// Why `stats` (of template `source` of `file`) has no totals: one message per estimate whose
/// total would take a value that is no amount (`Rollup::invalid_term()`), at that value:
/// `FILE:LINE:COL: budget_estimate_in_cents of story 2 "B" is a string, "150000", not an
/// amount; …`. A sum that skipped it would be no sum (docs/semantics.md §6). Empty when both totals hold.
[[nodiscard]] std::vector<std::string> stats_errors(const TemplateFile& file, const TemplateSource& source,
                                                    const Rollup& rollup);

/// The warning about the dependencies that do not constrain `schedule` (of a template of
/// `file`), or none when every dependency does: `FILE: warning: 2 dependencies do not constrain
/// the schedule (…reasons…); run ptmpl lint FILE`. It counts Schedule::skipped_links() and the
/// dependencies whose target names no story, and says how many have a lag that is not an
/// integer (such a link is skipped, not read as lag 0).
[[nodiscard]] std::optional<std::string> schedule_warning(const TemplateFile& file, const Schedule& schedule);

/// The values of template `source` of `file` that the scheduler cannot take as written, one
/// warning each, at the value: `FILE:LINE:COL: warning: story 3 "Design": duration is "5", not a
/// whole number of days; scheduled as if it had none (1 day)`. A `duration`, `relative_start_date`
/// or `relative_due_date` that is not an integer within the schema's bounds is read as absent,
/// and a command that computes dates says so (`--strict` refuses the file: `severity` "error").
/// At most `limit` messages, then one that counts the rest. Empty when every such value is valid.
[[nodiscard]] std::vector<std::string> schedule_value_warnings(const TemplateFile& file, const TemplateSource& source,
                                                               std::string_view severity = "warning",
                                                               std::size_t limit = 20);

/// The calendar options of `schedule` and `stats`: each one given overrides the same field of
/// the document's calendar block (docs/semantics.md §4).
struct CalendarFlags {
  std::optional<Date> start{};                  ///< `--start`
  std::optional<Date> finish{};                 ///< `--finish`: replaces the block's start and finish
  std::optional<WorkWeek> week{};               ///< `--calendar workweek|7day`
  std::optional<std::vector<Date>> holidays{};  ///< `--holidays FILE`
};

/// The deadline that day 0 is placed back from (docs/semantics.md §14): `--finish`, else the
/// calendar block's `finish` when neither the block nor `--start` gives a start. None otherwise.
[[nodiscard]] std::optional<Date> deadline_of(const TemplateSource& source, const CalendarFlags& flags);

/// The calendar that dates are shown in: template `source`'s calendar block (docs/semantics.md §4), each
/// field overridden by the flag given for it; Monday to Friday when neither names a week. With a
/// deadline (deadline_of()) and `schedule`, day 0 is the latest start for which the project's
/// due falls on it (Calendar::ending_on()); a deadline is not used without `schedule` or when
/// the schedule is not ok() (it has no due). None when nothing gives a start date (offsets are
/// shown). Fails on a block that has a problem (calendar_block_problems(); the first, as
/// `FILE:LINE:COL: calendar: …`), on `--start` with `--finish` (kUsage), on a latest start
/// before year 1, and when week or holidays are given without any start date or deadline.
[[nodiscard]] Result<std::optional<Calendar>> resolve_calendar(const TemplateFile& file, const TemplateSource& source,
                                                               const CalendarFlags& flags,
                                                               const Schedule* schedule = nullptr);

/// What `schedule` and `stats` say when a deadline placed day 0 (`calendar` from
/// resolve_calendar()): `finish 2027-06-30: latest start 2027-03-01 (day 0), the project's 84
/// working days end on 2027-06-30`, and when the deadline is not a working day, which day the
/// project ends on instead.
[[nodiscard]] std::string deadline_note(Date finish, const Calendar& calendar, const Schedule& schedule);

/// The template's totals (docs/semantics.md §9, `ptmpl stats`).
struct Stats {
  std::size_t item_count = 0;
  std::int64_t duration = 0;  ///< the schedule's project duration (working days)
  Amount budget_in_cents;     ///< effective totals (docs/semantics.md §5)
  Amount time_estimate_in_minutes;
  std::size_t critical_count = 0;
  /// With a calendar: the dates of the project's first and last working days (`YYYY-MM-DD`).
  std::optional<Date> start_date;
  std::optional<Date> due_date;
  /// With a deadline (`--finish`, docs/semantics.md §14): the deadline and day 0's date.
  std::optional<Date> finish;
  std::optional<Date> latest_start;
};

/// `calendar` (resolve_calendar()) adds the project's start and due dates; `finish`, the
/// deadline that calendar's day 0 was placed back from (deadline_of()), adds it and day 0.
[[nodiscard]] Stats compute_stats(const Schedule& schedule, const Rollup& rollup,
                                  const std::optional<Calendar>& calendar = std::nullopt,
                                  std::optional<Date> finish = std::nullopt);

/// `{"item_count", "duration", "budget_in_cents", "time_estimate_in_minutes", "critical_count"}`
/// (docs/semantics.md §9), then `start_date`, `due_date`, `finish` and `latest_start` when the
/// stats have them; an amount that nothing states is 0, one that overflows is null.
[[nodiscard]] std::string render_stats_json(const Stats& stats);
/// The same as aligned `name  value` lines for a terminal.
[[nodiscard]] std::string render_stats_text(const Stats& stats);

}  // namespace ptmpl
