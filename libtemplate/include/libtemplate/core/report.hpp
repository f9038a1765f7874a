// Lint results in the formats people and CI systems read (docs/semantics.md §6).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "libtemplate/core/lint.hpp"

namespace ptmpl {

enum class ReportFormat { Text, Json, Sarif, Github, Junit, Gitlab };

[[nodiscard]] std::optional<ReportFormat> parse_report_format(std::string_view name);

struct ReportOptions {
  bool excerpt = false;     ///< text: the source line and a caret under each finding
  bool colour = false;      ///< text: ANSI colours for severities and paths
  bool statistics = false;  ///< text, json: counts per rule
  /// junit: a file's testcase fails when it has a finding at or above this severity.
  Severity fail_on = Severity::Error;
  /// junit: the command the report is of: the suites' name (`ptmpl lint`) and the testcases'
  /// class (`ptmpl.lint`).
  std::string_view command = "lint";
  /// sarif: prefix of each rule's helpUri (the page is `<base>docs/rules/<id>.md`).
  std::string help_uri_base;
  /// text: list each file of LintRun::not_templates, not only their count, and every finding
  /// (no group_message folding).
  bool verbose = false;
  /// text: the summary line's unit and verb: "1 file checked: …", "2 plans converted: …".
  std::string_view unit = "file";
  std::string_view outcome = "checked";
  /// text, unless `verbose`: the findings of one rule in one file, when there are at least
  /// `group_from` of them, are printed as one line, at the place (and excerpt) of the first, with
  /// the message this returns for all of them (in order) and "; the first is here, --verbose
  /// lists each". Every finding still counts in the summary; the other formats list each.
  std::function<std::string(const std::vector<const Diagnostic*>&)> group_message;
  std::size_t group_from = 3;
};

/// The whole report of a run, in `format`:
/// - text: `path:line:col: severity: message [rule]` lines (repeats folded when asked, see
///   ReportOptions::group_message), then a summary line, and a line counting the JSON files
///   that are not templates (LintRun::not_templates), if any;
/// - json: `{"files", "diagnostics": [{path, line, column, severity, rule, message, pointer}],
///   "summary": {error, warning, info}}` (plus "statistics" when asked);
/// - sarif: SARIF 2.1.0, one run, rules with their metadata;
/// - github: workflow commands (`::error file=…,line=…,col=…,title=…::message`);
/// - junit: JUnit XML, one testcase per file;
/// - gitlab: GitLab Code Quality JSON with stable fingerprints.
[[nodiscard]] std::string format_report(ReportFormat format, const LintRun& run, const ReportOptions& options = {});

/// The note on files found below a directory that hold JSON but no template: "" when there
/// are none; "2 JSON files are not templates; --verbose lists them"; with `verbose`, the count
/// and then the files, one an indented line.
[[nodiscard]] std::string not_templates_note(const std::vector<std::string>& files, bool verbose);

/// The counts per rule, most frequent first (ties by id).
[[nodiscard]] std::vector<std::pair<std::string, std::size_t>> rule_statistics(const std::vector<Diagnostic>& findings);

}  // namespace ptmpl
