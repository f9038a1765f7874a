#include "libtemplate/core/diagnostic.hpp"

#include <vector>

#include <algorithm>
#include <tuple>

#include "libtemplate/core/json.hpp"

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
        s.error += d.count;
        break;
      case Severity::Warning:
        s.warning += d.count;
        break;
      case Severity::Info:
        s.info += d.count;
        break;
    }
  }
  return s;
}

std::pair<std::string, std::uint64_t> make_excerpt(std::string_view text, std::uint64_t offset) {
  // A line of up to kWidth characters is shown whole; a longer one is cut to kWidth around the
  // offset, kBefore characters before it when there are that many after it, more otherwise.
  constexpr std::size_t kWidth = 100, kBefore = 40;
  auto continuation = [&](std::size_t i) { return (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80; };
  auto line_end = [&](std::size_t i) { return text[i] == '\n' || text[i] == '\r'; };
  const std::size_t at = std::min<std::size_t>(offset, text.size());
  // Where each character before `at` starts, nearest first, up to kWidth of them.
  std::vector<std::size_t> starts;
  for (std::size_t from = at; from > 0 && text[from - 1] != '\n' && starts.size() < kWidth;) {
    --from;
    while (from > 0 && continuation(from)) --from;
    starts.push_back(from);
  }
  // Where each character from `at` ends, up to kWidth of them.
  std::vector<std::size_t> ends;
  for (std::size_t to = at; to < text.size() && !line_end(to) && ends.size() < kWidth;) {
    ++to;
    while (to < text.size() && continuation(to)) ++to;
    ends.push_back(to);
  }
  const std::size_t before = std::min(starts.size(), std::max(kBefore, kWidth - std::min(ends.size(), kWidth)));
  const std::size_t after = std::min(ends.size(), kWidth - before);
  const std::size_t from = before == 0 ? at : starts[before - 1];
  const std::size_t to = after == 0 ? at : ends[after - 1];
  const bool cut_front = from > 0 && text[from - 1] != '\n';
  const bool cut_back = to < text.size() && !line_end(to);
  std::string excerpt = cut_front ? "…" : "";
  for (std::size_t i = from; i < to; ++i) excerpt += text[i] == '\t' ? ' ' : text[i];
  if (cut_back) excerpt += "…";
  return {excerpt, before + 1 + (cut_front ? 1 : 0)};
}

}  // namespace ptmpl
