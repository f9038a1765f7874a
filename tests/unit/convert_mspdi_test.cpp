// MS Project XML → template (libtemplate/convert/convert.hpp): every file of the shared corpus (copied
// to tests/data/mspdi/) converts, lints without errors, and matches its golden document and
// findings (the agreement of our schedule with MS Project's dates: convert_mspdi_agreement_test.cpp).
// Hand-written files cover what the corpus lacks.
#include "libtemplate/convert/convert.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "convert_support.hpp"
#include "libtemplate/core/dependency_graph.hpp"
#include "libtemplate/core/lint.hpp"
#include "libtemplate/core/report.hpp"
#include "libtemplate/core/schedule.hpp"
#include "libtemplate/core/template_file.hpp"
#include "test_files.hpp"

namespace ptmpl::convert_mspdi_test {
namespace {

using testing::expect_golden;
using testing::find_story;
using testing::findings_text;
using testing::int_of;
using testing::read_source;
using testing::source_path;

std::vector<std::string> corpus() {
  return testing::files_in("tests/data/mspdi/corpus", ".xml");
}

Conversion convert_file(const std::string& relative, const ConvertOptions& options = {}) {
  return testing::expect_converted(convert_mspdi(read_source(relative), relative, options));
}

TEST(ConvertMspdi, EveryCorpusFileConvertsLintsCleanAndMatchesItsGolden) {
  const std::vector<std::string> files = corpus();
  ASSERT_GE(files.size(), 9u);
  for (const std::string& name : files) {
    SCOPED_TRACE(name);
    const std::string relative = "tests/data/mspdi/corpus/" + name;
    const Conversion conversion = convert_file(relative);
    for (const Diagnostic& d : lint_text("out.json", conversion.document))
      EXPECT_NE(d.severity, Severity::Error) << d.line << ":" << d.column << " " << d.message << " [" << d.rule << "]";
    const std::string stem = name.substr(0, name.size() - 4);
    expect_golden("tests/golden/convert/" + stem + ".json", conversion.document);
    expect_golden("tests/golden/convert/" + stem + ".txt", findings_text(relative, conversion));
  }
}

// Agreement with MS Project's own dates: convert_mspdi_agreement_test.cpp.

// ---------------------------------------------------------------------------------------------
// A hand-written plan with what the corpus lacks: BOM and CRLF, a base calendar with a
// holiday exception, every link type, lags in days and percent, elapsed and fractional
// durations, costs, work, notes, resources, and every kind of loss.

TEST(ConvertMspdi, FeaturesOfTheFormat) {
  const Conversion conversion = convert_file("tests/data/mspdi/features.xml");
  const TemplateFile file = TemplateFile::parse("out.json", FileText(conversion.document));
  ASSERT_EQ(file.shape(), Shape::TemplateDocument);
  const json::Value& pt = *file.document().root().find("project_template");
  EXPECT_EQ(pt.find("title")->text(), "Feature plan");
  EXPECT_EQ(pt.find("currency")->text(), "EUR");
  EXPECT_EQ(pt.find("budget")->text(), "4000.5");  // 150000 + 250050 cents
  EXPECT_EQ(int_of(&pt, "item_count"), 12);        // 14 tasks − summary − inactive − null
  const json::Value& list = *pt.find("raw_json");

  // The holiday on Wednesday 2027-01-06 (an exception of the project calendar, over its base).
  const json::Value* design = find_story(list, 2);
  EXPECT_EQ(int_of(design, "relative_start_date"), 0);
  EXPECT_EQ(int_of(design, "relative_due_date"), 3);  // Mon, Tue, Thu, Fri
  EXPECT_EQ(int_of(design, "duration"), 4);
  EXPECT_EQ(int_of(design, "budget_estimate_in_cents"), 150000);
  EXPECT_EQ(int_of(design, "time_estimate_in_minutes"), 64 * 60);
  EXPECT_EQ(design->find("description")->text(), "Design notes");
  EXPECT_EQ(design->find("title")->text(), "Design & specify");

  // Links move to their predecessor, types in the service's numbering, lags in working days.
  auto link = [&](std::int64_t from, std::size_t index) -> const json::Value& {
    return find_story(list, from)->find("dependencies")->items()[index];
  };
  EXPECT_EQ(int_of(&link(2, 0), "target_id"), 3);
  EXPECT_EQ(int_of(&link(2, 0), "type"), 2);                       // MSPDI 1 = FS
  EXPECT_EQ(int_of(&link(2, 0), "lag"), 1);                        // 4800 tenths of a minute
  EXPECT_EQ(int_of(&link(3, 0), "type"), 0);                       // MSPDI 3 = SS
  EXPECT_EQ(int_of(&link(3, 0), "lag"), 2);                        // 50 % of 3 days, rounded
  EXPECT_EQ(int_of(&link(4, 0), "type"), 3);                       // MSPDI 0 = FF
  EXPECT_EQ(int_of(&link(6, 0), "type"), 1);                       // MSPDI 2 = SF
  EXPECT_EQ(int_of(&link(6, 0), "lag"), -2);                       // a lead
  EXPECT_EQ(find_story(list, 12)->find("dependencies"), nullptr);  // cross-project and dangling: dropped

  // A milestone at 17:00 is a moment at the end of its day, and on that day (docs/semantics.md §4).
  const json::Value* launch = find_story(list, 7);
  EXPECT_EQ(launch->find("story_type")->text(), "milestone");
  EXPECT_EQ(int_of(launch, "relative_start_date"), 7);
  // A summary becomes a parent spanning its children; an outline gap nests under the nearest.
  EXPECT_EQ(find_story(list, 1)->find("sub_stories")->items().size(), 3u);
  EXPECT_EQ(find_story(list, 9)->find("sub_stories")->items().size(), 1u);
  EXPECT_EQ(find_story(list, 9)->find("title")->text(), "Task 9");
  EXPECT_EQ(find_story(list, 8), nullptr);   // inactive
  EXPECT_EQ(find_story(list, 14), nullptr);  // null task
  // Resources: named ones become template assignments; the placeholder and duplicates do not count.
  EXPECT_EQ(int_of(&find_story(list, 3)->find("assignments")->items()[0], "assignee_id"), 2);
  EXPECT_EQ(find_story(list, 3)->find("assignments")->items().size(), 1u);
  EXPECT_EQ(file.document().root().find("project_template_assignments")->items().size(), 2u);

  std::set<std::string> rules;
  for (const Diagnostic& d : conversion.diagnostics) rules.insert(d.rule);
  EXPECT_EQ(rules, (std::set<std::string>{"mspdi-constraint", "mspdi-cross-project-link", "mspdi-elapsed-duration",
                                          "mspdi-fractional-duration", "mspdi-fractional-lag", "mspdi-inactive-task",
                                          "mspdi-link-invalid", "mspdi-manual-task", "mspdi-off-calendar",
                                          "mspdi-outline-gap", "mspdi-progress", "mspdi-resource-rates",
                                          "mspdi-summary-cost", "mspdi-task-calendar", "mspdi-untitled-task"}));
  for (const Diagnostic& d : lint_text("out.json", conversion.document))
    EXPECT_NE(d.severity, Severity::Error) << d.message;
  expect_golden("tests/golden/convert/features.json", conversion.document);
  expect_golden("tests/golden/convert/features.txt", findings_text("tests/data/mspdi/features.xml", conversion));
}

TEST(ConvertMspdi, StrictMakesEveryLossAnError) {
  const Conversion conversion = convert_file("tests/data/mspdi/features.xml", ConvertOptions{.strict = true});
  ASSERT_FALSE(conversion.diagnostics.empty());
  for (const Diagnostic& d : conversion.diagnostics) EXPECT_EQ(d.severity, Severity::Error) << d.rule;
}

TEST(ConvertMspdi, EveryReportedIdIsDocumented) {
  const std::string page = read_source("docs/commands/convert.md");
  for (const ConversionRule& rule : conversion_rules())
    EXPECT_NE(page.find("`" + std::string(rule.id) + "`"), std::string::npos) << rule.id;
}

// A value the template cannot hold is dropped, but never silently (docs/semantics.md §7).
TEST(ConvertMspdi, ValuesBeyondATemplatesRangeAreReportedNotDropped) {
  auto task = [](int uid, std::string_view fields) {
    return "<Task><UID>" + std::to_string(uid) + "</UID><ID>" + std::to_string(uid) + "</ID><Name>T" +
           std::to_string(uid) + "</Name><OutlineLevel>1</OutlineLevel>" + std::string(fields) + "</Task>";
  };
  const std::string text =
      "<Project xmlns=\"http://schemas.microsoft.com/project\"><Title>Ranges</Title>"
      "<StartDate>2027-01-04T08:00:00</StartDate><Tasks>" +
      task(1, "<Duration>PT8H0M0S</Duration><Cost>12345</Cost>") +
      task(2, "<Duration>PT99999999999999999H0M0S</Duration><Cost>99999999999999999999</Cost>") +
      task(3, "<Duration>PT8H0M0S</Duration><Cost>-500</Cost>") + "</Tasks></Project>";
  auto converted = convert_mspdi(text, "ranges.xml");
  ASSERT_TRUE(converted.ok()) << converted.error().message;
  std::vector<std::string> found;
  for (const Diagnostic& d : converted.value().diagnostics)
    if (d.rule == "mspdi-duration-invalid" || d.rule == "mspdi-cost-invalid") found.push_back(d.rule + " " + d.message);
  EXPECT_EQ(found, (std::vector<std::string>{
                       "mspdi-duration-invalid task 2 \"T2\" has the duration \"PT99999999999999999H0M0S\", which no "
                       "story can hold (0 to 10^12 working days); the story has no duration",
                       "mspdi-cost-invalid task 2 \"T2\" costs 99999999999999999999 hundredths, which a budget "
                       "estimate cannot hold (0 to 9.2·10^18 cents); the story has no budget",
                       "mspdi-cost-invalid task 3 \"T3\" costs -500 hundredths, which a budget estimate cannot "
                       "hold (0 to 9.2·10^18 cents); the story has no budget"}));
  const TemplateFile file = TemplateFile::parse("out.json", FileText(converted.value().document));
  const json::Value& list = *file.document().root().find("project_template")->find("raw_json");
  EXPECT_EQ(int_of(find_story(list, 1), "budget_estimate_in_cents"), 12345);
  EXPECT_EQ(find_story(list, 2)->find("duration"), nullptr);
  EXPECT_EQ(find_story(list, 2)->find("budget_estimate_in_cents"), nullptr);
  EXPECT_EQ(find_story(list, 3)->find("budget_estimate_in_cents"), nullptr);
  for (const Diagnostic& d : lint_text("out.json", converted.value().document))
    EXPECT_NE(d.severity, Severity::Error) << d.message;
}

TEST(ConvertMspdi, ATaskCalendarIsAFindingOnlyWhenItIsNotTheProjects) {
  auto task = [](int uid, int calendar) {
    return "<Task><UID>" + std::to_string(uid) + "</UID><ID>" + std::to_string(uid) + "</ID><Name>T" +
           std::to_string(uid) + "</Name><OutlineLevel>1</OutlineLevel><Duration>PT8H0M0S</Duration><CalendarUID>" +
           std::to_string(calendar) + "</CalendarUID></Task>";
  };
  const std::string text =
      "<Project xmlns=\"http://schemas.microsoft.com/project\"><Title>Calendars</Title>"
      "<StartDate>2027-01-04T08:00:00</StartDate><CalendarUID>1</CalendarUID><Calendars><Calendar><UID>1</UID>"
      "<Name>Standard</Name><IsBaseCalendar>1</IsBaseCalendar></Calendar><Calendar><UID>2</UID><Name>Night</Name>"
      "<IsBaseCalendar>1</IsBaseCalendar></Calendar></Calendars><Tasks>" +
      task(1, 1) + task(2, 2) + task(3, -1) + "</Tasks></Project>";
  auto converted = convert_mspdi(text, "calendars.xml");
  ASSERT_TRUE(converted.ok()) << converted.error().message;
  std::vector<std::string> found;
  for (const Diagnostic& d : converted.value().diagnostics)
    if (d.rule == "mspdi-task-calendar") found.push_back(d.message);
  EXPECT_EQ(found,
            (std::vector<std::string>{"task 2 \"T2\" has its own calendar (UID 2); the project calendar is used"}));
}

std::string error_of(std::string_view text) {
  auto converted = convert_mspdi(text, "bad.xml");
  EXPECT_FALSE(converted.ok());
  return converted.ok() ? "" : converted.error().message;
}

TEST(ConvertMspdi, BadInputIsAClearError) {
  EXPECT_EQ(error_of("<Project xmlns=\"http://schemas.microsoft.com/project\"><Tasks>"),
            "bad.xml:1:61: not well-formed XML: Start-end tags mismatch");
  EXPECT_EQ(error_of("<?xml version=\"1.0\"?>\n<project><tasks/></project>"),
            "bad.xml: not a Microsoft Project XML file (its root element is <project>, not <Project "
            "xmlns=\"http://schemas.microsoft.com/project\">)");
  EXPECT_NE(error_of("").find("bad.xml:1:1: not well-formed XML"), std::string::npos);
  EXPECT_NE(error_of("\xEF\xBB\xBF<Project").find("not well-formed XML"), std::string::npos);
}

TEST(ConvertMspdi, HostileNestingIsBoundedNotQuadraticOrRecursive) {
  // An outline 150 levels deep would become a template no reader accepts (and pretty JSON
  // whose indentation grows with the square of the depth): refused, naming the task.
  std::string outline = R"(<Project xmlns="http://schemas.microsoft.com/project"><Tasks>)";
  for (int i = 1; i <= 150; ++i)
    outline += "<Task><UID>" + std::to_string(i) + "</UID><Name>t</Name><OutlineLevel>" + std::to_string(i) +
               "</OutlineLevel></Task>";
  outline += "</Tasks></Project>";
  const std::string error = error_of(outline);
  EXPECT_NE(error.find("task 101 \"t\" would be nested 101 levels deep; a template holds at most 100"),
            std::string::npos)
      << error;
  // A million nested elements anywhere else: pugixml parses without recursion, nothing to convert.
  std::string deep = R"(<Project xmlns="http://schemas.microsoft.com/project">)";
  for (int i = 0; i < 1'000'000; ++i) deep += "<a>";
  for (int i = 0; i < 1'000'000; ++i) deep += "</a>";
  deep += "</Project>";
  auto converted = convert_mspdi(deep, "deep.xml");
  ASSERT_TRUE(converted.ok());
  EXPECT_NE(converted.value().document.find("\"item_count\": 0"), std::string::npos);
}

TEST(ConvertMspdi, EntitiesAreNeverExpanded) {
  // A billion-laughs document and an external entity: the DTD is ignored, nothing grows,
  // nothing is fetched; undefined references stay as their text.
  std::string bomb = "<?xml version=\"1.0\"?>\n<!DOCTYPE Project [\n <!ENTITY a \"aaaaaaaaaa\">\n";
  for (char c = 'b'; c <= 'j'; ++c) {
    std::string refs;
    for (int i = 0; i < 10; ++i) refs += std::string("&") + static_cast<char>(c - 1) + ";";
    bomb += std::string(" <!ENTITY ") + c + " \"" + refs + "\">\n";
  }
  bomb +=
      " <!ENTITY ext SYSTEM \"file:///etc/passwd\">\n]>\n"
      "<Project xmlns=\"http://schemas.microsoft.com/project\"><Title>&j;&ext;</Title><Tasks/></Project>";
  auto converted = convert_mspdi(bomb, "bomb.xml");
  ASSERT_TRUE(converted.ok()) << converted.error().message;
  EXPECT_LT(converted.value().document.size(), 200u);
  EXPECT_EQ(converted.value().document.find("root:"), std::string::npos);
  EXPECT_NE(converted.value().document.find("&j;&ext;"), std::string::npos);
  ASSERT_EQ(converted.value().diagnostics.size(), 1u);
  EXPECT_EQ(converted.value().diagnostics[0].rule, "mspdi-doctype");
}

TEST(ConvertMspdi, DetectsFormatsByContent) {
  EXPECT_EQ(detect_plan_format("\xEF\xBB\xBF<?xml version=\"1.0\"?>\r\n<!-- c -->\r\n<Project xmlns=\"x\">"),
            PlanFormat::Mspdi);
  EXPECT_EQ(detect_plan_format("  [ ]"), PlanFormat::Template);
  EXPECT_EQ(detect_plan_format("<project name=\"gan\">"), PlanFormat::Gan);
  EXPECT_EQ(detect_plan_format("title,start\n"), PlanFormat::Csv);
  EXPECT_EQ(detect_plan_format("name,start\n"), PlanFormat::Unknown);
}

// The plan model names link types and constraints itself; MS Project's numbers are read into
// them (0 FF, 1 FS, 2 SF, 3 SS) and written in the service's (FS 2, SS 0, FF 3, SF 1). A number
// outside them is a finding that quotes it, and its link is dropped.
TEST(ConvertMspdi, LinkTypesAreReadIntoThePlansNamesAndWrittenInTheServicesNumbers) {
  auto task = [](int uid, std::string_view links) {
    return "<Task><UID>" + std::to_string(uid) + "</UID><ID>" + std::to_string(uid) + "</ID><Name>T" +
           std::to_string(uid) + "</Name><OutlineLevel>1</OutlineLevel><Duration>PT8H0M0S</Duration>" +
           std::string(links) + "</Task>";
  };
  auto link = [](int predecessor, int type) {
    return "<PredecessorLink><PredecessorUID>" + std::to_string(predecessor) + "</PredecessorUID><Type>" +
           std::to_string(type) + "</Type></PredecessorLink>";
  };
  const std::string text =
      "<Project xmlns=\"http://schemas.microsoft.com/project\"><Title>Links</Title>"
      "<StartDate>2027-01-04T08:00:00</StartDate><Tasks>" +
      task(1, "") + task(2, link(1, 0)) + task(3, link(1, 1)) + task(4, link(1, 2)) + task(5, link(1, 3)) +
      task(6, link(1, 7) + "<ConstraintType>4</ConstraintType><ConstraintDate>2027-01-11T08:00:00</ConstraintDate>") +
      "</Tasks></Project>";
  auto converted = convert_mspdi(text, "links.xml");
  ASSERT_TRUE(converted.ok()) << converted.error().message;
  const TemplateFile file = TemplateFile::parse("out.json", FileText(converted.value().document));
  const json::Value& list = *file.document().root().find("project_template")->find("raw_json");
  std::vector<std::pair<std::int64_t, std::int64_t>> written;  // target, type
  for (const json::Value& dependency : find_story(list, 1)->find("dependencies")->items())
    written.emplace_back(*dependency.find("target_id")->as_int64(), *dependency.find("type")->as_int64());
  EXPECT_EQ(written, (std::vector<std::pair<std::int64_t, std::int64_t>>{{2, 3}, {3, 2}, {4, 1}, {5, 0}}));
  std::vector<std::string> found;
  for (const Diagnostic& d : converted.value().diagnostics)
    if (d.rule == "mspdi-link-invalid" || d.rule == "mspdi-constraint") found.push_back(d.rule + " " + d.message);
  EXPECT_EQ(found, (std::vector<std::string>{
                       "mspdi-link-invalid a link into task 6 \"T6\" has the unknown type 7; it is dropped",
                       "mspdi-constraint task 6 \"T6\" has the constraint \"Start No Earlier Than\"; only its start "
                       "is kept (as a start-no-earlier-than)"}));
}

}  // namespace
}  // namespace ptmpl::convert_mspdi_test
