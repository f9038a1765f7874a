// What push sends and decides, and how diff compares (libtemplate/src/publish/push.cpp,
// template_diff.cpp), without a network: the commands are tested against the sandbox in
// cli_push_test.cpp.
#include <gtest/gtest.h>

#include "libtemplate/core/json.hpp"
#include "libtemplate/core/lint.hpp"
#include "libtemplate/core/template_file.hpp"
#include "libtemplate/core/writer.hpp"
#include "libtemplate/publish/api_client.hpp"
#include "libtemplate/publish/publish.hpp"
#include "publish/change_text.hpp"
#include "sandbox_process.hpp"
#include "test_files.hpp"

namespace ptmpl::testing {
namespace {

using publish::LocalTemplate;
using publish::RemoteTemplate;

LocalTemplate local_of(const std::string& path) {
  auto local = publish::read_local_template(path, read_source(path));
  EXPECT_TRUE(local.ok()) << (local.ok() ? "" : local.error().message);
  return local.ok() ? std::move(local).value() : LocalTemplate{};
}

/// The service's copy of a template, from a file holding the template object it returns.
RemoteTemplate remote_of(const std::string& path) {
  std::string json = read_source(path);
  json::Document doc = json::Document::parse(json);
  EXPECT_TRUE(doc.ok());
  RemoteTemplate remote;
  remote.id = *doc.root().find("id")->as_int64();
  remote.title = std::string(doc.root().find("title")->text());
  remote.updated_at = std::string(doc.root().find("updated_at")->text());
  remote.raw_json = std::string(doc.root().find("raw_json")->text());
  remote.json = json;
  return remote;
}

/// What the service holds after storing `local`'s body: its fields and raw_json as sent.
RemoteTemplate stored_copy(const LocalTemplate& local, std::int64_t id) {
  json::Document body = json::Document::parse(local.body);
  const json::Value& pt = *body.root().find("project_template");
  RemoteTemplate remote;
  remote.id = id;
  remote.title = local.title;
  remote.updated_at = "2026-11-22T08:00:00.000Z";
  if (const json::Value* raw = pt.find("raw_json")) remote.raw_json = std::string(raw->text());
  remote.json = write_compact(pt, Shape::Unknown);
  return remote;
}

TEST(PushDocument, TheBodyHoldsEveryKeyButTheServicesBookkeeping) {
  std::string text = R"({"project_template": {"id": 12, "title": "Launch", "custom": [1, null],
      "updated_at": "2026-01-01T00:00:00Z", "budget": 1500.50, "raw_json": [{"title": "A", "temp_id": 1}]}})";
  auto local = publish::read_local_template("launch.json", text);
  ASSERT_TRUE(local.ok()) << local.error().message;
  EXPECT_EQ(local.value().id, 12);
  EXPECT_EQ(local.value().updated_at, "2026-01-01T00:00:00Z");
  EXPECT_EQ(local.value().title, "Launch");
  EXPECT_EQ(local.value().body,
            R"({"project_template":{"title":"Launch","budget":1500.50,"raw_json":"[{\"title\":\"A\",\"temp_id\":1}]",)"
            R"("custom":[1,null]}})");
  ASSERT_EQ(local.value().fields.size(), 2u);
  EXPECT_EQ(local.value().fields[1], (std::pair<std::string, std::string>("budget", "1500.50")));
  EXPECT_EQ(local.value().stories, R"([{"title":"A","temp_id":1}])");
}

// Lint reads the last of duplicate keys, and the service keeps it: the body holds each key
// once, with the last value, at every level of an array raw_json; the title is the last one.
TEST(PushDocument, OfDuplicateKeysOnlyTheLastIsSent) {
  std::string text = R"({"project_template": {"title": "First", "budget": 1, "id": 3, "title": "Last", "id": 4,
      "raw_json": [{"title": "A", "temp_id": 1, "sub_stories": [{"title": "B", "title": "C"}], "temp_id": 2}],
      "budget": 2}})";
  auto local = publish::read_local_template("twice.json", text);
  ASSERT_TRUE(local.ok()) << local.error().message;
  EXPECT_EQ(local.value().title, "Last");
  EXPECT_EQ(local.value().id, 4);
  EXPECT_EQ(local.value().body,
            R"({"project_template":{"title":"Last","budget":2,"raw_json":"[{\"title\":\"A\",\"temp_id\":2,)"
            R"(\"sub_stories\":[{\"title\":\"C\"}]}]"}})");
  EXPECT_EQ(local.value().fields,
            (std::vector<std::pair<std::string, std::string>>{{"title", "\"Last\""}, {"budget", "2"}}));
  EXPECT_EQ(local.value().stories, R"([{"title":"A","temp_id":2,"sub_stories":[{"title":"C"}]}])");
  // The id written back replaces the value that was read: the last one.
  auto with = publish::with_identity(text, 9, "s");
  ASSERT_TRUE(with.ok());
  EXPECT_NE(with.value().find(R"("id": 3, "title": "Last", "id": 9,)"), std::string::npos) << with.value();
}

