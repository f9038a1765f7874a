// The three-way merge of template documents (pull --merge, diff --three-way), case by case.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "libtemplate/core/json.hpp"
#include "libtemplate/core/template_file.hpp"
#include "libtemplate/core/writer.hpp"
#include "libtemplate/publish/publish.hpp"
#include "publish/change_text.hpp"
#include "sandbox_process.hpp"

namespace ptmpl::publish {
namespace {

/// A template document: `fields` (members of project_template, without braces) and a story list.
std::string doc(const std::string& fields, const std::string& stories, const std::string& beside = "") {
  return "{" + beside + "\"project_template\": {" + fields + (fields.empty() ? "" : ", ") + "\"raw_json\": " + stories +
         "}}";
}

const std::string kBaseFields = R"("id": 7, "title": "Launch", "duration": 5, "updated_at": "A")";
const std::string kRemoteFields = R"("id": 7, "title": "Launch", "duration": 5, "updated_at": "B")";

/// The merged document's story list and template (without raw_json), compact and canonical.
struct Parts {
  std::string stories;
  std::string fields;
  std::string whole;
};

Parts parts(const std::string& document) {
  json::Document parsed = json::Document::parse(document);
  EXPECT_TRUE(parsed.ok()) << document;
  Parts out;
  if (!parsed.ok()) return out;
  const json::Value* pt = parsed.root().find("project_template");
  out.stories = write_compact(*pt->find("raw_json"), Shape::StoryList);
  std::vector<json::Member> fields;
  for (const json::Member& m : pt->members())
    if (m.key.text() != "raw_json") fields.push_back(m);
  json::Builder build(parsed.arena());
  out.fields = write_compact(build.object(fields), Shape::Unknown);
  out.whole = write_compact(parsed.root(), Shape::TemplateDocument);
  return out;
}

std::string stories(const std::string& list) {
  json::Document parsed = json::Document::parse(list);
  EXPECT_TRUE(parsed.ok()) << list;
  return write_compact(parsed.root(), Shape::StoryList);
}

MergeResult merged(const std::string& base, const std::string& local, const std::string& remote) {
  auto result = merge_templates(base, local, remote);
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message);
  return result.ok() ? result.value() : MergeResult{};
}

const std::string kTwo =
    R"([{"temp_id": 1, "title": "Plan", "duration": 3}, {"temp_id": 2, "title": "Build", "duration": 4}])";

TEST(TemplateMerge, AChangeOnOneSideIsTakenFromEachSide) {
  MergeResult m = merged(
      doc(kBaseFields, kTwo),
      doc(kBaseFields,
          R"([{"temp_id": 1, "title": "Plan", "duration": 6}, {"temp_id": 2, "title": "Build", "duration": 4}])"),
      doc(kRemoteFields,
          R"([{"temp_id": 1, "title": "Plan", "duration": 3}, {"temp_id": 2, "title": "Build it", "duration": 4}])"));
  ASSERT_TRUE(m.conflicts.empty()) << conflict_lines(m.conflicts, "");
  EXPECT_EQ(
      parts(m.document).stories,
      stories(
          R"([{"temp_id": 1, "title": "Plan", "duration": 6}, {"temp_id": 2, "title": "Build it", "duration": 4}])"));
  // The merge is on top of the service's version: its id and updated_at.
  EXPECT_EQ(parts(m.document).fields, R"({"id":7,"title":"Launch","duration":5,"updated_at":"B"})");
}

TEST(TemplateMerge, TheSameChangeOnBothSidesIsTakenOnce) {
  const std::string both =
      R"([{"temp_id": 1, "title": "Plan", "duration": 6.0}, {"temp_id": 2, "title": "Build", "duration": 4}, {"temp_id": 3, "title": "Ship"}])";
  MergeResult m = merged(
      doc(kBaseFields, kTwo), doc(kBaseFields, both),
      doc(kRemoteFields,
          R"([{"temp_id": 1, "title": "Plan", "duration": 6}, {"temp_id": 2, "title": "Build", "duration": 4}, {"temp_id": 3, "title": "Ship"}])"));
  ASSERT_TRUE(m.conflicts.empty()) << conflict_lines(m.conflicts, "");
  EXPECT_EQ(parts(m.document).stories, stories(both));  // 6.0 and 6 are one value: the local spelling kept
}

TEST(TemplateMerge, DifferentChangesOfOneStoryKeyAreAConflictAndNothingIsWritten) {
  MergeResult m = merged(
      doc(kBaseFields, kTwo),
      doc(kBaseFields,
          R"([{"temp_id": 1, "title": "Plan", "duration": 6}, {"temp_id": 2, "title": "Build", "duration": 4}])"),
      doc(kRemoteFields,
          R"([{"temp_id": 1, "title": "Plan", "duration": 8}, {"temp_id": 2, "title": "Build", "duration": 4}])"));
  EXPECT_EQ(m.document, "");
  EXPECT_EQ(conflict_lines(m.conflicts, "  "), "  [1] \"Plan\": duration: locally 6, on the service 8 (base 3)\n");
}

TEST(TemplateMerge, TemplateFieldsMergeLikeStoryKeys) {
  const std::string base = doc(kBaseFields + R"(, "description": "d")", "[]");
  MergeResult clean =
      merged(base, doc(R"("id": 7, "title": "Launch v2", "duration": 5, "updated_at": "A", "description": "d")", "[]"),
             doc(R"("id": 7, "title": "Launch", "duration": 9, "updated_at": "B", "description": "d")", "[]"));
  ASSERT_TRUE(clean.conflicts.empty()) << conflict_lines(clean.conflicts, "");
  EXPECT_EQ(parts(clean.document).fields,
            R"({"id":7,"title":"Launch v2","description":"d","duration":9,"updated_at":"B"})");
  MergeResult clash = merged(base, doc(kBaseFields + R"(, "description": "mine")", "[]"),
                             doc(kRemoteFields + R"(, "description": "theirs")", "[]"));
  EXPECT_EQ(conflict_lines(clash.conflicts, ""),
            "template: description: locally \"mine\", on the service \"theirs\" (base \"d\")\n");
}

TEST(TemplateMerge, AKeyRemovedOnOneSideAndUntouchedOnTheOtherIsRemoved) {
  MergeResult m =
      merged(doc(kBaseFields, kTwo),
             doc(kBaseFields, R"([{"temp_id": 1, "title": "Plan"}, {"temp_id": 2, "title": "Build", "duration": 4}])"),
             doc(kRemoteFields, kTwo));
  ASSERT_TRUE(m.conflicts.empty());
  EXPECT_EQ(parts(m.document).stories,
            stories(R"([{"temp_id": 1, "title": "Plan"}, {"temp_id": 2, "title": "Build", "duration": 4}])"));
}

TEST(TemplateMerge, AStoryRemovedOnOneSideGoesUnlessTheOtherChangedIt) {
  const std::string only_build = R"([{"temp_id": 2, "title": "Build", "duration": 4}])";
  // Removed on the service, untouched here: removed.
  MergeResult gone = merged(doc(kBaseFields, kTwo), doc(kBaseFields, kTwo), doc(kRemoteFields, only_build));
  ASSERT_TRUE(gone.conflicts.empty());
  EXPECT_EQ(parts(gone.document).stories, stories(only_build));
  // Removed here, untouched on the service: removed.
  MergeResult gone_here = merged(doc(kBaseFields, kTwo), doc(kBaseFields, only_build), doc(kRemoteFields, kTwo));
  ASSERT_TRUE(gone_here.conflicts.empty());
  EXPECT_EQ(parts(gone_here.document).stories, stories(only_build));
  // Removed on the service, changed here: a conflict.
  MergeResult clash = merged(
      doc(kBaseFields, kTwo),
      doc(kBaseFields,
          R"([{"temp_id": 1, "title": "Plan", "duration": 9}, {"temp_id": 2, "title": "Build", "duration": 4}])"),
      doc(kRemoteFields, only_build));
  EXPECT_EQ(conflict_lines(clash.conflicts, ""), "[1] \"Plan\": removed on the service, changed locally\n");
  // Removed here, changed on the service: a conflict.
  MergeResult other = merged(
      doc(kBaseFields, kTwo), doc(kBaseFields, only_build),
      doc(kRemoteFields,
          R"([{"temp_id": 1, "title": "Plan", "duration": 9}, {"temp_id": 2, "title": "Build", "duration": 4}])"));
  EXPECT_EQ(conflict_lines(other.conflicts, ""), "[1] \"Plan\": removed locally, changed on the service\n");
}

TEST(TemplateMerge, StoriesAddedOnBothSidesWithOneTempIdMustAgree) {
  const std::string with_three =
      R"([{"temp_id": 1, "title": "Plan", "duration": 3}, {"temp_id": 2, "title": "Build", "duration": 4}, {"temp_id": 3, "title": "Ship"}])";
  MergeResult same = merged(doc(kBaseFields, kTwo), doc(kBaseFields, with_three), doc(kRemoteFields, with_three));
  ASSERT_TRUE(same.conflicts.empty());
  EXPECT_EQ(parts(same.document).stories, stories(with_three));
  MergeResult clash = merged(
      doc(kBaseFields, kTwo), doc(kBaseFields, with_three),
      doc(kRemoteFields,
          R"([{"temp_id": 1, "title": "Plan", "duration": 3}, {"temp_id": 2, "title": "Build", "duration": 4}, {"temp_id": 3, "title": "Ship it"}])"));
  EXPECT_EQ(conflict_lines(clash.conflicts, ""),
            "[3] \"Ship\": added locally and on the service, with different content\n");
}

TEST(TemplateMerge, TheLocalOrderWithTheServicesAdditionsAfterTheirPredecessor) {
  const std::string base =
      R"([{"temp_id": "a", "title": "A"}, {"temp_id": "b", "title": "B"}, {"temp_id": "c", "title": "C"}])";
  // Here: C moved first, L added at the end. There: X after A, Y at the very start.
  const std::string local =
      R"([{"temp_id": "c", "title": "C"}, {"temp_id": "a", "title": "A"}, {"temp_id": "b", "title": "B"}, {"temp_id": "l", "title": "L"}])";
  const std::string remote =
      R"([{"temp_id": "y", "title": "Y"}, {"temp_id": "a", "title": "A"}, {"temp_id": "x", "title": "X"}, {"temp_id": "b", "title": "B"}, {"temp_id": "c", "title": "C"}])";
  MergeResult m = merged(doc(kBaseFields, base), doc(kBaseFields, local), doc(kRemoteFields, remote));
  ASSERT_TRUE(m.conflicts.empty()) << conflict_lines(m.conflicts, "");
  EXPECT_EQ(
      parts(m.document).stories,
      stories(
          R"([{"temp_id": "y", "title": "Y"}, {"temp_id": "c", "title": "C"}, {"temp_id": "a", "title": "A"}, {"temp_id": "x", "title": "X"}, {"temp_id": "b", "title": "B"}, {"temp_id": "l", "title": "L"}])"));
}

TEST(TemplateMerge, SubStoriesFollowTheirParentAndAMoveIsMerged) {
  const std::string base =
      R"([{"temp_id": 1, "title": "P", "sub_stories": [{"temp_id": 2, "title": "C1"}]}, {"temp_id": 3, "title": "Q"}])";
  // Here: P renamed. There: a child added under P, and Q moved under P.
  const std::string local =
      R"([{"temp_id": 1, "title": "Parent", "sub_stories": [{"temp_id": 2, "title": "C1"}]}, {"temp_id": 3, "title": "Q"}])";
  const std::string remote =
      R"([{"temp_id": 1, "title": "P", "sub_stories": [{"temp_id": 2, "title": "C1"}, {"temp_id": 4, "title": "C2"}, {"temp_id": 3, "title": "Q"}]}])";
  MergeResult m = merged(doc(kBaseFields, base), doc(kBaseFields, local), doc(kRemoteFields, remote));
  ASSERT_TRUE(m.conflicts.empty()) << conflict_lines(m.conflicts, "");
  EXPECT_EQ(
      parts(m.document).stories,
      stories(
          R"([{"temp_id": 1, "title": "Parent", "sub_stories": [{"temp_id": 2, "title": "C1"}, {"temp_id": 4, "title": "C2"}, {"temp_id": 3, "title": "Q"}]}])"));
}

TEST(TemplateMerge, MovesToDifferentPlacesAndAChildUnderARemovedStoryAreConflicts) {
  const std::string base =
      R"([{"temp_id": 1, "title": "P"}, {"temp_id": 2, "title": "Q"}, {"temp_id": 3, "title": "S"}])";
  MergeResult moved = merged(
      doc(kBaseFields, base),
      doc(kBaseFields,
          R"([{"temp_id": 1, "title": "P", "sub_stories": [{"temp_id": 3, "title": "S"}]}, {"temp_id": 2, "title": "Q"}])"),
      doc(kRemoteFields,
          R"([{"temp_id": 1, "title": "P"}, {"temp_id": 2, "title": "Q", "sub_stories": [{"temp_id": 3, "title": "S"}]}])"));
  EXPECT_EQ(conflict_lines(moved.conflicts, ""),
            "[3] \"S\": moved locally under [1] \"P\", on the service under [2] \"Q\"\n");
  MergeResult orphan = merged(
      doc(kBaseFields, base), doc(kBaseFields, R"([{"temp_id": 2, "title": "Q"}, {"temp_id": 3, "title": "S"}])"),
      doc(kRemoteFields,
          R"([{"temp_id": 1, "title": "P", "sub_stories": [{"temp_id": 9, "title": "New"}]}, {"temp_id": 2, "title": "Q"}, {"temp_id": 3, "title": "S"}])"));
  EXPECT_EQ(conflict_lines(orphan.conflicts, ""), "[9] \"New\": is under [1] \"P\", which the merge removes\n");
}

TEST(TemplateMerge, UnknownKeysAndWhatIsBesideTheTemplateAreKept) {
  const std::string base = R"([{"temp_id": 1, "title": "Plan", "x_note": "n"}])";
  MergeResult m = merged(
      doc(kBaseFields + R"(, "x_owner": "pmo")", base),
      doc(kBaseFields + R"(, "x_owner": "pmo", "x_local": true)",
          R"([{"temp_id": 1, "title": "Plan", "x_note": "n", "x_mine": 1}])",
          R"("calendar": {"start": "2026-01-05"}, )"),
      doc(kRemoteFields + R"(, "x_owner": "office")", R"([{"temp_id": 1, "title": "Plan", "x_note": "changed"}])"));
  ASSERT_TRUE(m.conflicts.empty()) << conflict_lines(m.conflicts, "");
  Parts p = parts(m.document);
  EXPECT_EQ(p.stories, stories(R"([{"temp_id": 1, "title": "Plan", "x_note": "changed", "x_mine": 1}])"));
  EXPECT_NE(p.fields.find(R"("x_owner":"office")"), std::string::npos) << p.fields;
  EXPECT_NE(p.fields.find(R"("x_local":true)"), std::string::npos) << p.fields;
  EXPECT_NE(p.whole.find(R"("calendar":{"start":"2026-01-05"})"), std::string::npos) << p.whole;
  // The document is canonical: what pull writes.
  EXPECT_EQ(m.document, write_canonical(json::Document::parse(m.document).root(), Shape::TemplateDocument));
}

TEST(TemplateMerge, RawJsonAsAStringIsMergedAsItsStoryList) {
  MergeResult m = merged(
      doc(kBaseFields, kTwo),
      doc(kBaseFields,
          json::quoted(
              R"([{"temp_id": 1, "title": "Plan", "duration": 6}, {"temp_id": 2, "title": "Build", "duration": 4}])")),
      doc(kRemoteFields, kTwo));
  ASSERT_TRUE(m.conflicts.empty()) << conflict_lines(m.conflicts, "");
  EXPECT_EQ(
      parts(m.document).stories,
      stories(R"([{"temp_id": 1, "title": "Plan", "duration": 6}, {"temp_id": 2, "title": "Build", "duration": 4}])"));
}

TEST(TemplateMerge, StoriesThatCannotBePairedByTempIdAreConflicts) {
  MergeResult none = merged(
      doc(kBaseFields, kTwo),
      doc(kBaseFields,
          R"([{"temp_id": 1, "title": "Plan", "duration": 3}, {"temp_id": 2, "title": "Build", "duration": 4}, {"title": "Loose"}])"),
      doc(kRemoteFields, kTwo));
  EXPECT_EQ(conflict_lines(none.conflicts, ""),
            "\"Loose\": temp_id: has none locally: stories are merged by temp_id\n");
  MergeResult twice =
      merged(doc(kBaseFields, kTwo), doc(kBaseFields, kTwo),
             doc(kRemoteFields, R"([{"temp_id": 1, "title": "Plan"}, {"temp_id": 1, "title": "Again"}])"));
  EXPECT_EQ(conflict_lines(twice.conflicts, ""), "[1] \"Again\": temp_id: names several stories on the service\n");
}

TEST(TemplateMerge, ATextThatIsNotATemplateDocumentIsRefused) {
  auto refused = merge_templates(doc(kBaseFields, kTwo), "[1, 2]", doc(kRemoteFields, kTwo));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kInvalid);
  EXPECT_EQ(refused.error().message, "the file is not a template document");
  auto not_stories = merge_templates(doc(kBaseFields, kTwo), doc(kBaseFields, "{\"a\": 1}"), doc(kRemoteFields, kTwo));
  ASSERT_FALSE(not_stories.ok());
  EXPECT_EQ(not_stories.error().message, "the file: its raw_json is not a story list");
}

