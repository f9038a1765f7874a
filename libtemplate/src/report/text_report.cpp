// The text format: gcc-style lines, excerpts and colour on a terminal, a summary line.

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

}  // namespace

std::string text(const LintRun& run, const ReportOptions& options) {
  std::string out;
  for (const Diagnostic& d : run.diagnostics) {
    if (options.colour) out += kBold;
    out += format_place(printable(d.path), d.line, d.column);
    out += ": ";
    if (options.colour) out += std::string(kReset) + severity_colour(d.severity);
    out += to_string(d.severity);
    if (options.colour) out += kReset;
    out += ": ";
    out += printable(d.message);
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
  out += plural(run.paths.size(), "file") + " checked: " + plural(s.error, "error") + ", " +
         plural(s.warning, "warning") + ", " + plural(s.info, "info") + "\n";
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
