// Template → Excel workbook (docs/commands/convert.md, "Writing Excel"), with libxlsxwriter:
// the sheet "Stories" holds the CSV export's table (story_table.hpp) with typed cells, outline
// grouping and real dates; "Assignments" and "Calendar" hold what a CSV drops.
#include <xlsxwriter.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "convert/csv_columns.hpp"
#include "convert/story_table.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/rollup.hpp"
#include "libtemplate/core/template_file.hpp"

namespace ptmpl {

namespace {

// SOURCE_DATE_EPOCH, when it holds a whole number of seconds from 1970 on.
std::optional<std::int64_t> source_date_epoch() {
  const char* text = std::getenv("SOURCE_DATE_EPOCH");
  if (text == nullptr) return std::nullopt;
  const std::optional<std::int64_t> seconds = json::parse_int64(text);
  return seconds && *seconds >= 0 ? seconds : std::nullopt;
}

using namespace detail::csv;
using Kind = detail::TableCell::Kind;

// Excel's specifications and limits: a cell holds 32,767 characters (UTF-16 code units), a
// sheet 1,048,576 rows, rows group in 7 outline levels below the top; a number keeps 15 digits.
constexpr std::size_t kCellCharacters = 32767;
constexpr lxw_row_t kSheetRows = LXW_ROW_MAX;
constexpr std::size_t kOutlineLevels = 7;
constexpr std::int64_t kExactNumber = 999'999'999'999'999;
// The widths columns get, in characters: room for the header, at most a screen's third.
constexpr double kMinWidth = 6;
constexpr double kMaxWidth = 60;

// The longest start of `text` a cell holds: whole code points, at most kCellCharacters UTF-16
// code units (a code point beyond U+FFFF takes two). `text` is valid UTF-8.
std::string_view cell_text(std::string_view text) {
  if (text.size() <= kCellCharacters) return text;  // no more code units than bytes
  std::size_t units = 0;
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const std::size_t bytes = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    units += bytes == 4 ? 2 : 1;
    if (units > kCellCharacters) return text.substr(0, i);
    i += bytes;
  }
  return text;
}

// How wide `text` shows, in characters (code points), for a column's width.
std::size_t shown_width(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

lxw_datetime to_datetime(Date date) {
  const std::chrono::year_month_day ymd(date);
  return lxw_datetime{static_cast<int>(ymd.year()),
                      static_cast<int>(static_cast<unsigned>(ymd.month())),
                      static_cast<int>(static_cast<unsigned>(ymd.day())),
                      0,
                      0,
                      0};
}

// A folder of this process's own (mode 0700) for the workbook libxlsxwriter 1.1.4 can only
// write to a path, and its temporary files; removed with everything in it.
class PrivateFolder {
 public:
  static Result<PrivateFolder> make() {
    std::error_code error;
    std::string pattern = (std::filesystem::temp_directory_path(error) / "ptmpl-xlsx-XXXXXX").string();
    if (error) pattern = "/tmp/ptmpl-xlsx-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr)
      return Error::output_failed(pattern + ": cannot make a private folder to write the workbook in: " +
                                  std::generic_category().message(errno));
    return PrivateFolder(std::move(pattern));
  }
  PrivateFolder(PrivateFolder&& other) noexcept : path_(std::exchange(other.path_, {})) {}
  PrivateFolder& operator=(PrivateFolder&&) = delete;
  ~PrivateFolder() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  explicit PrivateFolder(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

class WorkbookWriter {
 public:
  WorkbookWriter(detail::StoryTable& table, const PrivateFolder& folder) : table_(table), folder_(folder) {}

  Result<Conversion> run();

 private:
  // One sheet being written: its rows so far, and its columns' widths.
  struct Sheet {
    lxw_worksheet* sheet = nullptr;
    lxw_row_t rows = 0;
    std::vector<double> widths;
    bool full = false;  // a row was refused: the sheet has no room
  };

  Sheet add_sheet(const char* name, std::span<const std::string_view> header);
  // Starts the next row of `sheet`; false (reported once per sheet, at `at`) when it is full.
  bool next_row(Sheet& sheet, const json::Value& at);
  void text(Sheet& sheet, lxw_col_t col, std::string_view value, const json::Value& at);
  void number(Sheet& sheet, lxw_col_t col, double value, lxw_format* format = nullptr);
  void date(Sheet& sheet, lxw_col_t col, Date value, const json::Value& at);
  void cell(Sheet& sheet, lxw_col_t col, const detail::TableCell& cell, const json::Value& at);
  void finish(Sheet& sheet);
  void check(lxw_error error);

  void write_stories();
  void write_assignments();
  void write_calendar();

  detail::StoryTable& table_;
  const PrivateFolder& folder_;
  lxw_workbook* workbook_ = nullptr;  // closed (and freed) by run()
  lxw_format* bold_ = nullptr;
  lxw_format* date_ = nullptr;
  lxw_format* amount_ = nullptr;
  lxw_error error_ = LXW_NO_ERROR;  // the first a call of libxlsxwriter returned
};

void WorkbookWriter::check(lxw_error error) {
  if (error != LXW_NO_ERROR && error_ == LXW_NO_ERROR) error_ = error;
}

WorkbookWriter::Sheet WorkbookWriter::add_sheet(const char* name, std::span<const std::string_view> header) {
  Sheet sheet{.sheet = workbook_add_worksheet(workbook_, name), .rows = 1, .widths = {}};
  if (sheet.sheet == nullptr) {
    check(LXW_ERROR_MEMORY_MALLOC_FAILED);
    return sheet;
  }
  for (std::size_t c = 0; c < header.size(); ++c) {
    check(worksheet_write_string(sheet.sheet, 0, static_cast<lxw_col_t>(c), std::string(header[c]).c_str(), bold_));
    sheet.widths.push_back(std::max(kMinWidth, static_cast<double>(header[c].size()) + 2));
  }
  worksheet_freeze_panes(sheet.sheet, 1, 0);
  return sheet;
}

bool WorkbookWriter::next_row(Sheet& sheet, const json::Value& at) {
  if (sheet.rows < kSheetRows) {
    ++sheet.rows;
    return true;
  }
  if (!sheet.full)
    table_.report("xlsx-export-rows", at,
                  "the sheet \"" + std::string(sheet.sheet->name) +
                      "\" is full (1,048,576 rows); this row and the "
                      "ones after it are not written");
  sheet.full = true;
  return false;
}

void WorkbookWriter::text(Sheet& sheet, lxw_col_t col, std::string_view value, const json::Value& at) {
  const std::string_view held = cell_text(value);
  if (held.size() < value.size())
    table_.report("xlsx-export-text-length", at,
                  "a text of " + std::to_string(shown_width(value)) + " characters is cut to a cell's 32,767 (row " +
                      std::to_string(sheet.rows) + ")");
  // worksheet_write_string writes a string cell whatever the text: never a formula.
  check(worksheet_write_string(sheet.sheet, sheet.rows - 1, col, std::string(held).c_str(), nullptr));
  sheet.widths[col] = std::max(sheet.widths[col], std::min(kMaxWidth, static_cast<double>(shown_width(held)) + 1));
}

void WorkbookWriter::number(Sheet& sheet, lxw_col_t col, double value, lxw_format* format) {
  check(worksheet_write_number(sheet.sheet, sheet.rows - 1, col, value, format));
}

void WorkbookWriter::date(Sheet& sheet, lxw_col_t col, Date value, const json::Value& at) {
  lxw_datetime when = to_datetime(value);
  if (when.year < 1900) {  // Excel's dates start on 1900-01-01
    table_.report("xlsx-export-date", at,
                  format_date(value) + " is before 1900, where a workbook has no dates; " + "its cell is empty (row " +
                      std::to_string(sheet.rows) + ")");
    return;
  }
  check(worksheet_write_datetime(sheet.sheet, sheet.rows - 1, col, &when, date_));
  sheet.widths[col] = std::max(sheet.widths[col], 12.0);
}

void WorkbookWriter::cell(Sheet& sheet, lxw_col_t col, const detail::TableCell& cell, const json::Value& at) {
  switch (cell.kind) {
    case Kind::Text:
      text(sheet, col, cell.text, at);
      break;
    case Kind::Number:
      // Beyond 15 digits a number cell would round: the digits go in as text (compared on both
      // sides: the magnitude of INT64_MIN is no int64).
      if (cell.number > kExactNumber || cell.number < -kExactNumber)
        text(sheet, col, std::to_string(cell.number), at);
      else
        number(sheet, col, static_cast<double>(cell.number));
      break;
    case Kind::Cents:
      if (cell.number > kExactNumber || cell.number < -kExactNumber)
        text(sheet, col, cents_to_budget(cell.number), at);
      else
        number(sheet, col, static_cast<double>(cell.number) / 100, amount_);
      break;
    case Kind::Date:
      date(sheet, col, cell.date, at);
      break;
    case Kind::Empty:
      break;
  }
}

void WorkbookWriter::finish(Sheet& sheet) {
  for (std::size_t c = 0; c < sheet.widths.size(); ++c)
    check(worksheet_set_column(sheet.sheet, static_cast<lxw_col_t>(c), static_cast<lxw_col_t>(c), sheet.widths[c],
                               nullptr));
}

// The CSV export's header and rows; each row grouped under its parent's (Excel's outline:
// the summary row above its detail, levels 0–7).
void WorkbookWriter::write_stories() {
  std::vector<std::string_view> header;
  for (Column c : table_.columns()) header.push_back(kColumnName[c]);
  Sheet sheet = add_sheet("Stories", header);
  if (sheet.sheet == nullptr) return;
  worksheet_outline_settings(sheet.sheet, LXW_TRUE, LXW_FALSE, LXW_TRUE, LXW_FALSE);
  bool deep_reported = false;
  table_.for_each_row([&](const detail::TableRow& row) {
    const json::Value& at = table_.in_file(row.story.origin.node);
    if (!next_row(sheet, at)) return;
    std::size_t outline = row.level - 1;
    if (outline > kOutlineLevels) {
      if (!deep_reported)
        table_.report("xlsx-export-outline-depth", at,
                      detail::StoryTable::story_name(row.story) + " is nested " + std::to_string(row.level) +
                          " levels deep; a workbook groups rows in at most 8, so it and the stories below level 8 "
                          "are grouped at the deepest (their level column says how deep they are)");
      deep_reported = true;
      outline = kOutlineLevels;
    }
    if (outline > 0) {
      lxw_row_col_options options{.hidden = 0, .level = static_cast<std::uint8_t>(outline), .collapsed = 0};
      check(worksheet_set_row_opt(sheet.sheet, sheet.rows - 1, LXW_DEF_ROW_HEIGHT, nullptr, &options));
    }
    for (std::size_t c = 0; c < table_.columns().size(); ++c)
      cell(sheet, static_cast<lxw_col_t>(c), table_.cell(row, table_.columns()[c]), at);
  });
  finish(sheet);
}

// One row per story's assignment (its temp_id and title beside the assignee's id and name),
// then the template's assignments no story names.
void WorkbookWriter::write_assignments() {
  const Template& model = table_.source().model;
  bool any = !model.assignments.empty();
  for_each_story(model.stories, [&](const Story& story, int) { any = any || story.assignments.has_value(); });
  if (!any) return;
  constexpr std::string_view kHeader[] = {"temp_id", "title", "assignee_id", "assignee"};
  Sheet sheet = add_sheet("Assignments", kHeader);
  if (sheet.sheet == nullptr) return;
  std::vector<bool> named(model.assignments.size(), false);
  auto assignee = [&](std::int64_t id) {
    for (std::size_t i = 0; i < model.assignments.size(); ++i)
      if (model.assignments[i].id == id) {
        named[i] = true;
        return std::optional(model.assignments[i].name);
      }
    return std::optional<std::string_view>();
  };
  for_each_story(model.stories, [&](const Story& story, int) {
    if (!story.assignments) return;
    const json::Value& at = table_.in_file(story.origin.node);
    for (const std::int64_t id : *story.assignments) {
      if (!next_row(sheet, at)) return;
      if (story.temp_id) text(sheet, 0, temp_id_key(*story.temp_id), at);
      if (story.title) text(sheet, 1, *story.title, at);
      number(sheet, 2, static_cast<double>(id));
      if (const auto name = assignee(id)) text(sheet, 3, *name, at);
    }
  });
  for (std::size_t i = 0; i < model.assignments.size(); ++i) {
    if (named[i]) continue;
    const json::Value& at = table_.file().document().root();
    if (!next_row(sheet, at)) break;
    number(sheet, 2, static_cast<double>(model.assignments[i].id));
    text(sheet, 3, model.assignments[i].name, at);
  }
  finish(sheet);
}

// The calendar block, one value a row: its start, its week (the working days' names), each
// holiday and each working date.
void WorkbookWriter::write_calendar() {
  const std::optional<CalendarBlock>& block = table_.source().model.calendar;
  const std::optional<Calendar>& calendar = table_.calendar();
  if (!block && !calendar) return;
  constexpr std::string_view kHeader[] = {"field", "value"};
  Sheet sheet = add_sheet("Calendar", kHeader);
  if (sheet.sheet == nullptr) return;
  const json::Value at = block ? block->node : json::Value();
  auto line = [&](std::string_view field) {
    ++sheet.rows;
    text(sheet, 0, field, at);
  };
  const std::optional<Date> start = calendar ? std::optional(calendar->day_zero()) : block->start;
  if (start) {
    line("start");
    date(sheet, 1, *start, at);
  }
  const std::optional<WorkWeek> week = calendar ? std::optional(calendar->week()) : block->week;
  if (week) {
    std::string names;
    for (std::string_view day : week->names()) names += (names.empty() ? "" : ",") + std::string(day);
    line("week");
    text(sheet, 1, names, at);
  }
  for (const Date holiday : calendar ? calendar->holidays() : std::span<const Date>(block->holidays)) {
    line("holiday");
    date(sheet, 1, holiday, at);
  }
  for (const Date working : calendar ? calendar->working_dates() : std::span<const Date>(block->working)) {
    line("working");
    date(sheet, 1, working, at);
  }
  finish(sheet);
}

Result<Conversion> WorkbookWriter::run() {
  const std::string file = folder_.path() + "/template.xlsx";
  // Constant memory: each row goes to a temporary file as it is finished, so a template of a
  // million stories needs no more memory than one of a hundred; its strings are inline.
  lxw_workbook_options options{
      .constant_memory = LXW_TRUE, .tmpdir = const_cast<char*>(folder_.path().c_str()), .use_zip64 = LXW_TRUE};
  workbook_ = workbook_new_opt(file.c_str(), &options);
  if (workbook_ == nullptr) return Error::output_failed("cannot start a workbook (out of memory)");
  // The creation time in the document's properties is the only part that changes from one run
  // to the next: SOURCE_DATE_EPOCH (reproducible-builds.org) fixes it, so the same template
  // gives the same bytes.
  if (const std::optional<std::int64_t> epoch = source_date_epoch()) {
    lxw_doc_properties properties{};
    properties.created = static_cast<time_t>(*epoch);
    workbook_set_properties(workbook_, &properties);
  }
  bold_ = workbook_add_format(workbook_);
  format_set_bold(bold_);
  date_ = workbook_add_format(workbook_);
  format_set_num_format(date_, "yyyy-mm-dd");
  amount_ = workbook_add_format(workbook_);
  format_set_num_format(amount_, "0.00");
  write_stories();
  write_assignments();
  write_calendar();
  const lxw_error closed = workbook_close(std::exchange(workbook_, nullptr));
  if (error_ != LXW_NO_ERROR)
    return Error::output_failed(std::string("cannot write the workbook: ") + lxw_strerror(error_));
  if (closed != LXW_NO_ERROR)
    return Error::output_failed(std::string("cannot write the workbook: ") + lxw_strerror(closed));
  Result<FileText> bytes = FileText::read(file);
  if (!bytes.ok()) return bytes.error();
  Conversion conversion;
  conversion.document = std::string(bytes.value().text());
  conversion.diagnostics = table_.take_findings();
  return conversion;
}

}  // namespace

Result<Conversion> export_xlsx(std::string_view text, const std::string& path, const ExportOptions& options) {
  if (detect_plan_format(text) != PlanFormat::Template)
    return Error::usage(path + ": --to xlsx writes a template as an Excel workbook; this is not a template (JSON)");
  const TemplateFile file = TemplateFile::parse(path, FileText::borrow(text));
  if (auto error = detail::untabulable(file, "workbook")) return *error;
  Result<PrivateFolder> folder = PrivateFolder::make();
  if (!folder.ok()) return folder.error();
  detail::StoryTable table(file, detail::kWorkbookTable,
                           ConvertOptions{.strict = options.strict, .allow = options.allow}, options.start);
  return WorkbookWriter(table, folder.value()).run();
}

}  // namespace ptmpl
