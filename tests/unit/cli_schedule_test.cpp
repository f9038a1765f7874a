// `ptmpl schedule` and `ptmpl stats` end to end: exact output of every format (golden files in
// tests/golden/schedule/), the JSON output field by field, every SVG parsed as XML, terminal
// behaviour (default format, colour, NO_COLOR), errors and exit codes.
#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <pugixml.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

using testing::CliRun;
using testing::read_source;
using testing::run_ptmpl;

struct GoldenCase {
  const char* golden;  // in tests/golden/schedule/
  const char* args;
};

// Generated once by running these commands, then read line by line before being committed.
const GoldenCase kGoldenCases[] = {
    {"software-release.gantt.txt", "schedule samples/software-release.json --format gantt --width 100"},
    {"software-release.gantt-start.txt",
     "schedule samples/software-release.json --format gantt --width 80 --start 2027-01-04 --holidays "
     "tests/data/schedule/holidays.txt"},
    {"software-release.critical-only.gantt.txt",
     "schedule samples/software-release.json --format gantt --width 72 --critical-only"},
    {"software-release.table.txt", "schedule samples/software-release.json"},
    {"software-release.table-start.txt", "schedule samples/software-release.json --format table --start 2027-01-04"},
    {"software-release.json", "schedule samples/software-release.json --format json"},
    {"software-release.start.json",
     "schedule samples/software-release.json --format json --start 2027-01-04 --holidays "
     "tests/data/schedule/holidays.txt"},
    {"software-release.csv", "schedule samples/software-release.json --format csv"},
    {"software-release.mermaid", "schedule samples/software-release.json --format mermaid"},
    {"software-release.start.mermaid",
     "schedule samples/software-release.json --format mermaid --start 2027-01-04 --holidays "
     "tests/data/schedule/holidays.txt"},
    {"software-release.svg", "schedule samples/software-release.json --format svg"},
    {"software-release.html", "schedule samples/software-release.json --format html --start 2027-01-04"},
    {"software-release.stats.txt", "stats samples/software-release.json"},
    {"software-release.stats.json", "stats samples/software-release.json --format json"},
    {"small.asap.table.txt", "schedule tests/data/schedule/small.json --asap"},
    {"erp-implementation.gantt.txt", "schedule samples/erp-implementation.json --format gantt --width 80"},
    {"erp-implementation.depth2.gantt.txt",
     "schedule samples/erp-implementation.json --format gantt --width 120 --depth 2 --start 2027-01-04"},
    {"erp-implementation.table.txt", "schedule samples/erp-implementation.json --format table"},
    {"erp-implementation.critical-only.table.txt",
     "schedule samples/erp-implementation.json --critical-only --start 2027-01-04 --calendar 7day"},
    {"erp-implementation.json", "schedule samples/erp-implementation.json --format json"},
    {"erp-implementation.csv",
     "schedule samples/erp-implementation.json --format csv --start 2027-01-04 --calendar 7day"},
    {"erp-implementation.mermaid",
     "schedule samples/erp-implementation.json --format mermaid --start 2027-01-04 --depth 2"},
    {"erp-implementation.svg", "schedule samples/erp-implementation.json --format svg --start 2027-01-04"},
    {"erp-implementation.html", "schedule samples/erp-implementation.json --format html --depth 2"},
    {"erp-implementation.stats.txt", "stats samples/erp-implementation.json"},
    {"erp-implementation.stats.json", "stats samples/erp-implementation.json --format json"},
    {"small.gantt.txt", "schedule tests/data/schedule/small.json --format gantt --width 60"},
    {"small.table.txt", "schedule tests/data/schedule/small.json --format table"},
    {"small.json", "schedule tests/data/schedule/small.json --format json"},
    {"small.csv", "schedule tests/data/schedule/small.json --format csv"},
    {"small.mermaid", "schedule tests/data/schedule/small.json --format mermaid"},
    {"small.svg", "schedule tests/data/schedule/small.json --format svg"},
    {"small.html", "schedule tests/data/schedule/small.json --format html"},
};

