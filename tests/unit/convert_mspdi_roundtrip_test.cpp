// Template → MS Project XML → template keeps everything both formats hold (docs/semantics.md §7): the
// tree, titles, temp_ids, milestones, dates, durations, links, leaf amounts and totals,
// descriptions, assignments, tags, checklists, weights and the template's title and currency —
// on every sample. Tags, checklists, weights and temp_ids that are not task UIDs travel as MS
// Project extended attributes. The XML follows the schema's element order, and what it cannot
// hold is reported.
#include <gtest/gtest.h>

#include <pugixml.hpp>

#include <map>
#include <tuple>

#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/dependency_graph.hpp"
#include "libtemplate/core/intervals.hpp"
#include "libtemplate/core/rollup.hpp"
#include "libtemplate/core/template_file.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

using testing::json_files;
using testing::read_source;

struct Loaded {
  TemplateFile file;
  DependencyGraph graph;
  DeclaredIntervals intervals;
  Rollup rollup;
  explicit Loaded(TemplateFile f) : file(std::move(f)), graph(stories()), intervals(stories()), rollup(stories()) {}
  [[nodiscard]] std::span<const Story> stories() const { return file.templates().at(0).model.stories; }
};

// Links as (source, target, type, lag) by pre-order position.
std::set<std::tuple<std::size_t, std::size_t, std::int64_t, std::int64_t>> links_of(const DependencyGraph& g) {
  std::set<std::tuple<std::size_t, std::size_t, std::int64_t, std::int64_t>> out;
  for (const Link& link : g.links())
    if (link.type && link.nesting == LinkNesting::Unrelated)
      out.emplace(link.source, link.target, static_cast<std::int64_t>(*link.type), link.lag);
  return out;
}

std::optional<std::vector<std::string>> checklist_of(const Story& story) {
  if (!story.checklist) return std::nullopt;
  return std::vector<std::string>(story.checklist->begin(), story.checklist->end());
}

void expect_same_plan(const Loaded& before, const Loaded& after, const std::string& name) {
  SCOPED_TRACE(name);
  ASSERT_EQ(after.graph.size(), before.graph.size());
  const Template& a = before.file.templates()[0].model;
  const Template& b = after.file.templates()[0].model;
  EXPECT_EQ(b.title, a.title);
  EXPECT_EQ(b.currency, a.currency);
  ASSERT_EQ(b.assignments.size(), a.assignments.size());
  for (std::size_t i = 0; i < a.assignments.size(); ++i) {
    EXPECT_EQ(b.assignments[i].id, a.assignments[i].id);
    EXPECT_EQ(b.assignments[i].name, a.assignments[i].name);
  }
  for (std::size_t i = 0; i < before.graph.size(); ++i) {
    const Story& x = before.graph.story(i);
    const Story& y = after.graph.story(i);
    SCOPED_TRACE("story " + std::to_string(i) + " \"" + std::string(x.title.value_or("")) + "\"");
    EXPECT_EQ(after.graph.parent(i), before.graph.parent(i));
    EXPECT_EQ(y.title, x.title);
    // A story without a temp_id gets its task's UID; any other keeps its own, string or integer.
    if (x.temp_id) {
      EXPECT_EQ(y.temp_id, x.temp_id);
    }
    EXPECT_EQ(y.description, x.description);
    EXPECT_EQ(y.tag_list, x.tag_list);
    EXPECT_EQ(checklist_of(y), checklist_of(x));
    EXPECT_EQ(y.weight, x.weight);
    if (!x.is_parent()) {
      EXPECT_EQ(y.effective_type() == StoryType::Milestone, x.effective_type() == StoryType::Milestone);
      EXPECT_EQ(after.intervals.interval(i), before.intervals.interval(i));
      // MSPDI writes a cost and work on every task, so an explicit 0 and none are the same there.
      EXPECT_EQ(y.budget_estimate_in_cents.value_or(0), x.budget_estimate_in_cents.value_or(0));
      EXPECT_EQ(y.time_estimate_in_minutes.value_or(0), x.time_estimate_in_minutes.value_or(0));
      const auto list = [](const Story& s) {
        return s.assignments ? std::vector<std::int64_t>(s.assignments->begin(), s.assignments->end())
                             : std::vector<std::int64_t>();
      };
      EXPECT_EQ(list(y), list(x));
    } else {
      // A parent is its children's span both ways.
      EXPECT_EQ(after.intervals.interval(i), before.intervals.interval(i));
    }
  }
  EXPECT_EQ(links_of(after.graph), links_of(before.graph));
  EXPECT_EQ(after.rollup.total(Estimate::BudgetInCents), before.rollup.total(Estimate::BudgetInCents));
  EXPECT_EQ(after.rollup.total(Estimate::TimeInMinutes), before.rollup.total(Estimate::TimeInMinutes));
}

