// Hostile input to lint and the commands that share its reader, run through the real binary
// (docs/robustness.md, "Bad input table"): figures derived from invalid values, values the
// scheduler cannot take, control characters in titles, positions at the end of a file whose
// size is a multiple of the line index's block, and a file of NUL bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "cli_run.hpp"

namespace ptmpl {
namespace {

using testing::CliRun;

class CliLintHostile : public testing::CliScratchTest {};

// Issue 14, case 8: a string amount is no amount; the sum of the others is no total.
TEST_F(CliLintHostile, FixComputesNoFigureFromAnInvalidValue) {
  const std::string budget = R"({"project_template": {"title": "B", "is_budgeted": true, "budget": 12000,
 "raw_json": [
  {"temp_id": 1, "title": "A", "budget_estimate_in_cents": "150000"},
  {"temp_id": 2, "title": "B", "budget_estimate_in_cents": 80000},
  {"temp_id": 3, "title": "C", "budget_estimate_in_cents": 300000}
 ]}}
)";
  const std::string path = file("budget.json", budget);
  CliRun fix = ptmpl("lint --fix " + path);
  EXPECT_EQ(fix.exit, 1);
  EXPECT_EQ(read_file(path), budget) << "the budget was rewritten from an invalid value";
  expect_has(fix.out,
             "budget.json:1:68: warning: budget 12000 cannot be compared with the top-level stories' budgets, nor "
             "fixed: /0/budget_estimate_in_cents (line 3) is a string (\"150000\"), not an integer "
             "[template-budget-mismatch]");
  EXPECT_EQ(fix.out.find("3800"), std::string::npos) << fix.out;

  // The same for the other derived figures: the template's duration and item_count.
  const std::string duration = R"({"project_template": {"title": "D", "duration": 30, "item_count": 3,
 "raw_json": [
  {"temp_id": 1, "title": "A", "relative_start_date": 0, "relative_due_date": 4},
  {"temp_id": 2, "title": "B", "relative_start_date": "10", "relative_due_date": 29},
  42
 ]}}
)";
  const std::string d = file("duration.json", duration);
  CliRun fix2 = ptmpl("lint --fix " + d);
  EXPECT_EQ(fix2.exit, 1);
  EXPECT_EQ(read_file(d), duration);
  expect_has(fix2.out,
             "warning: the template's duration 30 cannot be compared with its stories' span, nor fixed: "
             "/1/relative_start_date (line 4) is a string (\"10\"), not an integer [template-duration-mismatch]");
  expect_has(fix2.out,
             "warning: item_count 3 cannot be compared with the number of stories, nor fixed: /2 (line 5) is an "
             "integer (42), not a story [template-item-count-mismatch]");

  // A parent's own estimate against children with a negative one: no sum, the value named.
  CliRun parent = ptmpl("lint " + file("parent.json", R"([{"temp_id": 1, "title": "P", "time_estimate_in_minutes": 90,
  "sub_stories": [{"temp_id": 2, "title": "C", "time_estimate_in_minutes": -30},
                  {"temp_id": 3, "title": "D", "time_estimate_in_minutes": 60}]}])"));
  expect_has(parent.out,
             "warning: time_estimate_in_minutes is 90 minutes, and its sub_stories' time_estimate_in_minutes cannot "
             "be added up to compare: /0/sub_stories/0/time_estimate_in_minutes (line 2) is an integer (-30), a "
             "negative amount [rollup-mismatch]");
}

// The same rule for `stats`: a total that would take a value that is no amount is refused at
// that value, not printed as the sum of the others. A story whose own valid estimate stands for
// its subtree hides an invalid one below it, as in the roll-up.
TEST_F(CliLintHostile, StatsAddsUpNoInvalidValue) {
  const std::string bad = file("bad.json", R"([
  {"temp_id": 1, "title": "A", "budget_estimate_in_cents": "150000"},
  {"temp_id": 2, "title": "B", "budget_estimate_in_cents": 80000, "time_estimate_in_minutes": -5}
])");
  CliRun stats = ptmpl("stats " + bad);
  EXPECT_EQ(stats.exit, 2);
  EXPECT_EQ(stats.out, "");
  EXPECT_EQ(stats.err,
            "ptmpl stats: " + bad +
                ":2:60: budget_estimate_in_cents of story 1 \"A\" is a string, \"150000\", not an amount; stats adds "
                "up no invalid value (`ptmpl lint` reports it)\n"
                "ptmpl stats: " +
                bad +
                ":3:95: time_estimate_in_minutes of story 2 \"B\" is -5, not an amount; stats adds up no invalid "
                "value (`ptmpl lint` reports it)\n");

  const std::string shadowed = file("shadowed.json", R"([
  {"temp_id": 1, "title": "P", "budget_estimate_in_cents": 500, "sub_stories": [
    {"temp_id": 2, "title": "C", "budget_estimate_in_cents": "x"}]}
])");
  CliRun ok = ptmpl("stats --format json " + shadowed);
  EXPECT_EQ(ok.exit, 0) << ok.err;
  expect_has(ok.out, "\"budget_in_cents\": 500");
}

