#include "output/xml_escape.hpp"

namespace ptmpl::detail {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// What replaces the byte at `text[i]`, or an empty view when it stays; `skip` is how many of
// the bytes after it the replacement also covers.
std::string_view replacement(std::string_view text, std::size_t i, XmlContext context, std::size_t& skip) {
  const auto c = static_cast<unsigned char>(text[i]);
  const bool attribute = context == XmlContext::Attribute;
  switch (c) {
    case '&':
      return "&amp;";
    case '<':
      return "&lt;";
    case '>':
      return "&gt;";
    case '"':
      return attribute ? "&quot;" : std::string_view();
    case '\'':
      return attribute ? "&#39;" : std::string_view();
    case '\t':
      return attribute ? "&#9;" : std::string_view();
    case '\n':
      return attribute ? "&#10;" : std::string_view();
    case '\r':
      return attribute ? "&#13;" : std::string_view();
    case 0xEF:
      // U+FFFE and U+FFFF: EF BF BE and EF BF BF.
      if (i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0xBF &&
          (static_cast<unsigned char>(text[i + 2]) & 0xFE) == 0xBE) {
        skip = 2;
        return kReplacement;
      }
      return {};
    default:
      return c < 0x20 ? kReplacement : std::string_view();
  }
}

}  // namespace

void append_xml_escaped(std::string& out, std::string_view text, XmlContext context) {
  std::size_t run = 0;  // the start of the bytes not yet appended
  for (std::size_t i = 0; i < text.size(); ++i) {
    std::size_t skip = 0;
    const std::string_view with = replacement(text, i, context, skip);
    if (with.empty()) continue;
    out.append(text.data() + run, i - run);
    out += with;
    i += skip;
    run = i + 1;
  }
  out.append(text.data() + run, text.size() - run);
}

}  // namespace ptmpl::detail
