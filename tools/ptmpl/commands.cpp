#include "commands.hpp"
#include "file_selection.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>

#include <unistd.h>
#include <memory>

#include "libtemplate/core/bundled.hpp"
#include "libtemplate/core/config.hpp"
#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/fix.hpp"
#include "libtemplate/core/foreign_plan.hpp"
#include "libtemplate/core/format_files.hpp"
#include "libtemplate/core/generator.hpp"
#include "libtemplate/core/hash.hpp"
#include "libtemplate/core/lint.hpp"
#include "libtemplate/core/printable.hpp"
#include "libtemplate/core/report.hpp"
#include "libtemplate/core/spelling.hpp"
#include "libtemplate/core/template_file.hpp"
#include "libtemplate/core/writer.hpp"

namespace ptmpl::cli {

namespace {

// A text of whole lines (a note the library words) as report_note takes it: without the
// newline that ends its last line.
std::string_view without_final_newline(std::string_view text) {
  if (text.ends_with('\n')) text.remove_suffix(1);
  return text;
}

/// Prints what fix_files did: a dry run's plans on standard output, notes of fixes withheld
/// and applied; then its error. Returns the files changed (or that would change), or -1 when
/// a file could not be fixed.
int report_fixes(const FixFilesOutcome& fixed, bool dry_run) {
  for (const FixedFile& file : fixed.files) {
    if (dry_run) {
      std::cout << printable_lines(file.plan);
      continue;
    }
    if (file.withheld > 0)
      report_note("lint", file.path + ": " + std::to_string(file.withheld) +
                              (file.withheld == 1 ? " unsafe fix is" : " unsafe fixes are") +
                              " not applied (--unsafe-fixes applies them)");
    if (file.applied > 0)
      report_note("lint",
                  file.path + ": applied " + std::to_string(file.applied) + (file.applied == 1 ? " fix" : " fixes"));
  }
  if (fixed.error) {
    report_error("lint", *fixed.error);
    return -1;
  }
  return static_cast<int>(fixed.changed());
}

}  // namespace

bool colour_on(int fd) {
  const char* no_colour = std::getenv("NO_COLOR");
  return ::isatty(fd) != 0 && (no_colour == nullptr || *no_colour == '\0');
}

void report_note(std::string_view command, std::string_view message) {
  std::cerr << "ptmpl" << (command.empty() ? "" : " ") << command << ": " << printable_lines(message) << "\n";
}

CLI::Validator one_of(std::vector<std::string> names) {
  std::string listed;
  for (const std::string& name : names) listed += (listed.empty() ? "{" : ",") + name;
  listed += "}";
  return CLI::Validator(
      [names, listed](std::string& value) -> std::string {
        if (std::find(names.begin(), names.end(), value) != names.end()) return "";
        const std::vector<std::string_view> candidates(names.begin(), names.end());
        std::string message = value + " not in " + listed;
        if (auto near = closest(value, candidates)) message += " (did you mean " + std::string(*near) + "?)";
        return message;
      },
      listed);
}

int report_error(std::string_view command, const Error& error) {
  std::string_view lines = error.message;
  for (std::size_t end = lines.find('\n'); end != std::string_view::npos; end = lines.find('\n')) {
    report_note(command, lines.substr(0, end));
    lines.remove_prefix(end + 1);
  }
  report_note(command, lines);
  return error.exit_code();
}

Status write_for_person(std::string_view text) {
  return write_stdout(printable_lines(text));
}

Status write_result(const std::string& path, std::string_view text) {
  if (path == "-" && ::isatty(STDOUT_FILENO) != 0) return write_for_person(text);
  return write_output(path, text);
}

// ---------------------------------------------------------------------------------------------
// lint

std::function<int()> setup_lint(CLI::App& app) {
  struct Options {
    std::vector<std::string> paths;
    std::string format = "text";
    std::string fail_on;
    std::string config;
    bool no_config = false;
    std::uint32_t max_depth = 0;
    unsigned jobs = 0;
    bool exit_zero = false;
    bool statistics = false;
    bool fix = false;
    bool dry_run = false;
    bool unsafe_fixes = false;
    std::string help_uri_base;
    std::string stdin_filename;
    std::optional<std::size_t> max_warnings;
    bool verbose = false;
    std::vector<std::string> select;
    SelectionOptions selection;
  };
  auto o = std::make_shared<Options>();
  app.add_option("paths", o->paths, "template files, or directories to search for *.json ('-' reads stdin)")
      ->required();
  app.add_option("--format", o->format, "output format: text, json, sarif, github, junit or gitlab")
      ->check(one_of({"text", "json", "sarif", "github", "junit", "gitlab"}));
  app.add_option("--fail-on", o->fail_on, "lowest severity that makes the exit code 1 (default: error)")
      ->check(one_of({"error", "warning", "info"}));
  app.add_flag("--exit-zero", o->exit_zero, "exit 0 even when there are findings (errors of ptmpl's own still exit 2)");
  auto* config =
      app.add_option("--config", o->config, "use this configuration for every file (default: the nearest .ptmpl.json)");
  app.add_flag("--no-config", o->no_config, "use no configuration file")->excludes(config);
  app.add_option("--max-depth", o->max_depth, "nesting bound for arrays and objects (rule nesting-depth; default 256)")
      ->check(CLI::Range(1u, json::kMaxDepthLimit));
  app.add_flag("--statistics", o->statistics, "also print the number of findings per rule");
  auto* fix =
      app.add_flag("--fix", o->fix, "apply the safe fixes and rewrite the files atomically, then report what is left");
  app.add_flag("--unsafe-fixes", o->unsafe_fixes,
               "with --fix: also apply the unsafe fixes (they change what the author declared; ptmpl rules lists "
               "each rule's kind)")
      ->needs(fix);
  app.add_flag("--dry-run", o->dry_run,
               "with --fix: list each fix as safe or unsafe and print them as a unified diff, change nothing")
      ->needs(fix);
  app.add_option("--help-uri-base", o->help_uri_base,
                 "sarif: prefix of each rule's helpUri (e.g. your repository URL)");
  app.add_option("-j,--jobs", o->jobs,
                 "threads: files linted at once, and the two halves of the rules of a large file when threads are left "
                 "(default: one per core)");
  app.add_option("--stdin-filename", o->stdin_filename,
                 "with '-': the name standard input stands for (in findings; its .ptmpl.json is used)");
  app.add_option("--max-warnings", o->max_warnings, "exit 1 when there are more than this many warnings");
  app.add_flag("-v,--verbose", o->verbose, "list the JSON files below a directory that are not templates");
  app.add_option("--select", o->select,
                 "only these rules: ids or groups, comma-separated or repeated; names the group schedule-health "
                 "to turn its rules on")
      ->delimiter(',')
      ->allow_extra_args(false);
  add_selection_options(app, o->selection);
  app.footer(
      "Formats: text (default), json, sarif, github, junit, gitlab.\n"
      "Directories: *.json files below them, skipping what .gitignore ignores, node_modules,\n"
      "hidden folders and exclude globs; JSON files that are not templates are counted, not linted.\n"
      "Exit codes: 0 no finding at or above --fail-on, 1 findings (or more warnings than\n"
      "--max-warnings), 2 usage error, unreadable file, a plan to convert first (.mpp, MS Project\n"
      "XML, GanttProject) or invalid configuration.\n\n"
      "Example:\n  ptmpl lint samples/ --format sarif > lint.sarif");
  return [o] {
    for (const std::string& name : o->select)
      if (find_rule(name) == nullptr && !is_rule_group(name))
        return report_error("lint", Error::usage("--select: " + unknown_rule_message(name)));
    const bool from_stdin = !o->stdin_filename.empty();
    if (from_stdin && (o->paths.size() != 1 || o->paths.front() != "-"))
      return report_error("lint", Error::usage("--stdin-filename names standard input: give '-' as the only path"));
    if (from_stdin && o->fix)
      return report_error("lint", Error::usage("--fix rewrites files; it cannot rewrite standard input"));
    std::optional<std::string> config_path;
    if (!o->config.empty()) config_path = o->config;
    auto selected = select_cli_files(o->paths, o->selection, config_path, !o->no_config);
    if (!selected.ok()) {
      return report_error("lint", selected.error());
    }
    // What stood in the way of the walk is reported first; the files found are linted all the same.
    int selection_status = kOk;
    for (const Error& problem : selected.value().problems)
      selection_status = std::max(selection_status, report_error("lint", problem));
    std::vector<std::string> paths;
    std::vector<bool> found_in_directory;
    FixOptions fix_options{.unsafe = o->unsafe_fixes};
    for (const SelectedFile& file : selected.value().files) {
      paths.push_back(from_stdin ? o->stdin_filename : file.path);
      found_in_directory.push_back(!file.named);
      if (!file.named) fix_options.trees[file.path] = file.tree;
    }
    LintSettings settings;
    if (!o->config.empty()) settings.config_path = o->config;
    settings.discover_config = !o->no_config;
    settings.select = o->select;
    if (o->max_depth > 0) settings.max_depth = o->max_depth;
    if (!o->fail_on.empty()) settings.fail_on = parse_severity(o->fail_on);
    settings.jobs = o->jobs;
    settings.fingerprint = o->fix;
    settings.found_in_directory = found_in_directory;
    // Standard input is read whole first, then linted under the name given for it.
    FileText stdin_text;
    if (from_stdin) {
      auto read = FileText::read_text("-");
      if (!read.ok()) return report_error("lint", read.error());
      stdin_text = std::move(read).value();
    }
    std::string_view stdin_view = stdin_text.text();
    LintRun run = from_stdin ? lint_texts(paths, std::span(&stdin_view, 1), settings) : lint_files(paths, settings);
    for (const LintedFile& file : run.files)
      if (file.error) report_error("lint", *file.error);
    if (run.has_errors() && run.linted_count() == 0) return int{kUsage};
    if (o->fix) {
      int fixed = report_fixes(fix_files(run, o->dry_run, fix_options), o->dry_run);
      if (fixed < 0) return int{kUsage};
      if (o->dry_run) return std::max(selection_status, fixed > 0 ? int{kFindings} : int{kOk});
      if (fixed > 0) run = lint_files(paths, settings);  // report what is left
    }

    ReportOptions report;
    // On a terminal: the source line and a caret under each finding, in colour unless
    // NO_COLOR is set (https://no-color.org). Piped output stays one line per finding.
    report.excerpt = ::isatty(STDOUT_FILENO) != 0;
    report.colour = colour_on(STDOUT_FILENO);
    report.statistics = o->statistics;
    report.fail_on = settings.fail_on.value_or(Severity::Error);
    report.help_uri_base = o->help_uri_base;
    report.verbose = o->verbose;
    ReportFormat format = parse_report_format(o->format).value_or(ReportFormat::Text);
    std::cout << format_report(format, run, report);
    // The text report counts the files that are not templates; the others are read by
    // programs, so the note goes to standard error.
    if (format != ReportFormat::Text && !run.not_templates.empty())
      report_note("lint", without_final_newline(not_templates_note(run.not_templates, o->verbose)));
    if (run.has_errors()) return int{kUsage};
    if (selection_status != kOk) return selection_status;
    bool too_many_warnings = false;
    if (o->max_warnings) {
      std::size_t warnings = std::count_if(run.diagnostics.begin(), run.diagnostics.end(),
                                           [](const Diagnostic& d) { return d.severity == Severity::Warning; });
      too_many_warnings = warnings > *o->max_warnings;
      if (too_many_warnings)
        report_note("lint", std::to_string(warnings) + " warnings, more than --max-warnings " +
                                std::to_string(*o->max_warnings));
    }
    return (run.failed || too_many_warnings) && !o->exit_zero ? int{kFindings} : int{kOk};
  };
}

// ---------------------------------------------------------------------------------------------
// fmt

std::function<int()> setup_fmt(CLI::App& app) {
  struct Options {
    std::vector<std::string> paths;
    bool write = false;
    bool check = false;
    bool diff = false;
    bool verbose = false;
    std::string stdin_filename;
    std::string config;
    bool no_config = false;
    SelectionOptions selection;
  };
  auto o = std::make_shared<Options>();
  app.add_option("files", o->paths, "template files, or directories to search for *.json ('-' reads standard input)")
      ->required();
  auto* write = app.add_flag("-w,--write", o->write, "rewrite files in place (atomically) when not canonical");
  auto* check =
      app.add_flag("--check", o->check, "print the files that are not canonical; exit 1 if any")->excludes(write);
  app.add_flag("--diff", o->diff, "print a unified diff from each file to its canonical form; exit 1 if any differs")
      ->excludes(write)
      ->excludes(check);
  app.add_option("--stdin-filename", o->stdin_filename, "with '-': the name standard input stands for in messages");
  app.add_flag("-v,--verbose", o->verbose, "list the JSON files below a directory that are not templates");
  auto* config = app.add_option("--config", o->config,
                                "take exclude globs from this configuration (default: the nearest .ptmpl.json)");
  app.add_flag("--no-config", o->no_config, "use no configuration file")->excludes(config);
  add_selection_options(app, o->selection);
  app.footer(
      "Canonical form: 2-space indent, documented keys in canonical order (docs/semantics.md §3), unknown keys after "
      "them in\n"
      "their original order, numbers as written. Output: the canonical JSON of one file (with --check, the\n"
      "names of the files that are not canonical; with --diff, what would change). Directories are searched\n"
      "as by ptmpl lint; several files or a directory need --check, --diff or -w.\n"
      "Exit codes: 0 ok, 1 not canonical (--check, --diff), 2 usage error, unreadable or invalid JSON\n"
      "(nothing is written).\n\n"
      "Example:\n  ptmpl fmt --check templates/\n  ptmpl fmt --diff templates/");
  return [o] {
    const bool from_stdin = !o->stdin_filename.empty();
    if (from_stdin && (o->paths.size() != 1 || o->paths.front() != "-"))
      return report_error("fmt", Error::usage("--stdin-filename names standard input: give '-' as the only path"));
    if (o->write && std::find(o->paths.begin(), o->paths.end(), "-") != o->paths.end())
      return report_error("fmt", Error::usage("-w rewrites files; it cannot rewrite standard input (without -w, "
                                              "fmt prints the canonical form)"));
    std::optional<std::string> config_path;
    if (!o->config.empty()) config_path = o->config;
    auto selected = select_cli_files(o->paths, o->selection, config_path, !o->no_config);
    if (!selected.ok()) return report_error("fmt", selected.error());
    FormatOptions format;
    format.mode = o->check   ? FormatOptions::Mode::Check
                  : o->diff  ? FormatOptions::Mode::Diff
                  : o->write ? FormatOptions::Mode::Write
                             : FormatOptions::Mode::Print;
    // Printed one after another, several documents would read as one: say which flag was meant.
    std::error_code ec;
    const bool many = selected.value().files.size() > 1 ||
                      std::any_of(o->paths.begin(), o->paths.end(),
                                  [&](const std::string& path) { return std::filesystem::is_directory(path, ec); });
    if (format.mode == FormatOptions::Mode::Print && many)
      return report_error("fmt", Error::usage("several files or a directory: give --check to list those not in "
                                              "canonical form, --diff to show the changes, or -w to rewrite them"));
    format.stdin_filename = o->stdin_filename;
    int status = kOk;
    for (const Error& problem : selected.value().problems) status = std::max(status, report_error("fmt", problem));
    std::vector<std::string> not_templates;
    for (const SelectedFile& selected_file : selected.value().files) {
      FormattedFile formatted = format_file(selected_file, format);
      if (formatted.not_template) not_templates.push_back(selected_file.path);
      if (formatted.error) status = std::max(status, report_error("fmt", *formatted.error));
      if (!formatted.finding.empty()) {
        std::cerr << printable_lines(formatted.finding);
        status = kUsage;
      }
      if (formatted.not_canonical && status == kOk) status = kFindings;
      if (formatted.output.empty()) continue;
      if (format.mode == FormatOptions::Mode::Check || format.mode == FormatOptions::Mode::Diff) {
        std::cout << printable_lines(formatted.output);
      } else if (Status out = write_result("-", formatted.output); !out.ok()) {
        return report_error("fmt", out.error());
      }
    }
    if (!not_templates.empty())
      report_note("fmt", without_final_newline(not_templates_note(not_templates, o->verbose)));
    return status;
  };
}

// ---------------------------------------------------------------------------------------------
// rules, explain, schema

std::function<int()> setup_rules(CLI::App& app) {
  app.footer(
      "Output: one rule a line: rule id, default severity, the kind of fix lint --fix offers (safe:\n"
      "applied by --fix; unsafe: only with --unsafe-fixes; '-': none), summary; a rule of a group off by\n"
      "default says so (lint --select GROUP turns it on).\nExit codes: 0 ok, 2 usage error.\n\n"
      "Example:\n  ptmpl rules");
  return [] {
    std::size_t width = 0;
    for (const RuleInfo& rule : rule_catalogue()) width = std::max(width, rule.id.size());
    std::string out;
    for (const RuleInfo& rule : rule_catalogue()) {
      std::string id(rule.id);
      std::string severity(to_string(rule.severity));
      std::string fix(rule.fix == FixKind::None ? "-" : to_string(rule.fix));
      out += id + std::string(width + 2 - id.size(), ' ') + severity + std::string(9 - severity.size(), ' ') + fix +
             std::string(8 - fix.size(), ' ') + std::string(rule.summary);
      if (!rule.group.empty()) out += " [off by default: " + std::string(rule.group) + "]";
      out += '\n';
    }
    if (Status written = write_stdout(out); !written.ok()) return report_error("rules", written.error());
    return int{kOk};
  };
}

std::function<int()> setup_explain(CLI::App& app) {
  auto id = std::make_shared<std::string>();
  app.add_option("rule", *id, "rule id, as listed by ptmpl rules")->required();
  app.footer(
      "Output: the rule's page (Markdown).\nExit codes: 0 ok, 2 usage error or no such rule.\n\n"
      "Example:\n  ptmpl explain temp-id-duplicate");
  return [id] {
    auto page = rule_documentation(*id);
    if (find_rule(*id) == nullptr || !page) {
      return report_error("explain", Error::usage(unknown_rule_message(*id)));
    }
    std::cout << *page;
    return int{kOk};
  };
}

std::function<int()> setup_schema(CLI::App& app) {
  auto name = std::make_shared<std::string>("raw_json");
  app.add_option("name", *name, "which schema (default raw_json)")->check(one_of({"raw_json", "template", "config"}));
  app.footer(
      "Output: the schema (JSON Schema draft 4).\nExit codes: 0 ok, 2 usage error.\n\n"
      "Example:\n  ptmpl schema template > template.schema.json");
  return [name] {
    std::cout << bundled_schema(*name).value_or("");
    return int{kOk};
  };
}

// ---------------------------------------------------------------------------------------------
// gen

std::function<int()> setup_gen(CLI::App& app) {
  struct Options {
    GenerateOptions generate;
    std::size_t deps = 0;
    std::string output;
  };
  auto o = std::make_shared<Options>();
  app.add_option("--stories", o->generate.stories, "stories at every level")->check(CLI::Range(1, 100'000'000));
  app.add_option("--depth", o->generate.depth, "levels of sub_stories (1 = flat)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100));
  auto* deps = app.add_option("--deps", o->deps, "dependency links in all (default: one per story)");
  app.add_option("--seed", o->generate.seed, "random seed; the same seed gives the same bytes")->capture_default_str();
  app.add_option("-o,--output", o->output, "write to this file (atomically) instead of standard output");
  app.footer(
      "Output: a template document (JSON).\nExit codes: 0 ok, 2 usage error or unwritable output.\n\n"
      "Example:\n  ptmpl gen --stories 100000 --depth 4 --seed 7 -o big.json");
  return [o, deps] {
    if (deps->count() > 0) o->generate.deps = o->deps;
    auto generated = generate_template(o->generate);
    if (!generated.ok()) {
      return report_error("gen", generated.error());
    }
    Status written = write_result(o->output.empty() ? "-" : o->output, generated.value());
    if (!written.ok()) {
      return report_error("gen", written.error());
    }
    return int{kOk};
  };
}

}  // namespace ptmpl::cli
