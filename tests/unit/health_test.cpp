// Schedule health (libtemplate/core/health.hpp): the DCMA metrics over small templates worked
// out by hand, the critical path test rescheduling with a delay (passing on sound logic,
// failing on a hand-made broken one), the rule group off by default and turned on by
// `select` or the configuration, and the options the configuration checks.
#include "libtemplate/core/health.hpp"

#include <gtest/gtest.h>

#include <span>
#include <string>
#include <vector>

#include "libtemplate/core/config.hpp"
#include "libtemplate/core/health_report.hpp"
#include "libtemplate/core/lint.hpp"
#include "libtemplate/core/template_file.hpp"

namespace ptmpl {
namespace {

/// A parsed story list, its schedule and its health.
struct Assessed {
  TemplateFile file;
  ScheduledTemplate planned;
  HealthAssessment health;

  explicit Assessed(std::string text, const HealthThresholds& thresholds = {})
      : file(TemplateFile::parse("test.json", FileText(std::move(text)))),
        planned(file.templates().at(0).model.stories),
        health(assess_health(planned.schedule(), thresholds, health_deadline(file.templates().at(0).model))) {}

  /// The temp_ids of the offending stories of `id`: "3 4".
  [[nodiscard]] std::string stories(HealthMetricId id) const {
    std::string out;
    for (std::size_t story : health[id].stories)
      out += (out.empty() ? "" : " ") + temp_id_key(*planned.index().story(story).temp_id);
    return out;
  }
};

// Three stories in a finish-to-start chain, each 5 days: sound logic.
const char* const kChain = R"([
  {"temp_id": 1, "title": "A", "duration": 5, "dependencies": [{"source_id": 1, "target_id": 2, "type": 2}]},
  {"temp_id": 2, "title": "B", "duration": 5, "dependencies": [{"source_id": 2, "target_id": 3, "type": 2}]},
  {"temp_id": 3, "title": "C", "duration": 5}
])";

TEST(Health, SoundChainPassesEveryApplicableMetric) {
  const Assessed a(kChain);
  EXPECT_TRUE(a.health.passed());
  EXPECT_EQ(a.health.stories, 3U);
  EXPECT_EQ(a.health.links, 2U);
  // The first story needs no predecessor and the last no successor.
  EXPECT_EQ(a.stories(HealthMetricId::Logic), "");
  const HealthMetric& types = a.health[HealthMetricId::RelationshipTypes];
  EXPECT_EQ(types.count, 2U);  // finish-to-start links
  EXPECT_EQ(types.share(), 100.0);
  for (HealthMetricId id :
       {HealthMetricId::InvalidDates, HealthMetricId::MissedTasks, HealthMetricId::Cpli, HealthMetricId::Bei}) {
    EXPECT_EQ(a.health[id].info().kind, HealthKind::NotApplicable);
    EXPECT_TRUE(a.health[id].passed) << "a metric that is not applicable never fails";
    EXPECT_FALSE(a.health[id].info().counted.empty()) << "it says why";
  }
}

TEST(Health, CriticalPathTestReschedulesWithTheDelay) {
  const Assessed a(kChain, HealthThresholds{.delay_days = 7});
  const HealthMetric& test = a.health[HealthMetricId::CriticalPathTest];
  EXPECT_EQ(a.planned.index().story(test.tested).title, "A");  // the first of the chain
  EXPECT_EQ(test.total, 7U);
  EXPECT_EQ(test.count, 7U);  // C finishes on day 22, not 15
  EXPECT_TRUE(test.passed);
  EXPECT_EQ(test.tested_reference, "1 \"A\"");
}

