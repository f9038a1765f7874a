// Writing JSON: the one emitter every JSON text ptmpl produces goes through (canonical
// templates, API bodies, pulled documents, converter output, previews, lint reports, the
// sandbox's responses and files).
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ptmpl {

/// How the contents of a container are laid out.
enum class JsonLayout : std::uint8_t {
  /// One element per line, indented two spaces per Pretty container open, `"key": value`,
  /// `[]` and `{}` when empty: the canonical form.
  Pretty,
  /// On one line: `[1, 2]`, `{"key": value, "other": 2}` (a row of a report).
  Line,
  /// No whitespace: `[1,2]`, `{"key":value}` (API bodies, raw_json strings, the sandbox's
  /// responses).
  Compact,
};

/// The types JsonEmitter::integer() takes: integers of up to 64 bits, not bool or the
/// character types (which are not numbers here).
template <class T>
inline constexpr bool kIsJsonInteger = std::is_integral_v<T> && sizeof(T) <= 8 && !std::is_same_v<T, bool> &&
                                       !std::is_same_v<T, char> && !std::is_same_v<T, char8_t> &&
                                       !std::is_same_v<T, char16_t> && !std::is_same_v<T, char32_t> &&
                                       !std::is_same_v<T, wchar_t>;

/// The name of a member, as JsonEmitter takes it: a string literal, checked when the program
/// is compiled to need no escaping and then copied as it is, or any other text, escaped as it
/// is written. A parameter type: it refers to the caller's text.
class JsonKey {
 public:
  template <std::size_t N>
  consteval JsonKey(const char (&literal)[N]) : data_(literal), size_(N - 1), plain_(true) {
    for (std::size_t i = 0; i + 1 < N; ++i) {
      const auto c = static_cast<unsigned char>(literal[i]);
      // Not a constant expression: a literal with a character to escape does not compile.
      if (c < 0x20 || c == '"' || c == '\\') throw "a key literal must need no escaping";
    }
  }
  JsonKey(std::string_view text) : data_(text.data()), size_(text.size()) {}
  JsonKey(const std::string& text) : data_(text.data()), size_(text.size()) {}

  [[nodiscard]] std::string_view text() const { return {data_, size_}; }
  /// Known to need no escaping.
  [[nodiscard]] bool plain() const { return plain_; }

 private:
  const char* data_;
  std::size_t size_;
  bool plain_ = false;
};

/// Writes JSON text as it goes, in one pass, into a buffer of its own. Strings are escaped one
/// way (json::append_quoted's: `"`, `\` and control characters; everything else is kept as
/// UTF-8, which the caller guarantees valid), numbers are written as given. Each container is
/// laid out as it is opened; by default as the one it is in.
///
/// The caller writes a well-formed sequence: values in arrays, key() then a value in objects,
/// one root value, then finish(). Keys are written in the order given (write_value() in
/// writer.hpp writes a tree in canonical key order).
class JsonEmitter {
 public:
  /// `layout`: of the root, and of every container that does not choose its own.
  /// `expected_size`: how much text to make room for at once (a guess; the text grows past it).
  explicit JsonEmitter(JsonLayout layout = JsonLayout::Pretty, std::size_t expected_size = 0);

  /// Opens a container laid out as the one it is in (at the root: the emitter's layout).
  void begin_object() { open('{', layout_); }
  void begin_array() { open('[', layout_); }
  /// Opens a container laid out as `layout`; what it holds follows it unless it chooses again.
  void begin_object(JsonLayout layout) { open('{', layout); }
  void begin_array(JsonLayout layout) { open('[', layout); }
  void end_object() { close('}'); }
  void end_array() { close(']'); }

  /// A key of the open object: the next call writes its value.
  void key(JsonKey name) {
    reserve(name.text().size() + 4);
    next_item();
    if (name.plain()) {
      put('"');
      put(name.text());
      put('"');
    } else {
      quoted(name.text());
    }
    put(layout_ == JsonLayout::Compact ? std::string_view(":") : std::string_view(": "));
    after_key_ = true;
  }
  void string(std::string_view text) {
    before_value(text.size() + 2);
    quoted(text);
  }
  /// An integer of any integer type (not bool or char).
  template <class Integer>
  requires kIsJsonInteger<Integer>
  void integer(Integer n) {
    before_value(20);  // the longest: -9223372036854775808, 18446744073709551615
    at_ = std::to_chars(at_, at_ + 20, n).ptr;
  }
  /// A number given as valid JSON number text, written as spelled (`1.50`, `1e3`).
  void number(std::string_view spelling) { literal(spelling); }
  /// A number without a spelling, as RapidJSON writes a double: the shortest digits that read
  /// back as `d` (Grisu2), with a fraction or an exponent (`1500.0`, `0.1`, `1e21`). `d` is
  /// finite (a NaN or an infinity is written as null).
  void number(double d);
  void boolean(bool b) { literal(b ? std::string_view("true") : std::string_view("false")); }
  void null() { literal("null"); }
  /// A value given as valid JSON text, written as it is (whatever its layout).
  void raw(std::string_view json_text) { literal(json_text); }

  /// `"name": value` in one call.
  void member(JsonKey name, std::string_view text) {
    key(name);
    string(text);
  }
  template <class Integer>
  requires kIsJsonInteger<Integer>
  void member(JsonKey name, Integer n) {
    key(name);
    integer(n);
  }

  /// The text: ending with a newline when the root is Pretty or Line (a text file), without
  /// one when it is Compact (a body or a value to embed). The emitter is left empty.
  [[nodiscard]] std::string finish();

  /// From now on, hands the text written to `drain` in pieces of about `piece` bytes instead of
  /// keeping it all (a large document is then never held whole); finish() hands over the rest
  /// and returns an empty string. The pieces, in order, are the text finish() would return.
  void drain_into(std::function<void(std::string_view)> drain, std::size_t piece = std::size_t{1} << 16);

 private:
  struct Level {
    JsonLayout layout;
    bool has_items;  // something written in the container yet
  };
  // Indentation is written 16 spaces at a time, so up to 15 bytes past the line's end (made
  // room for, and written over next).
  static constexpr std::size_t kIndentStep = 16;

  // Room for a line break, its indentation and `n` more bytes at `at_`.
  void reserve(std::size_t n) {
    if (static_cast<std::size_t>(end_ - at_) < 1 + indent_ + kIndentStep + n) grow(1 + indent_ + kIndentStep + n);
  }
  void grow(std::size_t n);
  void put(char c) { *at_++ = c; }
  void put(std::string_view s) {
    if (s.empty()) return;  // an empty view's data may be null, which memcpy must not get
    std::memcpy(at_, s.data(), s.size());
    at_ += s.size();
  }
  void newline() {
    *at_ = '\n';
    for (std::size_t i = 0; i < indent_; i += kIndentStep) std::memcpy(at_ + 1 + i, "                ", kIndentStep);
    at_ += 1 + indent_;
  }
  // The separator before an element of the open container (a value in an array, a key in an
  // object). Room for it must have been made.
  void next_item() {
    Level& level = open_.back();
    const bool first = !level.has_items;
    level.has_items = true;
    switch (level.layout) {
      case JsonLayout::Pretty:
        if (!first) put(',');
        newline();
        break;
      case JsonLayout::Line:
        if (!first) put(", ");
        break;
      case JsonLayout::Compact:
        if (!first) put(',');
        break;
    }
  }
  // What comes before a value (nothing after a key or at the root), with room for `n` bytes of
  // value after it.
  void before_value(std::size_t n) {
    reserve(n);
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!open_.empty()) next_item();
  }
  void open(char bracket, JsonLayout layout) {
    before_value(1);
    put(bracket);
    open_.push_back({layout, false});
    layout_ = layout;
    if (layout == JsonLayout::Pretty) indent_ += 2;
  }
  void close(char bracket) {
    const Level level = open_.back();
    open_.pop_back();
    layout_ = open_.empty() ? root_layout_ : open_.back().layout;
    reserve(1);
    if (level.layout == JsonLayout::Pretty) {
      indent_ -= 2;
      if (level.has_items) newline();
    }
    put(bracket);
  }
  void literal(std::string_view text) {
    before_value(text.size());
    put(text);
  }
  // `"text"`, escaped; room for text.size() + 2 bytes has been made.
  void quoted(std::string_view text);

  std::string text_;
  std::function<void(std::string_view)> drain_;  // see drain_into()
  char* at_ = nullptr;                           // the next byte to write, in text_
  char* end_ = nullptr;                          // the end of text_'s room
  std::vector<Level> open_;
  JsonLayout root_layout_;
  JsonLayout layout_;       // of the innermost open container (the root's when none is)
  std::size_t indent_ = 0;  // two spaces per Pretty container open
  bool after_key_ = false;
};

}  // namespace ptmpl
