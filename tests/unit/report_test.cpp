// Lint reports in every format: text (plain and for terminals), json, sarif, github, junit,
// gitlab.
#include <gtest/gtest.h>

#include <pugixml.hpp>
#include <set>

#include <rapidjson/document.h>
#include <rapidjson/schema.h>
#include <rapidjson/stringbuffer.h>

#include "libtemplate/core/json.hpp"
#include "libtemplate/core/report.hpp"
#include "libtemplate/core/version.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

Diagnostic finding(std::string rule, Severity severity, std::string message, std::string path, std::uint64_t line,
                   std::uint64_t column, std::string pointer) {
  Diagnostic d;
  d.rule = std::move(rule);
  d.severity = severity;
  d.message = std::move(message);
  d.path = std::move(path);
  d.line = line;
  d.column = column;
  d.pointer = std::move(pointer);
  return d;
}

LintRun two_findings() {
  Diagnostic a = finding("schema", Severity::Error, "`duration` must be an integer, found a string", "t.json", 3, 17,
                         "/0/duration");
  std::tie(a.excerpt, a.excerpt_column) = make_excerpt("{\n    \"duration\": \"5\",\n}", 18);
  Diagnostic b = finding("duplicate-key", Severity::Warning, "duplicate key \"title\"", "t.json", 12, 5, "/1/title");
  std::tie(b.excerpt, b.excerpt_column) = make_excerpt("\t   \"title\": \"x\"", 4);
  LintRun run;
  run.files = {{.path = "clean.json", .error = {}}, {.path = "t.json", .error = {}}};
  run.diagnostics = {a, b};
  return run;
}

// Messages with every character the CI formats must escape.
LintRun awkward_findings() {
  LintRun run;
  run.files = {{.path = "dir,with:odd%/a&b<c>.json", .error = {}}};
  run.diagnostics = {
      finding("schema", Severity::Error, "50% done:\r\nnext, \"quoted\" <tag> & 'apos' \x01", run.files[0].path, 2, 3,
              "/0/x"),
      finding("schema", Severity::Error, "50% done:\r\nnext, \"quoted\" <tag> & 'apos' \x01", run.files[0].path, 9, 3,
              "/0/x"),
      finding("nesting-depth", Severity::Info, "deep", run.files[0].path, 0, 0, ""),
  };
  return run;
}

TEST(TextReport, PlainLinesAndSummary) {
  EXPECT_EQ(format_report(ReportFormat::Text, two_findings()),
            "t.json:3:17: error: `duration` must be an integer, found a string [schema]\n"
            "t.json:12:5: warning: duplicate key \"title\" [duplicate-key]\n"
            "2 files checked: 1 error, 1 warning, 0 info\n");
  LintRun empty;
  empty.files = {{.path = "a.json", .error = {}}};
  EXPECT_EQ(format_report(ReportFormat::Text, empty), "1 file checked: 0 errors, 0 warnings, 0 info\n");
}

TEST(TextReport, ExcerptWithCaretUnderTheColumn) {
  ReportOptions options;
  options.excerpt = true;
  EXPECT_EQ(format_report(ReportFormat::Text, two_findings(), options),
            "t.json:3:17: error: `duration` must be an integer, found a string [schema]\n"
            " 3 |     \"duration\": \"5\",\n"
            "   |                 ^\n"
            "t.json:12:5: warning: duplicate key \"title\" [duplicate-key]\n"
            " 12 |     \"title\": \"x\"\n"
            "    |     ^\n"
            "2 files checked: 1 error, 1 warning, 0 info\n");
}

TEST(TextReport, ColourMarksPathAndSeverity) {
  ReportOptions options;
  options.excerpt = true;
  options.colour = true;
  std::string out = format_report(ReportFormat::Text, two_findings(), options);
  EXPECT_NE(out.find("\033[1mt.json:3:17: \033[0m\033[1;31merror\033[0m: "), std::string::npos) << out;
  EXPECT_NE(out.find("\033[1;35mwarning\033[0m"), std::string::npos);
  EXPECT_NE(out.find("\033[1;31m^\033[0m"), std::string::npos);
}

