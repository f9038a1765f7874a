#include "convert/xml_writer.hpp"

#include <utility>

#include "output/xml_escape.hpp"

namespace ptmpl::detail {

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
  append_xml_escaped(text_, value, XmlContext::Attribute);
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
  append_xml_escaped(text_, text, XmlContext::Text);
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

}  // namespace ptmpl::detail
