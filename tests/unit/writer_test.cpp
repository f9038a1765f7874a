// The writer: canonical form, lossless round trips, the API body.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include <pthread.h>

#include "libtemplate/core/template_file.hpp"
#include "libtemplate/core/writer.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

using testing::json_files;
using testing::read_source;

// Same values everywhere; objects may order keys differently, but each key's values (several
// for duplicate keys) appear in the same order.
::testing::AssertionResult same_tree(const json::Value& a, const json::Value& b, const std::string& at = "") {
  if (a.kind() != b.kind()) return ::testing::AssertionFailure() << "kind differs at '" << at << "'";
  switch (a.kind()) {
    case json::Kind::Number:
    case json::Kind::String:
      if (a.text() != b.text())
        return ::testing::AssertionFailure() << "'" << a.text() << "' != '" << b.text() << "' at '" << at << "'";
      return ::testing::AssertionSuccess();
    case json::Kind::Array: {
      if (a.items().size() != b.items().size()) return ::testing::AssertionFailure() << "size differs at " << at;
      for (std::size_t i = 0; i < a.items().size(); ++i)
        if (auto r = same_tree(a.items()[i], b.items()[i], at + "/" + std::to_string(i)); !r) return r;
      return ::testing::AssertionSuccess();
    }
    case json::Kind::Object: {
      if (a.members().size() != b.members().size())
        return ::testing::AssertionFailure() << "member count differs at " << at;
      std::map<std::string_view, std::vector<const json::Value*>> left, right;
      for (const auto& m : a.members()) left[m.key.text()].push_back(&m.value);
      for (const auto& m : b.members()) right[m.key.text()].push_back(&m.value);
      for (const auto& [key, values] : left) {
        auto it = right.find(key);
        if (it == right.end() || it->second.size() != values.size())
          return ::testing::AssertionFailure() << "key '" << key << "' differs at " << at;
        for (std::size_t i = 0; i < values.size(); ++i)
          if (auto r = same_tree(*values[i], *it->second[i], at + "/" + std::string(key)); !r) return r;
      }
      return ::testing::AssertionSuccess();
    }
    default:
      return ::testing::AssertionSuccess();
  }
}

std::vector<std::string> round_trip_inputs() {
  std::vector<std::string> files = json_files("samples");
  for (const auto& f : json_files("tests/data/roundtrip")) files.push_back(f);
  return files;
}

TEST(Writer, ReadWriteReadKeepsTheTree) {
  for (const std::string& relative : round_trip_inputs()) {
    SCOPED_TRACE(relative);
    std::string text = read_source(relative);
    json::Document first = json::Document::parse(text);
    ASSERT_TRUE(first.ok());
    Shape shape = detect_shape(first.root());
    std::string written = write_canonical(first.root(), shape);
    json::Document second = json::Document::parse(written);
    ASSERT_TRUE(second.ok());
    EXPECT_TRUE(same_tree(first.root(), second.root()));
    EXPECT_EQ(write_canonical(second.root(), shape), written) << "canonical form is a fixed point";
  }
}

TEST(Writer, SamplesAreCanonicalByteForByte) {
  for (const std::string& relative : json_files("samples")) {
    SCOPED_TRACE(relative);
    std::string text = read_source(relative);
    json::Document doc = json::Document::parse(text);
    ASSERT_TRUE(doc.ok());
    EXPECT_EQ(write_canonical(doc.root(), detect_shape(doc.root())), text);
  }
}

TEST(Writer, CanonicalFormMatchesGolden) {
  for (std::string name : {"messy-story-list", "template-raw-json-string", "api-envelope", "stories-object"}) {
    SCOPED_TRACE(name);
    std::string text = read_source("tests/data/roundtrip/" + std::string(name) + ".json");
    json::Document doc = json::Document::parse(text);
    ASSERT_TRUE(doc.ok());
    EXPECT_EQ(write_canonical(doc.root(), detect_shape(doc.root())),
              read_source("tests/golden/fmt/" + std::string(name) + ".json"));
  }
}

