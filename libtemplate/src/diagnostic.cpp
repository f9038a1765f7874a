#include "libtemplate/diagnostic.hpp"

#include <algorithm>
#include <tuple>

#include "libtemplate/json.hpp"

namespace ptmpl {

std::string format_place(std::string_view path, std::uint64_t line, std::uint64_t column) {
  std::string out(path);
  if (line > 0) out += ":" + std::to_string(line) + ":" + std::to_string(column);
  return out;
}

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

}  // namespace ptmpl
