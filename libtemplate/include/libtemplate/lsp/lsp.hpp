// `ptmpl lsp`: the language server for template files (docs/semantics.md §12), LSP 3.17 over JSON-RPC.
#pragma once

#include <iosfwd>
#include <string>

namespace ptmpl::lsp {

struct ServerOptions {
  /// Threads linting open documents at once; 0 = one per core, at most 4.
  unsigned jobs = 0;
  /// Prefix of each diagnostic's rule page (`codeDescription.href` is
  /// `<help_uri_base>docs/rules/<id>.md`, as SARIF's helpUri).
  std::string help_uri_base;
  /// Requests answered at once (threads), so that one slow request holds up no other; 1
  /// answers them one at a time, in order.
  unsigned request_threads = 4;
};

/// Serves one client on `in`/`out` (framed JSON-RPC) until `exit`, or until `in` ends. The
/// process exit code: 0 after `shutdown` then `exit`, 1 otherwise (LSP's rule).
int serve(std::istream& in, std::ostream& out, const ServerOptions& options = {});

/// The same with standard output as `out`, written by the server alone: every message is
/// written whole, waiting while a client that reads slowly leaves the pipe full (also when the
/// pipe is non-blocking), never as part of a message followed by another.
int serve_stdio(std::istream& in, const ServerOptions& options = {});

}  // namespace ptmpl::lsp
