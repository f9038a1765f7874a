// The one JSON emitter: escaping, the three layouts, numbers, and write_value().
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "libtemplate/core/json.hpp"
#include "libtemplate/core/json_emitter.hpp"
#include "libtemplate/core/writer.hpp"

namespace ptmpl {
namespace {

// The emitter's text for one string value.
std::string emitted(std::string_view text) {
  JsonEmitter json(JsonLayout::Compact);
  json.string(text);
  return json.finish();
}

// The escaping written out by hand: what every string is expected to become.
std::string reference_quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (byte < 0x20) {
          static constexpr char kHex[] = "0123456789abcdef";
          out += "\\u00";
          out += kHex[byte >> 4];
          out += kHex[byte & 0xF];
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

TEST(JsonEmitter, EscapesQuoteBackslashAndEveryControlCharacter) {
  EXPECT_EQ(emitted("a\"b\\c"), R"("a\"b\\c")");
  EXPECT_EQ(emitted("\b\f\n\r\t"), R"("\b\f\n\r\t")");
  EXPECT_EQ(emitted(std::string_view("\0\x01\x0b\x1f", 4)), R"("\u0000\u0001\u000b\u001f")");
  for (int c = 0; c < 0x20; ++c) {
    const std::string text(1, static_cast<char>(c));
    EXPECT_EQ(emitted(text), reference_quoted(text)) << c;
    // What it writes reads back as the same string.
    const std::string written = emitted(text);
    json::Document doc = json::Document::parse(written);
    ASSERT_TRUE(doc.ok()) << written;
    EXPECT_EQ(doc.root().text(), text);
  }
  EXPECT_EQ(emitted(""), "\"\"");
}

TEST(JsonEmitter, KeepsEverythingElseAsItIs) {
  // `/` and DEL need no escape; non-ASCII stays UTF-8 (U+2028 and U+2029 too: JSON allows them
  // in strings, and ptmpl writes JSON, not JavaScript).
  const std::string text = "a/b \x7f é ☃ \xF0\x9F\x98\x80 \xE2\x80\xA8\xE2\x80\xA9";
  EXPECT_EQ(emitted(text), "\"" + text + "\"");
  // Only \u00XX escapes are ever written: no surrogate (a lone one is impossible).
  std::string every_byte;
  for (int c = 1; c < 0x80; ++c) every_byte += static_cast<char>(c);
  every_byte += text;
  const std::string written = emitted(every_byte);
  EXPECT_EQ(written.find("\\ud"), std::string::npos);
  EXPECT_EQ(written.find("\\uD"), std::string::npos);
  json::Document doc = json::Document::parse(written);
  ASSERT_TRUE(doc.ok()) << written;
  EXPECT_EQ(doc.root().text(), every_byte);
}

TEST(JsonEmitter, FindsACharacterToEscapeWhereverItIs) {
  // Strings are checked eight bytes at a time: a character to escape at any position, in the
  // words and in the tail, with neighbours just above and below the bounds.
  for (char special : {'"', '\\', '\n', '\x1f', '\0'}) {
    for (std::size_t length = 1; length <= 40; ++length) {
      for (std::size_t at = 0; at < length; ++at) {
        std::string text(length, '!');                                  // 0x21, just above the control characters
        if (length > 2) text[length / 2 == at ? 0 : length / 2] = ']';  // 0x5D, next to '\'
        text[at] = special;
        ASSERT_EQ(emitted(text), reference_quoted(text)) << int(special) << " at " << at << " of " << length;
      }
    }
  }
  const std::string plain = "0123456789 !#$%&'()*+,-./:;<=>?@[]^_`{|}~ \x7f\x80\xff";
  EXPECT_EQ(emitted(plain), "\"" + plain + "\"");
}

TEST(JsonEmitter, AppendQuotedIsTheSameEscaping) {
  const std::string text = "x\"\\\x01\n\tz é";
  std::string out = "prefix ";
  json::append_quoted(out, text);
  EXPECT_EQ(out, "prefix " + emitted(text));
  EXPECT_EQ(json::quoted(text), emitted(text));
  // Long strings to escape: the room made for them is the escaped size.
  const std::string controls(100000, '\x01');
  EXPECT_EQ(emitted(controls).size(), 2 + 6 * controls.size());
  EXPECT_EQ(json::quoted(controls), emitted(controls));
}

TEST(JsonEmitter, KeysAreEscapedUnlessLiteral) {
  JsonEmitter json(JsonLayout::Compact);
  json.begin_object();
  json.member("plain", 1);
  json.member(std::string("qu\"ote"), 2);
  json.member(std::string_view("new\nline"), 3);
  json.end_object();
  EXPECT_EQ(json.finish(), R"({"plain":1,"qu\"ote":2,"new\nline":3})");
}

// One sequence of calls, written in each layout.
std::string sample(JsonLayout layout) {
  JsonEmitter json(layout);
  json.begin_object();
  json.member("title", "a");
  json.key("list");
  json.begin_array();
  json.integer(1);
  json.boolean(true);
  json.null();
  json.begin_object();
  json.end_object();
  json.begin_array();
  json.end_array();
  json.begin_object();
  json.member("k", "v");
  json.end_object();
  json.end_array();
  json.key("empty");
  json.begin_array();
  json.end_array();
  json.end_object();
  return json.finish();
}

TEST(JsonEmitter, PrettyLineAndCompactLayouts) {
  EXPECT_EQ(sample(JsonLayout::Pretty),
            "{\n"
            "  \"title\": \"a\",\n"
            "  \"list\": [\n"
            "    1,\n"
            "    true,\n"
            "    null,\n"
            "    {},\n"
            "    [],\n"
            "    {\n"
            "      \"k\": \"v\"\n"
            "    }\n"
            "  ],\n"
            "  \"empty\": []\n"
            "}\n");
  EXPECT_EQ(sample(JsonLayout::Line),
            "{\"title\": \"a\", \"list\": [1, true, null, {}, [], {\"k\": \"v\"}], \"empty\": []}\n");
  EXPECT_EQ(sample(JsonLayout::Compact), R"({"title":"a","list":[1,true,null,{},[],{"k":"v"}],"empty":[]})");
}

TEST(JsonEmitter, ContainersChooseTheirLayoutAndTheirContentsFollow) {
  // A report: one line, but for the findings, one a line (indented by the Pretty levels).
  JsonEmitter json(JsonLayout::Line);
  json.begin_object();
  json.member("files", 2);
  json.key("findings");
  json.begin_array(JsonLayout::Pretty);
  for (int line : {3, 12}) {
    json.begin_object(JsonLayout::Line);
    json.member("line", line);
    json.key("at");
    json.begin_object();
    json.member("column", 1);
    json.end_object();
    json.end_object();
  }
  json.end_array();
  json.key("compact");
  json.begin_array(JsonLayout::Compact);
  json.integer(1);
  json.integer(2);
  json.end_array();
  json.end_object();
  EXPECT_EQ(json.finish(),
            "{\"files\": 2, \"findings\": [\n"
            "  {\"line\": 3, \"at\": {\"column\": 1}},\n"
            "  {\"line\": 12, \"at\": {\"column\": 1}}\n"
            "], \"compact\": [1,2]}\n");
}

TEST(JsonEmitter, IndentsDeepNesting) {
  // Indentation is written sixteen spaces at a time: nesting well past that.
  constexpr int kDepth = 40;
  JsonEmitter json;
  std::string expected;
  for (int i = 0; i < kDepth; ++i) {
    json.begin_array();
    expected += std::string(static_cast<std::size_t>(i) * 2, ' ') + "[\n";
  }
  json.string("deep");
  expected += std::string(std::size_t{kDepth} * 2, ' ') + "\"deep\"\n";
  for (int i = kDepth - 1; i >= 0; --i) {
    json.end_array();
    expected += std::string(static_cast<std::size_t>(i) * 2, ' ') + "]" + (i > 0 ? "\n" : "");
  }
  EXPECT_EQ(json.finish(), expected + "\n");
}

TEST(JsonEmitter, GrowsPastItsFirstRoomAndStartsAfreshAfterFinish) {
  JsonEmitter json(JsonLayout::Compact, 16);
  std::string expected = "[";
  json.begin_array();
  for (int i = 0; i < 100000; ++i) {
    json.integer(i);
    json.string("x");
    expected += std::to_string(i) + ",\"x\",";
  }
  json.end_array();
  expected.back() = ']';
  EXPECT_EQ(json.finish(), expected);
  json.begin_object();
  json.end_object();
  EXPECT_EQ(json.finish(), "{}") << "empty again after finish()";
  json.integer(7);
  EXPECT_EQ(json.finish(), "7") << "a scalar root";
}

TEST(JsonEmitter, NumbersAsSpelledIntegersAndDoubles) {
  JsonEmitter json(JsonLayout::Compact);
  json.begin_array();
  json.number("1.50");
  json.number("1e3");
  json.number("-0");
  json.number("123456789012345678901234567890");
  json.integer(std::numeric_limits<std::int64_t>::min());
  json.integer(std::numeric_limits<std::uint64_t>::max());
  json.integer(std::int8_t{-8});
  json.raw(R"({"kept":[1, 2]})");
  json.number(std::nan(""));
  json.number(std::numeric_limits<double>::infinity());
  json.end_array();
  EXPECT_EQ(json.finish(), R"([1.50,1e3,-0,123456789012345678901234567890,-9223372036854775808,)"
                           R"(18446744073709551615,-8,{"kept":[1, 2]},null,null])");
}

TEST(JsonEmitter, DoublesAsRapidJsonWroteThem) {
  // The sandbox's budgets and the service's non-integer numbers were written by RapidJSON's
  // Writer; the emitter writes the same bytes.
  for (double d : {0.0, -0.0, 1.0, 1500.0, 1234.56, 0.1, 0.30000000000000004, 1e21, 1e22, 1.5e-7, 1e-7, 5e-324,
                   1.7976931348623157e308, -2.5, 123456789012345680.0, 1.0903743148420288}) {
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    writer.Double(d);
    JsonEmitter json(JsonLayout::Compact);
    json.number(d);
    EXPECT_EQ(json.finish(), buffer.GetString()) << d;
  }
}

TEST(WriteValue, WritesATreeInItsOrderOrInTheShapesOrder) {
  const std::string text =
      R"({"zeta": [1, {"b": 2, "a": 1.50}], "title": "t", "raw_json": [{"title": "s", "temp_id": 1}]})";
  json::Document doc = json::Document::parse(text);
  ASSERT_TRUE(doc.ok());
  JsonEmitter line(JsonLayout::Line);
  write_value(line, doc.root());
  EXPECT_EQ(line.finish(), text + "\n") << "Unknown shape: every key where it was";
  // Within what the emitter is writing, laid out as the container it is in.
  JsonEmitter pretty;
  pretty.begin_object();
  pretty.key("story");
  write_value(pretty, doc.root().find("raw_json")->items()[0]);
  pretty.end_object();
  EXPECT_EQ(pretty.finish(), "{\n  \"story\": {\n    \"title\": \"s\",\n    \"temp_id\": 1\n  }\n}\n");
  // A story list: the story's documented keys in canonical order (docs/semantics.md §3).
  json::Document stories = json::Document::parse(R"([{"temp_id": 1, "title": "s", "custom": 0}])");
  EXPECT_EQ(write_compact(stories.root(), Shape::StoryList), R"([{"title":"s","temp_id":1,"custom":0}])");
}

}  // namespace
}  // namespace ptmpl
