// The rule table: every rule, alphabetical by id. `ptmpl rules` prints from it.
#include <algorithm>
#include <array>
#include <atomic>
#include <exception>
#include <thread>

#include "libtemplate/core/spelling.hpp"
#include "rules/rule.hpp"

namespace ptmpl {

namespace {

struct Rule {
  RuleInfo info;
  rules::Check check = nullptr;             ///< looks at the whole file, or nullptr
  rules::MakeStoryCheck stories = nullptr;  ///< looks at one story at a time, or nullptr
  /// `check` reads the dependency graph: on a split run (run_all_rules()), it runs on the thread
  /// that builds the graph first.
  bool reads_graph = false;
};

constexpr bool kReadsGraph = true;

constexpr std::string_view kScheduleHealth = "schedule-health";

// The options of the schedule-health rules, their defaults DCMA's (HealthThresholds).
constexpr HealthThresholds kDcma{};
constexpr RuleOption max_percent(HealthMetricId metric) {
  return {"max_percent", kDcma.percent[static_cast<std::size_t>(metric)], 0, 100};
}
constexpr std::array kLogicOptions{max_percent(HealthMetricId::Logic)};
constexpr std::array kLeadsOptions{max_percent(HealthMetricId::Leads)};
constexpr std::array kLagsOptions{max_percent(HealthMetricId::Lags)};
constexpr std::array kRelationshipTypesOptions{
    RuleOption{"min_percent", kDcma.percent[static_cast<std::size_t>(HealthMetricId::RelationshipTypes)], 0, 100}};
constexpr std::array kHardConstraintsOptions{max_percent(HealthMetricId::HardConstraints)};
constexpr std::array kHighFloatOptions{max_percent(HealthMetricId::HighFloat),
                                       RuleOption{"days", static_cast<double>(kDcma.high_float_days), 0, 100000, true}};
constexpr std::array kHighDurationOptions{
    max_percent(HealthMetricId::HighDuration),
    RuleOption{"days", static_cast<double>(kDcma.high_duration_days), 0, 100000, true}};
constexpr std::array kNegativeFloatOptions{max_percent(HealthMetricId::NegativeFloat)};
constexpr std::array kUnassignedWorkOptions{max_percent(HealthMetricId::Resources)};
constexpr std::array kCriticalPathTestOptions{
    RuleOption{"delay_days", static_cast<double>(kDcma.delay_days), 1, 100000, true}};

// A rule of the schedule-health group: off unless enabled, a warning, reading the schedule.
constexpr Rule health_rule(std::string_view id, std::string_view summary, std::span<const RuleOption> options,
                           rules::Check check) {
  return Rule{{id, Severity::Warning, summary, FixKind::None, options, kScheduleHealth}, check, nullptr, kReadsGraph};
}

constexpr std::array kRules = {
    Rule{{"amount-negative", Severity::Error, "a budget or time estimate is negative"},
         rules::check_amount_negative,
         rules::each_story<rules::check_amount_negative_story>},
    Rule{{"amount-overflow", Severity::Error, "an amount, or a roll-up of amounts, does not fit its integer type"},
         nullptr,
         rules::amount_overflow_check},
    Rule{{"assignment-invalid", Severity::Error, "an assignment is not an object with an integer assignee_id"},
         nullptr,
         rules::each_story<rules::check_assignment_invalid_story>},
    Rule{{"assignment-list-twice", Severity::Warning,
          "project_template_assignments is written both inside project_template and beside it"},
         rules::check_assignment_list_twice},
    Rule{{"assignment-unknown", Severity::Warning, "an assignee_id names no entry of project_template_assignments"},
         nullptr,
         rules::assignment_unknown_check},
    Rule{{"budget-unbudgeted-template", Severity::Warning, "a template that is not budgeted carries budgets"},
         nullptr,
         rules::budget_unbudgeted_template_check},
    Rule{{"calendar-invalid", Severity::Error,
          "the calendar block has a bad date, an unknown weekday, a date both holiday and working, or a wrong type"},
         rules::check_calendar_invalid},
    Rule{{"checklist-item-invalid", Severity::Error, "a checklist item is not a string, or is empty or blank"},
         nullptr,
         rules::each_story<rules::check_checklist_item_invalid_story>},
    Rule{{"child-outside-parent", Severity::Warning, "a sub-story's dates lie (partly) outside its parent's own dates"},
         rules::check_child_outside_parent},
    Rule{{"currency-invalid", Severity::Error, "the template's currency is not an ISO 4217 currency code"},
         rules::check_currency_invalid},
    Rule{{"date-missing", Severity::Info,
          "a leaf story lacks the dates the schedule needs, so it falls back on a guess"},
         nullptr,
         rules::date_missing_check},
    Rule{{"date-order", Severity::Error, "a story's relative_due_date is before its relative_start_date"},
         nullptr,
         rules::each_story<rules::check_date_order_story>},
    Rule{{"dependency-cycle", Severity::Error, "dependencies form a cycle (the whole chain is printed)"},
         rules::check_dependency_cycle,
         nullptr,
         kReadsGraph},
    Rule{{"dependency-duplicate", Severity::Warning, "the same link (source, target, type) is written twice"},
         nullptr,
         rules::dependency_duplicate_check},
    Rule{{"dependency-lag-invalid", Severity::Error, "a dependency's lag is not an integer number of working days"},
         nullptr,
         rules::each_story<rules::check_dependency_lag_invalid_story>},
    Rule{{"dependency-parent-child", Severity::Error, "a dependency links a story to its own parent or sub-story"},
         rules::check_dependency_parent_child,
         nullptr,
         kReadsGraph},
    Rule{{"dependency-self", Severity::Error, "a dependency links a story to itself"},
         nullptr,
         rules::each_story<rules::check_dependency_self_story>},
    Rule{{"dependency-source-mismatch", Severity::Error,
          "a dependency's source_id is not the temp_id of the story that holds it"},
         nullptr,
         rules::each_story<rules::check_dependency_source_mismatch_story>},
    Rule{{"dependency-target-missing", Severity::Error, "a dependency's target_id names no story"},
         rules::check_dependency_target_missing,
         nullptr,
         kReadsGraph},
    Rule{{"dependency-type-invalid", Severity::Error, "a dependency's type is missing or not 0, 1, 2 or 3"},
         nullptr,
         rules::each_story<rules::check_dependency_type_invalid_story>},
    Rule{{"dependency-violated", Severity::Warning,
          "declared dates break a dependency (which constraint, by how many working days)"},
         rules::check_dependency_violated,
         nullptr,
         kReadsGraph},
    Rule{{"duplicate-key", Severity::Warning, "the same key appears twice in one object"}, rules::check_duplicate_key},
    Rule{{"duration-mismatch", Severity::Warning,
          "duration differs from the span of the story's dates, or is not 0 on a milestone", FixKind::Safe},
         nullptr,
         rules::each_story<rules::check_duration_mismatch_story>},
    health_rule("health-critical-path-test", "delaying a critical story does not delay the finish by as much (DCMA 12)",
                kCriticalPathTestOptions, rules::check_health_critical_path_test),
    health_rule("health-hard-constraints", "a declared start holds a story later than its links (DCMA 5)",
                kHardConstraintsOptions, rules::check_health_hard_constraints),
    health_rule("health-high-duration", "a story lasts more than 44 working days (DCMA 8)", kHighDurationOptions,
                rules::check_health_high_duration),
    health_rule("health-high-float", "a story has more than 44 working days of total float (DCMA 6)", kHighFloatOptions,
                rules::check_health_high_float),
    health_rule("health-lags", "a link has a positive lag (DCMA 3)", kLagsOptions, rules::check_health_lags),
    health_rule("health-leads", "a link has a negative lag, a lead (DCMA 2)", kLeadsOptions, rules::check_health_leads),
    health_rule("health-logic", "a story has no predecessor or no successor, other than the first and last (DCMA 1)",
                kLogicOptions, rules::check_health_logic),
    health_rule("health-negative-float",
                "a story's total float to the calendar block's finish is negative: the deadline is missed (DCMA 7)",
                kNegativeFloatOptions, rules::check_health_negative_float),
    health_rule("health-relationship-types", "a link is not finish-to-start (DCMA 4: at least 90 % should be)",
                kRelationshipTypesOptions, rules::check_health_relationship_types),
    health_rule("health-unassigned-work", "a story has a time estimate and no assignment (DCMA 10)",
                kUnassignedWorkOptions, rules::check_health_unassigned_work),
    Rule{{"json-syntax", Severity::Error, "the file is not valid JSON (or not valid UTF-8)"}, rules::check_json_syntax},
    // Reported by unknown-field's walk of every object, which decides between the two.
    Rule{{"key-misspelt", Severity::Error,
          "an unknown key is a near miss of a documented one (its content is lost to the service)", FixKind::Unsafe}},
    Rule{{"milestone-span", Severity::Warning, "a milestone's relative_due_date is after its relative_start_date"},
         nullptr,
         rules::each_story<rules::check_milestone_span_story>},
    Rule{{"nesting-depth", Severity::Warning, "arrays and objects nest deeper than the bound (default 256)"},
         rules::check_nesting_depth},
    Rule{{"raw-json-shape", Severity::Info, "the story list is an object with a stories array, not an array"},
         rules::check_raw_json_shape},
    Rule{{"rollup-mismatch", Severity::Warning, "a parent's own estimate differs from the sum of its children's"},
         nullptr,
         rules::rollup_mismatch_check},
    Rule{{"schedule-out-of-range", Severity::Error,
          "a date, duration or lag takes the schedule beyond the ±2^62 working days it is computed in"},
         rules::check_schedule_out_of_range,
         nullptr,
         kReadsGraph},
    Rule{{"schema", Severity::Error, "a value has the wrong type or shape for the bundled JSON Schema"},
         rules::check_schema,
         rules::schema_check},
    Rule{{"story-type-invalid", Severity::Error, "story_type is not task, deliverable or milestone"},
         nullptr,
         rules::each_story<rules::check_story_type_invalid_story>},
    Rule{{"tag-list-format", Severity::Warning, "tag_list has empty, untrimmed or duplicate entries, or is empty",
          FixKind::Safe},
         nullptr,
         rules::each_story<rules::check_tag_list_format_story>},
    Rule{{"temp-id-duplicate", Severity::Error, "two stories share a temp_id"},
         rules::check_temp_id_duplicate,
         nullptr,
         kReadsGraph},
    Rule{{"temp-id-missing", Severity::Error, "a story has no temp_id (error when its dependencies need one)"},
         nullptr,
         rules::each_story<rules::check_temp_id_missing_story>},
    Rule{{"template-budget-mismatch", Severity::Warning, "the template's budget differs from its stories' total",
          FixKind::Unsafe},
         nullptr,
         rules::template_budget_mismatch_check},
    Rule{{"template-duration-mismatch", Severity::Warning,
          "the template's duration differs from its stories' span in working days", FixKind::Unsafe},
         rules::check_template_duration_mismatch},
    Rule{{"template-item-count-mismatch", Severity::Warning, "item_count differs from the number of stories",
          FixKind::Safe},
         rules::check_template_item_count_mismatch,
         nullptr,
         kReadsGraph},
    Rule{{"template-title-missing", Severity::Error, "the template has no title, or a blank one"},
         rules::check_template_title_missing},
    Rule{{"title-missing", Severity::Error, "a story has no title, or a blank one"},
         nullptr,
         rules::each_story<rules::check_title_missing_story>},
    Rule{{"unknown-field", Severity::Info, "a key that is not documented and near no documented key"},
         rules::check_unknown_field,
         rules::each_story<rules::check_unknown_field_story>},
    Rule{{"weight-not-milestone", Severity::Warning, "a story that is not a milestone has a weight"},
         nullptr,
         rules::each_story<rules::check_weight_not_milestone_story>},
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

std::string_view to_string(FixKind kind) {
  switch (kind) {
    case FixKind::Safe:
      return "safe";
    case FixKind::Unsafe:
      return "unsafe";
    case FixKind::None:
      break;
  }
  return "none";
}

std::span<const RuleInfo> rule_catalogue() {
  return kCatalogue;
}

const RuleInfo* find_rule(std::string_view id) {
  auto it = std::lower_bound(kCatalogue.begin(), kCatalogue.end(), id,
                             [](const RuleInfo& r, std::string_view key) { return r.id < key; });
  return it != kCatalogue.end() && it->id == id ? &*it : nullptr;
}

const RuleOption* find_rule_option(const RuleInfo& rule, std::string_view name) {
  for (const RuleOption& option : rule.options)
    if (option.name == name) return &option;
  return nullptr;
}

bool is_rule_group(std::string_view name) {
  return name == kScheduleHealth;
}

bool selects(std::span<const std::string> selection, const RuleInfo& rule) {
  return std::any_of(selection.begin(), selection.end(), [&](const std::string& name) {
    return name == rule.id || (!rule.group.empty() && name == rule.group);
  });
}

std::string unknown_rule_message(std::string_view id) {
  std::vector<std::string_view> ids{kScheduleHealth};
  for (const RuleInfo& rule : kCatalogue) ids.push_back(rule.id);
  std::string message = "unknown rule " + json::quoted(id);
  if (auto suggestion = closest(id, ids)) message += " (did you mean " + json::quoted(*suggestion) + "?)";
  return message + "; ptmpl rules lists them";
}

namespace rules {

void run_all_rules(Context& context, Context* helper) {
  // In the order of the table: the checks of the whole file, then one walk of the stories for
  // every story check.
  // A rule of a group that is off is not run: its checks may cost (the critical path test
  // schedules the template again). Other rules run, their findings dropped as reported, since
  // one check may report for two rules (unknown-field for key-misspelt).
  auto runs = [](const Context& on, const Rule& rule) {
    return rule.check != nullptr && (rule.info.group.empty() || on.enabled(rule.info));
  };
  auto run_checks = [&](Context& on, bool reads_graph) {
    for (const Rule& rule : kRules)
      if (runs(on, rule) && rule.reads_graph == reads_graph) rule.check(on);
  };
  auto run_story_checks = [](Context& on) {
    std::vector<std::unique_ptr<StoryCheck>> story_checks;
    for (const Rule& rule : kRules)
      if (rule.stories != nullptr) story_checks.push_back(rule.stories());
    for (const TemplateSource& source : on.file().templates()) {
      for (const auto& check : story_checks) check->start(on, source);
      for_each_story(source.model.stories, [&](const Story& story, int) {
        for (const auto& check : story_checks) check->check(on, source, story);
      });
      for (const auto& check : story_checks) check->finish(on, source);
    }
  };
  if (helper == nullptr) {
    for (const Rule& rule : kRules)
      if (runs(context, rule)) rule.check(context);
    run_story_checks(context);
    return;
  }
  // Split in two that take about as long on a large template: this thread builds the
  // dependency graph (the costliest structure) and then runs the checks that read it; the
  // helper walks the stories meanwhile, runs the other checks (building the intervals and
  // roll-ups they need, on their own once-flags), and then takes the graph's checks that this
  // thread has not begun yet, one at a time, so that neither thread waits for the other long.
  std::vector<Check> graph_checks;
  for (const Rule& rule : kRules)
    if (runs(context, rule) && rule.reads_graph) graph_checks.push_back(rule.check);
  std::atomic<std::size_t> next_graph_check{0};
  auto run_graph_checks = [&](Context& on) {
    for (std::size_t i; (i = next_graph_check.fetch_add(1)) < graph_checks.size();) graph_checks[i](on);
  };
  std::exception_ptr failure;
  std::thread second([&] {
    try {
      run_story_checks(*helper);
      run_checks(*helper, false);
      run_graph_checks(*helper);
    } catch (...) {
      failure = std::current_exception();
    }
  });
  try {
    for (const TemplateSource& source : context.file().templates()) (void)context.graph(source);
    run_graph_checks(context);
  } catch (...) {
    second.join();
    throw;
  }
  second.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace rules
}  // namespace ptmpl
