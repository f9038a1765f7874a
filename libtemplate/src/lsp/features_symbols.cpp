// The language server: document and workspace symbols.
#include "lsp/features.hpp"

namespace ptmpl::lsp {

Reply document_symbols(const OpenDocument&) {
  return {};
}
Reply workspace_symbols(std::span<const OpenDocument>, std::string_view) {
  return {};
}

}  // namespace ptmpl::lsp
