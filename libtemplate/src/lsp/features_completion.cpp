// The language server: completion, from the text around the position.
#include "lsp/features.hpp"

namespace ptmpl::lsp {

Reply completion(const OpenDocument&, Position) {
  return {};
}

}  // namespace ptmpl::lsp
