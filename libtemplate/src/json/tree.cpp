// The JSON tree (json.hpp), by concern: reading values, their extents in the text, duplicate
// keys and JSON pointers.
#include "libtemplate/core/json.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_set>
#include <utility>

#include <rapidjson/error/error.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include "json/tree_access.hpp"

namespace ptmpl::json {

// ---------------------------------------------------------------------------------------------
// Value

const Value* Value::find(std::string_view key) const {
  // Rules look keys up all the time: compare sizes and first bytes before calling memcmp.
  auto same = [&](std::string_view k) {
    return k.size() == key.size() &&
           (k.empty() || (k[0] == key[0] && std::memcmp(k.data(), key.data(), k.size()) == 0));
  };
  auto ms = members();
  if (unique_keys()) {
    // No duplicates: the first match is the last; documented keys come early in canonical order.
    for (const Member& m : ms)
      if (same(m.key.text())) return &m.value;
    return nullptr;
  }
  for (auto it = ms.rbegin(); it != ms.rend(); ++it)
    if (same(it->key.text())) return &it->value;
  return nullptr;
}

bool Value::is_integer_spelling() const {
  if (!is_number()) return false;
  for (char c : text())
    if (c == '.' || c == 'e' || c == 'E') return false;
  return true;
}

std::optional<std::int64_t> Value::as_int64() const {
  // from_chars stops at '.', 'e' or 'E', so a number that is not an integer never parses whole.
  if (!is_number()) return std::nullopt;
  return parse_int64(text());
}

std::optional<double> Value::as_double() const {
  if (!is_number()) return std::nullopt;
  double d = 0;
  auto [end, ec] = std::from_chars(text().data(), text().data() + text().size(), d);
  // from_chars leaves `d` alone beyond double's range; strtod saturates to ±HUGE_VAL or ±0 (it
  // reads the locale's decimal point, but only such rare texts take this way).
  if (ec == std::errc::result_out_of_range) return std::strtod(std::string(text()).c_str(), nullptr);
  return d;
}

std::optional<std::int64_t> parse_int64(std::string_view t) {
  // Up to 18 digits cannot overflow: the common case, read digit by digit (what from_chars
  // accepts: an optional minus, then decimal digits only).
  const std::size_t sign = !t.empty() && t.front() == '-' ? 1 : 0;
  if (t.size() > sign && t.size() - sign <= 18) {
    std::int64_t value = 0;
    for (std::size_t k = sign; k < t.size(); ++k) {
      const unsigned digit = static_cast<unsigned>(static_cast<unsigned char>(t[k])) - '0';
      if (digit > 9) return std::nullopt;
      value = value * 10 + digit;
    }
    return sign == 1 ? -value : value;
  }
  std::int64_t n = 0;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
  if (ec != std::errc{} || end != t.data() + t.size()) return std::nullopt;
  return n;
}

// ---------------------------------------------------------------------------------------------
// Extents, duplicate keys, pointers and quoting

namespace {

// Follows the tokenizer through one value, checking that it is the value expected: the same
// kind and, for a scalar, the same text (what a tree value read from elsewhere would not have).
class ExtentCheck : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, ExtentCheck> {
 public:
  explicit ExtentCheck(const Value& expected) : expected_(expected) {}

  bool Null() { return first(expected_.is_null()); }
  bool Bool(bool b) { return first(expected_.kind() == (b ? Kind::True : Kind::False)); }
  bool RawNumber(const char* str, rapidjson::SizeType length, bool) {
    return first(expected_.is_number() && expected_.text() == std::string_view(str, length));
  }
  bool String(const char* str, rapidjson::SizeType length, bool) {
    return first(expected_.is_string() && expected_.text() == std::string_view(str, length));
  }
  bool Key(const char*, rapidjson::SizeType, bool) { return true; }
  bool StartObject() { return first(expected_.is_object() || expected_.kind() == Kind::Truncated); }
  bool StartArray() { return first(expected_.is_array() || expected_.kind() == Kind::Truncated); }
  bool EndObject(rapidjson::SizeType) { return true; }
  bool EndArray(rapidjson::SizeType) { return true; }

 private:
  // Only the value's own first token says what it is; what it contains was checked by the parse.
  bool first(bool matches) {
    if (seen_) return true;
    seen_ = true;
    return matches;
  }

