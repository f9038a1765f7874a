// The JSON tree (json.hpp), by concern: the parser (a tokenizer of our own for valid texts, and
// RapidJSON's iterative SAX reader for the rest and for its messages, both feeding one builder
// of the arena tree) and the one UTF-8 check every reader uses.
#include "libtemplate/core/json.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_set>
#include <utility>

#include <rapidjson/error/error.h>
#include <rapidjson/reader.h>

#include "json/tree_access.hpp"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace ptmpl::json {

// The parser's input: RapidJSON's MemoryStream (a NUL byte past the end, where the text need not
// have one), as a type of our own so that skipping whitespace can take 16 bytes at a time below.
struct SourceStream {
  using Ch = char;
  SourceStream(const char* begin, std::size_t size) : begin_(begin), src_(begin), end_(begin + size) {}
  [[nodiscard]] Ch Peek() const { return src_ == end_ ? '\0' : *src_; }
  Ch Take() { return src_ == end_ ? '\0' : *src_++; }
  [[nodiscard]] std::size_t Tell() const { return static_cast<std::size_t>(src_ - begin_); }
  [[nodiscard]] const Ch* Peek4() const { return end_ - src_ >= 4 ? src_ : nullptr; }
  // Output is not supported (the reader never writes to its input without kParseInsituFlag).
  Ch* PutBegin() { return nullptr; }
  void Put(Ch) {}
  void Flush() {}
  std::size_t PutEnd(Ch*) { return 0; }

  const Ch* begin_;
  const Ch* src_;
  const Ch* end_;
};

}  // namespace ptmpl::json

namespace rapidjson {

// A canonical template is half indentation: runs of spaces after each newline. RapidJSON reads
// them a byte at a time; this takes 16 at a time where the processor can, stopping at the first
// byte that is not JSON whitespace, and never reads past the end of the text.
template <>
inline void SkipWhitespace(ptmpl::json::SourceStream& is) {
  const char* p = is.src_;
  const char* const end = is.end_;
#ifdef __SSE2__
  const __m128i space = _mm_set1_epi8(' ');
  const __m128i newline = _mm_set1_epi8('\n');
  const __m128i ret = _mm_set1_epi8('\r');
  const __m128i tab = _mm_set1_epi8('\t');
  while (end - p >= 16) {
    const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i white = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(chunk, space), _mm_cmpeq_epi8(chunk, newline)),
                                       _mm_or_si128(_mm_cmpeq_epi8(chunk, ret), _mm_cmpeq_epi8(chunk, tab)));
    const auto mask = static_cast<unsigned>(_mm_movemask_epi8(white));
    if (mask != 0xFFFFU) {
      is.src_ = p + __builtin_ctz(~mask);
      return;
    }
    p += 16;
  }
#endif
  while (p != end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) ++p;
  is.src_ = p;
}

}  // namespace rapidjson

