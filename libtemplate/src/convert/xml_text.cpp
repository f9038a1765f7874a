#include "convert/xml_text.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <utility>

#include "convert/findings.hpp"
#include "libtemplate/core/diagnostic.hpp"
#include "libtemplate/core/json.hpp"

namespace ptmpl::detail {
namespace {

bool is_utf8(const char* text) {
  return !json::invalid_utf8_offset(std::string_view(text, std::strlen(text))).has_value();
}

// The end of the markup that starts at `at` and whose text is not character data (a comment,
// a CDATA section, a processing instruction), or `at` itself for any other markup.
std::size_t skip_literal_markup(std::string_view text, std::size_t at) {
  auto past = [&](std::string_view close) {
    const std::size_t end = text.find(close, at);
    return end == std::string_view::npos ? text.size() : end + close.size();
  };
  const std::string_view rest = text.substr(at);
  if (rest.starts_with("<!--")) return past("-->");
  if (rest.starts_with("<![CDATA[")) return past("]]>");
  if (rest.starts_with("<?")) return past("?>");
  return at;
}

// The first character reference in `text` to a code point that is no character (0, a
// surrogate, beyond U+10FFFF) — its offset and the reference as written — or npos. `&#` is a
// reference only outside comments, CDATA sections and processing instructions; as such a
// reference is rare, the markup before one is looked at only when one is found.
std::pair<std::size_t, std::string_view> reference_to_no_character(std::string_view text) {
  std::size_t markup_seen = 0;  // text before this is known to be outside such markup, or skipped
  for (std::size_t at = text.find("&#"); at != std::string_view::npos; at = text.find("&#", at + 2)) {
    const auto reference = character_reference(text, at);
    if (!reference) continue;
    const auto [code, length] = *reference;
    if (code != 0 && (code < 0xD800 || code > 0xDFFF) && code <= 0x10FFFF) continue;
    std::size_t literal_end = 0;
    for (std::size_t open = text.find('<', markup_seen); open < at; open = text.find('<', open + 1)) {
      literal_end = skip_literal_markup(text, open);
      if (literal_end > at) break;
      if (literal_end > open) open = literal_end - 1;  // the next '<' after it
      markup_seen = open + 1;
    }
    if (literal_end > at) {  // inside a comment, CDATA section or processing instruction
      markup_seen = literal_end;
      at = literal_end - 2;
      continue;
    }
    return {at, text.substr(at, length)};
  }
  return {std::string_view::npos, {}};
}

// Every value in the tree is UTF-8, without recursion (elements may nest as deep as a file
// makes them); the first node whose value or attribute is not, else nullptr.
pugi::xml_node first_not_utf8(const pugi::xml_document& xml) {
  for (pugi::xml_node node = xml.first_child(); node;) {
    bool valid = is_utf8(node.value());
    for (pugi::xml_attribute a = node.first_attribute(); a && valid; a = a.next_attribute()) valid = is_utf8(a.value());
    if (!valid) return node;
    if (node.first_child()) {
      node = node.first_child();
      continue;
    }
    while (node && !node.next_sibling()) node = node.parent();
    if (node) node = node.next_sibling();
  }
  return {};
}

}  // namespace

std::optional<std::pair<std::uint64_t, std::size_t>> character_reference(std::string_view text, std::size_t at) {
  std::size_t i = at + 2;
  const bool hex = i < text.size() && (text[i] == 'x' || text[i] == 'X');
  if (hex) ++i;
  std::uint64_t code = 0;
  const std::size_t digits_from = i;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    int value = -1;
    if (c >= '0' && c <= '9') value = c - '0';
    if (hex && c >= 'a' && c <= 'f') value = c - 'a' + 10;
    if (hex && c >= 'A' && c <= 'F') value = c - 'A' + 10;
    if (value < 0) break;
    code = std::min<std::uint64_t>(code * (hex ? 16U : 10U) + static_cast<std::uint64_t>(value), 0x110000);
  }
  if (i == digits_from || i >= text.size() || text[i] != ';') return std::nullopt;
  return std::pair{code, i + 1 - at};
}

Error xml_error(std::string_view text, std::size_t offset, const std::string& path, const std::string& what) {
  const json::Position p = json::LineIndex(text).position(offset);
  return Error::invalid(format_place(path, p.line, p.column) + ": " + what);
}

std::optional<Error> load_xml(pugi::xml_document& xml, std::string_view text, const std::string& path,
                              unsigned options) {
  const pugi::xml_parse_result parsed = xml.load_buffer(text.data(), text.size(), options, pugi::encoding_auto);
  // Text pugixml reads byte by byte (UTF-8, or a declared ISO-8859-1): its NUL bytes and
  // character references can be found where they are written. Other encodings are converted
  // by pugixml, and their text is checked in the tree below.
  const bool bytewise = parsed.encoding == pugi::encoding_utf8 || parsed.encoding == pugi::encoding_latin1;
  if (bytewise) {
    if (const auto* nul = static_cast<const char*>(std::memchr(text.data(), '\0', text.size())))
      return xml_error(text, static_cast<std::size_t>(nul - text.data()), path,
                       "not well-formed XML: a NUL byte, which XML text cannot hold");
  }
  if (!parsed)
    return xml_error(text, static_cast<std::size_t>(std::max<std::ptrdiff_t>(parsed.offset, 0)), path,
                     std::string("not well-formed XML: ") + parsed.description());
  if (parsed.encoding == pugi::encoding_utf8)
    if (auto error = not_utf8_error(text, path)) return error;
  if (bytewise) {
    if (const auto [at, reference] = reference_to_no_character(text); at != std::string_view::npos)
      return xml_error(text, at, path,
                       "not well-formed XML: " + std::string(reference) +
                           " refers to no character (0, a surrogate or beyond U+10FFFF)");
    return std::nullopt;
  }
  if (const pugi::xml_node node = first_not_utf8(xml))
    return xml_error(text, static_cast<std::size_t>(node.offset_debug()), path,
                     "not well-formed XML: a character reference to no character (0, a surrogate or beyond U+10FFFF)");
  return std::nullopt;
}

}  // namespace ptmpl::detail
