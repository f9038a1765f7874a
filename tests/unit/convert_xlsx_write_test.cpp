// Template → Excel workbook (export_xlsx, `convert --to xlsx`), checked by independent readers:
// every workbook written here is opened by openpyxl and by LibreOffice (through the helper
// script tests/data/xlsx-write/workbook_rows.py and `soffice --convert-to csv`), and its rows are
// compared with the CSV export of the same template.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "convert/xlsx/workbook.hpp"
#include "convert/xlsx/zip_archive.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/json.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

namespace fs = std::filesystem;
using testing::json_files;
using testing::read_source;
using testing::shell_output;
using testing::source_path;

using Rows = std::vector<std::vector<std::string>>;

bool has_openpyxl() {
  return std::system("/usr/bin/python3 -c 'import openpyxl' >/dev/null 2>&1") == 0;
}
bool has_soffice() {
  return std::system("command -v soffice >/dev/null 2>&1") == 0;
}

#define REQUIRE_OPENPYXL() \
  if (!has_openpyxl()) GTEST_SKIP() << "openpyxl is not installed (python3-openpyxl; scripts/setup.sh)"

// A folder of the test's own, removed afterwards.
class Scratch {
 public:
  Scratch() : path_(fs::path(::testing::TempDir()) / ("xlsx-write-" + std::to_string(::getpid()) + "-" + next())) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~Scratch() { fs::remove_all(path_); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  [[nodiscard]] std::string file(const std::string& name) const { return (path_ / name).string(); }
  [[nodiscard]] const fs::path& path() const { return path_; }

 private:
  static std::string next() {
    static int count = 0;
    return std::to_string(++count);
  }
  fs::path path_;
};

void write_bytes(const std::string& path, std::string_view bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

Conversion xlsx_of(const std::string& text, const std::string& name, const ExportOptions& options = {}) {
  Result<Conversion> converted = export_xlsx(text, name, options);
  EXPECT_TRUE(converted.ok()) << (converted.ok() ? "" : converted.error().message);
  return converted.ok() ? std::move(converted).value() : Conversion{};
}

Rows rows_of(const json::Value& array) {
  Rows rows;
  for (const json::Value& row : array.items()) {
    std::vector<std::string>& cells = rows.emplace_back();
    for (const json::Value& cell : row.items()) cells.emplace_back(cell.text());
  }
  return rows;
}

// What the helper script prints for `files`, parsed (with the text the document views).
class ScriptReading {
 public:
  ScriptReading(const std::string& mode, const std::vector<std::string>& files) {
    std::string command = "/usr/bin/python3 '" + source_path("tests/data/xlsx-write/workbook_rows.py") + "' " + mode;
    for (const std::string& file : files) command += " '" + file + "'";
    text_ = std::make_unique<std::string>(shell_output(command + " 2>&1"));
    doc_ = std::make_unique<json::Document>(json::Document::parse(*text_));
    EXPECT_TRUE(doc_->ok() && doc_->root().is_object()) << command << "\n" << *text_;
  }
  [[nodiscard]] const json::Value& root() const { return doc_->root(); }

 private:
  std::unique_ptr<std::string> text_;
  std::unique_ptr<json::Document> doc_;
};

// The CSV export's rows as the workbook should hold them: the `'` that guards formula-looking
// text in a CSV taken off (a workbook's string cell needs no guard).
Rows unguarded(Rows rows) {
  for (auto& row : rows)
    for (std::string& cell : row)
      if (cell.size() > 1 && cell[0] == '\'' && std::string_view("=+-@\t\r").find(cell[1]) != std::string_view::npos)
        cell.erase(0, 1);
  return rows;
}

// Equal as text, or as numbers (`13.5` and LibreOffice's `13.50`).
bool same_cell(const std::string& a, const std::string& b) {
  if (a == b) return true;
  char* end_a = nullptr;
  char* end_b = nullptr;
  const double x = std::strtod(a.c_str(), &end_a);
  const double y = std::strtod(b.c_str(), &end_b);
  return !a.empty() && !b.empty() && *end_a == '\0' && *end_b == '\0' && x == y;
}

// Rows compared cell by cell; missing trailing cells count as empty (readers differ on them).
void expect_same_rows(const Rows& expected, const Rows& actual, const std::string& what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (std::size_t r = 0; r < expected.size(); ++r) {
    const std::size_t width = std::max(expected[r].size(), actual[r].size());
    for (std::size_t c = 0; c < width; ++c) {
      const std::string e = c < expected[r].size() ? expected[r][c] : "";
      const std::string a = c < actual[r].size() ? actual[r][c] : "";
      EXPECT_TRUE(same_cell(e, a)) << what << " row " << r + 1 << " column " << c + 1 << ": expected \"" << e
                                   << "\", read \"" << a << "\"";
    }
  }
}

// Templates whose workbooks the tests read: every sample, and one with what a CSV drops or
// guards (a calendar with a holiday, assignments, formula-looking text, nesting, amounts).
const char* const kCrafted = R"json({"project_template": {"title": "Crafted", "raw_json": [
  {"title": "=1+1", "temp_id": 1, "relative_start_date": 0, "relative_due_date": 2, "duration": 3,
   "budget_estimate_in_cents": 135050, "tag_list": "a, b", "description": "line one\nline two",
   "assignments": [{"assignee_id": 7}, {"assignee_id": 8}],
   "dependencies": [{"source_id": 1, "target_id": 2, "type": 2, "lag": 2}],
   "sub_stories": [
     {"title": "@SUM(A1:A3)", "temp_id": "build-2", "story_type": "deliverable", "duration": 2,
      "sub_stories": [{"title": "+1", "temp_id": 3, "relative_start_date": -1, "relative_due_date": 5,
                       "time_estimate_in_minutes": 90}]}]},
  {"title": "-2", "temp_id": 2, "story_type": "milestone", "relative_start_date": 9, "relative_due_date": 9}]},
  "project_template_assignments": [{"id": 7, "name": "Designer"}, {"id": 8, "name": "=HYPERLINK(\"x\")"},
                                   {"id": 9, "name": "Reviewer"}],
  "calendar": {"start": "2027-01-04", "week": ["mon", "tue", "wed", "thu", "fri"], "holidays": ["2027-01-06"],
               "working": ["2027-01-09"]}})json";

