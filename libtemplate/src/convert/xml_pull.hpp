// XML read a token at a time, without a tree: for parts whose tree would take many times their
// size (a workbook's sheet of 50,000 rows is 20 MB of XML and 2 million elements). Elements by
// their local names (`x:row` is `row`), attributes by theirs, text with its references decoded.
// What it refuses is what load_xml (xml_text.hpp) refuses: text that is not well-formed (tags
// that do not match, a second root, markup left open), a NUL byte, a character reference to no
// character, bytes that are not UTF-8. It reads UTF-8 only; `as_utf8_xml` turns a part in
// another encoding into UTF-8 first. A document type declaration is skipped, its entities
// are not expanded (as pugixml does). Private to the converters.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "libtemplate/core/result.hpp"

namespace ptmpl::detail {

/// Whether two names are the same. Names are a few bytes long: a loop over them is several
/// times faster than string_view's ==, which calls memcmp (a sixth of a sheet's reading).
[[nodiscard]] inline bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

class XmlPull {
 public:
  enum class Token : std::uint8_t {
    Open,   ///< an element begins: name(), attribute()
    Close,  ///< an element ends (an empty one `<c/>` right after its Open): name()
    Text,   ///< character data or a CDATA section inside an element: text()
    End,    ///< after the root element, nothing more
    Error,  ///< not well-formed here: error()
  };

  /// Reads `text` (UTF-8), which must outlive the reader.
  explicit XmlPull(std::string_view text);

  [[nodiscard]] Token next();

  /// The local name of the element of the last Open or Close.
  [[nodiscard]] std::string_view name() const { return name_; }
  /// The value of the last Open's attribute whose local name is `local`, references decoded;
  /// nullopt when it has none. Valid until next().
  [[nodiscard]] std::optional<std::string_view> attribute(std::string_view local) const;
  /// The text of the last Text token, references decoded and line ends made `\n`.
  [[nodiscard]] const std::string& text() const { return text_; }
  /// How many elements are open (the root's children are at depth 2 once opened).
  [[nodiscard]] std::size_t depth() const { return open_.size(); }

  /// After Error: what is wrong ("a closing tag </row> where </c> closes the open element")
  /// and its offset in the text.
  [[nodiscard]] std::pair<std::size_t, const std::string&> error() const { return {error_at_, error_}; }

 private:
  Token fail(std::size_t at, std::string what);
  Token open_element();
  Token close_element();
  Token character_data();
  // Appends `raw` to `out` with references decoded and line ends made `\n` (and, for an
  // attribute, tabs and line ends made spaces); false, with the error set, at a reference to
  // no character.
  bool decode(std::string_view raw, std::size_t at, bool attribute, std::string& out);
  // Past the markup at pos_ that ends with `close`; false, with the error set, if it does not.
  bool skip_past(std::string_view close, std::string_view what);

  std::string_view input_;
  std::size_t pos_ = 0;
  std::vector<std::string_view> open_;  // qualified names of the open elements
  std::string_view name_;
  std::vector<std::pair<std::string_view, std::string_view>> attributes_;  // local name, value
  std::deque<std::string> decoded_;  // attribute values that had references, for this Open
  std::string text_;
  bool close_next_ = false;  // the last Open was an empty element
  bool root_seen_ = false;
  bool checked_ = false;  // the whole text: no NUL byte, UTF-8
  std::string error_;
  std::size_t error_at_ = 0;
};

/// `bytes` as UTF-8 XML for XmlPull: as they are when they are UTF-8 (a byte order mark is
/// skipped; a declaration names UTF-8 or no encoding), else converted by pugixml from the
/// encoding it finds (UTF-16, UTF-32, ISO-8859-1), which load_xml checks first. Fails as
/// load_xml does, naming `path`.
[[nodiscard]] Result<std::string> as_utf8_xml(std::string bytes, const std::string& path);

}  // namespace ptmpl::detail