TEST(Health, CriticalPathTestFailsWhereTheFinishOfACriticalStoryDrivesNothing) {
  // Hand-made broken logic: A starts B (start-to-start), and B alone ends the project. A is
  // critical (no float on its start), but a late A does not move the finish as much.
  const Assessed a(R"([
  {"temp_id": 1, "title": "A", "duration": 5, "dependencies": [{"source_id": 1, "target_id": 2, "type": 0}]},
  {"temp_id": 2, "title": "B", "duration": 10}
])",
                   HealthThresholds{.delay_days = 20});
  const HealthMetric& test = a.health[HealthMetricId::CriticalPathTest];
  EXPECT_FALSE(test.passed);
  EXPECT_EQ(test.count, 15U);  // A ends on day 25 instead of 5; the finish moves from 10 to 25
  EXPECT_EQ(a.stories(HealthMetricId::CriticalPathTest), "1");
  EXPECT_EQ(health_summary(test),
            "delaying critical story 1 \"A\" by 20 working days moves the finish by 15; DCMA's test wants it moved by "
            "as much");
}

TEST(Health, LinksOfAParentCountForTheStoriesInside) {
  // 1 → parent 10 binds 11 and 12 inside it; parent 10 → 3 follows them. Nothing lacks a link.
  const Assessed a(R"([
  {"temp_id": 1, "title": "Start", "duration": 1, "dependencies": [{"source_id": 1, "target_id": 10, "type": 2}]},
  {"temp_id": 10, "title": "Work", "dependencies": [{"source_id": 10, "target_id": 3, "type": 2}], "sub_stories": [
    {"temp_id": 11, "title": "Part one", "duration": 2},
    {"temp_id": 12, "title": "Part two", "duration": 3}
  ]},
  {"temp_id": 3, "title": "End", "duration": 1},
  {"temp_id": 4, "title": "Loose end", "duration": 1, "dependencies": [{"source_id": 4, "target_id": 3, "type": 2}]}
])");
  EXPECT_EQ(a.health.stories, 5U) << "leaves only: the parent is a roll-up";
  // 4 starts on day 0 like 1 but later in the outline: only 1 is the first.
  EXPECT_EQ(a.stories(HealthMetricId::Logic), "4");
  EXPECT_EQ(a.health[HealthMetricId::Logic].lacks, std::vector<std::uint8_t>{HealthMetric::kNoPredecessor});
}

TEST(Health, ADeclaredStartIsAHardConstraintOnlyWhenItHoldsTheStoryLater) {
  const std::string at_the_links = R"([
  {"temp_id": 1, "title": "A", "duration": 2, "dependencies": [{"source_id": 1, "target_id": 2, "type": 2}]},
  {"temp_id": 2, "title": "B", "duration": 2, "relative_start_date": 2},
  {"temp_id": 3, "title": "C", "duration": 2, "relative_start_date": 9}
])";
  EXPECT_EQ(Assessed(at_the_links).stories(HealthMetricId::HardConstraints), "")
      << "a declared start where the links put it, and one on a story without links, hold nothing";
  std::string later = at_the_links;
  later.replace(later.find("\"relative_start_date\": 2"), 24, "\"relative_start_date\": 3");
  EXPECT_EQ(Assessed(later).stories(HealthMetricId::HardConstraints), "2");
}

