#include "convert/utf16.hpp"

#include <cstdint>

#include "libtemplate/core/diagnostic.hpp"

namespace ptmpl::detail {

std::optional<Utf16> utf16_order(std::string_view bytes) {
  if (bytes.starts_with("\xFF\xFE") && !bytes.starts_with(std::string_view("\xFF\xFE\0\0", 4)))
    return Utf16::LittleEndian;  // (FF FE 00 00 would be UTF-32)
  if (bytes.starts_with("\xFE\xFF")) return Utf16::BigEndian;
  if (bytes.starts_with(std::string_view("<\0?\0", 4))) return Utf16::LittleEndian;
  if (bytes.starts_with(std::string_view("\0<\0?", 4))) return Utf16::BigEndian;
  return std::nullopt;
}

Result<std::string> utf16_to_utf8(std::string_view bytes, Utf16 order, const std::string& path) {
  if (bytes.starts_with("\xFF\xFE") || bytes.starts_with("\xFE\xFF")) bytes.remove_prefix(2);
  std::string out;
  out.reserve(bytes.size() / 2 + bytes.size() / 8);
  std::size_t line = 1;
  std::size_t column = 1;
  auto unit = [&](std::size_t at) {
    const auto first = static_cast<unsigned char>(bytes[at]);
    const auto second = static_cast<unsigned char>(bytes[at + 1]);
    return static_cast<std::uint32_t>(order == Utf16::LittleEndian ? first | second << 8 : first << 8 | second);
  };
  auto refuse = [&](const std::string& what) {
    return Error::invalid(format_place(path, line, column) + ": not UTF-16 text: " + what);
  };
  std::size_t at = 0;
  for (; at + 1 < bytes.size(); at += 2) {
    std::uint32_t code = unit(at);
    if (code >= 0xDC00 && code <= 0xDFFF) return refuse("a low surrogate without a high one");
    if (code >= 0xD800 && code <= 0xDBFF) {
      const std::uint32_t low = at + 3 < bytes.size() ? unit(at + 2) : 0;
      if (low < 0xDC00 || low > 0xDFFF) return refuse("a high surrogate without a low one");
      code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
      at += 2;
    }
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | code >> 6);
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | code >> 12);
      out += static_cast<char>(0x80 | (code >> 6 & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | code >> 18);
      out += static_cast<char>(0x80 | (code >> 12 & 0x3F));
      out += static_cast<char>(0x80 | (code >> 6 & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
    if (code == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  if (at < bytes.size()) return refuse("an odd number of bytes (the last character is cut)");
  return out;
}

}  // namespace ptmpl::detail
