// RTF → plain text, for the notes a .mpp file keeps as 8-bit RTF ({\rtf1\ansi\ansicpg1252…).
// MS Project writes the same note in MSPDI's <Notes> as the text alone: no fonts, colours,
// pictures or field codes; paragraphs as line breaks.
#pragma once

#include <string>
#include <string_view>

namespace ptmpl::detail::mpp {

/// The text of the RTF document `rtf` as UTF-8. Groups that are not text (font and colour
/// tables, style sheets, document information, pictures, objects, `{\*\…}` destinations, field
/// instructions) are skipped; \par and \line become "\n", \tab and \cell "\t"; \'hh bytes and
/// raw 8-bit bytes are decoded through the document's code page (\ansicpgN, \mac, \pc, \pca;
/// 1252 when none is named); \uN (negative N too) is a UTF-16 code unit, after which \ucN
/// (default 1) fallback characters are skipped. Never fails: unbalanced braces are tolerated,
/// groups nested deeper than a bound are dropped, a truncated escape ends the text, bytes a code
/// page cannot decode become U+FFFD and control characters spaces. Trailing white space (the
/// document's last paragraph mark) is removed.
[[nodiscard]] std::string rtf_text(std::string_view rtf);

}  // namespace ptmpl::detail::mpp