namespace ptmpl::json {

// ---------------------------------------------------------------------------------------------
// Parser: RapidJSON's iterative SAX reader feeding an arena tree.

namespace {

std::string expected_message(rapidjson::ParseErrorCode code) {
  using namespace rapidjson;
  switch (code) {
    case kParseErrorDocumentEmpty:
      return "expected a JSON value, found end of file";
    case kParseErrorDocumentRootNotSingular:
      return "unexpected text after the top-level value";
    case kParseErrorValueInvalid:
      return "expected a JSON value (object, array, string, number, true, false or null)";
    case kParseErrorObjectMissName:
      return "expected a member name in double quotes";
    case kParseErrorObjectMissColon:
      return "expected ':' after the member name";
    case kParseErrorObjectMissCommaOrCurlyBracket:
      return "expected ',' or '}' after an object member";
    case kParseErrorArrayMissCommaOrSquareBracket:
      return "expected ',' or ']' after an array element";
    case kParseErrorStringUnicodeEscapeInvalidHex:
      return "expected four hex digits after \\u";
    case kParseErrorStringUnicodeSurrogateInvalid:
      return "invalid UTF-16 surrogate pair in \\u escape";
    case kParseErrorStringEscapeInvalid:
      return "invalid escape sequence in string";
    case kParseErrorStringMissQuotationMark:
      return "expected '\"' to close the string";
    case kParseErrorStringInvalidEncoding:
      return "invalid UTF-8 byte sequence in string";
    case kParseErrorNumberTooBig:
      return "number too big";
    case kParseErrorNumberMissFraction:
      return "expected a digit after the decimal point";
    case kParseErrorNumberMissExponent:
      return "expected a digit in the exponent";
    default:
      return "invalid JSON";
  }
}

// Offset of the first byte that is not part of valid UTF-8 (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF), or npos. ASCII runs are skipped 16 bytes at a time,
// which makes this much cheaper than RapidJSON's per-character validation in strings.
std::size_t first_invalid_utf8(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    if (i + 16 <= n) {
      std::uint64_t a, b;
      std::memcpy(&a, s + i, 8);
      std::memcpy(&b, s + i + 8, 8);
      if (((a | b) & 0x8080808080808080ull) == 0) {
        i += 16;
        continue;
      }
    }
    unsigned char c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;  // range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3;
      if (c == 0xE0) low = 0xA0;   // overlong
      if (c == 0xED) high = 0x9F;  // surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4;
      if (c == 0xF0) low = 0x90;   // overlong
      if (c == 0xF4) high = 0x8F;  // above U+10FFFF
    } else {
      return i;
    }
    if (i + length > n || s[i + 1] < low || s[i + 1] > high) return i;
    for (std::size_t k = 2; k < length; ++k)
      if ((s[i + k] & 0xC0) != 0x80) return i;
    i += length;
  }
  return std::string_view::npos;
}

}  // namespace

// Fills the arena, the issues and the truncation mark of the document being read, which
// Document::read hands it.
class DocumentBuilder {
 public:
  using Ch = char;

  DocumentBuilder(Arena& arena, std::vector<ParseIssue>& issues, bool& truncated, const SourceStream& stream,
                  std::uint64_t shift, const ParseOptions& options)
      : arena_(arena), issues_(issues), truncated_(truncated), stream_(stream), shift_(shift), options_(options) {
    stack_.reserve(1024);
  }

  bool Null() { return scalar(Kind::Null, nullptr, 0); }
  bool Bool(bool b) { return scalar(b ? Kind::True : Kind::False, nullptr, 0); }
  bool Int(int) { return false; }  // numbers arrive as RawNumber (kParseNumbersAsStringsFlag)
  bool Uint(unsigned) { return false; }
  bool Int64(std::int64_t) { return false; }
  bool Uint64(std::uint64_t) { return false; }
  bool Double(double) { return false; }
  bool RawNumber(const char* str, rapidjson::SizeType length, bool) { return scalar(Kind::Number, str, length); }
  bool String(const char* str, rapidjson::SizeType length, bool) { return string(str, length); }
  bool Key(const char* str, rapidjson::SizeType length, bool) { return string(str, length); }

  bool StartObject() { return start(true); }
  bool StartArray() { return start(false); }
  bool EndObject(rapidjson::SizeType) { return end(true); }
  bool EndArray(rapidjson::SizeType) { return end(false); }

  Value take_root() { return stack_.empty() ? Value{} : stack_.back(); }
  /// Where a string holding a lone low surrogate starts, once one stopped the parse.
  [[nodiscard]] std::optional<std::uint64_t> lone_surrogate_at() const { return lone_surrogate_at_; }

 private:
  // A member type, not one of the anonymous namespace: a class with linkage (this one) may not
  // hold a field of such a type once this file is part of a unity build (-Wsubobject-linkage).
  struct Frame {
    bool is_object = false;
    std::uint64_t offset = 0;
    std::size_t base = 0;  // index in the value stack where this container's children start
  };

