// `ptmpl convert` loses nothing silently (issue 16): what a template cannot hold of a task is a
// finding at convert time naming the task; `--to mspdi` reports the template keys it has no
// place for; the MSPDI it writes describes a task not yet started as MS Project does and reads
// back clean; and MSPDI → template → MSPDI keeps the calendar's exceptions.
#include <gtest/gtest.h>

#include <pugixml.hpp>

#include <chrono>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "convert/mspdi_reader.hpp"
#include "convert/plan/work_calendar.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

using testing::source_path;

class CliConvertFidelity : public testing::CliScratchTest {};

TEST_F(CliConvertFidelity, ASplitTaskIsAFindingNamingTheTask) {
  // MS Project's own file: Split Task 1 works 09-21…09-26, pauses 09-27…09-29, works again
  // until 10-09; the story keeps 09-21…10-09 (13 working days, pause included), so that
  // `schedule` shows the file's dates.
  const std::string out = (dir_ / "split.json").string();
  auto r = ptmpl("convert tests/data/mspdi/mpxj/mpxj__mspdisplittask.xml -o '" + out + "'");
  EXPECT_EQ(r.exit, 0) << r.err;
  expect_has(r.err,
             "tests/data/mspdi/mpxj/mpxj__mspdisplittask.xml:508:5: warning: task 1 \"Split Task 1\" is split: it "
             "does no work from 2006-09-27 and resumes on 2006-10-02");
  expect_has(r.err, "it keeps its Start and Finish and lasts their span, pause included [mspdi-split-task]");
  auto s = ptmpl("schedule '" + out + "'");
  EXPECT_EQ(s.exit, 0) << s.err;
  expect_has(s.out, "2006-10-09");
  // The split is the reason its dates and duration disagree: not reported twice.
  expect_lacks(r.err, "mspdi-duration-span");
  r = ptmpl("convert --strict tests/data/mspdi/mpxj/mpxj__mspdisplittask.xml -o '" + out + "'");
  EXPECT_EQ(r.exit, 1);
  expect_has(r.err, ": error: task 1 \"Split Task 1\" is split");
}

TEST_F(CliConvertFidelity, EveryKindOfLossIsAFindingNamingTheTask) {
  auto r = ptmpl("convert tests/data/mspdi/losses.xml -o '" + (dir_ / "losses.json").string() + "'");
  EXPECT_EQ(r.exit, 0) << r.err;
  // MPXJ's sample.xml "Second Task": 100 days of Duration over 50 working days.
  expect_has(r.err,
             "warning: task 2 \"Second Task\" lasts 100 working days (its Duration), but its Start and Finish "
             "(2003-01-07 to 2003-03-18) span 50; the story keeps the dates and lasts 50 "
             "[mspdi-duration-span]");
  // An actual start (MS Project moves Start to it) is progress, even at 0 %; a placeholder is not.
  expect_has(r.err, "warning: task 3 \"Started\" has progress");
  expect_lacks(r.err, "task 4 \"Placeholder actuals\" has progress");
  expect_has(r.err, "warning: task 5 \"Deadline\" has the constraint \"Finish No Later Than\"");
  expect_lacks(r.err, "task 3 \"Started\" lasts");

  // The hand-written plan of the other kinds: elapsed and fractional durations, a manual task,
  // a constraint, progress, each naming its task.
  r = ptmpl("convert tests/data/mspdi/features.xml -o '" + (dir_ / "features.json").string() + "'");
  EXPECT_EQ(r.exit, 0) << r.err;
  expect_has(r.err, "task 5 \"Wait for delivery\" has an elapsed duration");
  expect_has(r.err, "[mspdi-elapsed-duration]");
  expect_has(r.err, "task 6 \"Half a day\" lasts 0.50 working days; it is rounded up to 1 [mspdi-fractional-duration]");
  expect_has(r.err,
             "task 11 \"Constrained\" is manually scheduled; its dates are kept as declared [mspdi-manual-task]");
  expect_has(r.err, "task 11 \"Constrained\" has the constraint \"Must Start On\"");
  expect_has(r.err, "task 11 \"Constrained\" has progress");

  r = ptmpl("convert --strict tests/data/mspdi/losses.xml -o '" + (dir_ / "strict.json").string() + "'");
  EXPECT_EQ(r.exit, 1);
  expect_has(r.err, ": error: task 2 \"Second Task\" lasts 100 working days");
  EXPECT_FALSE(std::filesystem::exists(dir_ / "strict.json"));
}

TEST_F(CliConvertFidelity, ToMspdiReportsTheTemplateKeysItHasNoPlaceFor) {
  const std::string plan =
      file("described.json", R"({"project_template": {"title": "Move", "description": "Why we move",
    "shared": true, "currency": "EUR", "raw_json": [{"title": "Pack", "temp_id": 1, "duration": 2}]}})");
  auto r = ptmpl("convert --to mspdi '" + plan + "' -o '" + (dir_ / "out.xml").string() + "' --start 2027-01-04");
  EXPECT_EQ(r.exit, 0) << r.err;
  expect_has(r.err,
             "described.json:1:55: warning: the template's description has no place in MS Project XML "
             "[mspdi-export-dropped]");
  expect_has(r.err, "warning: the template's shared has no place in MS Project XML [mspdi-export-dropped]");
  expect_lacks(r.err, "the template's title");
  expect_lacks(r.err, "the template's currency");
  r = ptmpl("convert --strict --to mspdi '" + plan + "' -o '" + (dir_ / "strict.xml").string() + "'");
  EXPECT_EQ(r.exit, 1);
  expect_has(r.err, "error: the template's description has no place in MS Project XML");
}

