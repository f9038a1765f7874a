// The model: typed stories from the tree, unknown keys kept, and back to JSON.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "libtemplate/core/lint.hpp"
#include "libtemplate/core/story_writer.hpp"
#include "libtemplate/core/template_file.hpp"
#include "libtemplate/core/writer.hpp"
#include "model/regular_keys.hpp"  // libtemplate/src: reading without the marks
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
  EXPECT_EQ(leaf.pointer(), "/1/sub_stories/0");
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
  EXPECT_EQ(file.templates().at(0).model.stories[0].pointer(), "/stories/0");
}

TEST(Model, PointersAreBuiltAsTheStoryListWritesThem) {
  // Items that are not objects are no stories but count in the positions; the deepest story is
  // 2,000 levels down (the pointer is built without recursion).
  constexpr int kDepth = 2000;
  std::string deep;
  for (int i = 0; i < kDepth; ++i) deep += R"({"sub_stories": [)";
  deep += "{}";
  for (int i = 0; i < kDepth; ++i) deep += "]}";
  const std::string text =
      R"([1, {"title": "a", "sub_stories": ["x", {"sub_stories": [{}]}]}, {}, 4, 5, 6, 7, 8, 9, 10, )" + deep + "]";
  const json::Document doc = json::Document::parse(text, {.max_depth = json::kMaxDepthLimit});
  ASSERT_TRUE(doc.ok());
  json::Arena arena;
  for (const std::string_view prefix : {std::string_view("/project_template/raw_json"), std::string_view()}) {
    const std::span<const Story> stories = stories_from_json(doc.root(), arena, prefix);
    const std::string at(prefix);
    ASSERT_EQ(stories.size(), 3u);
    EXPECT_EQ(stories[0].pointer(), at + "/1");
    EXPECT_EQ(stories[0].sub_stories[0].pointer(), at + "/1/sub_stories/1");
    EXPECT_EQ(stories[0].sub_stories[0].sub_stories[0].pointer(), at + "/1/sub_stories/1/sub_stories/0");
    EXPECT_EQ(stories[1].pointer(), at + "/2");
    std::string expected = at + "/10";
    const Story* story = &stories[2];
    for (int i = 0; i < kDepth; ++i) {
      expected += "/sub_stories/0";
      ASSERT_EQ(story->sub_stories.size(), 1u);
      story = &story->sub_stories[0];
    }
    EXPECT_EQ(story->pointer(), expected);
  }
  EXPECT_EQ(Story().pointer(), "") << "a story not read from a tree";
}

TEST(Model, OptionalTempIdsHoldEveryValue) {
  // Every int64 is an id: no sentinel stands for "absent".
  for (const std::int64_t n : {std::numeric_limits<std::int64_t>::min(), std::int64_t{-1}, std::int64_t{0},
                               std::int64_t{1} << 32, std::numeric_limits<std::int64_t>::max()}) {
    const OptionalTempId id = TempId{n};
    ASSERT_TRUE(id.has_value());
    EXPECT_EQ(*id, TempId{n});
  }
  const OptionalTempId name = TempId{std::string_view("x7")};
  EXPECT_EQ(*name, TempId{std::string_view("x7")});
  EXPECT_NE(name, OptionalTempId(TempId{std::int64_t{7}}));
  EXPECT_FALSE(OptionalTempId(std::optional<TempId>()));
}

TEST(Model, TempIdsCompareAsText) {
  EXPECT_EQ(temp_id_key(TempId{std::int64_t{7}}), temp_id_key(TempId{std::string_view("7")}));
  EXPECT_NE(temp_id_key(TempId{std::int64_t{7}}), temp_id_key(TempId{std::string_view("07")}));
}

// Model → the story writer reproduces every sample exactly: the model holds all of it, and the
// writer writes it in canonical order.
TEST(Model, StoryWriterReproducesTheSamples) {
  for (const std::string& relative : testing::json_files("samples")) {
    if (relative.find("broken") != std::string::npos) continue;  // holds a duplicate key on purpose
    SCOPED_TRACE(relative);
    TemplateFile file = parse_source(relative);
    ASSERT_EQ(file.shape(), Shape::TemplateDocument);
    EXPECT_EQ(write_template(file.templates().at(0).model), file.text());
  }
}

// Story::irregular_keys lets rules skip the tree for a key that holds nothing the model does
// not show. The shortcut must change no finding: lint with it and without it (every written
// key marked irregular, so every rule reads the tree) must agree exactly.
std::string lint_text_of(const std::string& path, const std::string& text, bool mark_regular_keys) {
  const ReadOptions options;
  TemplateFile file = detail::TemplateFileReader{options, mark_regular_keys}.parse(path, FileText(text));
  std::string out;
  for (const Diagnostic& d : lint(file))
    out += std::to_string(d.line) + ":" + std::to_string(d.column) + " " + d.rule + " " + d.pointer + " " + d.message +
           (d.fix ? " (fix)" : "") + "\n";
  return out;
}