  // Where the token just read starts, from where it ends: callbacks for scalars come right
  // after their last byte, so a literal or number starts its own length back; a string
  // without escapes (escapes always make the source longer than the text) its length plus
  // the quotes; a string with escapes at the nearest quote before it that is not escaped
  // (inside a string every quote is escaped, i.e. preceded by an odd run of backslashes).
  std::uint64_t scalar_start(Kind kind, std::size_t length) const {
    std::size_t end = stream_.Tell();
    if (kind != Kind::String) return end - length;
    if (written_without_escapes(length)) return end - length - 2;
    std::size_t at = end - 1;  // the closing quote
    for (;;) {
      --at;
      if (stream_.begin_[at] != '"') continue;
      std::size_t backslashes = 0;
      while (backslashes < at && stream_.begin_[at - 1 - backslashes] == '\\') ++backslashes;
      if (backslashes % 2 == 0) return at;
    }
  }

  // Whether the string just read, `length` bytes decoded, is its source bytes between quotes.
  // A quote inside a string is escaped, so it follows a backslash; an opening quote never does.
  bool written_without_escapes(std::size_t length) const {
    const std::size_t end = stream_.Tell();
    if (length + 2 > end) return false;
    const std::size_t c = end - length - 2;
    return stream_.begin_[c] == '"' && (c == 0 || stream_.begin_[c - 1] != '\\');
  }

  // The text is valid UTF-8, so a decoded string that is not came from an escape: RapidJSON 1.1
  // refuses a high surrogate without its low half, but decodes a lone low one (\uDC00-\uDFFF)
  // into the three bytes of a surrogate, which UTF-8 forbids (RFC 3629) and fmt would write out.
  bool string(const char* str, std::size_t length) {
    // Only an escape can make one: a string without escapes is its source bytes, checked already.
    if (!written_without_escapes(length) && std::memchr(str, 0xED, length) != nullptr &&
        first_invalid_utf8({str, length}) != std::string_view::npos) {
      lone_surrogate_at_ = scalar_start(Kind::String, length) + shift_;
      return false;
    }
    return scalar(Kind::String, str, length);
  }

  bool scalar(Kind kind, const char* str, std::size_t length) {
    if (skip_ > 0) return true;
    std::size_t literal = kind == Kind::Null || kind == Kind::True ? 4 : kind == Kind::False ? 5 : length;
    std::size_t start = scalar_start(kind, literal);
    std::uint64_t at = start + shift_;
    const void* data = nullptr;
    // Numbers, and strings without escapes, are used from the source text itself: no copy.
    const char* source = stream_.begin_ + start;
    std::size_t source_length = stream_.Tell() - start;
    if (kind == Kind::Number)
      data = source;
    else if (kind == Kind::String && source_length == length + 2)
      data = source + 1;
    else if (length > 0)
      data = arena_.copy({str, length}).data();
    stack_.push_back(detail::TreeAccess::make(kind, at, data, static_cast<std::uint32_t>(length)));
    return true;
  }

  bool start(bool is_object) {
    if (skip_ > 0) {
      ++skip_;
      return true;
    }
    // RapidJSON calls Start* before it takes the bracket: the stream is on it.
    std::uint64_t at = stream_.Tell() + shift_;
    if (frames_.size() >= options_.max_depth) {
      skip_ = 1;
      skip_offset_ = at;
      truncated_ = true;
      issues_.push_back(
          {ParseIssue::Type::TooDeep, at, 0,
           "nesting deeper than " + std::to_string(options_.max_depth) + " levels; the content below is not read",
           current_pointer(frames_.size())});
      return true;
    }
    frames_.push_back({is_object, at, stack_.size()});
    return true;
  }

  bool end(bool is_object) {
    if (skip_ > 0) {
      if (--skip_ == 0) {
        stack_.push_back(detail::TreeAccess::make(Kind::Truncated, skip_offset_, nullptr, 0));
      }
      return true;
    }
    Frame frame = frames_.back();
    std::size_t count = stack_.size() - frame.base;
    Value* first = stack_.data() + frame.base;
    Value result;
    if (is_object) {
      std::size_t n = count / 2;
      auto* members = static_cast<Member*>(arena_.allocate(n * sizeof(Member), alignof(Member)));
      for (std::size_t i = 0; i < n; ++i) {
        members[i].key = first[2 * i];
        members[i].value = first[2 * i + 1];
      }
      bool unique = check_duplicates({members, n});
      result = detail::TreeAccess::make(Kind::Object, frame.offset, members, static_cast<std::uint32_t>(n), unique);
    } else {
      auto* items = static_cast<Value*>(arena_.allocate(count * sizeof(Value), alignof(Value)));
      std::copy(first, first + count, items);
      result = detail::TreeAccess::make(Kind::Array, frame.offset, items, static_cast<std::uint32_t>(count));
    }
    stack_.resize(frame.base);
    frames_.pop_back();
    stack_.push_back(result);
    return true;
  }

