// The language server (docs/semantics.md §12), by concern: where things are in an open document. LSP counts
// lines from 0 and characters in UTF-16 code units; ptmpl counts bytes (offsets), and lines and
// columns from 1 with columns in code points (Diagnostic). Everything in lsp/ converts here.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/core/json.hpp"

namespace ptmpl::lsp {

/// An LSP position: 0-based line, 0-based character in UTF-16 code units.
struct Position {
  std::uint32_t line = 0;
  std::uint32_t character = 0;
  friend bool operator==(const Position&, const Position&) = default;
};

/// An LSP range, end exclusive.
struct Range {
  Position start;
  Position end;
  friend bool operator==(const Range&, const Range&) = default;
};

/// A document the client has open: its URI, the local path it names (empty when the URI is not
/// a file: URI), the text as last synchronised, and the client's version of it.
struct OpenDocument {
  std::string uri;
  std::string path;
  std::string text;
  std::int64_t version = 0;
};

/// Converts between byte offsets and LSP positions in one text. Lines end at "\n" (a "\r"
/// before it belongs to the line's end, as in LSP). Positions past the end of a line clamp to
/// it; past the last line, to the end of the text; a position inside a surrogate pair or a
/// multi-byte character rounds down to the character's first byte.
class TextPositions {
 public:
  explicit TextPositions(std::string_view text) : text_(text), lines_(text) {}

  [[nodiscard]] Position position(std::uint64_t offset) const;
  [[nodiscard]] std::uint64_t offset(Position position) const;
  [[nodiscard]] Range range(std::uint64_t begin, std::uint64_t end) const { return {position(begin), position(end)}; }
  /// The position of a 1-based line and 1-based column in code points (a Diagnostic's place;
  /// line 0 means the start of the text).
  [[nodiscard]] Position from_line_column(std::uint64_t line, std::uint64_t column) const;
  [[nodiscard]] std::uint32_t line_count() const { return static_cast<std::uint32_t>(lines_.line_count()); }

 private:
  [[nodiscard]] std::uint64_t line_start(std::uint32_t line) const { return lines_.line_start(line + 1); }
  [[nodiscard]] std::uint64_t line_end(std::uint32_t line) const;  // before "\r\n" or "\n"

  std::string_view text_;
  json::LineIndex lines_;  // lines from 1, LSP's from 0
};

/// The path of a file: URI ("file:///a%20b/c.json" → "/a b/c.json"); empty for other schemes.
[[nodiscard]] std::string path_from_uri(std::string_view uri);
/// The file: URI of an absolute path, percent-encoding what RFC 3986 does not allow in a path.
[[nodiscard]] std::string uri_from_path(std::string_view path);

}  // namespace ptmpl::lsp
