// `ptmpl health`'s output (health_report.hpp): the table, its JSON, and the failed metrics
// through lint's report writers for CI.
#include "libtemplate/core/health_report.hpp"

#include <algorithm>

#include "libtemplate/core/json_emitter.hpp"
#include "libtemplate/core/lint.hpp"

namespace ptmpl {

namespace {

// The comparison a metric's threshold makes, as the JSON names it.
std::string_view comparison(HealthKind kind) {
  switch (kind) {
    case HealthKind::AtMost:
      return "at_most";
    case HealthKind::AtLeast:
      return "at_least";
    case HealthKind::Test:
      return "all";
    case HealthKind::NotApplicable:
      break;
  }
  return "";
}

// The threshold column: "at most 5 %", "at least 90 %", "100 %" for the test.
std::string threshold_text(const HealthMetric& metric) {
  switch (metric.info().kind) {
    case HealthKind::AtMost:
      return "at most " + format_percent(metric.threshold);
    case HealthKind::AtLeast:
      return "at least " + format_percent(metric.threshold);
    case HealthKind::Test:
      return "100 %";
    case HealthKind::NotApplicable:
      break;
  }
  return "-";
}

std::string pad_left(std::string text, std::size_t width) {
  return std::string(width > text.size() ? width - text.size() : 0, ' ') + text;
}

std::string pad_right(std::string text, std::size_t width) {
  text.resize(std::max(width, text.size()), ' ');
  return text;
}

void append_table(std::string& out, const HealthReport& report) {
  const HealthAssessment& a = report.assessment;
  out += report.path + ": schedule health (DCMA 14-point), " + std::to_string(a.stories) + " stories, " +
         std::to_string(a.links) + " links\n";
  out += " #  metric              count     of   share  threshold      result\n";
  for (const HealthMetric& metric : a.metrics) {
    const HealthMetricInfo& info = metric.info();
    out += pad_left(std::to_string(static_cast<int>(metric.id) + 1), 2) + "  " + pad_right(std::string(info.name), 18);
    if (info.kind == HealthKind::NotApplicable) {
      out += pad_left("-", 7) + pad_left("-", 7) + pad_left("-", 8) + "  " + pad_right("-", 13) +
             "  n/a: " + std::string(info.counted) + "\n";
      continue;
    }
    const bool untested = info.kind == HealthKind::Test && metric.tested == Schedule::npos;
    out += pad_left(untested ? "-" : std::to_string(metric.count), 7) + pad_left(std::to_string(metric.total), 7) +
           pad_left(metric.total == 0 || untested ? "-" : format_percent(metric.share()), 8) + "  " +
           pad_right(threshold_text(metric), 13) + "  " + (metric.passed ? "pass" : "fail");
    if (info.kind == HealthKind::Test)
      out += untested ? ": no critical story to delay"
                      : ": story " + metric.tested_reference + " delayed " + std::to_string(metric.total) + " days";
    else if (metric.days)
      out += ": over " + std::to_string(*metric.days) + " working days";
    out += '\n';
  }
}

void append_json(JsonEmitter& json, const HealthReport& report) {
  const HealthAssessment& a = report.assessment;
  json.begin_object();
  json.member("path", report.path);
  json.member("stories", a.stories);
  json.member("links", a.links);
  json.key("passed");
  json.boolean(a.passed());
  json.key("metrics");
  json.begin_array();
  for (const HealthMetric& metric : a.metrics) {
    const HealthMetricInfo& info = metric.info();
    json.begin_object(JsonLayout::Line);
    json.member("number", static_cast<int>(metric.id) + 1);
    json.member("id", info.id);
    json.member("name", info.name);
    json.key("applicable");
    json.boolean(info.kind != HealthKind::NotApplicable);
    if (info.kind == HealthKind::NotApplicable) {
      json.member("reason", info.counted);
      json.end_object();
      continue;
    }
    if (!info.rule.empty()) json.member("rule", info.rule);
    json.member("counted", info.counted);
    json.member("count", metric.count);
    json.member("total", metric.total);
    json.key("share");
    json.number(metric.share());
    json.member("comparison", comparison(info.kind));
    json.key("threshold");
    json.number(info.kind == HealthKind::Test ? 100.0 : metric.threshold);
    if (metric.days) json.member("days", *metric.days);
    if (info.kind == HealthKind::Test) {
      json.key("story");
      if (metric.tested == Schedule::npos)
        json.null();
      else
        json.string(metric.tested_reference);
    }
    json.key("passed");
    json.boolean(metric.passed);
    json.end_object();
  }
  json.end_array();
  json.end_object();
}

std::size_t failed_metrics(const HealthReport& report) {
  return static_cast<std::size_t>(std::count_if(report.assessment.metrics.begin(), report.assessment.metrics.end(),
                                                [](const HealthMetric& m) { return !m.passed; }));
}

}  // namespace

std::vector<Diagnostic> health_findings(const HealthReport& report) {
  std::vector<Diagnostic> out;
  for (const HealthMetric& metric : report.assessment.metrics) {
    std::optional<std::string> summary = health_summary(metric);
    if (!summary) continue;
    Diagnostic finding;
    finding.rule = metric.info().rule;
    finding.severity = Severity::Error;
    finding.message = *std::move(summary);
    finding.path = report.path;
    out.push_back(std::move(finding));
  }
  return out;
}

std::string format_health_report(ReportFormat format, std::span<const HealthReport> reports) {
  std::size_t failed = 0;
  for (const HealthReport& report : reports) failed += failed_metrics(report);
  if (format == ReportFormat::Text) {
    std::string out;
    for (const HealthReport& report : reports) {
      if (!out.empty()) out += '\n';
      append_table(out, report);
    }
    const std::size_t files = reports.size();
    out += std::to_string(files) + (files == 1 ? " file" : " files") + " assessed: ";
    out += failed == 0 ? "every applicable metric passes\n"
                       : std::to_string(failed) + (failed == 1 ? " metric fails\n" : " metrics fail\n");
    return out;
  }
  if (format == ReportFormat::Json) {
    JsonEmitter json(JsonLayout::Pretty);
    json.begin_object();
    json.key("files");
    json.begin_array();
    for (const HealthReport& report : reports) append_json(json, report);
    json.end_array();
    json.member("failed", failed);
    json.end_object();
    return json.finish();
  }
  LintRun run;
  for (const HealthReport& report : reports) {
    run.files.push_back({.path = report.path, .error = {}});
    std::vector<Diagnostic> findings = health_findings(report);
    run.diagnostics.insert(run.diagnostics.end(), findings.begin(), findings.end());
  }
  run.failed = failed > 0;
  ReportOptions options;
  options.command = "health";  // junit: the suite is "ptmpl health"
  return format_report(format, run, options);
}

}  // namespace ptmpl
