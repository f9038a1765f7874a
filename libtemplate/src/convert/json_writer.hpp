// JSON text in the canonical layout (JsonEmitter's and write_canonical's: two spaces per level,
// `"key": value`, empty containers as `[]`), for the converters' large outputs: it writes into
// the string's own buffer through a pointer instead of appending piece by piece, and takes
// keys as they are. Private to the converters.
#pragma once

#include <cassert>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace ptmpl::detail {

class JsonWriter {
 public:
  /// `expected_size`: how much text to make room for at once (a guess; the text grows past it).
  explicit JsonWriter(std::size_t expected_size);

  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }
  /// `name` is written as it is: it must need no escaping (the converters' keys are literals).
  void key(std::string_view name);
  void string(std::string_view text);
  void integer(std::int64_t n);
  void boolean(bool b) { literal(b ? "true" : "false"); }
  /// A number given as valid JSON number text.
  void number(std::string_view spelling) { literal(spelling); }
  void member(std::string_view name, std::string_view text) { key(name), string(text); }
  void member(std::string_view name, std::int64_t n) { key(name), integer(n); }

  /// The text, with its final newline; the writer is left empty.
  [[nodiscard]] std::string finish();

 private:
  // Room for `n` more bytes at `at_`.
  void reserve(std::size_t n) {
    if (static_cast<std::size_t>(end_ - at_) < n) grow(n);
  }
  void grow(std::size_t n);
  void put(char c) { *at_++ = c; }
  void put(std::string_view s) {
    if (s.empty()) return;  // an empty view's data may be null, which memcpy must not get
    std::memcpy(at_, s.data(), s.size());
    at_ += s.size();
  }
  void newline() {
    put('\n');
    std::memset(at_, ' ', has_items_.size() * 2);
    at_ += has_items_.size() * 2;
  }
  // What comes before a value: nothing after a key, else a comma when the container has
  // items, and a new line. Room for `n` bytes of value after it is made too.
  void before_value(std::size_t n);
  void open(char bracket) {
    before_value(1);
    put(bracket);
    has_items_.push_back(false);
  }
  void close(char bracket);
  void literal(std::string_view text) {
    before_value(text.size());
    put(text);
  }
  void quoted_escaped(std::string_view text);

  std::string text_;
  char* at_ = nullptr;   // the next byte to write, in text_
  char* end_ = nullptr;  // the end of text_'s room
  std::vector<bool> has_items_;  // per open container: something written in it yet
  bool after_key_ = false;
};

inline void JsonWriter::before_value(std::size_t n) {
  if (after_key_) {
    after_key_ = false;
    reserve(n);
    return;
  }
  reserve(2 + has_items_.size() * 2 + n);
  if (has_items_.empty()) return;  // the root
  if (has_items_.back()) put(',');
  has_items_.back() = true;
  newline();
}

inline void JsonWriter::key(std::string_view name) {
  reserve(2 + has_items_.size() * 2 + name.size() + 4);
  if (has_items_.back()) put(',');
  has_items_.back() = true;
  newline();
  put('"');
  put(name);
  put("\": ");
  after_key_ = true;
}

inline void JsonWriter::close(char bracket) {
  const bool had_items = has_items_.back();
  has_items_.pop_back();
  reserve(2 + has_items_.size() * 2);
  if (had_items) newline();
  put(bracket);
}

inline void JsonWriter::integer(std::int64_t n) {
  before_value(20);
  at_ = std::to_chars(at_, at_ + 20, n).ptr;
}

inline void JsonWriter::string(std::string_view text) {
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || c == '"' || c == '\\') {
      quoted_escaped(text);
      return;
    }
  }
  before_value(text.size() + 2);
  put('"');
  put(text);
  put('"');
}

}  // namespace ptmpl::detail
