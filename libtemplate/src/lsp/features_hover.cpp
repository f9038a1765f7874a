// The language server: hover on a story or a temp_id.
#include "lsp/features.hpp"

namespace ptmpl::lsp {

Reply hover(const OpenDocument&, Position) {
  return {};
}

}  // namespace ptmpl::lsp
