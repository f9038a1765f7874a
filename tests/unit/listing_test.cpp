// What `ptmpl list` prints and the names `ptmpl pull` gives files (libtemplate/publish/publish.hpp),
// and the terminal width of text they and the previews rely on (text/text_width.hpp).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "libtemplate/publish/publish.hpp"
#include "text/text_width.hpp"

namespace ptmpl {
namespace {

publish::RemoteTemplate remote(std::int64_t id, const std::string& title, const std::string& fields) {
  publish::RemoteTemplate t;
  t.id = id;
  t.title = title;
  t.updated_at = "2026-01-0" + std::to_string(id) + "T00:00:00.000Z";
  t.json = R"({"id":)" + std::to_string(id) + R"(,"title":"x")" + fields + "}";
  return t;
}

/// The column at which `needle` starts on `line`, counted in terminal columns.
std::size_t column_of(const std::string& line, const std::string& needle) {
  return display_width(line.substr(0, line.find(needle)));
}

TEST(TextWidth, WideCharactersTakeTwoColumnsAndCombiningMarksNone) {
  EXPECT_EQ(display_width("Zürich"), 6u);
  EXPECT_EQ(display_width("Zu\u0308rich"), 6u);  // u + combining diaeresis
  EXPECT_EQ(display_width("東京 launch"), 11u);
  EXPECT_EQ(display_width("🚀 go"), 5u);
  EXPECT_EQ(display_width("\xFF"), 1u);  // a byte that is not UTF-8 still takes a column
  EXPECT_EQ(pad_right("東京", 6), "東京  ");
  // Cut to the columns given, never through a character; a wide one that would pass the
  // width is left out whole.
  EXPECT_EQ(truncate_to_width("東京都庁舎", 6), "東京…");
  EXPECT_EQ(display_width(truncate_to_width("東京都庁舎", 6)), 5u);
  EXPECT_EQ(truncate_to_width("Zürich office move", 7), "Zürich…");
}

TEST(ListTable, ColumnsLineUpInTerminalColumnsWhateverTheTitlesHold) {
  const std::vector<publish::RemoteTemplate> templates = {
      remote(1, "Zürich office move", R"(,"item_count":3,"duration":20,"shared":true)"),
      remote(2, "東京 launch", R"(,"item_count":12,"duration":5,"shared":false)"),
      remote(3, "Plain\ttitle\x1b[31m", R"(,"duration":null)"), remote(4, std::string(70, 'x'), "")};
  const std::string table = publish::list_table(templates);
  std::istringstream in(table);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 5u) << table;
  EXPECT_EQ(lines[0].substr(0, 14), "ID      TITLE ");
  // Every column starts where the header's does: the widest title is 60 columns, cut with "…".
  const std::size_t items = column_of(lines[0], "ITEMS"), updated = column_of(lines[0], "UPDATED");
  EXPECT_EQ(items, 8u + 60u + 2u);
  EXPECT_EQ(column_of(lines[1], "3 "), items) << table;
  EXPECT_EQ(column_of(lines[2], "12 "), items) << table;
  EXPECT_EQ(column_of(lines[1], "2026-"), updated) << table;
  EXPECT_EQ(column_of(lines[2], "2026-"), updated) << table;
  EXPECT_EQ(column_of(lines[3], "2026-"), updated) << table;
  EXPECT_NE(lines[1].find("Zürich office move"), std::string::npos);
  EXPECT_NE(lines[1].find("yes"), std::string::npos);
  EXPECT_NE(lines[2].find("no"), std::string::npos);
  // Control characters of a title cannot drive the terminal.
  EXPECT_EQ(table.find('\x1b'), std::string::npos) << table;
  EXPECT_NE(lines[3].find("Plain title [31m"), std::string::npos) << table;
  EXPECT_NE(lines[4].find(std::string(59, 'x') + "…"), std::string::npos) << table;
}

TEST(ListTable, AnIdOfNineteenDigitsKeepsTheTitleInItsOwnColumn) {
  const std::string table =
      publish::list_table({remote(INT64_MAX, "Widest id", ""), remote(7, "Short id", R"(,"item_count":3)")});
  std::istringstream in(table);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 3u) << table;
  const std::size_t title = column_of(lines[0], "TITLE");
  EXPECT_EQ(title, 19u + 2u) << table;
  EXPECT_EQ(lines[1].substr(0, title), "9223372036854775807  ") << table;
  EXPECT_EQ(column_of(lines[1], "Widest id"), title) << table;
  EXPECT_EQ(column_of(lines[2], "Short id"), title) << table;
  EXPECT_EQ(column_of(lines[2], "3 "), column_of(lines[0], "ITEMS")) << table;
}

TEST(PulledFileName, AccentedLettersAreWrittenWithoutTheirMarks) {
  EXPECT_EQ(publish::pulled_file_name(4, "Zürich office move"), "4-zurich-office-move.json");
  EXPECT_EQ(publish::pulled_file_name(5, "Straße / Œuvre — Ĳssel & Łódź"), "5-strasse-oeuvre-ijssel-lodz.json");
  EXPECT_EQ(publish::pulled_file_name(6, "Crème brûlée: Q3 (v2)!"), "6-creme-brulee-q3-v2.json");
  EXPECT_EQ(publish::pulled_file_name(7, "東京"), "7-template.json");  // nothing to spell in ASCII
  EXPECT_EQ(publish::pulled_file_name(8, "東京 launch"), "8-launch.json");
  EXPECT_EQ(publish::pulled_file_name(9, "\xFF\xFE bad bytes"), "9-bad-bytes.json");
  const std::string long_name = publish::pulled_file_name(10, std::string(30, 'a') + " " + std::string(40, 'b'));
  EXPECT_EQ(long_name, "10-" + std::string(30, 'a') + "-" + std::string(29, 'b') + ".json");
}

}  // namespace
}  // namespace ptmpl
