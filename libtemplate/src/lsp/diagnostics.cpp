// The language server, by concern: lint findings as diagnostics (diagnostics.hpp).
#include "lsp/diagnostics.hpp"

#include "libtemplate/core/lint.hpp"
#include "lsp/jsonrpc.hpp"

namespace ptmpl::lsp {

LintOutcome lint_document(const OpenDocument& document) {
  LintSettings settings;
  settings.jobs = 1;
  settings.discover_config = !document.path.empty();
  std::vector<std::string> paths{document.path.empty() ? document.uri : document.path};
  std::string_view text = document.text;
  LintRun run = lint_texts(paths, std::span(&text, 1), settings);
  LintOutcome outcome;
  outcome.version = document.version;
  outcome.findings = std::move(run.diagnostics);
  for (LintedFile& file : run.files)
    if (file.error) outcome.errors.push_back(std::move(file.error->message));
  return outcome;
}

namespace {

// The end of the scalar written at `at` (a string, number or literal), the end of the bracket of
// a container there, or `at` when neither is.
std::uint64_t scalar_end(std::string_view text, std::uint64_t at) {
  if (at >= text.size()) return at;
  std::uint64_t i = at;
  char c = text[i];
  if (c == '"') {
    for (++i; i < text.size(); ++i) {
      if (text[i] == '\\') {
        ++i;
      } else if (text[i] == '"') {
        return i + 1;
      } else if (text[i] == '\n') {
        return at;
      }
    }
    return at;
  }
  auto number_char = [](char ch) {
    return (ch >= '0' && ch <= '9') || ch == '-' || ch == '+' || ch == '.' || ch == 'e' || ch == 'E';
  };
  if (c == '-' || (c >= '0' && c <= '9')) {
    while (i < text.size() && number_char(text[i])) ++i;
    return i;
  }
  if (c == 't' || c == 'f' || c == 'n') {
    while (i < text.size() && text[i] >= 'a' && text[i] <= 'z') ++i;
    return i;
  }
  // A container: its opening bracket, so that the place shows.
  if (c == '{' || c == '[') return at + 1;
  return at;
}

Range place_range(const TextPositions& positions, std::string_view text, std::uint64_t line, std::uint64_t column) {
  if (line == 0) return {};
  Position start = positions.from_line_column(line, column);
  std::uint64_t begin = positions.offset(start);
  return positions.range(begin, scalar_end(text, begin));
}

int lsp_severity(Severity severity) {
  switch (severity) {
    case Severity::Error:
      return 1;
    case Severity::Warning:
      return 2;
    case Severity::Info:
      return 3;
  }
  return 1;
}

}  // namespace

Range finding_range(const TextPositions& positions, std::string_view text, const Diagnostic& finding) {
  if (finding.line == 0) return {};
  Position start = positions.from_line_column(finding.line, finding.column);
  std::uint64_t begin = positions.offset(start);
  if (finding.fix && finding.fix->offset == begin && finding.fix->length > 0)
    return positions.range(begin, begin + finding.fix->length);
  return positions.range(begin, scalar_end(text, begin));
}

void write_diagnostic(JsonEmitter& out, const OpenDocument& document, const TextPositions& positions,
                      const Diagnostic& finding, std::string_view help_uri_base) {
  out.begin_object();
  out.key("range");
  write_range(out, finding_range(positions, document.text, finding));
  out.member("severity", lsp_severity(finding.severity));
  out.member("code", finding.rule);
  if (find_rule(finding.rule) != nullptr) {
    out.key("codeDescription");
    out.begin_object();
    out.member("href", std::string(help_uri_base) + "docs/rules/" + finding.rule + ".md");
    out.end_object();
  }
  out.member("source", "ptmpl");
  out.member("message", json::valid_utf8(finding.message));
  if (!finding.related.empty()) {
    out.key("relatedInformation");
    out.begin_array();
    for (const RelatedPlace& place : finding.related) {
      out.begin_object();
      out.key("location");
      out.begin_object();
      out.member("uri", document.uri);
      out.key("range");
      write_range(out, place_range(positions, document.text, place.line, place.column));
      out.end_object();
      out.member("message", json::valid_utf8(place.message));
      out.end_object();
    }
    out.end_array();
  }
  out.end_object();
}

std::string diagnostics_params(const OpenDocument& document, const LintOutcome& outcome,
                               std::string_view help_uri_base) {
  TextPositions positions(document.text);
  JsonEmitter out(JsonLayout::Compact, 256 + outcome.findings.size() * 256);
  out.begin_object();
  out.member("uri", document.uri);
  out.member("version", document.version);
  out.key("diagnostics");
  out.begin_array();
  // An unusable configuration stops lint; the editor shows why at the top of the document.
  for (const std::string& error : outcome.errors) {
    out.begin_object();
    out.key("range");
    write_range(out, Range{});
    out.member("severity", 1);
    out.member("source", "ptmpl");
    out.member("message", json::valid_utf8(error));
    out.end_object();
  }
  for (const Diagnostic& finding : outcome.findings) write_diagnostic(out, document, positions, finding, help_uri_base);
  out.end_array();
  out.end_object();
  return out.finish();
}

}  // namespace ptmpl::lsp