class ScheduleGolden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(ScheduleGolden, MatchesExactly) {
  const GoldenCase& c = GetParam();
  CliRun r = run_ptmpl(c.args);
  EXPECT_EQ(r.exit, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, read_source(std::string("tests/golden/schedule/") + c.golden)) << c.args;
}

std::string case_name(const ::testing::TestParamInfo<GoldenCase>& info) {
  std::string name;
  for (const char* p = info.param.golden; *p != '\0'; ++p)
    name += std::isalnum(static_cast<unsigned char>(*p)) ? *p : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Cli, ScheduleGolden, ::testing::ValuesIn(kGoldenCases), case_name);

// ---------------------------------------------------------------------------------------------
// JSON (SPEC §9), field by field

rapidjson::Document parse_json(const std::string& text) {
  rapidjson::Document doc;
  doc.Parse(text.c_str(), text.size());
  EXPECT_FALSE(doc.HasParseError()) << text.substr(0, 200);
  return doc;
}

TEST(CliSchedule, JsonHasExactlyTheSpecifiedFields) {
  CliRun r = run_ptmpl("schedule samples/software-release.json --format json");
  ASSERT_EQ(r.exit, 0) << r.err;
  rapidjson::Document doc = parse_json(r.out);
  ASSERT_TRUE(doc.IsObject());
  std::vector<std::string> keys;
  for (const auto& m : doc.GetObject()) keys.emplace_back(m.name.GetString());
  EXPECT_EQ(keys, (std::vector<std::string>{"project", "stories", "critical_path"}));

  const auto& project = doc["project"];
  EXPECT_EQ(project["start"].GetInt64(), 0);
  EXPECT_EQ(project["due"].GetInt64(), 41);
  EXPECT_EQ(project["duration"].GetInt64(), 42);
  EXPECT_EQ(project.MemberCount(), 3u);

  const std::vector<std::string> story_keys = {"temp_id",  "outline",     "title",       "story_type", "start",
                                               "due",      "duration",    "early_start", "early_due",  "late_start",
                                               "late_due", "total_float", "critical"};
  const auto& stories = doc["stories"].GetArray();
  ASSERT_EQ(stories.Size(), 35u);
  std::set<std::int64_t> ids;
  for (const auto& story : stories) {
    std::vector<std::string> names;
    for (const auto& m : story.GetObject()) names.emplace_back(m.name.GetString());
    EXPECT_EQ(names, story_keys);
    ASSERT_TRUE(story["temp_id"].IsInt64());
    ids.insert(story["temp_id"].GetInt64());
    EXPECT_TRUE(story["outline"].IsString());
    EXPECT_TRUE(story["title"].IsString());
    // start/due are the early dates, as a story would declare them (inclusive due).
    EXPECT_EQ(story["start"].GetInt64(), story["early_start"].GetInt64());
    EXPECT_EQ(story["due"].GetInt64(), story["early_due"].GetInt64());
    EXPECT_GE(story["due"].GetInt64(), story["start"].GetInt64());
    EXPECT_EQ(story["critical"].GetBool(), story["total_float"].GetInt64() <= 0);
    EXPECT_GE(story["late_start"].GetInt64(), story["early_start"].GetInt64());
    if (std::string(story["story_type"].GetString()) == "milestone") {
      EXPECT_EQ(story["duration"].GetInt64(), 0);
      EXPECT_EQ(story["start"].GetInt64(), story["due"].GetInt64());
    }
  }
  EXPECT_EQ(ids.size(), 35u);  // tree order, every story once: temp_ids 1 to 35 in this sample
  EXPECT_EQ(*ids.begin(), 1);
  EXPECT_EQ(*ids.rbegin(), 35);

  // Spot checks against the sample (temp_id 7: SAML, 15 days after the scope milestone on day 4).
  const auto& saml = stories[6];
  EXPECT_STREQ(saml["outline"].GetString(), "2.1");
  EXPECT_EQ(saml["temp_id"].GetInt64(), 7);
  EXPECT_STREQ(saml["story_type"].GetString(), "task");
  EXPECT_EQ(saml["start"].GetInt64(), 4);
  EXPECT_EQ(saml["due"].GetInt64(), 18);
  EXPECT_EQ(saml["duration"].GetInt64(), 15);
  EXPECT_EQ(saml["total_float"].GetInt64(), 0);
  EXPECT_TRUE(saml["critical"].GetBool());
  const auto& export_api = stories[7];  // temp_id 8, 5 days of float before the feature freeze
  EXPECT_EQ(export_api["temp_id"].GetInt64(), 8);
  EXPECT_EQ(export_api["late_start"].GetInt64() - export_api["early_start"].GetInt64(), 5);
  EXPECT_EQ(export_api["total_float"].GetInt64(), 5);
  EXPECT_FALSE(export_api["critical"].GetBool());
  const auto& ga = stories[32];
  EXPECT_STREQ(ga["story_type"].GetString(), "milestone");
  EXPECT_STREQ(ga["outline"].GetString(), "5.4");

  // Critical chains: arrays of temp_ids of critical stories; the first ends the project.
  const auto& chains = doc["critical_path"].GetArray();
  ASSERT_GE(chains.Size(), 1u);
  std::map<std::int64_t, bool> critical;
  for (const auto& story : stories) critical[story["temp_id"].GetInt64()] = story["critical"].GetBool();
  for (const auto& chain : chains) {
    ASSERT_TRUE(chain.IsArray());
    for (const auto& id : chain.GetArray()) EXPECT_TRUE(critical[id.GetInt64()]) << id.GetInt64();
  }
  EXPECT_EQ(chains[0].GetArray()[chains[0].Size() - 1].GetInt64(), 35);
}