TEST(Writer, IsCanonicalAgreesWithTheCanonicalText) {
  // Small pieces, so that every file is compared across many of them.
  for (const std::string& relative : round_trip_inputs()) {
    SCOPED_TRACE(relative);
    std::string text = read_source(relative);
    json::Document doc = json::Document::parse(text);
    ASSERT_TRUE(doc.ok());
    const Shape shape = detect_shape(doc.root());
    const std::string canonical = write_canonical(doc.root(), shape);
    EXPECT_EQ(is_canonical(doc.root(), shape, text), canonical == text);
    EXPECT_TRUE(is_canonical(doc.root(), shape, canonical));
    // One byte changed anywhere, one byte missing or one more at the end: not canonical.
    for (std::size_t at : {std::size_t{0}, canonical.size() / 2, canonical.size() - 1}) {
      std::string changed = canonical;
      changed[at] = changed[at] == 'x' ? 'y' : 'x';
      EXPECT_FALSE(is_canonical(doc.root(), shape, changed)) << "changed at " << at;
    }
    EXPECT_FALSE(is_canonical(doc.root(), shape, canonical.substr(0, canonical.size() - 1)));
    EXPECT_FALSE(is_canonical(doc.root(), shape, canonical + "\n"));
  }
}

TEST(JsonEmitter, DrainedPiecesAreTheTextFinishWouldReturn) {
  const std::string text = read_source("samples/erp-implementation.json");
  json::Document doc = json::Document::parse(text);
  ASSERT_TRUE(doc.ok());
  const std::string whole = write_canonical(doc.root(), detect_shape(doc.root()));
  JsonEmitter out(JsonLayout::Pretty);
  std::string joined;
  std::size_t pieces = 0;
  out.drain_into(
      [&](std::string_view piece) {
        joined += piece;
        ++pieces;
      },
      64);
  write_value(out, doc.root(), detect_shape(doc.root()));
  EXPECT_EQ(out.finish(), "");
  EXPECT_EQ(joined, whole);
  EXPECT_GT(pieces, whole.size() / 1024) << "the text went out in pieces, not whole";
}

TEST(Writer, DocumentedKeysFirstThenUnknownInOriginalOrder) {
  json::Document doc = json::Document::parse(
      R"([{"zz": 1, "title": "T", "aa": 2, "story_type": "task", "dependencies": [{"lag": 1, "x": 0, "source_id": 1}]}])");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(write_compact(doc.root(), Shape::StoryList),
            R"([{"story_type":"task","title":"T","dependencies":[{"source_id":1,"lag":1,"x":0}],"zz":1,"aa":2}])");
}

TEST(Writer, AssignmentListInsideTheTemplateIsInItsCanonicalPlace) {
  // docs/semantics.md §2: project_template_assignments may be inside project_template; it is a documented
  // key there, before raw_json, and its entries are ordered as beside it (id, name).
  json::Document doc = json::Document::parse(
      R"({"project_template": {"raw_json": [], "x": 1, "project_template_assignments": [{"name": "B", "id": 1}], "title": "T"}})");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(
      write_compact(doc.root(), Shape::TemplateDocument),
      R"({"project_template":{"title":"T","project_template_assignments":[{"id":1,"name":"B"}],"raw_json":[],"x":1}})");
}

TEST(Writer, ApiBodyCarriesRawJsonAsCompactString) {
  std::string text = read_source("samples/website-launch.json");
  json::Document doc = json::Document::parse(text);
  ASSERT_TRUE(doc.ok());
  const json::Value& pt = *doc.root().find("project_template");
  std::string body = write_api_body(pt);
  EXPECT_EQ(body.find('\n'), std::string::npos);
  json::Document parsed = json::Document::parse(body);
  ASSERT_TRUE(parsed.ok());
  ASSERT_EQ(parsed.root().members().size(), 1u);
  const json::Value* raw = parsed.root().find("project_template")->find("raw_json");
  ASSERT_NE(raw, nullptr);
  ASSERT_TRUE(raw->is_string());
  std::string inner_text(raw->text());
  json::Document inner = json::Document::parse(inner_text);
  ASSERT_TRUE(inner.ok());
  EXPECT_TRUE(same_tree(inner.root(), *pt.find("raw_json")));
  EXPECT_EQ(inner_text, write_compact(*pt.find("raw_json"), Shape::StoryList));
  EXPECT_EQ(parsed.root().find("project_template")->find("title")->text(), pt.find("title")->text());
}

