// The dependency rules (libtemplate/src/rules/dependency_rules.cpp) beyond their data files:
// one finding per problem across all rules, and templates too large to write by hand.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libtemplate/core/lint.hpp"

namespace ptmpl {
namespace {

std::string describe(const std::vector<Diagnostic>& all) {
  std::string out;
  for (const Diagnostic& d : all)
    out += "  " + std::to_string(d.line) + ":" + std::to_string(d.column) + " " + d.message + " [" + d.rule + "]\n";
  return out.empty() ? "  (none)\n" : out;
}

// Two dated stories, the first linked to the second by `dependency` (JSON members).
std::vector<Diagnostic> lint_link(const std::string& dependency) {
  return lint_text("t.json",
                   R"([{"title": "A", "temp_id": 1, "relative_start_date": 0, "relative_due_date": 1, "duration": 2,
                        "dependencies": [{"source_id": 1, "target_id": 2, )" +
                       dependency + R"(}]},
                       {"title": "B", "temp_id": 2, "relative_start_date": 5, "relative_due_date": 5, "duration": 1}])");
}

TEST(DependencyRules, AnInvalidTypeOrLagIsOneFindingOverall) {
  // The schema rule leaves `type` and `lag` to the dedicated rules (schema_rule.cpp's kOwned).
  for (const char* dependency : {R"("type": "FS")", R"("type": 7, "lag": 0)", R"("type": 2.0)"}) {
    const auto all = lint_link(dependency);
    ASSERT_EQ(all.size(), 1u) << dependency << "\n" << describe(all);
    EXPECT_EQ(all[0].rule, "dependency-type-invalid");
  }
  for (const char* dependency : {R"("type": 2, "lag": 1.5)", R"("type": 2, "lag": "2")", R"("type": 2, "lag": null)"}) {
    const auto all = lint_link(dependency);
    ASSERT_EQ(all.size(), 1u) << dependency << "\n" << describe(all);
    EXPECT_EQ(all[0].rule, "dependency-lag-invalid");
  }
  EXPECT_TRUE(lint_link(R"("type": 2)").empty());  // no lag: 0 working days
}

TEST(DependencyRules, TypeWrittenByNameGetsItsNumber) {
  const auto all = lint_link(R"("type": "finish-to-finish")");
  ASSERT_EQ(all.size(), 1u);
  EXPECT_NE(all[0].message.find("(\"finish-to-finish\" is 3)"), std::string::npos) << all[0].message;
}

TEST(DependencyRules, AStoryWithoutTempIdIsTempIdMissingsFinding) {
  // Its source_id names no story: only temp-id-missing, which says the dependency needs an id.
  const auto alone =
      lint_text("t.json", R"([{"title": "A", "dependencies": [{"source_id": 1, "target_id": 2, "type": 2}]},
                                            {"title": "B", "temp_id": 2}])");
  for (const Diagnostic& d : alone) EXPECT_NE(d.rule, "dependency-source-mismatch") << describe(alone);
  // Its source_id names another story: the dependency is probably on the wrong story.
  const auto elsewhere =
      lint_text("t.json", R"([{"title": "A", "dependencies": [{"source_id": 3, "target_id": 2, "type": 2}]},
                                                {"title": "B", "temp_id": 2}, {"title": "C", "temp_id": 3}])");
  int mismatches = 0;
  for (const Diagnostic& d : elsewhere) mismatches += d.rule == "dependency-source-mismatch" ? 1 : 0;
  EXPECT_EQ(mismatches, 1) << describe(elsewhere);
}

TEST(DependencyRules, ParentChildLinksAreNotAlsoCycles) {
  const auto all = lint_text("t.json", R"([{"title": "P", "temp_id": 1,
      "dependencies": [{"source_id": 1, "target_id": 2, "type": 2}],
      "sub_stories": [{"title": "C", "temp_id": 2, "dependencies": [{"source_id": 2, "target_id": 1, "type": 2}]}]}])");
  int parent_child = 0;
  for (const Diagnostic& d : all) {
    EXPECT_NE(d.rule, "dependency-cycle") << describe(all);
    parent_child += d.rule == "dependency-parent-child" ? 1 : 0;
  }
  EXPECT_EQ(parent_child, 2) << describe(all);
}

