// The language features of `ptmpl lsp` (lsp/features.hpp): each request on small documents,
// its answer read back as JSON.
#include "lsp/features.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libtemplate/core/json.hpp"

namespace ptmpl::lsp {
namespace {

constexpr std::string_view kUri = "file:///plans/release.json";

OpenDocument document_of(std::string text) {
  return {std::string(kUri), "/plans/release.json", std::move(text), 1};
}

// The position of the `nth` occurrence of `needle` in `text`, `delta` bytes into it.
Position at(const std::string& text, std::string_view needle, std::size_t delta = 0, int nth = 0) {
  std::size_t offset = text.find(needle);
  for (int i = 0; i < nth && offset != std::string::npos; ++i) offset = text.find(needle, offset + 1);
  EXPECT_NE(offset, std::string::npos) << needle;
  return TextPositions(text).position(offset + delta);
}

// A reply's result parsed, kept with its text.
struct Answer {
  std::string text;
  json::Document document;
  const json::Value& root() const { return document.root(); }
  const json::Value& at(std::string_view pointer) const {
    const json::Value* value = json::resolve_pointer(document.root(), pointer);
    static const json::Value kNull;
    EXPECT_NE(value, nullptr) << pointer << " in " << text;
    return value != nullptr ? *value : kNull;
  }
  std::string string(std::string_view pointer) const { return std::string(at(pointer).text()); }
  std::int64_t number(std::string_view pointer) const { return at(pointer).as_int64().value_or(-999); }
  Range range(std::string_view pointer) const {
    const std::string p(pointer);
    auto u = [&](const std::string& q) { return static_cast<std::uint32_t>(number(p + q)); };
    return {{u("/start/line"), u("/start/character")}, {u("/end/line"), u("/end/character")}};
  }
};

std::unique_ptr<Answer> answer(const Reply& reply) {
  EXPECT_EQ(reply.error_code, 0) << reply.error_message;
  auto out = std::make_unique<Answer>();
  out->text = reply.result;
  out->document = json::Document::parse(out->text);
  EXPECT_TRUE(out->document.ok()) << reply.result;
  return out;
}

// Line 1: "é" is 2 bytes and 1 UTF-16 unit, "🎉" 4 bytes and 2 units, so the temp_id value 1
// starts at byte 35 of the line and at UTF-16 character 30.
const std::string kPlan =
    "[\n"
    "  {\"title\": \"\xC3\xA9\xF0\x9F\x8E\x89\", \"temp_id\": 1, \"relative_start_date\": 0, \"duration\": 3,\n"
    "   \"dependencies\": [{\"source_id\": 1, \"target_id\": \"build\", \"type\": 2}]},\n"
    "  {\"title\": \"Build\", \"temp_id\": \"build\", \"sub_stories\": [\n"
    "    {\"title\": \"Compile\", \"temp_id\": 3, \"duration\": 1, \"budget_estimate_in_cents\": 2500},\n"
    "    {\"temp_id\": 4, \"story_type\": \"milestone\",\n"
    "     \"dependencies\": [{\"source_id\": \"4\", \"target_id\": 3, \"type\": 3}]}\n"
    "  ]},\n"
    "  {\"title\": \"Prepare\", \"temp_id\": 5, \"duration\": 1,\n"
    "   \"dependencies\": [{\"source_id\": 5, \"target_id\": \"1\", \"type\": 0}, {\"source_id\": 5, \"target_id\": 4, "
    "\"type\": 2}]}\n"
    "]\n";

// ---------------------------------------------------------------------------------------------
// definition

TEST(LspDefinition, FromATargetIdToTheTempIdOfItsStory) {
  auto reply = answer(definition(document_of(kPlan), at(kPlan, "\"target_id\": \"build\"", 14)));
  ASSERT_EQ(reply->root().items().size(), 1u) << reply->text;
  EXPECT_EQ(reply->string("/0/uri"), kUri);
  // `"build"` after `"temp_id": ` on line 3, quotes included.
  EXPECT_EQ(reply->range("/0/range"), (Range{{3, 32}, {3, 39}}));
}

TEST(LspDefinition, CountsUtf16UnitsAfterMultiByteCharacters) {
  // target_id "1" names the story whose temp_id is the integer 1 (compared as text).
  auto reply = answer(definition(document_of(kPlan), at(kPlan, "\"target_id\": \"1\"", 14)));
  ASSERT_EQ(reply->root().items().size(), 1u) << reply->text;
  EXPECT_EQ(reply->range("/0/range"), (Range{{1, 30}, {1, 31}}));
}

TEST(LspDefinition, OnATempIdItselfAndAStringSourceIdNamingAnInteger) {
  auto reply = answer(definition(document_of(kPlan), at(kPlan, "\"source_id\": \"4\"", 14)));
  ASSERT_EQ(reply->root().items().size(), 1u);
  EXPECT_EQ(reply->range("/0/range").start, at(kPlan, "\"temp_id\": 4", 11));
  auto self = answer(definition(document_of(kPlan), at(kPlan, "\"temp_id\": 3", 11)));
  EXPECT_EQ(self->range("/0/range").start, at(kPlan, "\"temp_id\": 3", 11));
}

TEST(LspDefinition, NothingOutsideAnIdOrForAnIdNoStoryHas) {
  EXPECT_EQ(definition(document_of(kPlan), {0, 0}).result, "null");
  EXPECT_EQ(definition(document_of(kPlan), at(kPlan, "Compile", 2)).result, "null");
  EXPECT_EQ(definition(document_of(kPlan), {99, 0}).result, "null");
  const std::string dangling =
      R"([{"title": "A", "temp_id": 1, "dependencies": [{"source_id": 1, "target_id": 8, "type": 2}]}])";
  EXPECT_EQ(definition(document_of(dangling), at(dangling, "8")).result, "null");
  EXPECT_EQ(definition(document_of("[{\"temp_id\": 1, "), {0, 13}).result, "null");  // does not parse
}

TEST(LspDefinition, EachTemplateOfAFileHasItsOwnIds) {
  const std::string envelope =
      R"({"count": 2, "results": [{"key": "project_templates", "id": 1}, {"key": "project_templates", "id": 2}],)"
      "\n"
      R"("project_templates": {"1": {"id": 1, "title": "One", "raw_json": [{"title": "A", "temp_id": 1}]},)"
      "\n"
      R"("2": {"id": 2, "title": "Two", "raw_json": [{"title": "B", "temp_id": 1, "dependencies": [{"source_id": 1, "target_id": 1, "type": 2}]}]}}})";
  auto reply = answer(definition(document_of(envelope), at(envelope, "\"target_id\": 1", 13)));
  ASSERT_EQ(reply->root().items().size(), 1u) << reply->text;
  EXPECT_EQ(reply->range("/0/range").start, at(envelope, "\"temp_id\": 1", 11, 1));
}

// ---------------------------------------------------------------------------------------------
// references

TEST(LspReferences, EveryDependencyNamingTheIdAndTheDeclarationWhenAsked) {
  const Position on_id = at(kPlan, "\"temp_id\": 1", 11);
  auto without = answer(references(document_of(kPlan), on_id, false));
  // source_id 1 on line 2 and target_id "1" on line 6.
  ASSERT_EQ(without->root().items().size(), 2u) << without->text;
  EXPECT_EQ(without->range("/0/range").start, at(kPlan, "\"source_id\": 1", 13));
  EXPECT_EQ(without->range("/1/range").start, at(kPlan, "\"target_id\": \"1\"", 13));
  auto with = answer(references(document_of(kPlan), at(kPlan, "\"target_id\": \"1\"", 14), true));
  ASSERT_EQ(with->root().items().size(), 3u);
  EXPECT_EQ(with->range("/0/range"), (Range{{1, 30}, {1, 31}}));
  EXPECT_EQ(references(document_of(kPlan), at(kPlan, "milestone"), true).result, "null");
}

// ---------------------------------------------------------------------------------------------
// rename

TEST(LspRename, PrepareGivesTheIdTextInsideItsQuotes) {
  auto reply = answer(prepare_rename(document_of(kPlan), at(kPlan, "\"target_id\": \"build\"", 15)));
  EXPECT_EQ(reply->range("/range"), (Range{{2, 51}, {2, 56}}));
  EXPECT_EQ(reply->string("/placeholder"), "build");
  Reply nothing = prepare_rename(document_of(kPlan), at(kPlan, "Compile"));
  EXPECT_EQ(nothing.error_code, -32803);
  EXPECT_NE(nothing.error_message.find("no temp_id here"), std::string::npos);
}

TEST(LspRename, AnIntegerNameKeepsEachSiteItsKind) {
  auto reply = answer(rename(document_of(kPlan), at(kPlan, "\"temp_id\": 4", 11), "40"));
  const json::Value& edits = reply->at("/changes/" + json::pointer_escape(kUri));
  ASSERT_EQ(edits.items().size(), 3u) << reply->text;
  // The `"4"` source_id stays a string; the integer temp_id and source_id stay integers.
  std::vector<std::string> texts;
  for (const json::Value& edit : edits.items()) texts.emplace_back(edit.find("newText")->text());
  EXPECT_EQ(texts, (std::vector<std::string>{"40", "\"40\"", "40"}));
  EXPECT_EQ(reply->range("/changes/" + json::pointer_escape(kUri) + "/1/range").start,
            at(kPlan, "\"source_id\": \"4\"", 13));
}

TEST(LspRename, ANameThatIsNoIntegerMakesEverySiteAString) {
  auto reply = answer(rename(document_of(kPlan), at(kPlan, "\"target_id\": \"1\"", 14), "design \"v2\""));
  const json::Value& edits = reply->at("/changes/" + json::pointer_escape(kUri));
  ASSERT_EQ(edits.items().size(), 3u);
  for (const json::Value& edit : edits.items()) EXPECT_EQ(edit.find("newText")->text(), R"("design \"v2\"")");
}

TEST(LspRename, RefusesACollisionAnEmptyNameAndAPlaceWithoutId) {
  const Position on_build = at(kPlan, "\"temp_id\": \"build\"", 12);
  Reply taken = rename(document_of(kPlan), on_build, "3");
  EXPECT_EQ(taken.error_code, -32803);
  EXPECT_NE(taken.error_message.find("already the temp_id of the story at line 5"), std::string::npos)
      << taken.error_message;
  EXPECT_EQ(rename(document_of(kPlan), on_build, "1").error_code, -32803);  // "1" is integer 1's text
  EXPECT_EQ(rename(document_of(kPlan), on_build, "").error_code, -32602);
  EXPECT_EQ(rename(document_of(kPlan), on_build, "  ").error_code, -32602);
  EXPECT_EQ(rename(document_of(kPlan), at(kPlan, "Build\""), "x").error_code, -32803);
  // "007" is no integer's spelling: a string, which no story has yet.
  auto reply = answer(rename(document_of(kPlan), on_build, "007"));
  EXPECT_EQ(reply->at("/changes/" + json::pointer_escape(kUri)).items().size(), 2u);
}

// ---------------------------------------------------------------------------------------------
// hover

TEST(LspHover, AStoryShowsItsDeclaredAndScheduledDatesFloatAndCriticality) {
  auto reply = answer(hover(document_of(kPlan), at(kPlan, "relative_start_date")));
  EXPECT_EQ(reply->string("/contents/kind"), "markdown");
  const std::string md = reply->string("/contents/value");
  EXPECT_NE(md.find("**\xC3\xA9\xF0\x9F\x8E\x89** · task · temp_id `1`"), std::string::npos) << md;
  EXPECT_NE(md.find("| declared | day 0 | — | 3 days |"), std::string::npos) << md;
  EXPECT_NE(md.find("| scheduled | day 0 | day 2 | 3 days |"), std::string::npos) << md;
  EXPECT_NE(md.find("Total float: 0 working days · **critical**"), std::string::npos) << md;
  EXPECT_EQ(reply->root().find("range"), nullptr);
}

TEST(LspHover, OnADependencyIdShowsTheStoryItNamesWithItsRollUps) {
  auto reply = answer(hover(document_of(kPlan), at(kPlan, "\"target_id\": \"build\"", 14)));
  const std::string md = reply->string("/contents/value");
  EXPECT_NE(md.find("**Build** · task · temp_id `build` · 2 sub-stories"), std::string::npos) << md;
  // Build's subtree starts after story 1 finishes (FS): its milestone is the moment story 1
  // finishes, at the end of day 2 (docs/semantics.md §4), and Compile, which must finish no
  // earlier (FF), takes day 3; Build shows days 2 to 3.
  EXPECT_NE(md.find("| scheduled | day 2 | day 3 | 2 days |"), std::string::npos) << md;
  EXPECT_NE(md.find("Budget: 25 (2500 cents), the sum of its sub-stories'"), std::string::npos) << md;
  EXPECT_EQ(reply->range("/range"), (Range{{2, 50}, {2, 57}}));
}

TEST(LspHover, UsesTheDocumentsCalendarBlockAndCurrency) {
  const std::string doc =
      "{\"project_template\": {\"title\": \"T\", \"currency\": \"EUR\", \"raw_json\": [\n"
      "  {\"title\": \"Kick-off\", \"temp_id\": 1, \"duration\": 2, \"budget_estimate_in_cents\": 12345},\n"
      "  {\"title\": \"Slack\", \"temp_id\": 2, \"relative_start_date\": 1, \"duration\": 1}\n"
      "]},\n"
      " \"calendar\": {\"start\": \"2027-01-07\", \"week\": [\"mon\", \"tue\", \"wed\", \"thu\", \"fri\"]}}\n";
  const std::string md = answer(hover(document_of(doc), at(doc, "Kick-off")))->string("/contents/value");
  // Day 0 is Thursday 7 January; day 1 is Friday 8 January.
  EXPECT_NE(md.find("| scheduled | 2027-01-07 | 2027-01-08 | 2 days |"), std::string::npos) << md;
  EXPECT_NE(md.find("Budget: 123.45 EUR (12345 cents)"), std::string::npos) << md;
  const std::string slack = answer(hover(document_of(doc), at(doc, "Slack")))->string("/contents/value");
  EXPECT_NE(slack.find("| declared | day 1 (2027-01-08) | — | 1 day |"), std::string::npos) << slack;
  EXPECT_NE(slack.find("Total float: 0 working days"), std::string::npos) << slack;
}

TEST(LspHover, ABlocksFinishShowsTheLatestStartAndItsDates) {
  const std::string doc =
      "{\"project_template\": {\"title\": \"T\", \"raw_json\": [{\"title\": \"A\", \"duration\": 3}]},\n"
      " \"calendar\": {\"finish\": \"2027-06-30\"}}\n";
  const std::string md = answer(hover(document_of(doc), at(doc, "\"A\"")))->string("/contents/value");
  // Three working days end on Wednesday 30 June 2027: Monday 28 June is day 0.
  EXPECT_NE(md.find("| scheduled | 2027-06-28 | 2027-06-30 | 3 days |"), std::string::npos) << md;
  EXPECT_NE(md.find("Latest start: 2027-06-28 (day 0), for the calendar block's finish 2027-06-30"), std::string::npos)
      << md;
}

TEST(LspHover, ACalendarBlockWithAProblemIsNamedAndDaysAreShown) {
  const std::string doc =
      "{\"project_template\": {\"title\": \"T\", \"raw_json\": [{\"title\": \"A\", \"duration\": 2}]},\n"
      " \"calendar\": {\"start\": \"2027-02-30\"}}\n";
  const std::string md = answer(hover(document_of(doc), at(doc, "\"A\"")))->string("/contents/value");
  EXPECT_NE(md.find("| scheduled | day 0 | day 1 | 2 days |"), std::string::npos) << md;
  EXPECT_NE(md.find("The calendar block is not used: "), std::string::npos) << md;
  EXPECT_NE(md.find("2027\\-02\\-30"), std::string::npos) << md;  // the message, Markdown escaped
}

TEST(LspHover, ACycleHasNoScheduleAndNothingOutsideAStory) {
  const std::string doc =
      R"([{"title": "A", "temp_id": 1, "dependencies": [{"source_id": 1, "target_id": 2, "type": 2}]},)"
      "\n"
      R"( {"title": "B", "temp_id": 2, "dependencies": [{"source_id": 2, "target_id": 1, "type": 2}]}])";
  const std::string md = answer(hover(document_of(doc), at(doc, "\"B\"")))->string("/contents/value");
  EXPECT_NE(md.find("Not scheduled: the dependencies form a cycle"), std::string::npos) << md;
  EXPECT_EQ(md.find("| scheduled |"), std::string::npos);
  EXPECT_EQ(hover(document_of(doc), {0, 0}).result, "null");
  EXPECT_EQ(hover(document_of("[{\"title\": "), {0, 5}).result, "null");
}

// ---------------------------------------------------------------------------------------------
// completion

std::vector<std::string> labels(const Answer& reply) {
  std::vector<std::string> out;
  for (const json::Value& item : reply.at("/items").items()) out.emplace_back(item.find("label")->text());
  return out;
}

// `text` cut at the marker `|`, the cursor there.
struct Typed {
  std::string text;
  Position cursor;
};
Typed typed(std::string_view with_marker) {
  const std::size_t bar = with_marker.find('|');
  std::string text(with_marker.substr(0, bar));
  text += with_marker.substr(bar + 1);
  return {text, TextPositions(text).position(bar)};
}

TEST(LspCompletion, TempIdsInATargetIdOfTextThatDoesNotParse) {
  auto t = typed(
      "[{\"title\": \"Design\", \"temp_id\": 1},\n"
      " {\"title\": \"Bau \xC3\xA9tape\", \"temp_id\": \"build\", \"dependencies\": [{\"source_id\": \"build\", "
      "\"target_id\": |\n"
      " {\"title\": \"Later\", \"temp_id\": 7}");
  auto reply = answer(completion(document_of(t.text), t.cursor));
  EXPECT_EQ(labels(*reply), (std::vector<std::string>{"1", "build", "7"}));
  EXPECT_EQ(reply->string("/items/1/detail"), "Bau \xC3\xA9tape");
  EXPECT_EQ(reply->string("/items/0/textEdit/newText"), "1");
  EXPECT_EQ(reply->string("/items/1/textEdit/newText"), "\"build\"");
  EXPECT_EQ(reply->range("/items/1/textEdit/range"), (Range{t.cursor, t.cursor}));
}

// Every JSON escape in a title or a string temp_id is decoded as the reader decodes it.
TEST(LspCompletion, TitlesAndIdsHaveEveryEscapeDecoded) {
  auto t = typed(
      "[{\"title\": \"Say \\\"hi\\\" \\\\ \\/ \\b\\f\\n\\r\\t \\u00e9 \\ud83c\\udf89\", \"temp_id\": \"caf\\u00e9\"},\n"
      " {\"title\": \"B\", \"temp_id\": 2, \"dependencies\": [{\"source_id\": 2, \"target_id\": |");
  auto reply = answer(completion(document_of(t.text), t.cursor));
  EXPECT_EQ(labels(*reply), (std::vector<std::string>{"caf\xC3\xA9", "2"}));
  EXPECT_EQ(reply->string("/items/0/detail"), "Say \"hi\" \\ / \b\f\n\r\t \xC3\xA9 \xF0\x9F\x8E\x89");
  EXPECT_EQ(reply->string("/items/0/textEdit/newText"), "\"caf\\u00e9\"");
}

TEST(LspCompletion, APartlyTypedStringIdIsReplacedWholeAndTheOwnerComesFirstForSourceId) {
  auto t = typed(
      "[{\"title\": \"Design\", \"temp_id\": 1},\n"
      " {\"title\": \"Build\", \"temp_id\": \"build\", \"dependencies\": [{\"source_id\": \"bu|");
  auto reply = answer(completion(document_of(t.text), t.cursor));
  ASSERT_EQ(labels(*reply).size(), 2u);
  // sortText puts the story that holds the dependency first.
  std::string first_sort, second_sort;
  for (const json::Value& item : reply->at("/items").items())
    (item.find("label")->text() == "build" ? first_sort : second_sort) = std::string(item.find("sortText")->text());
  EXPECT_LT(first_sort, second_sort);
  EXPECT_EQ(reply->string("/items/1/filterText"), "\"build\"");
  const Range range = reply->range("/items/1/textEdit/range");
  EXPECT_EQ(range.end, t.cursor);
  EXPECT_EQ(range.start.character, t.cursor.character - 3);  // from the opening quote
}

TEST(LspCompletion, StoryKeysDocumentedFirstWithoutThoseWritten) {
  auto t = typed("[{\"title\": \"A\", \"due_date\": 3},\n {\"title\": \"B\", \"ti|");
  auto reply = answer(completion(document_of(t.text), t.cursor));
  const std::vector<std::string> got = labels(*reply);
  ASSERT_EQ(got.size(), 16u) << reply->text;  // 15 documented (not title) + due_date
  EXPECT_EQ(got.front(), "story_type");
  EXPECT_EQ(got.back(), "due_date");
  EXPECT_EQ(std::count(got.begin(), got.end(), "title"), 0);
  EXPECT_LT(reply->string("/items/0/sortText"), reply->string("/items/15/sortText"));
  EXPECT_NE(reply->string("/items/1/documentation/value").find("unique across the whole template"), std::string::npos);
  EXPECT_EQ(reply->string("/items/1/textEdit/newText"), "\"temp_id\": ");
}

TEST(LspCompletion, KeysOfAnExistingMemberGetNoSecondColonAndDependencyKeys) {
  auto t = typed("[{\"title\": \"A\", \"dependencies\": [{\"source_id\": 1, |\"x\": 2}]}]");
  auto reply = answer(completion(document_of(t.text), t.cursor));
  EXPECT_EQ(labels(*reply), (std::vector<std::string>{"target_id", "type", "lag"}));
  auto u = typed("[{\"title\": \"A\", \"sto|\": \"task\"}]");
  auto keys = answer(completion(document_of(u.text), u.cursor));
  EXPECT_EQ(keys->string("/items/0/textEdit/newText"), "\"story_type\"");
  EXPECT_EQ(keys->range("/items/0/textEdit/range").end.character, u.cursor.character + 1);  // the closing quote
}

TEST(LspCompletion, StoryTypeValuesAndDependencyTypesWithTheirNames) {
  auto t = typed("[{\"title\": \"A\", \"story_type\": |");
  auto types = answer(completion(document_of(t.text), t.cursor));
  EXPECT_EQ(labels(*types), (std::vector<std::string>{"task", "deliverable", "milestone"}));
  EXPECT_EQ(types->string("/items/2/textEdit/newText"), "\"milestone\"");
  auto d = typed(
      "[{\"title\": \"A\", \"temp_id\": 1, \"dependencies\": [{\"source_id\": 1, \"type\": |, \"target_id\": 2}]}]");
  auto links = answer(completion(document_of(d.text), d.cursor));
  EXPECT_EQ(labels(*links), (std::vector<std::string>{"0", "1", "2", "3"}));
  // docs/semantics.md §5: 0 = SS, 1 = SF, 2 = FS, 3 = FF.
  EXPECT_EQ(links->string("/items/0/detail"), "SS · start-to-start");
  EXPECT_EQ(links->string("/items/1/detail"), "SF · start-to-finish");
  EXPECT_EQ(links->string("/items/2/detail"), "FS · finish-to-start");
  EXPECT_EQ(links->string("/items/3/detail"), "FF · finish-to-finish");
  EXPECT_NE(links->string("/items/2/documentation/value").find("B starts no earlier than A finishes"),
            std::string::npos);
}

TEST(LspCompletion, NothingOutsideAKnownPlace) {
  auto in_title = typed("[{\"title\": \"Des|ign\"}]");
  EXPECT_EQ(completion(document_of(in_title.text), in_title.cursor).result, "null");
  auto after_value = typed("[{\"title\": \"Design\" | }]");
  EXPECT_EQ(completion(document_of(after_value.text), after_value.cursor).result, "null");
  auto top = typed("{\"project_template\": {\"ti|");  // a template's keys are not a story's
  EXPECT_EQ(completion(document_of(top.text), top.cursor).result, "null");
  EXPECT_EQ(completion(document_of(""), {0, 0}).result, "null");
}

TEST(LspCompletion, StoriesOfATemplateDocumentAndSubStories) {
  auto t = typed("{\"project_template\": {\"raw_json\": [{\"title\": \"P\", \"sub_stories\": [{\"|");
  auto reply = answer(completion(document_of(t.text), t.cursor));
  EXPECT_EQ(labels(*reply).front(), "story_type");
  EXPECT_EQ(labels(*reply).size(), 16u);
}

TEST(LspCompletion, ALargeTemplateOffersTheIdsThatStartWithWhatIsTyped) {
  std::string text = "[";
  for (int i = 1; i <= 1500; ++i) text += "{\"title\": \"S\", \"temp_id\": " + std::to_string(i) + "},\n";
  text += "{\"title\": \"Last\", \"dependencies\": [{\"source_id\": 1, \"target_id\": 14|";
  auto t = typed(text);
  auto reply = answer(completion(document_of(t.text), t.cursor));
  const std::vector<std::string> got = labels(*reply);
  // 14, 140–149, 1400–1499.
  ASSERT_EQ(got.size(), 111u);
  for (const std::string& label : got) EXPECT_EQ(label.rfind("14", 0), 0u) << label;
  EXPECT_EQ(reply->at("/isIncomplete").kind(), json::Kind::True);
  auto small = typed("[{\"temp_id\": 1, \"dependencies\": [{\"target_id\": |");
  EXPECT_EQ(answer(completion(document_of(small.text), small.cursor))->at("/isIncomplete").kind(), json::Kind::False);
}

TEST(LspFeatures, TenThousandStoriesAnswerFromOneReading) {
  std::string text = "[\n";
  for (int i = 1; i <= 10000; ++i) {
    text += "{\"title\": \"Story " + std::to_string(i) + "\", \"temp_id\": " + std::to_string(i) + ", \"duration\": 1";
    if (i > 1)
      text += ", \"dependencies\": [{\"source_id\": " + std::to_string(i) +
              ", \"target_id\": " + std::to_string(i - 1) + ", \"type\": 2}]";
    text += i < 10000 ? "},\n" : "}\n]\n";
  }
  const OpenDocument document = document_of(text);
  auto reply = answer(definition(document, at(text, "\"target_id\": 9999", 13)));
  EXPECT_EQ(reply->range("/0/range").start, at(text, "\"temp_id\": 9999", 11));
  const std::string md = answer(hover(document, at(text, "Story 1\"")))->string("/contents/value");
  // Each story is the source of a finish-to-start link to the one before it: story 1 comes last.
  EXPECT_NE(md.find("| scheduled | day 9999 | day 9999 | 1 day |"), std::string::npos) << md;
  EXPECT_EQ(answer(document_symbols(document))->root().items().size(), 10000u);
  EXPECT_EQ(answer(workspace_symbols({&document, 1}, "story 1000"))->root().items().size(), 2u);  // 1000, 10000
}

TEST(LspFeatures, EveryPrefixOfADocumentAndEveryPositionGetsAnAnswer) {
  // As an author types: each prefix of the plan, the cursor at its end and in its middle; then
  // the whole plan at every position. Each answer is null or valid JSON, never an error.
  auto valid = [](const Reply& reply) {
    EXPECT_EQ(reply.error_code, 0);
    return json::Document::parse(reply.result).ok();
  };
  std::size_t answered = 0;
  for (std::size_t cut = 0; cut <= kPlan.size(); ++cut) {
    const OpenDocument document = document_of(kPlan.substr(0, cut));
    const TextPositions positions(document.text);
    for (std::uint64_t offset : {std::uint64_t{cut}, std::uint64_t{cut / 2}}) {
      const Position cursor = positions.position(offset);
      EXPECT_TRUE(valid(completion(document, cursor))) << cut;
      EXPECT_TRUE(valid(hover(document, cursor))) << cut;
      EXPECT_TRUE(valid(definition(document, cursor))) << cut;
      answered += completion(document, cursor).result != "null" ? 1 : 0;
    }
    EXPECT_TRUE(valid(document_symbols(document))) << cut;
  }
  EXPECT_GT(answered, 100u);  // completion found a place in many of them
  const OpenDocument whole = document_of(kPlan);
  const TextPositions positions(kPlan);
  std::size_t on_ids = 0;
  for (std::uint64_t offset = 0; offset <= kPlan.size(); ++offset) {
    const Position cursor = positions.position(offset);
    EXPECT_TRUE(valid(completion(whole, cursor)));
    EXPECT_TRUE(valid(hover(whole, cursor)));
    EXPECT_TRUE(valid(references(whole, cursor, true)));
    const Reply prepared = prepare_rename(whole, cursor);
    on_ids += prepared.error_code == 0 ? 1 : 0;
  }
  // 13 id values: 9 integers of one digit (2 cursor places each: on it, just after it), and
  // "build" twice (8 places each), "4" and "1" (4 each).
  EXPECT_EQ(on_ids, 9u * 2 + 8 + 8 + 4 + 4);
}

// ---------------------------------------------------------------------------------------------
// symbols

TEST(LspDocumentSymbols, TheStoryTreeWithTitlesTypesAndDates) {
  auto reply = answer(document_symbols(document_of(kPlan)));
  ASSERT_EQ(reply->root().items().size(), 3u) << reply->text;
  EXPECT_EQ(reply->string("/0/name"), "\xC3\xA9\xF0\x9F\x8E\x89");
  EXPECT_EQ(reply->string("/0/detail"), "task · from day 0, 3 days");
  EXPECT_EQ(reply->number("/0/kind"), 19);
  EXPECT_EQ(reply->range("/0/range"), (Range{{1, 2}, {2, 71}}));
  EXPECT_EQ(reply->range("/0/selectionRange"), (Range{{1, 12}, {1, 17}}));
  EXPECT_EQ(reply->at("/0/children").items().size(), 0u);
  EXPECT_EQ(reply->string("/1/name"), "Build");
  ASSERT_EQ(reply->at("/1/children").items().size(), 2u);
  EXPECT_EQ(reply->string("/1/children/0/name"), "Compile");
  // No title: "(untitled)", its temp_id selected.
  EXPECT_EQ(reply->string("/1/children/1/name"), "(untitled)");
  EXPECT_EQ(reply->string("/1/children/1/detail"), "milestone");
  EXPECT_EQ(reply->number("/1/children/1/kind"), 24);
  EXPECT_EQ(reply->range("/1/children/1/selectionRange").start, at(kPlan, "\"temp_id\": 4", 11));
}

TEST(LspDocumentSymbols, StoriesInARawJsonStringSpanTheStringAndTemplatesGroupThem) {
  // Template 2 is written first, template 1 (its stories in a raw_json string) second.
  const std::string envelope =
      R"({"count": 2, "results": [{"key": "project_templates", "id": 1}, {"key": "project_templates", "id": 2}],)"
      "\n"
      R"("project_templates": {"2": {"id": 2, "title": "Two", "raw_json": [{"title": "B"}]},)"
      "\n"
      R"("1": {"id": 1, "title": "One", "raw_json": "[{\"title\": \"A\", \"sub_stories\": [{\"title\": \"A1\"}]}]"}}})";
  auto reply = answer(document_symbols(document_of(envelope)));
  ASSERT_EQ(reply->root().items().size(), 2u) << reply->text;
  EXPECT_EQ(reply->string("/0/name"), "One");
  EXPECT_EQ(reply->number("/0/kind"), 2);
  EXPECT_EQ(reply->string("/0/children/0/name"), "A");
  EXPECT_EQ(reply->string("/0/children/0/children/0/name"), "A1");
  const Range string_range = reply->range("/0/children/0/range");
  EXPECT_EQ(string_range.start, at(envelope, "\"[{"));
  EXPECT_EQ(reply->range("/0/children/0/children/0/range"), string_range);
  EXPECT_EQ(reply->string("/1/children/0/name"), "B");
  EXPECT_EQ(reply->range("/1/children/0/range").start, at(envelope, "{\"title\": \"B\"}"));
  EXPECT_EQ(reply->range("/1/range").start, at(envelope, "{\"id\": 2"));
  EXPECT_EQ(document_symbols(document_of("[{")).result, "null");
  EXPECT_EQ(document_symbols(document_of("[]")).result, "[]");
}

