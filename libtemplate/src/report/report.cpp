#include "libtemplate/core/report.hpp"

#include <algorithm>
#include <map>

#include "report/formats.hpp"

namespace ptmpl {

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
  for (const Diagnostic& d : findings) counts[d.rule] += d.count;
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
