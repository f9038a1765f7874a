// Roll-ups (docs/semantics.md §5): item_count, effective estimates, template totals, overflow as a state
// (never a wrapped number), and the template budget read and spelled exactly.
#include "libtemplate/core/rollup.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "libtemplate/core/generator.hpp"
#include "libtemplate/core/template_file.hpp"

namespace ptmpl {
namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr auto kBudget = Estimate::BudgetInCents;
constexpr auto kTime = Estimate::TimeInMinutes;

Amount known(std::int64_t value) {
  return {Amount::State::Known, value};
}
const Amount kAbsent{};
const Amount kOverflow{Amount::State::Overflow, 0};

/// A story list parsed into the model; pinned in place (the tree points into `text`).
class Tree {
 public:
  explicit Tree(std::string text, std::uint32_t max_depth = 256)
      : text_(std::move(text)), document_(json::Document::parse(text_, {.max_depth = max_depth})) {
    EXPECT_TRUE(document_.ok()) << text_;
    stories_ = stories_from_json(document_.root(), arena_);
  }
  Tree(const Tree&) = delete;
  Tree& operator=(const Tree&) = delete;

  [[nodiscard]] std::span<const Story> stories() const { return stories_; }

 private:
  std::string text_;
  json::Document document_;
  json::Arena arena_;
  std::span<const Story> stories_;
};

TEST(Rollup, NumbersStoriesInTreeOrderAndCountsEveryLevel) {
  Tree tree(R"([
    {"title": "A", "sub_stories": [
      {"title": "A1"},
      {"title": "A2", "sub_stories": [{"title": "A2a"}, {"title": "A2b"}]},
      {"title": "A3"}]},
    {"title": "B"},
    "not a story",
    {"title": "C", "sub_stories": []}
  ])");
  const Rollup rollup(tree.stories());
  ASSERT_EQ(rollup.item_count(), 8u);
  EXPECT_EQ(item_count(tree.stories()), 8u);
  EXPECT_EQ(rollup_totals(tree.stories()).item_count, 8u);

  const char* titles[] = {"A", "A1", "A2", "A2a", "A2b", "A3", "B", "C"};
  std::size_t i = 0;
  for_each_story(tree.stories(), [&](const Story& story, int) {
    EXPECT_EQ(&rollup.story(i), &story) << "pre-order, as for_each_story visits";
    EXPECT_EQ(story.title, titles[i]);
    ++i;
  });
  EXPECT_EQ(rollup.subtree_end(0), 6u);
  EXPECT_EQ(rollup.subtree_end(2), 5u);
  EXPECT_EQ(rollup.subtree_end(3), 4u);
  EXPECT_EQ(rollup.subtree_end(6), 7u);
  EXPECT_EQ(rollup.subtree_end(7), 8u);
  EXPECT_EQ(rollup.parent(0), Rollup::npos);
  EXPECT_EQ(rollup.parent(3), 2u);
  EXPECT_EQ(rollup.parent(5), 0u);
  EXPECT_EQ(rollup.parent(6), Rollup::npos);
}

TEST(Rollup, EmptyListHasNothing) {
  Tree tree("[]");
  const Rollup rollup(tree.stories());
  EXPECT_EQ(rollup.item_count(), 0u);
  EXPECT_EQ(rollup.total(kBudget), kAbsent);
  EXPECT_EQ(rollup.total(kTime), kAbsent);
  const RollupTotals totals = rollup_totals(tree.stories());
  EXPECT_EQ(totals.item_count, 0u);
  EXPECT_EQ(totals.budget_in_cents, kAbsent);
}

