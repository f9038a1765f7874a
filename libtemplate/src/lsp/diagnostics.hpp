// The language server, by concern: lint findings of an open document as LSP diagnostics
// (textDocument/publishDiagnostics), exactly as `ptmpl lint FILE` finds them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/core/diagnostic.hpp"
#include "libtemplate/core/json_emitter.hpp"
#include "lsp/text.hpp"

namespace ptmpl::lsp {

/// What linting an open document gave: the findings, and the errors that stopped it (an
/// invalid `.ptmpl.json`).
struct LintOutcome {
  std::int64_t version = 0;
  std::vector<Diagnostic> findings;
  std::vector<std::string> errors;
};

/// Lints the document's text as `ptmpl lint` lints its file: the same rules, with the nearest
/// `.ptmpl.json` at or above its path (none for a document that is not a file).
[[nodiscard]] LintOutcome lint_document(const OpenDocument& document);

/// The range of a finding: from its place over the value written there when it is a scalar
/// (or the bytes its fix replaces), the opening bracket when it is a container, else the place.
[[nodiscard]] Range finding_range(const TextPositions& positions, std::string_view text, const Diagnostic& finding);

/// One LSP Diagnostic: range, severity (error 1, warning 2, info 3), code (the rule id) with
/// `codeDescription.href` (`<help_uri_base>docs/rules/<id>.md`), source "ptmpl", message, and
/// relatedInformation for the places the finding names.
void write_diagnostic(JsonEmitter& out, const OpenDocument& document, const TextPositions& positions,
                      const Diagnostic& finding, std::string_view help_uri_base);

/// The params of textDocument/publishDiagnostics for the document's version.
[[nodiscard]] std::string diagnostics_params(const OpenDocument& document, const LintOutcome& outcome,
                                             std::string_view help_uri_base);

}  // namespace ptmpl::lsp
