#include "libtemplate/diagnostic.hpp"

#include <tuple>

#include "libtemplate/json.hpp"

namespace ptmpl {

std::string_view to_string(Severity severity) {
  switch (severity) {
    case Severity::Info:
      return "info";
    case Severity::Warning:
      return "warning";
    case Severity::Error:
      return "error";
  }
  return "error";
}

std::optional<Severity> parse_severity(std::string_view text) {
  if (text == "info") return Severity::Info;
  if (text == "warning") return Severity::Warning;
  if (text == "error") return Severity::Error;
  return std::nullopt;
}

bool operator<(const Diagnostic& a, const Diagnostic& b) {
  return std::tie(a.path, a.line, a.column, a.rule, a.pointer, a.message) <
         std::tie(b.path, b.line, b.column, b.rule, b.pointer, b.message);
}

Summary summarize(const std::vector<Diagnostic>& diagnostics) {
  Summary s;
  for (const Diagnostic& d : diagnostics) {
    switch (d.severity) {
      case Severity::Error:
        ++s.error;
        break;
      case Severity::Warning:
        ++s.warning;
        break;
      case Severity::Info:
        ++s.info;
        break;
    }
  }
  return s;
}

namespace {

std::string plural(std::size_t n, std::string_view word) {
  std::string out = std::to_string(n) + " " + std::string(word);
  if (n != 1 && word != "info") out += 's';
  return out;
}

}  // namespace

std::string format_text(const std::vector<Diagnostic>& diagnostics, std::size_t files) {
  std::string out;
  for (const Diagnostic& d : diagnostics) {
    out += d.path;
    if (d.line > 0) out += ":" + std::to_string(d.line) + ":" + std::to_string(d.column);
    out += ": ";
    out += to_string(d.severity);
    out += ": ";
    out += d.message;
    out += " [" + d.rule + "]\n";
  }
  Summary s = summarize(diagnostics);
  out += plural(files, "file") + " checked: " + plural(s.error, "error") + ", " + plural(s.warning, "warning") + ", " +
         plural(s.info, "info") + "\n";
  return out;
}

std::string format_json(const std::vector<Diagnostic>& diagnostics, std::size_t files) {
  std::string out = "{\"files\": " + std::to_string(files) + ", \"diagnostics\": [";
  bool first = true;
  for (const Diagnostic& d : diagnostics) {
    out += first ? "\n  " : ",\n  ";
    first = false;
    out += "{\"path\": ";
    json::append_quoted(out, d.path);
    out += ", \"line\": " + std::to_string(d.line) + ", \"column\": " + std::to_string(d.column);
    out += ", \"severity\": \"" + std::string(to_string(d.severity)) + "\", \"rule\": ";
    json::append_quoted(out, d.rule);
    out += ", \"message\": ";
    json::append_quoted(out, d.message);
    out += ", \"pointer\": ";
    json::append_quoted(out, d.pointer);
    out += "}";
  }
  Summary s = summarize(diagnostics);
  out += first ? "]" : "\n]";
  out += ", \"summary\": {\"error\": " + std::to_string(s.error) + ", \"warning\": " + std::to_string(s.warning) +
         ", \"info\": " + std::to_string(s.info) + "}}\n";
  return out;
}

}  // namespace ptmpl
