// The language server, by concern: lint fixes as code actions (textDocument/codeAction) and
// `fmt` as document formatting (textDocument/formatting).
#pragma once

#include <string_view>
#include <vector>

#include "lsp/diagnostics.hpp"
#include "lsp/features.hpp"

namespace ptmpl::lsp {

/// Which kinds of action the client asked for (CodeActionContext.only); all when empty.
struct ActionKinds {
  bool quickfix = true;
  bool fix_all = true;
};

/// The actions for `range`: a quickfix for each finding there that carries a fix (preferred
/// when safe; an unsafe one says so in its title), and one `source.fixAll` action applying
/// every safe fix of the document (through apply_fixes(), as `lint --fix`).
[[nodiscard]] Reply code_actions(const OpenDocument& document, const LintOutcome& outcome, Range range,
                                 ActionKinds kinds, std::string_view help_uri_base, const Cancellation& cancel = {});

/// The edit that makes the document canonical (`ptmpl fmt`): `[]` when it is; an error
/// (RequestFailed) naming the place when it does not parse or is nested too deep to rewrite.
[[nodiscard]] Reply format_document(const OpenDocument& document);

}  // namespace ptmpl::lsp