TEST(TextReport, ControlCharactersNeverReachTheTerminal) {
  LintRun run;
  run.files = {{.path = "t.json", .error = {}}};
  Diagnostic d =
      finding("story-type-invalid", Severity::Error, "story_type is \"\x1B]0;pwned\x07\"", "t.json", 1, 2, "/0");
  d.excerpt = "[\x1B]";
  d.excerpt_column = 2;
  run.diagnostics = {d};
  ReportOptions options;
  options.excerpt = true;
  EXPECT_EQ(format_report(ReportFormat::Text, run, options),
            "t.json:1:2: error: story_type is \"\\u001B]0;pwned\\u0007\" [story-type-invalid]\n"
            " 1 | [\\u001B]\n"
            "   |  ^\n"
            "1 file checked: 1 error, 0 warnings, 0 info\n");
}

TEST(TextReport, C1ControlsAndBytesThatAreNotUtf8AreShownAsEscapes) {
  LintRun run;
  run.files = {{.path = "odd\xFF\x1B.json", .error = {}}};
  // U+009B is a one-byte CSI to terminals that read C1 controls; U+00A0 is no control.
  run.diagnostics = {finding("schema", Severity::Error,
                             "title \"\xC2\x9B"
                             "2J\xC2\xA0\x7F\"",
                             run.files[0].path, 1, 2, "")};
  const std::string expected = "odd\\xFF\\u001B.json:1:2: error: title \"\\u009B2J\xC2\xA0\\u007F\" [schema]\n";
  EXPECT_EQ(format_report(ReportFormat::Text, run), expected + "1 file checked: 1 error, 0 warnings, 0 info\n");
  EXPECT_EQ(format_report(ReportFormat::Github, run),
            "::error file=odd\\xFF\\u001B.json,line=1,col=2,title=schema::title \"\\u009B2J\xC2\xA0\\u007F\"\n");
}

TEST(TextReport, StatisticsCountPerRule) {
  ReportOptions options;
  options.statistics = true;
  LintRun run = awkward_findings();
  std::string out = format_report(ReportFormat::Text, run, options);
  EXPECT_NE(out.find("\n     2  schema\n     1  nesting-depth\n1 file checked"), std::string::npos) << out;
}

TEST(Excerpt, LongLinesAreCutAroundTheColumnByCharacters) {
  std::string line = std::string(200, 'a') + "é" + std::string(200, 'b');
  auto [text, column] = make_excerpt(line, 200);  // the é
  EXPECT_EQ(text.substr(0, 3), "…");
  EXPECT_EQ(text.substr(text.size() - 3), "…");
  std::size_t chars = 0, at = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (++chars == column) at = i;
  }
  EXPECT_EQ(text.substr(at, 2), "é");
  auto [short_text, short_column] = make_excerpt("[1,\r\n abc]\n", 6);
  EXPECT_EQ(short_text, " abc]");
  EXPECT_EQ(short_column, 2u);
}

TEST(Excerpt, ALineThatFitsIsShownWholeAndALongOneUsesTheRoomItHas) {
  // 90 characters with the finding at the 61st: shown whole, nothing cut.
  std::string line = "    \"title\": \"" + std::string(42, 'x') + "\", \"duration\": \"5\", \"temp_id\": 70,";
  ASSERT_EQ(line.size(), 90u);
  auto [whole, whole_column] = make_excerpt(line + "\n  }", 60);
  EXPECT_EQ(whole, line);
  EXPECT_EQ(whole_column, 61u);
  // 150 characters with the finding 10 before the end: the last 100, cut at the front only.
  std::string long_line = std::string(140, 'a') + "bcdefghijk";
  auto [tail, tail_column] = make_excerpt(long_line, 140);
  EXPECT_EQ(tail, "…" + long_line.substr(50));
  EXPECT_EQ(tail_column, 92u);  // "…", then 90 characters before the offset
  // The same near the start: the first 100, cut at the back only.
  auto [head, head_column] = make_excerpt(long_line, 5);
  EXPECT_EQ(head, long_line.substr(0, 100) + "…");
  EXPECT_EQ(head_column, 6u);
}

TEST(TextReport, AFoldedGroupPointsAtItsFirstFindingOnlyWhenItHasAPlace) {
  ReportOptions options;
  options.group_message = [](const std::vector<const Diagnostic*>& group) {
    return std::to_string(group.size()) + " tasks are odd";
  };
  LintRun placed, unplaced;
  placed.files = unplaced.files = {{.path = "plan.xml", .error = {}}};
  for (int line : {4, 9, 12}) {
    placed.diagnostics.push_back(finding("odd", Severity::Warning, "odd", "plan.xml", line, 2, ""));
    unplaced.diagnostics.push_back(finding("odd", Severity::Warning, "odd", "plan.xml", 0, 0, ""));
  }
  EXPECT_NE(format_report(ReportFormat::Text, placed, options)
                .find("plan.xml:4:2: warning: 3 tasks are odd; the first is here, --verbose lists each [odd]\n"),
            std::string::npos);
  // A .mpp file has no lines to point at.
  const std::string out = format_report(ReportFormat::Text, unplaced, options);
  EXPECT_NE(out.find("plan.xml: warning: 3 tasks are odd; --verbose lists each [odd]\n"), std::string::npos) << out;
}

