// Positions in an open document: LSP's 0-based lines and UTF-16 characters against byte offsets.
#include "lsp/text.hpp"

#include <gtest/gtest.h>

namespace ptmpl::lsp {
namespace {

TEST(LspText, OffsetsAndPositionsRoundTripOverMultiByteCharacters) {
  // "é" is 2 bytes and 1 UTF-16 unit; "😀" is 4 bytes and 2 units (a surrogate pair).
  std::string text = "ab\n\xC3\xA9x\xF0\x9F\x98\x80y\n";
  TextPositions positions(text);
  EXPECT_EQ(positions.position(0), (Position{0, 0}));
  EXPECT_EQ(positions.position(3), (Position{1, 0}));
  EXPECT_EQ(positions.position(5), (Position{1, 1}));   // after é
  EXPECT_EQ(positions.position(6), (Position{1, 2}));   // after x
  EXPECT_EQ(positions.position(10), (Position{1, 4}));  // after the emoji: two units
  EXPECT_EQ(positions.offset({1, 4}), 10u);
  EXPECT_EQ(positions.offset({1, 3}), 6u);             // inside the surrogate pair: its first byte
  EXPECT_EQ(positions.position(8), (Position{1, 2}));  // inside the emoji's bytes: rounds down
  EXPECT_EQ(positions.offset({1, 99}), 11u);           // past the line's end: its end
  EXPECT_EQ(positions.offset({9, 0}), text.size());    // past the last line: the text's end
  EXPECT_EQ(positions.line_count(), 3u);
}

TEST(LspText, CarriageReturnsBelongToTheLineEnd) {
  std::string text = "{\r\n  \"a\": 1\r\n}";
  TextPositions positions(text);
  EXPECT_EQ(positions.offset({0, 5}), 1u);  // clamps before "\r\n"
  EXPECT_EQ(positions.position(3), (Position{1, 0}));
  EXPECT_EQ(positions.offset({2, 1}), text.size());
}

TEST(LspText, DiagnosticPlacesCountCodePoints) {
  std::string text = "x\n\xF0\x9F\x98\x80\"k\"\n";
  TextPositions positions(text);
  // Column 2 in code points is after the emoji: character 2 in UTF-16.
  EXPECT_EQ(positions.from_line_column(2, 2), (Position{1, 2}));
  EXPECT_EQ(positions.from_line_column(2, 1), (Position{1, 0}));
  EXPECT_EQ(positions.from_line_column(0, 0), (Position{0, 0}));
  EXPECT_EQ(positions.from_line_column(7, 1), positions.position(text.size()));
}

TEST(LspText, FileUrisAreDecodedAndEncoded) {
  EXPECT_EQ(path_from_uri("file:///tmp/a%20b/c.json"), "/tmp/a b/c.json");
  EXPECT_EQ(path_from_uri("file://localhost/x.json"), "/x.json");
  EXPECT_EQ(path_from_uri("file://otherhost/x.json"), "");
  EXPECT_EQ(path_from_uri("untitled:Untitled-1"), "");
  EXPECT_EQ(path_from_uri("file:///bad%2"), "/bad%2");
  EXPECT_EQ(uri_from_path("/tmp/a b/%c.json"), "file:///tmp/a%20b/%25c.json");
  EXPECT_EQ(path_from_uri(uri_from_path("/t/é #?.json")), "/t/é #?.json");
}

}  // namespace
}  // namespace ptmpl::lsp
