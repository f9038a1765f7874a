// XML text laid out as pugixml saves a document with
// `save(out, "  ", pugi::format_indent, pugi::encoding_utf8)`, written straight into one string
// instead of built as a tree first: the MSPDI export of a large plan is most of its cost in the
// tree. Private to the converters.
//
// The layout: every tag on its own line, two spaces per level; an element holding text on one
// line (`<Name>text</Name>`, `<Name></Name>` when the text is empty); an element holding
// nothing as `<Name />`; a new line at the end. Element and attribute names are literals that
// need no escaping; text and values go through the one XML escaper (`xml_escape.hpp`), which,
// unlike pugixml, writes no character reference XML 1.0 forbids (`&#01;`).
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ptmpl::detail {

class XmlWriter {
 public:
  /// `expected_size`: how much text to make room for at once (a guess; the text grows past it).
  explicit XmlWriter(std::size_t expected_size) { text_.reserve(expected_size); }

  /// `<?xml`, then the attributes given next, then `?>`. At most one, before everything else.
  void declaration();
  /// `<name`, then the attributes given next; its content follows until end_element().
  void start_element(std::string_view name);
  /// ` name="value"` on the declaration or element just started.
  void attribute(std::string_view name, std::string_view value);
  /// `</name>` of the innermost element started, or ` />` when it holds nothing.
  void end_element();
  /// `<name>text</name>`.
  void element(std::string_view name, std::string_view text);
  void element(std::string_view name, std::int64_t n);

  /// The text, with its final newline; the writer is left empty.
  [[nodiscard]] std::string finish();

 private:
  // Closes the tag left open for attributes, and starts a line at the current depth.
  void new_line();
  void close_open_tag();

  enum class Open { Nothing, Declaration, Element };

  std::string text_;
  std::vector<std::string_view> open_;  // the elements started and not ended, outermost first
  Open open_tag_ = Open::Nothing;       // a tag whose `>` is not written yet
};

inline void XmlWriter::element(std::string_view name, std::int64_t n) {
  char digits[20];
  const std::size_t length = static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, n).ptr - digits);
  new_line();
  text_ += '<';
  text_ += name;
  text_ += '>';
  text_.append(digits, length);
  text_ += "</";
  text_ += name;
  text_ += '>';
}

}  // namespace ptmpl::detail
