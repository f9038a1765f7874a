// The JSON reader's two paths: Document::parse reads a text with a tokenizer of its own and
// falls back on RapidJSON's reader for anything else; both must give the same document — tree,
// offsets, spellings, issues and messages — for every text, valid or not.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "json/reader.hpp"
#include "libtemplate/core/json.hpp"
#include "test_files.hpp"

namespace ptmpl::json::reader_test {
namespace {

void expect_same_reading(std::string_view text, const std::string& what, const ParseOptions& options = {}) {
  EXPECT_EQ(reading_difference(text, options), "") << what;
}

TEST(JsonReader, HandWrittenTextsReadAlikeBothWays) {
  const std::vector<std::string> texts = {
      // Values of every kind, empty containers, whitespace of every kind, a byte order mark.
      R"({"a": [1, -0, 0.5, 1e3, 1E+2, -1.25e-7, true, false, null, "", {}, []], "b": {"c": [[], [{}]]}})",
      " \t\r\n[ 1 , 2 ]\n\n ",
      "\xEF\xBB\xBF{\"x\": 1}",
      "7",
      "\"only\"",
      "true",
      "null",
      "[]",
      "{}",
      // Escapes: every simple one, \u of each UTF-8 length, a surrogate pair, \u0000, a quote
      // right before the closing one, backslash runs, a key with escapes.
      R"(["\"\\\/\b\f\n\r\t", "\u0041\u00e9\u20AC\ud83d\ude00", "a\u0000b", "x\"", "\\\\", "\\\""])",
      R"({"k\u0065y": 1, "key": 2, "tab\there": "é and ü and 😀"})",
      // Duplicate keys, few and many (the builder's two ways of finding them), nested.
      R"({"a": 1, "b": 2, "a": 3, "c": {"d": 1, "d": 2}})",
      // Numbers near every bound the fast reader checks.
      "[" + std::string(300, '7') + "]",
      "[" + std::string(301, '7') + "]",
      "[" + std::string(400, '9') + "]",
      "[1e308, 1e309, 1.5e308, 1e-400, 1e+0308, 1e00000000000000000001, 0.000e999, 123456789012345678901234567890]",
      "[-9223372036854775808, 9223372036854775807, 18446744073709551616, -0.0, 0e0, 0E-0]",
      // Errors of every kind: the reference's messages and offsets must survive the fallback.
      "",
      "   ",
      "[1,]",
      "{\"a\" 1}",
      "{\"a\": 1,}",
      "{1: 2}",
      "[01]",
      "[1.]",
      "[.5]",
      "[1e]",
      "[-]",
      "[+1]",
      "[tru]",
      "[nul]",
      "[falsey]",
      "[1 2]",
      "[\"a\" \"b\"]",
      "{\"a\": 1} x",
      "[1] [2]",
      "[\"unterminated",
      "[\"bad \\x escape\"]",
      "[\"\\u12\"]",
      "[\"\\u12G4\"]",
      "[\"\\ud800\"]",
      "[\"\\ud800\\u0041\"]",
      "[\"\\udc00\"]",
      "[\"lone \\udfff low\"]",
      std::string("[\"a\x01 b\"]"),
      std::string("[\"tab\tin\"]"),
      std::string("[1]\0", 4),
      std::string("[1,\0 2]", 7),
      std::string("\0", 1),
      "[\"\xC3\x28\"]",
      "[\"\xED\xA0\x80\"]",
      "{\"a\": [1, 2",
      "[[[[",
      "]",
      "}",
      "{\"a\":}",
      "[,]",
      "[\"\\\"]",
  };
  for (const std::string& text : texts) expect_same_reading(text, "text: " + text);
  // Many members (more than 32: the sorted search for duplicates) with a duplicate among them.
  std::string wide = "{";
  for (int i = 0; i < 40; ++i) wide += "\"k" + std::to_string(i % 37) + "\": " + std::to_string(i) + ",";
  wide.back() = '}';
  expect_same_reading(wide, "40 members");
}

TEST(JsonReader, TheNestingBoundReadsAlikeBothWays) {
  ParseOptions shallow;
  shallow.max_depth = 3;
  for (const std::string text :
       {"[[[[1, {\"a\": [2]}], 3]], 4]", "{\"a\": {\"b\": {\"c\": {\"d\": [\"x\\n\"]}}, \"e\": 1}}",
        "[[[[[[[[[[]]]]]]]]]]", "[[[[1, ]]]]", "[[[[\"\\udc00\"]]]]"})
    expect_same_reading(text, "depth 3: " + text, shallow);
  const std::string deep = std::string(5000, '[') + std::string(5000, ']');
  expect_same_reading(deep, "5000 levels");
  expect_same_reading(std::string(5000, '[') + std::string(4999, ']'), "5000 levels, one left open");
}

// Every .json file of the repository, then each cut short and changed in many places: the
// fallback must take over wherever the text stops being valid, with the reference's reading.
TEST(JsonReader, TheRepositorysFilesAndTheirMutantsReadAlikeBothWays) {
  std::vector<std::filesystem::path> files;
  for (const char* folder : {"samples", "tests/data"})
    for (const auto& entry : std::filesystem::recursive_directory_iterator(testing::source_path(folder)))
      if (entry.is_regular_file() && entry.path().extension() == ".json" && entry.file_size() < (1U << 20))
        files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  ASSERT_GT(files.size(), 100U);
  std::mt19937_64 random(19);
  const std::string replacements = "\"\\{}[],:-+.eE0159tfnu \n\x01\xC3\xED";
  std::size_t mutants = 0;
  for (const auto& path : files) {
    const std::string text = testing::slurp(path.string());
    expect_same_reading(text, path.string());
    if (text.empty()) continue;
    for (int i = 0; i < 40; ++i) {
      std::string mutant = text;
      const std::size_t at = random() % mutant.size();
      switch (random() % 4) {
        case 0:
          mutant.resize(at);
          break;
        case 1:
          mutant.erase(at, 1);
          break;
        case 2:
          mutant.insert(at, 1, replacements[random() % replacements.size()]);
          break;
        default:
          mutant[at] = replacements[random() % replacements.size()];
          break;
      }
      expect_same_reading(mutant, path.string() + " changed at byte " + std::to_string(at));
      ++mutants;
      if (::testing::Test::HasFailure()) return;
    }
  }
  EXPECT_GT(mutants, 4000U);
}

}  // namespace
}  // namespace ptmpl::json::reader_test
