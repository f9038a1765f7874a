// The document's calendar block (docs/semantics.md §2, §4) where a user meets it: `convert` records the
// plan's day 0, week and exceptions and says which date day 0 is; `schedule` and `stats` use
// the block without flags, each flag overriding its field; a bad block is refused with its
// place; `fmt` keeps it in order; `push` never sends it.
#include <gtest/gtest.h>

#include <string>

#include "cli_run.hpp"
#include "libtemplate/publish/publish.hpp"

namespace ptmpl {
namespace {

using testing::CliRun;

class CliCalendar : public testing::CliScratchTest {};

// Design (4 days from Monday 2027-12-20) → Build (FS); the project calendar's "Christmas
// break" exception makes 2027-12-24…12-31 non-working, so MS Project puts Build on
// 2028-01-03…01-07.
TEST_F(CliCalendar, ConvertedMsProjectPlanKeepsItsHolidaysAndScheduleShowsTheFilesDates) {
  const std::string out = (dir_ / "hol.json").string();
  CliRun converted = ptmpl("convert tests/data/mspdi/christmas-break.xml -o '" + out + "'");
  ASSERT_EQ(converted.exit, 0) << converted.err;
  EXPECT_EQ(converted.err,
            "ptmpl convert: day 0 is 2027-12-20 (the plan's start), recorded in the template's calendar block\n");
  const std::string document = read_file(out);
  expect_has(document, R"(  "calendar": {
    "start": "2027-12-20",
    "week": [
      "mon",
      "tue",
      "wed",
      "thu",
      "fri"
    ],
    "holidays": [
      "2027-12-24",
      "2027-12-27",
      "2027-12-28",
      "2027-12-29",
      "2027-12-30",
      "2027-12-31"
    ]
  }
}
)");

  CliRun plain = ptmpl("schedule '" + out + "' --format table");
  ASSERT_EQ(plain.exit, 0) << plain.err;
  expect_has(plain.out, "Design  2027-12-20  2027-12-23");
  expect_has(plain.out, "Build   2028-01-03  2028-01-07");

  // --start replaces the start alone: the holidays stay.
  CliRun started = ptmpl("schedule '" + out + "' --format table --start 2027-12-20");
  expect_has(started.out, "Build   2028-01-03  2028-01-07");
  // --holidays replaces the holidays alone: an empty file, and Build runs through the break.
  const std::string none = file("none.txt", "# no holidays\n");
  CliRun no_holidays = ptmpl("schedule '" + out + "' --format table --holidays '" + none + "'");
  ASSERT_EQ(no_holidays.exit, 0) << no_holidays.err;
  expect_has(no_holidays.out, "Build   2027-12-24  2027-12-30");

  // A CSV has no place for it, and says so.
  CliRun csv = ptmpl("convert '" + out + "' --to csv");
  expect_has(csv.err, "the template's title, calendar are not written: a CSV holds the stories only");

  // The converted file lints clean and is already in canonical form.
  EXPECT_EQ(ptmpl("lint --no-config '" + out + "'").exit, 0);
  EXPECT_EQ(ptmpl("fmt --check '" + out + "'").exit, 0);
}

// MSPDI → template → MSPDI keeps the project start and the Christmas break, and reads back to
// the same calendar block.
TEST_F(CliCalendar, MsProjectExportWritesTheBlockBackAsTheProjectCalendar) {
  const std::string json = (dir_ / "hol.json").string();
  const std::string xml = (dir_ / "back.xml").string();
  const std::string again = (dir_ / "again.json").string();
  ASSERT_EQ(ptmpl("convert tests/data/mspdi/christmas-break.xml -o '" + json + "'").exit, 0);
  CliRun exported = ptmpl("convert '" + json + "' -o '" + xml + "'");
  ASSERT_EQ(exported.exit, 0) << exported.err;
  const std::string written = read_file(xml);
  expect_has(written, "<StartDate>2027-12-20T08:00:00</StartDate>");
  // Two exceptions: Friday the 24th, and Monday 27th to Friday 31st (the weekend between them
  // does not work anyway).
  expect_has(written, R"(<FromDate>2027-12-24T00:00:00</FromDate>
            <ToDate>2027-12-24T23:59:00</ToDate>)");
  expect_has(written, R"(<FromDate>2027-12-27T00:00:00</FromDate>
            <ToDate>2027-12-31T23:59:00</ToDate>)");
  expect_has(written, "<Start>2028-01-03T08:00:00</Start>");
  ASSERT_EQ(ptmpl("convert '" + xml + "' -o '" + again + "'").exit, 0);
  const std::string first = read_file(json);
  const std::string second = read_file(again);
  EXPECT_EQ(second.substr(second.find("\"calendar\"")), first.substr(first.find("\"calendar\"")));
}

