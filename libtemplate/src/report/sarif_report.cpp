// SARIF 2.1.0 (OASIS): one run of the ptmpl driver, its rules, and one result per finding.
#include <map>

#include "libtemplate/core/bundled.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/json_emitter.hpp"
#include "libtemplate/core/version.hpp"
#include "report/formats.hpp"

namespace ptmpl::report {

namespace {

// SARIF levels: error, warning, note.
const char* level(Severity severity) {
  switch (severity) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Info:
      return "note";
  }
  return "note";
}

// A reportingDescriptor: the rule's id, summary, doc page and default level.
void write_rule(JsonEmitter& out, const RuleInfo& rule, const ReportOptions& options) {
  out.begin_object(JsonLayout::Line);
  out.member("id", rule.id);
  out.member("name", rule.id);
  out.key("shortDescription");
  out.begin_object();
  out.member("text", rule.summary);
  out.end_object();
  out.member("helpUri", options.help_uri_base + "docs/rules/" + std::string(rule.id) + ".md");
  if (auto page = rule_documentation(rule.id)) {
    out.key("help");
    out.begin_object();
    out.member("text", rule.summary);
    out.member("markdown", *page);
    out.end_object();
  }
  out.key("defaultConfiguration");
  out.begin_object();
  out.member("level", level(rule.severity));
  out.end_object();
  out.end_object();
}

// A result: the finding's rule, level, message, and its place in the file and in the document.
// "physicalLocation": the file, and the place in it when there is one (line 0: the whole file).
void write_physical_location(JsonEmitter& out, const std::string& path, std::uint64_t line, std::uint64_t column) {
  out.key("physicalLocation");
  out.begin_object();
  out.key("artifactLocation");
  out.begin_object();
  out.member("uri", json::valid_utf8(path));
  out.end_object();
  if (line > 0) {
    out.key("region");
    out.begin_object();
    out.member("startLine", line);
    out.member("startColumn", column);
    out.end_object();
  }
  out.end_object();
}

void write_result(JsonEmitter& out, const Diagnostic& d, const std::map<std::string_view, std::size_t>& rule_index) {
  out.begin_object(JsonLayout::Line);
  out.member("ruleId", d.rule);
  if (auto it = rule_index.find(d.rule); it != rule_index.end()) out.member("ruleIndex", it->second);
  out.member("level", level(d.severity));
  out.key("message");
  out.begin_object();
  out.member("text", d.message);
  out.end_object();
  out.key("locations");
  out.begin_array();
  out.begin_object();
  write_physical_location(out, d.path, d.line, d.column);
  if (!d.pointer.empty()) {
    out.key("logicalLocations");
    out.begin_array();
    out.begin_object();
    out.member("fullyQualifiedName", d.pointer);
    out.member("kind", "element");
    out.end_object();
    out.end_array();
  }
  out.end_object();
  out.end_array();
  if (!d.related.empty()) {
    out.key("relatedLocations");
    out.begin_array();
    for (std::size_t i = 0; i < d.related.size(); ++i) {
      const RelatedPlace& place = d.related[i];
      out.begin_object();
      out.member("id", i);
      write_physical_location(out, d.path, place.line, place.column);
      out.key("message");
      out.begin_object();
      out.member("text", place.message);
      out.end_object();
      out.end_object();
    }
    out.end_array();
  }
  out.end_object();
}

}  // namespace

std::string sarif(const LintRun& run, const ReportOptions& options) {
  std::map<std::string_view, std::size_t> index;
  auto catalogue = rule_catalogue();
  for (std::size_t i = 0; i < catalogue.size(); ++i) index[catalogue[i].id] = i;

  // Pretty down to the rules and the results, each of them on one line.
  JsonEmitter out;
  out.begin_object();
  out.member("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
  out.member("version", "2.1.0");
  out.key("runs");
  out.begin_array();
  out.begin_object();
  out.key("tool");
  out.begin_object();
  out.key("driver");
  out.begin_object();
  out.member("name", "ptmpl");
  out.member("version", kVersion);
  out.key("rules");
  out.begin_array();
  for (const RuleInfo& rule : catalogue) write_rule(out, rule, options);
  out.end_array();
  out.end_object();
  out.end_object();
  out.member("columnKind", "unicodeCodePoints");
  out.key("results");
  out.begin_array();
  for (const Diagnostic& d : run.diagnostics) write_result(out, d, index);
  out.end_array();
  out.end_object();
  out.end_array();
  out.end_object();
  return out.finish();
}

}  // namespace ptmpl::report
