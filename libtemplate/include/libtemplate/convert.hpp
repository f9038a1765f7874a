// Converting external plans into templates (SPEC §7). Each reader turns a plan into a template
// document in canonical form and reports every approximation or loss as a diagnostic with its
// own id (never silently); `strict` makes those errors.
#pragma once

#include <cstdint>
#include <string>
#include <span>
#include <string_view>
#include <vector>

#include "libtemplate/diagnostic.hpp"
#include "libtemplate/result.hpp"

namespace ptmpl {

/// The plan formats the converters read, detected from the content.
enum class PlanFormat : std::uint8_t {
  Mspdi,     ///< Microsoft Project XML (a `Project` root in the MS Project namespace)
  Gan,       ///< GanttProject (a `project` root element)
  Template,  ///< one of our own JSON shapes
  Unknown,
};

/// Looks at the first bytes (after a byte order mark and XML prolog, comments and whitespace).
[[nodiscard]] PlanFormat detect_plan_format(std::string_view text);

struct ConvertOptions {
  /// Approximations and losses are errors instead of warnings.
  bool strict = false;
};

/// One converted plan: the template document and what the conversion could not carry over.
struct Conversion {
  std::string document;                 ///< a template document, canonical form
  std::vector<Diagnostic> diagnostics;  ///< sorted (path, line, column, rule)
};

/// The conversion diagnostics a reader can report: id, default severity, one-line summary.
struct ConversionRule {
  std::string_view id;
  Severity severity;
  std::string_view summary;
};
[[nodiscard]] std::span<const ConversionRule> conversion_rules();

/// Microsoft Project XML (MSPDI, Project 2002–2019) → template document. `path` names the
/// file in messages. Fails (with path, line and column) only when the text is not
/// well-formed XML or not an MSPDI project; everything else converts, with diagnostics.
/// No DTD is processed and no entity but XML's five predefined ones is expanded.
[[nodiscard]] Result<Conversion> convert_mspdi(std::string_view text, const std::string& path,
                                               const ConvertOptions& options = {});

/// GanttProject `.gan` (versions 2.0–3.3) → template document. `path` names the file in
/// messages. Fails (with path, line and column) only when the text is not well-formed XML or
/// its root is not `<project>`; everything else converts, with diagnostics. No DTD is
/// processed and no entity but XML's five predefined ones is expanded.
[[nodiscard]] Result<Conversion> convert_gan(std::string_view text, const std::string& path,
                                             const ConvertOptions& options = {});

}  // namespace ptmpl