struct Sample {
  std::string name;  // a path in messages
  std::string text;
};

std::vector<Sample> samples() {
  std::vector<Sample> out;
  for (const std::string& sample : json_files("samples")) out.push_back({sample, read_source(sample)});
  out.push_back({"crafted.json", kCrafted});
  return out;
}

// Each sample's workbook and CSV export, written to `scratch` as NAME.xlsx and NAME.csv.
struct Written {
  std::vector<std::string> workbooks;
  std::vector<std::string> csvs;
};
Written write_samples(const Scratch& scratch, const std::vector<Sample>& all) {
  Written written;
  for (const Sample& sample : all) {
    const std::string stem = fs::path(sample.name).stem().string();
    written.workbooks.push_back(scratch.file(stem + ".xlsx"));
    write_bytes(written.workbooks.back(), xlsx_of(sample.text, sample.name).document);
    Result<Conversion> csv = export_csv(sample.text, sample.name);
    EXPECT_TRUE(csv.ok());
    written.csvs.push_back(scratch.file(stem + ".csv"));
    write_bytes(written.csvs.back(), csv.ok() ? csv.value().document : "");
  }
  return written;
}

// openpyxl: the sheet Stories holds the CSV export's header and rows, with numbers as numbers,
// dates as dates (equal to the CSV's, from the calendar block), text as strings (a title `=1+1`
// too), each row at the outline level below its parent (summary rows above), the header frozen.
TEST(XlsxWrite, OpenpyxlReadsTheCsvExportsRowsWithOutlineDatesAndAFrozenHeader) {
  REQUIRE_OPENPYXL();
  Scratch scratch;
  const std::vector<Sample> all = samples();
  const Written written = write_samples(scratch, all);
  const ScriptReading books("xlsx", written.workbooks);
  const ScriptReading csvs("csv", written.csvs);
  for (std::size_t i = 0; i < all.size(); ++i) {
    SCOPED_TRACE(all[i].name);
    const json::Value* book = books.root().find(written.workbooks[i]);
    ASSERT_NE(book, nullptr);
    const json::Value* stories = book->find("sheets")->find("Stories");
    ASSERT_NE(stories, nullptr);
    EXPECT_EQ(book->find("order")->items().front().text(), "Stories");
    const Rows expected = unguarded(rows_of(*csvs.root().find(written.csvs[i])));
    const Rows rows = rows_of(*stories->find("rows"));
    ASSERT_FALSE(rows.empty());
    EXPECT_EQ(rows.front(), expected.front());  // the header: exactly the CSV's
    expect_same_rows(expected, rows, "Stories");
    EXPECT_EQ(stories->find("freeze")->text(), "A2");
    EXPECT_FALSE(stories->find("summary_below")->as_bool().value_or(true));
    const Rows types = rows_of(*stories->find("types"));
    const auto& header = expected.front();
    for (std::size_t r = 1; r < expected.size(); ++r) {
      const std::int64_t level = std::stoll(expected[r][0]);
      EXPECT_EQ(stories->find("outline")->items()[r].as_int64(), std::min<std::int64_t>(level - 1, 7)) << r;
      for (std::size_t c = 0; c < header.size(); ++c) {
        if (expected[r][c].empty()) {
          EXPECT_EQ(types[r][c], "") << header[c] << " row " << r + 1;
          continue;
        }
        const std::string& column = header[c];
        const bool date = column == "start_date" || column == "due_date";
        const bool number = column == "level" || column == "start" || column == "due" || column == "duration" ||
                            column == "budget" || column == "time_estimate_minutes";
        EXPECT_EQ(types[r][c], date ? "d" : number ? "n" : "s") << column << " row " << r + 1;
      }
    }
  }
  // The crafted template: formula-looking titles are strings that read back as written.
  const json::Value* crafted = books.root().find(written.workbooks.back())->find("sheets")->find("Stories");
  const Rows rows = rows_of(*crafted->find("rows"));
  EXPECT_EQ(rows[1][2], "=1+1");
  EXPECT_EQ(rows[2][2], "@SUM(A1:A3)");
  EXPECT_EQ(rows[3][2], "+1");
  EXPECT_EQ(rows[4][2], "-2");
  EXPECT_EQ(rows[1][5], "2027-01-04");  // start_date: day 0
  EXPECT_EQ(rows[1][7], "2027-01-07");  // due_date: day 2, the 6th a holiday
}

