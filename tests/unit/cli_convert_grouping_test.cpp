// `ptmpl convert` folds repeats of one finding into one line of its text report (3 or more of
// one id in one file), lists each with --verbose and in every machine format, and its summary
// counts plans converted, not files checked.
#include <gtest/gtest.h>

#include <string>

#include "cli_run.hpp"
#include "libtemplate/convert/convert.hpp"

namespace ptmpl {
namespace {

class CliConvertGrouping : public testing::CliScratchTest {
 protected:
  // 71 stories, each assigned (a CSV has no column for assignments), 3 of them with a
  // checklist too and one billable; two links into a story that is not there (1 info and 73
  // warnings in all). One story a line:
  // story k is on line k + 1, its object at column 5.
  std::string plan() {
    std::string text = "{\"project_template\": {\"title\": \"Rollout\", \"raw_json\": [\n";
    for (int k = 1; k <= 71; ++k) {
      text += "    {\"temp_id\": " + std::to_string(k) + ", \"title\": \"Site " + std::to_string(k) +
              "\", \"assignments\": [7]";
      if (k >= 10 && k <= 12) text += ", \"checklist\": [\"keys\"]";
      if (k == 20) text += ", \"billable\": true";
      if (k == 30 || k == 31)
        text += ", \"dependencies\": [{\"source_id\": " + std::to_string(k) + ", \"target_id\": 999, \"type\": 2}]";
      text += k < 71 ? "},\n" : "}\n";
    }
    return file("rollout.json", text + "]}}\n");
  }
};

TEST_F(CliConvertGrouping, RepeatsOfOneIdAreOneLineNamingWhatWasDroppedTheCountAndTheFirstPlace) {
  const std::string path = plan();
  const auto r = ptmpl("convert --to csv '" + path + "' -o /dev/null");
  EXPECT_EQ(r.exit, 0) << r.err;
  EXPECT_EQ(r.err,
            path +
                ":1:22: info: the template's title are not written: a CSV holds the stories only "
                "[csv-template-fields]\n" +
                path +
                ":2:5: warning: assignments (71), checklist (3), billable (1) not written on 71 stories: no CSV "
                "column, or a value of the wrong type; the first is here, --verbose lists each [csv-dropped-field]\n" +
                path +
                ":31:78: warning: a dependency of story 30 \"Site 30\" is not written: its target is not in the "
                "template [csv-dropped-link]\n" +
                path +
                ":32:78: warning: a dependency of story 31 \"Site 31\" is not written: its target is not in the "
                "template [csv-dropped-link]\n"
                "1 plan converted: 0 errors, 73 warnings, 1 info\n");
}

TEST_F(CliConvertGrouping, VerboseListsEveryFinding) {
  const std::string path = plan();
  const auto r = ptmpl("convert --to csv '" + path + "' -o /dev/null --verbose");
  EXPECT_EQ(r.exit, 0) << r.err;
  std::size_t dropped = 0;
  for (std::size_t at = r.err.find("[csv-dropped-field]\n"); at != std::string::npos;
       at = r.err.find("[csv-dropped-field]\n", at + 1))
    ++dropped;
  EXPECT_EQ(dropped, 71u) << r.err;
  expect_has(r.err, path +
                        ":2:5: warning: story 1 \"Site 1\": assignments not written (no column for it, or a value "
                        "of the wrong type) [csv-dropped-field]\n");
  expect_has(r.err, path + ":11:5: warning: story 10 \"Site 10\": assignments, checklist not written");
  expect_has(r.err, path + ":72:5: warning: story 71 \"Site 71\": assignments not written");
  expect_lacks(r.err, "--verbose lists each");
  expect_has(r.err, "1 plan converted: 0 errors, 73 warnings, 1 info\n");
}

TEST_F(CliConvertGrouping, MachineFormatsKeepEveryFinding) {
  const std::string path = plan();
  for (const std::string format : {"json", "sarif", "github", "junit", "gitlab"}) {
    const auto r = ptmpl("convert --to csv '" + path + "' -o /dev/null --format " + format);
    EXPECT_EQ(r.exit, 0) << format << r.err;
    std::size_t stories = 0;
    for (int k = 1; k <= 71; ++k)
      if (r.err.find("story " + std::to_string(k) + " \\\"Site " + std::to_string(k) + "\\\": assignments") !=
              std::string::npos ||
          r.err.find("story " + std::to_string(k) + " &quot;Site " + std::to_string(k) + "&quot;: assignments") !=
              std::string::npos ||
          r.err.find("story " + std::to_string(k) + " \"Site " + std::to_string(k) + "\": assignments") !=
              std::string::npos)
        ++stories;
    EXPECT_EQ(stories, 71u) << format << "\n" << r.err;
    expect_lacks(r.err, "--verbose lists each");
  }
}

TEST_F(CliConvertGrouping, TwoRepeatsAreListedOneByOne) {
  const std::string path = file("pair.json",
                                "{\"project_template\": {\"raw_json\": [\n"
                                "    {\"temp_id\": 1, \"title\": \"A\", \"weight\": 2},\n"
                                "    {\"temp_id\": 2, \"title\": \"B\", \"weight\": 3}\n"
                                "]}}\n");
  const auto r = ptmpl("convert --to csv '" + path + "' -o /dev/null");
  EXPECT_EQ(r.exit, 0) << r.err;
  EXPECT_EQ(r.err, path +
                       ":2:5: warning: story 1 \"A\": weight not written (no column for it, or a value of the wrong "
                       "type) [csv-dropped-field]\n" +
                       path +
                       ":3:5: warning: story 2 \"B\": weight not written (no column for it, or a value of the wrong "
                       "type) [csv-dropped-field]\n"
                       "1 plan converted: 0 errors, 2 warnings, 0 info\n");
}

// --strict is unchanged (exit 1, nothing written); the summary says the plan is not converted.
TEST_F(CliConvertGrouping, StrictFoldsTheErrorsAndSaysThePlanIsNotConverted) {
  const std::string path = plan();
  const std::string out = (dir_ / "rollout.csv").string();
  const auto r = ptmpl("convert --strict --to csv '" + path + "' -o '" + out + "'");
  EXPECT_EQ(r.exit, 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));
  expect_has(r.err, path + ":2:5: error: assignments (71), checklist (3), billable (1) not written on 71 stories");
  expect_has(r.err, "1 plan not converted: 74 errors, 0 warnings, 0 info\n");
}

// Reading: repeats of csv-unknown-column name each column once.
TEST_F(CliConvertGrouping, UnknownColumnsAreOneLineNamingThem) {
  const std::string path = file("plan.csv", "title,owner,room,phone,start\nKickoff,Ann,R1,555,0\n");
  const auto r = ptmpl("convert '" + path + "' -o /dev/null");
  EXPECT_EQ(r.exit, 0) << r.err;
  EXPECT_EQ(r.err, path +
                       ":1:7: warning: 3 columns are not ones ptmpl reads; they are ignored: \"owner\", \"room\", "
                       "\"phone\"; the first is here, --verbose lists each [csv-unknown-column]\n"
                       "1 plan converted: 0 errors, 3 warnings, 0 info\n");
}

// Each rule words a group of its findings, with its count.
TEST(ConversionGroupMessage, EveryRuleHasOne) {
  for (const ConversionRule& rule : conversion_rules())
    EXPECT_NE(rule.group.find("{n}"), std::string_view::npos) << rule.id;
}

}  // namespace
}  // namespace ptmpl