TEST(TemplateMerge, TheThreeWayDiffShowsEachSidesChangesAndTheConflicts) {
  auto read = [](const std::string& path, const std::string& text) {
    auto t = read_local_template(path, text);
    EXPECT_TRUE(t.ok());
    return t.value();
  };
  LocalTemplate base = read("base", doc(kBaseFields, kTwo));
  LocalTemplate local =
      read("local",
           doc(kBaseFields,
               R"([{"temp_id": 1, "title": "Plan", "duration": 6}, {"temp_id": 2, "title": "Build", "duration": 4}])"));
  LocalTemplate remote = read(
      "remote",
      doc(kRemoteFields,
          R"([{"temp_id": 1, "title": "Plan", "duration": 8}, {"temp_id": 2, "title": "Build", "duration": 4}, {"temp_id": 3, "title": "Ship"}])"));
  auto d = diff_three_way(base, local, remote);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(changes_text(d.value().local, ""),
            "stories: 1 changed, 0 added, 0 removed\n  ~ [1] \"Plan\"\n      duration: 3 → 6\n");
  EXPECT_EQ(changes_text(d.value().remote, ""),
            "stories: 1 changed, 1 added, 0 removed\n  ~ [1] \"Plan\"\n      duration: 3 → 8\n  + [3] \"Ship\"\n");
  EXPECT_EQ(conflict_lines(d.value().conflicts, ""), "[1] \"Plan\": duration: locally 6, on the service 8 (base 3)\n");
}