  // Reports every repeated key; true when there is none.
  bool check_duplicates(std::span<const Member> members) {
    std::size_t issues_before = issues_.size();
    auto report = [&](const Member& first, const Member& again) {
      // The object being closed is still the innermost frame; its own pointer stops above it.
      std::string pointer = current_pointer(frames_.size() - 1) + "/" + pointer_escape(again.key.text());
      issues_.push_back({ParseIssue::Type::DuplicateKey, again.key.offset(), first.key.offset(),
                         "duplicate key \"" + std::string(again.key.text()) + "\"", pointer});
    };
    if (members.size() <= 32) {
      // Keys compared by a signature first (size, first and last byte): the text only on a match.
      // A key whose signature's bit in `seen` is clear is new (most keys): no search at all.
      std::uint64_t signature[32];
      std::uint64_t seen = 0;
      for (std::size_t i = 0; i < members.size(); ++i) {
        const std::string_view key = members[i].key.text();
        signature[i] = key.empty() ? 0
                                   : key.size() << 16 | std::uint64_t{static_cast<unsigned char>(key.front())} << 8 |
                                         static_cast<unsigned char>(key.back());
        const std::uint64_t bit = std::uint64_t{1} << ((signature[i] * 0x9E3779B97F4A7C15ULL) >> 58);
        if ((seen & bit) != 0) {
          for (std::size_t j = 0; j < i; ++j)
            if (signature[j] == signature[i] && members[j].key.text() == key) {
              report(members[j], members[i]);
              break;
            }
        }
        seen |= bit;
      }
      return issues_.size() == issues_before;
    }
    std::vector<std::size_t> order(members.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return members[a].key.text() < members[b].key.text(); });
    for (std::size_t i = 1; i < order.size(); ++i) {
      std::size_t first = i - 1;
      while (i < order.size() && members[order[i]].key.text() == members[order[first]].key.text()) {
        report(members[order[first]], members[order[i]]);
        ++i;
      }
    }
    return issues_.size() == issues_before;
  }

  // Pointer of the value being read now inside the `depth` outermost open containers (only
  // built for issues).
  std::string current_pointer(std::size_t depth) const {
    std::string pointer;
    for (std::size_t f = 0; f < depth; ++f) {
      std::size_t end = f + 1 < frames_.size() ? frames_[f + 1].base : stack_.size();
      std::size_t count = end - frames_[f].base;
      pointer += '/';
      if (frames_[f].is_object) {
        // Children alternate key, value: the last key read names the member being read.
        if (count > 0) pointer += pointer_escape(stack_[frames_[f].base + ((count - 1) & ~std::size_t{1})].text());
      } else {
        pointer += std::to_string(count);
      }
    }
    return pointer;
  }

  Arena& arena_;
  std::vector<ParseIssue>& issues_;
  bool& truncated_;
  const SourceStream& stream_;
  std::uint64_t shift_;
  const ParseOptions& options_;
  std::vector<Value> stack_;
  std::vector<Frame> frames_;
  std::uint32_t skip_ = 0;
  std::uint64_t skip_offset_ = 0;
  std::optional<std::uint64_t> lone_surrogate_at_;
};

// ---------------------------------------------------------------------------------------------
// The fast reader: a tokenizer of our own for the common case, a valid document, that drives the
// same DocumentBuilder with the same calls at the same stream positions as RapidJSON's reader,
// so the tree, its offsets and the builder's issues (duplicate keys, nesting bound) are the same.
// It gives up on anything else — a syntax error, invalid UTF-8, a control character in a string,
// a lone surrogate escape, a number RapidJSON might call too big — and Document::parse reads the
// text again with RapidJSON, whose errors and messages are the ones users see. Strings are
// scanned 16 bytes at a time and never copied unless they hold escapes; numbers are only
// delimited (the tree keeps their spelling).

