// The rule table: every rule, alphabetical by id. `ptmpl rules` prints from it.
#include <algorithm>
#include <array>

#include "rules/rule.hpp"

namespace ptmpl {

namespace {

struct Rule {
  RuleInfo info;
  rules::Check check;
};

constexpr std::array kRules = {
    Rule{{"duplicate-key", Severity::Warning, "the same key appears twice in one object"}, rules::check_duplicate_key},
    Rule{{"json-syntax", Severity::Error, "the file is not valid JSON (or not valid UTF-8)"}, rules::check_json_syntax},
    Rule{{"nesting-depth", Severity::Warning, "arrays and objects nest deeper than the bound (default 256)"},
         rules::check_nesting_depth},
    Rule{{"schema", Severity::Error, "a value has the wrong type or shape for the bundled JSON Schema"},
         rules::check_schema},
    Rule{{"story-type-invalid", Severity::Error, "story_type is not task, deliverable or milestone"},
         rules::check_story_type_invalid},
    Rule{{"temp-id-duplicate", Severity::Error, "two stories share a temp_id"}, rules::check_temp_id_duplicate},
    Rule{{"temp-id-missing", Severity::Error, "a story has no temp_id (error when its dependencies need one)"},
         rules::check_temp_id_missing},
    Rule{{"template-title-missing", Severity::Error, "the template has no title, or a blank one"},
         rules::check_template_title_missing},
    Rule{{"title-missing", Severity::Error, "a story has no title, or a blank one"}, rules::check_title_missing},
};

constexpr bool sorted_by_id() {
  for (std::size_t i = 1; i < kRules.size(); ++i)
    if (!(kRules[i - 1].info.id < kRules[i].info.id)) return false;
  return true;
}
static_assert(sorted_by_id(), "keep the rule table alphabetical");

std::array<RuleInfo, kRules.size()> make_catalogue() {
  std::array<RuleInfo, kRules.size()> out{};
  for (std::size_t i = 0; i < kRules.size(); ++i) out[i] = kRules[i].info;
  return out;
}

const std::array<RuleInfo, kRules.size()> kCatalogue = make_catalogue();

}  // namespace

std::span<const RuleInfo> rule_catalogue() {
  return kCatalogue;
}

const RuleInfo* find_rule(std::string_view id) {
  auto it = std::lower_bound(kCatalogue.begin(), kCatalogue.end(), id,
                             [](const RuleInfo& r, std::string_view key) { return r.id < key; });
  return it != kCatalogue.end() && it->id == id ? &*it : nullptr;
}

namespace rules {

void run_all_rules(Context& context) {
  for (const Rule& rule : kRules) rule.check(context);
}

}  // namespace rules
}  // namespace ptmpl
