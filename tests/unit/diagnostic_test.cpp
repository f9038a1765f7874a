// Output of findings: text (plain and for terminals) and JSON.
#include <gtest/gtest.h>

#include "libtemplate/diagnostic.hpp"
#include "libtemplate/json.hpp"

namespace ptmpl {
namespace {

std::vector<Diagnostic> two_findings() {
  Diagnostic a{"schema", Severity::Error, "`duration` must be an integer, found a string", "t.json", 3,
               17,       "/0/duration"};
  std::tie(a.excerpt, a.excerpt_column) = make_excerpt("{\n    \"duration\": \"5\",\n}", 18);
  Diagnostic b{"duplicate-key", Severity::Warning, "duplicate key \"title\"", "t.json", 12, 5, "/1/title"};
  std::tie(b.excerpt, b.excerpt_column) = make_excerpt("\t   \"title\": \"x\"", 4);
  return {a, b};
}

TEST(TextOutput, PlainLinesAndSummary) {
  EXPECT_EQ(format_text(two_findings(), 1),
            "t.json:3:17: error: `duration` must be an integer, found a string [schema]\n"
            "t.json:12:5: warning: duplicate key \"title\" [duplicate-key]\n"
            "1 file checked: 1 error, 1 warning, 0 info\n");
  EXPECT_EQ(format_text({}, 2), "2 files checked: 0 errors, 0 warnings, 0 info\n");
}

TEST(TextOutput, ExcerptWithCaretUnderTheColumn) {
  TextStyle style;
  style.excerpt = true;
  EXPECT_EQ(format_text(two_findings(), 1, style),
            "t.json:3:17: error: `duration` must be an integer, found a string [schema]\n"
            " 3 |     \"duration\": \"5\",\n"
            "   |                 ^\n"
            "t.json:12:5: warning: duplicate key \"title\" [duplicate-key]\n"
            " 12 |     \"title\": \"x\"\n"
            "    |     ^\n"
            "1 file checked: 1 error, 1 warning, 0 info\n");
}

TEST(TextOutput, ColourMarksPathAndSeverity) {
  TextStyle style;
  style.excerpt = true;
  style.colour = true;
  std::string out = format_text(two_findings(), 1, style);
  EXPECT_NE(out.find("\033[1mt.json:3:17: \033[0m\033[1;31merror\033[0m: "), std::string::npos) << out;
  EXPECT_NE(out.find("\033[1;35mwarning\033[0m"), std::string::npos);
  EXPECT_NE(out.find("\033[1;31m^\033[0m"), std::string::npos);
}

TEST(Excerpt, LongLinesAreCutAroundTheColumnByCharacters) {
  std::string line = std::string(200, 'a') + "é" + std::string(200, 'b');
  auto [text, column] = make_excerpt(line, 200);  // the é
  EXPECT_EQ(text.substr(0, 3), "…");
  EXPECT_EQ(text.substr(text.size() - 3), "…");
  // The caret column, counted in characters of the excerpt, lands on the é.
  std::size_t chars = 0, at = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (++chars == column) at = i;
  }
  EXPECT_EQ(text.substr(at, 2), "é");
  auto [short_text, short_column] = make_excerpt("[1,\r\n abc]\n", 6);
  EXPECT_EQ(short_text, " abc]");
  EXPECT_EQ(short_column, 2u);
}

TEST(JsonOutput, OneObjectWithFilesDiagnosticsAndSummary) {
  std::string out = format_json(two_findings(), 1);
  json::Document doc = json::Document::parse(out);
  ASSERT_TRUE(doc.ok()) << out;
  EXPECT_EQ(doc.root().find("files")->text(), "1");
  auto diagnostics = doc.root().find("diagnostics")->items();
  ASSERT_EQ(diagnostics.size(), 2u);
  const json::Value& first = diagnostics[0];
  EXPECT_EQ(first.find("path")->text(), "t.json");
  EXPECT_EQ(first.find("line")->text(), "3");
  EXPECT_EQ(first.find("column")->text(), "17");
  EXPECT_EQ(first.find("severity")->text(), "error");
  EXPECT_EQ(first.find("rule")->text(), "schema");
  EXPECT_EQ(first.find("message")->text(), "`duration` must be an integer, found a string");
  EXPECT_EQ(first.find("pointer")->text(), "/0/duration");
  EXPECT_EQ(doc.root().find("summary")->find("error")->text(), "1");
  EXPECT_EQ(doc.root().find("summary")->find("warning")->text(), "1");
  EXPECT_EQ(doc.root().find("summary")->find("info")->text(), "0");
}

}  // namespace
}  // namespace ptmpl
