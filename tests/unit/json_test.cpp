// The JSON layer: positions, spellings, and bad input of every kind.
#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "libtemplate/core/json.hpp"

namespace ptmpl::json {
namespace {

Position position_of(const Document& doc, std::string_view pointer) {
  const Value* v = resolve_pointer(doc.root(), pointer);
  EXPECT_NE(v, nullptr) << pointer;
  return v == nullptr ? Position{} : doc.position(v->offset());
}

TEST(Json, EveryValueKnowsItsLineAndColumn) {
  std::string text = "[\n  {\"title\": \"Café\", \"temp_id\": 7,\n   \"x\": [true, null, -1.5e3]}\n]\n";
  Document doc = Document::parse(text);
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(position_of(doc, "").line, 1u);
  EXPECT_EQ(position_of(doc, "/0").line, 2u);
  EXPECT_EQ(position_of(doc, "/0").column, 3u);
  EXPECT_EQ(position_of(doc, "/0/title").column, 13u);
  // Columns count code points: "Café" is 5 bytes but 4 characters.
  EXPECT_EQ(position_of(doc, "/0/temp_id").column, 32u);
  EXPECT_EQ(position_of(doc, "/0/x/2").line, 3u);
  EXPECT_EQ(position_of(doc, "/0/x/2").column, 22u);
  const Value& key = doc.root().items()[0].members()[1].key;
  EXPECT_EQ(doc.position(key.offset()).column, 21u);
}

TEST(Json, PositionsOfStringsWithEscapes) {
  // Each value's offset is its opening quote, whatever escapes (quotes, backslashes) it holds.
  std::string text = R"([ "a\"b", "c\\\\", "\\\"", "x\u00e9\"", "\"\"", "", "\\"])";
  Document doc = Document::parse(text);
  ASSERT_TRUE(doc.ok());
  std::vector<std::uint64_t> offsets;
  for (const Value& v : doc.root().items()) offsets.push_back(v.offset());
  std::vector<std::uint64_t> expected;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && in_string) {
      ++i;
    } else if (text[i] == '"') {
      if (!in_string) expected.push_back(i);
      in_string = !in_string;
    }
  }
  EXPECT_EQ(offsets, expected);
  EXPECT_EQ(doc.root().items()[0].text(), "a\"b");
  EXPECT_EQ(doc.root().items()[2].text(), "\\\"");
}

TEST(Json, NumbersKeepTheirSpelling) {
  Document doc = Document::parse(R"([1.0, 1e3, -0, 12345678901234567890123, 9223372036854775807, 0.1])");
  ASSERT_TRUE(doc.ok());
  auto items = doc.root().items();
  EXPECT_EQ(items[0].text(), "1.0");
  EXPECT_EQ(items[1].text(), "1e3");
  EXPECT_EQ(items[2].text(), "-0");
  EXPECT_EQ(items[3].text(), "12345678901234567890123");
  EXPECT_FALSE(items[0].as_int64().has_value());
  EXPECT_FALSE(items[3].as_int64().has_value()) << "beyond int64 is not an int64";
  EXPECT_TRUE(items[3].is_integer_spelling());
  EXPECT_EQ(items[4].as_int64(), INT64_MAX);
}

TEST(Json, StringsAreDecoded) {
  Document doc = Document::parse(R"(["a\"b\\c\/d\n\u00e9\ud83d\ude00", "\u0000x"])");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(doc.root().items()[0].text(), "a\"b\\c/d\n\xC3\xA9\xF0\x9F\x98\x80");
  EXPECT_EQ(doc.root().items()[1].text(), std::string_view("\0x", 2));
}

struct SyntaxCase {
  std::string_view text;
  std::uint64_t line;
  std::uint64_t column;
  const char* message_part;
};

class JsonSyntax : public ::testing::TestWithParam<SyntaxCase> {};

TEST_P(JsonSyntax, ReportsWhereAndWhatWasExpected) {
  const SyntaxCase& c = GetParam();
  Document doc = Document::parse(c.text);
  ASSERT_FALSE(doc.ok());
  ASSERT_FALSE(doc.issues().empty());
  const ParseIssue& issue = doc.issues().front();
  EXPECT_EQ(issue.type, ParseIssue::Type::Syntax);
  Position p = doc.position(issue.offset);
  EXPECT_EQ(p.line, c.line) << issue.message;
  EXPECT_EQ(p.column, c.column) << issue.message;
  EXPECT_NE(issue.message.find(c.message_part), std::string::npos) << issue.message;
  EXPECT_TRUE(doc.root().is_null());
}

