#include "libtemplate/core/printable.hpp"

#include <cstdio>

namespace ptmpl {

namespace {

void append_escaped(std::string& out, const char* format, unsigned value) {
  char escaped[8];
  std::snprintf(escaped, sizeof escaped, format, value);
  out += escaped;
}

// The length of the valid UTF-8 sequence at the start of `text` (1 to 4), or 0 when its first
// byte starts none: a stray continuation byte, an overlong form, a surrogate, beyond U+10FFFF,
// or a sequence cut short.
std::size_t utf8_length(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned lead = byte(0);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned low = 0x80;
  unsigned high = 0xBF;  // the range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (text.size() < length || byte(1) < low || byte(1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i)
    if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
  return length;
}

void append_printable(std::string& out, std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const std::size_t length = utf8_length(text.substr(i));
    if (length == 0) {
      append_escaped(out, "\\x%02X", byte);  // not part of valid UTF-8
    } else if (byte < 0x20 || byte == 0x7F) {
      append_escaped(out, "\\u%04X", byte);  // C0 and DEL
    } else if (byte == 0xC2 && static_cast<unsigned char>(text[i + 1]) <= 0x9F) {
      append_escaped(out, "\\u%04X", static_cast<unsigned char>(text[i + 1]));  // C1: C2 80 to C2 9F
    } else {
      out.append(text.substr(i, length));
    }
    i += length == 0 ? 1 : length;
  }
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  append_printable(out, text);
  return out;
}

std::string printable_lines(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    std::size_t end = text.find('\n');
    if (end == std::string_view::npos) {
      append_printable(out, text);
      break;
    }
    const bool crlf = end > 0 && text[end - 1] == '\r';
    append_printable(out, text.substr(0, crlf ? end - 1 : end));
    out += crlf ? "\r\n" : "\n";
    text.remove_prefix(end + 1);
  }
  return out;
}

}  // namespace ptmpl
