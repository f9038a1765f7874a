// The json format (docs/semantics.md §6): one object with every finding and a summary, on one line but for
// the findings, one a line.
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/json_emitter.hpp"
#include "report/formats.hpp"

namespace ptmpl::report {

std::string json(const LintRun& run, const ReportOptions& options) {
  JsonEmitter out(JsonLayout::Line);
  out.begin_object();
  out.member("files", run.linted_count());
  out.key("diagnostics");
  out.begin_array(JsonLayout::Pretty);
  for (const Diagnostic& d : run.diagnostics) {
    out.begin_object(JsonLayout::Line);
    out.member("path", json::valid_utf8(d.path));
    out.member("line", d.line);
    out.member("column", d.column);
    out.member("severity", to_string(d.severity));
    out.member("rule", d.rule);
    out.member("message", d.message);
    out.member("pointer", d.pointer);
    out.end_object();
  }
  out.end_array();
  Summary s = summarize(run.diagnostics);
  out.key("summary");
  out.begin_object();
  out.member("error", s.error);
  out.member("warning", s.warning);
  out.member("info", s.info);
  out.end_object();
  if (options.statistics) {
    out.key("statistics");
    out.begin_object();
    for (const auto& [rule, count] : rule_statistics(run.diagnostics)) out.member(rule, count);
    out.end_object();
  }
  out.end_object();
  return out.finish();
}

}  // namespace ptmpl::report