INSTANTIATE_TEST_SUITE_P(
    BadInput, JsonSyntax,
    ::testing::Values(
        SyntaxCase{"[\n  {\"a\": 1}\n  {\"b\": 2}\n]", 3, 3, "expected ',' or ']'"},
        SyntaxCase{"{\"a\" 1}", 1, 6, "expected ':'"}, SyntaxCase{"{\"a\": 1,}", 1, 9, "member name"},
        SyntaxCase{"[1, 2", 1, 6, "unexpected end of file"}, SyntaxCase{"", 1, 1, "end of file"},
        SyntaxCase{"[\"abc", 1, 6, "close the string"}, SyntaxCase{"[1.]", 1, 4, "after the decimal point"},
        SyntaxCase{"[tru]", 1, 5, "expected a JSON value"}, SyntaxCase{"[1] [2]", 1, 5, "after the top-level value"},
        SyntaxCase{"[\"\\x\"]", 1, 3, "invalid escape"}, SyntaxCase{"[\"a\xFF\"]", 1, 4, "invalid UTF-8"},
        SyntaxCase{"[\"a\nb\"]", 1, 4, "control character U+000A must be written as an escape"},
        SyntaxCase{"[\"a\xC3\x28\"]", 1, 4, "invalid UTF-8"}, SyntaxCase{"[\xFF]", 1, 2, "found byte 0xFF"},
        SyntaxCase{std::string_view("[1]\n\0trailing", 13), 2, 1, "NUL byte"},
        // A lone low surrogate (found by the template_reader fuzz target: fmt wrote it out as
        // bytes that are not UTF-8), in a value and in a key; and a high one without its low half.
        SyntaxCase{R"(["ab\ude80"])", 1, 2, "a low surrogate without a high one"},
        SyntaxCase{R"([{"k\udc00": 1}])", 1, 3, "a low surrogate without a high one"},
        SyntaxCase{R"(["\ud83d"])", 1, 3, "invalid UTF-16 surrogate pair"}),
    [](const ::testing::TestParamInfo<SyntaxCase>& param) { return "case_" + std::to_string(param.index); });

TEST(Json, WhitespaceRunsOfEveryLengthAndKindAreSkipped) {
  // Whitespace is skipped 16 bytes at a time where the processor can: runs of every length
  // around that width, of each of the four characters, before values and at the very end.
  for (std::size_t run = 0; run <= 40; ++run) {
    for (char white : {' ', '\n', '\r', '\t'}) {
      const std::string gap(run, white);
      const std::string text = "[" + gap + "1," + gap + "\"a\"" + gap + "]" + gap;
      Document doc = Document::parse(text);
      ASSERT_TRUE(doc.ok()) << run << " " << int(white);
      ASSERT_EQ(doc.root().items().size(), 2U);
      EXPECT_EQ(doc.root().items()[0].offset(), 1 + run);
      EXPECT_EQ(doc.root().items()[1].offset(), 1 + run + 2 + run);
    }
  }
  // Other control characters are not whitespace: the error is at the first of them, wherever it
  // falls in a 16-byte block.
  for (std::size_t run = 0; run <= 33; ++run) {
    const std::string text = "[" + std::string(run, ' ') + "\v1]";
    Document doc = Document::parse(text);
    ASSERT_FALSE(doc.ok());
    EXPECT_EQ(doc.issues().front().offset, 1 + run) << run;
  }
}

TEST(Json, LongStringsLargeArraysAndFarOffsetsKeepTheirSizes) {
  // Sizes above 16 bits and offsets beyond the first 64 KiB (a value packs both in its two words).
  const std::string long_text(70000, 'x');
  std::string text = "{\"a\": \"" + long_text + "\", \"b\": [";
  for (int i = 0; i < 70000; ++i) text += i == 0 ? "0" : ",0";
  text += "], \"c\": true}";
  Document doc = Document::parse(text);
  ASSERT_TRUE(doc.ok());
  ASSERT_NE(doc.root().find("a"), nullptr);
  EXPECT_EQ(doc.root().find("a")->text(), long_text);
  ASSERT_NE(doc.root().find("b"), nullptr);
  EXPECT_EQ(doc.root().find("b")->items().size(), 70000U);
  const Value* c = doc.root().find("c");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->kind(), Kind::True);
  EXPECT_EQ(c->offset(), text.size() - 5);
  EXPECT_TRUE(doc.root().unique_keys());
  EXPECT_EQ(doc.root().members().size(), 3U);
}

