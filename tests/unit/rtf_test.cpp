// RTF → plain text (src/convert/mpp/rtf.hpp): the notes MS Project keeps in .mpp files, as
// MSPDI's <Notes> holds them; and hostile documents, which end as text, never as a crash.
#include <gtest/gtest.h>

#include <string>

#include "convert/mpp/rtf.hpp"

namespace ptmpl {
namespace {

using detail::mpp::rtf_text;

// A note as Project 2010 writes it (from the corpus: mpxj__mpp14task.mpp).
constexpr const char* kProjectNote =
    "{\\rtf1\\ansi\\ansicpg1252\\deff0\\deflang1033{\\fonttbl{\\f0\\fswiss\\fprq2\\fcharset0 Arial;}}\r\n"
    "\\viewkind4\\uc1\\pard\\f0\\fs16 Notes Example\\par\r\n}\r\n";

TEST(MppRtf, ANoteAsMsProjectWritesItIsItsText) {
  EXPECT_EQ(rtf_text(kProjectNote), "Notes Example");
  // Project 2013 and later add a generator and math properties as ignorable destinations.
  EXPECT_EQ(
      rtf_text(
          "{\\rtf1\\ansi\\ansicpg1252\\deff0\\nouicompat\\deflang2057{\\fonttbl{\\f0\\fswiss\\fprq2"
          "\\fcharset0 Calibri;}}\r\n{\\*\\generator Riched20 14.0.4750.1000;}{\\*\\mmathPr\\mwrapIndent1440}"
          "\\viewkind4\\uc1\r\n\\pard\\f0\\fs20 Please complete the activity:\\par\r\n - Secure a quote\\par\r\n}"),
      "Please complete the activity:\n - Secure a quote");
}

TEST(MppRtf, ParagraphsLinesAndTabsAreLineBreaksAndTabs) {
  EXPECT_EQ(rtf_text("{\\rtf1 one\\par two\\line three\\tab four}"), "one\ntwo\nthree\tfour");
  // Line breaks in the RTF source are not text; a backslash before one is a paragraph mark.
  EXPECT_EQ(rtf_text("{\\rtf1 a\r\nb\\\nc}"), "ab\nc");
}

TEST(MppRtf, DestinationsThatAreNotTextAreSkipped) {
  EXPECT_EQ(rtf_text("{\\rtf1{\\fonttbl{\\f0 Arial;}}{\\colortbl;\\red255\\green0\\blue0;}{\\stylesheet{\\s0 Normal;}}"
                     "{\\info{\\title T}{\\author A}}text}"),
            "text");
  EXPECT_EQ(rtf_text("{\\rtf1 a{\\pict\\wmetafile8 0102ff}b}"), "ab");
  EXPECT_EQ(rtf_text("{\\rtf1 a{\\*\\unknowndestination x{y}z}b}"), "ab");
  // An embedded object: its data and class are skipped, the text around it kept.
  EXPECT_EQ(rtf_text("{\\rtf1 Task 2. Single link. {\\object\\objemb{\\*\\objclass Package}\\objw750{\\*\\objdata\r\n"
                     "01050000\r\n}{\\result{\\pict 00}}} after}"),
            "Task 2. Single link.  after");
  // A field: its instruction is skipped, its result is text.
  EXPECT_EQ(rtf_text("{\\rtf1 see {\\field{\\*\\fldinst HYPERLINK \"http://x\"}{\\fldrslt the site}}.}"),
            "see the site.");
}

TEST(MppRtf, EscapedCharactersAndSymbols) {
  EXPECT_EQ(rtf_text("{\\rtf1 \\{braces\\} and \\\\ backslash}"), "{braces} and \\ backslash");
  EXPECT_EQ(rtf_text("{\\rtf1 a\\~b\\-c\\_d}"), "a\u00A0bc\u2011d");
  EXPECT_EQ(rtf_text("{\\rtf1 \\lquote x\\rquote  \\ldblquote y\\rdblquote  \\endash \\emdash \\bullet }"),
            "\u2018x\u2019 \u201Cy\u201D \u2013\u2014\u2022");
}

TEST(MppRtf, HexBytesAreReadThroughTheDocumentsCodePage) {
  // 1252 (the default and what Project writes): é, €, the curly apostrophe.
  EXPECT_EQ(rtf_text("{\\rtf1\\ansi\\ansicpg1252 caf\\'e9 \\'80 l\\'92eau}"), "caf\u00E9 \u20AC l\u2019eau");
  EXPECT_EQ(rtf_text("{\\rtf1\\ansi caf\\'e9}"), "caf\u00E9");
  // Raw 8-bit bytes are in the code page too.
  EXPECT_EQ(rtf_text("{\\rtf1\\ansi\\ansicpg1252 caf\xE9}"), "caf\u00E9");
  // Other code pages through iconv: 1251 (Cyrillic), 1250 (Central European), 932 (two bytes).
  EXPECT_EQ(rtf_text("{\\rtf1\\ansi\\ansicpg1251 \\'cf\\'f0\\'e8\\'e2\\'e5\\'f2}"),
            "\u041F\u0440\u0438\u0432\u0435\u0442");
  EXPECT_EQ(rtf_text("{\\rtf1\\ansi\\ansicpg1250 \\'9a\\'e8}"), "\u0161\u010D");
  EXPECT_EQ(rtf_text("{\\rtf1\\ansi\\ansicpg932 \\'93\\'fa\\'96\\'7b}"), "\u65E5\u672C");
  // \mac is MacRoman.
  EXPECT_EQ(rtf_text("{\\rtf1\\mac \\'8e}"), "\u00E9");
  // A code page iconv does not know is read as 1252; undefined bytes become U+FFFD.
  EXPECT_EQ(rtf_text("{\\rtf1\\ansi\\ansicpg99999 \\'e9}"), "\u00E9");
  EXPECT_EQ(rtf_text("{\\rtf1\\ansi\\ansicpg1252 \\'81}"), "\uFFFD");
}

TEST(MppRtf, UnicodeCharactersSkipTheirFallback) {
  // \uc1 (the default): one fallback character, a literal or a \'hh.
  EXPECT_EQ(rtf_text("{\\rtf1 \\u26085?\\u26412\\'3f!}"), "\u65E5\u672C!");
  // Negative values are code units above 0x7FFF.
  EXPECT_EQ(rtf_text("{\\rtf1 \\u-4064?}"), "\uF020");
  // \uc2: two; \uc0: none.
  EXPECT_EQ(rtf_text("{\\rtf1\\uc2 \\u233??x\\uc0 \\u233 y}"), "\u00E9x\u00E9y");
  // \uc is scoped to its group.
  EXPECT_EQ(rtf_text("{\\rtf1 {\\uc0 \\u233}\\u233?z}"), "\u00E9\u00E9z");
  // A surrogate pair is one character; a lone surrogate is U+FFFD.
  EXPECT_EQ(rtf_text("{\\rtf1 \\u-10179?\\u-8704?}"), "\U0001F600");
  EXPECT_EQ(rtf_text("{\\rtf1 \\u-10179?x}"), "\uFFFDx");
  // A brace ends the fallback.
  EXPECT_EQ(rtf_text("{\\rtf1\\uc3 {\\u233?}after}"), "\u00E9after");
}

TEST(MppRtf, ControlCharactersBecomeSpacesAndTrailingWhiteSpaceGoes) {
  EXPECT_EQ(rtf_text("{\\rtf1 a\\'01b\\'00c}"), "a b c");
  EXPECT_EQ(rtf_text("{\\rtf1 text\\par\\par  }"), "text");
  EXPECT_EQ(rtf_text(""), "");
  EXPECT_EQ(rtf_text("{\\rtf1}"), "");
}

TEST(MppRtf, HostileDocumentsEndAsText) {
  // Unbalanced braces: a missing close ends with the input, an extra close is ignored.
  EXPECT_EQ(rtf_text("{\\rtf1 open"), "open");
  EXPECT_EQ(rtf_text("}}{\\rtf1 a}"), "a");
  // Text after the document's group is not the note.
  EXPECT_EQ(rtf_text("{\\rtf1 a}trailing"), "a");
  // A NUL ends the text (var data items are NUL-terminated).
  EXPECT_EQ(rtf_text(std::string("{\\rtf1 a\0b}", 11)), "a");
  // Truncated escapes.
  EXPECT_EQ(rtf_text("{\\rtf1 a\\"), "a");
  EXPECT_EQ(rtf_text("{\\rtf1 a\\'"), "a");
  EXPECT_EQ(rtf_text("{\\rtf1 a\\'4"), "a");
  EXPECT_EQ(rtf_text("{\\rtf1 a\\'zz b}"), "a b");
  EXPECT_EQ(rtf_text("{\\rtf1 a\\u"), "a");
  EXPECT_EQ(rtf_text("{\\rtf1 a\\u-"), "a-");
  // Huge parameters and over-long words are consumed, not trusted.
  EXPECT_EQ(rtf_text("{\\rtf1\\uc99999999999999999999 \\u99999999999999999999 x y}"), "\uFFFD");
  EXPECT_EQ(rtf_text("{\\rtf1 \\" + std::string(1000, 'a') + " b}"), "b");
  // \bin skips its bytes (braces included), and never past the end.
  EXPECT_EQ(rtf_text("{\\rtf1 a{\\bin4 }}{{}b}"), "ab");
  EXPECT_EQ(rtf_text("{\\rtf1 a\\bin999999 xyz"), "a");
}

TEST(MppRtf, NestingIsBounded) {
  // Groups nested deeper than the bound are dropped with their content; the text around them
  // stays, and a million open braces take linear time.
  const std::string deep = "{\\rtf1 before" + std::string(100000, '{') + "lost" + std::string(100000, '}') + " after}";
  EXPECT_EQ(rtf_text(deep), "before after");
  EXPECT_EQ(rtf_text("{\\rtf1 x" + std::string(1000000, '{')), "x");
  const std::string shallow = "{\\rtf1 " + std::string(50, '{') + "kept" + std::string(50, '}') + "}";
  EXPECT_EQ(rtf_text(shallow), "kept");
}

}  // namespace
}  // namespace ptmpl
