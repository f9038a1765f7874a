#include "text/text_width.hpp"

#include <algorithm>
#include <iterator>

namespace ptmpl {

namespace {

bool continuation_byte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0U) == 0x80U;
}

/// Columns a terminal gives `cp`: 0 for combining marks and zero-width characters, 2 for wide
/// (East Asian wide and full-width, emoji) characters, 1 otherwise. The main blocks of
/// Unicode's East Asian Width "W"/"F" and of the combining marks; rarer ones count as 1.
std::size_t code_point_width(char32_t cp) {
  struct Range {
    char32_t first, last;
  };
  static constexpr Range kZero[] = {{0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x0610, 0x061A},
                                    {0x064B, 0x065F}, {0x0E31, 0x0E31}, {0x0E34, 0x0E3A}, {0x0E47, 0x0E4E},
                                    {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF}, {0x200B, 0x200F}, {0x20D0, 0x20FF},
                                    {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF}};
  static constexpr Range kWide[] = {{0x1100, 0x115F},   {0x2E80, 0x303E},   {0x3041, 0x33FF},   {0x3400, 0x4DBF},
                                    {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},
                                    {0xFE30, 0xFE4F},   {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x1F300, 0x1F64F},
                                    {0x1F680, 0x1F6FF}, {0x1F900, 0x1F9FF}, {0x1FA70, 0x1FAFF}, {0x20000, 0x2FFFD},
                                    {0x30000, 0x3FFFD}};
  auto in = [cp](const auto& ranges) {
    return std::any_of(std::begin(ranges), std::end(ranges),
                       [cp](const Range& r) { return cp >= r.first && cp <= r.last; });
  };
  if (in(kZero)) return 0;
  return in(kWide) ? 2 : 1;
}

}  // namespace

char32_t next_code_point(std::string_view text, std::size_t& at) {
  const auto byte = static_cast<unsigned char>(text[at++]);
  const int extra = byte < 0x80U    ? 0
                    : byte >= 0xF8U ? -1
                    : byte >= 0xF0U ? 3
                    : byte >= 0xE0U ? 2
                    : byte >= 0xC0U ? 1
                                    : -1;
  if (extra < 0) return U'\uFFFD';
  char32_t cp = extra == 0 ? byte : byte & (0x3FU >> static_cast<unsigned>(extra));
  for (int i = 0; i < extra && at < text.size() && continuation_byte(text[at]); ++i)
    cp = (cp << 6U) | (static_cast<unsigned char>(text[at++]) & 0x3FU);
  return cp;
}

std::size_t display_width(std::string_view text) {
  std::size_t width = 0;
  for (std::size_t at = 0; at < text.size();) width += code_point_width(next_code_point(text, at));
  return width;
}

std::string truncate_to_width(std::string_view text, std::size_t width) {
  if (display_width(text) <= width) return std::string(text);
  if (width == 0) return "";
  // Keep what fits in width - 1 columns (with the marks that follow it), then the ellipsis.
  std::size_t used = 0;
  std::size_t end = 0;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t w = code_point_width(next_code_point(text, at));
    if (used + w > width - 1) break;
    used += w;
    end = at;
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

}  // namespace ptmpl
