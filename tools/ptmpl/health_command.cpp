// `ptmpl health`: the schedule-health assessment (DCMA 14-point) of templates and plans
// (docs/commands/health.md).
#include <algorithm>
#include <memory>

#include "commands.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/config.hpp"
#include "libtemplate/core/health_report.hpp"
#include "libtemplate/core/preview.hpp"

namespace ptmpl::cli {

namespace {

struct HealthOptions {
  std::vector<std::string> paths;
  std::string format = "text";
  std::size_t template_number = 0;
  std::string config;
  bool no_config = false;
};

// One file assessed, or why it cannot be (read as the schedule commands read: a plan converted
// first, a schedule with no dates refused).
Result<HealthReport> assess(const HealthOptions& o, const std::string& path) {
  auto thresholds =
      health_thresholds_for(path, o.config.empty() ? std::nullopt : std::optional(o.config), !o.no_config);
  if (!thresholds.ok()) return thresholds.error();
  ReadOptions options;
  options.release_text = true;
  auto read = read_template_or_plan(path, options);
  if (!read.ok()) return read.error();
  if (!read.value().note.empty()) report_note("health", read.value().note);
  const TemplateFile& file = read.value().file;
  auto source = schedulable_template(file, o.template_number);
  if (!source.ok()) return source.error();
  const ScheduledTemplate planned(source.value()->model.stories);
  std::vector<std::string> errors = schedule_errors(file, *source.value(), planned.schedule());
  if (!errors.empty()) {
    std::string lines;
    for (const std::string& error : errors) lines += (lines.empty() ? "" : "\n") + error;
    return Error::invalid(std::move(lines));
  }
  // The calendar block is read as schedule reads it: one with a problem is refused.
  if (auto calendar = resolve_calendar(file, *source.value(), CalendarFlags{}, &planned.schedule()); !calendar.ok())
    return calendar.error();
  for (const std::string& warning : schedule_value_warnings(file, *source.value(), "warning"))
    report_note("health", warning);
  if (auto warning = schedule_warning(file, planned.schedule())) report_note("health", *warning);
  return HealthReport{path,
                      assess_health(planned.schedule(), thresholds.value(), health_deadline(source.value()->model))};
}

}  // namespace

std::function<int()> setup_health(CLI::App& app) {
  auto o = std::make_shared<HealthOptions>();
  app.add_option("files", o->paths,
                 "templates ('-' reads standard input), or plans (.mpp, MS Project XML, .gan, XER, PMXML, "
                 "CSV, Excel) read as schedule reads them")
      ->required();
  app.add_option("--format", o->format, "output format: text (a table), json, sarif, github, junit or gitlab")
      ->check(one_of({"text", "json", "sarif", "github", "junit", "gitlab"}));
  app.add_option("--template", o->template_number,
                 "which template of a file that holds several (an API response), counting from 1")
      ->check(CLI::PositiveNumber);
  auto* config = app.add_option("--config", o->config,
                                "take the thresholds from this configuration's health rules (default: the "
                                "nearest .ptmpl.json)");
  app.add_flag("--no-config", o->no_config, "use DCMA's thresholds, no configuration file")->excludes(config);
  app.footer(
      "Prints the 14 metrics of the DCMA assessment: count, share, threshold and pass or fail;\n"
      "invalid dates, missed tasks, CPLI and BEI need progress or a baseline and are n/a.\n"
      "Thresholds are the options of the health-... rules in .ptmpl.json (ptmpl explain health-logic).\n"
      "Exit codes: 0 every applicable metric passes, 1 a metric fails, 2 usage error, unreadable or\n"
      "invalid file or configuration, a file with no schedule (dependency cycle).\n\n"
      "Example:\n  ptmpl health samples/erp-implementation.json --format json");
  return [o] {
    std::vector<HealthReport> reports;
    int status = kOk;
    for (const std::string& path : o->paths) {
      auto report = assess(*o, path);
      if (!report.ok()) {
        status = std::max(status, report_error("health", report.error()));
        continue;
      }
      reports.push_back(std::move(report).value());
    }
    if (reports.empty()) return status;
    const ReportFormat format = *parse_report_format(o->format);
    const std::string text = format_health_report(format, reports);
    Status shown = format == ReportFormat::Text ? write_for_person(text) : write_result("-", text);
    if (!shown.ok()) return std::max(status, report_error("health", shown.error()));
    const bool failed =
        std::any_of(reports.begin(), reports.end(), [](const HealthReport& r) { return !r.assessment.passed(); });
    return std::max(status, failed ? int{kFindings} : int{kOk});
  };
}

}  // namespace ptmpl::cli
