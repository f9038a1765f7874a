// The rule catalogue: every lint rule's id, severity, summary and fix, and how a rule can be
// configured. The rules themselves are private (src/rules/); the engine that runs them is lint.hpp.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "libtemplate/core/diagnostic.hpp"
#include "libtemplate/core/health.hpp"
#include "libtemplate/core/json.hpp"

namespace ptmpl {

/// What `lint --fix` can do about a rule's findings (docs/semantics.md §6).
enum class FixKind {
  None,    ///< the rule offers no fix
  Safe,    ///< applied by `--fix`: the fix restates what the file already says
  Unsafe,  ///< applied by `--fix --unsafe-fixes` only: the fix changes what the author declared
};

/// "none", "safe" or "unsafe".
[[nodiscard]] std::string_view to_string(FixKind kind);

/// An option of a rule (`{"rules": {"<id>": {"options": {"<name>": …}}}}`): a number from
/// `min` to `max`, a whole one when `integer`. The configuration is refused (with its place)
/// for an option its rule does not have or a value out of range.
struct RuleOption {
  std::string_view name;
  double default_value = 0;
  double min = 0;
  double max = 0;
  bool integer = false;
};

/// A registered rule: stable kebab-case id, default severity, one line of summary, the kind
/// of fix its findings carry (when they carry one: a fix is withheld where it cannot be sure),
/// its options, and the group it belongs to.
struct RuleInfo {
  std::string_view id;
  Severity severity;
  std::string_view summary;
  FixKind fix = FixKind::None;
  std::span<const RuleOption> options{};
  /// "" for most rules. A rule of a group (`schedule-health`) is off unless the configuration
  /// sets it or its group, or `lint --select` names it or its group.
  std::string_view group{};
};

/// Every rule, sorted by id.
[[nodiscard]] std::span<const RuleInfo> rule_catalogue();
/// The rule with this id, or nullptr.
[[nodiscard]] const RuleInfo* find_rule(std::string_view id);
/// The option `name` of `rule`, or nullptr.
[[nodiscard]] const RuleOption* find_rule_option(const RuleInfo& rule, std::string_view name);
/// Whether `name` is the name of a group of rules (`schedule-health`).
[[nodiscard]] bool is_rule_group(std::string_view name);
/// Whether `selection` (rule ids and group names, as `lint --select` takes them) names `rule`
/// or its group.
[[nodiscard]] bool selects(std::span<const std::string> selection, const RuleInfo& rule);

/// The message for an id that names no rule: `unknown rule "x" (did you mean "y"?); ptmpl rules
/// lists them`, the suggestion (spelling.hpp's closest()) only when one is near.
[[nodiscard]] std::string unknown_rule_message(std::string_view id);

/// True for an ISO 4217 code a template's budget can be in: the list `currency-invalid` checks
/// against (converters use it to decide whether a plan's currency can be carried over).
[[nodiscard]] bool is_currency_code(std::string_view code);

/// How one rule is configured: `"off"`, a severity, or `{"severity": …, "options": {…}}`.
struct RuleSetting {
  bool off = false;
  std::optional<Severity> severity;      ///< when set, replaces the rule's own severity
  const json::Value* options = nullptr;  ///< the rule's options object, owned by the LintConfig
};

/// Rule settings by rule id (a lint configuration's `rules`; a group's setting is copied to
/// each of its rules that the configuration does not set itself).
using RuleSettings = std::map<std::string, RuleSetting, std::less<>>;

/// The thresholds of schedule health as the options of the `health-…` rules in `settings` set
/// them (DCMA's where none is set, or `settings` is null).
[[nodiscard]] HealthThresholds health_thresholds(const RuleSettings* settings);

}  // namespace ptmpl
