// Hours by assignment (docs/semantics.md §14, `ptmpl schedule --hours`): each story's time
// estimate spread over its scheduled working days and shared among its assignments, summed per
// ISO week and per month, with a weekly capacity per role.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/core/calendar.hpp"
#include "libtemplate/core/model.hpp"
#include "libtemplate/core/result.hpp"
#include "libtemplate/core/rollup.hpp"
#include "libtemplate/core/schedule.hpp"

namespace ptmpl {

/// A role's hours a week (`--capacity Engineer=40h/week`, or `.ptmpl.json`'s `capacity`).
struct Capacity {
  std::string role;  ///< an assignment's name in project_template_assignments
  std::int64_t minutes_per_week = 0;
};

/// `ROLE=HOURSh/week` (hours a whole number or a decimal, at most two places): fails (kUsage)
/// naming what is wrong.
[[nodiscard]] Result<Capacity> parse_capacity(std::string_view text);
/// `HOURSh/week` alone, for `role`.
[[nodiscard]] Result<Capacity> parse_capacity(std::string role, std::string_view per_week);

/// One row: an assignment of project_template_assignments, an id no entry names (`#ID`), or the
/// estimates no assignment takes (`unassigned`, no id).
struct HoursRow {
  std::string name;
  std::optional<std::int64_t> id;
  std::optional<std::int64_t> capacity_minutes;  ///< a week's capacity, when one is set
};

/// A week (from its Monday) or a month (from its first day), with each row's minutes.
struct HoursPeriod {
  Date first;
  std::string label;                  ///< `2027-W01` or `2027-01`
  std::vector<std::int64_t> minutes;  ///< by row
};

struct Hours {
  std::vector<HoursRow> rows;
  std::vector<HoursPeriod> weeks;   ///< every week from the project's first day to its last
  std::vector<HoursPeriod> months;  ///< every month likewise
  /// True when the row's minutes in `week` exceed its capacity.
  [[nodiscard]] bool over(const HoursPeriod& week, std::size_t row) const;
};

/// The hours of `planned`'s stories (docs/semantics.md §14): a story whose own
/// time_estimate_in_minutes is stated stands for its subtree, as in the roll-up (so the hours
/// add up to `stats`' total): its minutes are shared equally among its assignments (the first
/// ones a minute more when they do not divide), and each share spread evenly over the working
/// days from its scheduled first day to its due (the first days a minute more), a milestone's
/// on its day. Rows: `assignments` in order, then the ids no entry names, then `unassigned`
/// when something is. `capacity` sets the rows of its roles. Fails on an estimate that is no
/// amount (negative, or a total beyond int64) and on days outside years 1–9999.
[[nodiscard]] Result<Hours> hours_by_assignment(const ScheduledTemplate& planned, const Rollup& rollup,
                                                const Calendar& calendar,
                                                std::span<const TemplateAssignment> assignments,
                                                std::span<const Capacity> capacity);

/// `minutes` as hours: a whole number, or up to two decimal places (`40`, `1.5`, `0.33`).
[[nodiscard]] std::string hours_text(std::int64_t minutes);

/// The table of `schedule --hours`: a line per week, then per month, a column per row and the
/// total; a week over a row's capacity marked `!`.
[[nodiscard]] std::string render_hours_table(const Hours& hours);
/// RFC 4180 CSV: `period,label,first_day,assignment,hours,capacity,over` a record per period and row.
[[nodiscard]] std::string render_hours_csv(const Hours& hours);
/// `{"assignments": [{"name", "id", "capacity_minutes"}], "weeks": [{"week", "first_day", "minutes": [..],
/// "over": [..]}], "months": [{"month", "first_day", "minutes": [..]}]}`, minutes by assignment.
[[nodiscard]] std::string render_hours_json(const Hours& hours);
/// The HTML page's chart: an inline SVG of stacked bars, hours per week by assignment, a line per
/// capacity, a legend; text escaped.
[[nodiscard]] std::string render_hours_svg(const Hours& hours);

}  // namespace ptmpl