TEST(PushDocument, ARawJsonStringIsComparedInCanonicalForm) {
  auto local = publish::read_local_template(
      "t.json", R"({"project_template": {"title": "T", "raw_json": "[{\"temp_id\": 1, \"title\": \"A\"}]"}})");
  ASSERT_TRUE(local.ok());
  EXPECT_EQ(local.value().stories, R"([{"title":"A","temp_id":1}])");
  auto empty = publish::read_local_template("t.json", R"({"project_template": {"title": "T", "raw_json": " "}})");
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty.value().stories, "[]");
}

TEST(PushDocument, OnlyTemplateDocumentsWithATitleCanBePublished) {
  auto list = publish::read_local_template("stories.json", R"([{"title": "A"}])");
  ASSERT_FALSE(list.ok());
  EXPECT_NE(list.error().message.find("stories.json: not a template document"), std::string::npos);
  EXPECT_FALSE(publish::read_local_template("x.json", R"({"project_template": {"description": "no title"}})").ok());
  EXPECT_FALSE(publish::read_local_template("x.json", R"({"project_template": {"title": "T", "id": -4}})").ok());
  EXPECT_FALSE(publish::read_local_template("x.json", "{").ok());
  auto string_id = publish::read_local_template("x.json", R"({"project_template": {"title": "T", "id": "31"}})");
  ASSERT_TRUE(string_id.ok());
  EXPECT_EQ(string_id.value().id, 31);
}

TEST(PushDocument, TheStoredCopyOfEverySampleHasTheSameContent) {
  for (const auto& path : json_files("samples")) {
    if (path.find("broken") != std::string::npos) continue;
    LocalTemplate local = local_of(path);
    RemoteTemplate remote = stored_copy(local, 7);
    EXPECT_TRUE(publish::same_content(local, remote)) << path;
    EXPECT_EQ(publish::diff_template(local, remote), "") << path;
  }
}

TEST(PushDocument, AnyStoredFieldOrStoryThatDiffersIsAChange) {
  LocalTemplate local = local_of("samples/website-launch.json");
  RemoteTemplate remote = stored_copy(local, 7);
  RemoteTemplate other_duration = remote;
  std::size_t at = other_duration.json.find("\"duration\":") + 11;
  other_duration.json.replace(at, other_duration.json.find(',', at) - at, "999");
  EXPECT_FALSE(publish::same_content(local, other_duration));
  RemoteTemplate other_story = remote;
  other_story.raw_json->replace(other_story.raw_json->find("\"title\":\"") + 9, 1, "X");
  EXPECT_FALSE(publish::same_content(local, other_story));
  RemoteTemplate no_stories = remote;
  no_stories.raw_json.reset();
  EXPECT_FALSE(publish::same_content(local, no_stories));
  // A field the document leaves out is not compared: pushing would not change it.
  LocalTemplate bare = local_of("samples/website-launch.json");
  bare.fields.clear();
  EXPECT_TRUE(publish::same_content(bare, other_duration));
}

TEST(PushDocument, DiffShowsFieldsAndStoriesReadably) {
  LocalTemplate local = local_of("samples/office-move.json");
  RemoteTemplate remote = remote_of("tests/data/publish/office-move-remote.json");
  EXPECT_FALSE(publish::same_content(local, remote));
  expect_golden("tests/golden/publish/office-move.diff", publish::diff_template(local, remote));
}

// Issue 36: a long value changed deep inside was cut at one prefix on both sides, so the two
// looked the same. Each side is shown around the change: the same words before it, the
// changed words, a few words after.
TEST(PushDocument, DiffShowsAChangeDeepInsideALongValue) {
  LocalTemplate local = local_of("samples/office-move.json");
  RemoteTemplate remote = stored_copy(local, 7);
  const std::string sentence = "the move weekend and handing back the old premises";
  const std::size_t at = remote.json.find(sentence);
  ASSERT_NE(at, std::string::npos);
  remote.json.replace(at, sentence.size(), "the move weekend and handing back the former premises");
  const std::string diff = publish::diff_template(local, remote);
  EXPECT_NE(diff.find("  description: \"…and handing back the former premises. temp_ids are…\" → \"…and handing back "
                      "the old premises. temp_ids are…\"\n"),
            std::string::npos)
      << diff;
}

