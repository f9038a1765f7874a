// Text inside XML and HTML (the SVG chart and the HTML page).
#pragma once

#include <string>
#include <string_view>

namespace ptmpl::preview {

/// `text` (valid UTF-8) on one line (`one_line`: control characters as spaces), escaped for
/// XML or HTML character data and attribute values by the one XML escaper: &, <, >, " and ' as
/// references, the non-characters U+FFFE and U+FFFF as U+FFFD.
[[nodiscard]] std::string markup_escape(std::string_view text);

/// A coordinate or length in SVG user units: at most two decimals, no trailing zeros, no
/// exponent, the same on every locale ("12", "3.5", "0.25").
[[nodiscard]] std::string svg_number(double value);

}  // namespace ptmpl::preview
