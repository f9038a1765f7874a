// Declared intervals (libtemplate/core/intervals.hpp): leaves from their dates, parents rolled up,
// the project's span, pre-order numbering.
#include "libtemplate/core/intervals.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "libtemplate/core/template_file.hpp"

namespace ptmpl::intervals_test {
namespace {

/// A parsed story list and the intervals of its first template.
struct Parsed {
  TemplateFile file;
  DeclaredIntervals intervals;

  explicit Parsed(std::string text)
      : file(TemplateFile::parse("test.json", FileText(std::move(text)))), intervals(stories()) {}

  [[nodiscard]] std::span<const Story> stories() const {
    return file.templates().empty() ? std::span<const Story>() : file.templates()[0].model.stories;
  }
};

std::optional<Interval> leaf(const std::string& story) {
  Parsed parsed("[" + story + "]");
  EXPECT_EQ(parsed.stories().size(), 1u);
  return own_interval(parsed.stories()[0]);
}

TEST(OwnInterval, TaskFromItsDates) {
  EXPECT_EQ(leaf(R"({"title": "t", "relative_start_date": 2, "relative_due_date": 4})"), (Interval{2, 5, 4}));
  // A one-day task: [S, S + 1).
  EXPECT_EQ(leaf(R"({"title": "t", "relative_start_date": 3, "relative_due_date": 3})"), (Interval{3, 4, 3}));
  // A duration wins over a due date that disagrees with it (story_length(), docs/semantics.md §5); before,
  // the due date won: {2, 5, 4}.
  EXPECT_EQ(leaf(R"({"title": "t", "relative_start_date": 2, "relative_due_date": 4, "duration": 9})"),
            (Interval{2, 11, 10}));
  EXPECT_EQ(leaf(R"({"story_type": "deliverable", "title": "d", "relative_start_date": 0, "relative_due_date": 9})"),
            (Interval{0, 10, 9}));
}

/// story_length() of the single story in `story`.
std::optional<std::int64_t> length(const std::string& story) {
  Parsed parsed("[" + story + "]");
  EXPECT_EQ(parsed.stories().size(), 1u);
  return story_length(parsed.stories()[0]);
}

TEST(StoryLength, DurationThenSpanThenOneDay) {
  EXPECT_EQ(length(R"({"title": "t", "relative_start_date": 0, "relative_due_date": 5, "duration": 2})"), 2);
  EXPECT_EQ(length(R"({"title": "t", "duration": 0})"), 0);
  EXPECT_EQ(length(R"({"title": "t", "relative_start_date": 2, "relative_due_date": 5})"), 4);
  EXPECT_EQ(length(R"({"title": "t", "relative_start_date": -3, "relative_due_date": -3})"), 1);
  // No span: due before start, or a date missing; a negative duration is not a length.
  EXPECT_EQ(length(R"({"title": "t", "relative_start_date": 5, "relative_due_date": 3})"), 1);
  EXPECT_EQ(length(R"({"title": "t", "relative_due_date": 3})"), 1);
  EXPECT_EQ(length(R"({"story_type": "deliverable", "title": "d", "duration": -4})"), 1);
  EXPECT_EQ(length(R"({"title": "t"})"), 1);
}

TEST(StoryLength, MilestoneIsZeroAndAParentIsItsOwnDeclaration) {
  EXPECT_EQ(length(R"({"story_type": "milestone", "title": "m", "relative_start_date": 1, "relative_due_date": 4,
                       "duration": 3})"),
            0);
  EXPECT_EQ(length(R"({"title": "p", "duration": 7, "sub_stories": [{"title": "c"}]})"), 7);
}

TEST(StoryLength, ASpanBeyond64BitsIsAbsent) {
  const std::string min = std::to_string(std::numeric_limits<std::int64_t>::min());
  const std::string max = std::to_string(std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(length(R"({"title": "t", "relative_start_date": )" + min + R"(, "relative_due_date": )" + max + "}"),
            std::nullopt);
  EXPECT_EQ(length(R"({"title": "t", "relative_start_date": 0, "relative_due_date": )" + max + "}"), std::nullopt);
  EXPECT_EQ(length(R"({"title": "t", "relative_start_date": 1, "relative_due_date": )" + max + "}"),
            std::numeric_limits<std::int64_t>::max());
}

TEST(OwnInterval, TaskWithoutDueFallsBackToDurationThenOneDay) {
  EXPECT_EQ(leaf(R"({"title": "t", "relative_start_date": 2, "duration": 3})"), (Interval{2, 5, 4}));
  EXPECT_EQ(leaf(R"({"title": "t", "relative_start_date": 2})"), (Interval{2, 3, 2}));
  // A zero-length task still occupies its start day, like a milestone.
  EXPECT_EQ(leaf(R"({"title": "t", "relative_start_date": 2, "duration": 0})"), (Interval{2, 2, 2}));
  // A negative duration (a schema finding) is not a length.
  EXPECT_EQ(leaf(R"({"title": "t", "relative_start_date": 2, "duration": -4})"), (Interval{2, 3, 2}));
}

TEST(OwnInterval, MilestoneIsAPointOnItsStartDay) {
  EXPECT_EQ(leaf(R"({"story_type": "milestone", "title": "m", "relative_start_date": 7, "relative_due_date": 7,
                     "duration": 0})"),
            (Interval{7, 7, 7}));
  // Its due and duration are not used (milestone-span and duration-mismatch report them).
  EXPECT_EQ(leaf(R"({"story_type": "milestone", "title": "m", "relative_start_date": 7, "relative_due_date": 9,
                     "duration": 3})"),
            (Interval{7, 7, 7}));
  EXPECT_EQ(leaf(R"({"story_type": "milestone", "title": "m", "relative_start_date": 7})"), (Interval{7, 7, 7}));
  EXPECT_EQ((Interval{7, 7, 7}).length(), 0);
}

