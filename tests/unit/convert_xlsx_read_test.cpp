// Reading Excel workbooks (convert/xlsx/): the zip archive, the workbook's parts, the three
// layouts of a plan sheet, and hostile archives. Every workbook is made by a writer other than
// ptmpl (tests/data/xlsx/make_fixtures.py; SOURCES.md): each test names it.
#include <gtest/gtest.h>
#include <zip.h>

#include <chrono>
#include <string>
#include <vector>

#include "convert/findings.hpp"
#include "convert/xlsx/plan_sheet.hpp"
#include "convert/xlsx/workbook.hpp"
#include "convert/xlsx/xlsx.hpp"
#include "convert/xlsx/zip_archive.hpp"
#include "convert_support.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/model.hpp"
#include "libtemplate/core/template_file.hpp"
#include "test_files.hpp"

namespace ptmpl::convert_xlsx_read_test {
namespace {

using detail::xlsx::date_of_serial;
using plan::cell_reference;
using testing::expect_converted;
using testing::read_source;

struct Converted {
  std::string path;
  std::string bytes;
  Result<Conversion> result;

  explicit Converted(const std::string& name, ConvertOptions options = {})
      : path("tests/data/xlsx/" + name), bytes(read_source(path)), result(detail::convert_xlsx(bytes, path, options)) {}

