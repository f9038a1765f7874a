// The HTML preview in a real browser: headless Chromium loads the page from a file (it fetches
// nothing else: the page's Content-Security-Policy forbids it), draws the chart, and its DOM
// holds every shape. Chromium is a test dependency (scripts/setup.sh installs it): when it is
// missing the test fails rather than skips.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli_run.hpp"

namespace ptmpl {
namespace {

using testing::shell_output;

std::string chromium() {
  std::string path = shell_output("command -v chromium || command -v chromium-browser");
  while (!path.empty() && (path.back() == '\n' || path.back() == ' ')) path.pop_back();
  return path;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Headless Chromium with a profile of its own (tests may run in parallel); `action` is
// --screenshot=FILE or --dump-dom. Bounded by timeout(1) so a stuck browser cannot hang ctest.
std::string run_chromium(const std::string& browser, const std::string& dir, const std::string& name,
                         const std::string& action, const std::string& page) {
  return shell_output("timeout 60 '" + browser + "' --headless --no-sandbox --disable-gpu --hide-scrollbars " +
                      "--user-data-dir='" + dir + "/profile-" + name + "' " + action +
                      " --window-size=1200,800 'file://" + page + "' 2>/dev/null");
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// PNG (ISO/IEC 15948): the signature, then the IHDR chunk with width and height (big-endian).
std::pair<std::uint32_t, std::uint32_t> png_size(const std::string& png) {
  if (png.size() < 24 || png.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0 || png.compare(12, 4, "IHDR") != 0) return {0, 0};
  auto be32 = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) v = v << 8U | static_cast<unsigned char>(png[at + i]);
    return v;
  };
  return {be32(16), be32(20)};
}

TEST(CliScheduleBrowser, ChromiumDrawsTheHtmlChart) {
  const std::string browser = chromium();
  ASSERT_FALSE(browser.empty()) << "chromium is not installed; scripts/setup.sh installs it";
  const std::string dir = ::testing::TempDir() + "schedule-browser-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const std::string page = dir + "/plan.html";
  const std::string empty = dir + "/empty.html";
  testing::CliRun r =
      testing::run_ptmpl("schedule samples/software-release.json --format html --start 2027-01-04 -o '" + page + "'");
  ASSERT_EQ(r.exit, 0) << r.err;
  std::ofstream(empty) << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>empty</title>"
                          "</head><body></body></html>\n";

  run_chromium(browser, dir, "chart", "--screenshot='" + dir + "/chart.png'", page);
  run_chromium(browser, dir, "empty", "--screenshot='" + dir + "/empty.png'", empty);
  const std::string chart_png = slurp(dir + "/chart.png");
  const std::string empty_png = slurp(dir + "/empty.png");
  EXPECT_EQ(png_size(chart_png), (std::pair<std::uint32_t, std::uint32_t>{1200, 800}));
  EXPECT_EQ(png_size(empty_png), (std::pair<std::uint32_t, std::uint32_t>{1200, 800}));
  // A blank page compresses to almost nothing; bars, text and grid lines do not.
  EXPECT_GT(chart_png.size(), 4 * empty_png.size()) << chart_png.size() << " vs " << empty_png.size();

  // The DOM after parsing: the inline SVG with every shape — the sample's 35 stories are 5
  // parents, 5 milestones and 25 other leaves — and a table row per story.
  const std::string dom = run_chromium(browser, dir, "dom", "--dump-dom", page);
  EXPECT_EQ(count(dom, "<svg"), 1u) << dom.substr(0, 500);
  EXPECT_EQ(count(dom, "<rect class=\"bar"), 25u);
  EXPECT_EQ(count(dom, "<rect class=\"parent"), 5u);
  EXPECT_EQ(count(dom, "<polygon class=\"milestone\""), 5u);
  EXPECT_EQ(count(dom, "<tr"), 36u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ptmpl
