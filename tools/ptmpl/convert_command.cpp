// ptmpl convert: external plans (MS Project XML, GanttProject, CSV) into template documents,
// and templates into MS Project XML, CSV or Excel workbooks.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <system_error>
#include <utility>

#include <unistd.h>

#include "commands.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/config.hpp"
#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/lint.hpp"
#include "libtemplate/core/report.hpp"

namespace ptmpl::cli {

namespace {

// The export options of --to mspdi|xlsx: day 0 on `start` (when empty: the calendar block's
// start, else for MS Project XML today; a workbook then has no date columns).
Result<ExportOptions> export_options(const std::string& start, const ConvertOptions& convert) {
  ExportOptions options;
  options.strict = convert.strict;
  options.allow = convert.allow;
  if (start.empty()) {
    options.default_start = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
  } else if (const auto date = parse_date(start)) {
    options.start = *date;
  } else {
    return Error::usage("--start " + start + ": not a date of the form YYYY-MM-DD");
  }
  return options;
}

// A template → `to` (mspdi, xlsx or csv).
Result<Conversion> export_template(const std::string& path, std::string_view text, const std::string& to,
                                   const std::string& start, const ConvertOptions& convert) {
  if (to == "csv") return export_csv(text, path, convert);
  Result<ExportOptions> options = export_options(start, convert);
  if (!options.ok()) return options.error();
  return to == "mspdi" ? export_mspdi(text, path, options.value()) : export_xlsx(text, path, options.value());
}

// The plan files of the inputs: a file as it is named, a directory's files that have a plan's
// extension (.mpp, .xml, .gan, .csv, .xlsx, .xer, .pmxml; not its subdirectories), in name order.
Result<std::vector<std::string>> plan_files(const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const std::string& input : inputs) {
    std::error_code error;
    if (!fs::is_directory(input, error)) {
      out.push_back(input);
      continue;
    }
    std::vector<std::string> found;
    for (fs::directory_iterator it(input, error), end; !error && it != end; it.increment(error)) {
      std::string extension = it->path().extension().string();
      std::transform(extension.begin(), extension.end(), extension.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      const bool plan = extension == ".mpp" || extension == ".xml" || extension == ".gan" || extension == ".csv" ||
                        extension == ".xlsx" || extension == ".xer" || extension == ".pmxml";
      if (plan && it->is_regular_file(error)) found.push_back(it->path().string());
    }
    if (error) return Error::unreadable(input + ": cannot list the folder: " + error.message());
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

// How `convert` is set for its plans: the command line over the `convert` object of the
// `.ptmpl.json` nearest each plan (or --config's, or none with --no-config).
struct ConvertSettingsOptions {
  bool strict = false;
  bool no_strict = false;
  std::vector<std::string> allow;
  std::string config;
  bool no_config = false;
  std::string sheet;    // a workbook's sheet
  std::string project;  // a P6 export's project
};

// Each configuration file is read once, however many plans it sets.
class ConvertSettingsFinder {
 public:
  explicit ConvertSettingsFinder(const ConvertSettingsOptions& cli) : cli_(cli) {}

  // The options of the plan `input`: --strict or --no-strict over the file's strict, the file's
  // allowed ids and --allow's together. An id of the file that names no conversion finding is a
  // usage error at its place.
  Result<ConvertOptions> options_for(const std::string& input) {
    ConvertOptions options{.strict = cli_.strict, .allow = cli_.allow, .sheet = cli_.sheet, .project = cli_.project};
    std::optional<std::string> path;
    if (!cli_.no_config) path = cli_.config.empty() ? find_config(input) : std::optional(cli_.config);
    if (!path) return options;
    auto it = loaded_.find(*path);
    if (it == loaded_.end()) {
      Result<LintConfig> config = LintConfig::load(*path);
      if (!config.ok()) return config.error();
      for (const ConvertSettings::Allowed& allowed : config.value().convert().allow)
        if (Status known = check_allowed(std::span(&allowed.id, 1)); !known.ok())
          return Error::usage(allowed.place + ": convert." + known.error().message);
      it = loaded_.emplace(*path, std::move(config).value()).first;
    }
    const ConvertSettings& settings = it->second.convert();
    if (!cli_.strict && !cli_.no_strict) options.strict = settings.strict.value_or(false);
    for (const ConvertSettings::Allowed& allowed : settings.allow) options.allow.push_back(allowed.id);
    return options;
  }

 private:
  const ConvertSettingsOptions& cli_;
  std::map<std::string, LintConfig> loaded_;
};

// Many plans into the folder `folder`, one template each, named after its source (plan.mpp →
// plan.json). Every plan is converted that can be; the exit code is the worst of them.
int convert_many(const std::vector<std::string>& inputs, const std::string& folder, ConvertSettingsFinder& settings,
                 const std::string& format, bool verbose) {
  namespace fs = std::filesystem;
  Result<std::vector<std::string>> found = plan_files(inputs);
  if (!found.ok()) return report_error("convert", found.error());
  const std::vector<std::string>& paths = found.value();
  // Two sources of one name would write one template: refused before anything is written.
  std::map<std::string, std::string> sources;  // template → source
  std::vector<std::string> targets;            // by path
  for (const std::string& path : paths) {
    const std::string& target = targets.emplace_back((fs::path(folder) / fs::path(path).stem()).string() + ".json");
    if (auto [it, added] = sources.emplace(target, path); !added)
      return report_error("convert", Error::usage(path + " and " + it->second + " would both be written to " + target +
                                                  "; convert them into different folders"));
  }
  std::vector<ConvertOptions> options;
  for (const std::string& path : paths) {
    Result<ConvertOptions> set = settings.options_for(path);
    if (!set.ok()) return report_error("convert", set.error());
    options.push_back(std::move(set).value());
  }
  std::error_code error;
  fs::create_directories(folder, error);
  if (error || !fs::is_directory(folder, error))
    return report_error("convert", Error::output_failed(folder + ": not a folder the templates can be written to" +
                                                        (error ? ": " + error.message() : std::string())));
  int worst = static_cast<int>(kOk);
  LintRun run;
  std::vector<std::pair<std::string, std::string>> to_write;  // (template path, document)
  std::vector<PlanFileConversion> converted = convert_plan_files(paths, options);
  // A P6 export of several projects gives one template each, named after the file and the
  // project (export.xer → export.P1.json); `source` follows the results back to their paths.
  std::size_t source = 0;
  for (std::size_t i = 0; i < converted.size(); ++i) {
    PlanFileConversion& file = converted[i];
    while (source + 1 < paths.size() && paths[source] != file.path) ++source;
    std::string target = targets[source];
    if (!file.project.empty()) {
      target = (fs::path(folder) / fs::path(file.path).stem()).string() + "." + file.project + ".json";
      if (auto [it, added] = sources.emplace(target, file.path); !added)
        return report_error("convert", Error::usage(file.path + " and " + it->second + " would both be written to " +
                                                    target + "; convert them into different folders"));
    }
    if (!file.conversion.ok()) {
      worst = std::max(worst, report_error("convert", file.conversion.error()));
      continue;
    }
    Conversion& conversion = file.conversion.value();
    run.files.push_back({.path = file.path, .error = {}});
    const bool failed = summarize(conversion.diagnostics).error > 0;
    run.diagnostics.insert(run.diagnostics.end(), std::make_move_iterator(conversion.diagnostics.begin()),
                           std::make_move_iterator(conversion.diagnostics.end()));
    if (failed) {
      run.failed = true;  // a plan with errors under --strict: not written
      worst = std::max(worst, static_cast<int>(kFindings));
      continue;
    }
    to_write.emplace_back(target, std::move(conversion.document));
  }
  ReportOptions report = conversion_report_options(!run.failed, verbose);
  report.excerpt = ::isatty(STDERR_FILENO) != 0;
  report.colour = colour_on(STDERR_FILENO);
  if (!run.diagnostics.empty() || format != "text")
    std::cerr << format_report(*parse_report_format(format), run, report);
  // Written together: one flush to disk for them all, not one per template.
  std::vector<std::pair<std::string, std::string_view>> files(to_write.begin(), to_write.end());
  std::size_t written = 0;
  const std::vector<Status> statuses = write_files_atomic(files);
  for (const Status& status : statuses) {
    if (status.ok())
      ++written;
    else
      worst = std::max(worst, report_error("convert", status.error()));
  }
  if (format == "text")
    report_note("convert", std::to_string(written) + " of " + std::to_string(converted.size()) + " plan" +
                               (converted.size() == 1 ? "" : "s") + " written to " + folder);
  return worst;
}

}  // namespace

std::function<int()> setup_convert(CLI::App& app) {
  struct Options {
    std::vector<std::string> inputs;
    std::string output;
    std::string to;
    std::string start;
    std::string format = "text";
    ConvertSettingsOptions settings;
    bool verbose = false;
  };
  auto o = std::make_shared<Options>();
  app.add_option("input", o->inputs,
                 "the plan to convert: Microsoft Project .mpp (Project 2000 and later) or XML (MSPDI), GanttProject "
                 ".gan, CSV, an Excel workbook, a Primavera P6 XER or PMXML export; with --to mspdi|csv|xlsx, a "
                 "template. Several plans, or folders of them, convert into the "
                 "folder -o names")
      ->required();
  app.add_option("-o,--output", o->output,
                 "write the result here (atomically) instead of standard output; with several plans or a folder, "
                 "the folder to write one template each into (made if missing)");
  app.add_option("--to", o->to,
                 "what to write: template (from a plan), mspdi, csv or xlsx (from a template); default: from -o's "
                 "extension (.xml: mspdi, .csv: csv, .xlsx: xlsx), else template")
      ->check(one_of({"template", "mspdi", "csv", "xlsx"}));
  app.add_option("--start", o->start,
                 "--to mspdi|xlsx: the date of day 0, YYYY-MM-DD (default: the template's calendar block; else "
                 "today for mspdi, no dates for xlsx)");
  app.add_option("--format", o->format,
                 "how to print the conversion's findings: text, json, sarif, github, junit, gitlab")
      ->check(one_of({"text", "json", "sarif", "github", "junit", "gitlab"}));
  auto* strict = app.add_flag("--strict", o->settings.strict,
                              "treat every approximation or loss as an error (exit 1, nothing written)");
  app.add_flag("--no-strict", o->settings.no_strict, "convert leniently, whatever .ptmpl.json's convert.strict says")
      ->excludes(strict);
  app.add_option("--allow", o->settings.allow,
                 "with --strict, finding ids that stay what they are (e.g. mspdi-resource-rates,mspdi-progress); "
                 "added to .ptmpl.json's convert.allow")
      ->delimiter(',');
  auto* config =
      app.add_option("--config", o->settings.config,
                     "take the convert settings from this file (default: the .ptmpl.json nearest each plan)");
  app.add_flag("--no-config", o->settings.no_config, "use no configuration file")->excludes(config);
  app.add_option("--sheet", o->settings.sheet,
                 "an Excel workbook's sheet to read (default: the first that holds a plan)");
  app.add_option("--project", o->settings.project,
                 "a Primavera P6 export's project to read, by its ID or object id (needed when it holds several)");
  app.add_flag("-v,--verbose", o->verbose,
               "text format: list every finding (3 or more of one id are otherwise folded into one line)");
  app.footer(
      "The input's format is detected from its content. Every approximation or loss (constraints,\n"
      "progress, calendars, rates, columns a CSV lacks, …) is reported with its own id on standard\n"
      "error (docs/commands/convert.md lists them all, and the CSV columns); in the text format, 3 or\n"
      "more findings of one id are one line naming their count and the first place (--verbose lists each).\n"
      "Exit codes: 0 converted, 1 converted with errors (--strict: nothing written),\n"
      "2 unreadable, not a plan (or not a template with --to mspdi|csv|xlsx), or a bad CSV cell.\n\n"
      "--to xlsx writes a workbook: the sheet Stories (the CSV columns, grouped by level, dates as\n"
      "dates), Assignments and Calendar; it goes to a file or a pipe, never to a terminal.\n\n"
      "Several plans, or folders of them (their .mpp, .xml, .gan, .csv, .xlsx, .xer and .pmxml files),\n"
      "convert into the folder -o names, one template each named after its plan; every plan that can\n"
      "be is converted, and the exit code is the worst of them.\n\n"
      "Settings: the \"convert\" object of the .ptmpl.json nearest each plan ({\"strict\": true,\n"
      "\"allow\": [\"mspdi-resource-rates\"]}); --strict or --no-strict wins over its strict, --allow adds ids.\n\n"
      "Examples:\n  ptmpl convert plan.xml -o plan.json\n  ptmpl convert plan.gan -o plan.json\n"
      "  ptmpl convert plan.xlsx --sheet Tasks -o plan.json\n  ptmpl convert export.xer --project EC00515 -o "
      "plan.json\n"
      "  ptmpl convert a.mpp b.xml plans/ -o templates/\n"
      "  ptmpl convert --to csv template.json -o template.csv\n"
      "  ptmpl convert template.json -o template.xlsx\n"
      "  ptmpl convert template.json -o plan.xml --start 2027-01-04");
  return [o] {
    if (Status allowed = check_allowed(o->settings.allow); !allowed.ok())
      return report_error("convert", allowed.error());
    ConvertSettingsFinder settings(o->settings);
    std::error_code error;
    if (o->inputs.size() > 1 || std::filesystem::is_directory(o->inputs.front(), error)) {
      if (o->output.empty() || o->output == "-")
        return report_error("convert", Error::usage("several plans convert into a folder: name it with -o"));
      if (!o->to.empty() && o->to != "template")
        return report_error("convert", Error::usage("--to " + o->to + " writes one template at a time"));
      return convert_many(o->inputs, o->output, settings, o->format, o->verbose);
    }
    const std::string& input = o->inputs.front();
    if (o->output.empty()) o->output = "-";
    if (Status apart = check_output_is_not_input(o->output, std::span(&input, 1)); !apart.ok())
      return report_error("convert", apart.error());
    std::string to = o->to;
    if (to.empty())
      to = o->output.ends_with(".xml")    ? "mspdi"
           : o->output.ends_with(".csv")  ? "csv"
           : o->output.ends_with(".xlsx") ? "xlsx"
                                          : "template";
    // A workbook is binary: to a file or a pipe, never onto a terminal.
    if (to == "xlsx" && o->output == "-" && ::isatty(STDOUT_FILENO) != 0)
      return report_error("convert", Error::usage("--to xlsx writes a binary workbook: name a file with -o, or "
                                                  "send standard output to a file or a pipe"));
    Result<ConvertOptions> set = settings.options_for(input);
    if (!set.ok()) return report_error("convert", set.error());
    const ConvertOptions& options = set.value();
    // A plan is read as its format needs (a .mpp only where its tables point); a template whole.
    Result<Conversion> converted = [&]() -> Result<Conversion> {
      if (to == "template") return convert_plan_file(input, options);
      auto bytes = FileText::read_text(input);
      if (!bytes.ok()) return bytes.error();
      return export_template(input, bytes.value().text(), to, o->start, options);
    }();
    if (!converted.ok()) {
      return report_error("convert", converted.error());
    }
    Conversion& conversion = converted.value();
    LintRun run;
    run.files = {{.path = input, .error = {}}};
    run.diagnostics = std::move(conversion.diagnostics);  // a large plan may have a million findings
    const Summary summary = summarize(run.diagnostics);
    run.failed = summary.error > 0;
    ReportOptions report = conversion_report_options(!run.failed, o->verbose);
    report.excerpt = ::isatty(STDERR_FILENO) != 0;
    report.colour = colour_on(STDERR_FILENO);
    if (!run.diagnostics.empty() || o->format != "text")
      std::cerr << format_report(*parse_report_format(o->format), run, report);
    if (run.failed) return static_cast<int>(kFindings);
    // Which date the offsets count from, recorded in the template's calendar block (docs/semantics.md §4).
    if (conversion.day_zero && o->format == "text") report_note("convert", day_zero_note(conversion));
    Status written = write_result(o->output, conversion.document);
    if (!written.ok()) {
      return report_error("convert", written.error());
    }
    return static_cast<int>(kOk);
  };
}

}  // namespace ptmpl::cli
