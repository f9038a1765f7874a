#include "convert/xlsx/xlsx.hpp"

#include <algorithm>
#include <utility>

#include "convert/csv_columns.hpp"
#include "convert/csv_records.hpp"
#include "convert/findings.hpp"
#include "convert/plan/builder.hpp"
#include "convert/xlsx/plan_sheet.hpp"
#include "convert/xlsx/workbook.hpp"

namespace ptmpl::detail {

namespace {

using xlsx::Sheet;

constexpr std::size_t kHeaderRows = 20;

// ptmpl's own export: a header row (within the first 20) naming the CSV columns `title` and
// `temp_id`, which every export writes; its index in Sheet::rows.
std::optional<std::size_t> export_header(const Sheet& sheet) {
  for (std::size_t r = 0; r < sheet.rows.size() && sheet.rows[r].number <= kHeaderRows; ++r) {
    bool title = false;
    bool temp_id = false;
    for (const xlsx::Cell& cell : sheet.rows[r].cells) {
      if (cell.kind != xlsx::Cell::Kind::Text) continue;
      const std::string name = csv::lower_trimmed(cell.text);
      title = title || name == csv::kColumnName[csv::kTitle];
      temp_id = temp_id || name == csv::kColumnName[csv::kTempId];
    }
    if (title && temp_id) return r;
  }
  return std::nullopt;
}

// The cells that could not be read, as findings.
void report_problems(FindingSink& findings, const std::vector<xlsx::CellProblem>& problems) {
  for (const xlsx::CellProblem& problem : problems)
    findings.report("xlsx-cell-invalid", plan::Place::cell(problem.row, problem.column),
                    "the cell " + problem.message + "; it is read as empty");
}

// The rows of a sheet in ptmpl's own layout as the CSV reader's records: from the header on,
// each cell as text (cell_text), empty cells included up to the row's last. The rows read to
// find the header come first, then the rest as the sheet's reader reads them; the cells that
// cannot be read are reported as each row is handed out.
class SheetRecords : public csv::RecordSource {
 public:
  SheetRecords(Sheet head, std::size_t header, xlsx::SheetRows rows, const xlsx::Workbook& workbook,
               FindingSink& findings)
      : head_(std::move(head)), at_(header), rows_(std::move(rows)), workbook_(workbook), findings_(findings) {
    report_problems(findings_, head_.problems);
  }

  Result<bool> next(csv::Record& out, const std::vector<std::string>&) override {
    const xlsx::Row* row = nullptr;
    if (at_ < head_.rows.size()) {
      row = &head_.rows[at_++];
    } else {
      Result<bool> more = rows_.next(row_);
      if (!more.ok()) return more.error();
      report_problems(findings_, rows_.take_problems());
      if (!more.value()) return false;
      row = &row_;
    }
    out.row = row->number;
    // The record's cells are assigned, not made anew: their strings keep their buffers.
    std::size_t n = 0;
    auto put = [&](std::string_view text, std::size_t column) {
      if (n == out.cells.size()) out.cells.emplace_back();
      out.cells[n].text.assign(text);
      out.cells[n++].place = plan::Place::cell(row->number, column);
    };
    for (const xlsx::Cell& cell : row->cells) {
      while (n < cell.column) put("", n);
      if (cell.kind == xlsx::Cell::Kind::Text) {
        put(cell.text, cell.column);
      } else {
        put(xlsx::cell_text(cell, workbook_.date1904()), cell.column);
      }
    }
    out.cells.resize(n);
    return true;
  }
  [[nodiscard]] std::string where(std::size_t row, std::optional<std::size_t> cell,
                                  std::string_view column) const override {
    if (!cell) return workbook_.path() + " (sheet " + head_.name + ", row " + std::to_string(row) + ")";
    return workbook_.path() + " (sheet " + head_.name + ", cell " + plan::cell_reference(row, *cell) +
           (column.empty() ? "" : ", column \"" + std::string(column) + "\"") + ")";
  }