TEST(Rollup, EffectiveIsOwnValueElseSumOfChildren) {
  // docs/semantics.md §5: a story's effective value is its own if set, else the sum of its children's;
  // the template totals sum the top level.
  Tree tree(R"([
    {"title": "Design", "budget_estimate_in_cents": 100000, "sub_stories": [
      {"title": "Sketch", "budget_estimate_in_cents": 30000, "time_estimate_in_minutes": 120},
      {"title": "Review", "budget_estimate_in_cents": 50000}]},
    {"title": "Build", "sub_stories": [
      {"title": "Code", "budget_estimate_in_cents": 250000, "time_estimate_in_minutes": 960},
      {"title": "Test", "sub_stories": [
        {"title": "Unit", "time_estimate_in_minutes": 240},
        {"title": "Manual", "budget_estimate_in_cents": 1050}]}]},
    {"title": "Launch"}
  ])");
  const Rollup rollup(tree.stories());
  ASSERT_EQ(rollup.item_count(), 9u);
  // Design: own 100000 wins over its children's 80000.
  EXPECT_EQ(rollup.own(0, kBudget), known(100000));
  EXPECT_EQ(rollup.children(0, kBudget), known(80000));
  EXPECT_EQ(rollup.effective(0, kBudget), known(100000));
  EXPECT_EQ(rollup.effective(0, kTime), known(120));  // only Sketch states one
  // Test: no own value, its children's sum; Build likewise, through Test.
  EXPECT_EQ(rollup.effective(5, kBudget), known(1050));
  EXPECT_EQ(rollup.effective(5, kTime), known(240));
  EXPECT_EQ(rollup.effective(3, kBudget), known(251050));
  EXPECT_EQ(rollup.effective(3, kTime), known(1200));
  // Launch states nothing.
  EXPECT_EQ(rollup.effective(8, kBudget), kAbsent);
  EXPECT_EQ(rollup.children(8, kBudget), kAbsent) << "a leaf has no children's sum";
  EXPECT_EQ(rollup.total(kBudget), known(351050));
  EXPECT_EQ(rollup.total(kTime), known(1320));

  const RollupTotals totals = rollup_totals(tree.stories());
  EXPECT_EQ(totals.budget_in_cents, rollup.total(kBudget));
  EXPECT_EQ(totals.time_in_minutes, rollup.total(kTime));
}

TEST(Rollup, ValuesOfTheWrongTypeAreAbsentAndTheLastDuplicateCounts) {
  Tree tree(R"([
    {"title": "A", "budget_estimate_in_cents": "100", "time_estimate_in_minutes": 12.5},
    {"title": "B", "budget_estimate_in_cents": 5, "budget_estimate_in_cents": 7},
    {"title": "C", "budget_estimate_in_cents": 99999999999999999999, "budget_estimate_in_cents": 3}
  ])");
  const Rollup rollup(tree.stories());
  EXPECT_EQ(rollup.own(0, kBudget), kAbsent);
  EXPECT_EQ(rollup.own(0, kTime), kAbsent);
  EXPECT_EQ(rollup.own(1, kBudget), known(7));
  EXPECT_EQ(rollup.own(2, kBudget), known(3));
  EXPECT_EQ(rollup.total(kBudget), known(10));
}

TEST(Rollup, ValueWrittenBeyondInt64IsOverflowAndSoIsEverySumAboveIt) {
  Tree tree(R"([
    {"title": "Parent", "sub_stories": [
      {"title": "Huge", "budget_estimate_in_cents": 12345678901234567890123},
      {"title": "Small", "budget_estimate_in_cents": 1}]},
    {"title": "Shielded", "budget_estimate_in_cents": 500, "sub_stories": [
      {"title": "Huge too", "budget_estimate_in_cents": -99999999999999999999}]}
  ])");
  const Rollup rollup(tree.stories());
  EXPECT_EQ(own_estimate(rollup.story(1), kBudget), kOverflow);
  EXPECT_EQ(rollup.own(1, kBudget), kOverflow);
  EXPECT_EQ(rollup.children(0, kBudget), kOverflow);
  EXPECT_EQ(rollup.effective(0, kBudget), kOverflow);
  EXPECT_EQ(rollup.own(4, kBudget), kOverflow) << "negative beyond int64 too";
  EXPECT_EQ(rollup.children(3, kBudget), kOverflow);
  EXPECT_EQ(rollup.effective(3, kBudget), known(500)) << "an own value is the effective one";
  EXPECT_EQ(rollup.total(kBudget), kOverflow);
  EXPECT_EQ(rollup.total(kTime), kAbsent);
  EXPECT_EQ(rollup_totals(tree.stories()).budget_in_cents, kOverflow);
}

