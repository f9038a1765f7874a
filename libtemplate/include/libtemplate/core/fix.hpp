// Applying the safe fixes lint findings carry (`ptmpl lint --fix`).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <optional>

#include "libtemplate/core/diagnostic.hpp"
#include "libtemplate/core/result.hpp"
#include "libtemplate/core/unified_diff.hpp"

namespace ptmpl {

struct FixOptions {
  bool unsafe = false;  ///< also apply unsafe fixes (`--unsafe-fixes`)
  /// For files found below a directory: that directory (SelectedFile::tree), which a fix never
  /// leaves through a symbolic link (rewrite_file's `tree`).
  std::map<std::string, std::string> trees = {};
};

struct FixResult {
  std::string text;          ///< the file with the fixes applied
  std::size_t applied = 0;   ///< fixes applied
  std::size_t skipped = 0;   ///< fixes left out because they overlap one applied before
  std::size_t withheld = 0;  ///< unsafe fixes left out because FixOptions::unsafe is not set
};

/// Applies the fixes of `findings` (those about any file: the caller passes one file's) to
/// `text`, in order of offset: the safe ones, and the unsafe ones too with `options.unsafe`.
/// A fix overlapping an earlier one is skipped. Bytes outside the fixed ranges are copied
/// unchanged.
[[nodiscard]] FixResult apply_fixes(std::string_view text, const std::vector<Diagnostic>& findings,
                                    const FixOptions& options = {});

struct LintRun;

/// What the fixes did to one file (`lint --fix`).
struct FixedFile {
  std::string path;
  bool changed = false;      ///< the fixes change the file (a dry run: would change it)
  std::size_t applied = 0;   ///< fixes applied (not counted in a dry run)
  std::size_t withheld = 0;  ///< unsafe fixes not applied (FixOptions::unsafe not set)
  /// A dry run: each fix, `# FILE:LINE:COL: safe fix [rule]` (or `unsafe fix`, or `unsafe fix,
  /// not applied (--unsafe-fixes applies it)`), a line each, then the unified diff.
  std::string plan;
};

/// What fix_files did.
struct FixFilesOutcome {
  /// The files with fixes, in order of path, up to the one that failed (its `applied` is 0
  /// when it could not be rewritten).
  std::vector<FixedFile> files;
  /// The file that could not be read or rewritten, or no longer holds the bytes linted: the
  /// fixes stopped there (files before it are fixed).
  std::optional<Error> error;
  /// The files changed (a dry run: that would change).
  [[nodiscard]] std::size_t changed() const;
};

/// Applies the fixes of `run`'s findings file by file (atomically): the safe ones, and the
/// unsafe ones too with `options.unsafe` (apply_fixes). A file is fixed only while it holds
/// the bytes that were linted (`run` needs LintSettings::fingerprint): its offsets are those
/// of these bytes. With `dry_run`, nothing is written and each file's `plan` says what would
/// be. Standard input is never fixed.
[[nodiscard]] FixFilesOutcome fix_files(const LintRun& run, bool dry_run, const FixOptions& options = {});

}  // namespace ptmpl
