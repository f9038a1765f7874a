// Hostile input to `convert` (and the CSV of `schedule`), through the real binary: nothing is
// dropped without a finding, one nesting bound for every reader, and CSV cells a spreadsheet
// would run as formulas are guarded (docs/robustness.md, "Bad input table").
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "cli_run.hpp"

namespace ptmpl {
namespace {

using testing::CliRun;

class CliConvertRobustness : public testing::CliScratchTest {};

std::string mspdi(const std::string& tasks) {
  return R"(<?xml version="1.0" encoding="UTF-8"?>
<Project xmlns="http://schemas.microsoft.com/project"><StartDate>2024-01-01T08:00:00</StartDate>
<MinutesPerDay>480</MinutesPerDay><Tasks>)" +
         tasks + "</Tasks></Project>\n";
}

// ---------------------------------------------------------------------------------------------
// Issue 14, case 7: nothing dropped silently.

// --verbose: each finding on its own line (three of one id are otherwise one line).
TEST_F(CliConvertRobustness, StoriesThatAreNotObjectsAreFindingsNotSilentLosses) {
  const std::string t = file("odd.json", R"([42, "lost", {"title": "A", "temp_id": 1, "sub_stories": [null]}])");
  for (const std::string to : {"csv", "mspdi"}) {
    const std::string id = to == "csv" ? "csv-dropped-story" : "mspdi-export-dropped-story";
    CliRun r = ptmpl("convert --verbose --to " + to + " --start 2024-01-01 " + t);
    EXPECT_EQ(r.exit, 0) << r.err;
    expect_has(r.err, "warning: /0 is an integer, not a story (an object); it is not written [" + id + "]");
    expect_has(r.err, "warning: /1 is a string, not a story (an object); it is not written [" + id + "]");
    expect_has(r.err, "warning: /2/sub_stories/0 is null, not a story (an object); it is not written [" + id + "]");
    CliRun strict = ptmpl("convert --verbose --strict --to " + to + " --start 2024-01-01 " + t);
    EXPECT_EQ(strict.exit, 1);
    expect_has(strict.err, "error: /0 is an integer");
    EXPECT_EQ(strict.out, "");
  }
}

TEST_F(CliConvertRobustness, AStoryChainDeeperThanTheParserKeepsIsRefusedNotCut) {
  // 200 stories, each the only sub-story of the one before: 400 JSON levels.
  std::string json;
  for (int i = 1; i <= 200; ++i) json += R"([{"title": "S)" + std::to_string(i) + R"(", "sub_stories": )";
  json += "[]";
  for (int i = 1; i <= 200; ++i) json += "}]";
  const std::string t = file("chain.json", json);
  for (const std::string to : {"csv", "mspdi"}) {
    CliRun r = ptmpl("convert --to " + to + " --start 2024-01-01 " + t);
    EXPECT_EQ(r.exit, 2) << to;
    expect_has(r.err, "chain.json:1:");
    expect_has(r.err,
               "nesting deeper than 256 levels; the content below is not read; the stories below it cannot be "
               "converted");
    EXPECT_EQ(r.out, "");
  }
}

// --verbose: each finding on its own line (three of one id are otherwise one line).
TEST_F(CliConvertRobustness, MspdiValuesThatCannotBeReadAreFindingsWithTheirOwnIds) {
  const std::string tasks =
      "<Task><Name>No UID</Name><OutlineLevel>1</OutlineLevel></Task>"
      "<Task><UID>abc</UID><Name>Letters</Name><OutlineLevel>1</OutlineLevel></Task>"
      "<Task><UID>1.5</UID><Name>Fraction</Name><OutlineLevel>1</OutlineLevel></Task>"
      "<Task><UID>1</UID><Name>Feb30</Name><OutlineLevel>1</OutlineLevel><Start>2024-02-30T08:00:00</Start>"
      "<Duration>PT8H0M0S</Duration></Task>"
      "<Task><UID>2</UID><Name>Junk start</Name><OutlineLevel>1</OutlineLevel><Start>garbage</Start></Task>"
      "<Task><UID>3</UID><Name>Junk</Name><OutlineLevel>1</OutlineLevel><Duration>garbage</Duration></Task>"
      "<Task><UID>4</UID><Name>Huge</Name><OutlineLevel>1</OutlineLevel><Duration>PT1e308H</Duration></Task>"
      "<Task><UID>5</UID><Name>Years</Name><OutlineLevel>1</OutlineLevel><Duration>P99999999Y</Duration></Task>"
      "<Task><UID>6</UID><Name>Negative</Name><OutlineLevel>1</OutlineLevel><Duration>PT-5H</Duration></Task>"
      "<Task><UID>7</UID><Name>Lags</Name><OutlineLevel>1</OutlineLevel>"
      "<PredecessorLink><PredecessorUID>1</PredecessorUID><LinkLag>garbage</LinkLag></PredecessorLink>"
      "<PredecessorLink><PredecessorUID>2</PredecessorUID><LinkLag>NaN</LinkLag></PredecessorLink>"
      "<PredecessorLink><PredecessorUID>3</PredecessorUID><LinkLag>1e300</LinkLag></PredecessorLink>"
      "<PredecessorLink><PredecessorUID>4</PredecessorUID><LinkLag>99999999999999999999999</LinkLag>"
      "</PredecessorLink>"
      "<PredecessorLink><PredecessorUID>5</PredecessorUID><LinkLag>-9223372036854775808</LinkLag>"
      "</PredecessorLink></Task>";
  const std::string plan = file("values.xml", mspdi(tasks));
  CliRun r = ptmpl("convert --verbose " + plan);
  EXPECT_EQ(r.exit, 0) << r.err;
  expect_has(r.err, "task \"No UID\" has no UID; it is skipped (a story's temp_id is its task's UID) [mspdi-task-uid]");
  expect_has(r.err, "task \"Letters\" has the UID \"abc\", not an integer; it is skipped");
  expect_has(r.err, "task \"Fraction\" has the UID \"1.5\", not an integer; it is skipped");
  expect_has(r.err,
             "task 1 \"Feb30\" has the Start \"2024-02-30T08:00:00\", which is not a date and time "
             "(yyyy-mm-ddThh:mm:ss); it is not read [mspdi-date-invalid]");
  expect_has(r.err, "task 2 \"Junk start\" has the Start \"garbage\"");
  for (const std::string d : {"3 \"Junk\" has the duration \"garbage\"", "4 \"Huge\" has the duration \"PT1e308H\"",
                              "5 \"Years\" has the duration \"P99999999Y\""})
    expect_has(r.err, "task " + d +
                          ", which is not a duration ptmpl reads (PT…H…M…S or P…D, finite); the story has no "
                          "duration [mspdi-duration-invalid]");
  expect_has(r.err,
             "task 6 \"Negative\" has the duration \"PT-5H\", which no story can hold (0 to 10^12 working days); the "
             "story has no duration [mspdi-duration-invalid]");
  expect_lacks(r.err, "rounded up to 0");
  expect_has(r.err,
             "has the LinkLag \"garbage\", which is not a finite number; the link is written with lag 0 "
             "[mspdi-lag-invalid]");
  expect_has(r.err, "has the LinkLag \"NaN\", which is not a finite number");
  for (const std::string lag : {"1e300", "99999999999999999999999", "-9223372036854775808"})
    expect_has(r.err, "(LinkLag " + lag +
                          ") is beyond a lag's range (10^12 working days either way); the link is written with lag 0 "
                          "[mspdi-lag-invalid]");
  expect_lacks(r.err, "rounded to -1921535841011412");
  // What the messages say is what is written: five links into task 7, each with lag 0.
  std::size_t links = 0;
  for (std::size_t at = 0; (at = r.out.find("\"lag\": 0", at)) != std::string::npos; ++at) ++links;
  EXPECT_EQ(links, 5u) << r.out;
  expect_lacks(r.out, "\"title\": \"No UID\"");

  CliRun strict = ptmpl("convert --verbose --strict " + plan);
  EXPECT_EQ(strict.exit, 1);
  expect_has(strict.err, "error: task \"No UID\" has no UID");
  EXPECT_EQ(strict.out, "");
}

TEST_F(CliConvertRobustness, AStartWhoseDatesLeaveTheCalendarIsAFinding) {
  const std::string t = file("t.json", R"([{"title": "A", "temp_id": 1, "duration": 3}])");
  CliRun r = ptmpl("convert --to mspdi --start 9999-12-31 " + t);
  EXPECT_EQ(r.exit, 0) << r.err;
  expect_has(
      r.err,
      "story \"A\": its working days 0 to 2 from 9999-12-31 do not all fall within the years 1 to 9999; the task is "
      "written without Start and Finish [mspdi-export-date]");
  expect_lacks(r.out, "<Start>");
  EXPECT_EQ(ptmpl("convert --strict --to mspdi --start 9999-12-31 " + t).exit, 1);
  CliRun fine = ptmpl("convert --to mspdi --start 2024-01-01 " + t);
  expect_lacks(fine.err, "mspdi-export-date");
}

// ---------------------------------------------------------------------------------------------
// Issue 14, case 10: one nesting bound for every reader, nothing recursive on the input's depth.

TEST_F(CliConvertRobustness, EveryReaderSharesOneNestingBound) {
  std::string csv = "level,temp_id,title\n";
  for (int i = 1; i <= 200; ++i) csv += std::to_string(i) + "," + std::to_string(i) + ",T" + std::to_string(i) + "\n";
  CliRun levels = ptmpl("convert " + file("levels.csv", csv));
  EXPECT_EQ(levels.exit, 2);
  EXPECT_EQ(levels.err,
            "ptmpl convert: " + (dir_ / "levels.csv").string() +
                ":row 102, column \"level\": row 102 \"T101\" would be nested 101 levels deep; a template holds at "
                "most 100 (the nesting lint and fmt read)\n");
  EXPECT_EQ(levels.out, "");

  std::string by_parent = "temp_id,parent,title\n1,,T1\n";
  for (int i = 2; i <= 200; ++i)
    by_parent += std::to_string(i) + "," + std::to_string(i - 1) + ",T" + std::to_string(i) + "\n";
  CliRun parents = ptmpl("convert " + file("parents.csv", by_parent));
  EXPECT_EQ(parents.exit, 2);
  expect_has(parents.err, ":row 102, column \"parent\": row 102 \"T101\" would be nested 101 levels deep");

  // 100 levels is the most, and converts.
  std::string hundred = "level,title\n";
  for (int i = 1; i <= 100; ++i) hundred += std::to_string(i) + ",T" + std::to_string(i) + "\n";
  CliRun fits = ptmpl("convert " + file("hundred.csv", hundred));
  EXPECT_EQ(fits.exit, 0) << fits.err;

  // .gan: 10,000 nested tasks (the output was 1.8 GB of JSON) and 100,000 (a stack overflow).
  for (const int n : {10'000, 100'000}) {
    std::string gan = R"(<?xml version="1.0" encoding="UTF-8"?><project name="deep"><tasks>)";
    for (int i = 1; i <= n; ++i)
      gan += "<task id=\"" + std::to_string(i) + "\" name=\"G" + std::to_string(i) +
             "\" start=\"2024-01-01\" duration=\"1\">";
    for (int i = 1; i <= n; ++i) gan += "</task>";
    gan += "</tasks></project>\n";
    CliRun r = ptmpl("convert " + file("deep.gan", gan));
    EXPECT_EQ(r.exit, 2) << n;
    expect_has(r.err, "deep.gan:1:");
    expect_has(r.err,
               ": task 101 \"G101\" would be nested 101 levels deep; a template holds at most 100 (the nesting lint "
               "and fmt read)");
    EXPECT_EQ(r.out, "");
  }
}

TEST_F(CliConvertRobustness, ADeepCsvOnASmallStackIsRefusedNotACrash) {
  // About 108 KB of levels 1…20,000: the tree the reader built used to be written recursively.
  std::string csv = "level,title\n";
  for (int i = 1; i <= 20'000; ++i) csv += std::to_string(i) + ",t\n";
  const std::string path = file("deep.csv", csv);
  CliRun r = ptmpl("convert " + path, "ulimit -s 1024 &&");
  EXPECT_EQ(r.exit, 2) << r.err;
  expect_has(r.err, ":row 102, column \"level\": row 102 \"t\" would be nested 101 levels deep");
}

// ---------------------------------------------------------------------------------------------
// Issue 14, case 15: spreadsheet formulas in CSV cells (docs/semantics.md §11 "Spreadsheets").

TEST_F(CliConvertRobustness, CsvTextCellsThatAreFormulasAreGuardedAndRoundTrip) {
  const std::string t = file("formulas.json", R"J([
  {"title": "=HYPERLINK(\"http://evil.example\",\"click\")", "temp_id": "=1+1", "relative_start_date": -3,
   "duration": 2, "description": "@SUM(A1:A9)", "tag_list": "-x",
   "dependencies": [{"source_id": "=1+1", "target_id": 2, "type": 2, "lag": -3}]},
  {"title": "+cmd|' /C calc'!A0", "temp_id": 2, "duration": 1},
  {"title": "'=already quoted", "temp_id": 3, "duration": 1},
  {"title": "-", "temp_id": 4, "duration": 1}
])J");
  CliRun csv = ptmpl("convert --to csv " + t);
  EXPECT_EQ(csv.exit, 0) << csv.err;
  expect_has(csv.out, "\r\n1,'=1+1,\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"click\"\")\",,-3,");
  expect_has(csv.out, ",'@SUM(A1:A9)\r\n");
  expect_has(csv.out, ",'-x,");
  expect_has(csv.out, "\r\n1,2,'+cmd|' /C calc'!A0,,");
  expect_has(csv.out, ",'=1+1FS-3,");  // the predecessors cell of story 2: text, so guarded
  expect_has(csv.out, "\r\n1,3,''=already quoted,");
  expect_has(csv.out, "\r\n1,4,'-,");
  expect_lacks(csv.out, ",=");
  expect_lacks(csv.out, ",+");
  expect_lacks(csv.out, ",@");

  // Reading ptmpl's own CSV removes the guard: the round trip keeps every text.
  const std::string written = file("formulas.csv", csv.out);
  CliRun back = ptmpl("convert " + written);
  EXPECT_EQ(back.exit, 0) << back.err;
  expect_has(back.out, R"J("title": "=HYPERLINK(\"http://evil.example\",\"click\")")J");
  expect_has(back.out, R"("temp_id": "=1+1")");
  expect_has(back.out, R"("relative_start_date": -3)");
  expect_has(back.out, R"J("description": "@SUM(A1:A9)")J");
  expect_has(back.out, R"("tag_list": "-x")");
  expect_has(back.out, R"("title": "+cmd|' /C calc'!A0")");
  expect_has(back.out, R"("title": "'=already quoted")");
  expect_has(back.out, R"("title": "-")");
  expect_has(back.out, R"("source_id": "=1+1")");
  expect_has(back.out, R"("lag": -3)");

  // schedule --format csv writes its cells through the same function.
  CliRun schedule = ptmpl("schedule --format csv " + t);
  EXPECT_EQ(schedule.exit, 0) << schedule.err;
  expect_has(schedule.out, "\r\n1,'=1+1,\"'=HYPERLINK(");
  expect_has(schedule.out, "'+cmd|' /C calc'!A0");
  expect_lacks(schedule.out, ",=");
  expect_lacks(schedule.out, ",+");
}

// ---------------------------------------------------------------------------------------------
// Issue 14, case 20: the message names the real problem.

TEST_F(CliConvertRobustness, ACsvLagThatDoesNotFitSaysSo) {
  CliRun r = ptmpl("convert " + file("lag.csv", "temp_id,title,predecessors\n1,A,\n2,B,1FS+99999999999999999999\n"));
  EXPECT_EQ(r.exit, 2);
  expect_has(r.err,
             "lag.csv:row 3, column \"predecessors\": the lag in \"1FS+99999999999999999999\" does not fit in a "
             "64-bit integer (at most 9223372036854775807 working days)");
  expect_lacks(r.err, "no row has the temp_id");
}

}  // namespace
}  // namespace ptmpl
