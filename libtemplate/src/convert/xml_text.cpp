#include "convert/xml_text.hpp"

#include <cstdint>
#include <cstring>

#include "convert/findings.hpp"
#include "libtemplate/core/diagnostic.hpp"
#include "libtemplate/core/json.hpp"

namespace ptmpl::detail {
namespace {

bool is_utf8(const char* text) {
  return !json::invalid_utf8_offset(std::string_view(text, std::strlen(text))).has_value();
}

// Offset of the first character reference at or after `from` that names a surrogate
// (`&#xD800;` to `&#xDFFF;`, or `&#55296;` to `&#57343;`), or npos.
std::size_t surrogate_reference(std::string_view text, std::size_t from) {
  for (std::size_t at = text.find("&#", from); at != std::string_view::npos; at = text.find("&#", at + 2)) {
    std::size_t i = at + 2;
    const bool hex = i < text.size() && (text[i] == 'x' || text[i] == 'X');
    if (hex) ++i;
    std::uint32_t code = 0;
    std::size_t digits = 0;
    for (; i < text.size() && digits < 8; ++i, ++digits) {
      const char c = text[i];
      int value = -1;
      if (c >= '0' && c <= '9') value = c - '0';
      if (hex && c >= 'a' && c <= 'f') value = c - 'a' + 10;
      if (hex && c >= 'A' && c <= 'F') value = c - 'A' + 10;
      if (value < 0) break;
      code = code * (hex ? 16U : 10U) + static_cast<std::uint32_t>(value);
    }
    if (digits > 0 && i < text.size() && text[i] == ';' && code >= 0xD800 && code <= 0xDFFF) return at;
  }
  return std::string_view::npos;
}

}  // namespace

std::optional<Error> check_xml_text(const pugi::xml_document& xml, const pugi::xml_parse_result& parsed,
                                    std::string_view text, const std::string& path) {
  // Other encodings (a declared ISO-8859-1, UTF-16) are converted to UTF-8 by pugixml, and
  // their text is checked in the tree below.
  if (parsed.encoding == pugi::encoding_utf8) {
    if (auto error = not_utf8_error(text, path)) return error;
    // Valid UTF-8 stays valid in the tree unless a character reference decodes to a
    // surrogate: without one in the text there is nothing more to check (the usual case, and
    // a walk over every value of a large plan is not free).
    if (surrogate_reference(text, 0) == std::string_view::npos) return std::nullopt;
  }
  // Every value in the tree, without recursion (elements may nest as deep as a file makes them).
  for (pugi::xml_node node = xml.first_child(); node;) {
    bool valid = is_utf8(node.value());
    for (pugi::xml_attribute a = node.first_attribute(); a && valid; a = a.next_attribute()) valid = is_utf8(a.value());
    if (!valid) {
      // The reference itself when it is in the node's text (it is, unless the file was in
      // another encoding), else the node.
      const auto node_offset = static_cast<std::size_t>(node.offset_debug());
      const std::size_t reference =
          parsed.encoding == pugi::encoding_utf8 ? surrogate_reference(text, node_offset) : std::string_view::npos;
      const json::Position p =
          json::LineIndex(text).position(reference != std::string_view::npos ? reference : node_offset);
      return Error::invalid(
          format_place(path, p.line, p.column) +
          ": not UTF-8 text: a character reference to a surrogate (&#xD800; to &#xDFFF;) is no XML character");
    }
    if (node.first_child()) {
      node = node.first_child();
      continue;
    }
    while (node && !node.next_sibling()) node = node.parent();
    if (node) node = node.next_sibling();
  }
  return std::nullopt;
}

}  // namespace ptmpl::detail
