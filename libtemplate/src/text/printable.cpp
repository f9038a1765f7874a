#include "libtemplate/core/printable.hpp"

#include <cstdint>
#include <cstdio>
#include <optional>

#include "libtemplate/core/json.hpp"

namespace ptmpl {

namespace {

void append_escaped(std::string& out, const char* format, unsigned value) {
  char escaped[8];
  std::snprintf(escaped, sizeof escaped, format, value);
  out += escaped;
}

// A run of valid UTF-8: in it a C1 control is exactly the two bytes C2 80 to C2 9F.
void append_printable_utf8(std::string& out, std::string_view run) {
  for (std::size_t i = 0; i < run.size(); ++i) {
    auto byte = static_cast<unsigned char>(run[i]);
    if (byte < 0x20 || byte == 0x7F) {
      append_escaped(out, "\\u%04X", byte);
    } else if (byte == 0xC2 && i + 1 < run.size() && static_cast<unsigned char>(run[i + 1]) <= 0x9F) {
      append_escaped(out, "\\u%04X", static_cast<unsigned char>(run[i + 1]));
      ++i;
    } else {
      out += run[i];
    }
  }
}

void append_printable(std::string& out, std::string_view text) {
  while (!text.empty()) {
    std::optional<std::uint64_t> bad = json::invalid_utf8_offset(text);
    std::size_t run = bad ? static_cast<std::size_t>(*bad) : text.size();
    append_printable_utf8(out, text.substr(0, run));
    if (!bad) break;
    append_escaped(out, "\\x%02X", static_cast<unsigned char>(text[run]));
    text.remove_prefix(run + 1);
  }
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  append_printable(out, text);
  return out;
}

std::string printable_lines(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    std::size_t end = text.find('\n');
    if (end == std::string_view::npos) {
      append_printable(out, text);
      break;
    }
    const bool crlf = end > 0 && text[end - 1] == '\r';
    append_printable(out, text.substr(0, crlf ? end - 1 : end));
    out += crlf ? "\r\n" : "\n";
    text.remove_prefix(end + 1);
  }
  return out;
}

}  // namespace ptmpl
