// A name typed wrong on the command line or in .ptmpl.json is named with the name meant: the
// command, an option of that command, a rule id, a configuration key or value. Exit code 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "cli_run.hpp"

namespace ptmpl {
namespace {

class CliDidYouMean : public testing::CliScratchTest {};

TEST_F(CliDidYouMean, AnUnknownCommand) {
  testing::CliRun r = ptmpl("lnt samples/");
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "ptmpl: unknown command \"lnt\" (did you mean \"lint\"?); ptmpl --help lists the commands\n");
  // Nothing near: no guess. The hidden command is never suggested.
  r = ptmpl("frobnicate");
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(r.err, "ptmpl: unknown command \"frobnicate\"; ptmpl --help lists the commands\n");
  r = ptmpl("__referenc");
  EXPECT_EQ(r.err, "ptmpl: unknown command \"__referenc\"; ptmpl --help lists the commands\n");
}

// Issue 36: an option's value that is none of its choices names the one meant, in every
// command (one check, cli::one_of); bare `ptmpl` lists the commands.
TEST_F(CliDidYouMean, AValueThatIsNoneOfTheOptionsChoices) {
  testing::CliRun r = ptmpl("lint --format sarf samples/");
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(r.err,
            "ptmpl lint: --format: sarf not in {text,json,sarif,github,junit,gitlab} (did you mean sarif?); ptmpl "
            "lint --help lists the options\n");
  r = ptmpl("schedule --format tabel samples/office-move.json");
  EXPECT_NE(r.err.find("tabel not in {gantt,table,json,csv,mermaid,svg,html} (did you mean table?)"), std::string::npos)
      << r.err;
  r = ptmpl("convert --to pdf samples/office-move.json");  // nothing near: no guess
  EXPECT_NE(r.err.find("pdf not in {template,mspdi,csv,xlsx}; "), std::string::npos) << r.err;

  r = ptmpl("");
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.out.find("Subcommands:\n  lint "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n  convert "), std::string::npos) << r.out;
  // The token file's help no longer calls $PTMPL_TOKEN its default (the variable holds a token).
  r = ptmpl("diff --help");
  EXPECT_NE(r.out.find("without it, $PTMPL_TOKEN holds the token itself"), std::string::npos) << r.out;
}

TEST_F(CliDidYouMean, AnUnknownOptionOfTheCommandGiven) {
  const std::string plan = file("t.json", "[]\n");
  for (const char* command : {"lint", "schedule", "stats", "convert"}) {
    testing::CliRun r = ptmpl(std::string(command) + " --foramt json " + plan);
    EXPECT_EQ(r.exit, 2) << command;
    EXPECT_EQ(r.out, "") << command;
    EXPECT_EQ(r.err, "ptmpl " + std::string(command) + ": unknown option --foramt (did you mean --format?); ptmpl " +
                         command + " --help lists the options\n");
  }
  // With its value after '='; an option of another command is no suggestion.
  testing::CliRun r = ptmpl("lint --foramt=json " + plan);
  EXPECT_EQ(r.err,
            "ptmpl lint: unknown option --foramt (did you mean --format?); ptmpl lint --help lists the options\n");
  r = ptmpl("lint --unsafe-fix " + plan);
  EXPECT_EQ(r.err,
            "ptmpl lint: unknown option --unsafe-fix (did you mean --unsafe-fixes?); ptmpl lint --help lists the "
            "options\n");
  r = ptmpl("rules --check");
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(r.err, "ptmpl rules: unknown option --check; ptmpl rules --help lists the options\n");
}

TEST_F(CliDidYouMean, AnUnknownRuleToExplain) {
  testing::CliRun r = ptmpl("explain unknown-fields");
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "ptmpl explain: unknown rule \"unknown-fields\" (did you mean \"unknown-field\"?); ptmpl rules lists "
            "them\n");
}

TEST_F(CliDidYouMean, AConfigurationKeyOrValue) {
  const std::string plan = file("t.json", "[]\n");
  file(".ptmpl.json", "{\n  \"ignores\": []\n}\n");
  testing::CliRun r = ptmpl("lint " + plan);
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(r.err, "ptmpl lint: " + (dir_ / ".ptmpl.json").string() +
                       ":2:14: `config` does not allow the key `ignores` (did you mean `ignore`?)\n");
  file(".ptmpl.json", "{\n  \"ignore\": [{\"rule\": \"schema\", \"tempid\": 3}]\n}\n");
  r = ptmpl("lint " + plan);
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(r.err, "ptmpl lint: " + (dir_ / ".ptmpl.json").string() +
                       ":2:43: `config/ignore/0` does not allow the key `tempid` (did you mean `temp_id`?)\n");
  file(".ptmpl.json", "{\n  \"rules\": {\"title-missing\": \"eror\"}\n}\n");
  r = ptmpl("lint " + plan);
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(r.err,
            "ptmpl lint: " + (dir_ / ".ptmpl.json").string() +
                ":2:30: `title-missing` must be one of \"off\", \"info\", \"warning\", \"error\"; found \"eror\" "
                "(did you mean \"error\"?)\n");
  // The same configuration named with --config, for fmt's file selection too.
  r = ptmpl("fmt --check --config " + (dir_ / ".ptmpl.json").string() + " " + dir_.string());
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find("found \"eror\" (did you mean \"error\"?)"), std::string::npos) << r.err;
}

// Every problem of the configuration in one run, each on its own line with its place, in the
// order of the file: three misspelt keys take one run to see, not three.
TEST_F(CliDidYouMean, EveryProblemOfTheConfigurationInOneRun) {
  const std::string plan = file("t.json", "[]\n");
  const std::string config = file(".ptmpl.json", "{\n  \"rulse\": {},\n  \"ignores\": [],\n  \"max_dpeth\": 3\n}\n");
  testing::CliRun r = ptmpl("lint " + plan);
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(
      r.err,
      "ptmpl lint: " + config + ":2:12: `config` does not allow the key `rulse` (did you mean `rules`?)\n" +
          "ptmpl lint: " + config + ":3:14: `config` does not allow the key `ignores` (did you mean `ignore`?)\n" +
          "ptmpl lint: " + config + ":4:16: `config` does not allow the key `max_dpeth` (did you mean `max_depth`?)\n");
  // fmt's file selection reads it the same way.
  r = ptmpl("fmt --check " + dir_.string());
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 3) << r.err;
}

}  // namespace
}  // namespace ptmpl