TEST(LspWorkspaceSymbols, TitlesMatchingTheQueryInEveryDocument) {
  std::vector<OpenDocument> documents{document_of(kPlan),
                                      {"file:///b.json", "/b.json", R"([{"title": "Rebuild docs"}])", 1},
                                      {"file:///broken.json", "/broken.json", "[{", 1}};
  auto reply = answer(workspace_symbols(documents, "BUILD"));
  ASSERT_EQ(reply->root().items().size(), 2u) << reply->text;
  EXPECT_EQ(reply->string("/0/name"), "Build");
  EXPECT_EQ(reply->string("/0/location/uri"), kUri);
  EXPECT_EQ(reply->range("/0/location/range").start, (Position{3, 2}));
  EXPECT_EQ(reply->string("/1/name"), "Rebuild docs");
  EXPECT_EQ(reply->string("/1/location/uri"), "file:///b.json");
  auto compile = answer(workspace_symbols(documents, "comp"));
  EXPECT_EQ(compile->string("/0/containerName"), "Build");
  EXPECT_EQ(answer(workspace_symbols(documents, ""))->root().items().size(), 6u);
  EXPECT_EQ(workspace_symbols(documents, "nothing like it").result, "[]");
}

}  // namespace
}  // namespace ptmpl::lsp
