// A JSON tree that remembers where every value was written.
//
// Unlike a plain DOM, the tree keeps what a faithful rewrite needs: the spelling of every
// number, every member of an object in its original order (duplicate keys included), and the
// byte offset of every value in the source, from which line and column are derived.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <memory_resource>
#include <mutex>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace ptmpl::detail {
struct TreeAccess;  // src/json/tree_access.hpp: what the library does with trees and its users cannot
}

namespace ptmpl::json {

enum class Kind : std::uint8_t {
  Null,
  False,
  True,
  Number,
  String,
  Array,
  Object,
  /// A container below the nesting bound: the reader checked its syntax but did not keep it.
  Truncated,
};

struct Member;

/// One JSON value. Cheap to copy (16 bytes): strings and children live in the owning
/// Document's arena (or, for numbers and strings without escapes, in the parsed text itself),
/// so a Value is valid as long as its Document is.
class Value {
 public:
  Value() = default;

  [[nodiscard]] Kind kind() const { return static_cast<Kind>(meta_ >> kKindShift & 7U); }
  /// Byte offset of the value's first character in the source text (0 for built values).
  [[nodiscard]] std::uint64_t offset() const { return meta_ & kOffsetMask; }

  [[nodiscard]] bool is_null() const { return kind() == Kind::Null; }
  [[nodiscard]] bool is_bool() const { return kind() == Kind::True || kind() == Kind::False; }
  [[nodiscard]] bool is_number() const { return kind() == Kind::Number; }
  [[nodiscard]] bool is_string() const { return kind() == Kind::String; }
  [[nodiscard]] bool is_array() const { return kind() == Kind::Array; }
  [[nodiscard]] bool is_object() const { return kind() == Kind::Object; }

  /// For a string: its decoded UTF-8 text. For a number: its spelling as written.
  [[nodiscard]] std::string_view text() const {
    return {static_cast<const char*>(data()), is_string() || is_number() ? size() : 0};
  }
  [[nodiscard]] std::span<const Value> items() const {
    return {static_cast<const Value*>(data()), is_array() ? size() : 0};
  }
  [[nodiscard]] std::span<const Member> members() const;

  /// The value of the last member named `key` (the service keeps the last of duplicate
  /// keys), or nullptr. Linear in the number of members.
  [[nodiscard]] const Value* find(std::string_view key) const;

  /// A number written as an integer (no fraction or exponent) that fits int64.
  [[nodiscard]] std::optional<std::int64_t> as_int64() const;
  /// A number's value as the nearest double: ±infinity beyond double's range, ±0 below it
  /// (check std::isfinite where that matters); nullopt for every other kind.
  [[nodiscard]] std::optional<double> as_double() const;
  /// True when the value is a number spelled as an integer, whatever its size.
  [[nodiscard]] bool is_integer_spelling() const;
  [[nodiscard]] std::optional<bool> as_bool() const {
    if (kind() == Kind::True) return true;
    if (kind() == Kind::False) return false;
    return std::nullopt;
  }

  /// For an object: true when no key appears twice (known for parsed objects; built ones are
  /// not assumed to be). Lookups then stop at the first match.
  [[nodiscard]] bool unique_keys() const { return (meta_ >> kUniqueShift & 1U) != 0; }

 private:
  friend struct ptmpl::detail::TreeAccess;
  // Two words, so that a member (key and value) takes 32 bytes and an array item 16:
  //   data_: the address of the text or children (low 48 bits) | size bits 16–31 (high 16)
  //   meta_: offset (low 44 bits) | kind (3 bits) | unique keys (1 bit) | size bits 0–15 (high 16)
  static constexpr unsigned kAddressBits = 48;
  static constexpr unsigned kKindShift = 44;
  static constexpr unsigned kUniqueShift = 47;
  static constexpr unsigned kSizeLowShift = 48;
  static constexpr std::uint64_t kOffsetMask = (std::uint64_t{1} << kKindShift) - 1;

  [[nodiscard]] const void* data() const {
    return reinterpret_cast<const void*>(static_cast<std::uintptr_t>(data_ & ((std::uint64_t{1} << kAddressBits) - 1)));
  }
  [[nodiscard]] std::uint32_t size() const {
    return static_cast<std::uint32_t>((data_ >> kAddressBits) << 16 | meta_ >> kSizeLowShift);
  }