TEST(Health, FloatDurationAndUnassignedWorkAgainstTheirThresholds) {
  const std::string text = R"([
  {"temp_id": 1, "title": "A", "duration": 5, "dependencies": [{"source_id": 1, "target_id": 2, "type": 2}, {"source_id": 1, "target_id": 3, "type": 2}]},
  {"temp_id": 2, "title": "Long", "duration": 50, "time_estimate_in_minutes": 600, "assignments": [{"assignee_id": 1}], "dependencies": [{"source_id": 2, "target_id": 4, "type": 2}]},
  {"temp_id": 3, "title": "Short", "duration": 4, "time_estimate_in_minutes": 60, "assignments": [], "dependencies": [{"source_id": 3, "target_id": 4, "type": 2}]},
  {"temp_id": 4, "title": "End", "story_type": "milestone"}
])";
  const Assessed dcma(text);
  EXPECT_EQ(dcma.stories(HealthMetricId::HighFloat), "3");  // 46 days of float
  EXPECT_EQ(dcma.stories(HealthMetricId::HighDuration), "2");
  EXPECT_EQ(dcma.stories(HealthMetricId::Resources), "3") << "an empty list of assignments assigns no one";
  EXPECT_EQ(dcma.stories(HealthMetricId::NegativeFloat), "");
  EXPECT_FALSE(dcma.health[HealthMetricId::HighFloat].passed);  // 1 of 4 is 25 %
  HealthThresholds loose;
  loose.high_float_days = 46;
  loose.high_duration_days = 50;
  loose[HealthMetricId::Resources] = 25;
  const Assessed relaxed(text, loose);
  EXPECT_EQ(relaxed.stories(HealthMetricId::HighFloat), "");
  EXPECT_EQ(relaxed.stories(HealthMetricId::HighDuration), "");
  EXPECT_TRUE(relaxed.health[HealthMetricId::Resources].passed) << "25 % is at most 25 %";
}

// A template document around kChain (A [0, 5), B [5, 10), C [10, 15)) and a side story D
// [0, 2) that C waits for, with the calendar block `calendar`.
std::string chain_with_calendar(const std::string& calendar) {
  return R"({"project_template": {"title": "T", "raw_json": [
  {"temp_id": 1, "title": "A", "duration": 5, "dependencies": [{"source_id": 1, "target_id": 2, "type": 2}]},
  {"temp_id": 2, "title": "B", "duration": 5, "dependencies": [{"source_id": 2, "target_id": 3, "type": 2}]},
  {"temp_id": 3, "title": "C", "duration": 5},
  {"temp_id": 4, "title": "D", "duration": 2, "dependencies": [{"source_id": 4, "target_id": 3, "type": 2}]}
]}, "calendar": )" +
         calendar + "}";
}

// Day 0 is Monday 2027-03-01, so the project's last day, 14, is Friday 2027-03-19, and D has 8
// days of float. A deadline n working days earlier takes n days from every float.
TEST(Health, NegativeFloatCountsFromTheCalendarsFinish) {
  const Assessed late(chain_with_calendar(R"({"start": "2027-03-01", "finish": "2027-03-16"})"));
  EXPECT_EQ(late.health.deadline_slack, -3);  // Tuesday the 16th is day 11
  EXPECT_EQ(late.stories(HealthMetricId::NegativeFloat), "1 2 3");
  EXPECT_FALSE(late.health[HealthMetricId::NegativeFloat].passed);
  EXPECT_EQ(float_to_deadline(late.health, late.planned.schedule()[3]), 5);  // D: 8 - 3

  // Ten working days late: D's 8 days are not enough either.
  const Assessed later(chain_with_calendar(R"({"start": "2027-03-01", "finish": "2027-03-05"})"));
  EXPECT_EQ(later.health.deadline_slack, -10);
  EXPECT_EQ(later.stories(HealthMetricId::NegativeFloat), "1 2 3 4");

  // A Sunday stands for the Friday before: the 21st is the 19th, the project's last day. A
  // holiday on the 19th makes the deadline Thursday the 18th (day 13) and day 14 Monday the
  // 22nd: one day late.
  const Assessed sunday(chain_with_calendar(R"({"start": "2027-03-01", "finish": "2027-03-21"})"));
  EXPECT_EQ(sunday.health.deadline_slack, 0);
  EXPECT_EQ(sunday.stories(HealthMetricId::NegativeFloat), "");
  EXPECT_TRUE(sunday.health[HealthMetricId::NegativeFloat].passed);
  const Assessed holiday(
      chain_with_calendar(R"({"start": "2027-03-01", "finish": "2027-03-19", "holidays": ["2027-03-19"]})"));
  EXPECT_EQ(holiday.health.deadline_slack, -1);
  EXPECT_EQ(holiday.stories(HealthMetricId::NegativeFloat), "1 2 3");

  // A later deadline leaves every float positive; without a start (day 0 placed back from the
  // finish) or without a finish there is no deadline.
  const Assessed early(chain_with_calendar(R"({"start": "2027-03-01", "finish": "2027-06-30"})"));
  ASSERT_TRUE(early.health.deadline_slack);
  EXPECT_GT(*early.health.deadline_slack, 0);
  EXPECT_EQ(early.stories(HealthMetricId::NegativeFloat), "");
  // A block with a problem (here a date that does not exist) gives no deadline either: lint's
  // calendar-invalid reports it, and the commands refuse it.
  for (const char* calendar : {R"({"finish": "2027-03-05"})", R"({"start": "2027-03-01"})", "{}",
                               R"({"start": "2027-03-01", "finish": "2027-02-30"})",
                               R"({"start": "2027-03-01", "finish": "2027-03-05", "week": ["mon", "tue", "moon"]})"}) {
    const Assessed none(chain_with_calendar(calendar));
    EXPECT_FALSE(none.health.deadline_slack) << calendar;
    EXPECT_EQ(none.stories(HealthMetricId::NegativeFloat), "") << calendar;
  }
}