// Issue 14, case 14: what lint passes, schedule and stats accept; what they refuse, lint reports.
TEST_F(CliLintHostile, LintReportsEveryValueTheSchedulerCannotTake) {
  const std::string big =
      file("big.json", R"([{"title": "a", "temp_id": 1, "relative_start_date": 4611686018427387904}])");
  CliRun lint = ptmpl("lint " + big);
  EXPECT_EQ(lint.exit, 1);
  expect_has(lint.out,
             "big.json:1:54: error: relative_start_date 4611686018427387904 of story 1 \"a\", with the story's length "
             "of 1 working day, ends beyond the range of ±2^62 working days (±4611686018427387904) that ptmpl "
             "schedule and stats compute in [schedule-out-of-range]");
  for (const std::string command : {"schedule ", "stats "}) {
    CliRun refused = ptmpl(command + big);
    EXPECT_EQ(refused.exit, 2);
    expect_has(refused.err,
               "big.json: the schedule leaves the range of ±2^62 working days (absurd dates or lags; "
               "`ptmpl lint` names each as schedule-out-of-range)");
  }

  // One below: lint has no error, and both commands schedule it.
  const std::string edge =
      file("edge.json", R"([{"title": "a", "temp_id": 1, "relative_start_date": 4611686018427387903, "duration": 1}])");
  CliRun clean = ptmpl("lint " + edge);
  EXPECT_EQ(clean.exit, 0) << clean.out;
  EXPECT_EQ(ptmpl("schedule " + edge).exit, 0);
  EXPECT_EQ(ptmpl("stats " + edge).exit, 0);

  // A milestone on day 2^63 - 1 was scheduled on day 2^62, silently moved; now refused, and
  // lint says why.
  const std::string far =
      file("far.json",
           R"([{"title": "m", "temp_id": 1, "story_type": "milestone", "relative_start_date": 9223372036854775807}])");
  expect_has(ptmpl("lint " + far).out, "lies beyond the range of ±2^62 working days");
  CliRun schedule = ptmpl("schedule " + far);
  EXPECT_EQ(schedule.exit, 2);
  EXPECT_EQ(schedule.out.find("4611686018427387904"), std::string::npos) << schedule.out;
}

// Issue 14, case 18: an ESC, BEL, DEL or C1 control from a title never reaches a CI log or a
// terminal; each is shown as a \u escape.
TEST_F(CliLintHostile, ControlCharactersInTitlesAreEscapedInEveryTextFormat) {
  // duration-mismatch quotes the title: ESC ] 0 ; pwn BEL, DEL, and U+009B (a one-byte CSI).
  const std::string path =
      file("esc.json",
           "[{\"temp_id\": 1, \"title\": \"a\\u001b]0;pwn\\u0007 \\u007f b\\u009b2J\\r\\n::error::x\", "
           "\"duration\": 3, \"relative_start_date\": 0, \"relative_due_date\": 1}]");
  auto expect_no_controls = [](const std::string& out, const std::string& format) {
    for (std::size_t i = 0; i < out.size(); ++i) {
      const auto c = static_cast<unsigned char>(out[i]);
      EXPECT_FALSE((c < 0x20 && c != '\n') || c == 0x7F) << format << ": byte " << int(c) << " at " << i << "\n" << out;
      if (c == 0xC2 && i + 1 < out.size()) {
        EXPECT_FALSE(static_cast<unsigned char>(out[i + 1]) <= 0x9F) << format << ": a C1 control at " << i;
      }
    }
  };
  for (const std::string format : {"text", "github", "junit"}) {
    CliRun r = ptmpl("lint --format " + format + " " + path);
    EXPECT_EQ(r.exit, 0) << format;
    expect_no_controls(r.out, format);
    expect_has(r.out, "\\u001B]0;pwn\\u0007 \\u007F b\\u009B2J");
  }
  // GitHub decodes %0D%0A inside an annotation only: the message cannot start a command line.
  CliRun github = ptmpl("lint --format github " + path);
  expect_has(github.out, "\\u009B2J%0D%0A::error::x");
  EXPECT_EQ(github.out.find("\n::error::x"), std::string::npos);

  // On a terminal, with colour: only ptmpl's own colour sequences are escapes.
  std::string terminal = testing::run_ptmpl_on_terminal("lint " + path, "");
  expect_has(terminal, "\\u001B]0;pwn\\u0007");
  EXPECT_EQ(terminal.find("\x1B]0;"), std::string::npos);
  EXPECT_EQ(terminal.find('\x07'), std::string::npos);
  EXPECT_EQ(terminal.find("\xC2\x9B"), std::string::npos);
}