// What MS Project writes for a task nobody has started: 0 % complete, every actual zero, all of
// the duration, work and cost remaining. Converted back, the file reports nothing.
TEST_F(CliConvertFidelity, ExportDescribesTasksNotYetStartedAndReadsBackClean) {
  const std::string xml_path = (dir_ / "erp.xml").string();
  auto r = ptmpl("convert --to mspdi samples/erp-implementation.json -o '" + xml_path + "' --start 2027-03-01");
  ASSERT_EQ(r.exit, 0) << r.err;
  pugi::xml_document xml;
  ASSERT_TRUE(xml.load_file(xml_path.c_str()));
  std::size_t tasks = 0;
  for (pugi::xml_node task : xml.child("Project").child("Tasks").children("Task")) {
    SCOPED_TRACE(task.child_value("UID"));
    EXPECT_STREQ(task.child_value("PercentComplete"), "0");
    EXPECT_STREQ(task.child_value("PercentWorkComplete"), "0");
    EXPECT_STREQ(task.child_value("ActualDuration"), "PT0H0M0S");
    EXPECT_STREQ(task.child_value("ActualWork"), "PT0H0M0S");
    EXPECT_STREQ(task.child_value("ActualCost"), "0");
    EXPECT_STREQ(task.child_value("RemainingDuration"), task.child_value("Duration"));
    EXPECT_STREQ(task.child_value("RemainingWork"), task.child_value("Work"));
    EXPECT_STREQ(task.child_value("RegularWork"), task.child_value("Work"));
    EXPECT_STREQ(task.child_value("RemainingCost"), task.child_value("Cost"));
    EXPECT_FALSE(task.child("ActualStart")) << "a task not started has no actual start";
    ++tasks;
  }
  EXPECT_EQ(tasks, 164u);
  r = ptmpl("convert '" + xml_path + "' -o '" + (dir_ / "back.json").string() + "'");
  EXPECT_EQ(r.exit, 0);
  expect_lacks(r.err, "warning");
  expect_lacks(r.err, "error");
}

// The working and non-working dates of an MSPDI file's project calendar from `from` to `to`,
// as the reader sees them; `week` receives its working weekdays.
std::vector<bool> working_days(const std::string& path, Date from, Date to, WorkWeek* week = nullptr) {
  pugi::xml_document xml;
  EXPECT_TRUE(xml.load_file(path.c_str())) << path;
  const pugi::xml_node project = xml.child("Project");
  std::vector<plan::CalendarNote> notes;
  const std::vector<plan::Calendar> calendars = mspdi::read_calendars(project.child("Calendars"));
  auto calendar = plan::WorkCalendar::read(calendars, project.child("CalendarUID").text().as_llong(), notes);
  calendar.expand(from, to, notes);
  if (week != nullptr) *week = calendar.week();
  std::vector<bool> out;
  for (Date d = from; d <= to; d += std::chrono::days{1}) out.push_back(calendar.working(d));
  return out;
}

TEST_F(CliConvertFidelity, MspdiToTemplateToMspdiKeepsCalendarExceptions) {
  // Every file of the tests' MSPDI material whose project calendar has exceptions near its
  // plan (Project 2007 <Exceptions>, recurring ones, and the older DayType 0 periods). MPXJ's
  // calendar-recurring-exceptions files are not among them: their exceptions lie in 2000–2001,
  // their plan in 2017, beyond the 400 days around the plan that the block records.
  const std::vector<std::string> files = {
      "tests/data/mspdi/corpus/asposetasks__CopyToProjectEmpty.xml",
      "tests/data/mspdi/corpus/bardsoftware__holidays.xml",
      "tests/data/mspdi/corpus/bardsoftware__issue1520.xml",
      "tests/data/mspdi/christmas-break.xml",
      "tests/data/mspdi/recurring.xml",  // one recurring exception of each type
  };
  for (const std::string& original : files) {
    SCOPED_TRACE(original);
    const std::string stem = std::filesystem::path(original).stem().string();
    const std::string json_path = (dir_ / (stem + ".json")).string();
    const std::string back = (dir_ / (stem + ".back.xml")).string();
    auto r = ptmpl("convert " + original + " -o '" + json_path + "'");
    ASSERT_EQ(r.exit, 0) << r.err;
    r = ptmpl("convert --to mspdi '" + json_path + "' -o '" + back + "'");
    ASSERT_EQ(r.exit, 0) << r.err;
    // Day 0 is recorded in the block; the block holds the exceptions over the plan's dates and
    // 400 days on each side, so a year around day 0 is covered.
    pugi::xml_document exported;
    ASSERT_TRUE(exported.load_file(back.c_str()));
    const auto day_zero = parse_date(std::string(exported.child("Project").child_value("StartDate")).substr(0, 10));
    ASSERT_TRUE(day_zero);
    const Date from = *day_zero - std::chrono::days{365};
    const Date to = *day_zero + std::chrono::days{365};
    WorkWeek week;
    const std::vector<bool> before = working_days(source_path(original), from, to, &week);
    const std::vector<bool> after = working_days(back, from, to);
    // The original has exceptions in the window: a day that works other than its week says
    // (else the test would compare two plain weeks).
    std::size_t exceptions = 0;
    std::size_t i = 0;
    for (Date d = from; d <= to; d += std::chrono::days{1}, ++i) {
      if (before[i] != week.works(std::chrono::weekday(d))) ++exceptions;
      EXPECT_EQ(after[i], before[i]) << format_date(d) << (before[i] ? " works" : " does not work")
                                     << " in the original";
    }
    EXPECT_GT(exceptions, 0u) << "no exception within a year of day 0";
  }
}

}  // namespace
}  // namespace ptmpl
