#include "libtemplate/core/json_emitter.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <rapidjson/internal/dtoa.h>

#include "libtemplate/core/json.hpp"

namespace ptmpl {

namespace {

// Room is made in steps as large as the text so far, from 256 bytes up to 64 KiB: the string
// zero-fills what it grows by, and a step of at most this size is filled while still in the
// cache, just before it is written over; a small text makes small steps.
constexpr std::size_t kMinStep = 256;
constexpr std::size_t kMaxStep = std::size_t{64} * 1024;

// What a byte of a string becomes: 0 when it stays as it is, a letter for `\b`-style
// escapes, 'u' for `\u00XX`.
constexpr char escape_of(unsigned char c) {
  switch (c) {
    case '"':
      return '"';
    case '\\':
      return '\\';
    case '\b':
      return 'b';
    case '\f':
      return 'f';
    case '\n':
      return 'n';
    case '\r':
      return 'r';
    case '\t':
      return 't';
    default:
      return c < 0x20 ? 'u' : 0;
  }
}

// True when a byte of `text` is to be escaped: eight bytes at a time (SWAR: a byte below
// 0x20 and a byte equal to `"` or `\` each set its high bit in the tests below).
bool needs_escaping(std::string_view text) {
  constexpr std::uint64_t kOnes = 0x0101010101010101;
  constexpr std::uint64_t kHighs = 0x8080808080808080;
  const auto below = [](std::uint64_t word, std::uint64_t n) { return (word - kOnes * n) & ~word & kHighs; };
  const auto to_escape = [&](std::uint64_t word) {
    return (below(word, 0x20) | below(word ^ (kOnes * '"'), 1) | below(word ^ (kOnes * '\\'), 1)) != 0;
  };
  std::size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    std::uint64_t word;
    std::memcpy(&word, text.data() + i, 8);
    if (to_escape(word)) return true;
  }
  for (; i < text.size(); ++i)
    if (escape_of(static_cast<unsigned char>(text[i])) != 0) return true;
  return false;
}

// The bytes `text` takes as a JSON string literal, quotes included.
std::size_t quoted_size(std::string_view text) {
  std::size_t size = text.size() + 2;
  for (char c : text) {
    const char e = escape_of(static_cast<unsigned char>(c));
    size += e == 0 ? 0 : e == 'u' ? 5 : 1;
  }
  return size;
}

// The one escaping of JSON strings: writes `text` quoted at `at`, which has room for
// quoted_size(text) bytes, and returns the end.
char* write_quoted(char* at, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  *at++ = '"';
  std::size_t run = 0;  // the start of the bytes not copied yet
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const char e = escape_of(c);
    if (e == 0) continue;
    std::memcpy(at, text.data() + run, i - run);
    at += i - run;
    run = i + 1;
    *at++ = '\\';
    *at++ = e;
    if (e == 'u') {
      *at++ = '0';
      *at++ = '0';
      *at++ = kHex[c >> 4];
      *at++ = kHex[c & 0xF];
    }
  }
  if (run < text.size()) std::memcpy(at, text.data() + run, text.size() - run);
  at += text.size() - run;
  *at++ = '"';
  return at;
}

}  // namespace

namespace json {

void append_quoted(std::string& out, std::string_view text) {
  const std::size_t used = out.size();
  out.resize(used + quoted_size(text));
  write_quoted(out.data() + used, text);
}

std::string quoted(std::string_view text) {
  std::string out;
  append_quoted(out, text);
  return out;
}

}  // namespace json

JsonEmitter::JsonEmitter(JsonLayout layout, std::size_t expected_size) : root_layout_(layout), layout_(layout) {
  text_.reserve(expected_size);
  at_ = end_ = text_.data();
}

void JsonEmitter::drain_into(std::function<void(std::string_view)> drain, std::size_t piece) {
  drain_ = std::move(drain);
  const auto used = static_cast<std::size_t>(at_ - text_.data());
  text_.resize(std::max(text_.size(), used + piece));
  at_ = text_.data() + used;
  end_ = text_.data() + text_.size();
}

void JsonEmitter::grow(std::size_t n) {
  if (drain_ && at_ != text_.data()) {
    // Everything before at_ is final (what lies past it is scratch, written over next).
    drain_(std::string_view(text_.data(), static_cast<std::size_t>(at_ - text_.data())));
    at_ = text_.data();
    if (static_cast<std::size_t>(end_ - at_) >= n) return;
  }
  const auto used = static_cast<std::size_t>(at_ - text_.data());
  text_.resize(used + std::max(n, std::clamp(used, kMinStep, kMaxStep)));
  at_ = text_.data() + used;
  end_ = text_.data() + text_.size();
}

void JsonEmitter::quoted(std::string_view text) {
  if (needs_escaping(text)) {
    reserve(quoted_size(text));
    at_ = write_quoted(at_, text);
    return;
  }
  put('"');
  put(text);
  put('"');
}

void JsonEmitter::number(double d) {
  if (!std::isfinite(d)) return null();
  before_value(25);
  // RapidJSON's Writer::Double, which wrote these numbers before: the same digits and layout.
  at_ = rapidjson::internal::dtoa(d, at_);
}

std::string JsonEmitter::finish() {
  if (root_layout_ != JsonLayout::Compact) {
    reserve(1);
    put('\n');
  }
  text_.resize(static_cast<std::size_t>(at_ - text_.data()));
  if (drain_) {
    if (!text_.empty()) drain_(text_);
    text_.clear();
    drain_ = nullptr;
  }
  std::string text = std::move(text_);
  text_.clear();
  at_ = end_ = text_.data();
  open_.clear();
  layout_ = root_layout_;
  indent_ = 0;
  after_key_ = false;
  return text;
}

}  // namespace ptmpl
