// The HTML preview in a real browser: headless Chromium loads the page from a file (it fetches
// nothing else: the page's Content-Security-Policy forbids it), draws the grid and the bars,
// runs the page's script (zoom, collapse), and its DOM holds every shape. Chromium is a test
// dependency (scripts/setup.sh installs it): when it is missing the tests fail rather than skip.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

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

// Where screenshots stay after the test, for people to look at: the build's tests/artifacts/NAME.
std::filesystem::path artifacts(const std::string& name) {
  std::filesystem::path dir = std::filesystem::path(PTMPL_TEST_ARTIFACTS) / name;
  std::filesystem::create_directories(dir);
  return dir;
}

// The page in two frames of a test page. The first, in the window, is set to the state the
// fragment names (#day, #week, #month: that zoom; #collapsed: parents 2 and 3 collapsed) for
// the screenshot. The second, below the window, is worked as a reader would — the zoom
// buttons and a parent's toggle clicked, the page scrolled — and measured. The test page
// reaches into the frames, which Chromium allows between files with
// --allow-file-access-from-files; what it finds is written into its body, which --dump-dom
// prints once the virtual time budget has let the frames load and the scripts run.
constexpr std::string_view kProbe = R"(<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>probe</title>
<style>body { margin: 0; } iframe { width: 1200px; height: 800px; border: 0; display: block; }</style>
</head><body>
<iframe id="shown" src="plan.html"></iframe>
<iframe id="checked" src="plan.html"></iframe>
<pre id="result">not run</pre>
<script>
const shown = (element) => element.getClientRects().length > 0;
const zoom = (doc, name) => doc.querySelector('button.zoom[value="' + name + '"]').click();
const rowOf = (doc, outline) => [...doc.querySelectorAll('table.plan tbody tr')]
    .find((row) => row.querySelector('span.outline').textContent === outline);
const collapse = (doc, outline) => rowOf(doc, outline).querySelector('button.toggle').click();
const loaded = (id, work) => document.getElementById(id).addEventListener('load', () => {
  const win = document.getElementById(id).contentWindow;
  work(win, win.document);
});

loaded('shown', (win, doc) => {
  const state = location.hash.slice(1);
  if (state === 'collapsed') { collapse(doc, '2'); collapse(doc, '3'); }
  else zoom(doc, state);
});

loaded('checked', (win, doc) => {
  const out = [];
  for (const shape of ['bar', 'parent', 'milestone', 'float'])
    out.push(shape + 's=' + doc.querySelectorAll('td.lane > div.' + shape).length);
  out.push('rows=' + doc.querySelectorAll('table.plan tr').length);
  out.push('zoom=' + doc.querySelector('table.plan').dataset.zoom);
  const sample = rowOf(doc, '2.1');
  out.push('grid=' + ['start', 'finish', 'days', 'assigned']
      .map((name) => sample.querySelector('td.' + name).textContent).join('|'));
  const milestone = rowOf(doc, '2.6');
  out.push('milestone=' + ['start', 'finish', 'days']
      .map((name) => milestone.querySelector('td.' + name).textContent).join('|'));
  for (const name of ['day', 'week', 'month']) {
    zoom(doc, name);
    const labels = [...doc.querySelectorAll('div.ticks > span')].filter(shown);
    const last = labels[labels.length - 1].getBoundingClientRect();
    const header = doc.querySelector('th.scale').getBoundingClientRect();
    out.push(name + '-ticks=' + labels.length);
    out.push(name + '-bar=' + Math.round(sample.querySelector('div.bar').getBoundingClientRect().width));
    out.push(name + '-last-inside=' + (last.right <= header.right));
  }
  const rows = () => [...doc.querySelectorAll('table.plan tbody tr')].filter(shown).length;
  out.push('shown-rows=' + rows());
  collapse(doc, '2');
  out.push('collapsed-rows=' + rows());
  out.push('child-shown=' + shown(rowOf(doc, '2.1')) + '/' + shown(sample.querySelector('div.bar')));
  out.push('parent-shown=' + shown(rowOf(doc, '2')) + '/' + shown(rowOf(doc, '2').querySelector('div.parent')));
  out.push('expanded=' + rowOf(doc, '2').querySelector('button.toggle').getAttribute('aria-expanded'));
  collapse(doc, '2');
  out.push('expanded-rows=' + rows());
  out.push('top-before=' + Math.round(doc.querySelector('thead th').getBoundingClientRect().top));
  win.scrollTo(0, 300);
  out.push('scrolled=' + Math.round(win.scrollY));
  out.push('top-after=' + Math.round(doc.querySelector('thead th').getBoundingClientRect().top));
  document.getElementById('result').textContent = out.join(' ');
});
</script>
</body></html>
)";

// The value of `key=` in the probe's result, up to the next space.
std::string probed(const std::string& result, const std::string& key) {
  const std::size_t at = result.find(" " + key + "=");
  if (at == std::string::npos) return "(missing " + key + ")";
  const std::size_t from = at + key.size() + 2;
  return result.substr(from, result.find(' ', from) - from);
}

