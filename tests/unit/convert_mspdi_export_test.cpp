// Template → MS Project XML, byte for byte: text is escaped and laid out as pugixml saves a
// document with two-space indentation (what the export wrote before it wrote the text itself,
// and what MS Project, ProjectLibre and our reader have read), so a change in escaping or
// layout shows here.
#include <gtest/gtest.h>

#include <pugixml.hpp>

#include <cstdio>
#include <sstream>
#include <string>

#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/template_file.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

using testing::expect_golden;
using testing::read_source;

std::string exported_xml(const std::string& name, const std::string& text) {
  const TemplateFile file = TemplateFile::parse(name, FileText(text));
  auto exported = export_mspdi(file, ExportOptions{.start = *parse_date("2027-01-04")});
  EXPECT_TRUE(exported.ok()) << (exported.ok() ? "" : exported.error().message);
  return exported.ok() ? exported.value().document : std::string();
}

// `& < > " '`, tab, CR, LF, control characters, non-ASCII and emoji in the project's title,
// story titles, descriptions and a resource name; an empty title.
TEST(ConvertMspdiExport, EscapesTextAsTheGoldenShows) {
  const std::string relative = "tests/data/mspdi/export-escaping.json";
  expect_golden("tests/golden/convert/export-escaping.xml", exported_xml(relative, read_source(relative)));
}

// A link the schedule skips has no place in the export either: before, a lag that is not an
// integer was written as LinkLag 0.
TEST(ConvertMspdiExport, ALinkWhoseLagIsNotAnIntegerIsDroppedAndReported) {
  const TemplateFile file = TemplateFile::parse("t.json", FileText(std::string(R"([
    {"title": "a", "temp_id": 1, "duration": 1, "dependencies": [
      {"source_id": 1, "target_id": 2, "type": 2, "lag": 1},
      {"source_id": 1, "target_id": 3, "type": 2, "lag": "2"}]},
    {"title": "b", "temp_id": 2, "duration": 1},
    {"title": "c", "temp_id": 3, "duration": 1}])")));
  auto exported = export_mspdi(file, ExportOptions{.start = *parse_date("2027-01-04")});
  ASSERT_TRUE(exported.ok()) << exported.error().message;
  const std::string& xml = exported.value().document;
  std::size_t links = 0;
  for (std::size_t at = xml.find("<PredecessorLink>"); at != std::string::npos;
       at = xml.find("<PredecessorLink>", at + 1))
    ++links;
  EXPECT_EQ(links, 1u);
  std::size_t dropped = 0;
  for (const Diagnostic& d : exported.value().diagnostics) {
    if (d.rule != "mspdi-export-dropped" || d.pointer != "/0/dependencies/1") continue;
    ++dropped;
    EXPECT_EQ(d.message, "a dependency that is invalid (see `ptmpl lint`) has no place in MS Project XML");
  }
  EXPECT_EQ(dropped, 1u);
}

// Every ASCII character, and characters of two and four bytes, in a task name: `&`, `<` and `>`
// as entities; the C0 controls XML 1.0 cannot hold, not even as references, as U+FFFD (pugixml
// would write `&#01;`, which a conforming reader refuses); everything else as it is. The file
// reads back with the replacement in place of each control.
TEST(ConvertMspdiExport, EscapesEveryCharacterAndWritesNoReferenceXmlForbids) {
  std::string json_title;
  std::string expected;
  std::string read_back;
  for (int c = 1; c < 0x80; ++c) {
    char escaped[8];
    std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
    json_title += escaped;
    const bool forbidden = c < 0x20 && c != '\t' && c != '\n' && c != '\r';
    if (forbidden) {
      expected += "\xEF\xBF\xBD";
    } else if (c == '&') {
      expected += "&amp;";
    } else if (c == '<') {
      expected += "&lt;";
    } else if (c == '>') {
      expected += "&gt;";
    } else {
      expected += static_cast<char>(c);
    }
    // An XML reader turns a CR in element text into LF (XML 1.0 §2.11).
    read_back += forbidden ? std::string("\xEF\xBF\xBD") : std::string(1, c == '\r' ? '\n' : static_cast<char>(c));
  }
  expected += "\xC3\xA9\xF0\x9F\x9A\x80";  // é and 🚀
  read_back += "\xC3\xA9\xF0\x9F\x9A\x80";
  json_title += "\\u00e9\\ud83d\\ude80";
  const std::string xml = exported_xml("all.json", R"([{"title": ")" + json_title + R"("}])");
  EXPECT_NE(xml.find("\n      <Name>" + expected + "</Name>\n"), std::string::npos) << expected << "\nnot in\n" << xml;
  EXPECT_EQ(xml.find("&#"), std::string::npos) << xml;

  pugi::xml_document document;
  ASSERT_TRUE(document.load_string(xml.c_str()));
  std::string names;
  for (pugi::xml_node t : document.child("Project").child("Tasks").children("Task"))
    names += std::string(t.child_value("Name")) + "|";
  EXPECT_NE(names.find(read_back), std::string::npos) << names;
}

}  // namespace
}  // namespace ptmpl
