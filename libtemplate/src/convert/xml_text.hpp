// Loading an XML plan (MSPDI, GanttProject) with pugixml, and refusing what pugixml lets
// through into the tree that a template cannot hold. Private to the XML readers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <pugixml.hpp>

#include "libtemplate/core/result.hpp"

namespace ptmpl::detail {

/// Parses `text` (named `path`) into `xml` with pugixml's `options`, and refuses, as
/// `path:line:col: …`, what is not well-formed XML, naming what pugixml would misname:
/// - a NUL byte (pugixml reads it as the end of the text and reports a mismatched tag);
/// - a character reference to no character: `&#0;` (pugixml's value would end there), a
///   surrogate (`&#xDE80;`) or a number beyond Unicode (`&#x110000;`, `&#99999999999;`), which
///   pugixml decodes into bytes UTF-8 forbids (XML 1.0 §4.1, "Legal Character");
/// - bytes that are not UTF-8 in a document pugixml read as UTF-8 (it passes them through).
[[nodiscard]] std::optional<Error> load_xml(pugi::xml_document& xml, std::string_view text, const std::string& path,
                                            unsigned options);

/// The code point the character reference at `at` of `text` (`&#…;` or `&#x…;`) names,
/// saturated just past the largest one (0x110000), and the reference's length; nullopt when no
/// reference starts there.
[[nodiscard]] std::optional<std::pair<std::uint64_t, std::size_t>> character_reference(std::string_view text,
                                                                                       std::size_t at);

/// `path:line:col: what` (kInvalid) for the byte at `offset` of the XML `text`.
[[nodiscard]] Error xml_error(std::string_view text, std::size_t offset, const std::string& path,
                              const std::string& what);

/// An element's name without its namespace prefix (`x:row` is `row`): readers of formats whose
/// writers may or may not prefix their elements (SpreadsheetML, P6's PMXML) match local names.
[[nodiscard]] inline std::string_view local_name(pugi::xml_node node) {
  const std::string_view name = node.name();
  const std::size_t colon = name.rfind(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

/// Calls `visit` for each child element of `parent` whose local name is `name`, in order.
template <typename Visit>
void for_each_child(pugi::xml_node parent, std::string_view name, Visit visit) {
  for (pugi::xml_node child = parent.first_child(); child; child = child.next_sibling())
    if (child.type() == pugi::node_element && local_name(child) == name) visit(child);
}

}  // namespace ptmpl::detail