TEST(PushIdentity, InsertedKeysKeepACanonicalFileCanonical) {
  for (const auto& path : json_files("samples")) {
    if (path.find("broken") != std::string::npos) continue;
    std::string text = read_source(path);
    auto with = publish::with_identity(text, 42, "2026-11-22T08:00:00.000Z");
    ASSERT_TRUE(with.ok()) << path;
    json::Document doc = json::Document::parse(with.value());
    ASSERT_TRUE(doc.ok()) << path;
    EXPECT_EQ(write_canonical(doc.root(), Shape::TemplateDocument), with.value()) << path;
    const json::Value& pt = *doc.root().find("project_template");
    EXPECT_EQ(pt.find("id")->as_int64(), 42);
    EXPECT_EQ(pt.find("updated_at")->text(), "2026-11-22T08:00:00.000Z");
    EXPECT_TRUE(lint_text(path, with.value()).empty()) << path;
    // Again, with other values: replaced in place, nothing else moves.
    auto again = publish::with_identity(with.value(), 43, "2026-11-23T09:30:00.000Z");
    ASSERT_TRUE(again.ok());
    std::string expected = with.value();
    expected.replace(expected.find("\"id\": 42"), 8, "\"id\": 43");
    expected.replace(expected.find("2026-11-22T08:00:00.000Z"), 24, "2026-11-23T09:30:00.000Z");
    EXPECT_EQ(again.value(), expected) << path;
  }
}

TEST(PushIdentity, OtherLayoutsAreEditedWhereTheKeysGo) {
  auto compact = publish::with_identity(R"({"project_template":{"title":"T","raw_json":[]}})", 5, "s");
  ASSERT_TRUE(compact.ok());
  EXPECT_EQ(compact.value(), R"({"project_template":{"id": 5,"title":"T","updated_at": "s", "raw_json":[]}})");
  auto last = publish::with_identity(R"({"project_template": {"title": "T", "duration": 3}})", 5, "s");
  ASSERT_TRUE(last.ok());
  EXPECT_EQ(last.value(), R"({"project_template": {"id": 5,"title": "T", "duration": 3, "updated_at": "s"}})");
  auto replaced = publish::with_identity(
      R"({"project_template": {"id": "7", "title": "T", "updated_at": "a\"b", "x": 1}})", 12, "new");
  ASSERT_TRUE(replaced.ok());
  EXPECT_EQ(replaced.value(), R"({"project_template": {"id": 12, "title": "T", "updated_at": "new", "x": 1}})");
  EXPECT_FALSE(publish::with_identity("[]", 1, "s").ok());
}

TEST(PushPlan, LintsExactlyTheBytesItWillSendReadingEachFileOnce) {
  ScratchDir dir("push-plan");
  const std::string good = read_source("samples/website-launch.json");
  std::string a = dir.write("a.json", good);
  publish::PushPlan plan = publish::plan_push({a}, {});
  ASSERT_TRUE(plan.ready()) << (plan.refused.empty() ? "" : plan.refused.front().message);
  ASSERT_EQ(plan.documents.size(), 1u);
  // An edit saved after the plan is neither linted nor sent: the plan holds what it read.
  dir.write("a.json", R"({"project_template": {"title": "Edited", "raw_json": [{"title": ""}]}})");
  EXPECT_EQ(plan.documents[0].text, good);
  EXPECT_EQ(plan.documents[0].title, "Website Launch – Marketing Site Redesign");
  ASSERT_EQ(plan.lint.files.size(), 1u);
  EXPECT_EQ(plan.lint.files[0].path, a);
  EXPECT_FALSE(plan.lint.files[0].error.has_value());
  EXPECT_TRUE(plan.lint.diagnostics.empty());
  // Planned again, the edit is linted, and the lint error holds the push back.
  publish::PushPlan edited = publish::plan_push({a}, {});
  EXPECT_TRUE(edited.lint.failed);
  EXPECT_FALSE(edited.ready());
}

TEST(PushPlan, RefusesWhatCannotBePublishedWithItsReason) {
  ScratchDir dir("push-plan-refused");
  const std::string doc = read_source("samples/website-launch.json");
  std::string a = dir.write("a.json", doc);
  std::string b = dir.write("b.json", doc);
  std::string list = dir.write("list.json", R"([{"title": "A", "story_type": "task"}])");
  publish::PushPlan plan = publish::plan_push({a, b, list, dir.file("missing.json")}, {});
  ASSERT_EQ(plan.refused.size(), 3u);
  EXPECT_EQ(plan.refused[0].code, ErrorCode::kNotFound);  // unreadable: not there
  EXPECT_EQ(plan.refused[1].code, ErrorCode::kConflict);
  EXPECT_EQ(plan.refused[1].message, b + " and " + a +
                                         " are both titled \"Website Launch – Marketing Site Redesign\" and have no "
                                         "id: one template on the service cannot be both");
  EXPECT_EQ(plan.refused[2].code, ErrorCode::kInvalid);
  EXPECT_EQ(plan.documents.size(), 1u);
  EXPECT_FALSE(plan.ready());
}

}  // namespace
}  // namespace ptmpl::testing
