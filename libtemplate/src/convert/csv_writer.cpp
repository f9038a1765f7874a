// Template → CSV (docs/semantics.md §7): one story per row, nesting by level, links as predecessors in MS
// Project's notation on the successor's row, each cell by detail::append_csv_cell (RFC 4180
// quoting, text guarded against formula injection).
#include <string>

#include "convert/csv_columns.hpp"
#include "convert/story_table.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/dates.hpp"
#include "libtemplate/core/rollup.hpp"
#include "libtemplate/core/template_file.hpp"
#include "output/csv_cell.hpp"

namespace ptmpl {

namespace {

using namespace detail::csv;

// ---------------------------------------------------------------------------------------------
// Template → CSV.

// Text cells get the spreadsheet guard (docs/semantics.md §11); the level and amounts are numbers.
detail::CsvCell cell_kind(Column c) {
  switch (c) {
    case kLevel:
    case kStart:
    case kStartDate:
    case kDue:
    case kDueDate:
    case kDuration:
    case kBudget:
    case kMinutes:
      return detail::CsvCell::Number;
    default:
      return detail::CsvCell::Text;
  }
}

// The row's cells as text: numbers in digits, amounts in major units, dates as YYYY-MM-DD.
std::string cell_text(const detail::TableCell& cell) {
  using Kind = detail::TableCell::Kind;
  switch (cell.kind) {
    case Kind::Text:
      return std::string(cell.text);
    case Kind::Number:
      return std::to_string(cell.number);
    case Kind::Cents:
      return cents_to_budget(cell.number);
    case Kind::Date:
      return format_date(cell.date);
    case Kind::Empty:
      break;
  }
  return {};
}

Conversion write_csv(detail::StoryTable& table) {
  std::string out = "\xEF\xBB\xBF";  // spreadsheets read UTF-8 only after a byte order mark
  for (Column c : table.columns()) {
    if (c != table.columns().front()) out += ',';
    out += kColumnName[c];
  }
  out += "\r\n";
  table.for_each_row([&](const detail::TableRow& row) {
    for (Column c : table.columns()) {
      if (c != table.columns().front()) out += ',';
      detail::append_csv_cell(out, cell_text(table.cell(row, c)), cell_kind(c));
    }
    out += "\r\n";
  });
  Conversion conversion;
  conversion.document = std::move(out);
  conversion.diagnostics = table.take_findings();
  return conversion;
}

}  // namespace

Result<Conversion> export_csv(std::string_view text, const std::string& path, const ConvertOptions& options) {
  const TemplateFile file = TemplateFile::parse(path, FileText(std::string(text)));
  if (auto error = detail::untabulable(file, "CSV file")) return *error;
  detail::StoryTable table(file, detail::kCsvTable, options);
  return write_csv(table);
}

}  // namespace ptmpl
