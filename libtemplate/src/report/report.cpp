#include "libtemplate/core/report.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "libtemplate/core/json.hpp"
#include "report/formats.hpp"

namespace ptmpl {

namespace report {

namespace {

void append_escaped(std::string& out, const char* format, unsigned value) {
  char escaped[8];
  std::snprintf(escaped, sizeof escaped, format, value);
  out += escaped;
}

// A run of valid UTF-8: in it a C1 control is exactly the two bytes C2 80 to C2 9F.
void append_printable_utf8(std::string& out, std::string_view run) {
  for (std::size_t i = 0; i < run.size(); ++i) {
    auto byte = static_cast<unsigned char>(run[i]);
    if (byte < 0x20 || byte == 0x7F) {
      append_escaped(out, "\\u%04X", byte);
    } else if (byte == 0xC2 && i + 1 < run.size() && static_cast<unsigned char>(run[i + 1]) <= 0x9F) {
      append_escaped(out, "\\u%04X", static_cast<unsigned char>(run[i + 1]));
      ++i;
    } else {
      out += run[i];
    }
  }
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    std::optional<std::uint64_t> bad = json::invalid_utf8_offset(text);
    std::size_t run = bad ? static_cast<std::size_t>(*bad) : text.size();
    append_printable_utf8(out, text.substr(0, run));
    if (!bad) break;
    append_escaped(out, "\\x%02X", static_cast<unsigned char>(text[run]));
    text.remove_prefix(run + 1);
  }
  return out;
}

}  // namespace report

std::optional<ReportFormat> parse_report_format(std::string_view name) {
  if (name == "text") return ReportFormat::Text;
  if (name == "json") return ReportFormat::Json;
  if (name == "sarif") return ReportFormat::Sarif;
  if (name == "github") return ReportFormat::Github;
  if (name == "junit") return ReportFormat::Junit;
  if (name == "gitlab") return ReportFormat::Gitlab;
  return std::nullopt;
}

std::vector<std::pair<std::string, std::size_t>> rule_statistics(const std::vector<Diagnostic>& findings) {
  std::map<std::string, std::size_t> counts;
  for (const Diagnostic& d : findings) ++counts[d.rule];
  std::vector<std::pair<std::string, std::size_t>> out(counts.begin(), counts.end());
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

std::string format_report(ReportFormat format, const LintRun& run, const ReportOptions& options) {
  switch (format) {
    case ReportFormat::Text:
      return report::text(run, options);
    case ReportFormat::Json:
      return report::json(run, options);
    case ReportFormat::Sarif:
      return report::sarif(run, options);
    case ReportFormat::Github:
      return report::github(run);
    case ReportFormat::Junit:
      return report::junit(run, options);
    case ReportFormat::Gitlab:
      return report::gitlab(run);
  }
  return {};
}

}  // namespace ptmpl
