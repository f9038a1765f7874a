// ptmpl lsp: the language server for editors (docs/semantics.md §12), served by the library.
#include <iostream>

#include "commands.hpp"
#include "libtemplate/lsp/lsp.hpp"

namespace ptmpl::cli {

std::function<int()> setup_lsp(CLI::App& app) {
  struct Options {
    bool stdio = false;
    unsigned jobs = 0;
    std::string help_uri_base;
  };
  auto o = std::make_shared<Options>();
  app.add_flag("--stdio", o->stdio, "talk over standard input and output (the default and only way; editors pass it)");
  app.add_option("-j,--jobs", o->jobs, "documents linted at once (default: one per core, at most 4)");
  app.add_option("--help-uri-base", o->help_uri_base,
                 "prefix of each diagnostic's rule page link, <base>docs/rules/<id>.md (e.g. your repository URL)");
  app.footer(
      "A Language Server (LSP 3.17, JSON-RPC over standard input and output) for template files:\n"
      "lint findings as diagnostics while typing (the rules, .ptmpl.json and messages of ptmpl lint),\n"
      "fixes as code actions, fmt as formatting, go to definition, references, rename of a temp_id,\n"
      "hover, completion, document and workspace symbols. Started by an editor, not by hand\n"
      "(docs/editors.md, docs/commands/lsp.md).\n"
      "Exit codes: 0 after the client's shutdown and exit, 1 when the input ends or exit comes\n"
      "without shutdown, 2 usage error.\n\n"
      "Example:\n  ptmpl lsp --stdio");
  return [o] {
    std::ios::sync_with_stdio(false);
    lsp::ServerOptions options;
    options.jobs = o->jobs;
    options.help_uri_base = o->help_uri_base;
    return lsp::serve_stdio(std::cin, options);
  };
}

}  // namespace ptmpl::cli
