// The bundled schemas: they load, the samples satisfy them, and the schema rule reports
// wrong types with exact places.
#include <gtest/gtest.h>

#include <rapidjson/document.h>
#include <rapidjson/schema.h>

#include "libtemplate/core/bundled.hpp"
#include "libtemplate/core/lint.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

using testing::json_files;
using testing::read_source;

TEST(Schemas, BundledCopiesAreTheFilesInSchemas) {
  for (const char* name : {"raw_json", "template", "config"}) {
    auto text = bundled_schema(name);
    ASSERT_TRUE(text.has_value()) << name;
    EXPECT_EQ(*text, read_source("schemas/" + std::string(name) + ".schema.json"));
  }
  EXPECT_FALSE(bundled_schema("nope").has_value());
}

class Provider : public rapidjson::IRemoteSchemaDocumentProvider {
 public:
  explicit Provider(const rapidjson::SchemaDocument* raw) : raw_(raw) {}
  const rapidjson::SchemaDocument* GetRemoteDocument(const char* uri, rapidjson::SizeType n) override {
    return std::string_view(uri, n).starts_with("raw_json.schema.jso") ? raw_ : nullptr;
  }

 private:
  const rapidjson::SchemaDocument* raw_;
};

// Independent of the lint rule: RapidJSON's own validator over the whole file.
TEST(Schemas, EverySampleValidatesAgainstTheTemplateSchema) {
  rapidjson::Document raw_text, template_text;
  ASSERT_FALSE(raw_text.Parse(read_source("schemas/raw_json.schema.json").c_str()).HasParseError());
  ASSERT_FALSE(template_text.Parse(read_source("schemas/template.schema.json").c_str()).HasParseError());
  rapidjson::SchemaDocument raw(raw_text);
  Provider provider(&raw);
  rapidjson::SchemaDocument tmpl(template_text, &provider);
  for (const std::string& relative : json_files("samples")) {
    SCOPED_TRACE(relative);
    rapidjson::Document doc;
    ASSERT_FALSE(doc.Parse(read_source(relative).c_str()).HasParseError());
    rapidjson::SchemaValidator validator(tmpl);
    bool valid = doc.Accept(validator);
    if (relative.find("broken") != std::string::npos)
      EXPECT_FALSE(valid) << "the lint demo breaks the schema on purpose";
    else
      EXPECT_TRUE(valid) << validator.GetInvalidSchemaKeyword();
  }
}

TEST(Schemas, SamplesHaveNoSchemaFindings) {
  for (const std::string& relative : json_files("samples")) {
    if (relative.find("broken") != std::string::npos) continue;
    SCOPED_TRACE(relative);
    std::vector<Diagnostic> findings = lint_text(relative, read_source(relative));
    EXPECT_TRUE(findings.empty()) << findings.front().message;
  }
}

struct SchemaCase {
  const char* text;
  std::uint64_t line, column;
  const char* pointer;
  const char* message;
};

class SchemaRule : public ::testing::TestWithParam<SchemaCase> {};