TEST(OwnInterval, NegativeOffsets) {
  EXPECT_EQ(leaf(R"({"title": "t", "relative_start_date": -5, "relative_due_date": -1})"), (Interval{-5, 0, -1}));
  EXPECT_EQ(leaf(R"({"title": "t", "relative_start_date": -1, "duration": 1})"), (Interval{-1, 0, -1}));
  EXPECT_EQ(leaf(R"({"story_type": "milestone", "title": "m", "relative_start_date": -3})"), (Interval{-3, -3, -3}));
}

TEST(OwnInterval, NoneWithoutAStartOrWithDueBeforeStart) {
  EXPECT_EQ(leaf(R"({"title": "t"})"), std::nullopt);
  EXPECT_EQ(leaf(R"({"title": "t", "duration": 4})"), std::nullopt);
  EXPECT_EQ(leaf(R"({"title": "t", "relative_due_date": 4, "duration": 2})"), std::nullopt);
  EXPECT_EQ(leaf(R"({"story_type": "milestone", "title": "m", "relative_due_date": 4})"), std::nullopt);
  EXPECT_EQ(leaf(R"({"title": "t", "relative_start_date": 5, "relative_due_date": 3})"), std::nullopt);
  // Not an integer: absent in the model, so no start.
  EXPECT_EQ(leaf(R"({"title": "t", "relative_start_date": "5", "relative_due_date": 6})"), std::nullopt);
}

