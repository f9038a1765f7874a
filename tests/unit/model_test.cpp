// The model: typed stories from the tree, unknown keys kept, and back to JSON.
#include <gtest/gtest.h>

#include "libtemplate/template_file.hpp"
#include "libtemplate/writer.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

using testing::read_source;
using testing::source_path;

TemplateFile parse_source(const std::string& relative) {
  return TemplateFile::parse(relative, FileText(read_source(relative)));
}

TEST(Model, ReadsEveryDocumentedField) {
  TemplateFile file = parse_source("tests/data/roundtrip/messy-story-list.json");
  ASSERT_EQ(file.shape(), Shape::StoryList);
  ASSERT_EQ(file.templates().size(), 1u);
  const auto& stories = file.templates()[0].model.stories;
  ASSERT_EQ(stories.size(), 2u);
  const Story& kickoff = stories[0];
  EXPECT_EQ(kickoff.story_type, StoryType::Milestone);
  EXPECT_EQ(kickoff.title, "Kick-off été 🚀 \"quoted\"\ttab");
  EXPECT_EQ(kickoff.temp_id, TempId{std::int64_t{1}});
  EXPECT_EQ(kickoff.duration, 0);
  EXPECT_EQ(kickoff.weight, 3);
  EXPECT_FALSE(kickoff.budget_estimate_in_cents) << "beyond int64: left to the overflow check";
  ASSERT_EQ(kickoff.dependencies.size(), 1u);
  const Dependency& dep = kickoff.dependencies[0];
  EXPECT_EQ(dep.source_id, TempId{std::int64_t{1}});
  EXPECT_EQ(dep.target_id, TempId{std::string_view("two")});
  EXPECT_EQ(dep.type, 2);
  EXPECT_EQ(dep.lag, -2);
  ASSERT_EQ(dep.extra.size(), 1u);
  EXPECT_EQ(dep.extra[0].key.text(), "note");
  EXPECT_EQ(kickoff.dependency_pointer(dep), "/0/dependencies/0");
  // Unknown keys in their original order.
  ASSERT_EQ(kickoff.extra.size(), 2u);
  EXPECT_EQ(kickoff.extra[0].key.text(), "zeta");
  EXPECT_EQ(kickoff.extra[1].key.text(), "endDay");

  const Story& build = stories[1];
  EXPECT_EQ(build.title, "Build (second title wins)");
  EXPECT_EQ(build.effective_type(), StoryType::Task);
  ASSERT_EQ(build.sub_stories.size(), 1u);
  const Story& leaf = build.sub_stories[0];
  EXPECT_EQ(leaf.origin.pointer, "/1/sub_stories/0");
  ASSERT_TRUE(leaf.assignments && leaf.checklist);
  EXPECT_EQ(std::vector<std::int64_t>(leaf.assignments->begin(), leaf.assignments->end()),
            std::vector<std::int64_t>{100});
  EXPECT_EQ(std::vector<std::string_view>(leaf.checklist->begin(), leaf.checklist->end()),
            (std::vector<std::string_view>{"a", "b/c"}));
  EXPECT_EQ(leaf.tag_list, "x, y");
}

TEST(Model, TemplateDocumentWithRawJsonString) {
  TemplateFile file = parse_source("tests/data/roundtrip/template-raw-json-string.json");
  ASSERT_EQ(file.shape(), Shape::TemplateDocument);
  const TemplateSource& source = file.templates().at(0);
  EXPECT_TRUE(source.raw_json_string.has_value());
  EXPECT_EQ(source.model.title, "Stored as the service stores it");
  EXPECT_EQ(source.model.currency, "EUR");
  ASSERT_TRUE(source.model.budget);
  EXPECT_EQ(source.model.budget->text(), "1234.50");
  ASSERT_EQ(source.model.assignments.size(), 1u);
  EXPECT_EQ(source.model.assignments[0].name, "Designer");
  ASSERT_EQ(source.model.stories.size(), 1u);
  EXPECT_EQ(source.model.stories[0].title, "A");
  // A position inside the raw_json string is the string's own position in the file.
  json::Position p = file.position_of(source, source.model.stories[0].origin.node);
  EXPECT_EQ(p.line, 2u);
  EXPECT_EQ(p.column, 33u);
}

TEST(Model, EnvelopeTemplatesComeInResultsOrder) {
  TemplateFile file = parse_source("tests/data/roundtrip/api-envelope.json");
  ASSERT_EQ(file.shape(), Shape::Envelope);
  ASSERT_EQ(file.templates().size(), 2u);
  EXPECT_EQ(file.templates()[0].model.title, "First in results");
  EXPECT_EQ(file.templates()[0].template_pointer, "/project_templates/20");
  EXPECT_EQ(file.templates()[1].model.title, "Second in results");
  EXPECT_EQ(file.templates()[1].model.stories[0].temp_id, TempId{std::int64_t{5}});
}

TEST(Model, AnIdListedTwiceInResultsIsOneTemplate) {
  std::string text =
      R"({"count": 1, "results": [{"key": "project_templates", "id": "7"}, {"key": "project_templates", "id": "7"}],
    "project_templates": {"7": {"id": "7", "title": "Once", "raw_json": "[]"}}})";
  TemplateFile file = TemplateFile::parse("envelope.json", FileText::borrow(text));
  ASSERT_EQ(file.shape(), Shape::Envelope);
  EXPECT_EQ(file.templates().size(), 1u);
}

TEST(Model, StoriesObjectShape) {
  TemplateFile file = parse_source("tests/data/roundtrip/stories-object.json");
  ASSERT_EQ(file.shape(), Shape::StoriesObject);
  EXPECT_EQ(file.templates().at(0).model.stories[0].origin.pointer, "/stories/0");
}

TEST(Model, TempIdsCompareAsText) {
  EXPECT_EQ(temp_id_key(TempId{std::int64_t{7}}), temp_id_key(TempId{std::string_view("7")}));
  EXPECT_NE(temp_id_key(TempId{std::int64_t{7}}), temp_id_key(TempId{std::string_view("07")}));
}

// Model → JSON → canonical text reproduces every sample exactly: the model holds all of it.
TEST(Model, ToJsonReproducesTheSamples) {
  for (const std::string& relative : testing::json_files("samples")) {
    if (relative.find("broken") != std::string::npos) continue;  // holds a duplicate key on purpose
    SCOPED_TRACE(relative);
    TemplateFile file = parse_source(relative);
    ASSERT_EQ(file.shape(), Shape::TemplateDocument);
    json::Arena arena;
    json::Builder build(arena);
    json::Value value = to_json(file.templates().at(0).model, build);
    EXPECT_EQ(write_canonical(value, Shape::TemplateDocument), file.text());
  }
}

TEST(Model, ReadFailsWithTheFileNamed) {
  auto missing = TemplateFile::read(source_path("tests/data/does-not-exist.json"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("does-not-exist.json: cannot open"), std::string::npos);
  auto directory = TemplateFile::read(source_path("tests/data"));
  ASSERT_FALSE(directory.ok());
  EXPECT_NE(directory.error().message.find("is a directory"), std::string::npos);
}

}  // namespace
}  // namespace ptmpl
