// Private: what a rule sees and how it reports.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <map>
#include <memory>

#include "libtemplate/dependency_graph.hpp"
#include "libtemplate/intervals.hpp"
#include "libtemplate/lint.hpp"
#include "libtemplate/rollup.hpp"

namespace ptmpl::rules {

/// A lint run over one file. Rules read the file and append findings.
class Context {
 public:
  Context(const TemplateFile& file, const LintOptions& options) : file_(file), options_(options) {}

  [[nodiscard]] const TemplateFile& file() const { return file_; }
  [[nodiscard]] const LintOptions& options() const { return options_; }

  /// Reports at a value of `source`'s tree (a story, a key's value, a template field).
  /// `severity` is the rule's own; the configuration may change it or turn the rule off.
  void report(std::string_view rule, Severity severity, const TemplateSource& source, const json::Value& at,
              std::string pointer, std::string message, std::optional<Fix> fix = std::nullopt);
  /// Reports at a byte offset of the file itself.
  void report_at_offset(std::string_view rule, Severity severity, std::uint64_t offset, std::string pointer,
                        std::string message, std::optional<Fix> fix = std::nullopt);

  /// A fix that replaces the scalar `value` (a number, string, true, false or null) of
  /// `source`'s tree with `replacement` (JSON text). None inside a raw_json string, whose
  /// bytes are escaped text and cannot be patched in place.
  [[nodiscard]] std::optional<Fix> replace_value(const TemplateSource& source, const json::Value& value,
                                                 std::string replacement) const;

  /// The dependency graph, declared intervals and roll-ups of `source`'s stories: built on
  /// first use and shared by every rule of this run.
  [[nodiscard]] const DependencyGraph& graph(const TemplateSource& source);
  [[nodiscard]] const DeclaredIntervals& intervals(const TemplateSource& source);
  [[nodiscard]] const Rollup& rollup(const TemplateSource& source);

  /// The rule's options from the configuration (`{"rules": {"<id>": {"options": {…}}}}`), or
  /// nullptr.
  [[nodiscard]] const json::Value* rule_options(std::string_view rule) const;

  /// "line 40" for a value of `source`, for messages that name a second place.
  [[nodiscard]] std::string line_of(const TemplateSource& source, const json::Value& at) const;

  [[nodiscard]] std::vector<Diagnostic> take() { return std::move(diagnostics_); }

 private:
  void add(std::string_view rule, Severity severity, std::uint64_t offset, std::string pointer, std::string message,
           std::optional<Fix> fix);

  const TemplateFile& file_;
  const LintOptions& options_;
  std::vector<Diagnostic> diagnostics_;
  std::map<const TemplateSource*, std::unique_ptr<DependencyGraph>> graphs_;
  std::map<const TemplateSource*, std::unique_ptr<DeclaredIntervals>> intervals_;
  std::map<const TemplateSource*, std::unique_ptr<Rollup>> rollups_;
};

using Check = void (*)(Context&);

struct SchemaViolation {
  std::string pointer;  ///< of the offending value in the checked document
  std::string message;
};

/// The first violation of schemas/config.schema.json in a lint configuration, if any
/// (schema_rule.cpp, which holds the validators).
[[nodiscard]] std::optional<SchemaViolation> check_config_schema(const json::Value& config);

/// Runs every registered rule (registry.cpp) on the file of `context`.
void run_all_rules(Context& context);

// One function per rule; each lives in the file of its family.
void check_amount_negative(Context& context);
void check_amount_overflow(Context& context);
void check_assignment_invalid(Context& context);
void check_assignment_unknown(Context& context);
void check_budget_unbudgeted_template(Context& context);
void check_checklist_item_invalid(Context& context);
void check_child_outside_parent(Context& context);
void check_currency_invalid(Context& context);
void check_date_missing(Context& context);
void check_date_order(Context& context);
void check_dependency_cycle(Context& context);
void check_dependency_duplicate(Context& context);
void check_dependency_lag_invalid(Context& context);
void check_dependency_parent_child(Context& context);
void check_dependency_self(Context& context);
void check_dependency_source_mismatch(Context& context);
void check_dependency_target_missing(Context& context);
void check_dependency_type_invalid(Context& context);
void check_dependency_violated(Context& context);
void check_duplicate_key(Context& context);
void check_duration_mismatch(Context& context);
void check_json_syntax(Context& context);
void check_milestone_span(Context& context);
void check_nesting_depth(Context& context);
void check_raw_json_shape(Context& context);
void check_rollup_mismatch(Context& context);
void check_schema(Context& context);
void check_story_type_invalid(Context& context);
void check_tag_list_format(Context& context);
void check_temp_id_duplicate(Context& context);
void check_temp_id_missing(Context& context);
void check_template_budget_mismatch(Context& context);
void check_template_duration_mismatch(Context& context);
void check_template_item_count_mismatch(Context& context);
void check_template_title_missing(Context& context);
void check_title_missing(Context& context);
void check_unknown_field(Context& context);
void check_weight_not_milestone(Context& context);

}  // namespace ptmpl::rules