// A start-side milestone that ends the project shows on the day after the boundary the backward
// pass starts from: with the deadline on the day before, the milestone misses it, and the task
// before it, which ends on the deadline, does not (finishing it earlier would move nothing).
TEST(Health, AStartSideMilestoneAtTheEndIsTheOneThatMissesTheDeadline) {
  const Assessed a(R"({"project_template": {"title": "T", "raw_json": [
  {"temp_id": 1, "title": "A", "duration": 15},
  {"temp_id": 2, "title": "M", "story_type": "milestone", "relative_start_date": 15, "relative_due_date": 15}
]}, "calendar": {"start": "2027-03-01", "finish": "2027-03-19"}})");
  EXPECT_EQ(a.planned.schedule().project()->due, 15);  // M on Monday the 22nd
  EXPECT_EQ(a.health.deadline_slack, -1);
  EXPECT_EQ(a.stories(HealthMetricId::NegativeFloat), "2");
  EXPECT_EQ(float_to_deadline(a.health, a.planned.schedule()[0]), 0);
  EXPECT_EQ(float_to_deadline(a.health, a.planned.schedule()[1]), -1);
}

TEST(Health, LeadsLagsAndTypesCountLinksThatConstrain) {
  const Assessed a(R"([
  {"temp_id": 1, "title": "A", "duration": 5, "dependencies": [{"source_id": 1, "target_id": 2, "type": 2, "lag": -1}, {"source_id": 1, "target_id": 3, "type": 0, "lag": 2}, {"source_id": 1, "target_id": 1, "type": 2}]},
  {"temp_id": 2, "title": "B", "duration": 5},
  {"temp_id": 3, "title": "C", "duration": 5}
])");
  EXPECT_EQ(a.health.links, 2U) << "the self-link constrains nothing";
  EXPECT_EQ(a.health[HealthMetricId::Leads].links.size(), 1U);
  EXPECT_EQ(a.health[HealthMetricId::Lags].links.size(), 1U);
  EXPECT_EQ(a.health[HealthMetricId::RelationshipTypes].count, 1U);
  EXPECT_EQ(health_summary(a.health[HealthMetricId::RelationshipTypes]),
            "finish-to-start links: 1 of 2 (50 %); DCMA's threshold is at least 90 %");
}

TEST(Health, AnEmptyTemplateHasNothingToJudgeAndPasses) {
  const Assessed a("[]");
  EXPECT_TRUE(a.health.passed());
  EXPECT_EQ(a.health[HealthMetricId::CriticalPathTest].tested, Schedule::npos) << "no critical story to delay";
  EXPECT_EQ(a.health[HealthMetricId::Logic].total, 0U);
  const HealthReport report{"-", a.health};
  const std::string table = format_health_report(ReportFormat::Text, std::span(&report, 1));
  EXPECT_NE(
      table.find("12  Critical path test      -    600       -  100 %          pass: no critical story to delay\n"),
      std::string::npos)
      << table;
}

