// ptmpl convert: external plans (MS Project XML, GanttProject, CSV) into template documents,
// and templates into MS Project XML or CSV.
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <utility>

#include <unistd.h>

#include "commands.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/lint.hpp"
#include "libtemplate/core/report.hpp"
#include "libtemplate/core/template_file.hpp"

namespace ptmpl::cli {

namespace {

// A template → MS Project XML, with day 0 on `start` (when empty: the calendar block's start,
// else today).
Result<Conversion> to_mspdi(const std::string& path, std::string_view text, const std::string& start, bool strict) {
  ExportOptions options;
  options.strict = strict;
  if (start.empty()) {
    options.default_start = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
  } else if (const auto date = parse_date(start)) {
    options.start = *date;
  } else {
    return Error::usage("--start " + start + ": not a date of the form YYYY-MM-DD");
  }
  if (detect_plan_format(text) != PlanFormat::Template)
    return Error::usage(path + ": --to mspdi writes a template as MS Project XML; this is not a template (JSON)");
  const TemplateFile file = TemplateFile::parse(path, FileText(std::string(text)));
  if (!file.document().ok()) {
    const json::ParseIssue& issue = file.document().issues().front();
    const json::Position p = file.document().position(issue.offset);
    return Error::invalid(format_place(path, p.line, p.column) + ": " + issue.message);
  }
  return export_mspdi(file, options);
}

}  // namespace

std::function<int()> setup_convert(CLI::App& app) {
  struct Options {
    std::string input;
    std::string output;
    std::string to;
    std::string start;
    std::string format = "text";
    bool strict = false;
    bool verbose = false;
  };
  auto o = std::make_shared<Options>();
  app.add_option("input", o->input,
                 "the plan to convert: Microsoft Project .mpp (Project 2000 and later) or XML (MSPDI), GanttProject "
                 ".gan, CSV; with --to mspdi|csv, a template")
      ->required();
  app.add_option("-o,--output", o->output, "write the result here (atomically) instead of standard output");
  app.add_option("--to", o->to,
                 "what to write: template (from a plan), mspdi or csv (from a template); default: from -o's "
                 "extension (.xml: mspdi, .csv: csv), else template")
      ->check(CLI::IsMember({"template", "mspdi", "csv"}));
  app.add_option("--start", o->start,
                 "--to mspdi: the date of day 0, YYYY-MM-DD (default: the template's calendar block, else today)");
  app.add_option("--format", o->format,
                 "how to print the conversion's findings: text, json, sarif, github, junit, gitlab")
      ->check(CLI::IsMember({"text", "json", "sarif", "github", "junit", "gitlab"}));
  app.add_flag("--strict", o->strict, "treat every approximation or loss as an error (exit 1, nothing written)");
  app.add_flag("-v,--verbose", o->verbose,
               "text format: list every finding (3 or more of one id are otherwise folded into one line)");
  app.footer(
      "The input's format is detected from its content. Every approximation or loss (constraints,\n"
      "progress, calendars, rates, columns a CSV lacks, …) is reported with its own id on standard\n"
      "error (docs/commands/convert.md lists them all, and the CSV columns); in the text format, 3 or\n"
      "more findings of one id are one line naming their count and the first place (--verbose lists each).\n"
      "Exit codes: 0 converted, 1 converted with errors (--strict: nothing written),\n"
      "2 unreadable, not a plan (or not a template with --to mspdi|csv), or a bad CSV cell.\n\n"
      "Examples:\n  ptmpl convert plan.xml -o plan.json\n  ptmpl convert plan.gan -o plan.json\n"
      "  ptmpl convert --to csv template.json -o template.csv\n"
      "  ptmpl convert template.json -o plan.xml --start 2027-01-04");
  return [o] {
    if (o->output.empty()) o->output = "-";
    if (Status apart = check_output_is_not_input(o->output, std::span(&o->input, 1)); !apart.ok())
      return report_error("convert", apart.error());
    auto bytes = FileText::read(o->input);
    if (!bytes.ok()) {
      return report_error("convert", bytes.error());
    }
    const std::string_view text = bytes.value().text();
    std::string to = o->to;
    if (to.empty()) to = o->output.ends_with(".xml") ? "mspdi" : o->output.ends_with(".csv") ? "csv" : "template";
    const ConvertOptions options{o->strict};
    Result<Conversion> converted = to == "mspdi" ? to_mspdi(o->input, text, o->start, o->strict)
                                   : to == "csv" ? export_csv(text, o->input, options)
                                                 : convert_plan(text, o->input, options);
    if (!converted.ok()) {
      return report_error("convert", converted.error());
    }
    Conversion& conversion = converted.value();
    LintRun run;
    run.files = {{.path = o->input, .error = {}}};
    run.diagnostics = std::move(conversion.diagnostics);  // a large plan may have a million findings
    const Summary summary = summarize(run.diagnostics);
    run.failed = summary.error > 0;
    ReportOptions report = conversion_report_options(!run.failed, o->verbose);
    report.excerpt = ::isatty(STDERR_FILENO) != 0;
    report.colour = colour_on(STDERR_FILENO);
    if (!run.diagnostics.empty() || o->format != "text")
      std::cerr << format_report(*parse_report_format(o->format), run, report);
    // Which date the offsets count from, recorded in the template's calendar block (SPEC §4).
    if (conversion.day_zero && o->format == "text") std::cerr << "ptmpl convert: " << day_zero_note(conversion) << "\n";
    if (run.failed) return static_cast<int>(kFindings);
    Status written = write_output(o->output, conversion.document);
    if (!written.ok()) {
      return report_error("convert", written.error());
    }
    return static_cast<int>(kOk);
  };
}

}  // namespace ptmpl::cli
