// What `ptmpl list` prints as a table and the names `ptmpl pull` gives new files: text made
// for people, measured in terminal columns and spelt in plain ASCII where a name must be.
#include <algorithm>
#include <array>
#include <cctype>
#include <string>

#include "libtemplate/core/json.hpp"
#include "libtemplate/publish/publish.hpp"
#include "text/text_width.hpp"

namespace ptmpl::publish {

namespace {

/// A stored field of the service's template object as the table shows it: "yes"/"no" for a
/// boolean, the value's text otherwise, "" when absent or null.
std::string field_text(const json::Value& object, const char* key) {
  const json::Value* v = object.find(key);
  if (v == nullptr || v->is_null()) return "";
  if (auto b = v->as_bool()) return *b ? "yes" : "no";
  return std::string(v->text());
}

/// Plain ASCII for the Latin letters of U+00C0–U+017F (lower case): "ü" → "u", "ß" → "ss",
/// "Œ" → "oe"; "" for anything else (the signs × and ÷ among them).
std::string_view ascii_of(char32_t cp) {
  static constexpr std::array<std::string_view, 64> kLatin1 = {
      "a", "a", "a", "a", "a", "a", "ae", "c", "e",  "e",  "e", "e", "i", "i", "i", "i", "d",  "n", "o",  "o", "o", "o",
      "o", "",  "o", "u", "u", "u", "u",  "y", "th", "ss", "a", "a", "a", "a", "a", "a", "ae", "c", "e",  "e", "e", "e",
      "i", "i", "i", "i", "d", "n", "o",  "o", "o",  "o",  "o", "",  "o", "u", "u", "u", "u",  "y", "th", "y"};
  // U+0100–U+017F, one letter each but for the ligatures Ĳ ĳ and Œ œ (marked '*').
  static constexpr std::string_view kExtendedA =
      "aaaaaaccccccccdd"
      "ddeeeeeeeeeegggg"
      "gggghhhhiiiiiiii"
      "ii**jjkkklllllll"
      "lllnnnnnnnnnoooo"
      "oo**rrrrrrssssss"
      "ssttttttuuuuuuuu"
      "uuuuwwyyyzzzzzzs";
  if (cp >= 0xC0 && cp <= 0xFF) return kLatin1[cp - 0xC0];
  if (cp >= 0x100 && cp <= 0x17F) {
    if (cp == 0x132 || cp == 0x133) return "ij";
    if (cp == 0x152 || cp == 0x153) return "oe";
    return kExtendedA.substr(cp - 0x100, 1);
  }
  return "";
}

}  // namespace

std::string list_table(const std::vector<RemoteTemplate>& templates) {
  constexpr std::size_t kTitleWidth = 60;
  struct Line {
    std::string id, title, items, duration, shared, updated;
  };
  std::vector<Line> lines;
  lines.reserve(templates.size());
  std::size_t id_width = 6;  // the ids' column, without the 2 spaces after it
  std::size_t width = 5;     // "TITLE"
  for (const RemoteTemplate& t : templates) {
    json::Document doc = json::Document::parse(t.json);
    const json::Value& object = doc.root();
    Line line{std::to_string(t.id),
              truncate_to_width(one_line(t.title), kTitleWidth),
              doc.ok() ? field_text(object, "item_count") : "",
              doc.ok() ? field_text(object, "duration") : "",
              doc.ok() ? field_text(object, "shared") : "",
              one_line(t.updated_at)};
    width = std::max(width, display_width(line.title));
    id_width = std::max(id_width, line.id.size());
    lines.push_back(std::move(line));
  }
  auto row = [&](const Line& l) {
    return pad_right(l.id, id_width + 2) + pad_right(l.title, width + 2) + pad_right(l.items, 7) +
           pad_right(l.duration, 10) + pad_right(l.shared, 8) + l.updated + "\n";
  };
  std::string out = row({"ID", "TITLE", "ITEMS", "DURATION", "SHARED", "UPDATED"});
  for (const Line& l : lines) out += row(l);
  return out;
}

std::string pulled_file_name(std::int64_t id, std::string_view title) {
  constexpr std::size_t kSlugLength = 60;
  std::string slug;
  for (std::size_t at = 0; at < title.size() && slug.size() < kSlugLength;) {
    const char32_t cp = next_code_point(title, at);
    if (cp < 0x80 && std::isalnum(static_cast<int>(cp)) != 0) {
      slug += static_cast<char>(std::tolower(static_cast<int>(cp)));
    } else if (const std::string_view letters = ascii_of(cp); !letters.empty()) {
      slug += letters;
    } else if (!slug.empty() && slug.back() != '-') {
      slug += '-';  // anything else separates words
    }
  }
  if (slug.size() > kSlugLength) slug.resize(kSlugLength);
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  return std::to_string(id) + "-" + (slug.empty() ? "template" : slug) + ".json";
}

}  // namespace ptmpl::publish
