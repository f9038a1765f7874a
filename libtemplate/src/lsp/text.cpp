// The language server, by concern: positions in an open document (text.hpp).
#include "lsp/text.hpp"

#include <algorithm>
#include <cstring>

namespace ptmpl::lsp {

namespace {

// Bytes of the UTF-8 sequence led by `lead`; 1 for a byte that cannot lead one (the text is
// then not valid UTF-8 and each such byte counts as one character).
std::uint64_t sequence_length(unsigned char lead) {
  if (lead < 0xC0) return 1;
  if (lead < 0xE0) return 2;
  if (lead < 0xF0) return 3;
  if (lead < 0xF8) return 4;
  return 1;
}

}  // namespace

TextPositions::TextPositions(std::string_view text) : text_(text), lines_(text) {
  for (std::uint32_t line = 0; line < line_count(); ++line) {
    const std::uint64_t end = line_end(line);
    std::uint64_t i = line_start(line);
    if (end - i <= kMarkStride) continue;
    Mark walk{i, 0, 0};
    std::uint64_t next = i + kMarkStride;
    while (walk.offset < end) {
      if (walk.offset >= next) {
        marks_.push_back(walk);
        next = walk.offset + kMarkStride;
      }
      std::uint64_t n = sequence_length(static_cast<unsigned char>(text_[walk.offset]));
      walk.units += n == 4 ? 2 : 1;
      walk.characters += 1;
      walk.offset += n;
    }
  }
}

std::uint64_t TextPositions::line_end(std::uint32_t line) const {
  const bool last = line + 1 >= line_count();
  std::uint64_t end = last ? text_.size() : line_start(line + 1) - 1;
  if (!last && end > line_start(line) && text_[end - 1] == '\r') --end;
  return end;
}

TextPositions::Mark TextPositions::nearest(std::uint64_t start, std::uint64_t end, std::uint64_t Mark::*field,
                                           std::uint64_t most) const {
  auto by_offset = [](const Mark& mark, std::uint64_t at) { return mark.offset < at; };
  auto first = std::lower_bound(marks_.begin(), marks_.end(), start, by_offset);
  auto last = std::lower_bound(first, marks_.end(), end, by_offset);
  // Within a line every field grows with the offset.
  auto after =
      std::upper_bound(first, last, most, [&](std::uint64_t value, const Mark& mark) { return value < mark.*field; });
  return after == first ? Mark{start, 0, 0} : *(after - 1);
}

Position TextPositions::position(std::uint64_t offset) const {
  offset = std::min<std::uint64_t>(offset, text_.size());
  const auto line = static_cast<std::uint32_t>(lines_.line_of(offset) - 1);
  Mark walk = nearest(line_start(line), offset + 1, &Mark::offset, offset);
  std::uint64_t i = walk.offset;
  std::uint64_t units = walk.units;
  while (i < offset) {
    std::uint64_t n = sequence_length(static_cast<unsigned char>(text_[i]));
    if (i + n > offset) break;  // inside a character: round down
    units += n == 4 ? 2 : 1;
    i += n;
  }
  return {line, static_cast<std::uint32_t>(units)};
}

std::uint64_t TextPositions::offset(Position position) const {
  if (position.line >= line_count()) return text_.size();
  std::uint64_t end = line_end(position.line);
  Mark walk = nearest(line_start(position.line), end, &Mark::units, position.character);
  std::uint64_t i = walk.offset;
  std::uint64_t units = walk.units;
  while (i < end && units < position.character) {
    std::uint64_t n = sequence_length(static_cast<unsigned char>(text_[i]));
    std::uint64_t width = n == 4 ? 2 : 1;
    if (units + width > position.character) break;  // inside a surrogate pair: round down
    units += width;
    i = std::min(i + n, end);
  }
  return i;
}

Position TextPositions::from_line_column(std::uint64_t line, std::uint64_t column) const {
  if (line == 0) return {0, 0};
  if (line > line_count()) return position(text_.size());
  auto index = static_cast<std::uint32_t>(line - 1);
  std::uint64_t end = line_end(index);
  const std::uint64_t steps = column > 0 ? column - 1 : 0;
  Mark walk = nearest(line_start(index), end, &Mark::characters, steps);
  std::uint64_t i = walk.offset;
  for (std::uint64_t c = walk.characters; c < steps && i < end; ++c) {
    i = std::min(i + sequence_length(static_cast<unsigned char>(text_[i])), end);
  }
  return position(i);
}

std::string path_from_uri(std::string_view uri) {
  constexpr std::string_view scheme = "file://";
  if (uri.substr(0, scheme.size()) != scheme) return {};
  std::string_view rest = uri.substr(scheme.size());
  // "file://host/path": only an empty host or localhost names this machine.
  std::size_t slash = rest.find('/');
  if (slash == std::string_view::npos) return {};
  std::string_view host = rest.substr(0, slash);
  if (!host.empty() && host != "localhost") return {};
  rest = rest.substr(slash);
  std::string path;
  path.reserve(rest.size());
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (std::size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '%' && i + 2 < rest.size() && hex(rest[i + 1]) >= 0 && hex(rest[i + 2]) >= 0) {
      path += static_cast<char>(hex(rest[i + 1]) * 16 + hex(rest[i + 2]));
      i += 2;
    } else if (rest[i] == '?' || rest[i] == '#') {
      break;
    } else {
      path += rest[i];
    }
  }
  return path;
}

std::string uri_from_path(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string uri = "file://";
  for (char c : path) {
    auto u = static_cast<unsigned char>(c);
    bool plain = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') ||
                 std::strchr("/-._~!$&'()*+,;=:@", c) != nullptr;
    if (plain && u != 0) {
      uri += c;
    } else {
      uri += '%';
      uri += kHex[u >> 4];
      uri += kHex[u & 0xF];
    }
  }
  return uri;
}

}  // namespace ptmpl::lsp
