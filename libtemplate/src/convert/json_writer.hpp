// JSON text in the canonical layout (JsonEmitter's and write_canonical's: two spaces per level,
// `"key": value`, empty containers as `[]`), for the converters' large outputs: it writes into
// the string's own buffer through a pointer instead of appending piece by piece, and takes
// keys as literals, copied as they are. Private to the converters.
#pragma once

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
  /// `"name": `. `name` is a literal that needs no escaping (its length is known here, so
  /// copying it is a move or two, not a call).
  template <std::size_t N>
  void key(const char (&name)[N]);
  void string(std::string_view text);
  void integer(std::int64_t n);
  void boolean(bool b) { literal(b ? "true" : "false"); }
  /// A number given as valid JSON number text.
  void number(std::string_view spelling) { literal(spelling); }
  template <std::size_t N>
  void member(const char (&name)[N], std::string_view text) {
    key(name);
    string(text);
  }
  template <std::size_t N>
  void member(const char (&name)[N], std::int64_t n) {
    key(name);
    integer(n);
  }

  /// The text, with its final newline; the writer is left empty.
  [[nodiscard]] std::string finish();

 private:
  // Indentation is written 16 spaces at a time, so up to 15 bytes past the line's end (made
  // room for, and written over next).
  static constexpr std::size_t kIndentStep = 16;

  // Room for a new line and `n` more bytes at `at_`.
  void reserve(std::size_t n) {
    if (static_cast<std::size_t>(end_ - at_) < 1 + depth() * 2 + kIndentStep + n)
      grow(1 + depth() * 2 + kIndentStep + n);
  }
  void grow(std::size_t n);
  [[nodiscard]] std::size_t depth() const { return has_items_.size(); }
  void put(char c) { *at_++ = c; }
  void put(std::string_view s) {
    if (s.empty()) return;  // an empty view's data may be null, which memcpy must not get
    std::memcpy(at_, s.data(), s.size());
    at_ += s.size();
  }
  void newline() {
    *at_ = '\n';
    const std::size_t indent = depth() * 2;
    for (std::size_t i = 0; i < indent; i += kIndentStep) std::memcpy(at_ + 1 + i, "                ", kIndentStep);
    at_ += 1 + indent;
  }
  // A comma when the container has items, and a new line.
  void next_item() {
    if (has_items_.back()) put(',');
    has_items_.back() = true;
    newline();
  }
  // What comes before a value: nothing after a key or at the root, else next_item(). Room
  // for `n` bytes of value after it is made too.
  void before_value(std::size_t n) {
    reserve(n);
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!has_items_.empty()) next_item();
  }
  void open(char bracket) {
    before_value(1);
    put(bracket);
    has_items_.push_back(false);
  }
  void close(char bracket) {
    const bool had_items = has_items_.back();
    has_items_.pop_back();
    reserve(1);
    if (had_items) newline();
    put(bracket);
  }
  void literal(std::string_view text) {
    before_value(text.size());
    put(text);
  }
  void quoted_escaped(std::string_view text);

  std::string text_;
  char* at_ = nullptr;           // the next byte to write, in text_
  char* end_ = nullptr;          // the end of text_'s room
  std::vector<char> has_items_;  // per open container: something written in it yet
  bool after_key_ = false;
};

template <std::size_t N>
void JsonWriter::key(const char (&name)[N]) {
  reserve(N + 4);
  next_item();
  put('"');
  std::memcpy(at_, name, N - 1);
  at_ += N - 1;
  std::memcpy(at_, "\": ", 3);
  at_ += 3;
  after_key_ = true;
}

inline void JsonWriter::integer(std::int64_t n) {
  before_value(20);
  at_ = std::to_chars(at_, at_ + 20, n).ptr;
}

inline void JsonWriter::string(std::string_view text) {
  for (char c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == '"' || c == '\\') {
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
