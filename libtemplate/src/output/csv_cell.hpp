// The one way ptmpl writes a CSV cell (`convert --to csv`, `schedule --format csv`) and undoes
// its guard when reading ptmpl's own CSV back. Private to the core and the parts that link it.
//
// RFC 4180: a cell holding a comma, a quote or a line break is quoted, its quotes doubled; so
// is one with a space at either end or a tab at the start, which spreadsheets would trim.
// docs/semantics.md §11 "Spreadsheets" (OWASP's rule against formula injection): a text cell that begins
// with `=`, `+`, `-`, `@`, tab or carriage return is prefixed with `'`, so a spreadsheet shows
// it as text instead of evaluating it. A number cell (`-3`) is written as it is.
#pragma once

#include <string>
#include <string_view>

namespace ptmpl::detail {

enum class CsvCell : unsigned char { Text, Number };

/// Whether a text cell gets the `'` guard: after any leading `'`s it begins with a character a
/// spreadsheet starts a formula with. Counting the `'`s already there keeps the guard
/// reversible: `'=x` is written `''=x`, and reading removes exactly one.
[[nodiscard]] inline bool csv_needs_guard(std::string_view text) {
  const std::size_t first = text.find_first_not_of('\'');
  if (first == std::string_view::npos) return false;
  const char c = text[first];
  return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r';
}

/// Appends `text` as one cell: guarded if it is text that needs it, then quoted if needed.
inline void append_csv_cell(std::string& out, std::string_view text, CsvCell kind) {
  const bool guard = kind == CsvCell::Text && csv_needs_guard(text);
  const bool quote = text.find_first_of(",\"\r\n") != std::string_view::npos ||
                     (!text.empty() && (text.front() == ' ' || text.back() == ' ' || text.front() == '\t'));
  if (quote) out += '"';
  if (guard) out += '\'';
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  if (quote) out += '"';
}

/// A cell as read, without the guard append_csv_cell() put before it (unchanged otherwise).
[[nodiscard]] inline std::string_view csv_unguarded(std::string_view cell) {
  if (!cell.empty() && cell.front() == '\'' && csv_needs_guard(cell.substr(1))) cell.remove_prefix(1);
  return cell;
}

}  // namespace ptmpl::detail
