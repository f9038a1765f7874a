// The lint engine: linting parsed files and many files, with their configurations.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/core/diagnostic.hpp"
#include "libtemplate/core/result.hpp"
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
  /// Rule ids and group names (`lint --select`): only their findings are kept, and the rules
  /// of a group named run though off by default; every rule's findings when empty. The caller
  /// checks the names (find_rule(), is_rule_group()) and keeps them alive.
  std::span<const std::string> select{};
};

/// Runs every rule on a parsed file. Findings are sorted (see Diagnostic's operator<).
[[nodiscard]] std::vector<Diagnostic> lint(const TemplateFile& file, const LintOptions& options = {});

/// How to lint many files.
struct LintSettings {
  /// One configuration for every file (`--config`); otherwise each file uses the nearest
  /// `.ptmpl.json` at or above its directory, when `discover_config` is set.
  std::optional<std::string> config_path;
  /// One configuration already read, for every file, in place of `config_path` (the caller
  /// keeps it alive for the run).
  const LintConfig* config = nullptr;
  bool discover_config = true;
  std::optional<std::uint32_t> max_depth;  ///< overrides the configuration's (default 256)
  std::optional<Severity> fail_on;         ///< overrides the configuration's (default error)
  std::vector<std::string> select;         ///< LintOptions::select, for every file
  unsigned jobs = 0;                       ///< threads; 0 = one per core
  /// Record the content_hash (hash.hpp) of the bytes each file was linted in
  /// (`LintedFile::fingerprint`), so that fixes are applied only to those bytes (`lint --fix`).
  bool fingerprint = false;
  /// Parallel to the paths (or empty): true for a file found below a directory, which is
  /// skipped, not linted, when it is valid JSON of none of the template shapes (a
  /// package.json): it is listed in `LintRun::not_templates`.
  std::vector<bool> found_in_directory;
};

/// One file of a run.
struct LintedFile {
  std::string path;
  /// With LintSettings::fingerprint, the content_hash (hash.hpp) of the bytes linted.
  std::uint64_t fingerprint = 0;
  /// Why the file was not linted (unreadable, another program's plan, its configuration
  /// invalid); none when it was.
  std::optional<Error> error;
};

/// What linting many files found.
struct LintRun {
  /// The files in the order given, but those in `not_templates`. An invalid configuration
  /// stops the run: `files` then holds only the file it was found for, with that error.
  std::vector<LintedFile> files;
  std::vector<Diagnostic> diagnostics;  ///< sorted by path, line, column
  bool failed = false;                  ///< a finding at or above its file's fail-on severity
  /// Files found below a directory that hold JSON but no template (see found_in_directory).
  std::vector<std::string> not_templates;

  /// How many files were read and linted (those without an error).
  [[nodiscard]] std::size_t linted_count() const;
  /// Whether a file was not linted (an error of its own or of its configuration).
  [[nodiscard]] bool has_errors() const;
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
