// The one story writer: canonical order whatever order a producer fills fields in, only what a
// record holds, unknown keys after the documented ones, outlines written without recursion.
#include "libtemplate/core/story_writer.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libtemplate/core/template_file.hpp"
#include "libtemplate/core/writer.hpp"

namespace ptmpl {
namespace {

// What `fmt` makes of `text`: the canonical form the writer must produce by itself.
std::string canonical(const std::string& text) {
  const TemplateFile file = TemplateFile::parse("t.json", FileText(text));
  return write_canonical(file.document().root(), Shape::TemplateDocument);
}

TEST(StoryWriter, WritesCanonicalOrderAndOnlyWhatIsHeld) {
  json::Arena arena;
  const json::Builder build(arena);
  Template head;
  head.title = "Release";
  head.currency = "EUR";
  head.is_budgeted = true;
  head.budget = build.number_spelled("12.50");
  head.item_count = 2;
  head.assignments.push_back({7, "Engineer"});
  CalendarBlock calendar;
  calendar.start = Date{std::chrono::year{2027} / std::chrono::January / 4};
  calendar.week = WorkWeek();
  calendar.week->add(std::chrono::Monday);
  calendar.holidays.push_back(Date{std::chrono::year{2027} / std::chrono::January / 5});
  head.calendar = calendar;

  Story child;
  child.title = "Build";
  child.temp_id = std::string_view("b-1");
  child.time_estimate_in_minutes = 120;
  child.duration = 2;
  const std::int64_t assignees[] = {7};
  child.assignments = std::span<const std::int64_t>(assignees);
  child.billable = false;
  Dependency link;
  link.source_id = std::string_view("b-1");
  link.target_id = std::int64_t{9};
  link.type = 2;
  link.lag = 1;
  child.dependencies = std::span<const Dependency>(&link, 1);
  const json::Member extra[] = {build.member("x_note", build.string("kept"))};
  child.extra = std::span<const json::Member>(extra);

  Story parent;
  parent.story_type = StoryType::Deliverable;
  parent.title = "Phase";
  parent.temp_id = std::int64_t{1};
  parent.sub_stories = std::span<const Story>(&child, 1);
  const std::string_view items[] = {"Review"};
  parent.checklist = std::span<const std::string_view>(items);
  parent.weight = 3;
  head.stories = std::span<const Story>(&parent, 1);

  const std::string written = write_template(head);
  EXPECT_EQ(written, canonical(written));
  EXPECT_NE(written.find("\"temp_id\": \"b-1\""), std::string::npos);
  EXPECT_NE(written.find("\"x_note\": \"kept\""), std::string::npos);
  EXPECT_NE(written.find("\"holidays\": [\n      \"2027-01-05\"\n    ]"), std::string::npos) << written;
  // Nothing the records do not hold: no empty lists, no description, no dates.
  EXPECT_EQ(written.find("description"), std::string::npos);
  EXPECT_EQ(written.find("relative_start_date"), std::string::npos);
  EXPECT_EQ(written.find("tag_list"), std::string::npos);
  // Keys after sub_stories come after the children.
  EXPECT_LT(written.find("\"Build\""), written.find("\"checklist\""));
  EXPECT_LT(written.find("\"checklist\""), written.find("\"weight\": 3"));
}

// An outline as lists of children: the same document as the model's recursive form, for an
// outline deeper than a recursive writer's stack would like.
TEST(StoryWriter, OutlineMatchesTheRecursiveForm) {
  constexpr std::size_t kDepth = 5000;
  std::vector<std::vector<std::size_t>> children(kDepth);
  for (std::size_t i = 0; i + 1 < kDepth; ++i) children[i].push_back(i + 1);
  std::vector<std::string> titles;
  for (std::size_t i = 0; i < kDepth; ++i) titles.push_back("Level " + std::to_string(i));
  auto story_of = [&](std::size_t i) {
    Story story;
    story.title = std::string_view(titles[i]);
    story.temp_id = static_cast<std::int64_t>(i);
    return story;
  };
  JsonEmitter json(JsonLayout::Compact);
  StoryWriter out(json);
  Template head;
  head.title = "Deep";
  out.begin_template(head);
  const std::size_t roots[] = {0};
  out.outline(
      roots, [&](std::size_t i) -> const std::vector<std::size_t>& { return children[i]; }, story_of);
  out.end_template(head);
  const std::string text = json.finish();

  std::string expected = R"({"project_template":{"title":"Deep","raw_json":[)";
  for (std::size_t i = 0; i < kDepth; ++i) {
    expected += R"({"title":"Level )" + std::to_string(i) + R"(","temp_id":)" + std::to_string(i);
    if (i + 1 < kDepth) expected += R"(,"sub_stories":[)";
  }
  for (std::size_t i = 0; i < kDepth; ++i) expected += i == 0 ? "}" : "]}";
  expected += "]}}";
  EXPECT_EQ(text, expected);
}

}  // namespace
}  // namespace ptmpl
