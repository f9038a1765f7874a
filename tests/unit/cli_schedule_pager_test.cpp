// The terminal Gantt chart pages through $PTMPL_PAGER, $PAGER or less when it is taller than
// the terminal and standard output is one (as `git log` does). Each test runs ptmpl on a
// pseudo-terminal of a known size, with a pager that is a small shell command recording that
// it ran (and the LESS it was given) before passing the chart on with cat.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "cli_run.hpp"
#include "terminal_run.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

class CliSchedulePager : public testing::CliScratchTest {
 protected:
  // A pager that writes LESS to `ran` in the scratch folder, then shows its input.
  [[nodiscard]] std::string recording_pager() const {
    return "printf '%s' \"${LESS-unset}\" > '" + marker().string() + "'; cat";
  }
  [[nodiscard]] std::filesystem::path marker() const { return dir_ / "ran"; }

  // The 35-story sample's chart, 39 lines with title, header and legend.
  const std::vector<std::string> tall_ = {"schedule", "samples/software-release.json", "--width", "100"};
  const std::string chart_ = testing::read_source("tests/golden/schedule/software-release.gantt.txt");
};

TEST_F(CliSchedulePager, ATallChartOnATerminalGoesThroughThePagerWithLessFrx) {
  testing::TerminalRun r = testing::run_on_pty(tall_, 20, {{"PTMPL_PAGER", recording_pager()}});
  EXPECT_EQ(r.exit, 0);
  ASSERT_TRUE(std::filesystem::exists(marker()));
  EXPECT_EQ(slurp(marker()), "FRX");
  EXPECT_EQ(r.out, chart_);
}

TEST_F(CliSchedulePager, PagerFromPagerWhenPtmplPagerIsUnsetAndLessAsTheUserSetIt) {
  testing::TerminalRun r = testing::run_on_pty(tall_, 20, {{"PAGER", recording_pager()}, {"LESS", "-S"}});
  EXPECT_EQ(r.exit, 0);
  EXPECT_EQ(slurp(marker()), "-S");
  EXPECT_EQ(r.out, chart_);
  // PTMPL_PAGER wins over PAGER; set empty, it turns paging off.
  std::filesystem::remove(marker());
  r = testing::run_on_pty(tall_, 20, {{"PAGER", recording_pager()}, {"PTMPL_PAGER", ""}});
  EXPECT_FALSE(std::filesystem::exists(marker()));
  EXPECT_EQ(r.out, chart_);
}

TEST_F(CliSchedulePager, NoPagerFlagAndAChartThatFitsPrintDirectly) {
  std::vector<std::string> args = tall_;
  args.emplace_back("--no-pager");
  testing::TerminalRun r = testing::run_on_pty(args, 20, {{"PTMPL_PAGER", recording_pager()}});
  EXPECT_EQ(r.exit, 0);
  EXPECT_FALSE(std::filesystem::exists(marker()));
  EXPECT_EQ(r.out, chart_);
  // 39 lines fit a terminal of 60 rows.
  r = testing::run_on_pty(tall_, 60, {{"PTMPL_PAGER", recording_pager()}});
  EXPECT_FALSE(std::filesystem::exists(marker()));
  EXPECT_EQ(r.out, chart_);
}

TEST_F(CliSchedulePager, APagerThatCannotStartIsPassedBy) {
  testing::TerminalRun r = testing::run_on_pty(tall_, 20, {{"PTMPL_PAGER", (dir_ / "no-such-pager").string()}});
  EXPECT_EQ(r.exit, 0);
  // The shell's "not found" comes first; the chart follows whole.
  EXPECT_TRUE(r.out.ends_with(chart_)) << r.out.substr(0, 300);
}

TEST_F(CliSchedulePager, OutputThatIsNotATerminalNeverPages) {
  const std::string pager = "touch '" + marker().string() + "'; cat";
  testing::CliRun r = ptmpl("schedule samples/software-release.json --format gantt --width 100",
                            "LINES=5 PTMPL_PAGER=\"" + pager + "\" PAGER=\"" + pager + "\"");
  EXPECT_EQ(r.exit, 0);
  EXPECT_FALSE(std::filesystem::exists(marker()));
  EXPECT_EQ(r.out, chart_);
}

}  // namespace
}  // namespace ptmpl
