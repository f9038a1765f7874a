// The language server, by concern: the text of open documents as the client changes it
// (textDocument/didChange), and the smallest edit from one text to another.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "libtemplate/core/json.hpp"
#include "lsp/text.hpp"

namespace ptmpl::lsp {

/// Applies one entry of didChange's `contentChanges` to `text`: with a `range`, the range's text
/// is replaced by `text` (incremental sync); without, `text` is the whole new text. Returns an
/// empty string, or why the change could not be applied (then `text` is unchanged).
[[nodiscard]] std::string apply_change(std::string& text, const json::Value& change);

/// One replacement that turns `before` into `after`: the bytes between their common prefix and
/// common suffix, cut at whole characters (and never inside "\r\n", which LSP positions cannot
/// address), so its range converts to LSP positions and back exactly.
struct ByteEdit {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  std::string replacement;
};
[[nodiscard]] ByteEdit smallest_edit(std::string_view before, std::string_view after);

}  // namespace ptmpl::lsp
