#include "preview/text_width.hpp"

namespace ptmpl::preview {

namespace {

bool continuation_byte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0U) == 0x80U;
}

}  // namespace

std::size_t display_width(std::string_view text) {
  std::size_t width = 0;
  for (char c : text)
    if (!continuation_byte(c)) ++width;
  return width;
}

std::string truncate_to_width(std::string_view text, std::size_t width) {
  if (display_width(text) <= width) return std::string(text);
  if (width == 0) return "";
  // Keep width - 1 code points, then the ellipsis.
  std::size_t kept = 0;
  std::size_t end = 0;
  for (; end < text.size(); ++end) {
    if (continuation_byte(text[end])) continue;
    if (kept == width - 1) break;
    ++kept;
  }
  return std::string(text.substr(0, end)) + "…";
}

std::string pad_right(std::string_view text, std::size_t width) {
  std::string out(text);
  std::size_t used = display_width(text);
  if (used < width) out.append(width - used, ' ');
  return out;
}

std::string pad_left(std::string_view text, std::size_t width) {
  std::size_t used = display_width(text);
  std::string out(used < width ? width - used : 0, ' ');
  out += text;
  return out;
}

std::string one_line(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x20U || byte == 0x7FU) {
      out += ' ';
    } else if (byte == 0xC2U && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) < 0xA0U) {
      out += ' ';  // a C1 control (U+0080–U+009F): U+009B starts a terminal escape sequence
      ++i;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace ptmpl::preview
