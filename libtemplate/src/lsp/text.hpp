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
/// multi-byte character rounds down to the character's first byte. Built in one pass over the
/// text; each conversion then costs a binary search and a walk of at most kMarkStride bytes,
/// however long the line (a template written on one line).
class TextPositions {
 public:
  explicit TextPositions(std::string_view text);

  [[nodiscard]] Position position(std::uint64_t offset) const;
  [[nodiscard]] std::uint64_t offset(Position position) const;
  [[nodiscard]] Range range(std::uint64_t begin, std::uint64_t end) const { return {position(begin), position(end)}; }
  /// The position of a 1-based line and 1-based column in code points (a Diagnostic's place;
  /// line 0 means the start of the text).
  [[nodiscard]] Position from_line_column(std::uint64_t line, std::uint64_t column) const;
  [[nodiscard]] std::uint32_t line_count() const { return static_cast<std::uint32_t>(lines_.line_count()); }

 private:
  // Where the walk of a line, character by character from its start, stands: at a
  // character's first byte, after `units` UTF-16 units and `characters` code points.
  struct Mark {
    std::uint64_t offset = 0;
    std::uint64_t units = 0;
    std::uint64_t characters = 0;
  };
  static constexpr std::uint64_t kMarkStride = 256;

  [[nodiscard]] std::uint64_t line_start(std::uint32_t line) const { return lines_.line_start(line + 1); }
  [[nodiscard]] std::uint64_t line_end(std::uint32_t line) const;  // before "\r\n" or "\n"
  // Of the line's start and the marks in [start, end) (one line's), the last whose `field` is
  // at most `most`: where a walk to it may begin.
  [[nodiscard]] Mark nearest(std::uint64_t start, std::uint64_t end, std::uint64_t Mark::*field,
                             std::uint64_t most) const;

  std::string_view text_;
  json::LineIndex lines_;    // lines from 1, LSP's from 0
  std::vector<Mark> marks_;  // inside lines longer than kMarkStride, by offset
};

/// The path of a file: URI ("file:///a%20b/c.json" → "/a b/c.json"); empty for other schemes.
[[nodiscard]] std::string path_from_uri(std::string_view uri);
/// The file: URI of an absolute path, percent-encoding what RFC 3986 does not allow in a path.
[[nodiscard]] std::string uri_from_path(std::string_view path);

}  // namespace ptmpl::lsp
