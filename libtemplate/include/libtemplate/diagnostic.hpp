// Lint findings: data, not errors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptmpl {

enum class Severity { Info, Warning, Error };

[[nodiscard]] std::string_view to_string(Severity severity);
[[nodiscard]] std::optional<Severity> parse_severity(std::string_view text);

/// One finding: which rule, how bad, what, and exactly where.
struct Diagnostic {
  std::string rule;
  Severity severity = Severity::Error;
  std::string message;
  std::string path;
  std::uint64_t line = 0;    ///< 1-based; 0 when the finding concerns the whole file
  std::uint64_t column = 0;  ///< 1-based, in Unicode code points
  /// JSON pointer of the offending value: in the story list for stories (e.g.
  /// `/3/sub_stories/0/temp_id`), in the file for template-level values.
  std::string pointer;
};

/// Orders by path, line, column, rule (the order every output format uses).
[[nodiscard]] bool operator<(const Diagnostic& a, const Diagnostic& b);

struct Summary {
  std::size_t error = 0;
  std::size_t warning = 0;
  std::size_t info = 0;
};

[[nodiscard]] Summary summarize(const std::vector<Diagnostic>& diagnostics);

/// `path:line:col: severity: message [rule]` lines, then a summary line.
[[nodiscard]] std::string format_text(const std::vector<Diagnostic>& diagnostics, std::size_t files);
/// SPEC §6: {"files", "diagnostics": [{path, line, column, severity, rule, message, pointer}], "summary"}.
[[nodiscard]] std::string format_json(const std::vector<Diagnostic>& diagnostics, std::size_t files);

}  // namespace ptmpl