TEST(CliSchedule, JsonKeepsTempIdsAsWrittenAndAddsDatesWithACalendar) {
  CliRun r = run_ptmpl("schedule tests/data/schedule/small.json --format json --start 2027-01-04");
  ASSERT_EQ(r.exit, 0) << r.err;
  rapidjson::Document doc = parse_json(r.out);
  const auto& stories = doc["stories"].GetArray();
  ASSERT_EQ(stories.Size(), 6u);
  EXPECT_STREQ(stories[0]["temp_id"].GetString(), "prep");
  EXPECT_EQ(stories[1]["temp_id"].GetInt64(), 1);
  EXPECT_TRUE(stories[3]["temp_id"].IsNull());
  EXPECT_STREQ(stories[3]["story_type"].GetString(), "deliverable");
  EXPECT_STREQ(stories[1]["title"].GetString(), "Brief; scope: #1");
  EXPECT_STREQ(stories[4]["start_date"].GetString(), "2027-01-12");  // day 6: Tuesday of the next week
  EXPECT_STREQ(doc["project"]["start_date"].GetString(), "2027-01-04");
  EXPECT_STREQ(doc["project"]["due_date"].GetString(), "2027-01-12");
  EXPECT_STREQ(doc["project"]["calendar"].GetString(), "workweek");
  const auto& chain = doc["critical_path"][0];
  EXPECT_EQ(chain[0].GetInt64(), 1);
  EXPECT_STREQ(chain[2].GetString(), "go");
}

// ---------------------------------------------------------------------------------------------
// SVG and HTML: well-formed XML with the expected shapes

struct Shapes {
  std::size_t bars = 0, critical_bars = 0, parents = 0, milestones = 0, floats = 0;
};

Shapes count_shapes(const pugi::xml_node& svg) {
  Shapes s;
  for (pugi::xpath_node n : svg.select_nodes("//rect")) {
    std::string c = n.node().attribute("class").value();
    if (c == "bar" || c == "bar critical") ++s.bars;
    if (c == "bar critical") ++s.critical_bars;
    if (c.starts_with("parent")) ++s.parents;
    if (c == "float") ++s.floats;
  }
  for (pugi::xpath_node n : svg.select_nodes("//polygon[@class='milestone']")) {
    (void)n;
    ++s.milestones;
  }
  return s;
}

