#include "convert/xml_writer.hpp"

#include <utility>

namespace ptmpl::detail {

namespace {

// pugixml's escaping of a character below U+0020: `&#` and always two decimal digits
// (`&#01;`, `&#31;`), which is what its save writes and its parse reads back.
void append_control(std::string& out, unsigned char c) {
  const char reference[] = {'&', '#', static_cast<char>('0' + c / 10), static_cast<char>('0' + c % 10), ';'};
  out.append(reference, sizeof reference);
}

// pugixml keeps text as C strings: what follows a NUL was never saved.
std::string_view up_to_nul(std::string_view text) {
  const std::size_t nul = text.find('\0');
  return nul == std::string_view::npos ? text : text.substr(0, nul);
}

}  // namespace

void XmlWriter::declaration() {
  new_line();
  text_ += "<?xml";
  open_tag_ = Open::Declaration;
}

void XmlWriter::start_element(std::string_view name) {
  new_line();
  text_ += '<';
  text_ += name;
  open_.push_back(name);
  open_tag_ = Open::Element;
}

void XmlWriter::attribute(std::string_view name, std::string_view value) {
  text_ += ' ';
  text_ += name;
  text_ += "=\"";
  append_escaped(value, true);
  text_ += '"';
}

void XmlWriter::end_element() {
  const std::string_view name = open_.back();
  open_.pop_back();
  if (open_tag_ == Open::Element) {
    text_ += " />";
    open_tag_ = Open::Nothing;
    return;
  }
  text_ += '\n';
  text_.append(open_.size() * 2, ' ');
  text_ += "</";
  text_ += name;
  text_ += '>';
}

void XmlWriter::element(std::string_view name, std::string_view text) {
  new_line();
  text_ += '<';
  text_ += name;
  text_ += '>';
  append_escaped(text, false);
  text_ += "</";
  text_ += name;
  text_ += '>';
}

std::string XmlWriter::finish() {
  close_open_tag();
  text_ += '\n';
  open_.clear();
  return std::exchange(text_, std::string());
}

void XmlWriter::close_open_tag() {
  if (open_tag_ == Open::Declaration) text_ += "?>";
  if (open_tag_ == Open::Element) text_ += '>';
  open_tag_ = Open::Nothing;
}

void XmlWriter::new_line() {
  close_open_tag();
  if (!text_.empty()) text_ += '\n';
  text_.append(open_.size() * 2, ' ');
}

// pugixml's escaping. Element text: `&`, `<` and `>` as entities, a character below U+0020
// other than tab, LF and CR as a character reference; quotes, and every byte from 0x7F up, as
// they are. An attribute value (between double quotes): `&`, `<` and `"` as entities, every
// character below U+0020 (tab, LF and CR too) as a character reference; `>` and `'` as they are.
void XmlWriter::append_escaped(std::string_view text, bool attribute) {
  text = up_to_nul(text);
  std::size_t run = 0;  // the start of the bytes not yet appended
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const bool special = c < 0x20 ? attribute || (c != '\t' && c != '\n' && c != '\r')
                                  : c == '&' || c == '<' || c == (attribute ? '"' : '>');
    if (!special) continue;
    text_.append(text.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '&':
        text_ += "&amp;";
        break;
      case '<':
        text_ += "&lt;";
        break;
      case '>':
        text_ += "&gt;";
        break;
      case '"':
        text_ += "&quot;";
        break;
      default:
        append_control(text_, c);
    }
  }
  text_.append(text.data() + run, text.size() - run);
}

}  // namespace ptmpl::detail
