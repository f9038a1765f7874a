// Private: what a rule sees and how it reports.
#pragma once

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/core/dependency_graph.hpp"
#include "libtemplate/core/health.hpp"
#include "libtemplate/core/intervals.hpp"
#include "libtemplate/core/rollup.hpp"
#include "libtemplate/core/rules.hpp"
#include "libtemplate/core/story_index.hpp"
#include "libtemplate/core/template_file.hpp"

namespace ptmpl::rules {

/// The structures built from a file's templates on first use, shared by the contexts that lint
/// the file (one per thread): each is built once and never changed after. Each has its own
/// once-flag, so one thread may build the intervals while another builds the graph; a thread
/// that wants a structure being built waits for it.
class SharedStructures {
 public:
  template <class T>
  struct Slot {
    std::once_flag built;
    std::unique_ptr<T> value;
  };
  template <class T>
  using Cache = std::map<const TemplateSource*, std::unique_ptr<Slot<T>>>;

  /// The structure of `source` in `cache`, made by `make()` on first use.
  template <class T, class Make>
  const T& get(Cache<T>& cache, const TemplateSource& source, Make&& make) {
    Slot<T>* slot = nullptr;
    {
      std::lock_guard lock(mutex_);  // guards the maps only, not the building
      std::unique_ptr<Slot<T>>& entry = cache[&source];
      if (!entry) entry = std::make_unique<Slot<T>>();
      slot = entry.get();
    }
    std::call_once(slot->built, [&] { slot->value = make(); });
    return *slot->value;
  }

  Cache<StoryIndex> indices;
  Cache<DependencyGraph> graphs;
  Cache<DeclaredIntervals> intervals;
  Cache<Rollup> rollups;
  Cache<struct ScheduleHealth> health;

 private:
  std::mutex mutex_;
};

/// A template's schedule and its health, which every `health-…` rule reads: the schedule is
/// computed once for all of them.
struct ScheduleHealth {
  /// `deadline`: the calendar block's (deadline_offset()), for negative float.
  ScheduleHealth(const DependencyGraph& graph, const HealthThresholds& thresholds, std::optional<std::int64_t> deadline)
      : schedule(graph) {
    if (schedule.ok()) assessment = assess_health(schedule, thresholds, deadline);
  }
  Schedule schedule;
  HealthAssessment assessment;  ///< meaningless unless schedule.ok()
};

/// The findings of a file as lint lists them: of each rule, the first kFindingsPerRule in the
/// file (by offset, then pointer and message: the order of operator<), in whatever order they
/// are offered; the others are counted, by severity, with the place of the first of them. So
/// the findings kept are bounded by the rules, not by the file, and do not depend on the order
/// the checks (or the two threads of a large file) report in.
class ListedFindings {
 public:
  /// Whether a finding of `rule` at `offset` is listed: its rule has fewer than
  /// kFindingsPerRule, or it comes before the last of them.
  [[nodiscard]] bool lists(std::string_view rule, std::uint64_t offset, std::string_view pointer,
                           std::string_view message) const;
  /// Lists `finding` (at `offset`, which lists() accepted), leaving out the last listed of its
  /// rule when the rule has no room. The reference is valid until the next call.
  Diagnostic& list(std::uint64_t offset, Diagnostic finding);
  /// Counts `count` findings that are not listed, the first of them at `offset`.
  void leave_out(std::string_view rule, Severity severity, std::uint64_t offset, std::string_view pointer,
                 std::size_t count = 1);
  /// Adds the findings of `other`, of the same file: the result is what one of them would hold
  /// had it been offered every finding.
  void merge(ListedFindings&& other);
  /// The listed findings, and one for the findings left out of each rule and severity (its
  /// `count`), whose path, line, column and excerpt `place` sets from the offset of the first.
  [[nodiscard]] std::vector<Diagnostic> take(const std::function<void(Diagnostic&, std::uint64_t)>& place);

 private:
  struct Listed {
    std::uint64_t offset = 0;
    Diagnostic finding;
  };
  struct LeftOut {
    std::size_t count = 0;
    std::uint64_t offset = 0;  // of the first left out, in the order of lists()
    std::string pointer;
  };
  struct OfRule {
    std::vector<std::size_t> heap;    // indices into listed_, a max-heap: the last listed first
    std::array<LeftOut, 3> left_out;  // by Severity
  };
  [[nodiscard]] bool before(std::size_t a, std::size_t b) const;

  std::vector<Listed> listed_;
  std::map<std::string, OfRule, std::less<>> rules_;
};

/// Whether the configuration drops a finding (its `ignore` entries).
using IgnoreFinding = std::function<bool(const Diagnostic&)>;

/// A lint run over one file, or over part of its rules (run_all_rules()). Rules read the file
/// and append findings.
class Context {
 public:
  /// `settings`: how the configuration sets each rule (none when null); `ignores`: the findings
  /// it drops (none when empty), dropped before they are listed or counted; `select`: the rule
  /// ids and group names whose findings are kept (`lint --select`; every rule's when empty).
  Context(const TemplateFile& file, const RuleSettings* settings, SharedStructures& shared, IgnoreFinding ignores = {},
          std::span<const std::string> select = {})
      : file_(file), settings_(settings), ignores_(std::move(ignores)), select_(select), shared_(shared) {}