TEST(Health, FormatPercent) {
  EXPECT_EQ(format_percent(0), "0 %");
  EXPECT_EQ(format_percent(100.0 / 3), "33 %");
  EXPECT_EQ(format_percent(7.6923), "7.7 %");
  EXPECT_EQ(format_percent(5), "5 %");
  EXPECT_EQ(format_percent(1.0 / 3), "0.33 %");
}

// ---------------------------------------------------------------------------------------------
// The rule group: off by default, on by select or by the configuration.

const char* const kLoose = R"([
  {"temp_id": 1, "title": "A", "duration": 5},
  {"temp_id": 2, "title": "B", "duration": 5}
])";

std::size_t health_findings(const std::vector<Diagnostic>& all) {
  std::size_t n = 0;
  for (const Diagnostic& d : all) n += d.rule.starts_with("health-") ? 1 : 0;
  return n;
}

TEST(HealthRules, OffByDefaultOnBySelectingTheGroupOrARule) {
  EXPECT_EQ(health_findings(lint_text("t.json", kLoose)), 0U);
  const std::vector<std::string> group{"schedule-health"};
  const std::vector<Diagnostic> all = lint_text("t.json", kLoose, {.select = group});
  // A lacks a successor, B a predecessor; 2 of 2; one summary.
  EXPECT_EQ(health_findings(all), 3U);
  for (const Diagnostic& d : all) EXPECT_EQ(d.rule, "health-logic") << "only what select names";
  const std::vector<std::string> one{"health-logic"};
  EXPECT_EQ(health_findings(lint_text("t.json", kLoose, {.select = one})), 3U);
  const std::vector<std::string> other{"title-missing"};
  EXPECT_EQ(health_findings(lint_text("t.json", kLoose, {.select = other})), 0U);
}

TEST(HealthRules, TheConfigurationTurnsTheGroupOnAndARuleOffAndSetsOptions) {
  auto config = LintConfig::parse(".ptmpl.json", R"({"rules": {
    "schedule-health": "error",
    "health-critical-path-test": "off",
    "health-logic": {"severity": "info", "options": {"max_percent": 100}}
  }})");
  ASSERT_TRUE(config.ok()) << config.error().message;
  const std::vector<Diagnostic> all = lint_text("t.json", kLoose, {.config = &config.value()});
  EXPECT_EQ(health_findings(all), 2U) << "no summary: 100 % is at most 100 %";
  for (const Diagnostic& d : all) {
    if (d.rule == "health-logic") {
      EXPECT_EQ(d.severity, Severity::Info) << "the rule's own setting wins";
    }
  }
  EXPECT_EQ(health_thresholds(&config.value().rules())[HealthMetricId::Logic], 100.0);
}

TEST(HealthRules, TheConfigurationRefusesOptionsARuleDoesNotHave) {
  auto config = LintConfig::parse(".ptmpl.json", R"({"rules": {
    "schedule-health": {"severity": "warning", "options": {"days": 10}},
    "health-high-float": {"options": {"day": 10, "max_percent": 101}},
    "health-critical-path-test": {"options": {"delay_days": 2.5}}
  }})");
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.error().message,
            ".ptmpl.json:2:59: the group \"schedule-health\" takes a severity, not options: set them on its rules\n"
            ".ptmpl.json:3:39: health-high-float has no option \"day\" (did you mean \"days\"?); "
            "docs/rules/health-high-float.md lists them\n"
            ".ptmpl.json:3:50: option \"max_percent\" of health-high-float is an integer (101), not a number from 0 to "
            "100\n"
            ".ptmpl.json:4:47: option \"delay_days\" of health-critical-path-test is a number (2.5), not a whole "
            "number from 1 to 100000");
}

}  // namespace
}  // namespace ptmpl