// Issue 14, case 19: an error at the very end of a file whose size is a multiple of 4096 had
// column 2^64 - 1. Every size around the first multiples, in each command that shows it.
TEST_F(CliLintHostile, ErrorAtTheEndOfAFileOfEverySizeAroundMultiplesOf4096) {
  for (std::size_t size : {4094u, 4095u, 4096u, 4097u, 8191u, 8192u, 8193u, 12288u, 16384u}) {
    SCOPED_TRACE("size " + std::to_string(size));
    // "[\n" and spaces up to `size` bytes: the error is at the end, line 2, column size - 1.
    const std::string name = "col" + std::to_string(size) + ".json";
    const std::string path = file(name, "[\n" + std::string(size - 2, ' '));
    const std::string place = name + ":2:" + std::to_string(size - 1) + ":";
    CliRun lint = ptmpl("lint " + path);
    EXPECT_EQ(lint.exit, 1);
    expect_has(lint.out, place + " error: unexpected end of file: expected a JSON value");
    CliRun sarif = ptmpl("lint --format sarif " + path);
    expect_has(sarif.out, "\"startLine\": 2, \"startColumn\": " + std::to_string(size - 1) + "}");
    CliRun fmt = ptmpl("fmt " + path);
    EXPECT_EQ(fmt.exit, 2);
    expect_has(fmt.err, place + " error: unexpected end of file");
    CliRun schedule = ptmpl("schedule " + path);
    EXPECT_EQ(schedule.exit, 2);
    expect_has(schedule.err, place + " unexpected end of file");

    // Inside a raw_json string: the decoded text has `size` bytes ("[", a newline, spaces).
    const std::string raw = file(
        "raw" + name, R"({"project_template": {"title": "t", "raw_json": "[\n)" + std::string(size - 2, ' ') + "\"}}");
    const std::string inner =
        "in the raw_json string at line 2, column " + std::to_string(size - 1) + ": unexpected end of file";
    expect_has(ptmpl("lint " + raw).out, inner);
    expect_has(ptmpl("schedule " + raw).err, inner);
    for (const std::string& out : {lint.out, sarif.out, fmt.err, schedule.err})
      EXPECT_EQ(out.find("18446744073709551615"), std::string::npos);
  }
}

// Issue 14, case 20 (the NUL file): the message names a NUL byte, not the end of the file.
TEST_F(CliLintHostile, ANulByteIsNamedAsSuch) {
  CliRun nul = ptmpl("lint " + file("nul.json", std::string(100, '\0')));
  EXPECT_EQ(nul.exit, 1);
  expect_has(nul.out,
             "nul.json:1:1: error: expected a JSON value, found a NUL byte (0x00): this is not a text file "
             "[json-syntax]");
  EXPECT_EQ(nul.out.find("end of file"), std::string::npos) << nul.out;

  CliRun inside = ptmpl("lint " + file("mid.json", std::string("[1, \0 2]", 8)));
  expect_has(inside.out,
             "mid.json:1:5: error: expected a JSON value (object, array, string, number, true, false or null), "
             "found a NUL byte (0x00): this is not a text file [json-syntax]");
  CliRun fmt = ptmpl("fmt " + file("nul2.json", std::string(1, '\0')));
  EXPECT_EQ(fmt.exit, 2);
  expect_has(fmt.err, "nul2.json:1:1: error: expected a JSON value, found a NUL byte (0x00)");
}

// Not hostile, but met in the same place: a line that fits the excerpt is shown whole, with
// the caret under the value, however far right the value is.
TEST_F(CliLintHostile, AShortLineIsShownWholeInTheExcerpt) {
  const std::string line =
      R"(  {"title": "Install the racking in the new server room", "story_type": "task", "duration": "5"})";
  const std::string path = file("wide.json", "[\n" + line + "\n]\n");
  // Excerpts are shown on a terminal.
  const std::string out = testing::run_ptmpl_on_terminal("lint '" + path + "'", "NO_COLOR=1");
  const std::size_t caret = line.find(R"("5")") + 1;  // the column of the value
  EXPECT_NE(out.find(" 2 | " + line + "\n   | " + std::string(caret - 1, ' ') + "^\n"), std::string::npos) << out;
  EXPECT_EQ(out.find("…"), std::string::npos) << out;
}

// Issue 35: a template of 300,000 empty checklist items: the first 1,000 findings, one for the
// rest, and a summary that counts every one (the memory: LintBounds).
TEST_F(CliLintHostile, AFileRepeatingOneMistakeListsAThousandAndCountsTheRest) {
  std::string items = "\"\"";
  for (int i = 1; i < 300000; ++i) items += ",\"\"";
  const std::string path = file("items.json", R"({"project_template": {"title": "T", "raw_json": [{"title": "Big", )"
                                              R"("temp_id": 1, "checklist": [)" +
                                                  items + "]}]}}\n");
  const CliRun run = ptmpl("lint " + path);
  EXPECT_EQ(run.exit, 1);
  expect_has(run.out,
             "items.json:1:3095: error: 299000 more findings of this rule in this file, the first here, are not "
             "listed: lint lists at most 1000 findings of a rule in a file [checklist-item-invalid]\n"
             "1 file checked: 300000 errors, 0 warnings, 0 info\n");
  EXPECT_EQ(std::count(run.out.begin(), run.out.end(), '\n'), 1002);
}

}  // namespace
}  // namespace ptmpl