// The sheets beside the stories: each story's assignments (and the template's assignments no
// story names), and the calendar block.
TEST(XlsxWrite, AssignmentsAndCalendarHaveSheetsOfTheirOwn) {
  REQUIRE_OPENPYXL();
  Scratch scratch;
  const std::string path = scratch.file("crafted.xlsx");
  const Conversion conversion = xlsx_of(kCrafted, "crafted.json");
  write_bytes(path, conversion.document);
  const ScriptReading books("xlsx", {path});
  const json::Value& book = *books.root().find(path);
  std::vector<std::string> order;
  for (const json::Value& name : book.find("order")->items()) order.emplace_back(name.text());
  EXPECT_EQ(order, (std::vector<std::string>{"Stories", "Assignments", "Calendar"}));
  const json::Value* assignments = book.find("sheets")->find("Assignments");
  ASSERT_NE(assignments, nullptr);
  EXPECT_EQ(rows_of(*assignments->find("rows")), (Rows{{"temp_id", "title", "assignee_id", "assignee"},
                                                       {"1", "=1+1", "7", "Designer"},
                                                       {"1", "=1+1", "8", R"(=HYPERLINK("x"))"},
                                                       {"", "", "9", "Reviewer"}}));
  EXPECT_EQ(rows_of(*assignments->find("types"))[2], (std::vector<std::string>{"s", "s", "n", "s"}));
  EXPECT_EQ(assignments->find("freeze")->text(), "A2");
  const json::Value* calendar = book.find("sheets")->find("Calendar");
  ASSERT_NE(calendar, nullptr);
  EXPECT_EQ(rows_of(*calendar->find("rows")), (Rows{{"field", "value"},
                                                    {"start", "2027-01-04"},
                                                    {"week", "mon,tue,wed,thu,fri"},
                                                    {"holiday", "2027-01-06"},
                                                    {"working", "2027-01-09"}}));
  EXPECT_EQ(rows_of(*calendar->find("types"))[1][1], "d");
  // Assignments and calendar are written, so only the template's title is a finding.
  for (const Diagnostic& d : conversion.diagnostics) EXPECT_EQ(d.rule, "xlsx-export-template-fields") << d.message;
  // Without assignments or a calendar block there are no such sheets, and no date columns.
  const std::string bare = scratch.file("bare.xlsx");
  write_bytes(bare,
              xlsx_of(R"({"project_template": {"title": "B", "raw_json": [{"title": "A"}]}})", "b.json").document);
  const ScriptReading bare_books("xlsx", {bare});
  EXPECT_EQ(bare_books.root().find(bare)->find("order")->items().size(), 1U);
  EXPECT_EQ(rows_of(*bare_books.root().find(bare)->find("sheets")->find("Stories")->find("rows")).front(),
            (std::vector<std::string>{"level", "temp_id", "title", "type", "start", "due", "duration", "predecessors",
                                      "budget", "time_estimate_minutes", "tags", "description"}));
}

