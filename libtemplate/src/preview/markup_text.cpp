#include "preview/markup_text.hpp"

#include <charconv>
#include <cmath>

#include "output/xml_escape.hpp"
#include "text/text_width.hpp"

namespace ptmpl::preview {

std::string markup_escape(std::string_view text) {
  return detail::xml_escaped(one_line(text), detail::XmlContext::Attribute);
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