TEST(OwnInterval, NoneWhenTheFinishOverflows) {
  const std::string max = std::to_string(std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(leaf(R"({"title": "t", "relative_start_date": 0, "relative_due_date": )" + max + "}"), std::nullopt);
  EXPECT_EQ(leaf(R"({"title": "t", "relative_start_date": )" + max + R"(, "duration": 2})"), std::nullopt);
  // The last representable finish is fine.
  EXPECT_EQ(leaf(R"({"title": "t", "relative_start_date": 0, "relative_due_date": )" +
                 std::to_string(std::numeric_limits<std::int64_t>::max() - 1) + "}"),
            (Interval{0, std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::max() - 1}));
}

TEST(DeclaredIntervals, PreOrderNumbering) {
  // 0 A { 1 B { 2 C }, 3 D }, 4 E
  Parsed p(R"([
    {"title": "A", "sub_stories": [
      {"title": "B", "sub_stories": [{"title": "C"}]},
      {"title": "D"}]},
    {"title": "E"}])");
  const DeclaredIntervals& d = p.intervals;
  ASSERT_EQ(d.size(), 5u);
  const char* titles[] = {"A", "B", "C", "D", "E"};
  for (std::size_t i = 0; i < d.size(); ++i) {
    EXPECT_EQ(d.story(i).title, titles[i]);
  }
  EXPECT_EQ(d.parent(0), DeclaredIntervals::npos);
  EXPECT_EQ(d.parent(1), 0u);
  EXPECT_EQ(d.parent(2), 1u);
  EXPECT_EQ(d.parent(3), 0u);
  EXPECT_EQ(d.parent(4), DeclaredIntervals::npos);
  EXPECT_EQ(d.subtree_end(0), 4u);
  EXPECT_EQ(d.subtree_end(1), 3u);
  EXPECT_EQ(d.subtree_end(2), 3u);
  EXPECT_EQ(d.subtree_end(4), 5u);
  EXPECT_TRUE(d.is_ancestor(0, 2));
  EXPECT_TRUE(d.is_ancestor(1, 2));
  EXPECT_FALSE(d.is_ancestor(2, 0));
  EXPECT_FALSE(d.is_ancestor(1, 3));
  EXPECT_FALSE(d.is_ancestor(0, 0));
  EXPECT_FALSE(d.is_ancestor(0, 4));
}

TEST(DeclaredIntervals, ParentsRollUpIgnoringTheirOwnDates) {
  Parsed p(R"([
    {"title": "Phase", "relative_start_date": 50, "relative_due_date": 60, "duration": 11, "sub_stories": [
      {"title": "a", "relative_start_date": 2, "relative_due_date": 4},
      {"title": "b", "relative_start_date": 1, "relative_due_date": 2},
      {"title": "c", "relative_start_date": 3, "duration": 5}]}])");
  ASSERT_EQ(p.intervals.size(), 4u);
  EXPECT_EQ(p.intervals.interval(0), (Interval{1, 8, 7}));
  EXPECT_EQ(p.intervals.project(), (Interval{1, 8, 7}));
  EXPECT_EQ(p.intervals.project_duration(), 7);
}

TEST(DeclaredIntervals, ParentOfMilestonesOnly) {
  // Its half-open interval is empty, as a milestone's is, but it still occupies the days.
  Parsed p(R"([
    {"title": "Gates", "sub_stories": [
      {"story_type": "milestone", "title": "g1", "relative_start_date": 5, "relative_due_date": 5},
      {"story_type": "milestone", "title": "g2", "relative_start_date": 5, "relative_due_date": 5}]},
    {"title": "Reviews", "sub_stories": [
      {"story_type": "milestone", "title": "r1", "relative_start_date": 3},
      {"story_type": "milestone", "title": "r2", "relative_start_date": 8}]}])");
  EXPECT_EQ(p.intervals.interval(0), (Interval{5, 5, 5}));
  EXPECT_EQ(p.intervals.interval(3), (Interval{3, 8, 8}));
  EXPECT_EQ(p.intervals.project(), (Interval{3, 8, 8}));
  EXPECT_EQ(p.intervals.project_duration(), 6);  // days 3 to 8

  Parsed one(R"([{"story_type": "milestone", "title": "only", "relative_start_date": 0}])");
  EXPECT_EQ(one.intervals.project_duration(), 1) << "a lone milestone occupies its day";
}

TEST(DeclaredIntervals, MilestonesAtTheStartAndTheEnd) {
  Parsed p(R"([
    {"story_type": "milestone", "title": "Kick-off", "relative_start_date": 0, "relative_due_date": 0},
    {"title": "Work", "relative_start_date": 0, "relative_due_date": 8},
    {"story_type": "milestone", "title": "Go-live", "relative_start_date": 9, "relative_due_date": 9}])");
  // The last finish is the task's (F = 9 = the go-live's day); the last due is the go-live's.
  EXPECT_EQ(p.intervals.project(), (Interval{0, 9, 9}));
  EXPECT_EQ(p.intervals.project_duration(), 10);

  Parsed before(R"([
    {"story_type": "milestone", "title": "Contract signed", "relative_start_date": -2},
    {"title": "Work", "relative_start_date": 0, "relative_due_date": 4}])");
  EXPECT_EQ(before.intervals.project(), (Interval{-2, 5, 4}));
  EXPECT_EQ(before.intervals.project_duration(), 7);
}

