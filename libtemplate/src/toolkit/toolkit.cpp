// The toolkit (toolkit.hpp): each call runs what its command runs, through the same library
// calls and the same writers, and hands back what the command would print.
#include "libtemplate/toolkit/toolkit.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <span>
#include <utility>

#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/bundled.hpp"
#include "libtemplate/core/config.hpp"
#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/format_files.hpp"
#include "libtemplate/core/health_report.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/lint.hpp"
#include "libtemplate/core/preview.hpp"
#include "libtemplate/core/report.hpp"
#include "libtemplate/core/spelling.hpp"
#include "libtemplate/core/template_file.hpp"

namespace ptmpl::toolkit {

namespace {

std::vector<Finding> findings_of(const std::vector<Diagnostic>& diagnostics) {
  std::vector<Finding> out;
  out.reserve(diagnostics.size());
  for (const Diagnostic& d : diagnostics)
    out.push_back({d.rule, d.severity, d.message, d.path, d.line, d.column, d.pointer});
  return out;
}

// The date `start` names (YYYY-MM-DD); kUsage, naming it, when it names none.
Result<std::optional<Date>> date_option(const std::optional<std::string>& text, std::string_view name = "start") {
  if (!text) return std::optional<Date>();
  if (auto date = parse_date(*text)) return std::optional<Date>(*date);
  return Error::usage(std::string(name) + ": \"" + *text + "\" is not a date (expected YYYY-MM-DD)");
}

// The template file of `input`, as `schedule` and `stats` read it: a plan file converted first
// (its note among the warnings), a plan given as bytes refused, and a large file keeps its tree
// and model, not its text.
Result<TemplateFile> read_template(const Input& input, std::vector<std::string>& notes) {
  ReadOptions options;
  options.release_text = true;
  if (!input.bytes) {
    auto read = read_template_or_plan(input.path, options);
    if (!read.ok()) return read.error();
    if (!read.value().note.empty()) notes.push_back(std::move(read.value().note));
    return std::move(read.value().file);
  }
  SelectedTemplate selected = read_selected_template(input.path, FileText::borrow(*input.bytes), false, options);
  if (selected.plan) return *std::move(selected.plan);
  return std::move(*selected.file);
}

// Each message of `messages` a line: the notes the command line prints one by one.
Error invalid_lines(const std::vector<std::string>& messages) {
  std::string text;
  for (const std::string& message : messages) text += (text.empty() ? "" : "\n") + message;
  return Error::invalid(std::move(text));
}

// What schedule and stats share: the template chosen, its calendar, its schedule and why it has none.
struct Scheduled {
  explicit Scheduled(TemplateFile read) : file(std::move(read)) {}
  TemplateFile file;
  const TemplateSource* source = nullptr;
  std::optional<Calendar> calendar;
  std::optional<Date> finish;  // the deadline day 0 was placed back from
  std::unique_ptr<ScheduledTemplate> planned;
  std::vector<std::string> warnings;
};

Result<std::unique_ptr<Scheduled>> schedule_input(const Input& input, const ScheduleRequest& request) {
  CalendarFlags flags;
  auto start = date_option(request.start);
  if (!start.ok()) return start.error();
  flags.start = start.value();
  auto finish = date_option(request.finish, "finish");
  if (!finish.ok()) return finish.error();
  flags.finish = finish.value();
  std::vector<std::string> notes;
  auto read = read_template(input, notes);
  if (!read.ok()) return read.error();
  auto out = std::make_unique<Scheduled>(std::move(read).value());
  auto source = schedulable_template(out->file, request.template_number);
  if (!source.ok()) return source.error();
  out->source = source.value();
  out->planned = std::make_unique<ScheduledTemplate>(out->source->model.stories, ScheduleOptions{.asap = request.asap});
  const Schedule& schedule = out->planned->schedule();
  auto calendar = resolve_calendar(out->file, *out->source, flags, &schedule);
  if (!calendar.ok()) return calendar.error();
  out->calendar = std::move(calendar).value();
  out->finish = deadline_of(*out->source, flags);
  if (auto errors = schedule_errors(out->file, *out->source, schedule); !errors.empty()) return invalid_lines(errors);
  // The command's own order: the values read as absent, then the links that do not constrain.
  out->warnings = schedule_value_warnings(out->file, *out->source, request.strict ? "error" : "warning");
  if (request.strict && !out->warnings.empty()) return invalid_lines(out->warnings);
  out->warnings.insert(out->warnings.begin(), notes.begin(), notes.end());  // as the command line says it first
  if (auto warning = schedule_warning(out->file, schedule)) out->warnings.push_back(std::move(*warning));
  return out;
}

// A conversion as `ptmpl convert --to` asks for it.
Result<Conversion> run_conversion(std::string_view text, const std::string& path, const ConvertRequest& request,
                                  const ConvertOptions& options) {
  if (request.to == "template") return convert_plan(text, path, options);
  if (request.to == "csv") return export_csv(text, path, options);
  if (request.to != "mspdi" && request.to != "xlsx")
    return Error::usage("to: \"" + request.to + "\" is none of template, mspdi, csv and xlsx");
  ExportOptions exported;
  exported.strict = options.strict;
  exported.allow = options.allow;
  auto start = date_option(request.start);
  if (!start.ok()) return start.error();
  exported.start = start.value();
  exported.default_start = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
  return request.to == "mspdi" ? export_mspdi(text, path, exported) : export_xlsx(text, path, exported);
}

}  // namespace

Result<LintResult> lint(const Input& input, const LintRequest& request) {
  if (request.config_path && request.config_text) return Error::usage("a configuration by path or as text, not both");
  for (const std::string& id : request.select)
    if (find_rule(id) == nullptr && !is_rule_group(id)) return Error::usage(unknown_rule_message(id));
  std::optional<LintConfig> config;
  if (request.config_text) {
    auto parsed = LintConfig::parse(".ptmpl.json", *request.config_text);
    if (!parsed.ok()) return parsed.error();
    config = std::move(parsed).value();
  }
  LintSettings settings;
  settings.config_path = request.config_path;
  settings.config = config ? &*config : nullptr;
  settings.discover_config = request.discover_config;
  settings.select = request.select;
  LintRun run;
  if (input.bytes) {
    run = lint_texts({input.path}, std::span(&*input.bytes, 1), settings);
  } else {
    // A path as `ptmpl lint` takes it: one that does not exist named so, a folder's templates.
    auto paths = expand_paths({input.path});
    if (!paths.ok()) return paths.error();
    run = lint_files(paths.value(), settings);
  }
  for (const LintedFile& file : run.files)
    if (file.error) return *file.error;
  return LintResult{findings_of(run.diagnostics), format_report(ReportFormat::Json, run)};
}

Result<std::string> format(std::string_view text, const std::string& name) {
  FormattedFile formatted = format_text(name, text, {});
  if (formatted.error) return *formatted.error;
  if (!formatted.finding.empty()) {
    formatted.finding.pop_back();  // the line's end
    return Error::invalid(std::move(formatted.finding));
  }
  return std::move(formatted.output);
}

Result<Converted> convert(const Input& input, const ConvertRequest& request) {
  if (Status allowed = check_allowed(request.allow); !allowed.ok()) return allowed.error();
  const ConvertOptions options{request.strict, request.allow};
  auto converted = [&]() -> Result<Conversion> {
    // A plan file is read as `ptmpl convert` reads it (a .mpp only where its tables point).
    if (!input.bytes && request.to == "template") return convert_plan_file(input.path, options);
    if (input.bytes) return run_conversion(*input.bytes, input.path, request, options);
    auto bytes = FileText::read_text(input.path);
    if (!bytes.ok()) return bytes.error();
    return run_conversion(bytes.value().text(), input.path, request, options);
  }();
  if (!converted.ok()) return converted.error();
  Conversion& conversion = converted.value();
  LintRun run;
  run.files = {{.path = input.path, .error = {}}};
  run.diagnostics = std::move(conversion.diagnostics);
  run.failed = summarize(run.diagnostics).error > 0;
  Converted out;
  out.failed = run.failed;
  if (!out.failed) out.document = std::move(conversion.document);
  out.json = format_report(ReportFormat::Json, run, conversion_report_options(!run.failed));
  out.findings = findings_of(run.diagnostics);
  return out;
}

Result<JsonOutput> schedule(const Input& input, const ScheduleRequest& request) {
  auto scheduled = schedule_input(input, request);
  if (!scheduled.ok()) return scheduled.error();
  const Scheduled& s = *scheduled.value();
  PreviewOptions preview;
  preview.calendar = s.calendar;
  preview.finish = s.finish;
  std::vector<std::string> warnings = s.warnings;
  // The command's note of where a deadline put day 0, after its warnings.
  if (s.finish && s.calendar) warnings.push_back(deadline_note(*s.finish, *s.calendar, s.planned->schedule()));
  return JsonOutput{render_preview(s.planned->schedule(), PreviewFormat::Json, preview), std::move(warnings)};
}

Result<JsonOutput> stats(const Input& input, const ScheduleRequest& request) {
  auto scheduled = schedule_input(input, request);
  if (!scheduled.ok()) return scheduled.error();
  const Scheduled& s = *scheduled.value();
  const Rollup rollup(s.planned->index());
  if (auto errors = stats_errors(s.file, *s.source, rollup); !errors.empty()) return invalid_lines(errors);
  return JsonOutput{render_stats_json(compute_stats(s.planned->schedule(), rollup, s.calendar, s.finish)), s.warnings};
}

Result<JsonOutput> health(const Input& input, const HealthRequest& request) {
  auto thresholds = health_thresholds_for(input.path, request.config_path, request.discover_config);
  if (!thresholds.ok()) return thresholds.error();
  auto scheduled = schedule_input(input, ScheduleRequest{.template_number = request.template_number});
  if (!scheduled.ok()) return scheduled.error();
  const Scheduled& s = *scheduled.value();
  const HealthReport report{input.path,
                            assess_health(s.planned->schedule(), thresholds.value(), health_deadline(s.source->model))};
  return JsonOutput{format_health_report(ReportFormat::Json, std::span(&report, 1)), s.warnings};
}

Result<std::string> schema(std::string_view name) {
  if (auto text = bundled_schema(name)) return std::string(*text);
  return Error::usage("no schema " + json::quoted(name) + "; the schemas are raw_json, template and config");
}

std::vector<Rule> rules() {
  std::vector<Rule> out;
  for (const RuleInfo& rule : rule_catalogue())
    out.push_back({std::string(rule.id), rule.severity, rule.fix, std::string(rule.summary), std::string(rule.group)});
  return out;
}

}  // namespace ptmpl::toolkit
