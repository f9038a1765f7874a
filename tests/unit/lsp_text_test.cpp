// Positions in an open document: LSP's 0-based lines and UTF-16 characters against byte offsets.
#include "lsp/text.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <vector>

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

TEST(LspText, PositionsInAOneLineMegabyteAreFoundFromAMarkNotFromTheLineStart) {
  // A template written on one line: 1 MiB of ASCII, "é" (2 bytes, 1 unit) and "😀" (4 bytes, 2
  // units) with a few "\r\n" line ends. Every 50th offset is converted both ways and checked
  // against one walk of the text. Scanning from the line's start per position (quadratic) takes
  // tens of seconds here; from the nearest mark, milliseconds: the bound is generous.
  std::string text;
  const std::string pieces[] = {"{\"title\":\"", "\xC3\xA9", "x", "\xF0\x9F\x98\x80", "\",\"d\":12}"};
  for (std::size_t i = 0; text.size() < (std::size_t{1} << 20); ++i) {
    text += pieces[i % 5];
    if (i % 300'000 == 299'999) text += "\r\n";
  }
  struct Expected {
    std::uint64_t offset;
    Position position;
    std::uint64_t column;  // 1-based, in code points
  };
  std::vector<Expected> expected;
  Position at;
  std::uint64_t column = 1;
  for (std::size_t i = 0; i < text.size();) {
    auto lead = static_cast<unsigned char>(text[i]);
    std::size_t n = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    if (i % 50 < n) expected.push_back({i, at, column});
    if (text[i] == '\n') {
      at = {at.line + 1, 0};
      column = 1;
    } else {
      at.character += n == 4 ? 2 : 1;
      ++column;
    }
    i += n;
  }
  ASSERT_GT(expected.size(), 20'000u);

  auto started = std::chrono::steady_clock::now();
  TextPositions positions(text);
  for (const Expected& e : expected) {
    ASSERT_EQ(positions.position(e.offset), e.position) << "offset " << e.offset;
    if (text[e.offset] == '\r' || text[e.offset] == '\n') continue;  // line ends clamp before "\r\n"
    ASSERT_EQ(positions.offset(e.position), e.offset) << "offset " << e.offset;
    ASSERT_EQ(positions.from_line_column(e.position.line + 1, e.column), e.position) << "offset " << e.offset;
  }
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(2));
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
