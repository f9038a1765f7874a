// The text format: gcc-style lines, excerpts and colour on a terminal, a summary line.

#include <map>
#include <utility>

#include "libtemplate/core/printable.hpp"
#include "report/formats.hpp"

namespace ptmpl::report {

namespace {

constexpr const char* kReset = "\033[0m";
constexpr const char* kBold = "\033[1m";

const char* severity_colour(Severity severity) {
  switch (severity) {
    case Severity::Error:
      return "\033[1;31m";
    case Severity::Warning:
      return "\033[1;35m";
    case Severity::Info:
      return "\033[1;36m";
  }
  return "";
}

std::string plural(std::size_t n, std::string_view word) {
  std::string out = std::to_string(n) + " " + std::string(word);
  if (n != 1 && word != "info") out += 's';
  return out;
}

// The findings of each (file, rule) with at least `options.group_from` of them, by the index
// of their first; empty when repeats are not folded (ReportOptions::group_message).
std::map<std::size_t, std::vector<const Diagnostic*>> groups(const std::vector<Diagnostic>& findings,
                                                             const ReportOptions& options) {
  std::map<std::size_t, std::vector<const Diagnostic*>> out;
  if (!options.group_message || options.verbose || options.group_from < 2) return out;
  std::map<std::pair<std::string_view, std::string_view>, std::size_t> first;  // (path, rule) → index
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const auto [at, inserted] = first.try_emplace({findings[i].path, findings[i].rule}, i);
    out[at->second].push_back(&findings[i]);
  }
  std::erase_if(out, [&](const auto& group) { return group.second.size() < options.group_from; });
  return out;
}

}  // namespace

std::string text(const LintRun& run, const ReportOptions& options) {
  std::string out;
  const auto folded = groups(run.diagnostics, options);
  std::vector<bool> shown;  // with folding: the findings printed on their group's line
  if (!folded.empty()) shown.assign(run.diagnostics.size(), false);
  for (std::size_t i = 0; i < run.diagnostics.size(); ++i) {
    if (!shown.empty() && shown[i]) continue;
    const Diagnostic& d = run.diagnostics[i];
    const std::string* message = &d.message;
    std::string folded_message;
    if (const auto group = folded.find(i); group != folded.end()) {
      for (const Diagnostic* member : group->second)
        shown[static_cast<std::size_t>(member - run.diagnostics.data())] = true;
      // A finding without a place (a .mpp file has no lines) cannot be pointed at.
      folded_message = options.group_message(group->second) +
                       (d.line > 0 ? "; the first is here, --verbose lists each" : "; --verbose lists each");
      message = &folded_message;
    }
    if (options.colour) out += kBold;
    out += format_place(printable(d.path), d.line, d.column);
    out += ": ";
    if (options.colour) out += std::string(kReset) + severity_colour(d.severity);
    out += to_string(d.severity);
    if (options.colour) out += kReset;
    out += ": ";
    out += printable(*message);
    out += " [" + d.rule + "]\n";
    if (options.excerpt && d.line > 0 && !d.excerpt.empty()) {
      std::string number = std::to_string(d.line);
      out += " " + number + " | " + printable(d.excerpt) + "\n";
      out += " " + std::string(number.size(), ' ') + " | " + std::string(d.excerpt_column - 1, ' ');
      out += options.colour ? std::string(severity_colour(d.severity)) + "^" + kReset : "^";
      out += "\n";
    }
  }
  if (options.statistics) {
    for (const auto& [rule, count] : rule_statistics(run.diagnostics)) {
      std::string number = std::to_string(count);
      out += std::string(number.size() < 6 ? 6 - number.size() : 0, ' ') + number + "  " + rule + "\n";
    }
  }
  Summary s = summarize(run.diagnostics);
  out += plural(run.linted_count(), options.unit) + " " + std::string(options.outcome) + ": " +
         plural(s.error, "error") + ", " + plural(s.warning, "warning") + ", " + plural(s.info, "info") + "\n";
  out += not_templates_note(run.not_templates, options.verbose);
  return out;
}

}  // namespace ptmpl::report

namespace ptmpl {

std::string not_templates_note(const std::vector<std::string>& files, bool verbose) {
  if (files.empty()) return "";
  const bool one = files.size() == 1;
  std::string out =
      std::to_string(files.size()) + (one ? " JSON file is not a template" : " JSON files are not templates");
  if (!verbose) return out + (one ? "; --verbose lists it\n" : "; --verbose lists them\n");
  out += ":\n";
  for (const std::string& file : files) out += "  " + file + "\n";
  return out;
}

}  // namespace ptmpl
