// SARIF 2.1.0 (OASIS): one run of the ptmpl driver, its rules, and one result per finding.
#include <map>

#include "libtemplate/bundled.hpp"
#include "libtemplate/json.hpp"
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

void field(std::string& out, std::string_view name, std::string_view value) {
  json::append_quoted(out, name);
  out += ": ";
  json::append_quoted(out, value);
}

}  // namespace

std::string sarif(const LintRun& run, const ReportOptions& options) {
  std::map<std::string_view, std::size_t> index;
  auto catalogue = rule_catalogue();
  for (std::size_t i = 0; i < catalogue.size(); ++i) index[catalogue[i].id] = i;

  std::string out =
      "{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"version\": \"2.1.0\",\n"
      "  \"runs\": [\n    {\n      \"tool\": {\n        \"driver\": {\n          \"name\": \"ptmpl\",\n"
      "          \"version\": \"0.1.0\",\n          \"rules\": [";
  for (std::size_t i = 0; i < catalogue.size(); ++i) {
    const RuleInfo& rule = catalogue[i];
    out += i == 0 ? "\n            {" : ",\n            {";
    field(out, "id", rule.id);
    out += ", ";
    field(out, "name", rule.id);
    out += ", \"shortDescription\": {";
    field(out, "text", rule.summary);
    out += "}, ";
    field(out, "helpUri", options.help_uri_base + "docs/rules/" + std::string(rule.id) + ".md");
    if (auto page = rule_documentation(rule.id)) {
      out += ", \"help\": {";
      field(out, "text", rule.summary);
      out += ", ";
      field(out, "markdown", *page);
      out += "}";
    }
    out += ", \"defaultConfiguration\": {";
    field(out, "level", level(rule.severity));
    out += "}}";
  }
  out += "\n          ]\n        }\n      },\n      \"columnKind\": \"unicodeCodePoints\",\n      \"results\": [";
  bool first = true;
  for (const Diagnostic& d : run.diagnostics) {
    out += first ? "\n        {" : ",\n        {";
    first = false;
    field(out, "ruleId", d.rule);
    if (auto it = index.find(d.rule); it != index.end()) out += ", \"ruleIndex\": " + std::to_string(it->second);
    out += ", ";
    field(out, "level", level(d.severity));
    out += ", \"message\": {";
    field(out, "text", d.message);
    out += "}, \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {";
    field(out, "uri", json::valid_utf8(d.path));
    out += "}";
    if (d.line > 0)
      out += ", \"region\": {\"startLine\": " + std::to_string(d.line) +
             ", \"startColumn\": " + std::to_string(d.column) + "}";
    out += "}";
    if (!d.pointer.empty()) {
      out += ", \"logicalLocations\": [{";
      field(out, "fullyQualifiedName", d.pointer);
      out += ", \"kind\": \"element\"}]";
    }
    out += "}]}";
  }
  out += first ? "]\n    }\n  ]\n}\n" : "\n      ]\n    }\n  ]\n}\n";
  return out;
}

}  // namespace ptmpl::report