  [[nodiscard]] const TemplateFile& file() const { return file_; }

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

  /// The story index, dependency graph, declared intervals and roll-ups of `source`'s stories:
  /// built on first use and shared by every rule of this run (the last three over the one
  /// index, so an index names the same story in each).
  [[nodiscard]] const StoryIndex& index(const TemplateSource& source);
  [[nodiscard]] const DependencyGraph& graph(const TemplateSource& source);
  [[nodiscard]] const DeclaredIntervals& intervals(const TemplateSource& source);
  [[nodiscard]] const Rollup& rollup(const TemplateSource& source);

  /// The schedule of `source` and its health with the thresholds the configuration sets: built
  /// on first use and shared.
  [[nodiscard]] const ScheduleHealth& health(const TemplateSource& source);

  /// Whether findings of `rule` are kept: the configuration does not turn it off, `select` (when
  /// given) names it or its group, and a rule of a group is turned on (docs/semantics.md §6).
  [[nodiscard]] bool enabled(const RuleInfo& rule) const;

  /// Adds a related place (a value of `source`'s tree) to the finding reported last, unless the
  /// configuration dropped it.
  void relate(const TemplateSource& source, const json::Value& at, std::string message);

  /// The rule's options from the configuration (`{"rules": {"<id>": {"options": {…}}}}`), or
  /// nullptr.
  [[nodiscard]] const json::Value* rule_options(std::string_view rule) const;

  /// "line 40" for a value of `source`, for messages that name a second place.
  [[nodiscard]] std::string line_of(const TemplateSource& source, const json::Value& at) const;

  /// Adds the findings of `other`, a context of the same file (ListedFindings::merge).
  void merge(Context&& other) { listed_.merge(std::move(other.listed_)); }

  /// The findings, unsorted: at most kFindingsPerRule of a rule, and one for the rest
  /// (ListedFindings).
  [[nodiscard]] std::vector<Diagnostic> take();

 private:
  void add(std::string_view rule, Severity severity, std::uint64_t offset, std::string pointer, std::string message,
           std::optional<Fix> fix);

  /// The configuration's setting of `rule`, or nullptr.
  [[nodiscard]] const RuleSetting* setting(std::string_view rule) const;

  const TemplateFile& file_;
  const RuleSettings* settings_;
  IgnoreFinding ignores_;
  std::span<const std::string> select_;
  ListedFindings listed_;
  Diagnostic* last_ = nullptr;  // the finding the last report listed (relate() adds to it)
  SharedStructures& shared_;
};

/// A rule's look at the file as a whole.
using Check = void (*)(Context&);

/// A rule's look at one story at a time. run_all_rules() reads the stories of each template once,
/// in tree order, and hands every story to every story check in turn: fetching a story and its
/// members from memory costs more than most checks, so one walk serves them all. A check may
/// keep what it learns between stories and report at the end of a template (`finish`). One
/// instance serves one lint run.
class StoryCheck {
 public:
  StoryCheck() = default;
  StoryCheck(const StoryCheck&) = delete;
  StoryCheck& operator=(const StoryCheck&) = delete;
  virtual ~StoryCheck() = default;