TEST(DeclaredIntervals, NegativeOffsets) {
  Parsed p(R"([
    {"title": "Preparation", "sub_stories": [
      {"title": "a", "relative_start_date": -10, "relative_due_date": -6},
      {"title": "b", "relative_start_date": -5, "relative_due_date": -1}]},
    {"title": "Run", "relative_start_date": 0, "relative_due_date": 2}])");
  EXPECT_EQ(p.intervals.interval(0), (Interval{-10, 0, -1}));
  EXPECT_EQ(p.intervals.project(), (Interval{-10, 3, 2}));
  EXPECT_EQ(p.intervals.project_duration(), 13);
}

TEST(DeclaredIntervals, MissingDates) {
  Parsed p(R"([
    {"title": "Partly dated", "sub_stories": [
      {"title": "no dates"},
      {"title": "dated", "relative_start_date": 4, "relative_due_date": 5},
      {"title": "due only", "relative_due_date": 20}]},
    {"title": "Undated", "sub_stories": [{"title": "x", "duration": 3}, {"title": "y"}]},
    {"title": "Leaf without dates", "relative_due_date": 30}])");
  EXPECT_EQ(p.intervals.interval(1), std::nullopt);
  EXPECT_EQ(p.intervals.interval(0), (Interval{4, 6, 5})) << "rolled up over the children that have dates";
  EXPECT_EQ(p.intervals.interval(4), std::nullopt) << "no child has dates";
  EXPECT_EQ(p.intervals.interval(7), std::nullopt);
  EXPECT_EQ(p.intervals.project(), (Interval{4, 6, 5}));

  Parsed none(R"([{"title": "a"}, {"title": "b", "duration": 2}])");
  EXPECT_EQ(none.intervals.project(), std::nullopt);
  EXPECT_EQ(none.intervals.project_duration(), std::nullopt);

  Parsed empty("[]");
  EXPECT_EQ(empty.intervals.size(), 0u);
  EXPECT_EQ(empty.intervals.project_duration(), std::nullopt);
}

TEST(DeclaredIntervals, ProjectDurationThatDoesNotFitIsAbsent) {
  const auto min = std::numeric_limits<std::int64_t>::min();
  const auto max = std::numeric_limits<std::int64_t>::max();
  Parsed p("[{\"title\": \"a\", \"relative_start_date\": " + std::to_string(min) +
           ", \"duration\": 1}, {\"story_type\": \"milestone\", \"title\": \"b\", \"relative_start_date\": " +
           std::to_string(max) + "}]");
  EXPECT_EQ(p.intervals.project(), (Interval{min, max, max}));
  EXPECT_EQ(p.intervals.project_duration(), std::nullopt);
}

TEST(DeclaredIntervals, DeepNestingNeedsNoRecursion) {
  // 200,000 levels, built directly (the reader bounds nesting; the model itself does not).
  constexpr std::size_t kDepth = 200000;
  std::vector<Story> chain(kDepth);
  for (std::size_t i = 0; i < kDepth; ++i) {
    chain[i].title = "level";
    if (i + 1 < kDepth) chain[i].sub_stories = std::span<const Story>(&chain[i + 1], 1);
  }
  chain.back().relative_start_date = 4;
  chain.back().relative_due_date = 6;
  DeclaredIntervals d(std::span<const Story>(chain.data(), 1));
  ASSERT_EQ(d.size(), kDepth);
  EXPECT_EQ(d.interval(0), (Interval{4, 7, 6}));
  EXPECT_EQ(d.subtree_end(0), kDepth);
  EXPECT_EQ(d.parent(kDepth - 1), kDepth - 2);
  EXPECT_EQ(&d.story(kDepth / 2), &chain[kDepth / 2]);
}

}  // namespace
}  // namespace ptmpl::intervals_test