TEST(Writer, ApiBodyKeepsARawJsonStringAsItIs) {
  std::string text = read_source("tests/data/roundtrip/template-raw-json-string.json");
  json::Document doc = json::Document::parse(text);
  ASSERT_TRUE(doc.ok());
  const json::Value& pt = *doc.root().find("project_template");
  std::string body = write_api_body(pt);  // the Document refers to its text: keep it alive
  json::Document parsed = json::Document::parse(body);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed.root().find("project_template")->find("raw_json")->text(), pt.find("raw_json")->text());
  EXPECT_EQ(parsed.root().find("project_template")->find("custom")->find("k")->items()[0].kind(), json::Kind::Null);
}

}  // namespace
}  // namespace ptmpl

namespace ptmpl {
namespace {

TEST(JsonEmitter, WritesWhatWriteCanonicalWouldPrint) {
  JsonEmitter json;
  json.begin_object();
  json.key("project_template");
  json.begin_object();
  json.member("title", "Quotes \" and \\ and \n");
  json.key("is_budgeted");
  json.boolean(false);
  json.key("budget");
  json.number("12.5");
  json.key("raw_json");
  json.begin_array();
  json.begin_object();
  json.member("title", "a");
  json.member("temp_id", -7);
  json.key("sub_stories");
  json.begin_array();
  json.end_array();
  json.key("dependencies");
  json.begin_array();
  json.begin_object();
  json.end_object();
  json.end_array();
  json.end_object();
  json.begin_object();
  json.member("title", "b");
  json.end_object();
  json.end_array();
  json.end_object();
  json.end_object();
  const std::string text = json.finish();
  const TemplateFile file = TemplateFile::parse("e.json", FileText(text));
  ASSERT_TRUE(file.document().ok());
  EXPECT_EQ(write_canonical(file.document().root(), file.shape()), text);
  EXPECT_NE(text.find("\"sub_stories\": [],"), std::string::npos);
  EXPECT_NE(text.find("\"dependencies\": [\n          {}\n        ]"), std::string::npos) << text;
}

// The writer walks the tree without recursion: the deepest tree ptmpl reads (kMaxDepthLimit
// levels, objects and arrays in turn, a story list at the top) is written on a thread whose
// stack is far too small for a frame per level.
TEST(Writer, TheDeepestTreeIsWrittenOnASmallStack) {
  std::string text = "[{\"title\": \"a\", \"x\": ";
  std::size_t depth = 3;
  std::string close = "}]";
  while (depth + 2 <= json::kMaxDepthLimit) {
    text += "[{\"b\": 1, \"a\": ";
    close = "}]" + close;
    depth += 2;
  }
  text += "0" + close;
  struct Job {
    std::string text;
    std::string written;
    bool ok = false;
  } job{text, {}, false};
  auto run = [](void* argument) -> void* {
    auto& j = *static_cast<Job*>(argument);
    const json::Document document = json::Document::parse(j.text, {.max_depth = json::kMaxDepthLimit});
    j.ok = document.ok() && !document.truncated();
    j.written = write_canonical(document.root(), Shape::StoryList);
    return nullptr;
  };
  pthread_attr_t attributes;
  ASSERT_EQ(pthread_attr_init(&attributes), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attributes, 256 * 1024), 0);
  pthread_t thread;
  ASSERT_EQ(pthread_create(&thread, &attributes, run, &job), 0);
  ASSERT_EQ(pthread_join(thread, nullptr), 0);
  pthread_attr_destroy(&attributes);
  ASSERT_TRUE(job.ok);
  // The same tree, keys in the order written (none is reordered here): the text without its
  // layout. (Compared as text: a recursive comparison would itself need a frame per level.)
  std::string bare;
  for (char c : job.written)
    if (c != ' ' && c != '\n') bare += c;
  std::string expected;
  for (char c : text)
    if (c != ' ') expected += c;
  EXPECT_EQ(bare, expected);
}

}  // namespace
}  // namespace ptmpl
