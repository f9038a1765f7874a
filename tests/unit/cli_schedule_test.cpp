// `ptmpl schedule` and `ptmpl stats` end to end: exact output of every format (golden files in
// tests/golden/schedule/), the JSON output field by field, every SVG parsed as XML, terminal
// behaviour (default format, colour, NO_COLOR), errors and exit codes.
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <rapidjson/document.h>
#include <pugixml.hpp>

#include <functional>
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
// JSON (docs/semantics.md §9), field by field

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
    // A milestone says which side of its day it sits on (docs/semantics.md §4).
    std::vector<std::string> expected = story_keys;
    if (std::string_view(story["story_type"].GetString()) == "milestone") {
      expected.emplace_back("side");
      EXPECT_STREQ(story["side"].GetString(), "end");  // each follows a task
    }
    EXPECT_EQ(names, expected);
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
  EXPECT_STREQ(stories[4]["start_date"].GetString(), "2027-01-11");  // day 5: Monday of the next week
  EXPECT_STREQ(doc["project"]["start_date"].GetString(), "2027-01-04");
  EXPECT_STREQ(doc["project"]["due_date"].GetString(), "2027-01-11");
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

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The shapes of the page's lanes, by their classes.
Shapes count_page_shapes(const std::string& html) {
  Shapes s;
  s.bars = occurrences(html, "<div class=\"bar");
  s.critical_bars = occurrences(html, "<div class=\"bar critical\"");
  s.parents = occurrences(html, "<div class=\"parent");
  s.milestones = occurrences(html, "<div class=\"milestone");
  s.floats = occurrences(html, "<div class=\"float\"");
  return s;
}

TEST(CliSchedule, EveryHtmlPageIsSelfContainedWithARowAndAShapePerStory) {
  std::size_t checked = 0;
  for (const GoldenCase& c : kGoldenCases) {
    std::string args = c.args;
    if (args.find("--format html") == std::string::npos) continue;
    CliRun r = run_ptmpl(args);
    ASSERT_EQ(r.exit, 0) << r.err;
    EXPECT_TRUE(r.out.starts_with("<!DOCTYPE html>\n")) << args;
    for (const char* external : {"<link", "<img", "src=", "href", "url(", "@import", "fetch(", "XMLHttpRequest"})
      EXPECT_EQ(r.out.find(external), std::string::npos) << args << ": " << external;
    // One script, inline.
    EXPECT_EQ(occurrences(r.out, "<script"), 1u) << args;
    EXPECT_EQ(occurrences(r.out, "<script>"), 1u) << args;
    const Shapes got = count_page_shapes(r.out);
    const Shapes want = expected_shapes(args);
    EXPECT_EQ(got.bars, want.bars) << args;
    EXPECT_EQ(got.critical_bars, want.critical_bars) << args;
    EXPECT_EQ(got.parents, want.parents) << args;
    EXPECT_EQ(got.milestones, want.milestones) << args;
    EXPECT_EQ(got.floats, want.floats) << args;
    // A row per story shown, below the heading.
    EXPECT_EQ(occurrences(r.out, "<tr data-depth="), want.bars + want.parents + want.milestones) << args;
    ++checked;
  }
  EXPECT_EQ(checked, 3u);
}

// The page's policy allows its one inline script by its SHA-256 (CSP Level 2: base64 of the
// digest of the script element's text); with a stale hash a browser runs nothing.
TEST(CliSchedule, HtmlPageAllowsItsScriptByHash) {
  CliRun r = run_ptmpl("schedule tests/data/schedule/small.json --format html");
  ASSERT_EQ(r.exit, 0) << r.err;
  const std::size_t open = r.out.find("<script>");
  ASSERT_NE(open, std::string::npos);
  const std::string script = r.out.substr(open + 8, r.out.find("</script>", open) - open - 8);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  ASSERT_EQ(EVP_Digest(script.data(), script.size(), digest, &size, EVP_sha256(), nullptr), 1);
  std::string base64(4 * ((size + 2) / 3) + 1, '\0');
  base64.resize(static_cast<std::size_t>(
      EVP_EncodeBlock(reinterpret_cast<unsigned char*>(base64.data()), digest, static_cast<int>(size))));
  EXPECT_NE(r.out.find("default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-" + base64 + "'\">"),
            std::string::npos)
      << base64;
}

