// Stories that MS Project's rules put before the project start (docs/semantics.md §5), where a user meets
// them: `schedule` in every format, `stats`, the MS Project export and `lint`, with the
// calendar block's dates before day 0 across a holiday.
#include <gtest/gtest.h>

#include <string>

#include "cli_run.hpp"

namespace ptmpl {
namespace {

using testing::CliRun;

class CliScheduleBeforeStart : public testing::CliScratchTest {};

// Day 0 is Monday 2028-01-03; Friday 2027-12-31 is a holiday, so day -1 is Thursday 2027-12-30
// and day -2 Wednesday 2027-12-29.
//   Design (3 days from day 0) → Draft:  finish-to-start, lag -5: day -2 to -1
//   Design → Sign-off (1 day):           start-to-finish, lag 0: finishes when Design starts, day -1
//   Design → Review (5 days):            finish-to-finish, lag 0: would start on day -2, held on day 0
// Before, Draft and Sign-off started on day 0 like every undated story.
constexpr const char* kPlan = R"({"project_template": {"title": "Early work", "raw_json": [
  {"title": "Design", "temp_id": 1, "duration": 3, "dependencies": [
    {"source_id": 1, "target_id": 2, "type": 2, "lag": -5},
    {"source_id": 1, "target_id": 3, "type": 1, "lag": 0},
    {"source_id": 1, "target_id": 4, "type": 3, "lag": 0}]},
  {"title": "Draft", "temp_id": 2, "duration": 2},
  {"title": "Sign-off", "temp_id": 3, "duration": 1},
  {"title": "Review", "temp_id": 4, "duration": 5}]},
 "calendar": {"start": "2028-01-03", "holidays": ["2027-12-31"]}}
)";

TEST_F(CliScheduleBeforeStart, LeadsAndStartToFinishLinksPlaceStoriesBeforeDayZeroInEveryFormat) {
  const std::string plan = file("early.json", kPlan);
  for (const char* mode : {"", " --asap"}) {
    CliRun table = ptmpl("schedule '" + plan + "' --format table" + mode);
    ASSERT_EQ(table.exit, 0) << table.err;
    expect_has(table.out, "Design    2028-01-03  2028-01-05");
    expect_has(table.out, "Draft     2027-12-29  2027-12-30");
    expect_has(table.out, "Sign-off  2027-12-30  2027-12-30");
    expect_has(table.out, "Review    2028-01-03  2028-01-07");
  }
  CliRun csv = ptmpl("schedule '" + plan + "' --format csv");
  ASSERT_EQ(csv.exit, 0) << csv.err;
  expect_has(csv.out, "2027-12-29");
  CliRun json = ptmpl("schedule '" + plan + "' --format json");
  ASSERT_EQ(json.exit, 0) << json.err;
  expect_has(json.out, R"("start": -2)");
  expect_has(json.out, R"("start_date": "2027-12-29")");
  for (const char* format : {"gantt", "mermaid", "svg", "html"}) {
    CliRun r = ptmpl("schedule '" + plan + "' --format " + std::string(format) + " --width 80");
    EXPECT_EQ(r.exit, 0) << format << ": " << r.err;
    EXPECT_FALSE(r.out.empty()) << format;
  }
  CliRun mermaid = ptmpl("schedule '" + plan + "' --format mermaid");
  expect_has(mermaid.out, "2027-12-29");
  // stats: the plan runs from its earliest story, two working days before day 0.
  CliRun stats = ptmpl("stats '" + plan + "' --format json");
  ASSERT_EQ(stats.exit, 0) << stats.err;
  expect_has(stats.out, R"("start_date": "2027-12-29")");
  expect_has(stats.out, R"("due_date": "2028-01-07")");
}

TEST_F(CliScheduleBeforeStart, TheMsProjectExportWritesTheDatesBeforeTheStart) {
  const std::string plan = file("early.json", kPlan);
  const std::string xml = (dir_ / "early.xml").string();
  CliRun r = ptmpl("convert '" + plan + "' --to mspdi -o '" + xml + "'");
  ASSERT_EQ(r.exit, 0) << r.err;
  const std::string out = read_file(xml);
  expect_has(out, "<Name>Draft</Name>");
  expect_has(out, "<Start>2027-12-29T08:00:00</Start>");
  expect_has(out, "<Finish>2027-12-30T17:00:00</Finish>");
}

// A story a finish-to-finish link reaches that declares a start before day 0: the schedule
// moves it to day 0, and lint says why. Before, lint was silent (the finish constraint holds).
TEST_F(CliScheduleBeforeStart, LintNamesAFinishToFinishSuccessorDeclaredBeforeDayZero) {
  const std::string plan = file("ff.json", R"([
  {"title": "Design", "temp_id": 1, "relative_start_date": 0, "duration": 3,
   "dependencies": [{"source_id": 1, "target_id": 2, "type": 3, "lag": 0},
                    {"source_id": 1, "target_id": 3, "type": 2, "lag": -5}]},
  {"title": "Review", "temp_id": 2, "relative_start_date": -2, "duration": 5},
  {"title": "Draft", "temp_id": 3, "relative_start_date": -2, "duration": 2}]
)");
  CliRun lint = ptmpl("lint '" + plan + "' --fail-on warning");
  EXPECT_EQ(lint.exit, 1) << lint.out << lint.err;
  expect_has(lint.out,
             ":3:21: warning: finish-to-finish link 1 → 2 (lag 0) needs 2 to start on day 0 or later (a "
             "finish-to-finish link never places a story before day 0); it starts on day -2, 2 working days early "
             "[dependency-violated]");
  expect_has(lint.out, "0 errors, 1 warning");  // the lead puts Draft on day -2, as it declares
  CliRun table = ptmpl("schedule '" + plan + "' --format table");
  ASSERT_EQ(table.exit, 0) << table.err;
  expect_has(table.out, "2        2        Review      0    4");
  expect_has(table.out, "3        3        Draft      -2   -1");
}

}  // namespace
}  // namespace ptmpl