  std::uint64_t data_ = 0;
  std::uint64_t meta_ = 0;
};

static_assert(sizeof(void*) == 8, "Value packs an address in 48 bits");

struct Member {
  Value key;  ///< always a string
  Value value;
};

inline std::span<const Member> Value::members() const {
  return {static_cast<const Member*>(data()), is_object() ? size() : 0};
}

/// Bump allocator that owns the strings and child arrays of a tree. It takes its memory from
/// `memory` in blocks, the first of kFirstBlockSize and each next twice the one before up to
/// kBlockSize (a large array gets a block of its own), and gives them back when destroyed;
/// `memory` must outlive it. A small tree (a service's answer, a small file) so takes a few
/// KiB, not a 1 MiB block that the C library hands back to the system at every free. A pool
/// that the caller keeps across files lets file after file reuse the blocks instead of faulting
/// in fresh pages each time (lint_files keeps one for its run): a
/// `std::pmr::synchronized_pool_resource` made with kPoolOptions.
class Arena {
 public:
  static constexpr std::size_t kBlockSize = std::size_t{1} << 20;
  static constexpr std::size_t kFirstBlockSize = std::size_t{4} << 10;
  /// For a pool resource that serves arenas: pools up to kBlockSize, each block taken alone
  /// from upstream (the default, chunks of several blocks, peaked 100 MiB higher when linting
  /// a 65 MiB file again and again).
  static constexpr std::pmr::pool_options kPoolOptions{1, kBlockSize};

  explicit Arena(std::pmr::memory_resource* memory = std::pmr::get_default_resource()) : memory_(memory) {}
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  Arena(Arena&& other) noexcept : memory_(other.memory_) { *this = std::move(other); }
  Arena& operator=(Arena&& other) noexcept;
  ~Arena() { release(); }

  void* allocate(std::size_t bytes, std::size_t align);
  [[nodiscard]] std::string_view copy(std::string_view text);
  /// Room for `n` objects of a trivially destructible T, default-constructed.
  template <class T>
  [[nodiscard]] std::span<T> make_array(std::size_t n) {
    static_assert(std::is_trivially_destructible_v<T>);
    auto* p = static_cast<T*>(allocate(n * sizeof(T), alignof(T)));
    // Classes are built by their constructor alone (no zeroing first: `T()` would memset
    // every byte of a large story array before the constructor runs); scalars are zeroed.
    if constexpr (std::is_trivially_default_constructible_v<T>) {
      for (std::size_t i = 0; i < n; ++i) new (p + i) T();
    } else {
      for (std::size_t i = 0; i < n; ++i) new (p + i) T;
    }
    return {p, n};
  }
  /// A copy of `items` in the arena.
  template <class T>
  [[nodiscard]] std::span<const T> copy_array(std::span<const T> items) {
    std::span<T> out = make_array<T>(items.size());
    std::copy(items.begin(), items.end(), out.begin());
    return out;
  }
  [[nodiscard]] std::size_t bytes_allocated() const { return total_; }

  /// Says that about `text_bytes` of JSON text are about to be parsed into this arena. From
  /// kChunksForText bytes on, the arena takes its memory in chunks mapped from the system at
  /// once instead of after 8 MiB of blocks from `memory`: a large tree's memory then comes
  /// from one place, whose chunks the next arena of the process reuses (arena.cpp keeps a few
  /// given back). Below it, a tree takes blocks from `memory`, which a pool that the caller
  /// keeps hands on to the next file.
  void expect(std::size_t text_bytes) {
    if (text_bytes >= kChunksForText) chunks_from_ = 0;
  }
  static constexpr std::size_t kChunksForText = std::size_t{16} << 20;
  /// Without expect(), chunks come once the blocks hold this many bytes.
  static constexpr std::size_t kChunksAfterBlockBytes = 8 * kBlockSize;

  /// Lends the arena `size` bytes at `data` (aligned for any scalar) to allocate from before it
  /// takes memory of its own: memory whose owner keeps it alive longer than the arena, and that
  /// the arena never gives back. TemplateFile lends the pages its text no longer needs, which
  /// are resident already (fresh pages cost a fault and zeroing each).
  void lend(void* data, std::size_t size);
  /// How many bytes of the memory lent last are taken: all of them once the arena went past it.
  [[nodiscard]] std::size_t lent_taken() const;

 private:
  struct Block {
    std::byte* data;
    std::size_t size;
  };
  void release();

