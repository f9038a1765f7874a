// Template → MS Project XML → template keeps everything both formats hold (docs/semantics.md §7): the
// tree, titles, milestones, dates, durations, links, leaf amounts and totals, descriptions,
// assignments and the template's title and currency — on every sample. The XML follows the
// schema's element order, and what it cannot hold is reported.
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
    if (x.temp_id && std::holds_alternative<std::int64_t>(*x.temp_id)) {
      EXPECT_EQ(y.temp_id, x.temp_id);
    }
    EXPECT_EQ(y.description, x.description);
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
  EXPECT_EQ(count["mspdi-export-temp-id"], 37);  // string temp_ids
  EXPECT_GT(count["mspdi-export-dropped"], 0);   // tags, checklists, weights
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