TEST(JsonReport, OneObjectWithFilesDiagnosticsAndSummary) {
  ReportOptions options;
  options.statistics = true;
  std::string out = format_report(ReportFormat::Json, two_findings(), options);
  json::Document doc = json::Document::parse(out);
  ASSERT_TRUE(doc.ok()) << out;
  EXPECT_EQ(doc.root().find("files")->text(), "2");
  auto diagnostics = doc.root().find("diagnostics")->items();
  ASSERT_EQ(diagnostics.size(), 2u);
  const json::Value& first = diagnostics[0];
  EXPECT_EQ(first.find("path")->text(), "t.json");
  EXPECT_EQ(first.find("line")->text(), "3");
  EXPECT_EQ(first.find("column")->text(), "17");
  EXPECT_EQ(first.find("severity")->text(), "error");
  EXPECT_EQ(first.find("rule")->text(), "schema");
  EXPECT_EQ(first.find("message")->text(), "`duration` must be an integer, found a string");
  EXPECT_EQ(first.find("pointer")->text(), "/0/duration");
  EXPECT_EQ(doc.root().find("summary")->find("error")->text(), "1");
  EXPECT_EQ(doc.root().find("summary")->find("warning")->text(), "1");
  EXPECT_EQ(doc.root().find("summary")->find("info")->text(), "0");
  EXPECT_EQ(doc.root().find("statistics")->find("schema")->text(), "1");
}

TEST(JsonReport, OneLineButForTheFindings) {
  ReportOptions options;
  options.statistics = true;
  EXPECT_EQ(format_report(ReportFormat::Json, two_findings(), options),
            "{\"files\": 2, \"diagnostics\": [\n"
            "  {\"path\": \"t.json\", \"line\": 3, \"column\": 17, \"severity\": \"error\", \"rule\": \"schema\", "
            "\"message\": \"`duration` must be an integer, found a string\", \"pointer\": \"/0/duration\"},\n"
            "  {\"path\": \"t.json\", \"line\": 12, \"column\": 5, \"severity\": \"warning\", \"rule\": "
            "\"duplicate-key\", \"message\": \"duplicate key \\\"title\\\"\", \"pointer\": \"/1/title\"}\n"
            "], \"summary\": {\"error\": 1, \"warning\": 1, \"info\": 0}, \"statistics\": {\"duplicate-key\": 1, "
            "\"schema\": 1}}\n");
  LintRun clean;
  clean.files = {{.path = "a.json", .error = {}}};
  EXPECT_EQ(format_report(ReportFormat::Json, clean, options),
            "{\"files\": 1, \"diagnostics\": [], \"summary\": {\"error\": 0, \"warning\": 0, \"info\": 0}, "
            "\"statistics\": {}}\n");
}

// The official SARIF 2.1.0 schema (draft-04), validated with RapidJSON.
class SarifSchema : public rapidjson::IRemoteSchemaDocumentProvider {
 public:
  SarifSchema() {
    text_ = testing::read_source("tests/data/schemas/sarif-schema-2.1.0.json");
    schema_json_.Parse(text_.c_str());
    schema_ = std::make_unique<rapidjson::SchemaDocument>(schema_json_, this);
  }
  const rapidjson::SchemaDocument* GetRemoteDocument(const char*, rapidjson::SizeType) override { return nullptr; }
  ::testing::AssertionResult validates(const std::string& sarif) const {
    rapidjson::Document doc;
    if (doc.Parse(sarif.c_str()).HasParseError()) return ::testing::AssertionFailure() << "not JSON";
    rapidjson::SchemaValidator validator(*schema_);
    if (doc.Accept(validator)) return ::testing::AssertionSuccess();
    rapidjson::StringBuffer where;
    validator.GetInvalidDocumentPointer().StringifyUriFragment(where);
    return ::testing::AssertionFailure() << "invalid at " << where.GetString() << ", keyword "
                                         << validator.GetInvalidSchemaKeyword();
  }
  [[nodiscard]] bool loaded() const { return !schema_json_.HasParseError() && schema_json_.IsObject(); }

