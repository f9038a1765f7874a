// The date rules beyond their hand-counted findings (tests/data/rules/<id>/): the fixes they
// attach, how links into and out of parents are checked, and that consistent templates are clean.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/core/fix.hpp"
#include "libtemplate/core/generator.hpp"
#include "libtemplate/core/lint.hpp"

namespace ptmpl {
namespace {

std::vector<Diagnostic> of_rule(const std::vector<Diagnostic>& all, std::string_view rule) {
  std::vector<Diagnostic> out;
  std::copy_if(all.begin(), all.end(), std::back_inserter(out), [&](const Diagnostic& d) { return d.rule == rule; });
  return out;
}

std::vector<Diagnostic> lint_rule(std::string_view text, std::string_view rule) {
  return of_rule(lint_text("test.json", text), rule);
}

// The text with the fix of `finding` applied (as `ptmpl lint --fix --unsafe-fixes` does).
std::string with_fix(std::string_view text, const Diagnostic& finding) {
  FixResult result = apply_fixes(text, {finding}, FixOptions{.unsafe = true});
  EXPECT_EQ(result.applied, 1u);
  return result.text;
}

constexpr std::string_view kTemplate = R"({"project_template": {"title": "T", "duration": 4, "raw_json": [
  {"title": "Build", "temp_id": 1, "relative_start_date": 0, "relative_due_date": 5, "duration": 3}]}})";

TEST(DurationMismatch, FixSetsTheDurationToTheSpan) {
  const auto found = lint_rule(kTemplate, "duration-mismatch");
  ASSERT_EQ(found.size(), 1u);
  ASSERT_TRUE(found[0].fix.has_value());
  const std::string fixed = with_fix(kTemplate, found[0]);
  EXPECT_NE(fixed.find(R"("relative_due_date": 5, "duration": 6})"), std::string::npos) << fixed;
  EXPECT_TRUE(lint_rule(fixed, "duration-mismatch").empty());
}

TEST(DurationMismatch, MilestoneFixOnlyWhenItsDatesAgree) {
  const std::string agree = R"([{"story_type": "milestone", "title": "Go", "temp_id": 1, "relative_start_date": 4,)"
                            R"( "relative_due_date": 4, "duration": 1}])";
  auto found = lint_rule(agree, "duration-mismatch");
  ASSERT_EQ(found.size(), 1u);
  ASSERT_TRUE(found[0].fix.has_value());
  EXPECT_EQ(found[0].fix->replacement, "0");
  EXPECT_EQ(agree.substr(found[0].fix->offset, found[0].fix->length), "1");

  const std::string spanned = R"([{"story_type": "milestone", "title": "Go", "temp_id": 1, "relative_start_date": 4,)"
                              R"( "relative_due_date": 6, "duration": 3}])";
  found = lint_rule(spanned, "duration-mismatch");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_FALSE(found[0].fix.has_value()) << "a task written as a milestone? only the author knows";
}

TEST(DurationMismatch, NoFixInsideARawJsonString) {
  const std::string text = R"({"project_template": {"title": "T", "raw_json": "[{\"title\": \"Build\", \"temp_id\": 1,)"
                           R"( \"relative_start_date\": 0, \"relative_due_date\": 5, \"duration\": 3}]"}})";
  const auto found = lint_rule(text, "duration-mismatch");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_FALSE(found[0].fix.has_value());
}

TEST(TemplateDurationMismatch, NoFixWhileAStoryDurationDisagreesWithItsDates) {
  // Build lasts its duration, 3 days (story_length(), docs/semantics.md §5), not the 6 its dates span; the
  // safe duration-mismatch fix writes 6. A template fix of 3 would disagree with the story once
  // that fix is applied in the same run: it is withheld, and the message says why.
  auto found = lint_rule(kTemplate, "template-duration-mismatch");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_FALSE(found[0].fix.has_value());
  EXPECT_NE(found[0].message.find("no fix while the duration of story 1 \"Build\" disagrees with its dates"),
            std::string::npos)
      << found[0].message;
  // Once the story is fixed, the template's fix is offered, from the fixed story.
  const std::string story_fixed = with_fix(kTemplate, lint_rule(kTemplate, "duration-mismatch").at(0));
  found = lint_rule(story_fixed, "template-duration-mismatch");
  ASSERT_EQ(found.size(), 1u);
  ASSERT_TRUE(found[0].fix.has_value());
  EXPECT_TRUE(found[0].fix->unsafe);
  EXPECT_NE(with_fix(story_fixed, found[0]).find(R"("duration": 6, "raw_json")"), std::string::npos);
}