// LibreOffice, in one run for every workbook (it takes seconds to start): each sheet as CSV
// holds what openpyxl reads, and the Stories sheet the CSV export's rows.
TEST(XlsxWrite, LibreOfficeReadsEverySheetAsOpenpyxlDoes) {
  REQUIRE_OPENPYXL();
  if (!has_soffice())
    GTEST_SKIP() << "LibreOffice (soffice) is not installed (libreoffice-calc-nogui; scripts/setup.sh)";
  Scratch scratch;
  const std::vector<Sample> all = samples();
  const Written written = write_samples(scratch, all);
  const std::string out = scratch.file("lo");
  // The CSV filter's options: comma, double quote, UTF-8 (76), from row 1, cells as shown,
  // every sheet (-1: one file each, FILE-SHEET.csv).
  std::string command = "soffice --headless -env:UserInstallation=file://" + scratch.file("profile") +
                        " --convert-to 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1'"
                        " --outdir '" +
                        out + "'";
  for (const std::string& workbook : written.workbooks) command += " '" + workbook + "'";
  shell_output(command + " >/dev/null 2>&1");
  const ScriptReading books("xlsx", written.workbooks);
  const ScriptReading csvs("csv", written.csvs);
  std::vector<std::string> converted;
  std::vector<std::pair<std::size_t, std::string>> sheets;  // (workbook, sheet) of each
  for (std::size_t i = 0; i < written.workbooks.size(); ++i)
    for (const json::Value& sheet : books.root().find(written.workbooks[i])->find("order")->items()) {
      const std::string stem = fs::path(written.workbooks[i]).stem().string();
      converted.push_back(out + "/" + stem + "-" + std::string(sheet.text()) + ".csv");
      sheets.emplace_back(i, sheet.text());
      ASSERT_TRUE(fs::exists(converted.back())) << converted.back() << " (" << command << ")";
    }
  const ScriptReading read("csv", converted);
  for (std::size_t k = 0; k < converted.size(); ++k) {
    const auto& [i, sheet] = sheets[k];
    SCOPED_TRACE(all[i].name + " sheet " + sheet);
    const Rows by_libreoffice = rows_of(*read.root().find(converted[k]));
    const json::Value* by_openpyxl = books.root().find(written.workbooks[i])->find("sheets")->find(sheet);
    expect_same_rows(rows_of(*by_openpyxl->find("rows")), by_libreoffice, "LibreOffice against openpyxl");
    if (sheet == "Stories")
      expect_same_rows(unguarded(rows_of(*csvs.root().find(written.csvs[i]))), by_libreoffice,
                       "LibreOffice against the CSV export");
  }
}