namespace {

class FastReader {
 public:
  FastReader(SourceStream& stream, DocumentBuilder& builder) : stream_(stream), builder_(builder) {}

  /// True when the whole text is one valid JSON value (whitespace around it) and every call of
  /// the builder succeeded; false, with the builder in an unspecified state, otherwise.
  bool read() {
    const char* p = skip_whitespace(stream_.src_);
    std::vector<bool> open;  // the open containers, innermost last: true for an object
    open.reserve(64);
  value:
    if (p == end()) return false;
    switch (*p) {
      case '{':
        stream_.src_ = p;  // RapidJSON calls StartObject on the bracket
        if (!builder_.StartObject()) return false;
        p = skip_whitespace(p + 1);
        if (p != end() && *p == '}') {
          if (!builder_.EndObject(0)) return false;
          ++p;
          goto after_value;
        }
        open.push_back(true);
        goto key;
      case '[':
        stream_.src_ = p;
        if (!builder_.StartArray()) return false;
        p = skip_whitespace(p + 1);
        if (p != end() && *p == ']') {
          if (!builder_.EndArray(0)) return false;
          ++p;
          goto after_value;
        }
        open.push_back(false);
        goto value;
      case '"':
        p = string(p, false);
        if (p == nullptr) return false;
        goto after_value;
      case 't':
        if (!literal(p, "true") || !(stream_.src_ = p + 4, builder_.Bool(true))) return false;
        p += 4;
        goto after_value;
      case 'f':
        if (!literal(p, "false") || !(stream_.src_ = p + 5, builder_.Bool(false))) return false;
        p += 5;
        goto after_value;
      case 'n':
        if (!literal(p, "null") || !(stream_.src_ = p + 4, builder_.Null())) return false;
        p += 4;
        goto after_value;
      default:
        p = number(p);
        if (p == nullptr) return false;
        goto after_value;
    }
  key:
    if (p == end() || *p != '"') return false;
    p = string(p, true);
    if (p == nullptr) return false;
    p = skip_whitespace(p);
    if (p == end() || *p != ':') return false;
    p = skip_whitespace(p + 1);
    goto value;
  after_value:
    if (open.empty()) {
      p = skip_whitespace(p);
      stream_.src_ = p;
      return p == end();
    }
    p = skip_whitespace(p);
    if (p == end()) return false;
    if (*p == ',') {
      p = skip_whitespace(p + 1);
      if (open.back()) goto key;
      goto value;
    }
    if (*p != (open.back() ? '}' : ']')) return false;
    if (!(open.back() ? builder_.EndObject(0) : builder_.EndArray(0))) return false;
    open.pop_back();
    ++p;
    goto after_value;
  }

 private:
  [[nodiscard]] const char* end() const { return stream_.end_; }

  const char* skip_whitespace(const char* p) {
    // Most runs are none or one space (after a colon); the rest, indentation, goes 16 at a time.
    if (p == end() || static_cast<unsigned char>(*p) > ' ') return p;
    if (*p == ' ' && end() - p > 1 && static_cast<unsigned char>(p[1]) > ' ') return p + 1;
    stream_.src_ = p;
    rapidjson::SkipWhitespace(stream_);
    return stream_.src_;
  }

  [[nodiscard]] bool literal(const char* p, std::string_view word) const {
    return static_cast<std::size_t>(end() - p) >= word.size() && std::memcmp(p, word.data(), word.size()) == 0;
  }

