// The language server: navigation (definition, references, rename) over temp_ids.
#include "lsp/features.hpp"

namespace ptmpl::lsp {

Reply definition(const OpenDocument&, Position) {
  return {};
}
Reply references(const OpenDocument&, Position, bool) {
  return {};
}
Reply prepare_rename(const OpenDocument&, Position) {
  return {};
}
Reply rename(const OpenDocument&, Position, std::string_view) {
  return {};
}

}  // namespace ptmpl::lsp