  // "depth title" of each story in tree order, with its start offset and duration.
  [[nodiscard]] std::vector<std::string> outline() const {
    std::vector<std::string> out;
    if (!result.ok()) return {result.error().message};
    const TemplateFile file = TemplateFile::parse(path, FileText(result.value().document));
    if (file.templates().empty()) return {"no template"};
    for_each_story_indexed(file.templates().front().model.stories,
                           [&](const Story& story, std::size_t, std::size_t, std::size_t depth) {
                             std::string line = std::string(depth * 2, ' ') + std::string(story.title.value_or("?"));
                             if (story.relative_start_date) line += " @" + std::to_string(*story.relative_start_date);
                             if (story.duration) line += " d" + std::to_string(*story.duration);
                             for (const Dependency& d : story.dependencies)
                               line += " ->" + std::to_string(d.target_id ? temp_id_key(*d.target_id).size() : 0) +
                                       ":" + (d.target_id ? temp_id_key(*d.target_id) : "") + "/t" +
                                       std::to_string(d.type.value_or(-1)) + "/l" + std::to_string(d.lag.value_or(0));
                             out.push_back(line);
                           });
    return out;
  }
  // The findings, one line each: "rule: message".
  [[nodiscard]] std::vector<std::string> findings() const {
    std::vector<std::string> out;
    if (result.ok())
      for (const Diagnostic& d : result.value().diagnostics) out.push_back(d.rule + ": " + d.message);
    return out;
  }
  [[nodiscard]] bool has_finding(std::string_view rule, std::string_view text) const {
    for (const std::string& f : findings())
      if (f.starts_with(rule) && f.find(text) != std::string::npos) return true;
    return false;
  }
};

std::string all(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

TEST(ConvertXlsxRead, CellReferences) {
  EXPECT_EQ(cell_reference(17, 1), "B17");
  EXPECT_EQ(cell_reference(1, 25), "Z1");
  EXPECT_EQ(cell_reference(1, 26), "AA1");
  EXPECT_EQ(cell_reference(1048576, 16383), "XFD1048576");
}

TEST(ConvertXlsxRead, SerialsInBothDateSystems) {
  auto date = [](double serial, bool date1904) {
    const auto d = date_of_serial(serial, date1904);
    return d ? format_date(d->date) + " " + std::to_string(d->minute) : std::string("none");
  };
  EXPECT_EQ(date(1, false), "1900-01-01 0");
  EXPECT_EQ(date(59, false), "1900-02-28 0");
  EXPECT_EQ(date(60, false), "none");  // 1900-02-29, the leap-year bug
  EXPECT_EQ(date(61, false), "1900-03-01 0");
  EXPECT_EQ(date(45705.5, false), "2025-02-17 720");
  EXPECT_EQ(date(0, true), "1904-01-01 0");
  EXPECT_EQ(date(44299, true), "2025-04-14 0");
  EXPECT_EQ(date(0, false), "none");
  EXPECT_EQ(date(3e6, false), "none");
}

TEST(ConvertXlsxRead, DateFormats) {
  using detail::xlsx::is_date_format;
  EXPECT_TRUE(is_date_format(14, ""));
  EXPECT_TRUE(is_date_format(164, "yyyy-mm-dd"));
  EXPECT_TRUE(is_date_format(165, "[$-409]d mmm yyyy;@"));
  EXPECT_FALSE(is_date_format(166, "0.00\"days\""));
  EXPECT_FALSE(is_date_format(167, "[h]:mm"));
  EXPECT_FALSE(is_date_format(2, ""));
}

// openpyxl 3.0.9: a generic plan sheet after a sheet without one; inline strings; header on row 3.
TEST(ConvertXlsxRead, GenericSheetWithWbsCodes) {
  const Converted c("openpyxl_generic.xlsx");
  ASSERT_TRUE(c.result.ok()) << c.result.error().message;
  EXPECT_EQ(all(c.outline()),
            "Prepare @0 d8\n"
            "  Survey @0 d5 ->1:3/t2/l0\n"
            "  Plan seating @5 d3 ->1:4/t2/l1\n"
            "Move\n")  // its Duration is a formula without a value
      << all(c.findings());
  EXPECT_TRUE(c.has_finding("xlsx-column-unmapped", "\"Actual Start\" is not one ptmpl maps")) << all(c.findings());
  EXPECT_TRUE(c.has_finding("xlsx-column-unmapped", "(sheet Plan, cell I3)")) << all(c.findings());
  EXPECT_TRUE(c.has_finding("xlsx-cell-invalid", "\"n/a\", not an amount (sheet Plan, cell H7)")) << all(c.findings());
  EXPECT_TRUE(c.has_finding("xlsx-cell-invalid", "formula without a value")) << all(c.findings());
  EXPECT_TRUE(c.has_finding("xlsx-cell-invalid", "cell E7")) << all(c.findings());
}

// openpyxl 3.0.9, synthesized in MS Project's "export to Excel" layout (no MS Project here).
TEST(ConvertXlsxRead, MsProjectTaskTable) {
  const Converted c("openpyxl_task_table.xlsx");
  ASSERT_TRUE(c.result.ok()) << c.result.error().message;
  const std::string outline = all(c.outline());
  EXPECT_NE(outline.find("Build @0"), std::string::npos) << outline;
  EXPECT_NE(outline.find("  Design @0 d1"), std::string::npos) << outline;  // 0.75d
  EXPECT_NE(outline.find("  Review"), std::string::npos) << outline;        // 6h, Mon 2/17/25
  EXPECT_NE(outline.find("Ship @6 d451"), std::string::npos) << outline;    // 451d?, a date cell
  EXPECT_NE(outline.find("->1:5/t0/l-1"), std::string::npos) << outline;    // 4SS-1d: Ship after Write
  EXPECT_NE(outline.find("->1:4/t2/l2"), std::string::npos) << outline;     // 3FS+2 days: Write after Review
  EXPECT_FALSE(c.has_finding("xlsx-cell-invalid", "")) << all(c.findings());
  EXPECT_FALSE(c.has_finding("xlsx-column-unmapped", "")) << all(c.findings());
}

// openpyxl 3.0.9: hierarchy from the rows' outline grouping, and (sheet Levels) one column per level.
TEST(ConvertXlsxRead, OutlineGroupingAndLevelColumns) {
  const Converted grouped("openpyxl_grouped.xlsx");
  std::string titles;
  for (const std::string& line : grouped.outline()) titles += line.substr(0, line.find(" @")) + "\n";
  EXPECT_EQ(titles, "Phase A\n  A1\n    A1a\n  A2\nPhase B\n");
  ConvertOptions options;
  options.sheet = "Levels";
  const Converted levels("openpyxl_grouped.xlsx", options);
  EXPECT_EQ(all(levels.outline()), "Design\n  Sketch\n    Pencil\nBuild\n");
  EXPECT_TRUE(levels.has_finding("xlsx-column-unmapped", "\"Mystery\" is not one ptmpl maps"))
      << all(levels.findings());
  EXPECT_TRUE(levels.has_finding("xlsx-column-unmapped", "(sheet Levels, cell E1)")) << all(levels.findings());
}

TEST(ConvertXlsxRead, UnknownSheetIsAUsageErrorListingTheSheets) {
  ConvertOptions options;
  options.sheet = "Nope";
  const Converted c("openpyxl_grouped.xlsx", options);
  ASSERT_FALSE(c.result.ok());
  EXPECT_EQ(c.result.error().code, ErrorCode::kUsage);
  EXPECT_EQ(c.result.error().message,
            "tests/data/xlsx/openpyxl_grouped.xlsx: no sheet is named \"Nope\"; the workbook's sheets: \"Grouped\", "
            "\"Levels\"");
}

// LibreOffice Calc 7.4 from libreoffice_1904.fods: the 1904 date system, shared strings, formulas
// with cached values (Cure's start is =B2+7, its duration =C2+1).
TEST(ConvertXlsxRead, LibreOffice1904AndFormulas) {
  const Converted c("libreoffice_1904.xlsx");
  ASSERT_TRUE(c.result.ok()) << c.result.error().message;
  const std::string outline = all(c.outline());
  EXPECT_NE(outline.find("Pour @0 d2"), std::string::npos) << outline;
  EXPECT_NE(outline.find("Cure @5 d3"), std::string::npos) << outline;
  ASSERT_TRUE(c.result.value().day_zero);
  EXPECT_EQ(format_date(*c.result.value().day_zero), "2025-04-07");
}

// openpyxl 3.0.9: serials 59, 60, 61 and 1 in date-styled cells (the 1900 system).
TEST(ConvertXlsxRead, SerialSixtyIsAFinding) {
  const Converted c("openpyxl_serials.xlsx");
  ASSERT_TRUE(c.result.ok()) << c.result.error().message;
  EXPECT_TRUE(c.has_finding("xlsx-cell-invalid", "1900-02-29, a day that never was")) << all(c.findings());
  EXPECT_TRUE(c.has_finding("xlsx-cell-invalid", "(sheet Dates, cell B3)")) << all(c.findings());
  ASSERT_TRUE(c.result.value().day_zero);
  EXPECT_EQ(format_date(*c.result.value().day_zero), "1900-01-01");
}

// openpyxl 3.0.9: ptmpl's own layout (sheet Stories), read through the CSV reader's columns.
TEST(ConvertXlsxRead, OwnLayoutThroughTheCsvColumns) {
  const Converted c("openpyxl_export.xlsx");
  ASSERT_TRUE(c.result.ok()) << c.result.error().message;
  EXPECT_EQ(all(c.outline()), "Design @0 d5 ->1:3/t2/l1\n  Sketch @0 d2\nBuild @5\n");
  EXPECT_NE(c.result.value().document.find("\"budget_estimate_in_cents\": 150050"), std::string::npos)
      << c.result.value().document;
  EXPECT_TRUE(c.has_finding("xlsx-column-unmapped",
                            "\"colour\" is not one ptmpl reads; it is ignored (sheet Stories, cell O1)"))
      << all(c.findings());
}

// The workbook of ../shared/corpus/xlsx (openpyxl 3.1.5; SOURCES.md): sheet WBS_TaskPlan is the
// first that holds a plan; its WBS IDs (T001) are the keys its Dependencies name.
TEST(ConvertXlsxRead, CorpusWorkbook) {
  const Converted c("corpus_hybrid_project_plan.xlsx");
  ASSERT_TRUE(c.result.ok()) << c.result.error().message;
  const std::vector<std::string> outline = c.outline();
  ASSERT_EQ(outline.size(), 12U) << all(outline);
  EXPECT_NE(outline[1].find("->"), std::string::npos) << all(outline);
  EXPECT_TRUE(c.has_finding("xlsx-column-unmapped", "(sheet WBS_TaskPlan, cell G1)")) << all(c.findings());
}

// Hostile archives (made from openpyxl's and LibreOffice's output by make_fixtures.py).
TEST(ConvertXlsxRead, NotAZip) {
  const Converted c("not_a_zip.xlsx");
  ASSERT_FALSE(c.result.ok());
  EXPECT_EQ(c.result.error().code, ErrorCode::kInvalid);
  EXPECT_NE(c.result.error().message.find("not_a_zip.xlsx: not a workbook"), std::string::npos)
      << c.result.error().message;
  // Bytes that start as a workbook's zip but are none: told by content as a workbook, refused.
  const std::string cut_short("PK\x03\x04xl/workbook.xml", 19);
  ASSERT_EQ(detect_plan_format(cut_short), PlanFormat::Xlsx);
  auto refused = convert_plan(cut_short, "plan.xlsx");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kInvalid);
  EXPECT_EQ(refused.error().message, "plan.xlsx: not a workbook (an .xlsx file is a zip archive): Not a zip archive");
}

TEST(ConvertXlsxRead, EntryNamedDotDotIsNeverAPath) {
  const Converted c("hostile_dotdot.xlsx");
  ASSERT_TRUE(c.result.ok()) << c.result.error().message;
  EXPECT_EQ(c.outline().size(), 3U);
}

TEST(ConvertXlsxRead, DeclaredGigabyteIsNotTrusted) {
  // The sheet's entry declares 1 GiB and holds 662 bytes that inflate to a few KiB. The declared
  // size sizes the first buffer only as far as 662 bytes can inflate (1,032 times): the part is
  // read in chunks up to the cap, and libzip 1.7.3
  // gives the real data, so the workbook converts (in a few MiB of memory).
  const Converted c("hostile_declared_1gb.xlsx");
  ASSERT_TRUE(c.result.ok()) << c.result.error().message;
  EXPECT_EQ(c.outline().size(), 3U);
}

TEST(ConvertXlsxRead, ZipBombStopsAtTheCap) {
  const std::string bytes = read_source("tests/data/xlsx/hostile_bomb.xlsx");
  auto zip = detail::xlsx::ZipArchive::open(bytes, "bomb.xlsx");
  ASSERT_TRUE(zip.ok());
  const auto read = zip.value().read("xl/worksheets/sheet1.xml", std::size_t{1} << 20);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().message,
            "bomb.xlsx: the part xl/worksheets/sheet1.xml inflates to more than 1 MiB, more than ptmpl reads of one "
            "part (a damaged file or a zip bomb)");
  EXPECT_TRUE(zip.value().read("XL/WORKBOOK.XML").ok());  // part names are case-insensitive
}

TEST(ConvertXlsxRead, SharedStringOutOfRangeIsAFinding) {
  const Converted c("hostile_shared_string.xlsx");
  ASSERT_TRUE(c.result.ok()) << c.result.error().message;
  EXPECT_TRUE(c.has_finding("xlsx-cell-invalid", "names the shared string 999, but the workbook has"))
      << all(c.findings());
  EXPECT_TRUE(c.has_finding("xlsx-cell-invalid", "(sheet Schedule, cell A2)")) << all(c.findings());
}

// A sheet built in memory: a header row and one task row, text cells in the given columns.
struct OneTask {
  plan::Plan plan;
  std::vector<std::string> problems;