  // The first byte from `p` on that ends a run of plain string bytes: a quote, a backslash, a
  // control character, or the end of the text; nullptr when the run is not valid UTF-8. (Every
  // byte of a valid text outside its strings is ASCII, so the run checks are the whole text's
  // UTF-8 check.)
  const char* plain_run(const char* p) const {
    const char* const start = p;
    bool ascii = true;
#ifdef __SSE2__
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i below_space = _mm_set1_epi8(0x1F);
    while (end() - p >= 16) {
      const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      const __m128i stop =
          _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(chunk, quote), _mm_cmpeq_epi8(chunk, backslash)),
                       _mm_cmpeq_epi8(_mm_max_epu8(chunk, below_space), below_space));  // unsigned <= 0x1F
      const auto mask = static_cast<unsigned>(_mm_movemask_epi8(stop));
      const auto high = static_cast<unsigned>(_mm_movemask_epi8(chunk));  // bytes >= 0x80
      if (mask != 0) {
        ascii = ascii && (high & (mask ^ (mask - 1))) == 0;  // none up to the stop
        p += __builtin_ctz(mask);
        return ascii || first_invalid_utf8({start, static_cast<std::size_t>(p - start)}) == std::string_view::npos
                   ? p
                   : nullptr;
      }
      ascii = ascii && high == 0;
      p += 16;
    }
#endif
    while (p != end() && *p != '"' && *p != '\\' && static_cast<unsigned char>(*p) >= 0x20) {
      ascii = ascii && static_cast<unsigned char>(*p) < 0x80;
      ++p;
    }
    return ascii || first_invalid_utf8({start, static_cast<std::size_t>(p - start)}) == std::string_view::npos
               ? p
               : nullptr;
  }

  // The string whose opening quote is at `p`, handed to the builder; what follows it, or
  // nullptr to give up.
  const char* string(const char* p, bool is_key) {
    const char* const start = p + 1;
    const char* q = plain_run(start);
    if (q == nullptr) return nullptr;
    const char* decoded = start;
    std::size_t length = 0;
    if (q != end() && *q == '"') {
      length = static_cast<std::size_t>(q - start);
    } else {
      scratch_.assign(start, q);
      for (;;) {
        if (q == end() || *q != '\\') break;  // a control character or the end of the text
        q = escape(q + 1);
        if (q == nullptr) return nullptr;
        const char* run = plain_run(q);
        if (run == nullptr) return nullptr;
        scratch_.append(q, run);
        q = run;
        if (q != end() && *q == '"') break;
      }
      if (q == end() || *q != '"') return nullptr;
      decoded = scratch_.data();
      length = scratch_.size();
    }
    if (length > 0xFFFFFFFFU) return nullptr;  // RapidJSON's sizes are 32-bit
    stream_.src_ = q + 1;
    const auto size = static_cast<rapidjson::SizeType>(length);
    if (!(is_key ? builder_.Key(decoded, size, true) : builder_.String(decoded, size, true))) return nullptr;
    return q + 1;
  }

  // Decodes the escape after a backslash at `p` onto scratch_ as RapidJSON does; what follows
  // it, or nullptr for anything RapidJSON refuses or the builder would (a lone low surrogate).
  const char* escape(const char* p) {
    if (p == end()) return nullptr;
    char simple = 0;
    switch (*p) {
      case '"':
        simple = '"';
        break;
      case '\\':
        simple = '\\';
        break;
      case '/':
        simple = '/';
        break;
      case 'b':
        simple = '\b';
        break;
      case 'f':
        simple = '\f';
        break;
      case 'n':
        simple = '\n';
        break;
      case 'r':
        simple = '\r';
        break;
      case 't':
        simple = '\t';
        break;
      case 'u':
        break;
      default:
        return nullptr;
    }
    if (simple != 0) {
      scratch_.push_back(simple);
      return p + 1;
    }
    std::uint32_t code = 0;
    if (!hex4(p + 1, code)) return nullptr;
    p += 5;
    if (code >= 0xDC00 && code <= 0xDFFF) return nullptr;  // a low surrogate first
    if (code >= 0xD800 && code <= 0xDBFF) {
      std::uint32_t low = 0;
      if (end() - p < 6 || p[0] != '\\' || p[1] != 'u' || !hex4(p + 2, low) || low < 0xDC00 || low > 0xDFFF)
        return nullptr;
      code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
      p += 6;
    }
    append_utf8(code);
    return p;
  }

  bool hex4(const char* p, std::uint32_t& code) const {
    if (end() - p < 4) return false;
    for (int i = 0; i < 4; ++i) {
      const char c = p[i];
      std::uint32_t digit = 0;
      if (c >= '0' && c <= '9')
        digit = static_cast<std::uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f')
        digit = static_cast<std::uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        digit = static_cast<std::uint32_t>(c - 'A' + 10);
      else
        return false;
      code = code << 4 | digit;
    }
    return true;
  }

  void append_utf8(std::uint32_t code) {
    if (code < 0x80) {
      scratch_.push_back(static_cast<char>(code));
    } else if (code < 0x800) {
      scratch_.push_back(static_cast<char>(0xC0 | code >> 6));
      scratch_.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else if (code < 0x10000) {
      scratch_.push_back(static_cast<char>(0xE0 | code >> 12));
      scratch_.push_back(static_cast<char>(0x80 | (code >> 6 & 0x3F)));
      scratch_.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else {
      scratch_.push_back(static_cast<char>(0xF0 | code >> 18));
      scratch_.push_back(static_cast<char>(0x80 | (code >> 12 & 0x3F)));
      scratch_.push_back(static_cast<char>(0x80 | (code >> 6 & 0x3F)));
      scratch_.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    }
  }

  // The number that starts at `p` (RFC 8259's grammar), handed to the builder; what follows it,
  // or nullptr. Gives up where RapidJSON might refuse a valid spelling as too big: more than
  // 300 digits before the point, or a positive exponent above 308.
  const char* number(const char* p) {
    const char* const start = p;
    auto digit = [&](const char* at) { return at != end() && *at >= '0' && *at <= '9'; };
    if (p != end() && *p == '-') ++p;
    if (!digit(p)) return nullptr;
    if (*p == '0') {
      ++p;
    } else {
      const char* first = p;
      while (digit(p)) ++p;
      if (p - first > 300) return nullptr;
    }
    if (p != end() && *p == '.') {
      ++p;
      if (!digit(p)) return nullptr;
      while (digit(p)) ++p;
    }
    if (p != end() && (*p == 'e' || *p == 'E')) {
      ++p;
      bool negative = false;
      if (p != end() && (*p == '+' || *p == '-')) negative = *p++ == '-';
      if (!digit(p)) return nullptr;
      std::uint32_t exponent = 0;
      while (digit(p)) {
        exponent = std::min<std::uint32_t>(exponent * 10 + static_cast<std::uint32_t>(*p - '0'), 100000);
        ++p;
      }
      if (!negative && exponent > 308) return nullptr;
    }
    const auto length = static_cast<std::size_t>(p - start);
    if (length > 0xFFFFFFFFU) return nullptr;
    stream_.src_ = p;
    if (!builder_.RawNumber(start, static_cast<rapidjson::SizeType>(length), true)) return nullptr;
    return p;
  }

  SourceStream& stream_;
  DocumentBuilder& builder_;
  std::string scratch_;  // the decoded text of a string with escapes
};

}  // namespace