TEST(Rollup, SumThatLeavesInt64IsOverflowNeverWrapped) {
  const std::string max = std::to_string(kMax);
  Tree tree(R"([
    {"title": "P", "sub_stories": [
      {"title": "a", "budget_estimate_in_cents": )" +
            max + R"(},
      {"title": "b", "budget_estimate_in_cents": 1}]},
    {"title": "Q", "time_estimate_in_minutes": )" +
            max + R"(},
    {"title": "R", "time_estimate_in_minutes": 1}
  ])");
  const Rollup rollup(tree.stories());
  EXPECT_EQ(rollup.own(1, kBudget), known(kMax));
  EXPECT_EQ(rollup.children(0, kBudget), kOverflow);
  EXPECT_EQ(rollup.total(kBudget), kOverflow);
  EXPECT_EQ(rollup.total(kTime), kOverflow);
  const RollupTotals totals = rollup_totals(tree.stories());
  EXPECT_EQ(totals.budget_in_cents, kOverflow);
  EXPECT_EQ(totals.time_in_minutes, kOverflow);
}

TEST(Rollup, SumIsExactWhateverTheOrderOfItsTerms) {
  // max + 1 - 1 fits, although max + 1 alone does not.
  const Amount terms[] = {known(kMax), known(1), known(-1), kAbsent};
  EXPECT_EQ(sum_of(terms), known(kMax));
  const Amount low[] = {known(std::numeric_limits<std::int64_t>::min()), known(-1)};
  EXPECT_EQ(sum_of(low), kOverflow);
  const Amount none[] = {kAbsent, kAbsent};
  EXPECT_EQ(sum_of(none), kAbsent);
  EXPECT_EQ(sum_of({}), kAbsent);
  const Amount with_overflow[] = {known(1), kOverflow};
  EXPECT_EQ(sum_of(with_overflow), kOverflow);
}

TEST(Rollup, DeepNestingNeedsNoRecursion) {
  // 2,000 levels of sub_stories (4,000 levels of JSON), far beyond the default bound.
  constexpr int kLevels = 2000;
  std::string text;
  for (int i = 0; i < kLevels; ++i) text += R"([{"title": "level", "time_estimate_in_minutes": 1, "sub_stories": )";
  text += "[]";
  for (int i = 0; i < kLevels; ++i) text += "}]";
  // Only the innermost story's value counts upwards: each parent states its own 1 minute.
  Tree tree(text, 10 * kLevels);
  const Rollup rollup(tree.stories());
  EXPECT_EQ(rollup.item_count(), static_cast<std::size_t>(kLevels));
  EXPECT_EQ(item_count(tree.stories()), static_cast<std::size_t>(kLevels));
  EXPECT_EQ(rollup.subtree_end(0), static_cast<std::size_t>(kLevels));
  EXPECT_EQ(rollup.total(kTime), known(1));
  EXPECT_EQ(rollup.children(kLevels - 2, kTime), known(1));
  EXPECT_EQ(rollup_totals(tree.stories()).time_in_minutes, known(1));
}

TEST(Rollup, AgreesWithTheGeneratorsTemplateMetadata) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    const std::string text =
        generate_template({.stories = 500, .depth = 4, .deps = std::nullopt, .seed = seed}).value();
    TemplateFile file = TemplateFile::parse("generated.json", FileText(std::string(text)));
    ASSERT_EQ(file.templates().size(), 1u);
    const TemplateSource& source = file.templates()[0];
    const Rollup rollup(source.model.stories);
    EXPECT_EQ(rollup.item_count(), 500u);
    ASSERT_TRUE(source.model.item_count);
    EXPECT_EQ(static_cast<std::int64_t>(rollup.item_count()), *source.model.item_count);
    ASSERT_TRUE(source.model.budget);
    const BudgetCents budget = budget_to_cents(source.model.budget->text());
    ASSERT_EQ(budget.status, BudgetCents::Status::Exact) << source.model.budget->text();
    EXPECT_EQ(rollup.total(kBudget), known(budget.cents));
    const RollupTotals totals = rollup_totals(source.model.stories);
    EXPECT_EQ(totals.item_count, rollup.item_count());
    EXPECT_EQ(totals.budget_in_cents, rollup.total(kBudget));
    EXPECT_EQ(totals.time_in_minutes, rollup.total(kTime));
  }
}

