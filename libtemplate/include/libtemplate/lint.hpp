// The lint engine: the rule catalogue and linting of parsed files.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/diagnostic.hpp"
#include "libtemplate/template_file.hpp"

namespace ptmpl {

/// A registered rule: stable kebab-case id, default severity, one line of summary.
struct RuleInfo {
  std::string_view id;
  Severity severity;
  std::string_view summary;
};

/// Every rule, sorted by id.
[[nodiscard]] std::span<const RuleInfo> rule_catalogue();
/// The rule with this id, or nullptr.
[[nodiscard]] const RuleInfo* find_rule(std::string_view id);

struct LintOptions {
  /// Containers nested deeper than this are not read and reported by `nesting-depth`.
  std::uint32_t max_depth = 256;
};

/// Runs every rule on a parsed file. Findings are sorted (see Diagnostic's operator<).
[[nodiscard]] std::vector<Diagnostic> lint(const TemplateFile& file, const LintOptions& options = {});

/// What linting many files found.
struct LintRun {
  std::size_t files = 0;                 ///< files read and linted
  std::vector<Diagnostic> diagnostics;   ///< sorted by path, line, column
  std::vector<std::string> read_errors;  ///< files that could not be read, with the reason
};

/// Reads and lints `paths` (files, in the order given) in parallel on `jobs` threads
/// (0 = one per core). The result does not depend on the number of threads.
[[nodiscard]] LintRun lint_files(const std::vector<std::string>& paths, const LintOptions& options = {},
                                 unsigned jobs = 0);

/// Parses `text` as the file `path` and lints it.
[[nodiscard]] std::vector<Diagnostic> lint_text(const std::string& path, std::string_view text,
                                                const LintOptions& options = {});

}  // namespace ptmpl
