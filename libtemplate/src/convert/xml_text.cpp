#include "convert/xml_text.hpp"

#include <cstring>

#include "convert/findings.hpp"
#include "libtemplate/json.hpp"

namespace ptmpl::detail {
namespace {

bool is_utf8(const char* text) {
  return !json::invalid_utf8_offset(std::string_view(text, std::strlen(text))).has_value();
}

}  // namespace

std::optional<Error> check_xml_text(const pugi::xml_document& xml, const pugi::xml_parse_result& parsed,
                                    std::string_view text, const std::string& path) {
  // Other encodings (a declared ISO-8859-1, UTF-16) are converted to UTF-8 by pugixml.
  if (parsed.encoding == pugi::encoding_utf8)
    if (auto error = not_utf8_error(text, path)) return error;
  // Every value in the tree, without recursion (elements may nest as deep as a file makes them).
  for (pugi::xml_node node = xml.first_child(); node;) {
    bool valid = is_utf8(node.value());
    for (pugi::xml_attribute a = node.first_attribute(); a && valid; a = a.next_attribute()) valid = is_utf8(a.value());
    if (!valid) {
      const json::Position p = json::LineIndex(text).position(static_cast<std::uint64_t>(node.offset_debug()));
      return Error{path + ":" + std::to_string(p.line) + ":" + std::to_string(p.column) +
                   ": not UTF-8 text: a character reference to a surrogate (&#xD800; to &#xDFFF;) is no XML character"};
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
