// GanttProject .gan → template (libtemplate/convert/convert.hpp): every file of the shared corpus (copied
// to tests/data/gan/corpus/) converts, lints without errors, and matches its golden document and
// findings; the scheduler is measured against the start dates GanttProject stored. Hand-written
// files cover what the corpus lacks.
#include "libtemplate/convert/convert.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "convert_support.hpp"
#include "libtemplate/core/dependency_graph.hpp"
#include "libtemplate/core/lint.hpp"
#include "libtemplate/core/report.hpp"
#include "libtemplate/core/schedule.hpp"
#include "libtemplate/core/template_file.hpp"
#include "libtemplate/core/writer.hpp"
#include "test_files.hpp"

namespace ptmpl::convert_gan_test {
namespace {

using testing::expect_golden;
using testing::find_story;
using testing::findings_text;
using testing::int_of;
using testing::read_source;
using testing::source_path;

std::vector<std::string> corpus() {
  return testing::files_in("tests/data/gan/corpus", ".gan");
}

Conversion convert_file(const std::string& relative, const ConvertOptions& options = {}) {
  return testing::expect_converted(convert_gan(read_source(relative), relative, options));
}

TEST(ConvertGan, EveryCorpusFileConvertsLintsCleanAndMatchesItsGolden) {
  const std::vector<std::string> files = corpus();
  ASSERT_EQ(files.size(), 14u);
  for (const std::string& name : files) {
    SCOPED_TRACE(name);
    const std::string relative = "tests/data/gan/corpus/" + name;
    const Conversion conversion = convert_file(relative);
    for (const Diagnostic& d : lint_text("out.json", conversion.document))
      EXPECT_NE(d.severity, Severity::Error) << d.line << ":" << d.column << " " << d.message << " [" << d.rule << "]";
    const std::string stem = name.substr(0, name.size() - 4);
    expect_golden("tests/golden/convert/gan/" + stem + ".json", conversion.document);
    expect_golden("tests/golden/convert/gan/" + stem + ".txt", findings_text(relative, conversion));
  }
}

// Per story: the scheduled start and due against the declared ones (GanttProject's own).
struct Agreement {
  std::size_t stories = 0;
  std::size_t agree = 0;
  std::string differences;
};

Agreement compare(const std::string& declared, const std::string& scheduled, bool asap) {
  const TemplateFile file = TemplateFile::parse("out.json", FileText(declared));
  const TemplateFile input = TemplateFile::parse("in.json", FileText(scheduled));
  Agreement out;
  if (file.templates().empty()) return out;
  const DependencyGraph graph(file.templates()[0].model.stories);
  const DependencyGraph input_graph(input.templates()[0].model.stories);
  const Schedule schedule(input_graph, ScheduleOptions{.asap = asap});
  EXPECT_TRUE(schedule.ok());
  for (std::size_t i = 0; i < graph.size(); ++i) {
    const Story& story = graph.story(i);
    if (!story.relative_start_date) continue;
    ++out.stories;
    const Interval& early = schedule[i].early;
    const std::int64_t due = story.relative_due_date.value_or(*story.relative_start_date);
    if (early.first_day() == *story.relative_start_date && early.due == due) {
      ++out.agree;
    } else {
      out.differences += "; task " + temp_id_key(*story.temp_id) + ": GanttProject " +
                         std::to_string(*story.relative_start_date) + ".." + std::to_string(due) + ", scheduled " +
                         std::to_string(early.first_day()) + ".." + std::to_string(early.due);
    }
  }
  return out;
}

// The temp_ids that some link targets.
void collect_targets(const json::Value& stories, std::set<std::string>& out) {
  for (const json::Value& story : stories.items()) {
    if (const json::Value* deps = story.find("dependencies"))
      for (const json::Value& dep : deps->items()) out.insert(std::string(dep.find("target_id")->text()));
    if (const json::Value* subs = story.find("sub_stories")) collect_targets(*subs, out);
  }
}

// `value` without the declared dates of the stories in `targets`.
json::Value drop_dates(const json::Builder& build, const json::Value& value, const std::set<std::string>& targets) {
  if (value.is_array()) {
    std::vector<json::Value> items;
    for (const json::Value& item : value.items()) items.push_back(drop_dates(build, item, targets));
    return build.array(items);
  }
  if (!value.is_object()) return value;
  const json::Value* id = value.find("temp_id");
  const bool target = id != nullptr && targets.count(std::string(id->text())) != 0;
  std::vector<json::Member> members;
  for (const json::Member& m : value.members()) {
    if (target && (m.key.text() == "relative_start_date" || m.key.text() == "relative_due_date")) continue;
    members.push_back({m.key, drop_dates(build, m.value, targets)});
  }
  return build.object(members);
}

// GanttProject's own model: a task that a link reaches sits where its links put it, any other
// where its author placed it. The converted template with the declared dates of every link
// target dropped, scheduled with the remaining declared starts.
std::string linked_tasks_unplaced(const std::string& document) {
  const json::Document doc = json::Document::parse(document);
  std::set<std::string> targets;
  collect_targets(*doc.root().find("project_template")->find("raw_json"), targets);
  json::Arena arena;
  const json::Builder build(arena);
  return write_canonical(drop_dates(build, doc.root(), targets), Shape::TemplateDocument);
}

struct Measured {
  std::size_t asap = 0;    ///< stories where `schedule --asap` gives GanttProject's dates
  std::size_t placed = 0;  ///< the same with unlinked tasks kept where they were placed
  std::size_t stories = 0;
  bool operator==(const Measured&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Measured& m) {
  return out << "{asap " << m.asap << ", placed " << m.placed << " of " << m.stories << "}";
}

TEST(ConvertGan, ScheduleAgreesWithGanttProjectsStoredDates) {
  // Measured on every corpus file; docs/commands/convert.md explains each row. GanttProject puts
  // a milestone that follows a task on the next day, ptmpl at the end of the task's last day
  // (MS Project's rule, docs/semantics.md §4): such milestones, and the summaries they close, are
  // a day apart where links place them (Jouramie 7, each HouseBuildingSample 5). Every file's
  // stored dates satisfy all its links: scheduled with its declared starts, every story keeps
  // its dates (the third check below).
  const std::map<std::string, Measured> expected = {
      {"JanAlexanderPersonal__MastatThesis_Planning.gan", {2, 28, 28}},
      {"Jouramie__Visualigue_Gantt.gan", {1, 66, 73}},
      {"MrChoclate__glacier_gantt.gan", {1, 9, 10}},
      {"N1A1voIt__Planningnew.gan", {51, 88, 88}},
      {"SAE-301-Dev-application__Gantt.gan", {1, 67, 67}},
      {"bardsoftware__HouseBuildingSample_v2.0_2010.gan", {14, 14, 19}},
      {"bardsoftware__HouseBuildingSample_v2.8.11.gan", {15, 15, 20}},
      {"bardsoftware__HouseBuildingSample_v3.3.3309.gan", {15, 15, 20}},
      {"benel__agile-vs-gantt_gantt.gan", {10, 10, 10}},
      {"blyoa__baseline-with-subtasks.gan", {2, 2, 2}},
      {"blyoa__task-crossing-recurring-holiday.gan", {1, 1, 1}},
      {"blyoa__task-crossing-weekends-tasks-can-run-on-weekends.gan", {1, 1, 1}},
      {"blyoa__task-with-dependencies.gan", {0, 5, 5}},
      {"pawciut__dep_res_test.gan", {5, 5, 5}},
  };
  for (const std::string& name : corpus()) {
    SCOPED_TRACE(name);
    const std::string document = convert_file("tests/data/gan/corpus/" + name).document;
    const Agreement asap = compare(document, document, true);
    const Agreement placed = compare(document, linked_tasks_unplaced(document), false);
    const Agreement declared = compare(document, document, false);
    EXPECT_EQ(declared.agree, declared.stories) << declared.differences;
    std::cout << "agreement " << name << ": asap " << asap.agree << ", placed " << placed.agree << " of "
              << asap.stories << "\n";
    EXPECT_EQ(expected.at(name), (Measured{asap.agree, placed.agree, asap.stories}))
        << "asap" << asap.differences << "\nplaced" << placed.differences;
  }
}

// ---------------------------------------------------------------------------------------------
// A hand-written plan with what the corpus lacks: BOM and CRLF, one-off and yearly holidays, a
// Saturday made a working day, a neutral day, every link type with lags, links that must be
// dropped, costs, notes, resources, and every kind of loss.

TEST(ConvertGan, FeaturesOfTheFormat) {
  const Conversion conversion = convert_file("tests/data/gan/features.gan");
  const TemplateFile file = TemplateFile::parse("out.json", FileText(conversion.document));
  ASSERT_EQ(file.shape(), Shape::TemplateDocument);
  const json::Value& pt = *file.document().root().find("project_template");
  EXPECT_EQ(pt.find("title")->text(), "Gan features");
  EXPECT_EQ(pt.find("description")->text(), "A plan with what the corpus lacks.");
  EXPECT_EQ(pt.find("budget")->text(), "1500.5");  // the tasks' costs, not the phase's own 99
  EXPECT_EQ(int_of(&pt, "item_count"), 7);
  const json::Value& list = *pt.find("raw_json");

  // Mon 4 Jan 2027 is day 0; Wed 6 (one-off) and Fri 8 (yearly) are holidays, Sat 9 works,
  // Tue 12 is only coloured (neutral), Sat 16 does not work.
  const json::Value* design = find_story(list, 2);
  EXPECT_EQ(int_of(design, "relative_start_date"), 0);
  EXPECT_EQ(int_of(design, "relative_due_date"), 2);
  EXPECT_EQ(int_of(design, "budget_estimate_in_cents"), 150050);
  EXPECT_EQ(design->find("description")->text(), "Design notes");
  EXPECT_EQ(design->find("title")->text(), "Design & specify");
  EXPECT_EQ(int_of(find_story(list, 4), "relative_start_date"), 3);  // Saturday 9, a working day
  EXPECT_EQ(int_of(find_story(list, 3), "relative_start_date"), 4);  // Monday 11
  EXPECT_EQ(int_of(find_story(list, 3), "relative_due_date"), 5);    // through the neutral day
  const json::Value* launch = find_story(list, 6);
  EXPECT_EQ(launch->find("story_type")->text(), "milestone");
  EXPECT_EQ(int_of(launch, "relative_start_date"), 9);  // Saturday 16 → Monday 18
  EXPECT_EQ(int_of(launch, "duration"), 0);
  // The phase spans its children; its own cost and progress are not kept.
  const json::Value* phase = find_story(list, 1);
  EXPECT_EQ(phase->find("sub_stories")->items().size(), 3u);
  EXPECT_EQ(int_of(phase, "relative_start_date"), 0);
  EXPECT_EQ(int_of(phase, "relative_due_date"), 5);
  EXPECT_EQ(phase->find("budget_estimate_in_cents"), nullptr);
  EXPECT_EQ(find_story(list, 5)->find("title")->text(), "Task 5");

  // Links stay on the predecessor; GanttProject 1 = SS, 2 = FS, 3 = FF, 4 = SF.
  const auto deps = design->find("dependencies")->items();
  ASSERT_EQ(deps.size(), 4u);  // a repeat, a missing task, an unknown type and the parent: dropped
  const std::int64_t expected[4][3] = {{3, 2, 1}, {4, 0, 0}, {5, 3, -1}, {6, 1, 2}};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(int_of(&deps[i], "source_id"), 2);
    EXPECT_EQ(int_of(&deps[i], "target_id"), expected[i][0]);
    EXPECT_EQ(int_of(&deps[i], "type"), expected[i][1]);
    EXPECT_EQ(int_of(&deps[i], "lag"), expected[i][2]);
  }
  // A second task with id 6 keeps no temp_id and, with no valid start, no dates.
  const json::Value& second = list.items()[3];
  EXPECT_EQ(second.find("title")->text(), "Second six");
  EXPECT_EQ(second.find("temp_id"), nullptr);
  EXPECT_EQ(second.find("relative_start_date"), nullptr);
  // Named resources become template assignments; an allocation to the unnamed one is dropped.
  EXPECT_EQ(file.document().root().find("project_template_assignments")->items().size(), 2u);
  EXPECT_EQ(find_story(list, 3)->find("assignments")->items().size(), 1u);

