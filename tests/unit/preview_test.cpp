// Previews in the library (preview.hpp): rows and outline numbers under filters, every format on
// odd input (no stories, hostile titles, huge templates), colour only when asked, stats.
#include "libtemplate/core/preview.hpp"

#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <pugixml.hpp>

#include <string>

#include "libtemplate/core/generator.hpp"
#include "libtemplate/core/template_file.hpp"

namespace ptmpl {
namespace {

constexpr PreviewFormat kAllFormats[] = {PreviewFormat::Gantt, PreviewFormat::Table,   PreviewFormat::Json,
                                         PreviewFormat::Csv,   PreviewFormat::Mermaid, PreviewFormat::Svg,
                                         PreviewFormat::Html};

/// A template file parsed from text, its graph and schedule; pinned in place.
class Scheduled {
 public:
  explicit Scheduled(std::string text)
      : file_(TemplateFile::parse("test.json", FileText(std::move(text)))),
        graph_(file_.templates().at(0).model.stories),
        schedule_(graph_) {}
  Scheduled(const Scheduled&) = delete;
  Scheduled& operator=(const Scheduled&) = delete;

  [[nodiscard]] const Schedule& schedule() const { return schedule_; }
  [[nodiscard]] const TemplateFile& file() const { return file_; }
  [[nodiscard]] std::vector<std::string> outlines(const PreviewOptions& options) const {
    std::vector<std::string> out;
    for (const PreviewRow& row : preview_rows(schedule_, options)) out.push_back(row.outline);
    return out;
  }

 private:
  TemplateFile file_;
  DependencyGraph graph_;
  Schedule schedule_;
};

// 1 (parent: 1.1 critical, 1.2 with float), 2 (parent of 2.1, which holds 2.1.1 critical), 3
// (a leaf with float).
const char* const kTree = R"([
  {"title": "A", "temp_id": 1, "sub_stories": [
    {"title": "A1", "temp_id": 11, "duration": 4, "dependencies": [{"source_id": 11, "target_id": 211, "type": 2, "lag": 0}]},
    {"title": "A2", "temp_id": 12, "duration": 1}
  ]},
  {"title": "B", "temp_id": 2, "sub_stories": [
    {"title": "B1", "temp_id": 21, "sub_stories": [
      {"title": "B11", "temp_id": 211, "duration": 3}
    ]}
  ]},
  {"title": "C", "temp_id": 3, "duration": 2}
])";

TEST(PreviewRows, OutlineNumbersCountEverySibling) {
  Scheduled s(kTree);
  ASSERT_TRUE(s.schedule().ok());
  EXPECT_EQ(s.outlines({}), (std::vector<std::string>{"1", "1.1", "1.2", "2", "2.1", "2.1.1", "3"}));
  PreviewOptions top;
  top.depth = 1;
  EXPECT_EQ(s.outlines(top), (std::vector<std::string>{"1", "2", "3"}));
  PreviewOptions two;
  two.depth = 2;
  EXPECT_EQ(s.outlines(two), (std::vector<std::string>{"1", "1.1", "1.2", "2", "2.1", "3"}));
}

TEST(PreviewRows, CriticalOnlyKeepsTheParentsOfCriticalStories) {
  Scheduled s(kTree);
  PreviewOptions critical;
  critical.critical_only = true;
  // A1 → B11 is the critical path (7 days); A2 and C have float; 1.2 is gone but 2.1.1 keeps its number.
  EXPECT_EQ(s.outlines(critical), (std::vector<std::string>{"1", "1.1", "2", "2.1", "2.1.1"}));
  critical.depth = 2;
  EXPECT_EQ(s.outlines(critical), (std::vector<std::string>{"1", "1.1", "2", "2.1"}));
}

TEST(PreviewFormats, NamesRoundTrip) {
  for (PreviewFormat format : kAllFormats) EXPECT_EQ(parse_preview_format(to_string(format)), format);
  EXPECT_FALSE(parse_preview_format("pdf"));
  EXPECT_FALSE(parse_preview_format("Gantt"));
}