TEST(DependencyRules, LongCycleIsOneFindingWithTheWholeChain) {
  // 20,000 stories in one chain and a link back from the last to the first.
  constexpr int kCount = 20'000;
  std::string text = "[";
  for (int i = 1; i <= kCount; ++i) {
    text += R"({"title": "s", "temp_id": )" + std::to_string(i) + R"(, "dependencies": [{"source_id": )" +
            std::to_string(i) + R"(, "target_id": )" + std::to_string(i < kCount ? i + 1 : 1) + R"(, "type": 2}]})";
    text += i < kCount ? ",\n" : "]\n";
  }
  std::vector<Diagnostic> cycles;
  for (Diagnostic& d : lint_text("chain.json", text))
    if (d.rule == "dependency-cycle") cycles.push_back(std::move(d));
  ASSERT_EQ(cycles.size(), 1u);
  EXPECT_EQ(cycles[0].line, static_cast<std::uint64_t>(kCount));
  EXPECT_EQ(cycles[0].pointer, "/" + std::to_string(kCount - 1) + "/dependencies/0");
  EXPECT_TRUE(cycles[0].message.starts_with("dependency cycle: 1 \"s\" → 2 \"s\" → 3 \"s\" → "));
  EXPECT_TRUE(cycles[0].message.ends_with(" → " + std::to_string(kCount) + " \"s\" → 1"));
}

TEST(DependencyRules, CyclesPastTheHundredthNameOnlyTheirClosingLink) {
  // 101 two-story cycles.
  std::string text = "[";
  for (int i = 0; i < 101; ++i) {
    const int a = 2 * i + 1, b = 2 * i + 2;
    text += R"({"title": "a", "temp_id": )" + std::to_string(a) + R"(, "dependencies": [{"source_id": )" +
            std::to_string(a) + R"(, "target_id": )" + std::to_string(b) + R"(, "type": 2}]},)";
    text += R"({"title": "b", "temp_id": )" + std::to_string(b) + R"(, "dependencies": [{"source_id": )" +
            std::to_string(b) + R"(, "target_id": )" + std::to_string(a) + R"(, "type": 2}]})";
    text += i < 100 ? ",\n" : "]\n";
  }
  std::vector<Diagnostic> cycles;
  for (Diagnostic& d : lint_text("many.json", text))
    if (d.rule == "dependency-cycle") cycles.push_back(std::move(d));
  ASSERT_EQ(cycles.size(), 101u);
  EXPECT_EQ(cycles[0].message, "dependency cycle: 1 \"a\" → 2 \"b\" → 1");
  EXPECT_EQ(cycles[99].message, "dependency cycle: 199 \"a\" → 200 \"b\" → 199");
  EXPECT_EQ(cycles[100].message,
            "dependency cycle: 202 \"b\" → 201 \"a\" → … (the rest of the chain is not shown: the template has more "
            "than 100 cycles)");
}

TEST(DependencyRules, CyclesNameEachStoryByTemp_idAndTitleOnce) {
  // A title on one line, cut at 40 columns; the way through a parent explained.
  const auto all = lint_text("t.json", R"([
    {"title": "Design the new office\nlayout with every team and the facilities group", "temp_id": "design",
     "dependencies": [{"source_id": "design", "target_id": "phase", "type": 2}]},
    {"title": "Phase", "temp_id": "phase", "sub_stories": [
      {"title": "Build", "temp_id": "build", "dependencies": [{"source_id": "build", "target_id": "design", "type": 2}]}]}])");
  std::vector<std::string> cycles;
  for (const Diagnostic& d : all)
    if (d.rule == "dependency-cycle") cycles.push_back(d.message);
  ASSERT_EQ(cycles.size(), 1u) << describe(all);
  EXPECT_EQ(cycles[0],
            "dependency cycle: design \"Design the new office layout with every…\" → phase \"Phase\" → build "
            "\"Build\" → design (phase contains build, so a link into phase applies to build)");
}

TEST(DependencyRules, AnUnknownTargetIdSuggestsTheTemp_idItWasMeantToBe) {
  const auto all = lint_text("t.json", R"([
    {"title": "Design review", "temp_id": "design-review"},
    {"title": "Build", "temp_id": "build", "dependencies": [{"source_id": "build", "target_id": "desgin-review", "type": 2}]},
    {"title": "Test", "temp_id": 12, "dependencies": [{"source_id": 12, "target_id": 13, "type": 2}]},
    {"title": "Step 1", "temp_id": "step-1", "dependencies": [{"source_id": "step-1", "target_id": "step-9", "type": 2}]}])");
  std::vector<std::string> missing;
  for (const Diagnostic& d : all)
    if (d.rule == "dependency-target-missing") missing.push_back(d.message);
  ASSERT_EQ(missing.size(), 3u) << describe(all);
  EXPECT_EQ(missing[0],
            "dependency build → desgin-review names target_id desgin-review, which no story has; did you mean "
            "\"design-review\"?");
  // Numbers are not misspelt: 13 is not offered 12, nor step-9 step-1.
  EXPECT_EQ(missing[1], "dependency 12 → 13 names target_id 13, which no story has");
  EXPECT_EQ(missing[2], "dependency step-1 → step-9 names target_id step-9, which no story has");
}

}  // namespace
}  // namespace ptmpl