TEST(ConvertMspdiRoundTrip, EverySampleComesBackWithEverythingBothFormatsHold) {
  int checked = 0;
  for (const std::string& sample : json_files("samples")) {
    if (sample == "samples/lint-demo-broken.json") continue;  // below
    const TemplateFile original = TemplateFile::parse(sample, FileText(read_source(sample)));
    auto exported = export_mspdi(original);
    ASSERT_TRUE(exported.ok()) << exported.error().message;
    auto imported = convert_mspdi(exported.value().document, sample + ".xml");
    ASSERT_TRUE(imported.ok()) << imported.error().message;
    for (const Diagnostic& d : imported.value().diagnostics)
      ADD_FAILURE() << sample << ": importing our own export reported " << d.rule << ": " << d.message;
    expect_same_plan(Loaded(TemplateFile::parse(sample, FileText(read_source(sample)))),
                     Loaded(TemplateFile::parse("back.json", FileText(imported.value().document))), sample);
    ++checked;
  }
  EXPECT_EQ(checked, 6);
}

// Values the samples do not have: temp_ids with markup and quotes, an integer temp_id that is
// no task UID (0), checklist items with quotes, brackets, backslashes, line breaks and
// non-ASCII, an empty checklist and tag list, negative weights.
TEST(ConvertMspdiRoundTrip, TagsChecklistsWeightsAndStringTempIdsComeBackExactly) {
  const std::string relative = "tests/data/mspdi/extended-attributes.json";
  const TemplateFile original = TemplateFile::parse(relative, FileText(read_source(relative)));
  auto exported = export_mspdi(original, ExportOptions{.start = *parse_date("2027-01-04")});
  ASSERT_TRUE(exported.ok()) << exported.error().message;
  for (const Diagnostic& d : exported.value().diagnostics)
    EXPECT_EQ(d.rule, "mspdi-export-temp-id") << d.message;  // every other key has a place
  pugi::xml_document xml;
  ASSERT_TRUE(xml.load_string(exported.value().document.c_str()));
  std::map<std::string, std::string> alias;  // FieldID → Alias
  for (pugi::xml_node a : xml.child("Project").child("ExtendedAttributes").children("ExtendedAttribute"))
    alias[a.child_value("FieldID")] = a.child_value("Alias");
  EXPECT_EQ(alias, (std::map<std::string, std::string>{{"188743731", "ptmpl tags"},
                                                       {"188743734", "ptmpl checklist"},
                                                       {"188743737", "ptmpl weight"},
                                                       {"188743740", "ptmpl temp_id"}}));
  std::map<std::string, std::string> first_task;  // Alias → Value
  for (pugi::xml_node a : xml.child("Project").child("Tasks").child("Task").children("ExtendedAttribute"))
    first_task[alias[a.child_value("FieldID")]] = a.child_value("Value");
  EXPECT_EQ(first_task, (std::map<std::string, std::string>{
                            {"ptmpl tags", "planning, kick-off ,  room booking"},
                            {"ptmpl checklist",
                             "[\"Book the room, \\\"big\\\" one\",\"[draft] agenda \\\\ notes\",\"Café – naïve 🎉\","
                             "\"line one\\nline two\"]"},
                            {"ptmpl temp_id", "prep <1> & \"a\""}}));

  auto imported = convert_mspdi(exported.value().document, "back.xml");
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  for (const Diagnostic& d : imported.value().diagnostics)
    ADD_FAILURE() << "importing our own export reported " << d.rule << ": " << d.message;
  expect_same_plan(Loaded(TemplateFile::parse(relative, FileText(read_source(relative)))),
                   Loaded(TemplateFile::parse("back.json", FileText(imported.value().document))), relative);
}

