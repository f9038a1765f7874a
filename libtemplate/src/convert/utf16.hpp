// Plans written in UTF-16 (as .NET and Windows programs save "Unicode" text): told apart by
// their first bytes and read as UTF-8, so that every reader sees one encoding. Private to the
// converters.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "libtemplate/core/result.hpp"

namespace ptmpl::detail {

enum class Utf16 : unsigned char { LittleEndian, BigEndian };

/// The byte order of `bytes` when they are UTF-16 text: a byte-order mark (FF FE or FE FF),
/// or, without one, an XML document's first '<' as UTF-16 (`<` 00 or 00 `<`); nullopt
/// otherwise (UTF-8, or binary such as a compound file).
[[nodiscard]] std::optional<Utf16> utf16_order(std::string_view bytes);

/// `bytes` (UTF-16 in `order`, the byte-order mark dropped) as UTF-8. A lone surrogate or an
/// odd last byte is an error `path:line:col: not UTF-16 text: …`, its place counted in
/// characters as the text's other places are.
[[nodiscard]] Result<std::string> utf16_to_utf8(std::string_view bytes, Utf16 order, const std::string& path);

}  // namespace ptmpl::detail
