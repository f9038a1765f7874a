// Money, effort and template metadata rules: behaviour beyond tests/data/rules/<id>/ — each
// problem reported once, the exact fixes, and the edges of the integer ranges.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/core/lint.hpp"

namespace ptmpl {
namespace {

std::string describe(const std::vector<Diagnostic>& all) {
  std::string out;
  for (const Diagnostic& d : all)
    out += "  " + std::to_string(d.line) + ":" + std::to_string(d.column) + " " + d.message + " [" + d.rule +
           "] at \"" + d.pointer + "\"\n";
  return out.empty() ? "  (none)\n" : out;
}

std::vector<Diagnostic> of_rule(const std::vector<Diagnostic>& all, std::string_view rule) {
  std::vector<Diagnostic> out;
  std::copy_if(all.begin(), all.end(), std::back_inserter(out), [&](const Diagnostic& d) { return d.rule == rule; });
  return out;
}

std::string apply(std::string text, const Fix& fix) {
  return text.replace(fix.offset, fix.length, fix.replacement);
}

TEST(AmountRules, BudgetBeyondInt64IsExactlyOneFinding) {
  // In a story list, and in a budgeted template document whose totals it makes unknown.
  const std::string list = R"([
  {"title": "Lease", "temp_id": 1, "budget_estimate_in_cents": 12345678901234567890123},
  {"title": "Fit-out", "temp_id": 2, "sub_stories": [
    {"title": "Floors", "temp_id": 3, "budget_estimate_in_cents": 12345678901234567890123}]}
])";
  auto found = lint_text("list.json", list);
  ASSERT_EQ(found.size(), 2u) << describe(found);
  EXPECT_EQ(found[0].rule, "amount-overflow");
  EXPECT_EQ(found[0].pointer, "/0/budget_estimate_in_cents");
  EXPECT_EQ(found[1].rule, "amount-overflow");
  EXPECT_EQ(found[1].pointer, "/1/sub_stories/0/budget_estimate_in_cents");

  const std::string document = R"({"project_template": {"title": "Lease", "is_budgeted": true, "budget": 5,
  "currency": "USD", "item_count": 1,
  "raw_json": [{"title": "Lease", "temp_id": 1, "budget_estimate_in_cents": 12345678901234567890123}]}})";
  found = lint_text("document.json", document);
  ASSERT_EQ(found.size(), 1u) << describe(found);
  EXPECT_EQ(found[0].rule, "amount-overflow");
}

TEST(AmountRules, NegativeBeyondInt64IsOnlyNegative) {
  const auto found =
      lint_text("x.json", R"([{"title": "Refund", "temp_id": 1, "budget_estimate_in_cents": -99999999999999999999}])");
  ASSERT_EQ(found.size(), 1u) << describe(found);
  EXPECT_EQ(found[0].rule, "amount-negative");
}

TEST(AmountRules, NonIntegerAmountsStaySchemaFindings) {
  const auto found = lint_text("x.json", R"([
  {"title": "A", "temp_id": 1, "budget_estimate_in_cents": 12.5},
  {"title": "B", "temp_id": 2, "time_estimate_in_minutes": "90"}
])");
  ASSERT_EQ(found.size(), 2u) << describe(found);
  EXPECT_EQ(found[0].rule, "schema");
  EXPECT_EQ(found[1].rule, "schema");
}

TEST(AmountRules, TimeEstimateIsBoundedByInt32) {
  EXPECT_TRUE(of_rule(lint_text("x.json", R"([{"title": "A", "temp_id": 1, "time_estimate_in_minutes": 2147483647}])"),
                      "amount-overflow")
                  .empty());
  const auto found = lint_text("x.json", R"([{"title": "A", "temp_id": 1, "time_estimate_in_minutes": 2147483648}])");
  ASSERT_EQ(found.size(), 1u) << describe(found);
  EXPECT_EQ(found[0].rule, "amount-overflow");
  EXPECT_NE(found[0].message.find("32-bit"), std::string::npos) << found[0].message;
}

TEST(AmountRules, TemplateTotalThatOverflowsIsReportedAtTheStoryList) {
  const auto found = lint_text("x.json", R"([
  {"title": "A", "temp_id": 1, "budget_estimate_in_cents": 9223372036854775807},
  {"title": "B", "temp_id": 2, "budget_estimate_in_cents": 9223372036854775807}
])");
  ASSERT_EQ(found.size(), 1u) << describe(found);
  EXPECT_EQ(found[0].rule, "amount-overflow");
  EXPECT_EQ(found[0].pointer, "");
  EXPECT_EQ(found[0].line, 1u);
  EXPECT_EQ(found[0].column, 1u);
  EXPECT_NE(found[0].message.find("2 top-level stories"), std::string::npos) << found[0].message;
}

TEST(RollupMismatch, ComparesWithEffectiveValuesThroughNestedLevels) {
  // Build's children: Code (own 300) and Test (no own value: 50 + 25). 375 ≠ 400.
  const auto found = lint_text("x.json", R"([
  {"title": "Build", "temp_id": 1, "budget_estimate_in_cents": 400, "sub_stories": [
    {"title": "Code", "temp_id": 2, "budget_estimate_in_cents": 300},
    {"title": "Test", "temp_id": 3, "sub_stories": [
      {"title": "Unit", "temp_id": 4, "budget_estimate_in_cents": 50},
      {"title": "Manual", "temp_id": 5, "budget_estimate_in_cents": 25},
      {"title": "Sign-off", "temp_id": 6}]}]}
])");
  ASSERT_EQ(found.size(), 1u) << describe(found);
  EXPECT_EQ(found[0].rule, "rollup-mismatch");
  EXPECT_EQ(found[0].pointer, "/0/budget_estimate_in_cents");
  EXPECT_NE(found[0].message.find("is 400 cents, but its 2 sub_stories add up to 375 cents"), std::string::npos)
      << found[0].message;
}