TEST(TemplateDurationMismatch, FixSetsTheSpanEvenWithARawJsonString) {
  // The template's own fields are in the file, not in the string: still patchable.
  const std::string text =
      R"({"project_template": {"title": "T", "duration": 4, "raw_json": "[{\"title\": \"Build\",)"
      R"( \"temp_id\": 1, \"relative_start_date\": 0, \"relative_due_date\": 5, \"duration\": 6}]"}})";
  auto found = lint_rule(text, "template-duration-mismatch");
  ASSERT_EQ(found.size(), 1u);
  ASSERT_TRUE(found[0].fix.has_value());
  EXPECT_TRUE(lint_rule(with_fix(text, found[0]), "template-duration-mismatch").empty());
}

TEST(TemplateDurationMismatch, AbsentDurationIsNotReported) {
  EXPECT_TRUE(lint_rule(R"({"project_template": {"title": "T", "raw_json": [)"
                        R"({"title": "a", "temp_id": 1, "relative_start_date": 0, "relative_due_date": 5}]}})",
                        "template-duration-mismatch")
                  .empty());
}

TEST(DependencyViolated, MessageOfTheIssue) {
  const std::string text = R"([
    {"title": "Design", "temp_id": 4, "relative_start_date": 5, "relative_due_date": 9, "duration": 5,
     "dependencies": [{"source_id": 4, "target_id": 9, "type": 2, "lag": 2}]},
    {"title": "Build", "temp_id": 9, "relative_start_date": 10, "relative_due_date": 12, "duration": 3}])";
  const auto found = lint_rule(text, "dependency-violated");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].message,
            "finish-to-start link 4 → 9 (lag 2) needs 9 to start on day 12 or later; it starts on day 10, "
            "2 working days early");
  EXPECT_EQ(found[0].pointer, "/0/dependencies/0");
  EXPECT_EQ(found[0].severity, Severity::Warning);
}

TEST(DependencyViolated, LinkIntoAParentBindsItsEarliestDescendant) {
  // FF into parent 20: every story under it must finish on day 6 or later (F >= 7). 21 ends on
  // day 8; 22 ends on day 4 (F = 5) and milestone 23 is on day 6 (F = 6): 22 is the earliest.
  const std::string text = R"([
    {"title": "Source", "temp_id": 1, "relative_start_date": 0, "relative_due_date": 6,
     "dependencies": [{"source_id": 1, "target_id": 20, "type": 3, "lag": 0}]},
    {"title": "Parent", "temp_id": 20, "sub_stories": [
      {"title": "a", "temp_id": 21, "relative_start_date": 3, "relative_due_date": 8},
      {"title": "b", "temp_id": 22, "relative_start_date": 1, "relative_due_date": 4},
      {"story_type": "milestone", "title": "m", "temp_id": 23, "relative_start_date": 6}]}])";
  const auto found = lint_rule(text, "dependency-violated");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].message,
            "finish-to-finish link 1 → 20 (lag 0) needs every story under 20 to finish on day 6 or later; "
            "22 finishes on day 4, 2 working days early");
}

// A link into a parent whose first story is a milestone at the end of the day the link
// needs: the milestone holds (docs/semantics.md §4), and the task beside it that starts that
// same day is the one that breaks the link — read at the milestone's side, not its day.
TEST(DependencyViolated, AParentsEarliestStoryIsFoundAtItsMilestonesSide) {
  const std::string text = R"([
    {"title": "A", "temp_id": 1, "relative_start_date": 0, "relative_due_date": 2,
     "dependencies": [{"source_id": 1, "target_id": 10, "type": 2, "lag": 0}]},
    {"title": "P", "temp_id": 10, "sub_stories": [
      {"story_type": "milestone", "title": "m", "temp_id": 11, "relative_start_date": 2},
      {"title": "t", "temp_id": 12, "relative_start_date": 2, "relative_due_date": 2}]}])";
  const auto found = lint_rule(text, "dependency-violated");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].message,
            "finish-to-start link 1 → 10 (lag 0) needs every story under 10 to start on day 3 or later; 12 starts "
            "on day 2, 1 working day early");
}

TEST(DependencyViolated, LinkOutOfAParentUsesItsRolledUpInterval) {
  // Parent 10's own dates say it ends on day 3, but its sub-stories run to day 7.
  const std::string text = R"([
    {"title": "Phase", "temp_id": 10, "relative_start_date": 0, "relative_due_date": 3,
     "dependencies": [{"source_id": 10, "target_id": 30, "type": 2, "lag": 0}],
     "sub_stories": [
       {"title": "a", "temp_id": 11, "relative_start_date": 0, "relative_due_date": 7}]},
    {"title": "Next", "temp_id": 30, "relative_start_date": 5, "relative_due_date": 6}])";
  const auto found = lint_rule(text, "dependency-violated");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].message,
            "finish-to-start link 10 → 30 (lag 0) needs 30 to start on day 8 or later (10's sub-stories finish "
            "on day 7); it starts on day 5, 3 working days early");
}

