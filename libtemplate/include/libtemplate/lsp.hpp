// `ptmpl lsp`: the language server for template files (SPEC §12), LSP 3.17 over JSON-RPC.
#pragma once

#include <iosfwd>

namespace ptmpl::lsp {

struct ServerOptions {
  /// Worker threads for linting; 0 = one per core.
  unsigned jobs = 0;
};

/// Serves one client on `in`/`out` (framed JSON-RPC) until `exit`, or until `in` ends. The
/// process exit code: 0 after `shutdown` then `exit`, 1 otherwise (LSP's rule).
int serve(std::istream& in, std::ostream& out, const ServerOptions& options = {});

}  // namespace ptmpl::lsp