  std::set<std::string> rules;
  for (const Diagnostic& d : conversion.diagnostics) rules.insert(d.rule);
  EXPECT_EQ(rules, (std::set<std::string>{"gan-allocation-load", "gan-baseline", "gan-calendar", "gan-cost",
                                          "gan-custom-property", "gan-earliest-start", "gan-link-invalid",
                                          "gan-off-calendar", "gan-progress", "gan-resource-rates", "gan-rubber-link",
                                          "gan-summary-cost", "gan-task-dates", "gan-task-field", "gan-task-id",
                                          "gan-untitled-task", "gan-vacation"}));
  for (const Diagnostic& d : lint_text("out.json", conversion.document))
    EXPECT_NE(d.severity, Severity::Error) << d.message;
  expect_golden("tests/golden/convert/gan/features.json", conversion.document);
  expect_golden("tests/golden/convert/gan/features.txt", findings_text("tests/data/gan/features.gan", conversion));
}

TEST(ConvertGan, OlderFilesGiveMilestonesADay) {
  // Without empty-milestones, GanttProject's milestone lasts a day: its successor starts the
  // next day, so the finish link carries that day as lag (and start links do not).
  const std::string gan =
      "<project name=\"m\"><tasks>"
      "<task id=\"1\" name=\"Gate\" meeting=\"true\" start=\"2027-01-04\" duration=\"1\">"
      "<depend id=\"2\" type=\"2\" difference=\"0\"/><depend id=\"3\" type=\"1\" difference=\"0\"/></task>"
      "<task id=\"2\" name=\"After\" meeting=\"false\" start=\"2027-01-05\" duration=\"1\"/>"
      "<task id=\"3\" name=\"Along\" meeting=\"false\" start=\"2027-01-04\" duration=\"1\"/>"
      "</tasks></project>";
  auto converted = convert_gan(gan, "m.gan");
  ASSERT_TRUE(converted.ok());
  const json::Document doc = json::Document::parse(converted.value().document);
  const json::Value& list = *doc.root().find("project_template")->find("raw_json");
  EXPECT_EQ(int_of(&find_story(list, 1)->find("dependencies")->items()[0], "lag"), 1);
  EXPECT_EQ(int_of(&find_story(list, 1)->find("dependencies")->items()[1], "lag"), 0);
  ASSERT_EQ(converted.value().diagnostics.size(), 1u);
  EXPECT_EQ(converted.value().diagnostics[0].rule, "gan-milestone-day");
  EXPECT_EQ(compare(converted.value().document, converted.value().document, true).agree, 3u);
}

TEST(ConvertGan, WeekendsCanWork) {
  const std::string gan =
      "<project name=\"w\"><calendars><day-types><default-week sun=\"1\" mon=\"0\" tue=\"0\" wed=\"0\" "
      "thu=\"0\" fri=\"0\" sat=\"1\"/><only-show-weekends value=\"true\"/></day-types></calendars><tasks>"
      "<task id=\"1\" name=\"A\" meeting=\"false\" start=\"2027-01-08\" duration=\"1\"/>"
      "<task id=\"2\" name=\"B\" meeting=\"false\" start=\"2027-01-10\" duration=\"1\"/>"
      "</tasks></project>";
  auto converted = convert_gan(gan, "w.gan");
  ASSERT_TRUE(converted.ok());
  const json::Document doc = json::Document::parse(converted.value().document);
  EXPECT_EQ(int_of(find_story(*doc.root().find("project_template")->find("raw_json"), 2), "relative_start_date"), 2);
  EXPECT_EQ(converted.value().diagnostics.at(0).rule, "gan-calendar");
}

TEST(ConvertGan, StrictMakesEveryLossAnError) {
  const Conversion conversion = convert_file("tests/data/gan/features.gan", ConvertOptions{.strict = true});
  ASSERT_FALSE(conversion.diagnostics.empty());
  for (const Diagnostic& d : conversion.diagnostics) EXPECT_EQ(d.severity, Severity::Error) << d.rule;
}

std::string error_of(std::string_view text) {
  auto converted = convert_gan(text, "bad.gan");
  EXPECT_FALSE(converted.ok());
  return converted.ok() ? "" : converted.error().message;
}

TEST(ConvertGan, BadInputIsAClearError) {
  EXPECT_EQ(error_of("<project name=\"x\"><tasks>"), "bad.gan:1:25: not well-formed XML: Start-end tags mismatch");
  EXPECT_EQ(error_of("<Project/>"), "bad.gan: not a GanttProject file (its root element is <Project>, not <project>)");
  EXPECT_NE(error_of("").find("bad.gan:1:1: not well-formed XML"), std::string::npos);
}

TEST(ConvertGan, EntitiesAreNeverExpanded) {
  const std::string gan =
      "<?xml version=\"1.0\"?>\n<!DOCTYPE project [ <!ENTITY a \"aaaaaaaaaa\"> <!ENTITY ext SYSTEM "
      "\"file:///etc/passwd\"> ]>\n<project name=\"&a;&ext;\"><tasks/></project>";
  auto converted = convert_gan(gan, "bomb.gan");
  ASSERT_TRUE(converted.ok()) << converted.error().message;
  EXPECT_NE(converted.value().document.find("\"&a;&ext;\""), std::string::npos);
  EXPECT_EQ(converted.value().document.find("root:"), std::string::npos);
}

TEST(ConvertGan, DetectedByContent) {
  EXPECT_EQ(detect_plan_format("\xEF\xBB\xBF<?xml version=\"1.0\"?>\r\n<project name=\"x\">"), PlanFormat::Gan);
  EXPECT_EQ(detect_plan_format("<project>"), PlanFormat::Gan);
  EXPECT_EQ(detect_plan_format("<projects>"), PlanFormat::Unknown);
  EXPECT_EQ(detect_plan_format("<Project xmlns=\"x\">"), PlanFormat::Mspdi);
}

}  // namespace
}  // namespace ptmpl::convert_gan_test
