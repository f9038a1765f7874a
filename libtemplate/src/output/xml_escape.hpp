// The one XML escaper: MSPDI export, the JUnit report, and the SVG and HTML previews all write
// text through it, so they agree on what XML can hold.
#pragma once

#include <string>
#include <string_view>

namespace ptmpl::detail {

enum class XmlContext {
  /// Element content: `&`, `<` and `>` as entities; quotes as they are.
  Text,
  /// An attribute value between double or single quotes (also safe as element content, and
  /// in HTML): `&`, `<`, `>`, `"` and `'` as references, and tab, LF and CR as character
  /// references so that attribute-value normalisation keeps them.
  Attribute,
};

/// Appends `text` (UTF-8) to `out`, escaped for `context`. Characters XML 1.0 cannot hold at
/// all, not even as a character reference — NUL and the other C0 controls apart from tab, LF
/// and CR, and the non-characters U+FFFE and U+FFFF — become U+FFFD, so the output always
/// parses with a conforming XML reader.
void append_xml_escaped(std::string& out, std::string_view text, XmlContext context);

[[nodiscard]] inline std::string xml_escaped(std::string_view text, XmlContext context) {
  std::string out;
  out.reserve(text.size());
  append_xml_escaped(out, text, context);
  return out;
}

}  // namespace ptmpl::detail