TEST(PreviewFormats, PiecesJoinToTheWholeTextInEveryFormat) {
  // Large enough that JSON goes out in many pieces (each about 64 KiB).
  GenerateOptions generate;
  generate.stories = 3000;
  generate.depth = 3;
  Scheduled s(generate_template(generate).value());
  ASSERT_TRUE(s.schedule().ok());
  for (PreviewFormat format : kAllFormats) {
    SCOPED_TRACE(to_string(format));
    std::string joined;
    std::size_t pieces = 0;
    render_preview_to(s.schedule(), format, {}, [&](std::string_view piece) {
      joined += piece;
      ++pieces;
    });
    const std::string whole = render_preview(s.schedule(), format, {});
    EXPECT_EQ(joined, whole);
    if (format == PreviewFormat::Json) {
      EXPECT_GE(pieces, whole.size() / (std::size_t{1} << 16));
    }
  }
}

TEST(PreviewFormats, EmptyTemplateRendersInEveryFormat) {
  Scheduled s("[]");
  ASSERT_TRUE(s.schedule().ok());
  for (PreviewFormat format : kAllFormats) {
    std::string out = render_preview(s.schedule(), format, {});
    ASSERT_FALSE(out.empty()) << to_string(format);
    EXPECT_EQ(out.back(), '\n') << to_string(format);
  }
  rapidjson::Document json;
  json.Parse(render_preview(s.schedule(), PreviewFormat::Json, {}).c_str());
  ASSERT_FALSE(json.HasParseError());
  EXPECT_TRUE(json["project"]["start"].IsNull());
  EXPECT_EQ(json["project"]["duration"].GetInt64(), 0);
  EXPECT_EQ(json["stories"].Size(), 0u);
  pugi::xml_document svg;
  EXPECT_TRUE(svg.load_string(render_preview(s.schedule(), PreviewFormat::Svg, {}).c_str()));
}

// Titles with quotes, markup, separators, a terminal escape sequence, a C1 control, newlines.
const char* const kHostile = R"([
  {"title": "a \"b\" <c> & 'd'; e: f # g %% h,\ni", "temp_id": "x,\"y\"", "duration": 2},
  {"title": "\u001b[2J\u001b]0;owned\u0007 \u009b31m red", "temp_id": 2, "story_type": "milestone"},
  {"title": "\uFFFE non-character", "temp_id": 3, "duration": 1}
])";

TEST(PreviewFormats, HostileTitlesStayInert) {
  Scheduled s(kHostile);
  ASSERT_TRUE(s.schedule().ok());
  PreviewOptions options;
  options.title = "T <&>\n";
  for (PreviewFormat format : {PreviewFormat::Gantt, PreviewFormat::Table, PreviewFormat::Mermaid}) {
    std::string out = render_preview(s.schedule(), format, options);
    EXPECT_EQ(out.find('\033'), std::string::npos) << to_string(format);
    EXPECT_EQ(out.find('\a'), std::string::npos) << to_string(format);
    EXPECT_EQ(out.find("\xC2\x9B"), std::string::npos) << to_string(format);
  }
  std::string svg = render_preview(s.schedule(), PreviewFormat::Svg, options);
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(svg.c_str())) << svg;
  EXPECT_NE(svg.find("a &quot;b&quot; &lt;c&gt; &amp; &#39;d&#39;; e: f # g %% h, i"), std::string::npos) << svg;
  EXPECT_EQ(svg.find("\xEF\xBF\xBE"), std::string::npos);

  rapidjson::Document json;
  std::string json_text = render_preview(s.schedule(), PreviewFormat::Json, options);
  json.Parse(json_text.c_str(), json_text.size());
  ASSERT_FALSE(json.HasParseError()) << json_text;
  EXPECT_STREQ(json["stories"][0]["title"].GetString(), "a \"b\" <c> & 'd'; e: f # g %% h,\ni");  // as written
  EXPECT_STREQ(json["stories"][0]["temp_id"].GetString(), "x,\"y\"");

  // RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
  std::string csv = render_preview(s.schedule(), PreviewFormat::Csv, options);
  EXPECT_NE(csv.find("\r\n1,\"x,\"\"y\"\"\",\"a \"\"b\"\" <c> & 'd'; e: f # g %% h,\ni\",task,"), std::string::npos)
      << csv;

  // Mermaid: separators and markup become entity codes; the task keeps its tags and dates.
  std::string mermaid = render_preview(s.schedule(), PreviewFormat::Mermaid, options);
  EXPECT_NE(mermaid.find("    title T #60;&#62;\n"), std::string::npos) << mermaid;
  EXPECT_NE(mermaid.find("    1 a \"b\" #60;c#62; & 'd'#59; e#58; f #35; g #37;#37; h, i :crit, s1, 2000-01-03, "
                         "2000-01-05\n"),
            std::string::npos)
      << mermaid;
}

