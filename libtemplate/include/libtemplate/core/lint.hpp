// The lint engine: linting parsed files and many files, with their configurations.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/core/diagnostic.hpp"
#include "libtemplate/core/rules.hpp"
#include "libtemplate/core/template_file.hpp"

namespace ptmpl {

class LintConfig;

struct LintOptions {
  /// Containers nested deeper than this are not read and reported by `nesting-depth`.
  std::uint32_t max_depth = 256;
  /// Severities, rule options and ignores (`.ptmpl.json`); none when null.
  const LintConfig* config = nullptr;
  /// Threads the rules of a large file may take (at most two are used: the rules are split in
  /// two halves); 1 runs them all on the calling thread. The findings are the same either way.
  unsigned threads = 1;
};

/// Runs every rule on a parsed file. Findings are sorted (see Diagnostic's operator<).
[[nodiscard]] std::vector<Diagnostic> lint(const TemplateFile& file, const LintOptions& options = {});

/// How to lint many files.
struct LintSettings {
  /// One configuration for every file (`--config`); otherwise each file uses the nearest
  /// `.ptmpl.json` at or above its directory, when `discover_config` is set.
  std::optional<std::string> config_path;
  bool discover_config = true;
  std::optional<std::uint32_t> max_depth;  ///< overrides the configuration's (default 256)
  std::optional<Severity> fail_on;         ///< overrides the configuration's (default error)
  unsigned jobs = 0;                       ///< threads; 0 = one per core
  /// Record the content_hash (hash.hpp) of the bytes each file was linted in
  /// (`LintRun::fingerprints`), so that fixes are applied only to those bytes (`lint --fix`).
  bool fingerprint = false;
  /// Parallel to the paths (or empty): true for a file found below a directory, which is
  /// skipped, not linted, when it is valid JSON of none of the template shapes (a
  /// package.json): it is listed in `LintRun::not_templates`.
  std::vector<bool> found_in_directory;
};

/// What linting many files found.
struct LintRun {
  std::vector<std::string> paths;       ///< files read and linted, in the order given
  std::vector<Diagnostic> diagnostics;  ///< sorted by path, line, column
  std::vector<std::string> errors;      ///< unreadable files and invalid configurations
  bool failed = false;                  ///< a finding at or above its file's fail-on severity
  /// With LintSettings::fingerprint, parallel to `paths`: the content_hash of the bytes linted.
  std::vector<std::uint64_t> fingerprints;
  /// Files found below a directory that hold JSON but no template (see found_in_directory).
  std::vector<std::string> not_templates;
};

/// Reads and lints `paths` (files, in the order given) in parallel. The result does not
/// depend on the number of threads.
[[nodiscard]] LintRun lint_files(const std::vector<std::string>& paths, const LintSettings& settings = {});

/// lint_files for bytes already read: `texts[i]` holds the bytes of `paths[i]` (which names
/// the file in findings and finds its configuration). The caller keeps `texts` alive.
[[nodiscard]] LintRun lint_texts(const std::vector<std::string>& paths, std::span<const std::string_view> texts,
                                 const LintSettings& settings = {});

/// Parses `text` as the file `path` and lints it.
[[nodiscard]] std::vector<Diagnostic> lint_text(const std::string& path, std::string_view text,
                                                const LintOptions& options = {});

}  // namespace ptmpl