 private:
  std::string text_;
  rapidjson::Document schema_json_;
  std::unique_ptr<rapidjson::SchemaDocument> schema_;
};

TEST(SarifReport, ValidAgainstTheOfficialSchema) {
  SarifSchema schema;
  ASSERT_TRUE(schema.loaded());
  for (const LintRun& run : {two_findings(), awkward_findings(), LintRun{}}) {
    std::string out = format_report(ReportFormat::Sarif, run);
    EXPECT_TRUE(schema.validates(out)) << out.substr(0, 2000);
  }
  // A report that breaks the schema is caught: the check can fail.
  EXPECT_FALSE(schema.validates(R"({"version": "2.1.0", "runs": [{"tool": {"driver": {}}}]})"));
}

TEST(SarifReport, RulesWithMetadataAndResultsWithPlaces) {
  ReportOptions options;
  options.help_uri_base = "https://example.org/ptmpl/";
  std::string out = format_report(ReportFormat::Sarif, two_findings(), options);
  json::Document doc = json::Document::parse(out);
  ASSERT_TRUE(doc.ok());
  const json::Value& run = doc.root().find("runs")->items()[0];
  auto rules = run.find("tool")->find("driver")->find("rules")->items();
  ASSERT_EQ(rules.size(), rule_catalogue().size());
  const json::Value* schema_rule = nullptr;
  for (const json::Value& rule : rules)
    if (rule.find("id")->text() == "schema") schema_rule = &rule;
  ASSERT_NE(schema_rule, nullptr);
  EXPECT_EQ(schema_rule->find("helpUri")->text(), "https://example.org/ptmpl/docs/rules/schema.md");
  EXPECT_EQ(schema_rule->find("defaultConfiguration")->find("level")->text(), "error");
  EXPECT_FALSE(schema_rule->find("shortDescription")->find("text")->text().empty());
  EXPECT_NE(schema_rule->find("help")->find("markdown")->text().find("# `schema`"), std::string_view::npos);
  auto results = run.find("results")->items();
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[1].find("level")->text(), "warning");
  const json::Value& location = results[1].find("locations")->items()[0];
  EXPECT_EQ(location.find("physicalLocation")->find("region")->find("startLine")->text(), "12");
  EXPECT_EQ(location.find("physicalLocation")->find("region")->find("startColumn")->text(), "5");
  EXPECT_EQ(location.find("logicalLocations")->items()[0].find("fullyQualifiedName")->text(), "/1/title");
  EXPECT_EQ(run.find("columnKind")->text(), "unicodeCodePoints");
}

TEST(SarifReport, RelatedPlacesAreRelatedLocations) {
  // A duplicated temp_id names its first definition; the report stays valid SARIF.
  LintRun run = lint_files({"tests/data/rules/temp-id-duplicate/fail.json"});
  std::string out = format_report(ReportFormat::Sarif, run);
  SarifSchema schema;
  ASSERT_TRUE(schema.loaded());
  EXPECT_TRUE(schema.validates(out)) << out.substr(0, 2000);
  json::Document doc = json::Document::parse(out);
  ASSERT_TRUE(doc.ok());
  std::size_t with_related = 0;
  for (const json::Value& result : doc.root().find("runs")->items()[0].find("results")->items()) {
    if (result.find("ruleId")->text() != "temp-id-duplicate") continue;
    const json::Value* related = result.find("relatedLocations");
    ASSERT_NE(related, nullptr) << "a duplicate without its first definition";
    ASSERT_EQ(related->items().size(), 1u);
    const json::Value& place = related->items()[0];
    EXPECT_EQ(place.find("physicalLocation")->find("artifactLocation")->find("uri")->text(),
              "tests/data/rules/temp-id-duplicate/fail.json");
    // The duplicates here (2 twice more, "REQ-1" once more) are first defined on lines 5 and 6.
    std::string_view line = place.find("physicalLocation")->find("region")->find("startLine")->text();
    EXPECT_TRUE(line == "5" || line == "6") << line;
    EXPECT_FALSE(place.find("message")->find("text")->text().empty());
    ++with_related;
  }
  EXPECT_EQ(with_related, 3u);
}

