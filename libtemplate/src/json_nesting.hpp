// Reading JSON that comes from elsewhere (the service's responses, the sandbox's requests) with
// RapidJSON's DOM, whose parser and Accept() recurse once per level of nesting unless told
// otherwise: a deeply nested text would exhaust the stack. Private to the library.
#pragma once

#include <cstddef>
#include <string_view>

#include <rapidjson/document.h>

namespace ptmpl::detail {

/// The deepest nesting of arrays and objects in JSON `text` (brackets inside strings do not
/// count). A linear scan that needs no valid JSON; the parse that follows finds errors.
[[nodiscard]] std::size_t json_nesting(std::string_view text);

/// Parses `text` into `doc` without recursion on its nesting (RapidJSON's iterative parser).
/// The DOM's own destruction does not recurse either (its memory pool frees it whole), but
/// walking it (Accept, recursive reads) does: check json_nesting() first for those.
inline void parse_iteratively(rapidjson::Document& doc, std::string_view text) {
  doc.Parse<rapidjson::kParseIterativeFlag>(text.data(), text.size());
}

}  // namespace ptmpl::detail
