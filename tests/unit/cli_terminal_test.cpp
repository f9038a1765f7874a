// Nothing ptmpl prints for a person can drive the terminal (docs/robustness.md, "Terminals"):
// a title, a CSV cell or a file name holding ESC, BEL or a C1 CSI is shown as a visible escape
// in messages, tables and any output that reaches a terminal, while a machine format written to
// a file or a pipe keeps its bytes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_run.hpp"
#include "libtemplate/core/printable.hpp"
#include "terminal_run.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

// ESC [31m (a colour), BEL, and U+009B (the one-character CSI) followed by "2J" (clear screen).
const std::string kHostile =
    "Plan\x1b[31mning\x07\xc2\x9b"
    "2J";
const std::string kShown = "Plan\\u001B[31mning\\u0007\\u009B2J";

bool drives_terminal(const std::string& text) {
  return text.find('\x1b') != std::string::npos || text.find('\x07') != std::string::npos ||
         text.find("\xc2\x9b") != std::string::npos;
}

class CliTerminal : public testing::CliScratchTest {
 protected:
  // The software-release sample with its "Planning" story renamed to kHostile.
  std::string hostile_template() {
    std::string text = testing::read_source("samples/software-release.json");
    const std::string planning = "\"title\": \"Planning\"";
    const std::size_t at = text.find(planning);
    EXPECT_NE(at, std::string::npos);
    text.replace(at, planning.size(), "\"title\": \"Plan\\u001b[31mning\\u0007\\u009b2J\"");
    return file("hostile.json", text);
  }
};

TEST(Printable, EscapesControlsAndKeepsTheLinesOfAText) {
  EXPECT_EQ(printable(kHostile), kShown);
  EXPECT_EQ(printable("a\nb"), "a\\u000Ab");
  EXPECT_EQ(printable_lines("one\x1b\ntwo\r\nthree\rfour\n"), "one\\u001B\ntwo\r\nthree\\u000Dfour\n");
  EXPECT_EQ(printable_lines("bad \xff byte"), "bad \\xFF byte");
  // An overlong '/', a surrogate, a sequence cut short: each byte shown, none passed on.
  EXPECT_EQ(printable("\xC0\xAF \xED\xA0\x80 \xE2\x82"), "\\xC0\\xAF \\xED\\xA0\\x80 \\xE2\\x82");
  EXPECT_EQ(printable("\xF4\x8F\xBF\xBF \xF4\x90\x80\x80"), "\xF4\x8F\xBF\xBF \\xF4\\x90\\x80\\x80");
  EXPECT_EQ(printable_lines("Zürich — 東京"), "Zürich — 東京");
}

TEST_F(CliTerminal, ScheduleCsvOnATerminalShowsControlsEscapedAndKeepsThemInAPipe) {
  const std::string path = hostile_template();
  testing::TerminalRun shown = testing::run_on_pty({"schedule", path, "--format", "csv"}, 50, {});
  EXPECT_EQ(shown.exit, 0);
  EXPECT_FALSE(drives_terminal(shown.out)) << shown.out;
  expect_has(shown.out, "1,1," + kShown + ",");

  testing::CliRun piped = ptmpl("schedule '" + path + "' --format csv");
  EXPECT_EQ(piped.exit, 0);
  expect_has(piped.out, "1,1," + kHostile + ",");
}

TEST_F(CliTerminal, ConvertToCsvOnATerminalAndTheTableAreEscaped) {
  const std::string path = hostile_template();
  testing::TerminalRun csv = testing::run_on_pty({"convert", path, "--to", "csv"}, 50, {});
  EXPECT_EQ(csv.exit, 0);
  EXPECT_FALSE(drives_terminal(csv.out)) << csv.out;
  expect_has(csv.out, kShown);

  testing::TerminalRun json = testing::run_on_pty({"schedule", path, "--format", "json"}, 50, {});
  EXPECT_EQ(json.exit, 0);
  EXPECT_FALSE(drives_terminal(json.out)) << json.out;

  testing::CliRun table = ptmpl("schedule '" + path + "' --format table");
  EXPECT_EQ(table.exit, 0);
  EXPECT_FALSE(drives_terminal(table.out)) << table.out;
}

TEST_F(CliTerminal, AnErrorQuotingACsvCellIsEscaped) {
  const std::string path = file("plan.csv", "temp_id,title,duration\n1,Design,\x1b]0;owned\x07\n");
  testing::CliRun run = ptmpl("convert '" + path + "' --strict");
  EXPECT_NE(run.exit, 0);
  EXPECT_FALSE(drives_terminal(run.err)) << run.err;
  expect_has(run.err, "\\u001B]0;owned\\u0007");
}

TEST_F(CliTerminal, FileNamesAreEscapedInFmtCheckAndInErrors) {
  // Not canonical (a leading space), so fmt --check names it.
  const std::string named = file("bad\x1b[2J.json", " " + testing::read_source("samples/software-release.json"));
  testing::CliRun check = ptmpl("fmt --check '" + named + "'");
  EXPECT_FALSE(drives_terminal(check.out)) << check.out;
  expect_has(check.out, "bad\\u001B[2J.json\n");

  testing::CliRun missing = ptmpl("lint 'missing\x1b[2J.json'");
  EXPECT_EQ(missing.exit, 2);
  EXPECT_FALSE(drives_terminal(missing.err)) << missing.err;
  expect_has(missing.err, "missing\\u001B[2J.json");
}

}  // namespace
}  // namespace ptmpl