TEST_P(SchemaRule, ReportsTheValueAndWhatItMustBe) {
  const SchemaCase& c = GetParam();
  std::vector<Diagnostic> schema;
  for (Diagnostic& d : lint_text("t.json", c.text))
    if (d.rule == "schema") schema.push_back(d);
  ASSERT_EQ(schema.size(), 1u);
  EXPECT_EQ(schema[0].line, c.line);
  EXPECT_EQ(schema[0].column, c.column);
  EXPECT_EQ(schema[0].pointer, c.pointer);
  EXPECT_EQ(schema[0].message, c.message);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SchemaRule,
    ::testing::Values(
        SchemaCase{R"([{"title": "A", "duration": "5"}])", 1, 29, "/0/duration",
                   "`duration` must be an integer, found a string"},
        SchemaCase{R"([{"title": "A", "duration": -1}])", 1, 29, "/0/duration",
                   "`duration` must be at least 0, found -1"},
        SchemaCase{
            "[{\"title\": \"A\"},\n {\"title\": \"B\", \"sub_stories\": [{\"title\": \"C\", \"billable\": \"yes\"}]}]",
            2, 60, "/1/sub_stories/0/billable", "`billable` must be a boolean, found a string"},
        SchemaCase{R"([{"title": "A", "dependencies": [{"source_id": 1.5, "target_id": 2, "type": 2}]}])", 1, 48,
                   "/0/dependencies/0/source_id", "`source_id` must be an integer or a string, found a number"},
        SchemaCase{R"([{"title": "A", "dependencies": [{"source_id": 1, "type": 2}]}])", 1, 34, "/0/dependencies/0",
                   "the dependency is missing the required key `target_id`"},
        SchemaCase{R"([{"title": "A", "relative_start_date": 12345678901234567890123}])", 1, 40,
                   "/0/relative_start_date",
                   "`relative_start_date` is out of range: 12345678901234567890123 does not fit in a 64-bit integer"},
        SchemaCase{R"([{"title": "A", "temp_id": 18446744073709551615}])", 1, 28, "/0/temp_id",
                   "`temp_id` is out of range: 18446744073709551615 does not fit in a 64-bit integer"},
        SchemaCase{R"([{"title": "A", "temp_id": 1.5}])", 1, 28, "/0/temp_id",
                   "`temp_id` must be an integer or a string, found a number"},
        SchemaCase{R"([5])", 1, 2, "/0", "a story must be an object, found an integer"},
        SchemaCase{R"({"project_template": {"title": "T", "duration": -1, "raw_json": []}})", 1, 49,
                   "/project_template/duration", "`duration` must be at least 0, found -1"},
        SchemaCase{R"({"project_template": {"title": "T", "raw_json": "[{\"title\": 5}]"}})", 1, 49, "/0/title",
                   "`title` must be a string, found an integer"},
        SchemaCase{R"({"project_template": {"title": "T", "raw_json": "{\"a\": 1}"}})", 1, 49,
                   "/project_template/raw_json",
                   "the raw_json string must hold a JSON array of stories, found an object"},
        SchemaCase{R"({"hello": "world"})", 1, 1, "",
                   "not a template: expected a story list (array), a template document ({\"project_template\": …}) "
                   "or an API response with project_templates"}),
    [](const ::testing::TestParamInfo<SchemaCase>& param) { return "case_" + std::to_string(param.index); });

TEST(SchemaRule, DedicatedRulesAreNotRepeated) {
  // Missing title, blank title and an unknown story_type belong to their own rules.
  for (Diagnostic& d : lint_text(
           "t.json",
           R"([{"temp_id": 1}, {"title": " ", "temp_id": 2}, {"title": "x", "temp_id": 3, "story_type": "epic"}])"))
    EXPECT_NE(d.rule, "schema") << d.message;
}

TEST(SchemaRule, OneFindingPerBadValue) {
  auto findings = lint_text(
      "t.json",
      R"([{"title": "A", "temp_id": 1, "duration": "1", "billable": 0}, {"title": "B", "temp_id": 2, "weight": "x"}])");
  ASSERT_EQ(findings.size(), 3u);
  EXPECT_EQ(findings[0].pointer, "/0/duration");
  EXPECT_EQ(findings[1].pointer, "/0/billable");
  EXPECT_EQ(findings[2].pointer, "/1/weight");
}

}  // namespace
}  // namespace ptmpl

namespace ptmpl {
namespace {

TEST(SchemaRule, ValuesBelowTheNestingBoundAreLeftToNestingDepth) {
  LintOptions options;
  options.max_depth = 4;
  auto findings = lint_text(
      "t.json",
      R"([{"title": "P", "temp_id": 1, "sub_stories": [{"title": "Q", "temp_id": 2, "sub_stories": [{"title": "W", "temp_id": 3}]}]}])",
      options);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].rule, "nesting-depth");
  EXPECT_EQ(findings[0].column, 91u);
  EXPECT_EQ(findings[0].pointer, "/0/sub_stories/0/sub_stories");
}

}  // namespace
}  // namespace ptmpl
