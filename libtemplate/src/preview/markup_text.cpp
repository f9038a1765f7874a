#include "preview/markup_text.hpp"

#include <charconv>
#include <cmath>

#include "preview/text_width.hpp"

namespace ptmpl::preview {

std::string markup_escape(std::string_view text) {
  std::string line = one_line(text);
  std::string out;
  out.reserve(line.size());
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        // U+FFFE and U+FFFF: EF BF BE and EF BF BF.
        if (static_cast<unsigned char>(c) == 0xEFU && i + 2 < line.size() &&
            static_cast<unsigned char>(line[i + 1]) == 0xBFU &&
            (static_cast<unsigned char>(line[i + 2]) & 0xFEU) == 0xBEU) {
          out += ' ';
          i += 2;
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string svg_number(double value) {
  double rounded = std::round(value * 100.0) / 100.0;
  if (rounded == 0.0) rounded = 0.0;  // no "-0"
  char buffer[64];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, rounded, std::chars_format::fixed, 2);
  if (error != std::errc()) return "0";
  std::string out(buffer, end);
  while (out.back() == '0') out.pop_back();
  if (out.back() == '.') out.pop_back();
  return out;
}

}  // namespace ptmpl::preview