  OneTask(const std::vector<std::string>& header, const std::vector<detail::xlsx::Cell>& cells) {
    detail::xlsx::Sheet sheet;
    sheet.name = "Tasks";
    detail::xlsx::Row top;
    top.number = 1;
    for (std::size_t i = 0; i < header.size(); ++i)
      top.cells.push_back({i, detail::xlsx::Cell::Kind::Text, 0, header[i]});
    detail::xlsx::Row row;
    row.number = 2;
    row.cells = cells;
    sheet.rows = {top, row};
    const auto found = detail::xlsx::find_plan_header(sheet);
    if (!found) throw std::runtime_error("no header");
    ConvertOptions options;
    const std::string path = "t.xlsx";  // the sink keeps a reference to its path
    detail::FindingSink findings({}, path, options);
    plan.source = plan::Source::excel();
    detail::xlsx::read_plan_sheet(sheet, *found, false, plan, findings);
    for (const Diagnostic& d : findings.take()) problems.push_back(d.rule + ": " + d.message);
  }
};

detail::xlsx::Cell text_cell(std::size_t column, std::string text) {
  return {column, detail::xlsx::Cell::Kind::Text, 0, std::move(text)};
}

TEST(ConvertXlsxRead, BlankOrQuestionMarkDurationIsNoDuration) {
  for (const char* written : {"   ", "?", " ? "}) {
    const OneTask t({"Name", "Duration", "Work"}, {text_cell(0, "A"), text_cell(1, written), text_cell(2, written)});
    ASSERT_EQ(t.plan.tasks.size(), 1U);
    EXPECT_FALSE(t.plan.tasks[0].duration) << written;
    EXPECT_FALSE(t.plan.tasks[0].work) << written;
  }
}

TEST(ConvertXlsxRead, TextDatesOutOfRangeAreNotDates) {
  for (const char* written : {"257/1/2025", "1/257/2025", "1/1/67561", "2/30/2025", "13/1/2025"}) {
    const OneTask t({"Name", "Start"}, {text_cell(0, "A"), text_cell(1, written)});
    ASSERT_EQ(t.plan.tasks.size(), 1U);
    EXPECT_FALSE(t.plan.tasks[0].start) << written;
  }
}

TEST(ConvertXlsxRead, CostsWithDecimalCommasAndCurrencySigns) {
  const std::pair<const char*, double> cases[] = {{"12,5", 1250},
                                                  {"1.234,56", 123456},
                                                  {"1,234.56", 123456},
                                                  {"\xE2\x82\xAC 7", 700},
                                                  {"1,234", 123400},
                                                  {"\xC2\xA3"
                                                   "3,50",
                                                   350}};
  for (const auto& [written, cents] : cases) {
    const OneTask t({"Name", "Cost"}, {text_cell(0, "A"), text_cell(1, written)});
    ASSERT_EQ(t.plan.tasks.size(), 1U);
    ASSERT_TRUE(t.plan.tasks[0].cost) << written;
    EXPECT_DOUBLE_EQ(*t.plan.tasks[0].cost, cents) << written;
  }
  // A sign that is not a currency's (U+20AD shares its first two bytes with the euro's) stays.
  const OneTask kip({"Name", "Cost"}, {text_cell(0, "A"), text_cell(1,
                                                                    "\xE2\x82\xAD"
                                                                    "5")});
  EXPECT_FALSE(kip.plan.tasks[0].cost);
}

TEST(ConvertXlsxRead, FinishAtAnExplicitMidnightIsKept) {
  const OneTask text({"Name", "Finish"}, {text_cell(0, "A"), text_cell(1, "2025-02-17 00:00")});
  ASSERT_TRUE(text.plan.tasks[0].finish);
  EXPECT_EQ(text.plan.tasks[0].finish->minute, 0);
  const OneTask day({"Name", "Finish"}, {text_cell(0, "A"), text_cell(1, "2025-02-17")});
  EXPECT_EQ(day.plan.tasks[0].finish->minute, 24 * 60);
  // 45705.9999 rounds up to 2025-02-18 00:00: the end of the 17th, not of the 18th.
  detail::xlsx::Cell serial{1, detail::xlsx::Cell::Kind::Number, 45705.9999, ""};
  serial.date = true;
  const OneTask rounded({"Name", "Finish"}, {text_cell(0, "A"), serial});
  ASSERT_TRUE(rounded.plan.tasks[0].finish);
  EXPECT_EQ(format_date(rounded.plan.tasks[0].finish->date), "2025-02-18");
  EXPECT_EQ(rounded.plan.tasks[0].finish->minute, 0);
}

TEST(ConvertXlsxRead, SerialRoundingPastTheLastDayIsNoDate) {
  EXPECT_FALSE(date_of_serial(2958465.9999, false));
  EXPECT_TRUE(date_of_serial(2958465.5, false));
}

// A workbook of one sheet named Tasks whose part is `sheet`, and the shared strings part
// `strings` unless empty, zipped in memory (libzip, stored).
std::string workbook_with_sheet(const std::string& sheet, const std::string& strings = "") {
  const std::vector<std::pair<const char*, std::string>> parts = {
      {"xl/workbook.xml", R"(<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" )"
                          R"(xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">)"
                          R"(<sheets><sheet name="Tasks" sheetId="1" r:id="rId1"/></sheets></workbook>)"},
      {"xl/_rels/workbook.xml.rels",
       R"(<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" )"
       R"(Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" )"
       R"(Target="worksheets/sheet1.xml"/><Relationship Id="rId2" )"
       R"(Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" )"
       R"(Target="sharedStrings.xml"/></Relationships>)"},
      {"xl/sharedStrings.xml", strings.empty() ? "<sst/>" : strings},
      {"xl/worksheets/sheet1.xml", sheet}};
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* buffer = zip_source_buffer_create(nullptr, 0, 0, &error);
  zip_t* zip = zip_open_from_source(buffer, ZIP_TRUNCATE, &error);
  zip_source_keep(buffer);
  for (const auto& [name, text] : parts)
    zip_file_add(zip, name, zip_source_buffer(zip, text.data(), text.size(), 0), ZIP_FL_OVERWRITE);
  zip_close(zip);
  zip_source_open(buffer);
  zip_source_seek(buffer, 0, SEEK_END);
  std::string out(static_cast<std::size_t>(zip_source_tell(buffer)), '\0');
  zip_source_seek(buffer, 0, SEEK_SET);
  zip_source_read(buffer, out.data(), out.size());
  zip_source_close(buffer);
  zip_source_free(buffer);
  return out;
}