TEST(Json, ParseInt64ReadsWhatFromCharsReads) {
  // The digit-by-digit path (up to 18 digits) and the general one agree with from_chars on
  // every shape of text, at the edges of both.
  for (const char* text : {"",
                           "-",
                           "0",
                           "-0",
                           "7",
                           "007",
                           "-12",
                           "123456789012345678",
                           "-123456789012345678",
                           "999999999999999999",
                           "1234567890123456789",
                           "9223372036854775807",
                           "9223372036854775808",
                           "-9223372036854775808",
                           "-9223372036854775809",
                           "12a",
                           "a12",
                           " 1",
                           "1 ",
                           "+1",
                           "1.0",
                           "1e3",
                           "--1",
                           "-a",
                           "18446744073709551616"}) {
    SCOPED_TRACE(text);
    const std::string_view t(text);
    std::int64_t n = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
    const std::optional<std::int64_t> expected =
        ec == std::errc{} && end == t.data() + t.size() ? std::optional<std::int64_t>(n) : std::nullopt;
    EXPECT_EQ(parse_int64(t), expected);
  }
}

TEST(Json, ByteOrderMarkIsSkipped) {
  Document doc = Document::parse("\xEF\xBB\xBF[1]");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(doc.root().items()[0].text(), "1");
  EXPECT_EQ(doc.root().offset(), 3u);
  // The mark takes no column: '[' is column 1, the 1 column 2.
  EXPECT_EQ(doc.position(doc.root().offset()).column, 1u);
  EXPECT_EQ(doc.position(doc.root().items()[0].offset()).column, 2u);
}

TEST(Json, ColumnsOnOneVeryLongLineMatchACountOfCharacters) {
  // Minified files are one line; columns there come from 4 KiB checkpoints.
  std::string text = "[";
  for (int i = 0; i < 20000; ++i) text += std::string(i > 0 ? "," : "") + "\"é" + std::to_string(i) + "\"";
  text += "]";
  Document doc = Document::parse(text);
  ASSERT_TRUE(doc.ok());
  for (std::size_t i : {0u, 1u, 4095u, 12345u, 19999u}) {
    std::uint64_t offset = doc.root().items()[i].offset();
    std::uint64_t characters = 0;
    for (std::uint64_t b = 0; b < offset; ++b) characters += (static_cast<unsigned char>(text[b]) & 0xC0) != 0x80;
    EXPECT_EQ(doc.position(offset).line, 1u);
    EXPECT_EQ(doc.position(offset).column, characters + 1) << i;
  }
}

TEST(Json, DuplicateKeysAreKeptAndReported) {
  Document doc = Document::parse("[{\"title\": \"a\",\n  \"x\": 1,\n  \"title\": \"b\"}]");
  ASSERT_TRUE(doc.ok());
  const Value& story = doc.root().items()[0];
  ASSERT_EQ(story.members().size(), 3u);
  EXPECT_EQ(story.find("title")->text(), "b") << "the last value wins, as on the service";
  ASSERT_EQ(doc.issues().size(), 1u);
  const ParseIssue& issue = doc.issues()[0];
  EXPECT_EQ(issue.type, ParseIssue::Type::DuplicateKey);
  EXPECT_EQ(issue.pointer, "/0/title");
  EXPECT_EQ(doc.position(issue.offset).line, 3u);
  EXPECT_EQ(doc.position(issue.offset).column, 3u);
  EXPECT_EQ(doc.position(issue.other_offset).line, 1u);
}

TEST(Json, DuplicateKeysInLargeObjectsAreFound) {
  std::string text = "{";
  for (int i = 0; i < 100; ++i) text += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ", ";
  text += "\"k42\": 0, \"k7\": 1}";
  Document doc = Document::parse(text);
  ASSERT_TRUE(doc.ok());
  ASSERT_EQ(doc.issues().size(), 2u);
  EXPECT_EQ(doc.issues()[0].pointer, "/k42");
  EXPECT_EQ(doc.issues()[1].pointer, "/k7");
}

