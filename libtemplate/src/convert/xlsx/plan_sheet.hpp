// A plan sheet of a workbook (Microsoft Project's "export to Excel" layout, or a generic plan
// sheet) read into the plan model: its header row's columns named through one table of
// synonyms (docs/commands/convert.md, "Excel"). Private to the converters.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "convert/findings.hpp"
#include "convert/plan/plan.hpp"
#include "convert/xlsx/workbook.hpp"

namespace ptmpl::detail::xlsx {

/// What a column of a plan sheet holds.
enum class Field : std::uint8_t {
  Id,
  Name,
  Start,
  Finish,
  Duration,
  Predecessors,
  Wbs,
  OutlineLevel,
  Cost,
  Work,
  Resource,
  Notes,
  Milestone,
  Type,
  Count
};

struct PlanHeader {
  std::size_t row = 0;  ///< its index in Sheet::rows
  std::array<std::optional<std::size_t>, static_cast<std::size_t>(Field::Count)> columns{};
  std::vector<std::size_t> level_columns;  ///< `Level 1`, `Level 2`, …: one column per outline level
  std::vector<std::size_t> unmapped;       ///< columns named, but not mapped

  [[nodiscard]] std::optional<std::size_t> column(Field field) const {
    return columns[static_cast<std::size_t>(field)];
  }
};

/// The header row of `sheet` if it is a plan sheet: the first of its first 20 rows that names a
/// task column (Task, Name, Activity, Title, …) or per-level columns, and one more it maps.
[[nodiscard]] std::optional<PlanHeader> find_plan_header(const Sheet& sheet);

/// Reads the rows below `header` into `plan` (a workbook in the 1904 date system when
/// `date1904`); every column not mapped and every cell that cannot be read goes to `findings`.
void read_plan_sheet(const Sheet& sheet, const PlanHeader& header, bool date1904, plan::Plan& plan,
                     FindingSink& findings);

}  // namespace ptmpl::detail::xlsx