  /// Before the first story of `source`.
  virtual void start(Context& /*context*/, const TemplateSource& /*source*/) {}
  /// Every story of `source`, in tree order (pre-order).
  virtual void check(Context& context, const TemplateSource& source, const Story& story) = 0;
  /// After the last story of `source`.
  virtual void finish(Context& /*context*/, const TemplateSource& /*source*/) {}
};

using MakeStoryCheck = std::unique_ptr<StoryCheck> (*)();

/// A story check that keeps nothing between stories: a function.
template <void (*Function)(Context&, const TemplateSource&, const Story&)>
std::unique_ptr<StoryCheck> each_story() {
  class Each final : public StoryCheck {
   public:
    void check(Context& context, const TemplateSource& source, const Story& story) override {
      Function(context, source, story);
    }
  };
  return std::make_unique<Each>();
}

struct SchemaViolation {
  const json::Value* at;  ///< the offending value, in the checked document
  std::string message;
};

/// The violations of schemas/config.schema.json in a lint configuration, in the order of the
/// document, one per value, the first `limit` of them (schema_rule.cpp, which holds the
/// validators); empty when it is valid.
[[nodiscard]] std::vector<SchemaViolation> check_config_schema(const json::Value& config, std::size_t limit);

/// What a value is, for messages about values of the wrong kind: `a number (2.5)`,
/// `a string ("7")`, `null`.
[[nodiscard]] std::string describe(const json::Value& v);

// Figures derived from many values (a roll-up of estimates, the template's duration or
// item_count) are not computed from a value that is itself invalid (docs/semantics.md §6): a sum that skips
// a string amount is no sum. Where the figure the valid values give disagrees with the one
// written, the finding says which value stands in the way instead, and offers no fix; where it
// agrees, the invalid value's own finding (schema, amount-overflow, …) is the only one.

/// The first term the roll-up of `estimate` over the stories [first, end) of `source`'s index (a
/// run of whole subtrees in pre-order) would take or skip that is no valid amount: written but
/// not an integer, negative, or beyond its integer (int64; int32 for minutes, the service's).
/// A story that states a valid estimate stands for its subtree, as in the roll-up. nullopt when
/// every term is valid.
[[nodiscard]] std::optional<std::string> invalid_estimate_term(Context& context, const TemplateSource& source,
                                                               std::size_t first, std::size_t end, Estimate estimate);

/// Runs every registered rule (registry.cpp) on the file of `context`. With `helper` (a context
/// of the same file and SharedStructures), the rules are split in two: `context` builds the
/// dependency graph and runs the checks that read it, `helper` (on a thread of its own) the
/// story walk and the other checks. `context`'s findings and `helper`'s are then together what
/// `context` alone would hold, in another order (lint() sorts them).
void run_all_rules(Context& context, Context* helper = nullptr);

// The checks of each rule, in the file of its family: a function that looks at the file
// (`check_<rule>`), a function that looks at one story (`check_<rule>_story`, see each_story()),
// or a story check that keeps state (`<rule>_check()`), or two of them.
void check_amount_negative(Context& context);
void check_amount_negative_story(Context& context, const TemplateSource& source, const Story& story);
std::unique_ptr<StoryCheck> amount_overflow_check();
void check_assignment_invalid_story(Context& context, const TemplateSource& source, const Story& story);
void check_assignment_list_twice(Context& context);
std::unique_ptr<StoryCheck> assignment_unknown_check();
std::unique_ptr<StoryCheck> budget_unbudgeted_template_check();
void check_checklist_item_invalid_story(Context& context, const TemplateSource& source, const Story& story);
void check_child_outside_parent(Context& context);
void check_currency_invalid(Context& context);
void check_calendar_invalid(Context& context);
std::unique_ptr<StoryCheck> date_missing_check();
void check_date_order_story(Context& context, const TemplateSource& source, const Story& story);
void check_dependency_cycle(Context& context);
void check_health_critical_path_test(Context& context);
void check_health_hard_constraints(Context& context);
void check_health_high_duration(Context& context);
void check_health_high_float(Context& context);
void check_health_lags(Context& context);
void check_health_negative_float(Context& context);
void check_health_leads(Context& context);
void check_health_logic(Context& context);
void check_health_relationship_types(Context& context);
void check_health_unassigned_work(Context& context);
std::unique_ptr<StoryCheck> dependency_duplicate_check();
void check_dependency_lag_invalid_story(Context& context, const TemplateSource& source, const Story& story);
void check_dependency_parent_child(Context& context);
void check_dependency_self_story(Context& context, const TemplateSource& source, const Story& story);
void check_dependency_source_mismatch_story(Context& context, const TemplateSource& source, const Story& story);
void check_dependency_target_missing(Context& context);
void check_dependency_type_invalid_story(Context& context, const TemplateSource& source, const Story& story);
void check_dependency_violated(Context& context);
void check_duplicate_key(Context& context);
void check_duration_mismatch_story(Context& context, const TemplateSource& source, const Story& story);
void check_json_syntax(Context& context);
void check_milestone_span_story(Context& context, const TemplateSource& source, const Story& story);
void check_nesting_depth(Context& context);
void check_raw_json_shape(Context& context);
std::unique_ptr<StoryCheck> rollup_mismatch_check();
void check_schedule_out_of_range(Context& context);
void check_schema(Context& context);
std::unique_ptr<StoryCheck> schema_check();
void check_story_type_invalid_story(Context& context, const TemplateSource& source, const Story& story);
void check_tag_list_format_story(Context& context, const TemplateSource& source, const Story& story);
void check_temp_id_duplicate(Context& context);
void check_temp_id_missing_story(Context& context, const TemplateSource& source, const Story& story);
std::unique_ptr<StoryCheck> template_budget_mismatch_check();
void check_template_duration_mismatch(Context& context);
void check_template_item_count_mismatch(Context& context);
void check_template_title_missing(Context& context);
void check_title_missing_story(Context& context, const TemplateSource& source, const Story& story);
void check_unknown_field(Context& context);
void check_unknown_field_story(Context& context, const TemplateSource& source, const Story& story);
void check_weight_not_milestone_story(Context& context, const TemplateSource& source, const Story& story);

}  // namespace ptmpl::rules
