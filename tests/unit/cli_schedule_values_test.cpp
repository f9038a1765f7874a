// schedule and stats say when they read a story's duration or date as absent (docs/semantics.md
// §5): a warning naming the story, the value and its place; --strict refuses the file.
#include <gtest/gtest.h>

#include <string>

#include "cli_run.hpp"

namespace ptmpl {
namespace {

class CliScheduleValues : public testing::CliScratchTest {};

TEST_F(CliScheduleValues, EachValueTheSchedulerCannotTakeIsAWarningAtItsPlace) {
  const std::string path = file("values.json",
                                "[\n"
                                "{\"temp_id\": 1, \"title\": \"A\", \"duration\": \"5\"},\n"
                                "{\"temp_id\": 2, \"title\": \"B\", \"duration\": -3},\n"
                                "{\"temp_id\": 3, \"title\": \"C\", \"duration\": 1.5},\n"
                                "{\"temp_id\": 4, \"title\": \"D\", \"duration\": true},\n"
                                "{\"temp_id\": 5, \"title\": \"E\", \"duration\": 1e2},\n"
                                "{\"temp_id\": 6, \"title\": \"F\", \"duration\": 2, \"relative_start_date\": \"3\"}\n"
                                "]\n");
  for (const std::string command : {"schedule", "stats"}) {
    testing::CliRun run = ptmpl(command + " '" + path + "'");
    EXPECT_EQ(run.exit, 0) << command;
    expect_has(run.err,
               "values.json:2:42: warning: story 1 \"A\": duration is a string, \"5\", not a whole number of "
               "days, 0 or more; scheduled as if it had none");
    expect_has(run.err, "values.json:3:42: warning: story 2 \"B\": duration is -3, not");
    expect_has(run.err, "values.json:4:42: warning: story 3 \"C\": duration is 1.5, not");
    expect_has(run.err, "values.json:5:42: warning: story 4 \"D\": duration is true, not");
    expect_has(run.err, "values.json:6:42: warning: story 5 \"E\": duration is 1e2, not");
    expect_has(run.err,
               "values.json:7:68: warning: story 6 \"F\": relative_start_date is a string, \"3\", not a "
               "whole day number; placed by its dependencies alone");

    testing::CliRun strict = ptmpl(command + " '" + path + "' --strict");
    EXPECT_EQ(strict.exit, 2) << command;
    expect_has(strict.err, "values.json:2:42: error: story 1 \"A\": duration is a string");
    EXPECT_TRUE(strict.out.empty()) << strict.out;
  }
}

TEST_F(CliScheduleValues, ValidValuesGiveNoWordAndManyAreCounted) {
  testing::CliRun clean = ptmpl("schedule samples/software-release.json --strict");
  EXPECT_EQ(clean.exit, 0);
  EXPECT_EQ(clean.err, "");

  std::string stories = "[";
  for (int i = 1; i <= 25; ++i)
    stories +=
        std::string(i > 1 ? "," : "") + "{\"temp_id\":" + std::to_string(i) + ",\"title\":\"S\",\"duration\":\"1\"}";
  const std::string path = file("many.json", stories + "]");
  testing::CliRun run = ptmpl("stats '" + path + "'");
  EXPECT_EQ(run.exit, 0);
  expect_has(run.err, "many.json: warning: 5 more such values (ptmpl lint");
}

}  // namespace
}  // namespace ptmpl