// One page of samples/software-release.json (with --start), and a browser for each state,
// all at the same time (ctest runs each test in a process of its own, so this is one test):
// each takes its state's screenshot, and one of them (#week) prints the probe's findings too.
TEST(CliScheduleBrowser, ChromiumDrawsThePageAndItsControlsWork) {
  const std::string browser = chromium();
  ASSERT_FALSE(browser.empty()) << "chromium is not installed; scripts/setup.sh installs it";
  const std::string dir = ::testing::TempDir() + "schedule-browser-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  testing::CliRun r = testing::run_ptmpl(
      "schedule samples/software-release.json --format html --start 2027-01-04 -o '" + dir + "/plan.html'");
  ASSERT_EQ(r.exit, 0) << r.err;
  std::ofstream(dir + "/probe.html") << kProbe;
  const std::filesystem::path shots = artifacts("schedule-html");
  const std::vector<std::string> states = {"day", "week", "month", "collapsed"};
  // Headless Chromium with a profile of its own per run; bounded by timeout(1) so a stuck
  // browser cannot hang ctest.
  std::string commands;
  for (const std::string& state : states) {
    commands += "timeout 60 '" + browser + "' --headless --no-sandbox --disable-gpu --hide-scrollbars " +
                "--allow-file-access-from-files --virtual-time-budget=3000 --window-size=1200,800 " +
                "--user-data-dir='" + dir + "/profile-" + state + "' --screenshot='" +
                (shots / ("plan-" + state + ".png")).string() + "'" + (state == "week" ? " --dump-dom" : "") +
                " 'file://" + dir + "/probe.html#" + state + "' 2>/dev/null" +
                (state == "week" ? " & " : " >/dev/null & ");
  }
  const std::string dom = shell_output("{ " + commands + "wait; }");
  std::filesystem::remove_all(dir);
  std::cout << "screenshots of the HTML page (zoom by day, week, month; two parents collapsed) in " << shots.string()
            << "\n";
  const std::size_t at = dom.find("<pre id=\"result\">");
  ASSERT_NE(at, std::string::npos) << dom;
  const std::string result = " " + dom.substr(at + 17, dom.find("</pre>", at) - at - 17);

  // Each state is drawn, and differently: a zoom or a collapse changes the picture.
  std::map<std::string, std::string> pngs;
  for (const std::string& state : states) {
    pngs[state] = slurp((shots / ("plan-" + state + ".png")).string());
    EXPECT_EQ(png_size(pngs[state]), (std::pair<std::uint32_t, std::uint32_t>{1200, 800})) << state;
  }
  for (const std::string& state : states) {
    for (const std::string& other : states) {
      if (other < state) {
        EXPECT_NE(pngs[state], pngs[other]) << state << " and " << other << " look the same";
      }
    }
  }
  // Every shape — the sample's 35 stories are 5 parents, 5 milestones and 25 other leaves, 12
  // of them with float — and a row per story below the heading.
  EXPECT_EQ(probed(result, "bars"), "25") << result;
  EXPECT_EQ(probed(result, "parents"), "5") << result;
  EXPECT_EQ(probed(result, "milestones"), "5") << result;
  EXPECT_EQ(probed(result, "floats"), "12") << result;
  EXPECT_EQ(probed(result, "rows"), "36") << result;
  // The page opens at the week zoom: the 43 calendar days fit, by day they would not.
  EXPECT_EQ(probed(result, "zoom"), "week") << result;
  // The grid: a task's dates, working days and assignees, a milestone's one date and 0 days
  // (the table preview says the same: 2027-01-08 to 2027-01-28, 15; 2027-01-28, 0).
  EXPECT_NE(result.find("grid=2027-01-08|2027-01-28|15|Backend Engineer, Frontend Engineer, Security Engineer "),
            std::string::npos)
      << result;
  EXPECT_EQ(probed(result, "milestone"), "2027-01-28||0") << result;
  // Each zoom redraws the scale: fewer ticks and a shorter bar from day to week to month, and
  // the last tick label whole inside the scale.
  const int day_ticks = std::stoi(probed(result, "day-ticks"));
  const int week_ticks = std::stoi(probed(result, "week-ticks"));
  const int month_ticks = std::stoi(probed(result, "month-ticks"));
  EXPECT_GT(day_ticks, week_ticks) << result;
  EXPECT_GT(week_ticks, month_ticks) << result;
  EXPECT_GE(month_ticks, 2) << result;
  EXPECT_GT(std::stoi(probed(result, "day-bar")), std::stoi(probed(result, "week-bar"))) << result;
  EXPECT_GT(std::stoi(probed(result, "week-bar")), std::stoi(probed(result, "month-bar"))) << result;
  for (const char* zoom : {"day", "week", "month"})
    EXPECT_EQ(probed(result, std::string(zoom) + "-last-inside"), "true") << zoom << ": " << result;
  // Collapsing 2 (Development) hides its 6 children, rows and bars, and keeps its own bar;
  // expanding shows them again.
  EXPECT_EQ(probed(result, "shown-rows"), "35") << result;
  EXPECT_EQ(probed(result, "collapsed-rows"), "29") << result;
  EXPECT_EQ(probed(result, "child-shown"), "false/false") << result;
  EXPECT_EQ(probed(result, "parent-shown"), "true/true") << result;
  EXPECT_EQ(probed(result, "expanded"), "false") << result;
  EXPECT_EQ(probed(result, "expanded-rows"), "35") << result;
  // The page scrolled past the heading, and the heading (with the scale) stayed at the top.
  EXPECT_GT(std::stoi(probed(result, "scrolled")), std::stoi(probed(result, "top-before"))) << result;
  EXPECT_GT(std::stoi(probed(result, "top-before")), 0) << result;
  EXPECT_EQ(probed(result, "top-after"), "0") << result;
}

}  // namespace
}  // namespace ptmpl