  const Value& expected_;
  bool seen_ = false;
};

}  // namespace

std::optional<std::uint64_t> value_end(std::string_view text, const Value& value) {
  std::uint64_t at = value.offset();
  if (at >= text.size()) return std::nullopt;
  // Numbers, and strings without escapes, are kept as the source's own bytes (see
  // DocumentBuilder::scalar): their extent is known without reading anything again.
  const char* source = text.data() + at;
  if (value.is_number() && value.text().data() == source) return at + value.text().size();
  if (value.is_string() && value.text().data() == source + 1) return at + value.text().size() + 2;
  rapidjson::MemoryStream stream(text.data() + at, text.size() - at);
  ExtentCheck check(value);
  rapidjson::Reader reader;
  // The flags of Document::parse, and stop after the one value.
  constexpr unsigned kFlags =
      rapidjson::kParseIterativeFlag | rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseStopWhenDoneFlag;
  if (reader.Parse<kFlags>(stream, check).IsError()) return std::nullopt;
  return at + stream.Tell();
}

std::string_view kind_name(const Value& v) {
  switch (v.kind()) {
    case Kind::Null:
      return "null";
    case Kind::True:
    case Kind::False:
      return "a boolean";
    case Kind::Number:
      return v.is_integer_spelling() ? "an integer" : "a number";
    case Kind::String:
      return "a string";
    case Kind::Array:
      return "an array";
    case Kind::Object:
      return "an object";
    case Kind::Truncated:
      return "a deeply nested value";
  }
  return "a value";
}

std::vector<bool> last_occurrences(const Value& object) {
  auto members = object.members();
  std::vector<bool> last(members.size(), true);
  if (object.unique_keys()) return last;
  if (members.size() <= 16) {
    for (std::size_t i = 0; i < members.size(); ++i)
      for (std::size_t j = i + 1; j < members.size() && last[i]; ++j)
        if (members[i].key.text() == members[j].key.text()) last[i] = false;
    return last;
  }
  std::unordered_set<std::string_view> seen;
  seen.reserve(members.size());
  for (std::size_t i = members.size(); i-- > 0;) last[i] = seen.insert(members[i].key.text()).second;
  return last;
}

namespace {

// nullopt when `value` has no duplicate key at any depth: the caller keeps it as it is.
std::optional<Value> without_earlier_duplicates(const Value& value, Arena& arena) {
  if (value.is_array()) {
    auto items = value.items();
    std::span<Value> copy;
    for (std::size_t i = 0; i < items.size(); ++i) {
      std::optional<Value> changed = without_earlier_duplicates(items[i], arena);
      if (!changed) continue;
      if (copy.empty()) {
        copy = arena.make_array<Value>(items.size());
        std::copy(items.begin(), items.end(), copy.begin());
      }
      copy[i] = *changed;
    }
    if (copy.empty()) return std::nullopt;
    return detail::TreeAccess::make(Kind::Array, value.offset(), copy.data(), static_cast<std::uint32_t>(copy.size()));
  }
  if (!value.is_object()) return std::nullopt;
  auto members = value.members();
  std::vector<bool> last = last_occurrences(value);
  std::vector<Member> kept;
  kept.reserve(members.size());
  bool changed = false;
  for (std::size_t i = 0; i < members.size(); ++i) {
    if (!last[i]) {
      changed = true;
      continue;
    }
    Member m = members[i];
    if (std::optional<Value> inner = without_earlier_duplicates(m.value, arena)) {
      m.value = *inner;
      changed = true;
    }
    kept.push_back(m);
  }
  if (!changed) return std::nullopt;
  std::span<const Member> copy = arena.copy_array<Member>(kept);
  return detail::TreeAccess::make(Kind::Object, value.offset(), copy.data(), static_cast<std::uint32_t>(copy.size()),
                                  true);
}

}  // namespace

Value last_of_each_key(const Value& value, Arena& arena) {
  return without_earlier_duplicates(value, arena).value_or(value);
}

std::string pointer_escape(std::string_view segment) {
  std::string out;
  out.reserve(segment.size());
  for (char c : segment) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

const Value* resolve_pointer(const Value& root, std::string_view pointer) {
  const Value* at = &root;
  while (!pointer.empty()) {
    if (pointer.front() != '/') return nullptr;
    pointer.remove_prefix(1);
    std::size_t cut = pointer.find('/');
    std::string_view raw = pointer.substr(0, cut);
    pointer = cut == std::string_view::npos ? std::string_view{} : pointer.substr(cut);
    std::string segment;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '~' && i + 1 < raw.size()) {
        segment += raw[i + 1] == '1' ? '/' : '~';
        ++i;
      } else {
        segment += raw[i];
      }
    }
    if (at->is_object()) {
      at = at->find(segment);
      if (at == nullptr) return nullptr;
    } else if (at->is_array()) {
      std::size_t index = 0;
      auto [end, ec] = std::from_chars(segment.data(), segment.data() + segment.size(), index);
      if (ec != std::errc{} || end != segment.data() + segment.size() || index >= at->items().size()) return nullptr;
      at = &at->items()[index];
    } else {
      return nullptr;
    }
  }
  return at;
}

}  // namespace ptmpl::json