 private:
  Sheet head_;
  std::size_t at_;
  xlsx::SheetRows rows_;
  xlsx::Row row_;  // the row read last, its buffers reused
  const xlsx::Workbook& workbook_;
  FindingSink& findings_;
};

std::string sheet_list(const xlsx::Workbook& workbook) {
  std::string out;
  for (const std::string& name : workbook.sheet_names()) out += (out.empty() ? "\"" : ", \"") + name + "\"";
  return out.empty() ? "none" : out;
}

// A sheet and where its plan is: ptmpl's own layout (`export_row`) or a plan sheet (`header`).
// `sheet` holds the rows read to find it, and the reader the rest; a plan sheet is read whole.
struct Chosen {
  Sheet sheet;
  std::optional<xlsx::SheetRows> rows;
  std::optional<std::size_t> export_row;
  std::optional<xlsx::PlanHeader> header;
};

Result<Chosen> choose_sheet(const xlsx::Workbook& workbook, const std::string& path, const ConvertOptions& options) {
  const std::vector<std::string>& names = workbook.sheet_names();
  const auto named = std::find(names.begin(), names.end(), options.sheet);
  if (!options.sheet.empty() && named == names.end())
    return Error::usage(path + ": no sheet is named \"" + options.sheet +
                        "\"; the workbook's sheets: " + sheet_list(workbook));
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (!options.sheet.empty() && names[i] != options.sheet) continue;
    Result<xlsx::SheetRows> rows = workbook.rows(i);
    if (!rows.ok()) return rows.error();
    Chosen out{Sheet{names[i], {}, {}}, std::move(rows.value()), std::nullopt, std::nullopt};
    if (Status read = out.rows->read_into(out.sheet, kHeaderRows); !read.ok()) return read.error();
    out.export_row = export_header(out.sheet);
    if (out.export_row) return out;
    out.header = xlsx::find_plan_header(out.sheet);
    if (!out.header) continue;
    if (Status read = out.rows->read_into(out.sheet); !read.ok()) return read.error();
    out.rows.reset();
    return out;
  }
  const std::string what = options.sheet.empty() ? "no sheet holds a plan (sheets: " + sheet_list(workbook) + ")"
                                                 : "the sheet \"" + options.sheet + "\" holds no plan";
  return Error::invalid(path + ": " + what +
                        ": a plan sheet has a header row within its first 20 rows that names a task column (Task, "
                        "Name, Activity, Title, or Level 1, Level 2, …) and one more column ptmpl maps, or ptmpl's "
                        "own columns (title, temp_id, …); docs/commands/convert.md, \"Excel\"");
}

}  // namespace

Result<Conversion> convert_xlsx(std::string_view bytes, const std::string& path, const ConvertOptions& options) {
  Result<xlsx::Workbook> workbook = xlsx::Workbook::open(bytes, path);
  if (!workbook.ok()) return workbook.error();
  Result<Chosen> chosen = choose_sheet(workbook.value(), path, options);
  if (!chosen.ok()) return chosen.error();
  Chosen& found = chosen.value();
  FindingSink findings({}, path, options);
  findings.set_sheet(found.sheet.name);
  if (found.export_row) {  // the CSV reader returns the findings with its template
    SheetRecords records(std::move(found.sheet), *found.export_row, *std::move(found.rows), workbook.value(), findings);
    return csv::read_records(records, path, findings,
                             {"xlsx-column-unmapped", "xlsx-date-column", "xlsx-dependency-cycle"});
  }
  report_problems(findings, found.sheet.problems);
  plan::Plan plan;
  xlsx::read_plan_sheet(found.sheet, *found.header, workbook.value().date1904(), plan, findings);
  Result<Conversion> out = plan::build_template(plan, path, findings, plan.tasks.size() * 512);
  if (!out.ok()) return out.error();
  out.value().diagnostics = findings.take();
  return out;
}

}  // namespace ptmpl::detail