// A value under a ptmpl alias that cannot be read is a finding at its place, and the story
// goes without it; a field of the same number under another alias is someone else's.
TEST(ConvertMspdiRoundTrip, AnExtendedAttributeThatCannotBeReadIsAFindingWithItsPlace) {
  const std::string xml = R"(<?xml version="1.0" encoding="UTF-8"?>
<Project xmlns="http://schemas.microsoft.com/project">
  <StartDate>2027-01-04T08:00:00</StartDate>
  <ExtendedAttributes>
    <ExtendedAttribute><FieldID>188743731</FieldID><FieldName>Text1</FieldName><Alias>Cost centre</Alias></ExtendedAttribute>
    <ExtendedAttribute><FieldID>188743734</FieldID><FieldName>Text2</FieldName><Alias>ptmpl checklist</Alias></ExtendedAttribute>
    <ExtendedAttribute><FieldID>188743737</FieldID><FieldName>Text3</FieldName><Alias>ptmpl weight</Alias></ExtendedAttribute>
    <ExtendedAttribute><FieldID>188743740</FieldID><FieldName>Text4</FieldName><Alias>ptmpl temp_id</Alias></ExtendedAttribute>
  </ExtendedAttributes>
  <Tasks>
    <Task><UID>1</UID><Name>a</Name>
      <ExtendedAttribute><FieldID>188743731</FieldID><Value>CC-42</Value></ExtendedAttribute>
      <ExtendedAttribute><FieldID>188743734</FieldID><Value>["ok", 3</Value></ExtendedAttribute>
      <ExtendedAttribute><FieldID>188743737</FieldID><Value>heavy</Value></ExtendedAttribute>
    </Task>
    <Task><UID>2</UID><Name>b</Name>
      <ExtendedAttribute><FieldID>188743734</FieldID><Value>["fine", " "]</Value></ExtendedAttribute>
      <ExtendedAttribute><FieldID>188743740</FieldID><Value>1</Value></ExtendedAttribute>
    </Task>
    <Task><UID>3</UID><Name>c</Name>
      <ExtendedAttribute><FieldID>188743734</FieldID><Value>["one", "two"]</Value></ExtendedAttribute>
      <ExtendedAttribute><FieldID>188743737</FieldID><Value>2</Value></ExtendedAttribute>
      <ExtendedAttribute><FieldID>188743740</FieldID><Value>c-3</Value></ExtendedAttribute>
    </Task>
  </Tasks>
</Project>
)";
  auto imported = convert_mspdi(xml, "attributes.xml");
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  std::vector<std::string> found;
  for (const Diagnostic& d : imported.value().diagnostics)
    if (d.rule == "mspdi-extended-attribute") found.push_back(d.rule + " " + std::to_string(d.line) + ": " + d.message);
  EXPECT_EQ(
      found,
      (std::vector<std::string>{
          "mspdi-extended-attribute 13: task 1 \"a\": \"ptmpl checklist\" is not a JSON array of non-blank "
          "strings ([\"ok\", 3); the story has no checklist",
          "mspdi-extended-attribute 14: task 1 \"a\": \"ptmpl weight\" is not an integer (heavy); the story has no "
          "weight",
          "mspdi-extended-attribute 17: task 2 \"b\": \"ptmpl checklist\" is not a JSON array of non-blank "
          "strings ([\"fine\", \" \"]); the story has no checklist",
          "mspdi-extended-attribute 18: task 2 \"b\": \"ptmpl temp_id\" 1 is task 1's temp_id already; the story's "
          "temp_id is its UID, 2"}));
  const TemplateFile back = TemplateFile::parse("back.json", FileText(imported.value().document));
  const std::span<const Story> stories = back.templates().at(0).model.stories;
  ASSERT_EQ(stories.size(), 3u);
  EXPECT_FALSE(stories[0].checklist);
  EXPECT_FALSE(stories[0].weight);
  EXPECT_FALSE(stories[0].tag_list);  // Text1 is the file's cost centre, not ptmpl's tags
  EXPECT_EQ(stories[1].temp_id, OptionalTempId(TempId{std::int64_t{2}}));
  EXPECT_EQ(checklist_of(stories[2]), (std::vector<std::string>{"one", "two"}));
  EXPECT_EQ(stories[2].weight, 2);
  EXPECT_EQ(stories[2].temp_id, OptionalTempId(TempId{std::string_view("c-3")}));
}