TEST(BudgetCents, ReadsTheSpellingExactly) {
  struct Case {
    const char* spelling;
    BudgetCents::Status status;
    std::int64_t cents;
    bool negative;
  };
  using S = BudgetCents::Status;
  const Case cases[] = {
      {"0", S::Exact, 0, false},
      {"-0", S::Exact, 0, false},
      {"-0.0e5", S::Exact, 0, false},
      {"2370", S::Exact, 237000, false},
      {"903190.5", S::Exact, 90319050, false},
      {"903190.50", S::Exact, 90319050, false},
      {"903190.500000", S::Exact, 90319050, false},
      {"9.031905e5", S::Exact, 90319050, false},
      {"9031905E-1", S::Exact, 90319050, false},
      {"0.05", S::Exact, 5, false},
      {"0.1", S::Exact, 10, false},
      {"1e2", S::Exact, 10000, false},
      {"-12.3", S::Exact, -1230, true},
      {"92233720368547758.07", S::Exact, kMax, false},
      {"-92233720368547758.08", S::Exact, std::numeric_limits<std::int64_t>::min(), true},
      {"92233720368547758.08", S::OutOfRange, 0, false},
      {"12345678901234567890123", S::OutOfRange, 0, false},
      {"-1e300", S::OutOfRange, 0, true},
      {"1e999999999999999999999", S::OutOfRange, 0, false},
      {"100.125", S::FractionOfCent, 0, false},
      {"0.001", S::FractionOfCent, 0, false},
      {"-0.001", S::FractionOfCent, 0, true},
      {"1e-999999999999", S::FractionOfCent, 0, false},
      {"", S::Invalid, 0, false},
      {"-", S::Invalid, 0, false},
      {"01", S::Invalid, 0, false},
      {"1.", S::Invalid, 0, false},
      {".5", S::Invalid, 0, false},
      {"1e", S::Invalid, 0, false},
      {"12 ", S::Invalid, 0, false},
      {"\"12\"", S::Invalid, 0, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.spelling);
    const BudgetCents got = budget_to_cents(c.spelling);
    EXPECT_EQ(got.status, c.status);
    EXPECT_EQ(got.cents, c.cents);
    EXPECT_EQ(got.negative, c.negative);
  }
}

TEST(BudgetCents, SpellsCentsMinimallyAndExactly) {
  EXPECT_EQ(cents_to_budget(0), "0");
  EXPECT_EQ(cents_to_budget(237000), "2370");
  EXPECT_EQ(cents_to_budget(90319050), "903190.5");
  EXPECT_EQ(cents_to_budget(90319055), "903190.55");
  EXPECT_EQ(cents_to_budget(5), "0.05");
  EXPECT_EQ(cents_to_budget(-1230), "-12.3");
  EXPECT_EQ(cents_to_budget(kMax), "92233720368547758.07");
  EXPECT_EQ(cents_to_budget(std::numeric_limits<std::int64_t>::min()), "-92233720368547758.08");
  for (std::int64_t cents : {std::int64_t{0}, std::int64_t{1}, std::int64_t{10}, std::int64_t{99}, std::int64_t{100},
                             std::int64_t{-7}, std::int64_t{123456789}, kMax}) {
    const BudgetCents back = budget_to_cents(cents_to_budget(cents));
    EXPECT_EQ(back.status, BudgetCents::Status::Exact) << cents;
    EXPECT_EQ(back.cents, cents);
  }
}

}  // namespace
}  // namespace ptmpl