  std::pmr::memory_resource* memory_;
  std::vector<Block> blocks_;
  std::byte* cursor_ = nullptr;
  std::size_t left_ = 0;
  std::size_t total_ = 0;
  std::size_t next_block_ = kFirstBlockSize;          // the size of the next block taken from memory_
  std::size_t block_bytes_ = 0;                       // the bytes of the blocks taken so far
  std::size_t chunks_from_ = kChunksAfterBlockBytes;  // chunks once the blocks hold this many bytes
  Block lent_{nullptr, 0};
};

/// Builds values whose storage lives in an arena (for writers, generators, converters).
class Builder {
 public:
  explicit Builder(Arena& arena) : arena_(&arena) {}
  [[nodiscard]] Value null() const { return {}; }
  [[nodiscard]] Value boolean(bool b) const;
  [[nodiscard]] Value string(std::string_view text) const;
  [[nodiscard]] Value integer(std::int64_t n) const;
  /// A number with the given spelling; the caller guarantees it is valid JSON number text.
  [[nodiscard]] Value number_spelled(std::string_view spelling) const;
  [[nodiscard]] Value array(std::span<const Value> items) const;
  [[nodiscard]] Value object(std::span<const Member> members) const;
  [[nodiscard]] Member member(std::string_view key, Value value) const { return {string(key), value}; }

 private:
  Arena* arena_;
};

/// 1-based line and column; the column counts Unicode code points.
struct Position {
  std::uint64_t line = 0;
  std::uint64_t column = 0;
};

/// Maps byte offsets of a text to lines and columns. Lines end at "\n". Built on first use (a
/// clean file never pays), once, safely from several threads. Any position costs O(log lines)
/// plus at most 4 KiB of counting, however long the line (minified files are one line).
class LineIndex {
 public:
  explicit LineIndex(std::string_view text) : text_(text) {}
  [[nodiscard]] Position position(std::uint64_t offset) const;
  /// The text of the 1-based line, without its line terminator.
  [[nodiscard]] std::string_view line_text(std::uint64_t line) const;
  /// How many lines the text has, at least 1 (after a final "\n" starts an empty last line).
  [[nodiscard]] std::uint64_t line_count() const;
  /// The byte offset at which the 1-based `line` starts; `line` is at most line_count().
  [[nodiscard]] std::uint64_t line_start(std::uint64_t line) const;
  /// The 1-based line that holds `offset` (an offset past the end: the last line).
  [[nodiscard]] std::uint64_t line_of(std::uint64_t offset) const;

 private:
  const std::vector<std::uint64_t>& starts() const;
  [[nodiscard]] std::uint64_t code_points_before(std::uint64_t offset) const;

  std::string_view text_;
  mutable std::once_flag lines_built_;
  mutable std::once_flag checkpoints_built_;
  mutable std::vector<std::uint64_t> starts_;       // byte offset of each line
  mutable std::vector<std::uint64_t> checkpoints_;  // code points before each 4 KiB block
};

/// Something the parser noticed about the text itself.
struct ParseIssue {
  enum class Type {
    Syntax,        ///< invalid JSON, invalid UTF-8, stray NUL byte
    DuplicateKey,  ///< same key twice in one object; `other_offset` is the first one
    TooDeep,       ///< container beyond the nesting bound; not kept in the tree
  };
  Type type = Type::Syntax;
  std::uint64_t offset = 0;
  std::uint64_t other_offset = 0;
  std::string message;
  std::string pointer;  ///< JSON pointer of the value concerned (empty for the root or syntax)
};

struct ParseOptions {
  /// Containers nested deeper than this are checked but not kept (ParseIssue::TooDeep).
  /// At most kMaxDepthLimit: code that walks the tree may recurse once per level.
  std::uint32_t max_depth = 256;
  /// Where the document's arena takes its memory (see Arena); it must outlive the Document.
  std::pmr::memory_resource* memory = std::pmr::get_default_resource();
};

/// The highest nesting bound ptmpl accepts (`--max-depth`, `max_depth` in `.ptmpl.json`).
inline constexpr std::uint32_t kMaxDepthLimit = 4096;

/// A parsed text: the tree, its arena, and what the parser noticed. Move-only.
class Document {
 public:
  Document();
  Document(Document&&) noexcept;
  Document& operator=(Document&&) noexcept;
  ~Document();

  [[nodiscard]] const Value& root() const { return root_; }
  /// False when the text is not valid JSON; `issues()` then starts with the syntax error and
  /// `root()` is null.
  [[nodiscard]] bool ok() const { return ok_; }
  [[nodiscard]] bool truncated() const { return truncated_; }
  [[nodiscard]] const std::vector<ParseIssue>& issues() const { return issues_; }
  /// The text parsed (after detach_text(), the same bytes obtained again, once, on first use).
  [[nodiscard]] std::string_view text() const { return detached_ ? detached_text() : text_; }
  [[nodiscard]] Position position(std::uint64_t offset) const { return lines().position(offset); }
  [[nodiscard]] const LineIndex& lines() const;
  [[nodiscard]] Arena& arena() { return *arena_; }

  /// Parses `text`, which must outlive the Document (it is referenced for positions).
  /// Never throws on bad input and never recurses on the input's nesting.
  static Document parse(std::string_view text, const ParseOptions& options = {});