// A story lasts its story_length() (docs/semantics.md §5): a `duration` wins over a due date that disagrees
// with it, for lint as for the scheduler (duration-mismatch reports the disagreement itself).
// Before, lint read the due date: the first template had a finding and the second none.
TEST(DependencyViolated, TheDurationWinsOverADueDateThatDisagrees) {
  // Design lasts 3 days (0 to 2) though it is due on day 4: Build on day 5 is a day later than
  // the link needs.
  EXPECT_TRUE(lint_rule(R"([
    {"title": "Design", "temp_id": 1, "relative_start_date": 0, "relative_due_date": 4, "duration": 3,
     "dependencies": [{"source_id": 1, "target_id": 2, "type": 2, "lag": 1}]},
    {"title": "Build", "temp_id": 2, "relative_start_date": 5, "relative_due_date": 9}])",
                        "dependency-violated")
                  .empty());
  // Design lasts 5 days (0 to 4) though it is due on day 2.
  const auto found = lint_rule(R"([
    {"title": "Design", "temp_id": 1, "relative_start_date": 0, "relative_due_date": 2, "duration": 5,
     "dependencies": [{"source_id": 1, "target_id": 2, "type": 2, "lag": 0}]},
    {"title": "Build", "temp_id": 2, "relative_start_date": 3, "relative_due_date": 9}])",
                               "dependency-violated");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].message,
            "finish-to-start link 1 → 2 (lag 0) needs 2 to start on day 5 or later; it starts on day 3, 2 working "
            "days early");
}

TEST(ChildOutsideParent, TheDurationWinsOverADueDateThatDisagrees) {
  // The sub-story is due on day 9, inside its parent, but lasts 9 days from day 3: to day 11.
  // Before, there was no finding.
  const std::string text = R"([
    {"title": "Phase", "temp_id": 1, "relative_start_date": 0, "relative_due_date": 9, "sub_stories": [
      {"title": "Build", "temp_id": 2, "relative_start_date": 3, "relative_due_date": 9, "duration": 9}]}])";
  const auto found = lint_rule(text, "child-outside-parent");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].message,
            "sub-story 2 \"Build\" is due on day 11, 2 working days after its parent 1 \"Phase\" is due (day 9)");
  EXPECT_EQ(found[0].pointer, "/0/sub_stories/0/duration");  // the key that sets its last day
}

TEST(TemplateDurationMismatch, TheDurationWinsOverADueDateThatDisagrees) {
  // Build lasts 3 days (0 to 2): the template's 6, the span of its dates, is 3 days too long.
  // Before, there was no finding.
  const auto found = lint_rule(R"({"project_template": {"title": "T", "duration": 6, "raw_json": [
    {"title": "Build", "temp_id": 1, "relative_start_date": 0, "relative_due_date": 5, "duration": 3}]}})",
                               "template-duration-mismatch");
  ASSERT_EQ(found.size(), 1u);
  // Build's duration disagrees with its dates: the fix waits for duration-mismatch's.
  EXPECT_EQ(found[0].message,
            "the template's duration is 6, but its stories span 3 working days (day 0 to day 2); no fix while the "
            "duration of story 1 \"Build\" disagrees with its dates (duration-mismatch): fix that first");
  EXPECT_FALSE(found[0].fix.has_value());
}

TEST(DependencyViolated, LinksOtherRulesReportAreSkipped) {
  const std::string text = R"([
    {"title": "A", "temp_id": 1, "relative_start_date": 5, "relative_due_date": 9, "dependencies": [
      {"source_id": 1, "target_id": 1, "type": 2, "lag": 0},
      {"source_id": 1, "target_id": 99, "type": 2, "lag": 0},
      {"source_id": 1, "target_id": 2, "type": 7, "lag": 0},
      {"source_id": 1, "target_id": 2, "type": 2, "lag": "1"},
      {"source_id": 5, "target_id": 2, "type": 2, "lag": 0},
      {"source_id": 1, "target_id": 3, "type": 2, "lag": 0},
      {"source_id": 1, "target_id": 11, "type": 2, "lag": 0}],
     "sub_stories": [{"title": "child", "temp_id": 11, "relative_start_date": 5, "relative_due_date": 6}]},
    {"title": "B", "temp_id": 2, "relative_start_date": 0, "relative_due_date": 1},
    {"title": "C", "temp_id": 3, "duration": 2}])";
  EXPECT_TRUE(lint_rule(text, "dependency-violated").empty());
}

TEST(DateRules, GeneratedTemplatesAreClean) {
  for (std::size_t depth : {1u, 4u}) {
    GenerateOptions options;
    options.stories = 3000;
    options.depth = depth;
    options.seed = 7 + depth;
    const std::vector<Diagnostic> all = lint_text("gen.json", generate_template(options).value());
    for (std::string_view rule : {"date-order", "date-missing", "duration-mismatch", "milestone-span",
                                  "child-outside-parent", "dependency-violated", "template-duration-mismatch"}) {
      const auto found = of_rule(all, rule);
      EXPECT_TRUE(found.empty()) << rule << ": " << found.size() << " findings, first: " << found[0].message;
    }
  }
}

}  // namespace
}  // namespace ptmpl