// What the rows of a preview should draw, from the same command's JSON: a diamond for a zero
// duration, a thin bar for a parent (a story whose outline prefixes another's in the full
// tree), a bar otherwise.
Shapes expected_shapes(const std::string& args) {
  // The same command as JSON, and the whole tree: "schedule FILE --format json".
  std::string json_args = args;
  std::size_t format = json_args.find("--format ");
  json_args.replace(format, json_args.find(' ', format + 9) - format, "--format json");
  CliRun shown = run_ptmpl(json_args);
  CliRun all = run_ptmpl(args.substr(0, args.find(' ', args.find(' ') + 1)) + " --format json");
  rapidjson::Document doc = parse_json(shown.out);
  rapidjson::Document full = parse_json(all.out);
  std::set<std::string> parents;
  for (const auto& story : full["stories"].GetArray()) {
    std::string outline = story["outline"].GetString();
    if (auto dot = outline.rfind('.'); dot != std::string::npos) parents.insert(outline.substr(0, dot));
  }
  Shapes s;
  for (const auto& story : doc["stories"].GetArray()) {
    if (story["duration"].GetInt64() == 0)
      ++s.milestones;
    else if (parents.count(story["outline"].GetString()) > 0)
      ++s.parents;
    else {
      ++s.bars;
      if (story["critical"].GetBool()) ++s.critical_bars;
      if (story["total_float"].GetInt64() > 0) ++s.floats;
    }
  }
  return s;
}

void expect_shapes(const pugi::xml_node& svg, const std::string& args) {
  Shapes got = count_shapes(svg);
  Shapes want = expected_shapes(args);
  EXPECT_EQ(got.bars, want.bars) << args;
  EXPECT_EQ(got.critical_bars, want.critical_bars) << args;
  EXPECT_EQ(got.parents, want.parents) << args;
  EXPECT_EQ(got.milestones, want.milestones) << args;
  EXPECT_EQ(got.floats, want.floats) << args;
  EXPECT_GT(want.bars + want.parents + want.milestones, 0u) << args;
  EXPECT_GE(svg.select_nodes("//line[@class='tick']").size(), 2u) << args;
}

TEST(CliSchedule, EverySvgIsWellFormedWithTheExpectedShapes) {
  std::size_t checked = 0;
  for (const GoldenCase& c : kGoldenCases) {
    std::string args = c.args;
    if (args.find("--format svg") == std::string::npos) continue;
    CliRun r = run_ptmpl(args);
    ASSERT_EQ(r.exit, 0) << r.err;
    pugi::xml_document doc;
    pugi::xml_parse_result parsed = doc.load_string(r.out.c_str());
    ASSERT_TRUE(parsed) << args << ": " << parsed.description() << " at " << parsed.offset;
    pugi::xml_node svg = doc.child("svg");
    ASSERT_TRUE(svg) << args;
    EXPECT_STREQ(svg.attribute("xmlns").value(), "http://www.w3.org/2000/svg");
    // Self-contained: nothing refers outside the file.
    EXPECT_EQ(r.out.find("href"), std::string::npos) << args;
    EXPECT_EQ(r.out.find("url("), std::string::npos) << args;
    expect_shapes(svg, args);
    ++checked;
  }
  EXPECT_EQ(checked, 3u);
}

std::string inline_svg(const std::string& html) {
  std::size_t begin = html.find("<svg");
  std::size_t end = html.find("</svg>");
  if (begin == std::string::npos || end == std::string::npos) return "";
  return html.substr(begin, end + 6 - begin);
}

TEST(CliSchedule, EveryHtmlPageIsSelfContainedWithAWellFormedChart) {
  std::size_t checked = 0;
  for (const GoldenCase& c : kGoldenCases) {
    std::string args = c.args;
    if (args.find("--format html") == std::string::npos) continue;
    CliRun r = run_ptmpl(args);
    ASSERT_EQ(r.exit, 0) << r.err;
    EXPECT_TRUE(r.out.starts_with("<!DOCTYPE html>\n")) << args;
    for (const char* external : {"<script", "<link", "<img", "src=", "href", "url(", "@import"})
      EXPECT_EQ(r.out.find(external), std::string::npos) << args << ": " << external;
    pugi::xml_document doc;
    std::string svg_text = inline_svg(r.out);
    ASSERT_TRUE(doc.load_string(svg_text.c_str())) << args;
    expect_shapes(doc.child("svg"), args);
    // The table has a row per story shown.
    std::size_t rows = 0;
    for (std::size_t at = r.out.find("<tr"); at != std::string::npos; at = r.out.find("<tr", at + 1)) ++rows;
    Shapes want = expected_shapes(args);
    EXPECT_EQ(rows, 1 + want.bars + want.parents + want.milestones) << args;
    ++checked;
  }
  EXPECT_EQ(checked, 3u);
}