TEST(Model, MarkingRegularKeysChangesNoFinding) {
  const std::span<const std::string_view> keys = story_keys();  // in StoryKey order
  const std::vector<std::string_view> values = {
      "null",
      "true",
      "-1",
      "0",
      "7",
      "1.5",
      "1e3",
      "3000000000",
      "9223372036854775807",
      "9223372036854775808",
      R"("")",
      R"("  ")",
      R"("task")",
      R"("milestone")",
      R"("epic")",
      R"("a, b")",
      R"("a,,b ")",
      R"("7")",
      "[]",
      "{}",
      "[1]",
      R"([""])",
      R"(["a", " "])",
      R"(["a", "b"])",
      "[{}]",
      R"([{"title": "child", "temp_id": 9}])",
      R"([{"assignee_id": 5}])",
      R"([{"assignee_id": "5"}])",
      R"([{"assignee_id": 5, "role": 1}])",
      R"([{"source_id": 1, "target_id": 2, "type": 1}])",
      R"([{"source_id": 1, "target_id": 2, "type": 1, "lag": -2}])",
      R"([{"source_id": 1, "target_id": 2, "type": 4}])",
      R"([{"source_id": 1, "target_id": 2, "type": 1, "lag": 0.5}])",
      R"([{"source_id": 1, "target_id": 2}])",
      R"([{"source_id": 1, "target_id": 2, "type": 1, "type": 1}])",
      R"([{"source_id": 1, "target_id": 2, "type": 4, "type": 1}])",
      R"([{"source_id": 1, "target_id": 2, "type": 1, "lag": "x", "lag": 1}])",
      R"([{"source_id": 1, "target_id": 2, "type": 1, "lag": "1"}])",
      R"([{"source_id": 3, "target_id": 2, "type": 1}])",
      R"([{"source_id": 1, "target_id": 2, "type": "1"}])",
      R"([3])"};
  std::size_t regular = 0;
  std::size_t irregular = 0;
  for (std::size_t k = 0; k < keys.size(); ++k) {
    for (std::string_view value : values) {
      for (bool twice : {false, true}) {
        // Dates on both stories, so that the date and link rules have something to compare.
        std::string text = R"([{"title": "story", "temp_id": 1, "relative_start_date": 0, "relative_due_date": 2, ")" +
                           std::string(keys[k]) +
                           "\": " + std::string(twice ? "0, \"" + std::string(keys[k]) + "\": " : "") +
                           std::string(value) +
                           R"(}, {"title": "other", "temp_id": 2, "relative_start_date": 1, "relative_due_date": 1}])";
        SCOPED_TRACE(text);
        TemplateFile file = TemplateFile::parse("t.json", FileText(text));
        ASSERT_TRUE(file.document().ok());
        ASSERT_EQ(file.templates().size(), 1u);
        const Story& story = file.templates()[0].model.stories[0];
        const auto key = static_cast<StoryKey>(k);
        EXPECT_TRUE(story.writes(key));
        (story.irregular(key) ? irregular : regular) += 1;
        EXPECT_EQ(lint_text_of("t.json", text, true), lint_text_of("t.json", text, false));
      }
    }
  }
  // Both answers occur, so the comparison covers the shortcut taken and not taken.
  EXPECT_GT(regular, 30u);
  EXPECT_GT(irregular, 300u);
}

TEST(Model, MarkingRegularKeysChangesNoFindingInTestFiles) {
  std::size_t files = 0;
  for (const std::string directory : {"samples", "tests/data"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(source_path(directory))) {
      if (entry.path().extension() != ".json") continue;
      SCOPED_TRACE(entry.path().string());
      std::ifstream in(entry.path(), std::ios::binary);
      const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      EXPECT_EQ(lint_text_of("t.json", text, true), lint_text_of("t.json", text, false));
      ++files;
    }
  }
  EXPECT_GT(files, 100u);
}

TEST(Model, ACleanStoryHasNoIrregularKey) {
  TemplateFile file = parse_source("samples/software-release.json");
  ASSERT_EQ(file.templates().size(), 1u);
  std::size_t stories = 0;
  for_each_story_indexed(file.templates()[0].model.stories,
                         [&](const Story& story, std::size_t, std::size_t, std::size_t) {
                           ++stories;
                           EXPECT_NE(story.written_keys, 0u) << story.pointer();
                           EXPECT_EQ(story.irregular_keys, 0u) << story.pointer();
                         });
  EXPECT_GT(stories, 10u);
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