// The HTML page: every title, attribute and label escaped by the one XML escaper, the
// controls of a terminal escape gone.
TEST(PreviewFormats, HtmlPageEscapesEveryTitle) {
  Scheduled s(kHostile);
  ASSERT_TRUE(s.schedule().ok());
  PreviewOptions options;
  options.title = "T <&>\n";
  const std::string html = render_preview(s.schedule(), PreviewFormat::Html, options);
  EXPECT_NE(html.find("<title>T &lt;&amp;&gt; </title>"), std::string::npos) << html;
  EXPECT_NE(
      html.find("<span class=\"outline\">1</span>a &quot;b&quot; &lt;c&gt; &amp; &#39;d&#39;; e: f # g %% h, i</td>"),
      std::string::npos)
      << html;
  EXPECT_EQ(html.find("<c>"), std::string::npos);
  EXPECT_EQ(html.find('\033'), std::string::npos);
  EXPECT_EQ(html.find("\xEF\xBF\xBE"), std::string::npos);
}

// A span of two million working days (7,700 years): each zoom draws its columns narrower, so the page keeps a
// few thousand ticks at most, with working-day offsets and with dates.
TEST(PreviewFormats, HtmlPageOfAHugeSpanStaysSmall) {
  Scheduled s(R"([{"title": "a", "temp_id": 1, "duration": 1},
                  {"title": "b", "temp_id": 2, "relative_start_date": 2000000, "duration": 1}])");
  ASSERT_TRUE(s.schedule().ok());
  PreviewOptions options;
  const std::string offsets = render_preview(s.schedule(), PreviewFormat::Html, options);
  EXPECT_LT(offsets.size(), 200000u);
  // 2,000,001 working days in 60,000 px; with dates, 2.8 million calendar days.
  EXPECT_NE(offsets.find("table.plan[data-zoom=\"day\"] { --day: 0.03px; }"), std::string::npos);
  options.calendar = Calendar(WorkWeek::monday_to_friday(), *parse_date("2027-01-04"));
  const std::string dates = render_preview(s.schedule(), PreviewFormat::Html, options);
  EXPECT_LT(dates.size(), 200000u);
  EXPECT_NE(dates.find("table.plan[data-zoom=\"day\"] { --day: 0.02px; }"), std::string::npos);
  EXPECT_NE(dates.find("<td class=\"start\">9693-"), std::string::npos);
  EXPECT_EQ(dates.find("--days-off"), std::string::npos);  // too many runs to shade
}

TEST(PreviewFormats, ColourOnlyWhenAsked) {
  Scheduled s(kTree);
  PreviewOptions options;
  for (PreviewFormat format : {PreviewFormat::Gantt, PreviewFormat::Table})
    EXPECT_EQ(render_preview(s.schedule(), format, options).find('\033'), std::string::npos);
  options.color = true;
  std::string gantt = render_preview(s.schedule(), PreviewFormat::Gantt, options);
  EXPECT_NE(gantt.find("\033[31m"), std::string::npos);
  // The marker column says "critical" without colour too.
  options.color = false;
  std::string plain = render_preview(s.schedule(), PreviewFormat::Gantt, options);
  EXPECT_NE(plain.find("\n!   1.1 A1"), std::string::npos) << plain;
  EXPECT_NE(plain.find("\n    1.2 A2"), std::string::npos) << plain;
}

