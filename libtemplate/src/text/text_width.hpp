// Text in fixed-width previews (the terminal Gantt chart, the table): its width in columns,
// truncation, padding, and titles made safe to print on one line.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ptmpl {

/// The code point of UTF-8 `text` at byte `at`, which moves past it; U+FFFD (one byte long)
/// for a byte that does not start a code point.
[[nodiscard]] char32_t next_code_point(std::string_view text, std::size_t& at);

/// Columns `text` (valid UTF-8) takes on a terminal: 2 for a wide (East Asian, emoji) character,
/// 0 for a combining mark or a zero-width character, 1 for any other code point.
[[nodiscard]] std::size_t display_width(std::string_view text);

/// `text` cut to at most `width` columns, ending in "…" when cut.
[[nodiscard]] std::string truncate_to_width(std::string_view text, std::size_t width);

/// `text` followed by spaces up to `width` columns (unchanged when already as wide).
[[nodiscard]] std::string pad_right(std::string_view text, std::size_t width);
/// Spaces up to `width` columns, then `text`.
[[nodiscard]] std::string pad_left(std::string_view text, std::size_t width);

/// `text` on one line: every control character (line breaks, tabs, C0 and C1 controls that
/// would drive a terminal) becomes a space.
[[nodiscard]] std::string one_line(std::string_view text);

}  // namespace ptmpl
