#include "libtemplate/diagnostic.hpp"

#include <algorithm>
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

std::pair<std::string, std::uint64_t> make_excerpt(std::string_view text, std::uint64_t offset) {
  constexpr int kBefore = 40, kAfter = 60;
  auto continuation = [&](std::size_t i) { return (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80; };
  std::size_t at = std::min<std::size_t>(offset, text.size());
  std::size_t from = at;
  std::uint64_t before = 0;
  while (from > 0 && text[from - 1] != '\n' && before < kBefore) {
    --from;
    while (from > 0 && continuation(from)) --from;
    ++before;
  }
  bool cut_front = from > 0 && text[from - 1] != '\n';
  std::size_t to = at;
  for (int after = 0; to < text.size() && text[to] != '\n' && text[to] != '\r' && after < kAfter; ++after) {
    ++to;
    while (to < text.size() && continuation(to)) ++to;
  }
  bool cut_back = to < text.size() && text[to] != '\n' && text[to] != '\r';
  std::string excerpt = cut_front ? "…" : "";
  for (std::size_t i = from; i < to; ++i) excerpt += text[i] == '\t' ? ' ' : text[i];
  if (cut_back) excerpt += "…";
  return {excerpt, before + 1 + (cut_front ? 1 : 0)};
}

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

}  // namespace

std::string format_text(const std::vector<Diagnostic>& diagnostics, std::size_t files, const TextStyle& style) {
  std::string out;
  for (const Diagnostic& d : diagnostics) {
    if (style.colour) out += kBold;
    out += d.path;
    if (d.line > 0) out += ":" + std::to_string(d.line) + ":" + std::to_string(d.column);
    out += ": ";
    if (style.colour) out += std::string(kReset) + severity_colour(d.severity);
    out += to_string(d.severity);
    if (style.colour) out += kReset;
    out += ": ";
    out += d.message;
    out += " [" + d.rule + "]\n";
    if (style.excerpt && d.line > 0 && !d.excerpt.empty()) {
      std::string number = std::to_string(d.line);
      std::string gutter(number.size(), ' ');
      out += " " + number + " | " + d.excerpt + "\n";
      out += " " + gutter + " | " + std::string(d.excerpt_column - 1, ' ');
      out += style.colour ? std::string(severity_colour(d.severity)) + "^" + kReset : "^";
      out += "\n";
    }
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