// The grid says what the table and CSV previews say: for every story shown, its start, its
// due date as the finish (none for a milestone, which has one date) and its working days; and
// the names of its assignees from project_template_assignments.
TEST(CliSchedule, HtmlGridShowsTheDatesOfTheCsvAndTheAssigneesNames) {
  for (const char* args : {"samples/software-release.json --start 2027-01-04", "samples/erp-implementation.json"}) {
    CliRun html = run_ptmpl(std::string("schedule ") + args + " --format html");
    CliRun csv = run_ptmpl(std::string("schedule ") + args + " --format csv");
    ASSERT_EQ(html.exit, 0) << html.err;
    ASSERT_EQ(csv.exit, 0) << csv.err;
    std::size_t rows = 0;
    std::size_t at = html.out.find("<tr data-depth=");
    for (std::size_t line = csv.out.find("\r\n") + 2; line < csv.out.size(); line = csv.out.find("\r\n", line) + 2) {
      std::vector<std::string> fields;
      for (std::size_t f = line; fields.size() < 7;) {
        // The first fields: outline, temp_id, title (may be quoted), type, start, due, duration.
        std::size_t end = csv.out[f] == '"' ? csv.out.find("\",", f + 1) + 1 : csv.out.find(',', f);
        fields.push_back(csv.out.substr(f, end - f));
        f = end + 1;
      }
      ASSERT_NE(at, std::string::npos) << args << ": no row for " << fields[0];
      const std::string row = html.out.substr(at, html.out.find("</tr>", at) - at);
      const bool milestone = fields[6] == "0";
      EXPECT_NE(row.find("<span class=\"outline\">" + fields[0] + "</span>"), std::string::npos) << row;
      EXPECT_NE(row.find("<td class=\"start\">" + fields[4] + "</td><td class=\"finish\">" +
                         (milestone ? "" : fields[5]) + "</td><td class=\"days\">" + fields[6] + "</td>"),
                std::string::npos)
          << args << ": " << row;
      at = html.out.find("<tr data-depth=", at + 1);
      ++rows;
    }
    EXPECT_EQ(at, std::string::npos) << args;
    EXPECT_GT(rows, 30u) << args;
  }
  CliRun r = run_ptmpl("schedule samples/software-release.json --format html");
  EXPECT_NE(r.out.find("<td class=\"assigned\">Backend Engineer, Frontend Engineer, Security Engineer</td>"),
            std::string::npos);
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
// SVG and HTML: dependency arrows, days off, the last tick label, the page's header

pugi::xml_document parse_svg(const std::string& text) {
  pugi::xml_document doc;
  pugi::xml_parse_result parsed = doc.load_string(text.c_str());
  EXPECT_TRUE(parsed) << parsed.description() << " at " << parsed.offset;
  return doc;
}

// The points of a polyline's `points`, as written.
std::vector<std::string> points_of(const pugi::xml_node& polyline) {
  std::vector<std::string> out;
  std::string points = polyline.attribute("points").value();
  for (std::size_t at = 0; at < points.size();) {
    std::size_t end = points.find(' ', at);
    if (end == std::string::npos) end = points.size();
    out.push_back(points.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

// The temp_ids linked in a story list, with both stories at depth < max_depth.
std::size_t links_shown(const rapidjson::Value& stories, std::size_t max_depth) {
  std::map<std::string, std::size_t> depth_of;
  std::vector<std::pair<std::string, std::string>> links;
  auto id = [](const rapidjson::Value& v) {
    return v.IsString() ? std::string(v.GetString()) : std::to_string(v.GetInt64());
  };
  std::function<void(const rapidjson::Value&, std::size_t)> walk = [&](const rapidjson::Value& list,
                                                                       std::size_t depth) {
    for (const auto& story : list.GetArray()) {
      if (story.HasMember("temp_id")) depth_of[id(story["temp_id"])] = depth;
      if (story.HasMember("dependencies"))
        for (const auto& d : story["dependencies"].GetArray())
          links.emplace_back(id(d["source_id"]), id(d["target_id"]));
      if (story.HasMember("sub_stories")) walk(story["sub_stories"], depth + 1);
    }
  };
  walk(stories, 0);
  std::size_t n = 0;
  for (const auto& [from, to] : links)
    n += depth_of.count(from) > 0 && depth_of.count(to) > 0 && depth_of[from] < max_depth && depth_of[to] < max_depth;
  return n;
}

TEST(CliSchedule, SvgDrawsAnArrowForEveryLinkBetweenStoriesShownBeneathTheBars) {
  CliRun small = run_ptmpl("schedule tests/data/schedule/small.json --format svg");
  ASSERT_EQ(small.exit, 0) << small.err;
  pugi::xml_document doc = parse_svg(small.out);
  pugi::xpath_node_set arrows = doc.select_nodes("//g[@class='link']");
  ASSERT_EQ(arrows.size(), 2u);
  // 1.1 (finish, x 424, row 2) to 1.2 (start, x 424, row 3): out, down to the row's edge, back, in.
  EXPECT_EQ(points_of(arrows[0].node().child("polyline")),
            (std::vector<std::string>{"424,105", "430,105", "430,116", "418,116", "418,127", "424,127"}));
  EXPECT_STREQ(arrows[0].node().child("polygon").attribute("points").value(), "424,127 419,123.5 419,130.5");
  EXPECT_STREQ(arrows[0].node().child("title").text().get(), "1.1 \u2192 1.2: finish-to-start");
  EXPECT_STREQ(arrows[1].node().child("title").text().get(), "1.2 \u2192 2: finish-to-start, lag 1");
  // Beneath the bars: the arrows come before the rows.
  EXPECT_LT(small.out.find("<g class=\"links\""), small.out.find("<g class=\"rows\">"));

  // Every link of the sample, then only those whose two stories --depth 1 shows.
  rapidjson::Document sample = parse_json(read_source("samples/software-release.json"));
  const rapidjson::Value& stories = sample["project_template"]["raw_json"];
  for (std::size_t depth : {std::size_t{100}, std::size_t{1}}) {
    const std::string args = "schedule samples/software-release.json --format svg" +
                             (depth == 1 ? std::string(" --depth 1") : std::string());
    CliRun r = run_ptmpl(args);
    pugi::xml_document chart = parse_svg(r.out);
    EXPECT_EQ(chart.select_nodes("//g[@class='link']").size(), links_shown(stories, depth)) << args;
  }
}

class CliScheduleFiles : public testing::CliScratchTest {};

// Names are escaped; an assignee_id no entry has shows as #ID.
TEST_F(CliScheduleFiles, HtmlGridEscapesAssigneeNamesAndShowsUnknownIds) {
  const std::string path = file("team.json", R"({
  "project_template": {
    "title": "Team",
    "project_template_assignments": [{"id": 1, "name": "R&D <lead>"}, {"id": 2, "name": "QA"}],
    "raw_json": [{"title": "Build", "temp_id": 1, "duration": 2,
                  "assignments": [{"assignee_id": 2}, {"assignee_id": 9}, {"assignee_id": 1}]}]
  }
})");
  CliRun r = ptmpl("schedule '" + path + "' --format html");
  ASSERT_EQ(r.exit, 0) << r.err;
  expect_has(r.out, "<td class=\"assigned\">QA, #9, R&amp;D &lt;lead&gt;</td>");
}

TEST_F(CliScheduleFiles, ArrowsLeaveAndReachTheEndsTheLinkTypeNames) {
  // a: days 0–3; b SS+1 on a: days 1–2; c FF on a: day 3; d SF on a: day 0. 24 px a day from x 376.
  const std::string path = file("types.json", R"([
    {"title": "a", "temp_id": "a", "relative_start_date": 0, "duration": 4, "dependencies": [
      {"source_id": "a", "target_id": "b", "type": 0, "lag": 1},
      {"source_id": "a", "target_id": "c", "type": 3},
      {"source_id": "a", "target_id": "d", "type": 1}]},
    {"title": "b", "temp_id": "b", "duration": 2},
    {"title": "c", "temp_id": "c", "duration": 1},
    {"title": "d", "temp_id": "d", "relative_start_date": 0, "duration": 1}
  ])");
  CliRun r = ptmpl("schedule '" + path + "' --format svg");
  ASSERT_EQ(r.exit, 0) << r.err;
  pugi::xml_document doc = parse_svg(r.out);
  std::map<std::string, std::vector<std::string>> route;
  for (pugi::xpath_node arrow : doc.select_nodes("//g[@class='link']"))
    route[arrow.node().child("title").text().get()] = points_of(arrow.node().child("polyline"));
  ASSERT_EQ(route.size(), 3u);
  // SS: a's start (376) to b's start (400), coming in from the left.
  EXPECT_EQ(route["1 \u2192 2: start-to-start, lag 1"],
            (std::vector<std::string>{"376,83", "370,83", "370,94", "394,94", "394,105", "400,105"}));
  // FF: a's finish (472) to c's finish (472), coming in from the right.
  EXPECT_EQ(route["1 \u2192 3: finish-to-finish"],
            (std::vector<std::string>{"472,83", "478,83", "478,127", "472,127"}));
  // SF: a's start (376) to d's finish (400), coming in from the right.
  EXPECT_EQ(route["1 \u2192 4: start-to-finish"],
            (std::vector<std::string>{"376,83", "370,83", "370,138", "406,138", "406,149", "400,149"}));
}

TEST_F(CliScheduleFiles, DaysOffAreShadedColumnsWhenTheScaleShowsDays) {
  // 2027-01-04 is a Monday; the sample's 42 working days run to Tuesday 2027-03-02: 58 calendar
  // days, 8 weekends, 16.55 px a day.
  const std::string base = "schedule samples/software-release.json --format svg";
  CliRun r = ptmpl(base + " --start 2027-01-04");
  ASSERT_EQ(r.exit, 0) << r.err;
  pugi::xml_document doc = parse_svg(r.out);
  pugi::xpath_node_set off = doc.select_nodes("//rect[@class='day-off']");
  ASSERT_EQ(off.size(), 8u);
  const double day = 960.0 / 58;
  for (std::size_t i = 0; i < off.size(); ++i) {
    // Saturday i+1 is day 5 + 7i of the axis, starting at x 376.
    EXPECT_NEAR(off[i].node().attribute("x").as_double(), 376 + day * (5 + 7 * static_cast<double>(i)), 0.01);
    EXPECT_NEAR(off[i].node().attribute("width").as_double(), 2 * day, 0.01);
  }
  // No bar starts on a day off.
  for (pugi::xpath_node bar : doc.select_nodes("//rect[starts-with(@class, 'bar')]")) {
    const double x = bar.node().attribute("x").as_double();
    for (pugi::xpath_node o : off) {
      const double from = o.node().attribute("x").as_double();
      EXPECT_FALSE(x >= from - 0.01 && x < from + o.node().attribute("width").as_double() - 0.01) << x;
    }
  }
  EXPECT_NE(r.out.find(">day off</text>"), std::string::npos);
  // A holiday on a Wednesday is one more column; the 7-day calendar has none but that one.
  const std::string holidays = file("holidays.txt", "2027-01-13\n");
  CliRun with_holiday = ptmpl(base + " --start 2027-01-04 --holidays '" + holidays + "'");
  EXPECT_EQ(parse_svg(with_holiday.out).select_nodes("//rect[@class='day-off']").size(), 9u);
  CliRun every_day = ptmpl(base + " --start 2027-01-04 --calendar 7day --holidays '" + holidays + "'");
  EXPECT_EQ(parse_svg(every_day.out).select_nodes("//rect[@class='day-off']").size(), 1u);
  // Working-day offsets (no --start) have no days off; nor has a scale of weeks (the ERP
  // sample: hundreds of days at a few pixels each).
  EXPECT_EQ(ptmpl(base).out.find("day-off"), std::string::npos);
  CliRun erp = ptmpl("schedule samples/erp-implementation.json --format svg --start 2027-01-04");
  EXPECT_EQ(erp.out.find("day-off"), std::string::npos);
}

// A long plan (401 days of a 7-day calendar, 2.4 px each) has a tick on its last day, whose
// label (a full date: the plan crosses a year) starts a few pixels from the chart's right end;
// the image is widened to hold all of it.
TEST_F(CliScheduleFiles, TheLastTickLabelOfALongPlanIsWhole) {
  const std::string path = file("long.json", R"([{"title": "long", "relative_start_date": 0, "duration": 401}])");
  CliRun r = ptmpl("schedule '" + path + "' --format svg --start 2027-01-01 --calendar 7day");
  ASSERT_EQ(r.exit, 0) << r.err;
  pugi::xml_document doc = parse_svg(r.out);
  pugi::xpath_node_set labels = doc.select_nodes("//g[@class='tick-labels']/text");
  ASSERT_FALSE(labels.empty());
  pugi::xml_node last = labels[labels.size() - 1].node();
  EXPECT_STREQ(last.text().get(), "2028-02-05");
  const double width = doc.child("svg").attribute("width").as_double();
  EXPECT_LE(last.attribute("x").as_double() + 7.0 * 10, width - 16);
}

// Every tick label lies inside the image, the last one included (7 px a character at most).
// (The HTML page's scale is measured in a browser: CliScheduleBrowser.)
TEST(CliSchedule, EveryTickLabelFitsInTheImage) {
  std::size_t checked = 0;
  for (const GoldenCase& c : kGoldenCases) {
    std::string args = c.args;
    if (args.find("--format svg") == std::string::npos) continue;
    CliRun r = run_ptmpl(args);
    pugi::xml_document doc = parse_svg(r.out.substr(r.out.find("<svg")));
    const double width = doc.child("svg").attribute("width").as_double();
    pugi::xpath_node_set labels = doc.select_nodes("//g[@class='tick-labels']/text");
    ASSERT_GE(labels.size(), 2u) << args;
    for (pugi::xpath_node label : labels) {
      const std::string content = label.node().text().get();
      EXPECT_LE(label.node().attribute("x").as_double() + 7.0 * static_cast<double>(content.size()), width)
          << args << ": " << content;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 3u);
}

TEST(CliSchedule, HtmlPageShowsTitleAndSummaryOnceAndKeepsTheHeadingInView) {
  CliRun r = run_ptmpl("schedule tests/data/schedule/small.json --format html");
  ASSERT_EQ(r.exit, 0) << r.err;
  const std::string body = r.out.substr(r.out.find("<body>"));
  EXPECT_EQ(occurrences(r.out, "6 working days, day 0 to day 5, 4 of 6 stories critical"), 1u);
  // The title: once in the head (the window's name), once on the page.
  EXPECT_EQ(occurrences(r.out, "Launch: &quot;Q3&quot; &lt;web&gt; &amp; more"), 2u);
  EXPECT_EQ(body.find("<title>Launch"), std::string::npos);
  EXPECT_NE(r.out.find("table.plan thead th { position: sticky; top: 0;"), std::string::npos);
  // Nothing between the heading and the page scrolls on its own (which would hold it back).
  for (const char* scroller : {"overflow: auto", "overflow: scroll", "overflow-x", "overflow-y"})
    EXPECT_EQ(r.out.find(scroller), std::string::npos) << scroller;
  // The scale is a cell of the heading: a set of ticks per zoom.
  const std::size_t head = r.out.find("<thead>");
  ASSERT_NE(head, std::string::npos);
  EXPECT_LT(r.out.find("<th class=\"scale\"><div class=\"ticks\" data-zoom=\"day\">", head), r.out.find("</thead>"));
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
                         ": tests/data/schedule/cycle.json:14:22: dependency cycle: 3 \"Design\" → 5 \"Build\" → 3\n");
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