TEST_F(CliCalendar, ScheduleAndStatsUseTheBlockAndEachFlagOverridesItsField) {
  // A Sunday-to-Thursday week, a holiday and a worked Saturday.
  const std::string path = file("plan.json", R"({
  "project_template": {
    "title": "Plan",
    "raw_json": [
      {"title": "A", "temp_id": 1, "duration": 6}
    ]
  },
  "calendar": {
    "start": "2027-01-03",
    "week": ["sun", "mon", "tue", "wed", "thu"],
    "holidays": ["2027-01-05"],
    "working": ["2027-01-09"]
  }
}
)");
  // Sun 3, Mon 4, (Tue 5 off), Wed 6, Thu 7, (Fri 8 off), Sat 9 worked, Sun 10.
  CliRun table = ptmpl("schedule '" + path + "' --format table");
  ASSERT_EQ(table.exit, 0) << table.err;
  expect_has(table.out, "A      2027-01-03  2027-01-10");
  CliRun json = ptmpl("schedule '" + path + "' --format json");
  expect_has(json.out, R"("calendar": "mon,tue,wed,thu,sun")");

  CliRun stats = ptmpl("stats '" + path + "' --format json");
  ASSERT_EQ(stats.exit, 0) << stats.err;
  expect_has(stats.out, R"("start_date": "2027-01-03",)");
  expect_has(stats.out, R"("due_date": "2027-01-10")");

  // --calendar replaces the week alone; start, holidays and working dates stay.
  // Sunday the 3rd no longer works: Mon 4, (Tue 5 off), Wed 6, Thu 7, Fri 8, Sat 9 worked, Mon 11.
  CliRun workweek = ptmpl("schedule '" + path + "' --format table --calendar workweek");
  expect_has(workweek.out, "A      2027-01-04  2027-01-11");
  CliRun started = ptmpl("stats '" + path + "' --start 2027-01-10");
  expect_has(started.out, "start_date                2027-01-10\n");
}

TEST_F(CliCalendar, WithoutABlockOrFlagsOffsetsAreShownAsBefore) {
  CliRun r = ptmpl("stats samples/software-release.json --format json");
  ASSERT_EQ(r.exit, 0) << r.err;
  expect_lacks(r.out, "start_date");
  CliRun week = ptmpl("schedule samples/software-release.json --calendar 7day");
  EXPECT_EQ(week.exit, 2);
  EXPECT_EQ(
      week.err,
      "ptmpl schedule: --calendar and --holidays need a start date: --start, --finish, or \"start\" in the file's "
      "calendar block\n");
}

TEST_F(CliCalendar, ABadBlockIsRefusedWithItsPlace) {
  const std::string path = file("bad.json", R"({
  "project_template": {"title": "Plan", "raw_json": [{"title": "A", "temp_id": 1}]},
  "calendar": {"start": "2027-01-04", "holidays": ["2027-13-01"]}
}
)");
  for (const char* command : {"schedule", "stats"}) {
    CliRun r = ptmpl(std::string(command) + " '" + path + "'");
    EXPECT_EQ(r.exit, 2) << command;
    EXPECT_EQ(r.err, "ptmpl " + std::string(command) + ": " + path +
                         ":3:52: calendar: holidays entry \"2027-13-01\" is not a date of the form YYYY-MM-DD that "
                         "exists (ptmpl lint " +
                         path + " lists every problem)\n");
  }
  CliRun lint = ptmpl("lint --no-config '" + path + "'");
  EXPECT_EQ(lint.exit, 1);
  expect_has(lint.out, "[calendar-invalid]");
}

TEST_F(CliCalendar, FmtPutsTheBlockAfterTheTemplateInItsOwnOrderKeepingUnknownKeys) {
  const std::string path = file("order.json", R"({"calendar": {"note": "plant calendar", "working": [],
"holidays": ["2027-12-24"], "start": "2027-01-04"},
"project_template": {"title": "Plan", "raw_json": []}}
)");
  CliRun r = ptmpl("fmt '" + path + "'");
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_EQ(r.out, R"({
  "project_template": {
    "title": "Plan",
    "raw_json": []
  },
  "calendar": {
    "start": "2027-01-04",
    "holidays": [
      "2027-12-24"
    ],
    "working": [],
    "note": "plant calendar"
  }
}
)");
  // The unknown key is reported as such, not as a problem of the block.
  CliRun lint = ptmpl("lint --no-config '" + path + "'");
  expect_has(lint.out, "unknown calendar key \"note\"");
  expect_lacks(lint.out, "calendar-invalid");
}

TEST_F(CliCalendar, PushNeverSendsTheBlock) {
  const std::string path = file("push.json", R"({
  "project_template": {"title": "Plan", "raw_json": [], "calendar": {"start": "2027-02-01"}},
  "calendar": {"start": "2027-01-04", "holidays": ["2027-12-24"]}
}
)");
  auto local = publish::read_local_template(path, read_file(path));
  ASSERT_TRUE(local.ok());
  EXPECT_EQ(local.value().body, R"({"project_template":{"title":"Plan","raw_json":"[]"}})");
  // The misplaced one is a finding of its own (and not also an unknown key).
  CliRun lint = ptmpl("lint --no-config '" + path + "'");
  expect_has(lint.out,
             ":2:69: error: the calendar block is written inside project_template, where nothing reads it: move it "
             "beside project_template (ptmpl's own block, never sent to the service) [calendar-invalid]");
  expect_lacks(lint.out, "unknown-field");
}

}  // namespace
}  // namespace ptmpl
