// The HTML preview in a real browser: headless Chromium loads the page from a file (it fetches
// nothing else: the page's Content-Security-Policy forbids it), draws the chart, and its DOM
// holds every shape. Chromium is a test dependency (scripts/setup.sh installs it): when it is
// missing the test fails rather than skips.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli_run.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

using testing::shell_output;

std::string chromium() {
  std::string path = shell_output("command -v chromium || command -v chromium-browser");
  while (!path.empty() && (path.back() == '\n' || path.back() == ' ')) path.pop_back();
  return path;
}

using testing::slurp;

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

  // The DOM after parsing: the date header and the chart as two inline SVGs, every shape — the sample's 35 stories are
  // 5 parents, 5 milestones and 25 other leaves — and a table row per story.
  const std::string dom = run_chromium(browser, dir, "dom", "--dump-dom", page);
  EXPECT_EQ(count(dom, "<svg"), 2u) << dom.substr(0, 500);
  EXPECT_EQ(count(dom, "<rect class=\"bar"), 25u);
  EXPECT_EQ(count(dom, "<rect class=\"parent"), 5u);
  EXPECT_EQ(count(dom, "<polygon class=\"milestone\""), 5u);
  EXPECT_EQ(count(dom, "<tr"), 36u);
  std::filesystem::remove_all(dir);
}

// The page in a frame of a test page whose script scrolls it and measures it. The plan page
// runs no script of its own (its Content-Security-Policy forbids any); the test page reaches
// into it, which Chromium allows between files with --allow-file-access-from-files. The
// results are written into the test page's body, which --dump-dom prints once the virtual
// time budget has let the frame load and the script run.
TEST(CliScheduleBrowser, DateHeaderStaysInViewAndTheLastTickLabelIsWhole) {
  const std::string browser = chromium();
  ASSERT_FALSE(browser.empty()) << "chromium is not installed; scripts/setup.sh installs it";
  const std::string dir = ::testing::TempDir() + "schedule-scroll-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const std::string page = dir + "/plan.html";
  const std::string probe = dir + "/probe.html";
  testing::CliRun r =
      testing::run_ptmpl("schedule samples/software-release.json --format html --start 2027-01-04 -o '" + page + "'");
  ASSERT_EQ(r.exit, 0) << r.err;
  std::ofstream(probe) << R"(<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>probe</title></head><body>
<iframe id="plan" src="plan.html" style="width: 1600px; height: 400px; border: 0"></iframe>
<pre id="result">not run</pre>
<script>
document.getElementById('plan').addEventListener('load', () => {
  const win = document.getElementById('plan').contentWindow;
  const doc = win.document;
  const header = doc.querySelector('div.chart-header');
  const labels = doc.querySelectorAll('div.chart-header text');
  const out = [];
  const svg = header.querySelector('svg').getBoundingClientRect();
  const last = labels[labels.length - 1];
  const box = last.getBoundingClientRect();
  out.push('labels=' + labels.length);
  out.push('last=' + last.textContent);
  out.push('last-inside=' + (box.right <= svg.right && box.right <= win.innerWidth));
  out.push('top-before=' + Math.round(header.getBoundingClientRect().top));
  win.scrollTo(0, 600);
  out.push('scrolled=' + Math.round(win.scrollY));
  out.push('top-after=' + Math.round(header.getBoundingClientRect().top));
  const rows = doc.querySelector('svg.chart-body').getBoundingClientRect();
  out.push('body-top-after=' + Math.round(rows.top));
  document.getElementById('result').textContent = out.join(' ');
});
</script>
</body></html>
)";
  const std::string dom = shell_output("timeout 60 '" + browser +
                                       "' --headless --no-sandbox --disable-gpu --allow-file-access-from-files "
                                       "--virtual-time-budget=5000 --user-data-dir='" +
                                       dir + "/profile-probe' --dump-dom 'file://" + probe + "' 2>/dev/null");
  const std::size_t at = dom.find("<pre id=\"result\">");
  ASSERT_NE(at, std::string::npos) << dom;
  const std::string result = dom.substr(at, dom.find("</pre>", at) - at);
  // The last of the ticks is a date in full (MM-DD: the project lies in 2027) within the chart.
  const std::size_t last = result.find("last=");
  ASSERT_NE(last, std::string::npos) << result;
  const std::string label = result.substr(last + 5, result.find(' ', last) - last - 5);
  EXPECT_EQ(label.size(), 5u) << result;
  EXPECT_EQ(label[2], '-') << result;
  EXPECT_NE(result.find("last-inside=true"), std::string::npos) << result;
  // The page scrolled, the chart's body with it, and the header stayed at the top.
  EXPECT_NE(result.find("scrolled=600"), std::string::npos) << result;
  EXPECT_NE(result.find("top-after=0"), std::string::npos) << result;
  EXPECT_EQ(result.find("top-before=0 "), std::string::npos) << result;
  // The rows went up under it.
  const std::size_t body = result.find("body-top-after=");
  ASSERT_NE(body, std::string::npos) << result;
  EXPECT_LT(std::stoi(result.substr(body + 15)), 0) << result;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ptmpl
