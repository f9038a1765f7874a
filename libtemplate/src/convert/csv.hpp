// What the format detection needs to know of the CSV converter. Private to the converters.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace ptmpl::detail {

/// How a CSV plan is laid out: the cell separator, and where its header row starts.
struct CsvLayout {
  char separator = ',';
  std::size_t header_at = 0;  // after a byte order mark and a spreadsheet's `sep=;` line
};

/// The layout of `text` if it is a CSV plan of ours: its header row's cells, separated by
/// commas or else by semicolons (as spreadsheets write CSV where the comma is the decimal
/// mark), name `title` (quotes, case and surrounding blanks aside); when both separators
/// give a `title`, the one that splits more columns the converter reads. A first line `sep=;` or `sep=,` (a
/// spreadsheet's hint) names the separator; the header is then the next line.
[[nodiscard]] std::optional<CsvLayout> csv_layout(std::string_view text);

}  // namespace ptmpl::detail
