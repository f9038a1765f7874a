// What pugixml lets through into the tree that a template cannot hold. Private to the XML
// readers (MSPDI, GanttProject).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <pugixml.hpp>

#include "libtemplate/core/result.hpp"

namespace ptmpl::detail {

/// Refuses a parsed XML `text` (named `path`) whose text would not be UTF-8 in the template:
/// bytes that are not UTF-8 in a document pugixml read as UTF-8 (it passes them through), and
/// character references to code points that are not XML characters (`&#xDE80;`, a surrogate,
/// which pugixml decodes into bytes UTF-8 forbids). The error is `path:line:col: …`.
[[nodiscard]] std::optional<Error> check_xml_text(const pugi::xml_document& xml, const pugi::xml_parse_result& parsed,
                                                  std::string_view text, const std::string& path);

}  // namespace ptmpl::detail