Document Document::parse(std::string_view text, const ParseOptions& options) {
  return read(text, options, true);
}

Document Document::read(std::string_view text, const ParseOptions& options, bool fast) {
  Document doc;
  doc.arena_ = std::make_unique<Arena>(options.memory);
  doc.arena_->expect(text.size());
  doc.text_ = text;
  doc.lines_ = std::make_unique<LineIndex>(text);

  // A UTF-8 byte order mark is not part of the JSON text (RFC 8259 §8.1 lets parsers skip it).
  std::uint64_t shift = 0;
  std::string_view body = text;
  if (body.starts_with("\xEF\xBB\xBF")) {
    shift = 3;
    body.remove_prefix(3);
  }

  ParseOptions bounded = options;
  bounded.max_depth = std::min(options.max_depth, kMaxDepthLimit);
  if (fast) {
    SourceStream stream(body.data(), body.size());
    DocumentBuilder builder(*doc.arena_, doc.issues_, doc.truncated_, stream, shift, bounded);
    if (FastReader(stream, builder).read()) {
      doc.root_ = builder.take_root();
      doc.ok_ = true;
      return doc;
    }
    // Not a plain valid text: read it again from the start, as RapidJSON alone would.
    doc.issues_.clear();
    doc.truncated_ = false;
    doc.arena_ = std::make_unique<Arena>(options.memory);
    doc.arena_->expect(text.size());
  }
  // UTF-8 is checked once over the whole text, then parsed without RapidJSON's own check.
  std::size_t bad_utf8 = first_invalid_utf8(body);
  SourceStream stream(body.data(), body.size());
  DocumentBuilder builder(*doc.arena_, doc.issues_, doc.truncated_, stream, shift, bounded);
  rapidjson::Reader reader;
  constexpr unsigned kFlags = rapidjson::kParseIterativeFlag | rapidjson::kParseNumbersAsStringsFlag;
  rapidjson::ParseResult result = reader.Parse<kFlags>(stream, builder);
  if (bad_utf8 != std::string_view::npos && (!result.IsError() || result.Offset() > bad_utf8)) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(body[bad_utf8]));
    doc.issues_.clear();
    doc.issues_.push_back(ParseIssue{ParseIssue::Type::Syntax, bad_utf8 + shift, 0,
                                     std::string("invalid UTF-8: byte ") + hex + " does not start a valid sequence",
                                     ""});
    doc.root_ = Value{};
    doc.ok_ = false;
    return doc;
  }

  auto syntax_error = [&](std::uint64_t offset, std::string message) {
    doc.issues_.insert(doc.issues_.begin(), ParseIssue{ParseIssue::Type::Syntax, offset, 0, std::move(message), ""});
    doc.root_ = Value{};
    doc.ok_ = false;
  };

  if (auto at = builder.lone_surrogate_at(); result.IsError() && at) {
    syntax_error(*at, "invalid UTF-16 surrogate in \\u escape: a low surrogate without a high one before it");
    return doc;
  }
  if (result.IsError()) {
    std::uint64_t offset = result.Offset();
    std::string message = expected_message(result.Code());
    if (offset < body.size() && body[offset] == '\0') {
      // RapidJSON's memory stream reads a NUL byte as the end of input, so its own message would
      // say "end of file" about a byte in the middle of the file.
      if (result.Code() == rapidjson::kParseErrorDocumentEmpty) message = "expected a JSON value";
      message += ", found a NUL byte (0x00): this is not a text file";
    } else if (offset >= body.size() && result.Code() != rapidjson::kParseErrorDocumentRootNotSingular) {
      message = "unexpected end of file: " + message;
    } else if (offset < body.size()) {
      auto byte = static_cast<unsigned char>(body[offset]);
      if (result.Code() == rapidjson::kParseErrorStringEscapeInvalid && byte < 0x20) {
        // RapidJSON reports a raw control character in a string as a bad escape.
        char hex[8];
        std::snprintf(hex, sizeof hex, "%04X", byte);
        message = std::string("control character U+") + hex + " must be written as an escape inside a string";
      } else if (result.Code() != rapidjson::kParseErrorStringInvalidEncoding && (byte < 0x20 || byte >= 0x80)) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02X", byte);
        message += std::string(", found byte ") + hex;
      }
    }
    syntax_error(offset + shift, std::move(message));
    return doc;
  }
  // RapidJSON's memory stream reads a NUL byte as the end of input; the text must really end.
  if (stream.Tell() < body.size()) {
    syntax_error(stream.Tell() + shift, "unexpected NUL byte (0x00) after the top-level value");
    return doc;
  }
  doc.root_ = builder.take_root();
  doc.ok_ = true;
  return doc;
}

std::optional<std::uint64_t> invalid_utf8_offset(std::string_view text) {
  std::size_t bad = first_invalid_utf8(text);
  if (bad == std::string_view::npos) return std::nullopt;
  return bad;
}

std::string valid_utf8(std::string_view text) {
  std::string out;
  for (;;) {
    std::size_t bad = first_invalid_utf8(text);
    if (bad == std::string_view::npos) break;
    out.append(text.substr(0, bad));
    out += "\xEF\xBF\xBD";
    text.remove_prefix(bad + 1);
  }
  out.append(text);
  return out;
}

}  // namespace ptmpl::json
