// Applying the safe fixes lint findings carry (`ptmpl lint --fix`).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/core/diagnostic.hpp"

namespace ptmpl {

struct FixOptions {
  bool unsafe = false;  ///< also apply unsafe fixes (`--unsafe-fixes`)
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

/// A unified diff (3 lines of context) from `before` to `after`, with `a/path` and `b/path`
/// headers; empty when they are equal. Fixes never add or remove lines, so lines are paired
/// one to one; texts whose line counts differ are shown as one hunk.
[[nodiscard]] std::string unified_diff(std::string_view path, std::string_view before, std::string_view after);

}  // namespace ptmpl