TEST(Json, HundredThousandLevelsDoNotOverflowTheStack) {
  constexpr int kDepth = 100'000;
  std::string text = "[{\"title\": \"deep\", \"x\": ";
  text.append(kDepth, '[');
  text.append(kDepth, ']');
  text += "}]";
  Document doc = Document::parse(text);
  ASSERT_TRUE(doc.ok());
  EXPECT_TRUE(doc.truncated());
  ASSERT_EQ(doc.issues().size(), 1u);
  const ParseIssue& issue = doc.issues()[0];
  EXPECT_EQ(issue.type, ParseIssue::Type::TooDeep);
  // Levels 1 and 2 are the story list and the story; "x" opens level 3, so the bound of 256
  // is crossed by the 255th '[' of "x".
  EXPECT_EQ(issue.offset, 24u + 254u);
  EXPECT_EQ(issue.pointer.substr(0, 10), "/0/x/0/0/0");
  EXPECT_EQ(doc.root().items()[0].find("title")->text(), "deep");
}

TEST(Json, HundredThousandLevelsWithASyntaxErrorAtTheBottom) {
  std::string text(100'000, '[');
  text += "x";
  text.append(100'000, ']');
  Document doc = Document::parse(text);
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.position(doc.issues().front().offset).column, 100'001u);
}

TEST(Json, DepthBoundIsConfigurable) {
  ParseOptions options;
  options.max_depth = 3;
  Document doc = Document::parse("[[[[1]]], [[2]]]", options);
  ASSERT_TRUE(doc.ok());
  EXPECT_TRUE(doc.truncated());
  EXPECT_EQ(doc.root().items()[0].items()[0].items()[0].kind(), Kind::Truncated);
  EXPECT_EQ(doc.root().items()[1].items()[0].items()[0].text(), "2");
}

// The text of every value, as written, from its offset to value_end().
std::vector<std::string> written(const Document& doc, std::span<const Value> values) {
  std::vector<std::string> out;
  for (const Value& v : values) {
    std::optional<std::uint64_t> end = value_end(doc.text(), v);
    out.push_back(end ? std::string(doc.text().substr(v.offset(), *end - v.offset())) : "<none>");
  }
  return out;
}

TEST(Json, EveryValueEndsWhereItIsWritten) {
  std::string text =
      "\xEF\xBB\xBF[1.0e3, -0, \"\", \"a\\\"]\\\\\", \"\\u00e9\", true, false, null,\n"
      " { \"k\" : [ 1 , {\"}\": \"]\"} ] } , [], {} ,\"plain\"]";
  Document doc = Document::parse(text);
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(written(doc, doc.root().items()),
            (std::vector<std::string>{"1.0e3", "-0", "\"\"", "\"a\\\"]\\\\\"", "\"\\u00e9\"", "true", "false", "null",
                                      "{ \"k\" : [ 1 , {\"}\": \"]\"} ] }", "[]", "{}", "\"plain\""}));
  EXPECT_EQ(value_end(doc.text(), doc.root()), text.size());
  // A key is a string value too.
  const Member& k = doc.root().items()[8].members()[0];
  EXPECT_EQ(written(doc, {&k.key, 1}), std::vector<std::string>{"\"k\""});
}

TEST(Json, AValueCutByTheDepthBoundStillEndsWhereItIsWritten) {
  ParseOptions options;
  options.max_depth = 2;
  Document doc = Document::parse("[[[[1], \"]\"]], 2]", options);
  ASSERT_TRUE(doc.ok());
  ASSERT_EQ(doc.root().items()[0].items()[0].kind(), Kind::Truncated);
  EXPECT_EQ(written(doc, doc.root().items()[0].items()), std::vector<std::string>{"[[1], \"]\"]"});
}

TEST(Json, AValueNotReadFromTheTextHasNoEndInIt) {
  Arena arena;
  Builder build(arena);
  // Built values start at offset 0, where the text holds something else.
  EXPECT_EQ(value_end("[1]", build.integer(1)), std::nullopt);
  EXPECT_EQ(value_end("\"a\"", build.string("b")), std::nullopt);
  EXPECT_EQ(value_end("{}", build.array({})), std::nullopt);
  EXPECT_EQ(value_end("", build.null()), std::nullopt);
  Document doc = Document::parse("[7, \"x\"]");
  EXPECT_EQ(value_end("[8, \"y\"]", doc.root().items()[0]), std::nullopt);
  EXPECT_EQ(value_end("[7, \"y\"]", doc.root().items()[1]), std::nullopt);
}

TEST(Json, LastOfEachKeyKeepsTheValuesTheServiceKeeps) {
  std::string text = R"({"title": "a", "raw_json": [{"t": 1, "u": [{"v": 1, "v": 2}], "t": 3}, {"w": 4}],
                          "title": "b", "same": {"x": [1, 2]}})";
  Document doc = Document::parse(text);
  ASSERT_TRUE(doc.ok());
  Arena arena;
  Value last = last_of_each_key(doc.root(), arena);
  ASSERT_EQ(last.members().size(), 3u);
  EXPECT_EQ(last.members()[0].key.text(), "raw_json");  // each kept member stays where it stands
  EXPECT_EQ(last.members()[1].key.text(), "title");
  EXPECT_EQ(last.members()[1].value.text(), "b");
  EXPECT_TRUE(last.unique_keys());
  const Value& story = last.members()[0].value.items()[0];
  ASSERT_EQ(story.members().size(), 2u);
  EXPECT_EQ(story.members()[0].key.text(), "u");
  EXPECT_EQ(story.find("t")->text(), "3");
  ASSERT_EQ(story.find("u")->items()[0].members().size(), 1u);
  EXPECT_EQ(story.find("u")->items()[0].find("v")->text(), "2");
  // What had no duplicates is the document's own, not a copy.
  EXPECT_EQ(last.members()[0].value.items()[1].members().data(),
            doc.root().members()[1].value.items()[1].members().data());
  EXPECT_EQ(last.find("same")->members().data(), doc.root().find("same")->members().data());
  // Nothing to drop: the value itself.
  Document clean = Document::parse(R"([{"a": 1}, {"a": 2}])");
  EXPECT_EQ(last_of_each_key(clean.root(), arena).items().data(), clean.root().items().data());
}

