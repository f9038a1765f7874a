// The schedule-health rules (docs/semantics.md §14), one per check of the DCMA 14-point
// assessment that a template answers: health-logic, health-leads, health-lags,
// health-relationship-types, health-hard-constraints, health-high-float, health-negative-float,
// health-high-duration, health-unassigned-work, health-critical-path-test. Off unless enabled.
//
// Each reports the offending stories or links where they are written and, when the share of a
// file's stories or links they make passes the rule's threshold, one finding that sums up the
// file at its (first) story list. The assessment (health.hpp) is computed once for them all.
#include <string>

#include "libtemplate/core/health.hpp"
#include "rules/rule.hpp"

namespace ptmpl {

HealthThresholds health_thresholds(const RuleSettings* settings) {
  HealthThresholds out;
  if (settings == nullptr) return out;
  // The value of option `name` of `rule`, when the configuration sets it (validated there).
  auto option = [&](std::string_view rule, std::string_view name) -> std::optional<double> {
    auto it = settings->find(rule);
    if (it == settings->end() || it->second.options == nullptr) return std::nullopt;
    const json::Value* value = it->second.options->find(name);
    return value != nullptr ? value->as_double() : std::nullopt;
  };
  for (std::size_t i = 0; i < kHealthMetrics; ++i) {
    const HealthMetricInfo& info = health_metric_info(static_cast<HealthMetricId>(i));
    if (info.rule.empty()) continue;
    const std::string_view name = info.kind == HealthKind::AtLeast ? "min_percent" : "max_percent";
    if (auto percent = option(info.rule, name)) out.percent[i] = *percent;
  }
  if (auto days = option("health-high-float", "days")) out.high_float_days = static_cast<std::int64_t>(*days);
  if (auto days = option("health-high-duration", "days")) out.high_duration_days = static_cast<std::int64_t>(*days);
  if (auto days = option("health-critical-path-test", "delay_days")) out.delay_days = static_cast<std::int64_t>(*days);
  return out;
}

namespace rules {

namespace {

// What a finding on one offending story or link of `metric` says.
std::string story_message(HealthMetricId metric, const ScheduleHealth& health, std::size_t i) {
  const Story& story = health.schedule.graph().story(i);
  const ScheduledStory& s = health.schedule[i];
  switch (metric) {
    case HealthMetricId::HardConstraints:
      return "relative_start_date " + std::to_string(*story.relative_start_date) +
             " holds the story later than its links would start it";
    case HealthMetricId::HighFloat:
      return "total float of " + std::to_string(s.total_float) + " working days";
    case HealthMetricId::NegativeFloat: {
      const std::int64_t late = -health.assessment.deadline_slack.value_or(0);
      return "total float of " + std::to_string(float_to_deadline(health.assessment, s)) +
             " working days to the calendar's finish: the project ends " + std::to_string(late) +
             (late == 1 ? " working day" : " working days") + " after it";
    }
    case HealthMetricId::HighDuration:
      return "lasts " + std::to_string(s.early.length()) + " working days";
    case HealthMetricId::Resources:
      return "time estimate of " + std::to_string(*story.time_estimate_in_minutes) + " minutes and no assignment";
    default:
      return "";
  }
}

std::string link_message(HealthMetricId metric, const Link& link) {
  switch (metric) {
    case HealthMetricId::Leads:
      return "a lead: lag " + std::to_string(link.lag) + " working days";
    case HealthMetricId::Lags:
      return "a lag of " + std::to_string(link.lag) + " working days";
    default:
      return "a " + std::string(link_ends(*link.type).name) + " link, not finish-to-start";
  }
}

// What a story health-logic found lacks (HealthMetric::lacks).
std::string logic_message(std::uint8_t lacks) {
  switch (lacks) {
    case HealthMetric::kNoPredecessor:
      return "no predecessor: no link drives its start";
    case HealthMetric::kNoSuccessor:
      return "no successor: no link follows its finish";
    default:
      return "neither a predecessor nor a successor: no link drives or follows it";
  }
}

// Reports `metric` of each template of the file under `rule`: its offending stories and links,
// and one finding for the file when the shares summed over its templates fail.
void check_metric(Context& context, std::string_view rule, HealthMetricId metric) {
  const RuleInfo& info = *find_rule(rule);
  HealthMetric file_total;
  file_total.id = metric;
  const TemplateSource* first = nullptr;
  for (const TemplateSource& source : context.file().templates()) {
    const ScheduleHealth& health = context.health(source);
    if (!health.schedule.ok()) continue;  // a cycle or dates out of range: their rules say so
    const HealthMetric& m = health.assessment[metric];
    const DependencyGraph& graph = health.schedule.graph();
    for (std::size_t k = 0; k < m.stories.size(); ++k) {
      const std::size_t story = m.stories[k];
      const Story& s = graph.story(story);
      std::string message = metric == HealthMetricId::Logic ? logic_message(m.lacks[k])
                            : metric == HealthMetricId::CriticalPathTest
                                ? "delaying this critical story by " + std::to_string(m.total) +
                                      " working days moves the finish by " + std::to_string(m.count) +
                                      ": the links after it do not carry its delay to the finish"
                                : story_message(metric, health, story);
      context.report(rule, info.severity, source, s.origin.node, s.pointer(), std::move(message));
    }
    for (std::size_t l : m.links) {
      const Link& link = graph.links()[l];
      const Story& owner = graph.story(link.source);
      context.report(rule, info.severity, source, link.dependency->node, owner.dependency_pointer(*link.dependency),
                     link_message(metric, link));
    }
    if (first == nullptr) first = &source;
    file_total.count += m.count;
    file_total.total += m.total;
    file_total.threshold = m.threshold;
    file_total.days = m.days;
  }
  const HealthKind kind = health_metric_info(metric).kind;
  if (first == nullptr || kind == HealthKind::Test) return;
  file_total.passed = within_threshold(file_total);
  if (auto summary = health_summary(file_total))
    context.report(rule, info.severity, *first, *first->story_list, first->story_prefix, *std::move(summary));
}

}  // namespace

void check_health_critical_path_test(Context& context) {
  check_metric(context, "health-critical-path-test", HealthMetricId::CriticalPathTest);
}
void check_health_hard_constraints(Context& context) {
  check_metric(context, "health-hard-constraints", HealthMetricId::HardConstraints);
}
void check_health_high_duration(Context& context) {
  check_metric(context, "health-high-duration", HealthMetricId::HighDuration);
}
void check_health_high_float(Context& context) {
  check_metric(context, "health-high-float", HealthMetricId::HighFloat);
}
void check_health_lags(Context& context) {
  check_metric(context, "health-lags", HealthMetricId::Lags);
}
void check_health_leads(Context& context) {
  check_metric(context, "health-leads", HealthMetricId::Leads);
}
void check_health_logic(Context& context) {
  check_metric(context, "health-logic", HealthMetricId::Logic);
}
void check_health_negative_float(Context& context) {
  check_metric(context, "health-negative-float", HealthMetricId::NegativeFloat);
}
void check_health_relationship_types(Context& context) {
  check_metric(context, "health-relationship-types", HealthMetricId::RelationshipTypes);
}
void check_health_unassigned_work(Context& context) {
  check_metric(context, "health-unassigned-work", HealthMetricId::Resources);
}

}  // namespace rules
}  // namespace ptmpl
