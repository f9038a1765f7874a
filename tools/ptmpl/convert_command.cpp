// ptmpl convert: external plans (MS Project XML) into template documents.
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
    std::string format = "text";
    bool strict = false;
  };
  auto o = std::make_shared<Options>();
  app.add_option("input", o->input, "the plan to convert: Microsoft Project XML (MSPDI)")->required();
  app.add_option("-o,--output", o->output, "write the template here (atomically) instead of standard output");
  app.add_option("--format", o->format, "how to print the conversion's findings: text, json, sarif, github, junit, gitlab")
      ->check(CLI::IsMember({"text", "json", "sarif", "github", "junit", "gitlab"}));
  app.add_flag("--strict", o->strict, "treat every approximation or loss as an error (exit 1, nothing written)");
  app.footer(
      "The input's format is detected from its content. Every approximation or loss (constraints,\n"
      "progress, elapsed or fractional durations, cross-project links, resource rates, …) is reported\n"
      "with its own id on standard error (docs/commands/convert.md lists them all).\n"
      "Exit codes: 0 converted, 1 converted with errors (--strict: nothing written),\n"
      "2 unreadable or not a plan.\n\n"
      "Example:\n  ptmpl convert plan.xml -o plan.json");
  return [o] {
    auto bytes = FileText::read(o->input);
    if (!bytes.ok()) {
      std::cerr << "ptmpl convert: " << bytes.error().message << "\n";
      return static_cast<int>(kUsage);
    }
    const std::string_view text = bytes.value().text();
    Result<Conversion> converted = Error{""};
    switch (detect_plan_format(text)) {
      case PlanFormat::Mspdi:
        converted = convert_mspdi(text, o->input, ConvertOptions{o->strict});
        break;
      case PlanFormat::Gan:
        converted = convert_gan(text, o->input, ConvertOptions{o->strict});
        break;
      case PlanFormat::Template:
        std::cerr << "ptmpl convert: " << o->input << ": this is already a template (JSON); see `ptmpl fmt`\n";
        return static_cast<int>(kUsage);
      case PlanFormat::Unknown:
        std::cerr << "ptmpl convert: " << o->input
                  << ": not a plan ptmpl reads (expected Microsoft Project XML: a <Project> root element)\n";
        return static_cast<int>(kUsage);
    }
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
