// `ptmpl health` end to end: the tables of the samples and of a converted plan, the JSON and a
// CI format as golden files (tests/golden/health/), exit codes; `lint --select`.
#include <gtest/gtest.h>

#include "cli_run.hpp"
#include "test_files.hpp"

namespace ptmpl::testing {
namespace {

const std::string kSamples =
    "samples/agency-retainer.json samples/employee-onboarding.json samples/erp-implementation.json "
    "samples/lint-demo-broken.json samples/office-move.json samples/software-release.json "
    "samples/website-launch.json";

TEST(CliHealth, SamplesTable) {
  const CliRun r = run_ptmpl("health " + kSamples);
  EXPECT_EQ(r.exit, 1) << "metrics fail";
  EXPECT_EQ(r.out, read_source("tests/golden/health/samples.txt"));
  // The values lint-demo-broken.json holds that the scheduler cannot take, as schedule says.
  EXPECT_NE(r.err.find("samples/lint-demo-broken.json:50:25: warning: story 3"), std::string::npos) << r.err;
}

TEST(CliHealth, Json) {
  const CliRun r = run_ptmpl("health samples/office-move.json --format json");
  EXPECT_EQ(r.exit, 1);
  EXPECT_EQ(r.out, read_source("tests/golden/health/office-move.json"));
  EXPECT_EQ(r.err, "");
}

TEST(CliHealth, GithubAnnotationsOfTheMetricsThatFail) {
  const CliRun r = run_ptmpl("health samples/office-move.json --format github");
  EXPECT_EQ(r.exit, 1);
  EXPECT_EQ(r.out, read_source("tests/golden/health/office-move.github.txt"));
}

TEST(CliHealth, PlanReadDirectly) {
  const CliRun r = run_ptmpl("health tests/data/mspdi/features.xml");
  EXPECT_EQ(r.exit, 1);
  EXPECT_EQ(r.out, read_source("tests/golden/health/features.txt"));
  EXPECT_EQ(r.err,
            "ptmpl health: tests/data/mspdi/features.xml: a plan, converted to a template first (15 findings: ptmpl "
            "convert tests/data/mspdi/features.xml lists them)\n");
}

TEST(CliHealth, PassingTemplateExitsZero) {
  const CliRun r = run_ptmpl("health tests/data/rules/health-critical-path-test/pass.json --no-config");
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("1 file assessed: every applicable metric passes\n"), std::string::npos) << r.out;
}

// The calendar block's start and finish are the deadline negative float counts to; the
// command reads them as lint does.
TEST(CliHealth, NegativeFloatToTheCalendarsFinish) {
  const CliRun late = run_ptmpl("health tests/data/rules/health-negative-float/fail.json --no-config");
  EXPECT_EQ(late.exit, 1) << late.out << late.err;
  EXPECT_NE(late.out.find(" 7  Negative float          3      4    75 %  at most 0 %    fail\n"), std::string::npos)
      << late.out;
  const CliRun met = run_ptmpl("health tests/data/rules/health-negative-float/pass.json --no-config --format json");
  EXPECT_EQ(met.exit, 0) << met.out << met.err;
  EXPECT_NE(met.out.find(R"x("id": "negative-float", "name": "Negative float", "applicable": true, )x"
                         R"x("rule": "health-negative-float", "counted": "stories with negative total float (to the )x"
                         R"x(calendar's finish)", "count": 0, "total": 4)x"),
            std::string::npos)
      << met.out;
}

// A calendar block with a problem is refused, as schedule refuses it: its deadline is not
// guessed from what could be read.
TEST(CliHealth, ACalendarBlockWithAProblemIsRefused) {
  const CliRun r = run_ptmpl("health tests/data/rules/calendar-invalid/fail.json --no-config");
  EXPECT_EQ(r.exit, 2) << r.out;
  EXPECT_NE(r.err.find("ptmpl health: tests/data/rules/calendar-invalid/fail.json:9:14: calendar: start "),
            std::string::npos)
      << r.err;
}

TEST(CliHealth, JunitNamesItsSuiteHealth) {
  const CliRun r = run_ptmpl("health tests/data/rules/health-negative-float/fail.json --no-config --format junit");
  EXPECT_EQ(r.exit, 1) << r.err;
  EXPECT_NE(r.out.find(R"(<testsuites name="ptmpl health" tests="1" failures="1">)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(R"(classname="ptmpl.health">)"
                       "\n"
                       R"(      <failure type="health" message="1 finding">)"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("lint"), std::string::npos) << r.out;
}

TEST(CliHealth, UnreadableAndCyclicFilesExitTwoAndTheOthersAreAssessed) {
  const CliRun r =
      run_ptmpl("health no-such-file.json tests/data/rules/dependency-cycle/fail.json samples/office-move.json");
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find("ptmpl health: no-such-file.json"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("dependency cycle: 3"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("samples/office-move.json: schedule health"), std::string::npos) << r.out;
}

TEST(CliHealth, LintSelectsTheGroupOrRules) {
  const std::string file = " tests/data/rules/health-lags/fail.json";
  const CliRun none = run_ptmpl("lint --no-config" + file);
  EXPECT_EQ(none.out.find("health-"), std::string::npos) << "off by default: " << none.out;
  const CliRun group = run_ptmpl("lint --no-config --select schedule-health" + file);
  EXPECT_EQ(group.exit, 0) << "warnings";
  EXPECT_NE(group.out.find("2:82: warning: a lag of 3 working days [health-lags]"), std::string::npos) << group.out;
  const CliRun listed = run_ptmpl("lint --no-config --select health-leads,title-missing --select health-lags" + file);
  EXPECT_NE(listed.out.find("[health-lags]"), std::string::npos) << listed.out;
  EXPECT_EQ(listed.out.find("[health-logic]"), std::string::npos) << listed.out;
  const CliRun wrong = run_ptmpl("lint --select health-lag" + file);
  EXPECT_EQ(wrong.exit, 2);
  EXPECT_EQ(wrong.err,
            "ptmpl lint: --select: unknown rule \"health-lag\" (did you mean \"health-lags\"?); ptmpl rules lists "
            "them\n");
}

}  // namespace
}  // namespace ptmpl::testing