// What a sheet cannot hold is a finding, never silent: a text beyond a cell's 32,767
// characters (cut to them), a date before 1900 (an empty cell; the offset is kept), nesting
// beyond 8 outline levels (grouped at the deepest; the level column keeps the depth), and a
// story key without a column.
TEST(XlsxWrite, WhatAWorkbookCannotHoldIsAFinding) {
  REQUIRE_OPENPYXL();
  std::string nested = R"({"title": "L10", "temp_id": 10})";
  for (int level = 9; level >= 1; --level)
    nested = R"({"title": "L)" + std::to_string(level) + R"(", "temp_id": )" + std::to_string(level) +
             R"(, "sub_stories": [)" + nested + "]}";
  std::string long_text;
  for (int i = 0; i < 20000; ++i) long_text += "\xC3\xA9";  // é: 2 bytes, 1 character
  long_text += std::string(20000, 'x');
  const std::string doc = R"({"project_template": {"title": "Limits", "raw_json": [)" + nested +
                          R"(, {"title": "Long", "temp_id": 11, "description": ")" + long_text +
                          R"(", "relative_start_date": -30, "checklist": ["a"]}]},
    "calendar": {"start": "1900-01-10"}})";
  const Conversion conversion = xlsx_of(doc, "limits.json");
  std::map<std::string, int> count;
  for (const Diagnostic& d : conversion.diagnostics) ++count[d.rule];
  EXPECT_EQ(count["xlsx-export-text-length"], 1);
  EXPECT_EQ(count["xlsx-export-date"], 1);  // day -30 is in 1899
  EXPECT_EQ(count["xlsx-export-outline-depth"], 1);
  EXPECT_EQ(count["xlsx-export-dropped-field"], 1);
  Scratch scratch;
  const std::string path = scratch.file("limits.xlsx");
  write_bytes(path, conversion.document);
  const ScriptReading books("xlsx", {path});
  const json::Value& stories = *books.root().find(path)->find("sheets")->find("Stories");
  const Rows rows = rows_of(*stories.find("rows"));
  ASSERT_EQ(rows.size(), 12U);
  EXPECT_EQ(rows[10][0], "10");                                   // the level column keeps the depth
  EXPECT_EQ(stories.find("outline")->items()[10].as_int64(), 7);  // grouped at the deepest
  EXPECT_EQ(rows[11][13].size(), 20000U * 2 + 12767);             // 32,767 characters, in UTF-8
  EXPECT_EQ(rows[11][4], "-30");                                  // the offset is kept
  EXPECT_EQ(rows[11][5], "");                                     // its date is not
  // Under --strict, each is an error.
  ExportOptions strict_options;
  strict_options.strict = true;
  Result<Conversion> strict = export_xlsx(doc, "limits.json", strict_options);
  ASSERT_TRUE(strict.ok());
  for (const Diagnostic& d : strict.value().diagnostics) EXPECT_EQ(d.severity, Severity::Error) << d.rule;
}

// `--start` gives the dates of a template whose calendar block has none.
TEST(XlsxWrite, StartGivesTheDateColumns) {
  const std::string doc =
      R"({"project_template": {"title": "S", "raw_json": [{"title": "A", "relative_start_date": 1}]}})";
  ExportOptions options;
  options.start = *parse_date("2027-03-05");  // a Friday: day 1 is Monday the 8th
  const Conversion conversion = xlsx_of(doc, "s.json", options);
  REQUIRE_OPENPYXL();
  Scratch scratch;
  const std::string path = scratch.file("s.xlsx");
  write_bytes(path, conversion.document);
  const ScriptReading books("xlsx", {path});
  const Rows rows = rows_of(*books.root().find(path)->find("sheets")->find("Stories")->find("rows"));
  ASSERT_EQ(rows.size(), 2U);
  EXPECT_EQ(rows[0][5], "start_date");
  EXPECT_EQ(rows[1][5], "2027-03-08");
}