TEST(RollupMismatch, ChildrenWithoutEstimatesLeaveATopDownFigureAlone) {
  EXPECT_TRUE(of_rule(lint_text("x.json", R"([{"title": "Build", "temp_id": 1, "time_estimate_in_minutes": 480,
    "sub_stories": [{"title": "Code", "temp_id": 2}]}])"),
                      "rollup-mismatch")
                  .empty());
}

TEST(TemplateMetadata, FixesReplaceTheValueExactly) {
  const std::string text =
      R"({"project_template": {"title": "ERP", "is_budgeted": true, "budget": 9000, "item_count": 1,
  "raw_json": [{"title": "Blueprint", "temp_id": 1, "budget_estimate_in_cents": 320050},
               {"title": "Realisation", "temp_id": 2, "sub_stories": [
                 {"title": "Configuration", "temp_id": 3, "budget_estimate_in_cents": 583000}]}]}})";
  const auto found = lint_text("x.json", text);
  ASSERT_EQ(found.size(), 2u) << describe(found);
  EXPECT_EQ(found[0].rule, "template-budget-mismatch");
  ASSERT_TRUE(found[0].fix);
  EXPECT_EQ(found[0].fix->replacement, "9030.5");
  EXPECT_EQ(text.substr(found[0].fix->offset, found[0].fix->length), "9000");
  EXPECT_NE(apply(text, *found[0].fix).find(R"("budget": 9030.5, "item_count": 1,)"), std::string::npos);
  EXPECT_EQ(found[1].rule, "template-item-count-mismatch");
  ASSERT_TRUE(found[1].fix);
  EXPECT_EQ(found[1].fix->replacement, "3");
  EXPECT_EQ(text.substr(found[1].fix->offset, found[1].fix->length), "1");
}

TEST(TemplateMetadata, FixesWorkWhenRawJsonIsAString) {
  // The template's own fields are outside the raw_json string, so they can be patched.
  const std::string text = R"({"project_template": {"title": "T", "is_budgeted": true, "budget": 1, "item_count": 7,
  "raw_json": "[{\"title\": \"A\", \"temp_id\": 1, \"budget_estimate_in_cents\": 250}]"}})";
  const auto found = lint_text("x.json", text);
  ASSERT_EQ(found.size(), 2u) << describe(found);
  ASSERT_TRUE(found[0].fix);
  EXPECT_EQ(found[0].fix->replacement, "2.5");
  EXPECT_EQ(text.substr(found[0].fix->offset, found[0].fix->length), "1");
  ASSERT_TRUE(found[1].fix);
  EXPECT_EQ(found[1].fix->replacement, "1");
  EXPECT_EQ(text.substr(found[1].fix->offset, found[1].fix->length), "7");
}

TEST(TemplateMetadata, BudgetComparesExactlyWhateverItsSpelling) {
  for (const char* budget : {"9030.5", "9030.50", "9.0305e3", "903050e-2"}) {
    const std::string text = std::string(R"({"project_template": {"title": "T", "is_budgeted": true, "budget": )") +
                             budget +
                             R"(, "raw_json": [{"title": "A", "temp_id": 1, "budget_estimate_in_cents": 903050}]}})";
    EXPECT_TRUE(lint_text("x.json", text).empty()) << budget << "\n" << describe(lint_text("x.json", text));
  }
}

TEST(TemplateMetadata, NothingToCompareWithoutTheStoryList) {
  // A template listed without optional_fields=raw_json has item_count and budget but no stories.
  const auto found = lint_text("x.json", R"({"project_template": {"title": "T", "is_budgeted": true, "budget": 12,
    "item_count": 40, "currency": "EUR"}})");
  EXPECT_TRUE(found.empty()) << describe(found);
}

TEST(CurrencyInvalid, AcceptsEveryCodeOfTheSamplesAndSuggestsUpperCase) {
  for (const char* code : {"USD", "EUR", "GBP", "CHF", "JPY", "XCG", "ZWG"})
    EXPECT_TRUE(of_rule(lint_text("x.json", std::string(R"({"project_template": {"title": "T", "currency": ")") + code +
                                                R"(", "raw_json": []}})"),
                        "currency-invalid")
                    .empty())
        << code;
  for (const char* code : {"HRK", "US", "", " usd"}) {
    const auto found = of_rule(lint_text("x.json", std::string(R"({"project_template": {"title": "T", "currency": ")") +
                                                       code + R"(", "raw_json": []}})"),
                               "currency-invalid");
    EXPECT_EQ(found.size(), 1u) << code;
  }
  const auto found = lint_text("x.json", R"({"project_template": {"title": "T", "currency": " usd", "raw_json": []}})");
  ASSERT_EQ(found.size(), 1u) << describe(found);
  EXPECT_NE(found[0].message.find("did you mean \"USD\""), std::string::npos) << found[0].message;
}

}  // namespace
}  // namespace ptmpl
