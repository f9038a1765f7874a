// Schedule health: the DCMA 14-point assessment of a template's schedule, as far as a plan
// without progress answers it (docs/semantics.md §14). What the `health-…` lint rules report
// and `ptmpl health` prints.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/core/model.hpp"
#include "libtemplate/core/schedule.hpp"

namespace ptmpl {

/// How a metric is judged.
enum class HealthKind : std::uint8_t {
  AtMost,         ///< the share of `total` that `count` is must not exceed the threshold
  AtLeast,        ///< the share must reach the threshold (relationship types)
  Test,           ///< the critical path test: the finish moves by the whole delay
  NotApplicable,  ///< needs progress, a status date or a baseline, which a template has not
};

/// The 14 metrics, in DCMA's order (their number is the index + 1).
enum class HealthMetricId : std::uint8_t {
  Logic,
  Leads,
  Lags,
  RelationshipTypes,
  HardConstraints,
  HighFloat,
  NegativeFloat,
  HighDuration,
  InvalidDates,
  Resources,
  MissedTasks,
  CriticalPathTest,
  Cpli,
  Bei,
};
inline constexpr std::size_t kHealthMetrics = 14;

/// What stays the same for every template: a metric's names and how it is judged.
struct HealthMetricInfo {
  std::string_view id;    ///< "logic", "high-float", … (the JSON's `id`)
  std::string_view name;  ///< "Logic", "High float", … (the table's)
  std::string_view rule;  ///< "health-logic", …; "" for a metric that is not applicable
  HealthKind kind = HealthKind::AtMost;
  /// What `count` counts ("stories without a predecessor or a successor"), or, for a metric
  /// that is not applicable, why it is not.
  std::string_view counted;
};

/// The metric `id`'s names and kind.
[[nodiscard]] const HealthMetricInfo& health_metric_info(HealthMetricId id);

/// DCMA's thresholds, and the delay of the critical path test: the defaults of the options of
/// the `health-…` rules (docs/rules/health-*.md).
struct HealthThresholds {
  /// Percent, by metric: the most a share may be (AtMost), the least (AtLeast); ignored for
  /// the others.
  std::array<double, kHealthMetrics> percent{5, 0, 5, 90, 5, 5, 0, 5, 0, 0, 0, 0, 0, 0};
  std::int64_t high_float_days = 44;     ///< more total float than this is high
  std::int64_t high_duration_days = 44;  ///< longer than this is high
  std::int64_t delay_days = 600;         ///< the critical path test's delay

  [[nodiscard]] double& operator[](HealthMetricId id) { return percent[static_cast<std::size_t>(id)]; }
  [[nodiscard]] double operator[](HealthMetricId id) const { return percent[static_cast<std::size_t>(id)]; }
};

/// One metric of a template.
struct HealthMetric {
  HealthMetricId id = HealthMetricId::Logic;
  std::size_t count = 0;             ///< offending stories or links; Test: the days the finish moved
  std::size_t total = 0;             ///< stories or links judged; Test: the delay
  double threshold = 0;              ///< percent (AtMost, AtLeast)
  std::optional<std::int64_t> days;  ///< HighFloat, HighDuration: the working days above which they count
  bool passed = true;                ///< false only for a metric that fails (never for NotApplicable)
  /// The offending stories (pre-order indices; Test: the story delayed, when it failed) and
  /// links (indices in the graph's links()), in order.
  std::vector<std::size_t> stories;
  std::vector<std::size_t> links;
  /// Logic: parallel to `stories`, what each lacks: kNoPredecessor, kNoSuccessor or both.
  std::vector<std::uint8_t> lacks;
  static constexpr std::uint8_t kNoPredecessor = 1;
  static constexpr std::uint8_t kNoSuccessor = 2;
  /// Test: the story delayed (npos without a critical story: nothing to test).
  std::size_t tested = Schedule::npos;
  std::string tested_reference;  ///< Test: the story delayed as messages name it (story_reference())

  [[nodiscard]] const HealthMetricInfo& info() const { return health_metric_info(id); }
  /// count / total in percent; 0 when total is 0.
  [[nodiscard]] double share() const;
};

/// The assessment of one template: the 14 metrics in DCMA's order.
struct HealthAssessment {
  std::array<HealthMetric, kHealthMetrics> metrics{};
  std::size_t stories = 0;  ///< leaves: tasks, deliverables and milestones (parents are roll-ups)
  std::size_t links = 0;    ///< links that constrain the schedule (Link::schedulable())
  /// With a deadline: working days from the project's due (its last day, §4) to the
  /// deadline's (negative when the project ends after it).
  std::optional<std::int64_t> deadline_slack;
  /// The deadline's offset, and the boundary the backward pass started from (one past the
  /// project's last working day, or at a start-side milestone that ends it).
  std::optional<std::int64_t> deadline;
  std::int64_t project_finish = 0;

  [[nodiscard]] const HealthMetric& operator[](HealthMetricId id) const {
    return metrics[static_cast<std::size_t>(id)];
  }
  /// Whether every applicable metric passed.
  [[nodiscard]] bool passed() const;
};

/// Assesses `schedule` (which must be ok()) with `thresholds`. The critical path test schedules
/// the template again with the first leaf of its first critical chain made `delay_days` longer.
/// `deadline` (deadline_offset(): the working day the project must end by, as an offset) makes
/// the float of negative float count from it rather than from the project's own finish, which
/// the backward pass starts from: without one, no float is negative.
[[nodiscard]] HealthAssessment assess_health(const Schedule& schedule, const HealthThresholds& thresholds = {},
                                             std::optional<std::int64_t> deadline = std::nullopt);

/// The deadline negative float counts to: the offset deadline_offset() gives for the calendar
/// block of `model`, when it has a start and a finish and no problem (calendar_block_problems()).
[[nodiscard]] std::optional<std::int64_t> health_deadline(const Template& model);

/// A story's total float counted back from the deadline of `assessment` (its own total float
/// without one): the working days it may slip and still show no day after the deadline's. A
/// story's float counts from the boundary after the deadline's day, as the backward pass's
/// from the project's finish; a start-side milestone (or leaf of length 0) shows on the day
/// after its boundary, so it may also be no later than the deadline's day itself.
[[nodiscard]] std::int64_t float_to_deadline(const HealthAssessment& assessment, const ScheduledStory& story);

/// Whether the share of `metric` (AtMost, AtLeast) keeps to its threshold: at most or at least
/// it. A metric with nothing to judge (`total` 0) does; so does one of another kind.
[[nodiscard]] bool within_threshold(const HealthMetric& metric);

/// The sentence of a failed share or test, for the finding that sums up a file and the CI
/// formats of `ptmpl health`: "stories without a predecessor or a successor: 2 of 25 (8 %);
/// DCMA's threshold is at most 5 %"; nullopt when `metric` passed.
[[nodiscard]] std::optional<std::string> health_summary(const HealthMetric& metric);

/// A percentage as the table and the messages print it: "8 %", "12.5 %", "0.33 %".
[[nodiscard]] std::string format_percent(double percent);

}  // namespace ptmpl
