// The records the CSV reader reads a plan from (docs/commands/convert.md, "CSV"): a CSV text's
// rows, or the rows of a sheet in ptmpl's own Excel layout, with cells as text. One column
// mapping reads both. Private to the converters.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "convert/findings.hpp"
#include "convert/plan/plan.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/result.hpp"

namespace ptmpl::detail::csv {

struct Cell {
  std::string text;
  plan::Place place;  ///< where findings about it point
};

struct Record {
  std::vector<Cell> cells;  ///< from the first column on, empty ones included
  std::size_t row = 0;      ///< as a spreadsheet numbers it (the header's is 1 in a CSV)
};

class RecordSource {
 public:
  virtual ~RecordSource() = default;
  /// The next record into `out` (the first is the header); false after the last. Fails on a
  /// record that cannot be read (`header`: the column names read so far, for the message).
  virtual Result<bool> next(Record& out, const std::vector<std::string>& header) = 0;
  /// The place of an error: `plan.csv:row 3, column "title"`, or a sheet's
  /// `plan.xlsx (sheet Stories, cell C3, column "title")`; `cell` is the cell's index in its
  /// record (nullopt, and `column` empty: the whole row).
  [[nodiscard]] virtual std::string where(std::size_t row, std::optional<std::size_t> cell,
                                          std::string_view column) const = 0;
  /// Whether an amount may use a comma as its decimal mark (a CSV separated by semicolons).
  [[nodiscard]] virtual bool decimal_comma() const { return false; }
};

/// The ids of the findings the reader reports: `csv-…` for a CSV text, `xlsx-…` for a sheet.
struct RecordFindings {
  std::string_view unknown_column;
  std::string_view date_column;
  std::string_view dependency_cycle;
};

/// The template of the records of `source`, read through the CSV columns (csv_columns.hpp);
/// its title is the file name of `path` without its extension. Findings go to `findings`,
/// which the conversion returns.
[[nodiscard]] Result<Conversion> read_records(RecordSource& source, const std::string& path, FindingSink& findings,
                                              const RecordFindings& ids);

}  // namespace ptmpl::detail::csv
