// Schedule health (health.hpp): DCMA's 14 metrics over a template's schedule.
#include "libtemplate/core/health.hpp"

#include <algorithm>
#include <cstdio>

#include "libtemplate/core/calendar.hpp"

namespace ptmpl {

namespace {

constexpr std::array<HealthMetricInfo, kHealthMetrics> kMetrics = {{
    {"logic", "Logic", "health-logic", HealthKind::AtMost, "stories without a predecessor or a successor"},
    {"leads", "Leads", "health-leads", HealthKind::AtMost, "links with a negative lag"},
    {"lags", "Lags", "health-lags", HealthKind::AtMost, "links with a positive lag"},
    {"relationship-types", "Relationship types", "health-relationship-types", HealthKind::AtLeast,
     "finish-to-start links"},
    {"hard-constraints", "Hard constraints", "health-hard-constraints", HealthKind::AtMost,
     "stories held later than their links by a declared start"},
    {"high-float", "High float", "health-high-float", HealthKind::AtMost, "stories with high total float"},
    // Only with a deadline (the calendar block's start and finish): the backward pass starts
    // from the project's own finish, so without one no float is negative.
    {"negative-float", "Negative float", "health-negative-float", HealthKind::AtMost,
     "stories with negative total float (to the calendar's finish)"},
    {"high-duration", "High duration", "health-high-duration", HealthKind::AtMost, "stories with a high duration"},
    {"invalid-dates", "Invalid dates", "", HealthKind::NotApplicable,
     "needs actual dates and a status date; a template has no progress"},
    {"resources", "Resources", "health-unassigned-work", HealthKind::AtMost,
     "stories with a time estimate and no assignment"},
    {"missed-tasks", "Missed tasks", "", HealthKind::NotApplicable,
     "needs a baseline and actual finishes; a template has neither"},
    {"critical-path-test", "Critical path test", "health-critical-path-test", HealthKind::Test,
     "working days the finish moved"},
    {"cpli", "CPLI", "", HealthKind::NotApplicable, "needs a baseline finish and a status date; a template has none"},
    {"bei", "BEI", "", HealthKind::NotApplicable, "needs a baseline and actual finishes; a template has neither"},
}};

HealthMetric& at(HealthAssessment& a, HealthMetricId id) {
  return a.metrics[static_cast<std::size_t>(id)];
}

// Whether each story has a link into it and out of it that constrains the schedule, on itself
// or an ancestor: a link into a parent binds every story inside, a link out of one reads the
// stories inside (docs/semantics.md §5).
struct LinkedEnds {
  std::vector<std::uint8_t> in;
  std::vector<std::uint8_t> out;
};

LinkedEnds linked_ends(const DependencyGraph& graph) {
  const std::size_t n = graph.size();
  LinkedEnds ends{std::vector<std::uint8_t>(n, 0), std::vector<std::uint8_t>(n, 0)};
  for (const Link& link : graph.links()) {
    if (!link.schedulable()) continue;
    ends.out[link.source] = 1;
    ends.in[link.target] = 1;
  }
  for (std::size_t i = 0; i < n; ++i) {  // pre-order: a parent before the stories inside it
    const std::size_t parent = graph.parent(i);
    if (parent == DependencyGraph::npos) continue;
    ends.in[i] |= ends.in[parent];
    ends.out[i] |= ends.out[parent];
  }
  return ends;
}

// The share metrics over the leaves.
void assess_stories(const Schedule& schedule, const HealthThresholds& thresholds, HealthAssessment& out) {
  const DependencyGraph& graph = schedule.graph();
  const StoryIndex& index = graph.index();
  const LinkedEnds ends = linked_ends(graph);
  // The first story and the last may lack a predecessor and a successor: the earliest start
  // (the first in the outline of several) and the latest finish (the last of several).
  std::size_t first = Schedule::npos;
  std::size_t last = Schedule::npos;
  for (std::size_t i = 0; i < index.size(); ++i) {
    if (index.is_parent(i)) continue;
    const Interval& early = schedule[i].early;
    if (first == Schedule::npos || early.start < schedule[first].early.start) first = i;
    if (last == Schedule::npos || early.finish >= schedule[last].early.finish) last = i;
  }
  for (std::size_t i = 0; i < index.size(); ++i) {
    if (index.is_parent(i)) continue;
    ++out.stories;
    const Story& story = index.story(i);
    const ScheduledStory& s = schedule[i];
    const std::uint8_t lacks = (ends.in[i] == 0 && i != first ? HealthMetric::kNoPredecessor : 0) |
                               (ends.out[i] == 0 && i != last ? HealthMetric::kNoSuccessor : 0);
    if (lacks != 0) {
      at(out, HealthMetricId::Logic).stories.push_back(i);
      at(out, HealthMetricId::Logic).lacks.push_back(lacks);
    }
    // A declared start holds the story where its links would have started it earlier (ties go
    // to the links: Schedule::binding_link()).
    if (ends.in[i] != 0 && story.relative_start_date && schedule.binding_link(i) == Schedule::npos &&
        s.early.start == *story.relative_start_date)
      at(out, HealthMetricId::HardConstraints).stories.push_back(i);
    if (s.total_float > thresholds.high_float_days) at(out, HealthMetricId::HighFloat).stories.push_back(i);
    if (float_to_deadline(out, s) < 0) at(out, HealthMetricId::NegativeFloat).stories.push_back(i);
    if (s.early.length() > thresholds.high_duration_days) at(out, HealthMetricId::HighDuration).stories.push_back(i);
    const bool assigned = story.assignments && !story.assignments->empty();
    if (story.time_estimate_in_minutes.value_or(0) > 0 && !assigned)
      at(out, HealthMetricId::Resources).stories.push_back(i);
  }
  at(out, HealthMetricId::HighFloat).days = thresholds.high_float_days;
  at(out, HealthMetricId::HighDuration).days = thresholds.high_duration_days;
  for (HealthMetricId id : {HealthMetricId::Logic, HealthMetricId::HardConstraints, HealthMetricId::HighFloat,
                            HealthMetricId::NegativeFloat, HealthMetricId::HighDuration, HealthMetricId::Resources})
    at(out, id).total = out.stories;
}

// The share metrics over the links.
void assess_links(const DependencyGraph& graph, HealthAssessment& out) {
  const auto links = graph.links();
  for (std::size_t l = 0; l < links.size(); ++l) {
    const Link& link = links[l];
    if (!link.schedulable()) continue;
    ++out.links;
    if (link.lag < 0) at(out, HealthMetricId::Leads).links.push_back(l);
    if (link.lag > 0) at(out, HealthMetricId::Lags).links.push_back(l);
    if (*link.type != DependencyType::FinishToStart) at(out, HealthMetricId::RelationshipTypes).links.push_back(l);
  }
  for (HealthMetricId id : {HealthMetricId::Leads, HealthMetricId::Lags, HealthMetricId::RelationshipTypes})
    at(out, id).total = out.links;
  // Relationship types counts the finish-to-start links; the offending ones are the others.
  HealthMetric& types = at(out, HealthMetricId::RelationshipTypes);
  types.count = out.links - types.links.size();
}

// The critical path test: the first leaf of the chain that ends the project made longer by the
// delay, and the template scheduled again; the finish must move by the whole delay.
void assess_critical_path(const Schedule& schedule, const HealthThresholds& thresholds, HealthMetric& out) {
  out.total = static_cast<std::size_t>(std::max<std::int64_t>(thresholds.delay_days, 0));
  const StoryIndex& index = schedule.graph().index();
  for (const std::vector<std::size_t>& chain : schedule.critical_chains()) {
    for (std::size_t story : chain)
      if (!index.is_parent(story)) {
        out.tested = story;
        break;
      }
    if (out.tested != Schedule::npos) break;
  }
  if (out.tested == Schedule::npos || !schedule.project()) return;
  out.tested_reference = story_reference(index.story(out.tested));
  const Schedule delayed(schedule.graph(),
                         ScheduleOptions{.delay = ScheduleOptions::Delay{out.tested, thresholds.delay_days}});
  const std::int64_t moved =
      delayed.ok() && delayed.project() ? delayed.project()->finish - schedule.project()->finish : 0;
  out.count = static_cast<std::size_t>(std::max<std::int64_t>(moved, 0));
  out.passed = moved == thresholds.delay_days;
  if (!out.passed) out.stories.push_back(out.tested);
}

}  // namespace

const HealthMetricInfo& health_metric_info(HealthMetricId id) {
  return kMetrics[static_cast<std::size_t>(id)];
}

double HealthMetric::share() const {
  return total == 0 ? 0 : 100.0 * static_cast<double>(count) / static_cast<double>(total);
}

bool HealthAssessment::passed() const {
  return std::all_of(metrics.begin(), metrics.end(), [](const HealthMetric& m) { return m.passed; });
}

std::optional<std::int64_t> health_deadline(const Template& model) {
  // A block with a problem is refused by the commands and reported by lint's calendar-invalid:
  // its deadline is not guessed from what could be read of it.
  if (!model.calendar) return std::nullopt;
  const json::Value& node = model.calendar->node;  // null for a block built, not read
  if (!node.is_null() && !calendar_block_problems(node).empty()) return std::nullopt;
  return deadline_offset(*model.calendar);
}

std::int64_t float_to_deadline(const HealthAssessment& assessment, const ScheduledStory& story) {
  if (!assessment.deadline) return story.total_float;
  const std::int64_t to_boundary = story.total_float + (*assessment.deadline + 1 - assessment.project_finish);
  const Interval& early = story.early;
  if (early.length() == 0 && !early.end_side) return std::min(to_boundary, *assessment.deadline - early.start);
  return to_boundary;
}

HealthAssessment assess_health(const Schedule& schedule, const HealthThresholds& thresholds,
                               std::optional<std::int64_t> deadline) {
  HealthAssessment out;
  if (deadline && schedule.project()) {
    out.deadline = deadline;
    out.deadline_slack = *deadline - schedule.project()->due;
    out.project_finish = schedule.project()->finish;
  }
  for (std::size_t i = 0; i < kHealthMetrics; ++i) {
    out.metrics[i].id = static_cast<HealthMetricId>(i);
    out.metrics[i].threshold = thresholds.percent[i];
  }
  assess_stories(schedule, thresholds, out);
  assess_links(schedule.graph(), out);
  assess_critical_path(schedule, thresholds, at(out, HealthMetricId::CriticalPathTest));
  for (HealthMetric& metric : out.metrics) {
    const HealthKind kind = metric.info().kind;
    if (kind != HealthKind::AtMost && kind != HealthKind::AtLeast) continue;
    if (metric.id != HealthMetricId::RelationshipTypes) metric.count = metric.stories.size() + metric.links.size();
    metric.passed = within_threshold(metric);
  }
  return out;
}

bool within_threshold(const HealthMetric& metric) {
  if (metric.total == 0) return true;
  switch (metric.info().kind) {
    case HealthKind::AtMost:
      return metric.share() <= metric.threshold;
    case HealthKind::AtLeast:
      return metric.share() >= metric.threshold;
    default:
      return true;
  }
}

std::string format_percent(double percent) {
  // Two significant decimals below 1 %, one below 10 %, whole numbers above; no trailing zeros.
  char text[32];
  const int decimals = percent == 0 || percent >= 10 ? 0 : percent >= 1 ? 1 : 2;
  std::snprintf(text, sizeof text, "%.*f", decimals, percent);
  std::string out = text;
  if (out.find('.') != std::string::npos) {
    while (out.back() == '0') out.pop_back();
    if (out.back() == '.') out.pop_back();
  }
  return out + " %";
}

std::optional<std::string> health_summary(const HealthMetric& metric) {
  if (metric.passed) return std::nullopt;
  const HealthMetricInfo& info = metric.info();
  if (info.kind == HealthKind::Test)
    return "delaying critical story " + metric.tested_reference + " by " + std::to_string(metric.total) +
           " working days moves the finish by " + std::to_string(metric.count) +
           "; DCMA's test wants it moved by as much";
  std::string counted(info.counted);
  if (metric.days) counted += " (over " + std::to_string(*metric.days) + " working days)";
  return counted + ": " + std::to_string(metric.count) + " of " + std::to_string(metric.total) + " (" +
         format_percent(metric.share()) + "); DCMA's threshold is " +
         (info.kind == HealthKind::AtMost ? "at most " : "at least ") + format_percent(metric.threshold);
}

}  // namespace ptmpl