TEST(SarifReport, PrettyDownToOneLinePerRuleAndResult) {
  std::string out = format_report(ReportFormat::Sarif, two_findings());
  // The tool's version is the project's (Version.IsTheProjectsVersion).
  EXPECT_TRUE(
      out.starts_with("{\n"
                      "  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
                      "  \"version\": \"2.1.0\",\n"
                      "  \"runs\": [\n"
                      "    {\n"
                      "      \"tool\": {\n"
                      "        \"driver\": {\n"
                      "          \"name\": \"ptmpl\",\n"
                      "          \"version\": \"" +
                      std::string(kVersion) +
                      "\",\n"
                      "          \"rules\": [\n"
                      "            {\"id\": \""))
      << out;
  std::size_t schema_index = 0;
  while (rule_catalogue()[schema_index].id != "schema") ++schema_index;
  // The end of the last rule, and the first result.
  EXPECT_NE(
      out.find(
          "}}\n"
          "          ]\n"
          "        }\n"
          "      },\n"
          "      \"columnKind\": \"unicodeCodePoints\",\n"
          "      \"results\": [\n"
          "        {\"ruleId\": \"schema\", \"ruleIndex\": " +
          std::to_string(schema_index) +
          ", \"level\": \"error\", \"message\": {\"text\": \"`duration` must be an integer, found a string\"}, "
          "\"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": \"t.json\"}, \"region\": "
          "{\"startLine\": 3, \"startColumn\": 17}}, \"logicalLocations\": [{\"fullyQualifiedName\": \"/0/duration\", "
          "\"kind\": \"element\"}]}]},\n"
          "        {\"ruleId\": \"duplicate-key\", \"ruleIndex\": "),
      std::string::npos)
      << out;
  EXPECT_TRUE(out.ends_with(
      ", \"level\": \"warning\", \"message\": {\"text\": \"duplicate key \\\"title\\\"\"}, \"locations\": "
      "[{\"physicalLocation\": {\"artifactLocation\": {\"uri\": \"t.json\"}, \"region\": {\"startLine\": 12, "
      "\"startColumn\": 5}}, \"logicalLocations\": [{\"fullyQualifiedName\": \"/1/title\", \"kind\": "
      "\"element\"}]}]}\n"
      "      ]\n"
      "    }\n"
      "  ]\n"
      "}\n"))
      << out;
  LintRun clean;
  clean.files = {{.path = "a.json", .error = {}}};
  EXPECT_TRUE(format_report(ReportFormat::Sarif, clean).ends_with("\"results\": []\n    }\n  ]\n}\n"));
}

TEST(GithubReport, WorkflowCommandsEscapedAsGithubDocuments) {
  EXPECT_EQ(format_report(ReportFormat::Github, two_findings()),
            "::error file=t.json,line=3,col=17,title=schema::`duration` must be an integer, found a string\n"
            "::warning file=t.json,line=12,col=5,title=duplicate-key::duplicate key \"title\"\n");
  EXPECT_EQ(format_report(ReportFormat::Github, awkward_findings()),
            "::error file=dir%2Cwith%3Aodd%25/a&b<c>.json,line=2,col=3,title=schema::50%25 done:%0D%0Anext, "
            "\"quoted\" <tag> & 'apos' \\u0001\n"
            "::error file=dir%2Cwith%3Aodd%25/a&b<c>.json,line=9,col=3,title=schema::50%25 done:%0D%0Anext, "
            "\"quoted\" <tag> & 'apos' \\u0001\n"
            "::notice file=dir%2Cwith%3Aodd%25/a&b<c>.json,title=nesting-depth::deep\n");
}

TEST(JunitReport, OneTestcasePerFileAndWellFormedXml) {
  std::string out = format_report(ReportFormat::Junit, two_findings());
  pugi::xml_document xml;
  ASSERT_TRUE(xml.load_string(out.c_str())) << out;
  pugi::xml_node suite = xml.child("testsuites").child("testsuite");
  EXPECT_STREQ(suite.attribute("tests").value(), "2");
  EXPECT_STREQ(suite.attribute("failures").value(), "1");
  std::vector<std::string> names;
  for (pugi::xml_node testcase : suite.children("testcase")) names.emplace_back(testcase.attribute("name").value());
  EXPECT_EQ(names, (std::vector<std::string>{"clean.json", "t.json"}));
  pugi::xml_node failing = suite.find_child_by_attribute("testcase", "name", "t.json");
  EXPECT_STREQ(failing.child("failure").attribute("message").value(), "1 finding");
  EXPECT_EQ(std::string(failing.child("failure").text().get()),
            "t.json:3:17: error: `duration` must be an integer, found a string [schema]\n");
  EXPECT_NE(std::string(failing.child("system-out").text().get()).find("[duplicate-key]"), std::string::npos);
  EXPECT_FALSE(suite.find_child_by_attribute("testcase", "name", "clean.json").child("failure"));

  std::string awkward = format_report(ReportFormat::Junit, awkward_findings());
  pugi::xml_document xml2;
  ASSERT_TRUE(xml2.load_string(awkward.c_str())) << awkward;
  EXPECT_STREQ(xml2.child("testsuites").child("testsuite").child("testcase").attribute("name").value(),
               "dir,with:odd%/a&b<c>.json");
}

