// The schedule-health assessment of files as `ptmpl health` prints it (docs/commands/health.md):
// a table, JSON, and the CI formats of lint's reports (report.hpp) for the metrics that fail.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "libtemplate/core/diagnostic.hpp"
#include "libtemplate/core/health.hpp"
#include "libtemplate/core/report.hpp"

namespace ptmpl {

/// One file's assessment.
struct HealthReport {
  std::string path;
  HealthAssessment assessment;
};

/// A finding per metric of `report` that fails: its rule (`health-logic`, …), severity error,
/// the metric's summary (health_summary()) as message, about the whole file (line 0).
[[nodiscard]] std::vector<Diagnostic> health_findings(const HealthReport& report);

/// The reports in `format`:
/// - text: per file a table of the 14 metrics (count, of, share, threshold, result; why a
///   metric is not applicable), then a line counting the files and the metrics that failed;
/// - json: `{"files": [{"path", "stories", "links", "passed", "metrics": [{"number", "id",
///   "name", "rule", "applicable", …}]}], "failed"}` (docs/commands/health.md);
/// - sarif, github, junit, gitlab: lint's report of health_findings() (report.hpp).
[[nodiscard]] std::string format_health_report(ReportFormat format, std::span<const HealthReport> reports);

}  // namespace ptmpl
