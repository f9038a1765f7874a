// Template → MS Project XML, byte for byte: text is escaped and laid out as pugixml saves a
// document with two-space indentation (what the export wrote before it wrote the text itself,
// and what MS Project, ProjectLibre and our reader have read), so a change in escaping or
// layout shows here.
#include <gtest/gtest.h>

#include <pugixml.hpp>

#include <cstdio>
#include <sstream>
#include <string>

#include "libtemplate/convert.hpp"
#include "libtemplate/template_file.hpp"
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

// Every ASCII character, and characters of two and four bytes, in a task name: escaped as
// pugixml escapes the same text.
TEST(ConvertMspdiExport, EscapesEveryCharacterAsPugixmlDoes) {
  std::string title;
  std::string json_title;
  for (int c = 1; c < 0x80; ++c) {
    title += static_cast<char>(c);
    char escaped[8];
    std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
    json_title += escaped;
  }
  title += "\xC3\xA9\xF0\x9F\x9A\x80";  // é and 🚀
  json_title += "\\u00e9\\ud83d\\ude80";
  const std::string xml = exported_xml("all.json", R"([{"title": ")" + json_title + R"("}])");

  pugi::xml_document expected;
  expected.append_child("Name").text().set(title.c_str());
  std::ostringstream saved;
  expected.save(saved, "  ", pugi::format_indent | pugi::format_no_declaration, pugi::encoding_utf8);
  const std::string element = saved.str().substr(0, saved.str().size() - 1);  // without its new line
  EXPECT_NE(xml.find("\n      " + element + "\n"), std::string::npos) << element << "\nnot in\n" << xml;
}

}  // namespace
}  // namespace ptmpl
