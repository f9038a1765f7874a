#include "convert/xml_pull.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <sstream>

#include <pugixml.hpp>

#include "convert/cfb/little_endian.hpp"
#include "convert/xml_text.hpp"
#include "libtemplate/core/json.hpp"

namespace ptmpl::detail {

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// Where a name ends: at a space, `/`, `>`, `=`, or markup that cannot be part of it. A table:
// names are most of what a sheet's markup is.
constexpr auto kEndsName = [] {
  std::array<bool, 256> ends{};
  for (const unsigned char c : std::string_view(" \t\n\r/>=<\"'")) ends[c] = true;
  return ends;
}();
bool ends_name(char c) {
  return kEndsName[static_cast<unsigned char>(c)];
}

// The first character of `text` from `from` on that decoding changes (a reference, a line end,
// a tab), or npos. (string_view::find_first_of looks each character up in the set with memchr.)
std::size_t find_special(std::string_view text, std::size_t from) {
  for (std::size_t i = from; i < text.size(); ++i)
    if (const char c = text[i]; c == '&' || c == '\r' || c == '\t' || c == '\n') return i;
  return std::string_view::npos;
}

std::string_view local(std::string_view name) {
  const std::size_t colon = name.rfind(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

// The character a reference at the start of `text` (`&amp;`, `&#38;`, `&#x26;`) names, and the
// reference's length; {0, 0} when none starts there (a lone `&` or an unknown entity, kept as
// written). A number too large saturates past U+10FFFF (character_reference).
std::pair<std::uint32_t, std::size_t> reference(std::string_view text) {
  static constexpr std::pair<std::string_view, char> kNamed[] = {
      {"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&apos;", '\''}};
  for (const auto& [spelled, c] : kNamed)
    if (text.starts_with(spelled)) return {static_cast<std::uint32_t>(c), spelled.size()};
  const auto numeric = text.starts_with("&#") ? character_reference(text, 0) : std::nullopt;
  if (!numeric) return {0, 0};
  return {static_cast<std::uint32_t>(numeric->first), numeric->second};
}

}  // namespace

XmlPull::XmlPull(std::string_view text) : input_(text) {
  if (input_.starts_with("\xEF\xBB\xBF")) pos_ = 3;
}

XmlPull::Token XmlPull::fail(std::size_t at, std::string what) {
  error_at_ = at;
  error_ = std::move(what);
  pos_ = input_.size();
  open_.clear();
  root_seen_ = true;
  return Token::Error;
}

std::optional<std::string_view> XmlPull::attribute(std::string_view local_name) const {
  for (const auto& [name, value] : attributes_)
    if (same_name(name, local_name)) return value;
  return std::nullopt;
}

bool XmlPull::skip_past(std::string_view close, std::string_view what) {
  const std::size_t end = input_.find(close, pos_);
  if (end == std::string_view::npos) {
    fail(pos_, std::string(what) + " that does not end (no \"" + std::string(close) + "\")");
    return false;
  }
  pos_ = end + close.size();
  return true;
}

bool XmlPull::decode(std::string_view raw, std::size_t at, bool attribute, std::string& out) {
  for (std::size_t i = 0; i < raw.size();) {
    const std::size_t plain = find_special(raw, i);
    out.append(raw.substr(i, plain == std::string_view::npos ? raw.size() - i : plain - i));
    if (plain == std::string_view::npos) break;
    i = plain;
    const char c = raw[i];
    if (c == '&') {
      const auto [code, length] = reference(raw.substr(i));
      if (length == 0) {
        out += '&';
        ++i;
        continue;
      }
      if (code == 0 || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF) {
        fail(at + i,
             std::string(raw.substr(i, length)) + " refers to no character (0, a surrogate or beyond U+10FFFF)");
        return false;
      }
      cfb::append_utf8(out, code);
      i += length;
    } else if (c == '\r') {  // `\r\n` and a lone `\r` are one line end (XML 1.0 §2.11)
      out += attribute ? ' ' : '\n';
      i += i + 1 < raw.size() && raw[i + 1] == '\n' ? 2 : 1;
    } else {
      out += attribute ? ' ' : c;
      ++i;
    }
  }
  return true;
}

XmlPull::Token XmlPull::next() {
  if (close_next_) {
    close_next_ = false;
    open_.pop_back();
    return Token::Close;
  }
  if (!checked_) {
    checked_ = true;
    if (const void* nul = std::memchr(input_.data(), '\0', input_.size()))
      return fail(static_cast<std::size_t>(static_cast<const char*>(nul) - input_.data()),
                  "a NUL byte, which XML text cannot hold");
    if (const auto bad = json::invalid_utf8_offset(input_)) return fail(*bad, "bytes that are not UTF-8");
  }
  while (pos_ < input_.size()) {
    const std::string_view rest = input_.substr(pos_);
    if (rest.front() != '<') {
      if (!open_.empty()) return character_data();
      const std::size_t text = rest.find_first_not_of(" \t\r\n");
      if (text == std::string_view::npos) break;
      if (rest[text] != '<') return fail(pos_ + text, "text outside the root element");
      pos_ += text;
      continue;
    }
    const char second = rest.size() > 1 ? rest[1] : '\0';
    if (second == '/') return close_element();
    if (second != '!' && second != '?') return open_element();
    if (rest.starts_with("<!--")) {
      if (!skip_past("-->", "a comment")) return Token::Error;
    } else if (rest.starts_with("<![CDATA[")) {
      if (open_.empty()) return fail(pos_, "a CDATA section outside the root element");
      const std::size_t from = pos_ + 9;
      pos_ = from;
      if (!skip_past("]]>", "a CDATA section")) return Token::Error;
      text_.clear();
      const std::string_view raw = input_.substr(from, pos_ - 3 - from);
      for (std::size_t i = 0; i < raw.size(); ++i) {  // line ends only: a CDATA section has no references
        if (raw[i] != '\r') {
          text_ += raw[i];
        } else if (i + 1 >= raw.size() || raw[i + 1] != '\n') {
          text_ += '\n';
        }
      }
      return Token::Text;
    } else if (rest.starts_with("<?")) {
      if (!skip_past("?>", "a processing instruction")) return Token::Error;
    } else if (rest.starts_with("<!")) {
      if (root_seen_) return fail(pos_, "a declaration (\"<!\") inside the document");
      // A document type declaration: to its `>`, past an internal subset in brackets.
      std::size_t end = rest.find_first_of("[>");
      if (end != std::string_view::npos && rest[end] == '[') {
        end = rest.find(']', end);
        if (end != std::string_view::npos) end = rest.find('>', end);
      }
      if (end == std::string_view::npos) return fail(pos_, "a document type declaration that does not end");
      pos_ += end + 1;
    }
  }
  if (!open_.empty())
    return fail(input_.size(), "the text ends inside <" + std::string(open_.back()) + ">, which is not closed");
  if (!root_seen_) return fail(input_.size(), "no root element");
  return Token::End;
}

XmlPull::Token XmlPull::open_element() {
  const std::size_t at = pos_;
  if (root_seen_ && open_.empty()) return fail(at, "a second root element");
  std::size_t i = pos_ + 1;
  while (i < input_.size() && !ends_name(input_[i])) ++i;
  const std::string_view name = input_.substr(pos_ + 1, i - pos_ - 1);
  if (name.empty()) return fail(at, "a \"<\" that begins no element name");
  attributes_.clear();
  decoded_.clear();
  for (;;) {
    while (i < input_.size() && is_space(input_[i])) ++i;
    if (i >= input_.size()) return fail(at, "the tag <" + std::string(name) + " does not end");
    if (input_[i] == '>' || input_.substr(i).starts_with("/>")) {
      close_next_ = input_[i] == '/';
      pos_ = i + (close_next_ ? 2 : 1);
      break;
    }
    const std::size_t name_from = i;
    while (i < input_.size() && !ends_name(input_[i])) ++i;
    const std::string_view attribute = input_.substr(name_from, i - name_from);
    while (i < input_.size() && is_space(input_[i])) ++i;
    if (attribute.empty() || i >= input_.size() || input_[i] != '=')
      return fail(name_from, "an attribute of <" + std::string(name) + "> without \"=\" and a value");
    ++i;
    while (i < input_.size() && is_space(input_[i])) ++i;
    if (i >= input_.size() || (input_[i] != '"' && input_[i] != '\''))
      return fail(i, "the value of the attribute " + std::string(attribute) + " is not in quotes");
    const std::size_t end = input_.find(input_[i], i + 1);
    if (end == std::string_view::npos)
      return fail(i, "the value of the attribute " + std::string(attribute) + " does not end");
    const std::string_view raw = input_.substr(i + 1, end - i - 1);
    if (const std::size_t lt = raw.find('<'); lt != std::string_view::npos)
      return fail(i + 1 + lt, "a \"<\" in the value of the attribute " + std::string(attribute));
    std::string_view value = raw;
    if (find_special(raw, 0) != std::string_view::npos) {
      if (!decode(raw, i + 1, true, decoded_.emplace_back())) return Token::Error;
      value = decoded_.back();
    }
    attributes_.emplace_back(local(attribute), value);
    i = end + 1;
    if (i < input_.size() && !is_space(input_[i]) && input_[i] != '>' && input_[i] != '/')
      return fail(i, "no white space after the value of the attribute " + std::string(attribute));
  }
  open_.push_back(name);
  root_seen_ = true;
  name_ = local(name);
  return Token::Open;
}

XmlPull::Token XmlPull::close_element() {
  const std::size_t at = pos_;
  std::size_t i = pos_ + 2;
  while (i < input_.size() && !ends_name(input_[i])) ++i;
  const std::string_view name = input_.substr(pos_ + 2, i - pos_ - 2);
  while (i < input_.size() && is_space(input_[i])) ++i;
  if (i >= input_.size() || input_[i] != '>')
    return fail(at, "the closing tag </" + std::string(name) + " does not end");
  if (open_.empty() || !same_name(open_.back(), name))
    return fail(at, "a closing tag </" + std::string(name) + "> where " +
                        (open_.empty() ? std::string("no element is open")
                                       : "</" + std::string(open_.back()) + "> closes the open element"));
  open_.pop_back();
  pos_ = i + 1;
  name_ = local(name);
  return Token::Close;
}

XmlPull::Token XmlPull::character_data() {
  const std::size_t end = std::min(input_.find('<', pos_), input_.size());
  const std::string_view raw = input_.substr(pos_, end - pos_);
  text_.clear();
  if (!decode(raw, pos_, false, text_)) return Token::Error;
  pos_ = end;
  return Token::Text;
}

Result<std::string> as_utf8_xml(std::string bytes, const std::string& path) {
  const std::string_view text =
      std::string_view(bytes).substr(std::min(bytes.find_first_not_of(" \t\r\n"), bytes.size()));
  auto utf8 = [&] {
    if (text.starts_with("\xEF\xBB\xBF")) return true;
    // UTF-16 or UTF-32, with a byte order mark or without (a NUL beside the `<`), or not XML
    if (!text.starts_with("<") || text.substr(0, 4).find('\0') != std::string_view::npos) return false;
    if (!text.starts_with("<?xml")) return true;
    const std::string_view declaration = text.substr(0, text.find("?>"));
    const std::size_t encoding = declaration.find("encoding");
    if (encoding == std::string_view::npos) return true;
    std::string name(declaration.substr(encoding + 8, 20));
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    return name.find("utf-8") != std::string::npos || name.find("utf8") != std::string::npos;
  };
  if (utf8()) return bytes;
  pugi::xml_document xml;
  if (auto error = load_xml(xml, bytes, path, pugi::parse_default | pugi::parse_ws_pcdata_single)) return *error;
  std::ostringstream out;
  xml.save(out, "", pugi::format_raw | pugi::format_no_declaration, pugi::encoding_utf8);
  return std::move(out).str();
}

}  // namespace ptmpl::detail
