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
  EXPECT_TRUE(cycles[0].message.starts_with("dependency cycle: 1 → 2 → 3 → "));
  EXPECT_TRUE(cycles[0].message.ends_with(" → " + std::to_string(kCount) + " → 1"));
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
  EXPECT_EQ(cycles[0].message, "dependency cycle: 1 → 2 → 1");
  EXPECT_EQ(cycles[99].message, "dependency cycle: 199 → 200 → 199");
  EXPECT_EQ(cycles[100].message,
            "dependency 202 → 201 closes a dependency cycle (its chain is not shown: the template has more than 100 "
            "cycles)");
}

}  // namespace
}  // namespace ptmpl