TEST(PreviewFormats, LargeTemplateGanttFitsAndStaysFast) {
  GenerateOptions generate;
  generate.stories = 2000;
  generate.depth = 4;
  generate.seed = 11;
  auto text = generate_template(generate);
  ASSERT_TRUE(text.ok());
  Scheduled s(std::move(text).value());
  ASSERT_TRUE(s.schedule().ok());
  for (std::size_t width : {40U, 80U, 200U}) {
    PreviewOptions options;
    options.width = width;
    std::string out = render_preview(s.schedule(), PreviewFormat::Gantt, options);
    std::size_t lines = 0;
    std::size_t at = out.find('\n') + 1;  // after the title line
    while (at < out.size()) {
      std::size_t end = out.find('\n', at);
      std::size_t columns = 0;
      for (std::size_t i = at; i < end; ++i) columns += (static_cast<unsigned char>(out[i]) & 0xC0U) != 0x80U;
      if (end + 1 < out.size()) {
        EXPECT_LE(columns, width);  // every line but the legend
      }
      ++lines;
      at = end + 1;
    }
    EXPECT_EQ(lines, 2000u + 3u);
  }
  pugi::xml_document svg;
  EXPECT_TRUE(svg.load_string(render_preview(s.schedule(), PreviewFormat::Svg, {}).c_str()));
}

TEST(Stats, TotalsOverflowAsNullAndAbsentAsZero) {
  Scheduled s(R"([
    {"title": "a", "duration": 2, "budget_estimate_in_cents": 9000000000000000000},
    {"title": "b", "duration": 3, "budget_estimate_in_cents": 9000000000000000000}
  ])");
  Stats stats = compute_stats(s.schedule(), Rollup(s.file().templates()[0].model.stories));
  EXPECT_EQ(stats.item_count, 2u);
  EXPECT_EQ(stats.duration, 3);
  EXPECT_TRUE(stats.budget_in_cents.overflow());
  EXPECT_TRUE(stats.time_estimate_in_minutes.absent());
  EXPECT_EQ(render_stats_json(stats),
            "{\n  \"item_count\": 2,\n  \"duration\": 3,\n  \"budget_in_cents\": null,\n"
            "  \"time_estimate_in_minutes\": 0,\n  \"critical_count\": 1\n}\n");
  EXPECT_EQ(render_stats_text(stats),
            "item_count                2\nduration                  3\nbudget_in_cents           overflow\n"
            "time_estimate_in_minutes  0\ncritical_count            1\n");
}

TEST(ScheduleInput, ProblemsNameTheFileAndPlace) {
  TemplateFile object = TemplateFile::parse("odd.json", FileText(std::string(R"({"a": 1})")));
  EXPECT_EQ(check_schedulable(object).error().message,
            "odd.json: not a template: expected a story list, a template document or an API response");
  TemplateFile no_list =
      TemplateFile::parse("t.json", FileText(std::string("{\n  \"project_template\": {\"title\": \"x\"}\n}")));
  EXPECT_EQ(check_schedulable(no_list).error().message,
            "t.json:2:23: the template has no story list (raw_json should be an array of stories, or a string "
            "holding one)");
  TemplateFile fine = TemplateFile::parse("f.json", FileText(std::string("[]")));
  EXPECT_TRUE(check_schedulable(fine).ok());
}

TEST(ScheduleInput, WarningCountsTheLinksThatDoNotConstrain) {
  Scheduled clean(R"([{"title": "a", "temp_id": 1, "dependencies": [{"source_id": 1, "target_id": 2, "type": 2}]},
                      {"title": "b", "temp_id": 2}])");
  EXPECT_EQ(schedule_warning(clean.file(), clean.schedule()), std::nullopt);

  Scheduled skipped(R"([{"title": "a", "temp_id": 1, "dependencies": [
    {"source_id": 1, "target_id": 1, "type": 2}, {"source_id": 1, "target_id": 9, "type": 2}]}])");
  EXPECT_EQ(schedule_warning(skipped.file(), skipped.schedule()),
            "test.json: warning: 2 dependencies do not constrain the schedule (a missing target, a self-link, a link "
            "to a parent or sub-story, or an invalid type); run ptmpl lint test.json");

  Scheduled lag(R"([{"title": "a", "temp_id": 1, "dependencies": [
    {"source_id": 1, "target_id": 2, "type": 2, "lag": 0.5}, {"source_id": 1, "target_id": 9, "type": 2}]},
    {"title": "b", "temp_id": 2}])");
  EXPECT_EQ(schedule_warning(lag.file(), lag.schedule()),
            "test.json: warning: 2 dependencies do not constrain the schedule (a missing target, a self-link, a link "
            "to a parent or sub-story, an invalid type, or a lag that is not an integer: 1 has such a lag, which is "
            "not read as 0); run ptmpl lint test.json");
}

}  // namespace
}  // namespace ptmpl