TEST(CliSchedule, MarkupEscapesEveryTitle) {
  CliRun r = run_ptmpl("schedule tests/data/schedule/small.json --format svg");
  ASSERT_EQ(r.exit, 0);
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(r.out.c_str()));
  EXPECT_STREQ(doc.child("svg").child("title").text().get(), "Launch: \"Q3\" <web> & more");
  EXPECT_NE(r.out.find("3 Announce &lt;launch&gt; &amp; celebrate"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Filters: --depth, --critical-only

std::vector<std::string> outlines(const std::string& table) {
  std::vector<std::string> out;
  std::size_t at = table.find('\n') + 1;  // after the heading
  while (at < table.size()) {
    std::size_t end = table.find('\n', at);
    out.push_back(table.substr(at, table.find(' ', at) - at));
    at = end + 1;
  }
  return out;
}

TEST(CliSchedule, DepthShowsLevelsAboveIt) {
  CliRun r = run_ptmpl("schedule samples/software-release.json --depth 1");
  EXPECT_EQ(outlines(r.out), (std::vector<std::string>{"1", "2", "3", "4", "5"}));
  CliRun erp = run_ptmpl("schedule samples/erp-implementation.json --depth 2");
  for (const std::string& outline : outlines(erp.out)) EXPECT_LE(std::count(outline.begin(), outline.end(), '.'), 1);
}

TEST(CliSchedule, CriticalOnlyKeepsParentsAndOutlineNumbers) {
  CliRun r = run_ptmpl("schedule samples/software-release.json --critical-only");
  std::vector<std::string> shown = outlines(r.out);
  // Parents 2 and 3 hold critical stories and stay; 2.2–2.5 and 3.1–3.3 have float and go;
  // part 4 has no critical story at all. Stories keep their numbers.
  EXPECT_EQ(shown,
            (std::vector<std::string>{"1",   "1.1", "1.2", "1.3", "1.4", "2",   "2.1", "2.6", "3",   "3.4", "3.5",
                                      "3.6", "3.7", "3.8", "3.9", "5",   "5.1", "5.2", "5.3", "5.4", "5.5", "5.6"}));
  EXPECT_EQ(r.out.find(" no\n"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Terminal: default format, colour, NO_COLOR, width

TEST(CliSchedule, OnATerminalTheDefaultIsAColouredGantt) {
  std::string coloured =
      testing::run_ptmpl_on_terminal("schedule samples/software-release.json", "COLUMNS=100 NO_COLOR=");
  EXPECT_TRUE(coloured.starts_with("Software Release – v4.2 Release Train: 42 working days")) << coloured;
  EXPECT_NE(coloured.find("\033[31m"), std::string::npos);
  EXPECT_NE(coloured.find("\033[1;31m!\033[0m"), std::string::npos);
  std::string plain =
      testing::run_ptmpl_on_terminal("schedule samples/software-release.json", "COLUMNS=100 NO_COLOR=1");
  EXPECT_EQ(plain.find('\033'), std::string::npos);
  // Without colour the chart is exactly the one --width 100 prints to a pipe, markers included.
  EXPECT_EQ(plain, read_source("tests/golden/schedule/software-release.gantt.txt"));
}

TEST(CliSchedule, PipedOutputIsATableWithoutColour) {
  CliRun r = run_ptmpl("schedule samples/software-release.json", "NO_COLOR=");
  EXPECT_EQ(r.out, read_source("tests/golden/schedule/software-release.table.txt"));
  EXPECT_EQ(r.out.find('\033'), std::string::npos);
}

TEST(CliSchedule, GanttLinesFitTheWidth) {
  for (int width : {40, 57, 80, 100, 132}) {
    CliRun r = run_ptmpl("schedule samples/erp-implementation.json --format gantt --width " + std::to_string(width));
    ASSERT_EQ(r.exit, 0);
    std::size_t at = 0;
    std::size_t line_number = 0;
    while (at < r.out.size()) {
      std::size_t end = r.out.find('\n', at);
      std::string line = r.out.substr(at, end - at);
      std::size_t columns = 0;
      for (char c : line) columns += (static_cast<unsigned char>(c) & 0xC0U) != 0x80U;
      // The first line (title) and the legend are text, not chart.
      if (line_number > 0 && end + 1 < r.out.size()) {
        EXPECT_LE(columns, static_cast<std::size_t>(width)) << line;
      }
      ++line_number;
      at = end + 1;
    }
    EXPECT_EQ(line_number, 164u + 4u);
  }
  EXPECT_EQ(run_ptmpl("schedule samples/software-release.json --width 39").exit, 2);
}

// ---------------------------------------------------------------------------------------------
// Output file, errors, exit codes

TEST(CliSchedule, OutputFileIsWrittenWholeOrNotAtAll) {
  std::string path = ::testing::TempDir() + "schedule-out.html";
  std::filesystem::remove(path);
  CliRun r = run_ptmpl("schedule samples/software-release.json --format html --start 2027-01-04 -o '" + path + "'");
  EXPECT_EQ(r.exit, 0) << r.err;
  EXPECT_EQ(r.out, "");
  std::ifstream in(path, std::ios::binary);
  std::string written{std::istreambuf_iterator<char>(in), {}};
  EXPECT_EQ(written, read_source("tests/golden/schedule/software-release.html"));

  std::string missing_dir = ::testing::TempDir() + "no-such-dir/out.svg";
  CliRun bad = run_ptmpl("schedule samples/software-release.json --format svg -o '" + missing_dir + "'");
  EXPECT_EQ(bad.exit, 2);
  EXPECT_TRUE(bad.err.starts_with("ptmpl schedule: ")) << bad.err;
  EXPECT_FALSE(std::filesystem::exists(missing_dir));
  // -o is not a terminal: the default format is the table.
  std::string table_path = ::testing::TempDir() + "schedule-out.txt";
  EXPECT_EQ(run_ptmpl("schedule samples/software-release.json -o '" + table_path + "'").exit, 0);
  std::ifstream table_in(table_path, std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(table_in), {}),
            read_source("tests/golden/schedule/software-release.table.txt"));
}

TEST(CliSchedule, CycleIsAnInputErrorWithItsChain) {
  for (const char* command : {"schedule", "stats"}) {
    CliRun r = run_ptmpl(std::string(command) + " tests/data/schedule/cycle.json");
    EXPECT_EQ(r.exit, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "ptmpl " + std::string(command) +
                         ": tests/data/schedule/cycle.json:14:22: dependency cycle: 3 → 5 → 3\n");
  }
}

TEST(CliSchedule, UnreadableAndInvalidFilesExitTwoWithThePlace) {
  CliRun syntax = run_ptmpl("schedule tests/data/schedule/syntax-error.json");
  EXPECT_EQ(syntax.exit, 2);
  EXPECT_EQ(syntax.out, "");
  EXPECT_EQ(syntax.err,
            "ptmpl schedule: tests/data/schedule/syntax-error.json:5:5: expected ',' or '}' after an object member\n");

  CliRun inner = run_ptmpl("stats tests/data/schedule/raw-json-string-invalid.json");
  EXPECT_EQ(inner.exit, 2);
  EXPECT_EQ(inner.err,
            "ptmpl stats: tests/data/schedule/raw-json-string-invalid.json:4:17: in the raw_json string at line 1, "
            "column 35: expected a member name in double quotes\n");

  CliRun deep = run_ptmpl("schedule tests/data/cli/too-deep.json");
  EXPECT_EQ(deep.exit, 2);
  EXPECT_NE(deep.err.find("tests/data/cli/too-deep.json:1:"), std::string::npos) << deep.err;

  CliRun missing = run_ptmpl("schedule tests/data/schedule/nope.json");
  EXPECT_EQ(missing.exit, 2);
  EXPECT_TRUE(missing.err.starts_with("ptmpl schedule: tests/data/schedule/nope.json: ")) << missing.err;

  CliRun several = run_ptmpl("schedule tests/data/roundtrip/api-envelope.json");
  EXPECT_EQ(several.exit, 2);
  EXPECT_EQ(several.err,
            "ptmpl schedule: tests/data/roundtrip/api-envelope.json holds 2 templates; choose one with --template N (1 "
            "to 2)\n");
  EXPECT_EQ(run_ptmpl("schedule tests/data/roundtrip/api-envelope.json --template 2").exit, 0);
  EXPECT_EQ(run_ptmpl("schedule tests/data/roundtrip/api-envelope.json --template 3").exit, 2);
}

TEST(CliSchedule, UsageErrorsExitTwo) {
  EXPECT_EQ(run_ptmpl("schedule").exit, 2);
  EXPECT_EQ(run_ptmpl("schedule samples/software-release.json --format pdf").exit, 2);
  EXPECT_EQ(run_ptmpl("schedule samples/software-release.json --calendar 7day").exit, 2);  // needs --start
  EXPECT_EQ(run_ptmpl("schedule samples/software-release.json --depth 0").exit, 2);
  CliRun date = run_ptmpl("schedule samples/software-release.json --start 2027-02-29");
  EXPECT_EQ(date.exit, 2);
  EXPECT_EQ(date.err, "ptmpl schedule: --start: \"2027-02-29\" is not a date (expected YYYY-MM-DD)\n");
  CliRun holidays =
      run_ptmpl("schedule samples/software-release.json --start 2027-01-04 --holidays samples/software-release.json");
  EXPECT_EQ(holidays.exit, 2);
  EXPECT_TRUE(holidays.err.starts_with("ptmpl schedule: samples/software-release.json:1")) << holidays.err;
  EXPECT_EQ(run_ptmpl("stats samples/software-release.json --format xml").exit, 2);
}

TEST(CliSchedule, IgnoredLinksAreAWarningNotAnError) {
  CliRun r = run_ptmpl("schedule tests/data/schedule/skipped-links.json");
  EXPECT_EQ(r.exit, 0);
  EXPECT_EQ(r.err,
            "ptmpl schedule: tests/data/schedule/skipped-links.json: warning: 2 dependencies do not constrain the "
            "schedule (a missing target, a self-link, a link to a parent or sub-story, or an invalid type); run ptmpl "
            "lint tests/data/schedule/skipped-links.json\n");
  // The valid link still holds: Build follows Design.
  EXPECT_NE(r.out.find("2        2        Build       2    4"), std::string::npos) << r.out;
}

// Before, a lag that is not an integer was read as 0 (Build and Test started on day 2, after
// Design) and the warning counted only the self-link.
TEST(CliSchedule, LinksWhoseLagIsNotAnIntegerAreSkippedWithAWarning) {
  for (const char* command : {"schedule", "stats"}) {
    CliRun r = run_ptmpl(std::string(command) + " tests/data/schedule/non-integer-lag.json");
    EXPECT_EQ(r.exit, 0);
    EXPECT_EQ(r.err, "ptmpl " + std::string(command) +
                         ": tests/data/schedule/non-integer-lag.json: warning: 3 dependencies do not constrain the "
                         "schedule (a missing target, a self-link, a link to a parent or sub-story, an invalid type, "
                         "or a lag that is not an integer: 2 have such a lag, which is not read as 0); run ptmpl lint "
                         "tests/data/schedule/non-integer-lag.json\n");
  }
  // Build and Test start on day 0, as if the links were not there.
  CliRun r = run_ptmpl("schedule tests/data/schedule/non-integer-lag.json --format csv");
  EXPECT_NE(r.out.find("2,2,Build,task,0,2,3,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("3,3,Test,task,0,0,1,"), std::string::npos) << r.out;
}

TEST(CliSchedule, HelpHasAnExample) {
  for (const char* command : {"schedule", "stats"}) {
    CliRun r = run_ptmpl(std::string(command) + " --help");
    EXPECT_EQ(r.exit, 0);
    EXPECT_NE(r.out.find("Example:\n  ptmpl " + std::string(command)), std::string::npos) << r.out;
  }
}

}  // namespace
}  // namespace ptmpl