TEST(Json, NumbersReadAsDoubles) {
  Document doc = Document::parse(R"([1500.50, -2, 1e3, 9.9e308, -9.9e308, 1e-400, "1", null])");
  ASSERT_TRUE(doc.ok());
  auto items = doc.root().items();
  EXPECT_EQ(items[0].as_double(), 1500.5);
  EXPECT_EQ(items[1].as_double(), -2.0);
  EXPECT_EQ(items[2].as_double(), 1000.0);
  EXPECT_EQ(items[3].as_double(), HUGE_VAL);
  EXPECT_EQ(items[4].as_double(), -HUGE_VAL);
  EXPECT_EQ(items[5].as_double(), 0.0);
  EXPECT_EQ(items[6].as_double(), std::nullopt);
  EXPECT_EQ(items[7].as_double(), std::nullopt);
}

TEST(Json, PointersEscapeAndResolve) {
  Document doc = Document::parse(R"({"a/b": {"m~n": [10, 20]}})");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(pointer_escape("a/b"), "a~1b");
  EXPECT_EQ(pointer_escape("m~n"), "m~0n");
  const Value* v = resolve_pointer(doc.root(), "/a~1b/m~0n/1");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->text(), "20");
  EXPECT_EQ(resolve_pointer(doc.root(), "/a~1b/m~0n/2"), nullptr);
  EXPECT_EQ(resolve_pointer(doc.root(), "/nope"), nullptr);
  EXPECT_EQ(resolve_pointer(doc.root(), "/a~1b/m~0n/x"), nullptr);
}

TEST(Json, QuotingEscapesOnlyWhatJsonRequires) {
  std::string out;
  append_quoted(out, "a\"\\\n\t\x01\x7F/é");
  EXPECT_EQ(out, "\"a\\\"\\\\\\n\\t\\u0001\x7F/é\"");
}

TEST(Json, LineIndexGivesLineText) {
  Document doc = Document::parse("[1,\r\n 2,\n 3]");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(doc.lines().line_text(1), "[1,");
  EXPECT_EQ(doc.lines().line_text(2), " 2,");
  EXPECT_EQ(doc.lines().line_text(3), " 3]");
  EXPECT_EQ(doc.lines().line_text(4), "");
}

}  // namespace
}  // namespace ptmpl::json