// A workbook whose sheet's sheetData is `rows`.
std::string workbook_of(const std::string& rows) {
  return workbook_with_sheet(
      R"(<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>)" + rows +
      "</sheetData></worksheet>");
}

Result<detail::xlsx::Sheet> sheet_of(const std::string& bytes) {
  auto workbook = detail::xlsx::Workbook::open(bytes, "w.xlsx");
  if (!workbook.ok()) return workbook.error();
  return workbook.value().sheet(0);
}

TEST(ConvertXlsxRead, CellsWrittenRightToLeftAreSortedOnceTheLaterWinning) {
  std::string row = R"(<row r="1">)";
  for (std::size_t column = 16'384; column-- > 0;)
    row += R"(<c r=")" + plan::cell_reference(1, column) + R"("><v>)" + std::to_string(column) + "</v></c>";
  row += R"(<c r="B1"><v>-1</v></c></row>)";
  const std::string bytes = workbook_of(row);
  const auto started = std::chrono::steady_clock::now();
  const auto sheet = sheet_of(bytes);
  const auto took = std::chrono::steady_clock::now() - started;
  ASSERT_TRUE(sheet.ok()) << sheet.error().message;
  const auto& cells = sheet.value().rows.at(0).cells;
  ASSERT_EQ(cells.size(), 16'384U);
  for (std::size_t i = 0; i < cells.size(); ++i) ASSERT_EQ(cells[i].column, i);
  EXPECT_EQ(cells[1].number, -1);  // written twice: the later cell
  EXPECT_EQ(cells[16'383].number, 16'383);
  EXPECT_LT(took, std::chrono::seconds(2));
}

TEST(ConvertXlsxRead, CellsWithoutReferencePastXfdAreAnError) {
  std::string row = R"(<row><c r="XFC1"><v>1</v></c><c><v>2</v></c><c><v>3</v></c></row>)";
  const auto sheet = sheet_of(workbook_of(row));
  ASSERT_FALSE(sheet.ok());
  EXPECT_NE(sheet.error().message.find("(sheet Tasks, row 1)"), std::string::npos) << sheet.error().message;
  EXPECT_NE(sheet.error().message.find("after column XFD"), std::string::npos) << sheet.error().message;
}

// The sheet is read a token at a time (XmlPull): prefixed elements, inline strings of runs
// without their phonetic guides, references and `_xHHHH_` escapes, line ends, elements the
// reader does not know, and rows and cells without references.
TEST(ConvertXlsxRead, SheetMarkupAsWritersVaryIt) {
  const std::string sheet =
      R"(<?xml version="1.0" encoding="UTF-8" standalone="yes"?>)"
      "\n<x:worksheet xmlns:x=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">\n"
      "  <x:sheetPr><x:outlinePr summaryBelow=\"0\"/></x:sheetPr>\n  <x:sheetData>\n"
      "    <x:row r=\"2\" outlineLevel=\"1\" hidden=\"true\"><x:c r=\"A2\" t=\"inlineStr\"><x:is><x:r><x:t>Fish "
      "</x:t></x:r>"
      "<x:r><x:t>&amp; chips</x:t></x:r><x:rPh><x:t>furigana</x:t></x:rPh></x:is></x:c>\n"
      "      <x:c "
      "t=\"str\"><x:f>A2</x:f><x:v>a_x000D_b\r\nc</x:v></x:c><x:c><x:v>&#x33;.5</x:v></x:c><x:c><x:f>1/0</x:f></x:c>"
      "<x:c t=\"e\"><x:v>#DIV/0!</x:v></x:c></x:row>\n"
      "    <x:row><x:c r=\"C3\" t=\"b\"><x:v>1</x:v></x:c><x:c><x:v><![CDATA[7]]></x:v></x:c></x:row>\n"
      "  </x:sheetData>\n  <x:mergeCells count=\"1\"><x:mergeCell ref=\"A1:B1\"/></x:mergeCells>\n</x:worksheet>\n";
  const auto read = sheet_of(workbook_with_sheet(sheet));
  ASSERT_TRUE(read.ok()) << read.error().message;
  const auto& rows = read.value().rows;
  ASSERT_EQ(rows.size(), 2U);
  EXPECT_EQ(rows[0].number, 2U);
  EXPECT_EQ(rows[0].outline, 1);
  EXPECT_TRUE(rows[0].hidden);
  ASSERT_EQ(rows[0].cells.size(), 3U);
  EXPECT_EQ(rows[0].cells[0].text, "Fish & chips");
  EXPECT_EQ(rows[0].cells[1].text, "a\rb\nc");
  EXPECT_EQ(rows[0].cells[1].column, 1U);
  EXPECT_EQ(rows[0].cells[2].number, 3.5);
  EXPECT_EQ(rows[0].cells[2].column, 2U);
  ASSERT_EQ(read.value().problems.size(), 2U);
  EXPECT_EQ(read.value().problems[0].column, 3U);
  EXPECT_NE(read.value().problems[0].message.find("formula without a value"), std::string::npos);
  EXPECT_EQ(read.value().problems[1].message, "holds the error #DIV/0!");
  EXPECT_EQ(rows[1].number, 3U);
  ASSERT_EQ(rows[1].cells.size(), 2U);
  EXPECT_EQ(rows[1].cells[0].kind, detail::xlsx::Cell::Kind::Boolean);
  EXPECT_EQ(rows[1].cells[1].column, 3U);
  EXPECT_EQ(rows[1].cells[1].number, 7);
}

// docs/robustness.md, "Excel": a sheet that is not well-formed XML is an error at its place in
// the part; a sheet in UTF-16 is read as one in UTF-8.
TEST(ConvertXlsxRead, SheetNotWellFormedIsAnErrorAtItsPlaceAndUtf16IsRead) {
  const auto broken = sheet_of(workbook_of("<row r=\"1\"><c r=\"A1\"><v>1</v></row>"));
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.error().message,
            "w.xlsx (xl/worksheets/sheet1.xml):1:118: not well-formed XML: a closing tag </row> where </c> closes "
            "the open element");
  const std::string utf8 = R"(<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>caf)"
                           "\xC3\xA9</t></is></c></row></sheetData></worksheet>";
  std::string utf16 = "\xFE\xFF";  // big-endian, as a byte order mark says
  for (const char c : std::string(R"(<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>caf)"
                                  "\xE9</t></is></c></row></sheetData></worksheet>")) {
    utf16 += '\0';
    utf16 += c;
  }
  const auto read = sheet_of(workbook_with_sheet(utf16));
  ASSERT_TRUE(read.ok()) << read.error().message;
  ASSERT_EQ(read.value().rows.size(), 1U);
  EXPECT_EQ(read.value().rows[0].cells.at(0).text, "caf\xC3\xA9");
  EXPECT_EQ(sheet_of(workbook_with_sheet(utf8)).value().rows[0].cells.at(0).text, "caf\xC3\xA9");
}

// The shared strings are read a token at a time too: runs joined without their phonetic
// guides, `_xHHHH_` escapes, prefixes; one that is not well-formed is an error at its place.
TEST(ConvertXlsxRead, SharedStringsOfRunsEscapesAndPrefixes) {
  const std::string strings =
      R"(<x:sst xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="3">)"
      R"(<x:si><x:t>Plain</x:t></x:si><x:si><x:r><x:rPr><x:b/></x:rPr><x:t>Bold </x:t></x:r><x:r><x:t>and not</x:t></x:r>)"
      R"(<x:rPh sb="0" eb="1"><x:t>guide</x:t></x:rPh></x:si><x:si><x:t xml:space="preserve">line_x000A_two  </x:t></x:si></x:sst>)";
  const std::string sheet =
      R"(<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c>)"
      R"(<c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c></row></sheetData></worksheet>)";
  const auto read = sheet_of(workbook_with_sheet(sheet, strings));
  ASSERT_TRUE(read.ok()) << read.error().message;
  const auto& cells = read.value().rows.at(0).cells;
  ASSERT_EQ(cells.size(), 3U);
  EXPECT_EQ(cells[0].text, "Plain");
  EXPECT_EQ(cells[1].text, "Bold and not");
  EXPECT_EQ(cells[2].text, "line\ntwo  ");
  ASSERT_EQ(read.value().problems.size(), 1U);
  EXPECT_EQ(read.value().problems[0].message, "names the shared string 3, but the workbook has 3");
  const auto broken = detail::xlsx::Workbook::open(workbook_with_sheet(sheet, "<sst><si><t>x</si></sst>"), "w.xlsx");
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.error().message,
            "w.xlsx (xl/sharedStrings.xml):1:14: not well-formed XML: a closing tag </si> where </t> closes the open "
            "element");
}

// A sheet's rows are handed out one at a time, into one Row whose cells are reused: a shorter
// row after a longer one has only its own cells, and the problems are those of the rows read.
TEST(ConvertXlsxRead, RowsComeOneAtATimeIntoOneRow) {
  const std::string bytes =
      workbook_of(R"(<row r="2"><c r="A2" t="inlineStr"><is><t>first</t></is></c><c r="B2"><v>7</v></c>)"
                  R"(<c r="C2" t="inlineStr"><is><t>third</t></is></c></row>)"
                  R"(<row r="3"/><row r="5"><c r="B5" t="e"><v>#N/A</v></c><c r="C5" t="b"><v>1</v></c></row>)");
  auto workbook = detail::xlsx::Workbook::open(bytes, "w.xlsx");
  ASSERT_TRUE(workbook.ok()) << workbook.error().message;
  auto rows = workbook.value().rows(0);
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  detail::xlsx::Row row;
  ASSERT_TRUE(rows.value().next(row).value());
  EXPECT_EQ(row.number, 2U);
  ASSERT_EQ(row.cells.size(), 3U);
  EXPECT_EQ(row.cells[0].text, "first");
  EXPECT_EQ(row.cells[1].kind, detail::xlsx::Cell::Kind::Number);
  EXPECT_EQ(row.cells[1].number, 7);
  EXPECT_TRUE(rows.value().take_problems().empty());
  ASSERT_TRUE(rows.value().next(row).value());  // row 3 is empty and not grouped: left out
  EXPECT_EQ(row.number, 5U);
  ASSERT_EQ(row.cells.size(), 1U);
  EXPECT_EQ(row.cells[0].column, 2U);
  EXPECT_EQ(row.cells[0].kind, detail::xlsx::Cell::Kind::Boolean);
  EXPECT_TRUE(row.cells[0].text.empty());
  const auto problems = rows.value().take_problems();
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_EQ(problems[0].row, 5U);
  EXPECT_EQ(problems[0].message, "holds the error #N/A");
  EXPECT_FALSE(rows.value().next(row).value());
}

// ptmpl's own layout is read as the rows come, past the rows read to find its header: a cell
// that cannot be read far below it is still a finding at its cell, and markup broken there is
// still an error at its place.
TEST(ConvertXlsxRead, OwnLayoutReadAsItsRowsComeKeepsFindingsAndErrors) {
  auto cell = [](const std::string& ref, const std::string& text) {
    return R"(<c r=")" + ref + R"(" t="inlineStr"><is><t>)" + text + "</t></is></c>";
  };
  std::string rows = R"(<row r="1">)" + cell("A1", "temp_id") + cell("B1", "title") + cell("C1", "duration") + "</row>";
  for (int r = 2; r <= 40; ++r) {
    const std::string n = std::to_string(r);
    rows += R"(<row r=")" + n + R"(">)" + cell("A" + n, "t" + n) + cell("B" + n, "Story " + n) +
            (r == 33 ? R"(<c r="C33" t="e"><v>#DIV/0!</v></c>)" : R"(<c r="C)" + n + R"("><v>2</v></c>)") + "</row>";
  }
  const auto converted = convert_plan(workbook_of(rows), "w.xlsx");
  ASSERT_TRUE(converted.ok()) << converted.error().message;
  const TemplateFile file = TemplateFile::parse("w.json", FileText(converted.value().document));
  ASSERT_EQ(file.templates().size(), 1U);
  EXPECT_EQ(file.templates()[0].model.stories.size(), 39U);
  std::vector<std::string> findings;
  for (const Diagnostic& d : converted.value().diagnostics) findings.push_back(d.rule + ": " + d.message);
  ASSERT_EQ(findings.size(), 1U) << all(findings);
  EXPECT_NE(findings[0].find("xlsx-cell-invalid"), std::string::npos) << findings[0];
  EXPECT_NE(findings[0].find("C33"), std::string::npos) << findings[0];
  EXPECT_NE(findings[0].find("holds the error #DIV/0!"), std::string::npos) << findings[0];

  std::string broken = rows;
  broken.replace(broken.find("<row r=\"35\">"), 12, "<row r=\"35\"><c r=\"Z35\">");
  const auto failed = convert_plan(workbook_of(broken), "w.xlsx");
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().code, ErrorCode::kInvalid);
  EXPECT_NE(failed.error().message.find("w.xlsx (xl/worksheets/sheet1.xml):1:"), std::string::npos)
      << failed.error().message;
  EXPECT_NE(failed.error().message.find("a closing tag </row> where </c> closes the open element"), std::string::npos)
      << failed.error().message;
}

}  // namespace
}  // namespace ptmpl::convert_xlsx_read_test