TEST(JsonReports, FileNamesThatAreNotUtf8StayValidJson) {
  LintRun run;
  run.files = {{.path = "odd/bad\xFF.json", .error = {}}};
  run.diagnostics = {finding("schema", Severity::Error, "m", run.files[0].path, 1, 1, "")};
  for (ReportFormat format : {ReportFormat::Json, ReportFormat::Sarif, ReportFormat::Gitlab}) {
    std::string out = format_report(format, run);
    json::Document doc = json::Document::parse(out);
    EXPECT_TRUE(doc.ok()) << out;
    EXPECT_NE(out.find("odd/bad\xEF\xBF\xBD.json"), std::string::npos);
  }
  pugi::xml_document xml;
  EXPECT_TRUE(xml.load_string(format_report(ReportFormat::Junit, run).c_str()));
}

TEST(GitlabReport, OneIssueALine) {
  LintRun run = two_findings();
  run.diagnostics[1].line = 0;  // a finding about the whole file: line 1
  std::string out = format_report(ReportFormat::Gitlab, run);
  json::Document doc = json::Document::parse(out);
  ASSERT_TRUE(doc.ok()) << out;
  const std::string fingerprint[] = {std::string(doc.root().items()[0].find("fingerprint")->text()),
                                     std::string(doc.root().items()[1].find("fingerprint")->text())};
  EXPECT_EQ(out,
            "[\n"
            "  {\"description\": \"`duration` must be an integer, found a string\", \"check_name\": \"schema\", "
            "\"fingerprint\": \"" +
                fingerprint[0] +
                "\", \"severity\": \"major\", \"location\": {\"path\": \"t.json\", \"lines\": {\"begin\": 3}}},\n"
                "  {\"description\": \"duplicate key \\\"title\\\"\", \"check_name\": \"duplicate-key\", "
                "\"fingerprint\": \"" +
                fingerprint[1] +
                "\", \"severity\": \"minor\", \"location\": {\"path\": \"t.json\", \"lines\": {\"begin\": 1}}}\n"
                "]\n");
  EXPECT_EQ(format_report(ReportFormat::Gitlab, LintRun{}), "[]\n");
}

TEST(GitlabReport, CodeQualityWithStableDistinctFingerprints) {
  std::string first = format_report(ReportFormat::Gitlab, awkward_findings());
  EXPECT_EQ(first, format_report(ReportFormat::Gitlab, awkward_findings())) << "stable";
  json::Document doc = json::Document::parse(first);
  ASSERT_TRUE(doc.ok()) << first;
  auto issues = doc.root().items();
  ASSERT_EQ(issues.size(), 3u);
  std::set<std::string_view> fingerprints;
  for (const json::Value& issue : issues) {
    EXPECT_EQ(issue.find("fingerprint")->text().size(), 16u);
    fingerprints.insert(issue.find("fingerprint")->text());
  }
  EXPECT_EQ(fingerprints.size(), 3u) << "identical findings still get distinct fingerprints";
  EXPECT_EQ(issues[0].find("severity")->text(), "major");
  EXPECT_EQ(issues[2].find("severity")->text(), "info");
  EXPECT_EQ(issues[0].find("check_name")->text(), "schema");
  EXPECT_EQ(issues[0].find("location")->find("path")->text(), "dir,with:odd%/a&b<c>.json");
  EXPECT_EQ(issues[0].find("location")->find("lines")->find("begin")->text(), "2");
  EXPECT_EQ(issues[2].find("location")->find("lines")->find("begin")->text(), "1");
  // The fingerprint does not depend on the line: moving a finding keeps it.
  LintRun moved = awkward_findings();
  moved.diagnostics[0].line = 40;
  std::string moved_report = format_report(ReportFormat::Gitlab, moved);  // the Document refers to it
  json::Document moved_doc = json::Document::parse(moved_report);
  EXPECT_EQ(moved_doc.root().items()[0].find("fingerprint")->text(), issues[0].find("fingerprint")->text());
}

}  // namespace
}  // namespace ptmpl
