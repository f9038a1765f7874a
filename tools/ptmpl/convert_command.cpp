// ptmpl convert: external plans (MS Project XML, GanttProject, CSV) into template documents,
// and templates into CSV.
#include <cstdlib>
#include <iostream>
#include <memory>

#include <unistd.h>

#include "commands.hpp"
#include "libtemplate/convert.hpp"
#include "libtemplate/file_io.hpp"
#include "libtemplate/lint.hpp"
#include "libtemplate/report.hpp"

namespace ptmpl::cli {

std::function<int()> setup_convert(CLI::App& app) {
  struct Options {
    std::string input;
    std::string output;
    std::string to = "template";
    std::string format = "text";
    bool strict = false;
  };
  auto o = std::make_shared<Options>();
  app.add_option("input", o->input,
                 "the plan to convert: Microsoft Project XML (MSPDI), GanttProject .gan, CSV; with --to csv, a template")
      ->required();
  app.add_option("-o,--output", o->output, "write the result here (atomically) instead of standard output");
  app.add_option("--to", o->to, "what to write: template (from a plan) or csv (from a template)")
      ->check(CLI::IsMember({"template", "csv"}));
  app.add_option("--format", o->format, "how to print the conversion's findings: text, json, sarif, github, junit, gitlab")
      ->check(CLI::IsMember({"text", "json", "sarif", "github", "junit", "gitlab"}));
  app.add_flag("--strict", o->strict, "treat every approximation or loss as an error (exit 1, nothing written)");
  app.footer(
      "The input's format is detected from its content. Every approximation or loss (constraints,\n"
      "progress, calendars, rates, columns a CSV lacks, …) is reported with its own id on standard\n"
      "error (docs/commands/convert.md lists them all, and the CSV columns).\n"
      "Exit codes: 0 converted, 1 converted with errors (--strict: nothing written),\n"
      "2 unreadable, not a plan (or not a template with --to csv), or a bad CSV cell.\n\n"
      "Examples:\n  ptmpl convert plan.xml -o plan.json\n  ptmpl convert plan.gan -o plan.json\n"
      "  ptmpl convert --to csv template.json -o template.csv");
  return [o] {
    auto bytes = FileText::read(o->input);
    if (!bytes.ok()) {
      std::cerr << "ptmpl convert: " << bytes.error().message << "\n";
      return static_cast<int>(kUsage);
    }
    const std::string_view text = bytes.value().text();
    const ConvertOptions options{o->strict};
    Result<Conversion> converted =
        o->to == "csv" ? export_csv(text, o->input, options) : convert_plan(text, o->input, options);
    if (!converted.ok()) {
      std::cerr << "ptmpl convert: " << converted.error().message << "\n";
      return static_cast<int>(kUsage);
    }
    const Conversion& conversion = converted.value();
    LintRun run;
    run.paths = {o->input};
    run.diagnostics = conversion.diagnostics;
    const Summary summary = summarize(run.diagnostics);
    run.failed = summary.error > 0;
    ReportOptions report;
    report.excerpt = ::isatty(STDERR_FILENO) != 0;
    report.colour = report.excerpt && std::getenv("NO_COLOR") == nullptr;
    if (!run.diagnostics.empty() || o->format != "text")
      std::cerr << format_report(*parse_report_format(o->format), run, report);
    if (run.failed) return static_cast<int>(kFindings);
    if (o->output.empty()) {
      std::cout << conversion.document;
      return static_cast<int>(kOk);
    }
    Status written = write_file_atomic(o->output, conversion.document);
    if (!written.ok()) {
      std::cerr << "ptmpl convert: " << written.error().message << "\n";
      return static_cast<int>(kUsage);
    }
    return static_cast<int>(kOk);
  };
}

}  // namespace ptmpl::cli