  /// Gives the text parsed again, with what keeps it alive; throws (ptmpl::Failure, or
  /// std::bad_alloc) when it cannot. The same bytes as parsed, or a failure: never others.
  using TextSource = std::function<std::pair<std::shared_ptr<const void>, std::string_view>()>;

  /// Lets the tree go of the text: moves the bytes of every string and number it views there
  /// into `store` and returns how many bytes of `store` that took, so that the caller can give
  /// the rest of the text back. `store` may be the text's own first bytes: the move runs front
  /// to back and never overtakes what it has still to read. Without a store (null), the bytes
  /// are copied into the document's arena. A key or a short value written many times is
  /// stored once. Afterwards text(), lines() and position() take the text from
  /// `source`, once, on first use (a file with nothing to report never needs it), and so does
  /// value_end() given that text. For a document that parsed (ok()); at most once.
  std::size_t detach_text(char* store, TextSource source);

 private:
  friend struct ptmpl::detail::TreeAccess;
  // `fast`: try the reader of our own first (src/json/parser.cpp), else RapidJSON's alone.
  static Document read(std::string_view text, const ParseOptions& options, bool fast);

  struct Detached;  // the text's source once let go, and the text obtained from it
  [[nodiscard]] std::string_view detached_text() const;

  std::string_view text_;
  std::unique_ptr<Arena> arena_ = std::make_unique<Arena>();
  std::unique_ptr<LineIndex> lines_;
  std::unique_ptr<Detached> detached_;
  Value root_;
  std::vector<ParseIssue> issues_;
  bool ok_ = false;
  bool truncated_ = false;
};

/// Parses a whole decimal integer (as the service writes ids in strings); nullopt otherwise.
[[nodiscard]] std::optional<std::int64_t> parse_int64(std::string_view text);

/// The byte offset just past `value` in `text`, the text it was parsed from (as
/// Document::parse read it, byte order mark included): after the closing quote, bracket or
/// brace, or the last character of a number or literal; `text.substr(value.offset(), end -
/// value.offset())` is the value as written. Constant time for numbers and strings without
/// escapes (the tree holds their source bytes); for other values the tokenizer reads the value
/// again, one pass over its text (a container beyond the nesting bound included). nullopt when
/// `text` does not hold a value of the same kind (and, for a scalar, the same text) at
/// `value.offset()`, as for values built rather than parsed.
[[nodiscard]] std::optional<std::uint64_t> value_end(std::string_view text, const Value& value);

/// For each member of `object` in order, whether it is the last one with its key (the one the
/// service keeps, and `Value::find` returns). Linear in the number of members.
[[nodiscard]] std::vector<bool> last_occurrences(const Value& object);

/// `value` with every object, at any depth, holding only the last member of each key (where
/// it stands): what the service keeps of it. Parts without duplicate keys are shared, not
/// copied; new parts are allocated in `arena`. Recurses once per level of nesting.
[[nodiscard]] Value last_of_each_key(const Value& value, Arena& arena);

/// What kind of value `value` is, for messages: "null", "a boolean", "an integer", "a number",
/// "a string", "an array", "an object", "a deeply nested value".
[[nodiscard]] std::string_view kind_name(const Value& value);

/// `text` with every byte that is not part of valid UTF-8 replaced by U+FFFD (for names that
/// come from the file system, which need not be UTF-8, on their way into JSON or XML).
[[nodiscard]] std::string valid_utf8(std::string_view text);

/// Offset of the first byte of `text` that is not part of valid UTF-8 (RFC 3629: no overlong
/// forms, surrogates or code points above U+10FFFF); nullopt when all of it is.
[[nodiscard]] std::optional<std::uint64_t> invalid_utf8_offset(std::string_view text);

/// Escapes `segment` for use inside a JSON pointer (RFC 6901: ~ → ~0, / → ~1).
[[nodiscard]] std::string pointer_escape(std::string_view segment);

/// Follows a JSON pointer from `root`; nullptr when it does not resolve.
[[nodiscard]] const Value* resolve_pointer(const Value& root, std::string_view pointer);

/// Appends `text` as a JSON string literal (quotes included), escaped as JsonEmitter escapes
/// every string (json_emitter.cpp holds the one escaping): `"`, `\`, `\b`, `\f`, `\n`, `\r`,
/// `\t`, other control characters as `\u00xx`; everything else as it is (UTF-8, not checked).
void append_quoted(std::string& out, std::string_view text);

/// `text` as a JSON string literal, as append_quoted() writes it.
[[nodiscard]] std::string quoted(std::string_view text);

}  // namespace ptmpl::json