TEST(TemplateMerge, TheBaseStoreIsKeyedByAddressAndId) {
  EXPECT_EQ(base_store_dir(std::string_view("/state"), std::string_view("/home/u"), "https://Svc.example/api/v1/"),
            base_store_dir(std::string_view("/state"), std::nullopt, "https://svc.example/api/v1"));
  EXPECT_TRUE(
      base_store_dir(std::string_view("/state"), std::nullopt, "https://a/api/v1").starts_with("/state/ptmpl/bases/"));
  EXPECT_NE(base_store_dir(std::string_view("/state"), std::nullopt, "https://a/api/v1"),
            base_store_dir(std::string_view("/state"), std::nullopt, "https://b/api/v1"));
  EXPECT_TRUE(base_store_dir(std::string_view("relative"), std::string_view("/home/u"), "https://a/api/v1")
                  .starts_with("/home/u/.local/state/ptmpl/bases/"));
  EXPECT_EQ(base_store_dir(std::nullopt, std::nullopt, "https://a/api/v1"), "");

  const ptmpl::testing::ScratchDir scratch("bases");  // emptied first: a pid used before leaves nothing
  const std::string dir = scratch.path();
  RemoteTemplate remote;
  remote.id = 12;
  remote.title = "Launch";
  remote.updated_at = "2026-01-01T00:00:00.000Z";
  remote.json = R"({"id":12,"title":"Launch","duration":5,"updated_at":"2026-01-01T00:00:00.000Z"})";
  remote.raw_json = R"([{"temp_id":1,"title":"Plan"}])";
  EXPECT_FALSE(load_base(dir, 12).value().has_value());
  ASSERT_TRUE(record_base(dir, remote).ok());
  auto kept = load_base(dir, 12);
  ASSERT_TRUE(kept.ok() && kept.value());
  EXPECT_EQ(*kept.value(), template_document(remote).value());

  // The same base again (a push of an unchanged template) leaves the file as it is: a second
  // name for it still names the same file afterwards. Another version replaces it.
  const std::string file = dir + "/12.json";
  const std::string witness = dir + "/witness";
  ASSERT_EQ(::link(file.c_str(), witness.c_str()), 0);
  ASSERT_TRUE(record_base(dir, remote).ok());
  struct stat again {};
  ASSERT_EQ(::stat(file.c_str(), &again), 0);
  EXPECT_EQ(again.st_nlink, 2u);
  remote.updated_at = "2026-01-02T00:00:00.000Z";
  ASSERT_TRUE(record_base(dir, remote).ok());
  EXPECT_EQ(*load_base(dir, 12).value(), template_document(remote).value());
}

}  // namespace
}  // namespace ptmpl::publish