// An offset of INT64_MIN has more than 15 digits: it goes in as text, as its positive twin does.
TEST(XlsxWrite, SmallestOffsetGoesInAsText) {
  const std::string doc = R"({"project_template": {"title": "S", "raw_json": [{"title": "A", )"
                          R"("relative_start_date": -9223372036854775808}]}})";
  const Conversion conversion = xlsx_of(doc, "min.json");
  auto workbook = detail::xlsx::Workbook::open(conversion.document, "min.xlsx");
  ASSERT_TRUE(workbook.ok()) << workbook.error().message;
  const auto sheet = workbook.value().sheet(0);
  ASSERT_TRUE(sheet.ok()) << sheet.error().message;
  bool found = false;
  for (const auto& row : sheet.value().rows)
    for (const auto& cell : row.cells)
      found = found || (cell.kind == detail::xlsx::Cell::Kind::Text && cell.text == "-9223372036854775808");
  EXPECT_TRUE(found);
}

TEST(XlsxWrite, RefusesWhatIsNoTemplate) {
  const Result<Conversion> plan = export_xlsx("<Project/>", "plan.xml");
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.error().code, ErrorCode::kUsage);
  const std::string envelope =
      R"({"count": 2, "results": [{"key": "project_templates", "id": 1}, {"key": "project_templates", "id": 2}],
    "project_templates": {
    "1": {"id": 1, "title": "A", "raw_json": "[]"}, "2": {"id": 2, "title": "B", "raw_json": "[]"}}})";
  const Result<Conversion> two = export_xlsx(envelope, "e.json");
  ASSERT_FALSE(two.ok());
  EXPECT_EQ(two.error().message, "e.json: not one template (2 found); ptmpl writes one template per workbook");
}

class CliConvertXlsx : public testing::CliScratchTest {};

// -o NAME.xlsx chooses the format; standard output takes the bytes when it is a pipe, and a
// terminal is refused. With SOURCE_DATE_EPOCH both are the same bytes (the creation time in
// the document's properties is the only part that changes from one run to the next).
TEST_F(CliConvertXlsx, WritesAWorkbookToAFileOrAPipeButNotATerminal) {
  const std::string out = (dir_ / "software-release.xlsx").string();
  const std::string epoch = "SOURCE_DATE_EPOCH=1700000000";
  const auto r = ptmpl("convert samples/software-release.json -o '" + out + "'", epoch);
  EXPECT_EQ(r.exit, 0) << r.err;
  const std::string written = read_file(out);
  ASSERT_GT(written.size(), 4U);
  EXPECT_EQ(written.substr(0, 4), std::string("PK\x03\x04", 4));
  const auto piped = ptmpl("convert --to xlsx samples/software-release.json", epoch);
  EXPECT_EQ(piped.exit, 0) << piped.err;
  EXPECT_EQ(piped.out, written);
  const auto zip = detail::xlsx::ZipArchive::open(written, out);
  ASSERT_TRUE(zip.ok()) << zip.error().message;
  const auto core = zip.value().read("docProps/core.xml");
  ASSERT_TRUE(core.ok()) << core.error().message;
  EXPECT_NE(core.value().find("<dcterms:created xsi:type=\"dcterms:W3CDTF\">2023-11-14T22:13:20Z<"), std::string::npos)
      << core.value();
  EXPECT_EQ(piped.out.substr(0, 4), std::string("PK\x03\x04", 4));
  const std::string terminal =
      testing::run_ptmpl_on_terminal("convert --to xlsx samples/software-release.json; echo exit=\\$?", "NO_COLOR=1");
  expect_has(terminal, "--to xlsx writes a binary workbook");
  expect_has(terminal, "exit=2");
  expect_lacks(terminal, "PK");
}

}  // namespace
}  // namespace ptmpl
