// The json format (SPEC §6): one object with every finding and a summary.
#include "libtemplate/json.hpp"
#include "report/formats.hpp"

namespace ptmpl::report {

std::string json(const LintRun& run, const ReportOptions& options) {
  std::string out = "{\"files\": " + std::to_string(run.paths.size()) + ", \"diagnostics\": [";
  bool first = true;
  for (const Diagnostic& d : run.diagnostics) {
    out += first ? "\n  " : ",\n  ";
    first = false;
    out += "{\"path\": ";
    json::append_quoted(out, json::valid_utf8(d.path));
    out += ", \"line\": " + std::to_string(d.line) + ", \"column\": " + std::to_string(d.column);
    out += ", \"severity\": \"" + std::string(to_string(d.severity)) + "\", \"rule\": ";
    json::append_quoted(out, d.rule);
    out += ", \"message\": ";
    json::append_quoted(out, d.message);
    out += ", \"pointer\": ";
    json::append_quoted(out, d.pointer);
    out += "}";
  }
  Summary s = summarize(run.diagnostics);
  out += first ? "]" : "\n]";
  out += ", \"summary\": {\"error\": " + std::to_string(s.error) + ", \"warning\": " + std::to_string(s.warning) +
         ", \"info\": " + std::to_string(s.info) + "}";
  if (options.statistics) {
    out += ", \"statistics\": {";
    bool first_rule = true;
    for (const auto& [rule, count] : rule_statistics(run.diagnostics)) {
      if (!first_rule) out += ", ";
      first_rule = false;
      json::append_quoted(out, rule);
      out += ": " + std::to_string(count);
    }
    out += "}";
  }
  out += "}\n";
  return out;
}

}  // namespace ptmpl::report
