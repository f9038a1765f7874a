// The GanttProject reader fills the one plan model (convert/plan/plan.hpp) and the one builder
// makes the template (convert/plan/builder.hpp): tests/data/gan/plan.gan read into a plan, and
// the template the builder makes of it, which is the one the reader wrote on its own before
// (tests/golden/convert/gan/plan.json).
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "convert/findings.hpp"
#include "convert/gan_reader.hpp"
#include "convert/plan/builder.hpp"
#include "convert/plan/work_calendar.hpp"
#include "convert_support.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/json.hpp"
#include "test_files.hpp"

namespace ptmpl::convert_gan_plan_test {
namespace {

using namespace std::chrono;
using testing::expect_golden;
using testing::findings_text;
using testing::read_source;

constexpr const char* kPath = "tests/data/gan/plan.gan";

struct Read {
  std::string path = kPath;  // the sink keeps a reference to it
  std::string text = read_source(kPath);
  detail::FindingSink findings{text, path, ConvertOptions{}};
  std::unique_ptr<gan::PlanDocument> document;

  Read() {
    auto read = gan::read_plan(text, path, findings);
    EXPECT_TRUE(read.ok()) << (read.ok() ? "" : read.error().message);
    if (read.ok()) document = std::move(read).value();
  }
};

TEST(ConvertGanPlan, TheReaderFillsThePlanModel) {
  Read read;
  ASSERT_NE(read.document, nullptr);
  const plan::Plan& plan = read.document->plan;
  EXPECT_EQ(plan.source.finding_prefix, "gan-");
  EXPECT_EQ(plan.project.title, "Plan model");
  EXPECT_EQ(plan.project.description, "The plan the reader fills.");
  EXPECT_FALSE(plan.project.start);  // day 0 is the earliest task's start

  // Tasks in outline order: the id as UID (a repeated one: none), a start and a length in
  // working days, no finish.
  struct Expected {
    std::int64_t uid;
    bool has_uid;
    std::string_view name;
    std::int64_t level;
    bool milestone;
    Date start;
    std::int64_t working_days;
  };
  const Expected expected[] = {
      {1, true, "Phase", 1, false, year{2028} / 2 / 28, 9},  {2, true, "A", 2, false, year{2028} / 2 / 28, 4},
      {3, true, "B", 2, false, year{2028} / 3 / 7, 2},       {4, true, "Gate", 1, true, year{2028} / 2 / 28, 0},
      {0, false, "Twice", 1, false, year{2029} / 2 / 27, 2},
  };
  ASSERT_EQ(plan.tasks.size(), std::size(expected));
  for (std::size_t i = 0; i < plan.tasks.size(); ++i) {
    SCOPED_TRACE(i);
    const plan::Task& task = plan.tasks[i];
    EXPECT_EQ(task.has_uid, expected[i].has_uid);
    if (task.has_uid) {
      EXPECT_EQ(task.uid, expected[i].uid);
    }
    EXPECT_EQ(task.name, expected[i].name);
    EXPECT_EQ(task.level, expected[i].level);
    EXPECT_EQ(task.milestone, expected[i].milestone);
    EXPECT_EQ(task.start, (plan::DateTime{expected[i].start, 0}));
    EXPECT_EQ(task.working_days, expected[i].working_days);
    EXPECT_FALSE(task.finish);
    EXPECT_FALSE(task.duration);
  }
  EXPECT_EQ(plan.tasks[1].notes, "Notes of A");
  EXPECT_EQ(plan.tasks[1].cost, 1250.0);

  // Links on their successors (B, then Gate), each numbered in GanttProject's order: A lists
  // Gate (SS) before B (FS, a day of lag, in minutes of an 8-hour day).
  ASSERT_EQ(plan.links.size(), 2u);
  EXPECT_EQ(plan.tasks[2].first_link, 0u);
  EXPECT_EQ(plan.tasks[2].link_count, 1u);
  EXPECT_EQ(plan.tasks[3].first_link, 1u);
  EXPECT_EQ(plan.tasks[3].link_count, 1u);
  const plan::Link& into_b = plan.links[0];
  const plan::Link& into_gate = plan.links[1];
  EXPECT_EQ(into_b.predecessor, 2);
  EXPECT_EQ(into_b.type, plan::LinkType::FinishToStart);
  EXPECT_EQ(into_b.lag, 480.0);
  EXPECT_EQ(into_gate.predecessor, 2);
  EXPECT_EQ(into_gate.type, plan::LinkType::StartToStart);
  EXPECT_EQ(into_gate.lag, 0.0);
  EXPECT_LT(into_gate.source_order, into_b.source_order);

  // One calendar, GanttProject's rule in the plan model's terms: a yearly holiday on 29
  // February only in leap years, a neutral day deferring to the yearly holiday under it, a
  // one-off working day over a yearly holiday and on a Saturday, a yearly working day on a
  // Sunday changing nothing, 31 April never.
  ASSERT_EQ(plan.calendars.size(), 1u);
  ASSERT_EQ(plan.project.calendar_uid, plan.calendars[0].uid);
  std::vector<plan::CalendarNote> notes;
  plan::WorkCalendar calendar = plan::WorkCalendar::read(plan.calendars, plan.calendars[0].uid, notes);
  calendar.expand(year{2027} / 1 / 1, year{2030} / 12 / 31, notes);
  EXPECT_TRUE(notes.empty());
  std::vector<Date> off;
  for (Date d = year{2028} / 2 / 26; d <= year{2028} / 3 / 6; d += days{1})
    if (!calendar.working(d)) off.push_back(d);
  EXPECT_EQ(off, (std::vector<Date>{year{2028} / 2 / 26, year{2028} / 2 / 27, year{2028} / 2 / 29, year{2028} / 3 / 1,
                                    year{2028} / 3 / 5}));
  EXPECT_TRUE(calendar.working(year{2029} / 2 / 28));  // no leap day: no holiday
  EXPECT_FALSE(calendar.working(year{2029} / 3 / 1));
  EXPECT_FALSE(calendar.working(year{2029} / 3 / 2));  // the one-off working day was 2028's
  EXPECT_TRUE(calendar.working(year{2029} / 4 / 30));

  // Named resources and their allocations.
  ASSERT_EQ(plan.resources.size(), 1u);
  EXPECT_EQ(plan.resources[0].uid, 0);
  EXPECT_EQ(plan.resources[0].name, "Dev");
  ASSERT_EQ(plan.assignments.size(), 1u);
  EXPECT_EQ(plan.assignments[0].task_uid, 2);
  EXPECT_EQ(plan.assignments[0].resource_uid, 0);
}

TEST(ConvertGanPlan, TheBuilderMakesTheTemplateTheReaderMadeBefore) {
  Read read;
  ASSERT_NE(read.document, nullptr);
  Result<Conversion> built = plan::build_template(read.document->plan, kPath, read.findings);
  ASSERT_TRUE(built.ok()) << built.error().message;
  built.value().diagnostics = read.findings.take();
  expect_golden("tests/golden/convert/gan/plan.json", built.value().document);
  expect_golden("tests/golden/convert/gan/plan.txt", findings_text(kPath, built.value()));
  EXPECT_EQ(built.value().document, convert_gan(read.text, kPath).value().document);
}

// The builder's bounds of a lag and a cost are findings of its own (`mspdi-lag-invalid`,
// `mspdi-cost-invalid`); the `.gan` reader keeps a plan within them and says so itself.
TEST(ConvertGanPlan, ValuesBeyondTheBuildersBoundsAreTheReadersFindings) {
  const std::string gan =
      "<project name=\"b\"><tasks>"
      "<task id=\"1\" name=\"Gate\" meeting=\"true\" start=\"2027-01-04\" duration=\"1\">"
      "<depend id=\"2\" type=\"2\" difference=\"999999999998\"/></task>"
      "<task id=\"2\" name=\"After\" meeting=\"false\" start=\"2027-01-05\" duration=\"1\" "
      "cost-manual-value=\"91000000000000000\">"
      "<depend id=\"3\" type=\"2\" difference=\"999999999999\"/></task>"
      "<task id=\"3\" name=\"Last\" meeting=\"false\" start=\"2027-01-06\" duration=\"1\"/>"
      "</tasks></project>";
  auto converted = convert_gan(gan, "bounds.gan");
  ASSERT_TRUE(converted.ok()) << converted.error().message;
  std::vector<std::string> rules;
  for (const Diagnostic& d : converted.value().diagnostics) rules.push_back(d.rule);
  // The plan's dates keep no link of a trillion days: After and Last are scheduled later, and say so.
  EXPECT_EQ(rules, (std::vector<std::string>{"gan-milestone-day", "gan-cost", "gan-link-not-kept", "gan-link-invalid",
                                             "gan-moved-by-task"}));
  const json::Document doc = json::Document::parse(converted.value().document);
  const json::Value& list = *doc.root().find("project_template")->find("raw_json");
  EXPECT_EQ(testing::int_of(&testing::find_story(list, 1)->find("dependencies")->items()[0], "lag"), 999999999999);
  EXPECT_EQ(testing::int_of(&testing::find_story(list, 2)->find("dependencies")->items()[0], "lag"), 0);
  EXPECT_EQ(testing::find_story(list, 2)->find("budget_estimate_in_cents"), nullptr);
}

}  // namespace
}  // namespace ptmpl::convert_gan_plan_test