TEST(ConvertMspdiRoundTrip, WhatMspdiCannotHoldIsReported) {
  const TemplateFile office =
      TemplateFile::parse("samples/office-move.json", FileText(read_source("samples/office-move.json")));
  auto exported = export_mspdi(office);
  ASSERT_TRUE(exported.ok());
  std::map<std::string, int> count;
  for (const Diagnostic& d : exported.value().diagnostics) {
    ++count[d.rule];
    EXPECT_GT(d.line, 0u) << d.message;
  }
  EXPECT_EQ(count["mspdi-export-temp-id"], 37);  // string temp_ids, kept as "ptmpl temp_id"
  EXPECT_GT(count["mspdi-export-dropped"], 0);   // deliverables
}

TEST(ConvertMspdiRoundTrip, XmlFollowsTheSchemaOrder) {
  const TemplateFile erp =
      TemplateFile::parse("samples/erp-implementation.json", FileText(read_source("samples/erp-implementation.json")));
  auto exported = export_mspdi(erp, ExportOptions{.start = *parse_date("2027-03-01")});
  ASSERT_TRUE(exported.ok());
  pugi::xml_document xml;
  ASSERT_TRUE(xml.load_string(exported.value().document.c_str()));
  const pugi::xml_node project = xml.child("Project");
  EXPECT_STREQ(project.child_value("StartDate"), "2027-03-01T08:00:00");
  // The Task element's sequence in the MSPDI schema (mspdi_pj12.xsd, the Project 2007 XML Data
  // Interchange Schema as Microsoft documents it), every element of it, in order: each child a
  // task has must be one of them, in this order (PredecessorLink and the other lists repeat).
  const std::vector<std::string> task_order = {"UID",
                                               "ID",
                                               "Name",
                                               "Type",
                                               "IsNull",
                                               "CreateDate",
                                               "Contact",
                                               "WBS",
                                               "WBSLevel",
                                               "OutlineNumber",
                                               "OutlineLevel",
                                               "Priority",
                                               "Start",
                                               "Finish",
                                               "Duration",
                                               "DurationFormat",
                                               "Work",
                                               "Stop",
                                               "Resume",
                                               "ResumeValid",
                                               "EffortDriven",
                                               "Recurring",
                                               "OverAllocated",
                                               "Estimated",
                                               "Milestone",
                                               "Summary",
                                               "Critical",
                                               "IsSubproject",
                                               "IsSubprojectReadOnly",
                                               "SubprojectName",
                                               "ExternalTask",
                                               "ExternalTaskProject",
                                               "EarlyStart",
                                               "EarlyFinish",
                                               "LateStart",
                                               "LateFinish",
                                               "StartVariance",
                                               "FinishVariance",
                                               "WorkVariance",
                                               "FreeSlack",
                                               "TotalSlack",
                                               "FixedCost",
                                               "FixedCostAccrual",
                                               "PercentComplete",
                                               "PercentWorkComplete",
                                               "Cost",
                                               "OvertimeCost",
                                               "OvertimeWork",
                                               "ActualStart",
                                               "ActualFinish",
                                               "ActualDuration",
                                               "ActualCost",
                                               "ActualOvertimeCost",
                                               "ActualWork",
                                               "ActualOvertimeWork",
                                               "RegularWork",
                                               "RemainingDuration",
                                               "RemainingCost",
                                               "RemainingWork",
                                               "RemainingOvertimeCost",
                                               "RemainingOvertimeWork",
                                               "ACWP",
                                               "CV",
                                               "ConstraintType",
                                               "CalendarUID",
                                               "ConstraintDate",
                                               "Deadline",
                                               "LevelAssignments",
                                               "LevelingCanSplit",
                                               "LevelingDelay",
                                               "LevelingDelayFormat",
                                               "PreLeveledStart",
                                               "PreLeveledFinish",
                                               "Hyperlink",
                                               "HyperlinkAddress",
                                               "HyperlinkSubAddress",
                                               "IgnoreResourceCalendar",
                                               "Notes",
                                               "HideBar",
                                               "Rollup",
                                               "BCWS",
                                               "BCWP",
                                               "PhysicalPercentComplete",
                                               "EarnedValueMethod",
                                               "PredecessorLink",
                                               "ActualWorkProtected",
                                               "ActualOvertimeWorkProtected",
                                               "ExtendedAttribute",
                                               "Baseline",
                                               "OutlineCode",
                                               "IsPublished",
                                               "StatusManager",
                                               "CommitmentStart",
                                               "CommitmentFinish",
                                               "CommitmentType",
                                               "TimephasedData"};
  const std::vector<std::string> repeated = {"PredecessorLink", "ExtendedAttribute", "Baseline", "OutlineCode",
                                             "TimephasedData"};
  std::size_t tasks = 0;
  for (pugi::xml_node task : project.child("Tasks").children("Task")) {
    std::size_t last = 0;
    for (pugi::xml_node child : task.children()) {
      auto at = std::find(task_order.begin(), task_order.end(), child.name());
      ASSERT_NE(at, task_order.end()) << child.name();
      const auto position = static_cast<std::size_t>(at - task_order.begin());
      // `last`: the first position the next child may take (past this one, unless it repeats).
      EXPECT_GE(position, last) << child.name() << " out of order, or repeated, in task " << task.child_value("UID");
      const bool repeats = std::find(repeated.begin(), repeated.end(), child.name()) != repeated.end();
      last = repeats ? position : position + 1;
    }
    ++tasks;
  }
  EXPECT_EQ(tasks, 164u);
  const std::vector<std::string> project_order = {"SaveVersion",
                                                  "Name",
                                                  "Title",
                                                  "ScheduleFromStart",
                                                  "StartDate",
                                                  "CurrencyCode",
                                                  "CalendarUID",
                                                  "DefaultStartTime",
                                                  "DefaultFinishTime",
                                                  "MinutesPerDay",
                                                  "MinutesPerWeek",
                                                  "DaysPerMonth",
                                                  "DurationFormat",
                                                  "WorkFormat",
                                                  "NewTasksEstimated",
                                                  "ExtendedAttributes",
                                                  "Calendars",
                                                  "Tasks",
                                                  "Resources",
                                                  "Assignments"};
  std::vector<std::string> names;
  for (pugi::xml_node child : project.children()) names.push_back(child.name());
  std::vector<std::string> expected;
  for (const std::string& n : project_order)
    if (std::find(names.begin(), names.end(), n) != names.end()) expected.push_back(n);
  EXPECT_EQ(names, expected);
}

TEST(ConvertMspdiRoundTrip, RefusesWhatItCannotSchedule) {
  const std::string cyclic =
      R"([{"title": "a", "temp_id": 1, "dependencies": [{"source_id": 1, "target_id": 2, "type": 2, "lag": 0}]},
    {"title": "b", "temp_id": 2, "dependencies": [{"source_id": 2, "target_id": 1, "type": 2, "lag": 0}]}])";
  auto exported = export_mspdi(TemplateFile::parse("cyclic.json", FileText(cyclic)));
  ASSERT_FALSE(exported.ok());
  EXPECT_EQ(exported.error().message,
            "cyclic.json: the template has no schedule (a dependency cycle); `ptmpl lint` shows where");
  auto broken = export_mspdi(TemplateFile::parse("broken.json", FileText("[{")));
  ASSERT_FALSE(broken.ok());
  // The parser's own message, with the place, as `--to csv` and `schedule` give it.
  EXPECT_EQ(broken.error().message, "broken.json:1:3: unexpected end of file: expected a member name in double quotes");
}

}  // namespace
}  // namespace ptmpl
