// Reading the values of binary files (little_endian.hpp).
#include "convert/cfb/little_endian.hpp"

namespace ptmpl::cfb {

void append_utf8(std::string& out, std::uint32_t code_point) {
  const std::uint32_t c = code_point;
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

std::uint32_t xml_char(std::uint32_t c) {
  if (c < 0x20 && c != '\t' && c != '\n') return ' ';
  if ((c >= 0xD800 && c < 0xE000) || c == 0xFFFE || c == 0xFFFF || c > 0x10FFFF) return 0xFFFD;
  return c;
}

std::string utf16le_text(std::string_view b, Utf16Chars chars) {
  std::string out;
  auto put = [&](std::uint32_t c) { append_utf8(out, chars == Utf16Chars::ForXml ? xml_char(c) : c); };
  for (std::size_t at = 0; at + 1 < b.size(); at += 2) {
    std::uint32_t unit = u16(b, at);
    if (unit == 0) break;
    if (unit >= 0xD800 && unit < 0xDC00 && at + 3 < b.size()) {
      const std::uint32_t low = u16(b, at + 2);
      if (low >= 0xDC00 && low < 0xE000) {
        put(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00));
        at += 2;
        continue;
      }
    }
    if (unit >= 0xD800 && unit < 0xE000) unit = 0xFFFD;
    put(unit);
  }
  return out;
}

}  // namespace ptmpl::cfb
