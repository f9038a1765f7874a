// Letting a parsed tree go of its text (Document::detach_text): the strings and numbers the
// tree views in the text move into a small store, so that the text (most of it whitespace,
// punctuation and keys written again and again) can be given back; the text comes back from
// its source only when something asks for it (a position, an excerpt, a fix).
#include <cstring>
#include <vector>

#include "json/tree_access.hpp"
#include "libtemplate/core/json.hpp"

namespace ptmpl::json {

struct Document::Detached {
  TextSource source;
  std::once_flag obtained;
  std::shared_ptr<const void> keep;  // what holds `text`
  std::string_view text;
  std::unique_ptr<LineIndex> lines;

  // Several threads may ask at once (lint's rules run on two); a failure is thrown to each
  // asker, and the next one tries again.
  void obtain() {
    std::call_once(obtained, [this] {
      auto [held, bytes] = source();
      lines = std::make_unique<LineIndex>(bytes);
      keep = std::move(held);
      text = bytes;
    });
  }
};

Document::Document() = default;
Document::Document(Document&&) noexcept = default;
Document& Document::operator=(Document&&) noexcept = default;
Document::~Document() = default;

const LineIndex& Document::lines() const {
  if (!detached_) return *lines_;
  detached_->obtain();
  return *detached_->lines;
}

std::string_view Document::detached_text() const {
  detached_->obtain();
  return detached_->text;
}

namespace {

// Moves the bytes of strings and numbers out of a text into a store, in the order they are
// written there, so that the store may be the text's own beginning: what is written never
// reaches bytes still to be read. Short texts seen before are not written again.
class Compactor {
 public:
  Compactor(std::string_view text, char* store, Arena& arena)
      : begin_(text.data()),
        end_(text.data() + text.size()),
        store_(store),
        cursor_(store),
        arena_(arena),
        seen_(kSeenSlots) {}

  // Walks the tree in the order of the text (each container's values in order, a member's key
  // before its value), without recursion on the nesting.
  void walk(Value& root) {
    struct Frame {
      Value* items;
      Member* members;
      std::size_t left;
    };
    std::vector<Frame> stack;
    auto enter = [&](Value& v) {
      // The tree is the document's own: its arena's values are written here, and only here.
      if (v.is_array()) {
        std::span<const Value> items = v.items();
        if (!items.empty()) stack.push_back({const_cast<Value*>(items.data()), nullptr, items.size()});
      } else if (v.is_object()) {
        std::span<const Member> members = v.members();
        if (!members.empty()) stack.push_back({nullptr, const_cast<Member*>(members.data()), members.size()});
      } else {
        move(v);
      }
    };
    enter(root);
    while (!stack.empty()) {
      Frame& frame = stack.back();
      if (frame.left == 0) {
        stack.pop_back();
        continue;
      }
      --frame.left;
      // The tree is walked in the text's order, its arrays were allocated as they closed: the
      // next sibling's children are fetched while this one's are walked (the walk waits on
      // memory, not on work).
      if (frame.items != nullptr) {
        if (frame.left > 0) prefetch_children(frame.items[1]);
        enter(*frame.items++);  // may grow the stack: `frame` is not used after this
      } else {
        if (frame.left > 0) prefetch_children(frame.members[1].value);
        Member& member = *frame.members++;
        move(member.key);
        enter(member.value);
      }
    }
  }

  static void prefetch_children(const Value& v) {
    if (v.is_array())
      __builtin_prefetch(v.items().data());
    else if (v.is_object())
      __builtin_prefetch(v.members().data());
  }

  [[nodiscard]] std::size_t used() const { return static_cast<std::size_t>(cursor_ - store_); }

 private:
  static constexpr std::size_t kSeenSlots = 4096;  // a power of two
  static constexpr std::size_t kShortest = 32;     // longer texts are seldom written twice

  // A text of up to kShortest bytes held in four words: loaded in one go (so that it can be
  // written where it overlaps its old place) and compared without reading the store.
  struct Short {
    std::uint64_t word[4] = {0, 0, 0, 0};
    std::size_t size = 0;

    explicit Short(std::string_view t) : size(t.size()) {
      const char* p = t.data();
      const std::size_t n = t.size();
      // Each size class covers every byte, so equal words and sizes are equal texts.
      if (n >= 16) {
        word[0] = load<std::uint64_t>(p);
        word[1] = load<std::uint64_t>(p + 8);
        word[2] = load<std::uint64_t>(p + n - 16);
        word[3] = load<std::uint64_t>(p + n - 8);
      } else if (n >= 8) {
        word[0] = load<std::uint64_t>(p);
        word[1] = load<std::uint64_t>(p + n - 8);
      } else if (n >= 4) {
        word[0] = load<std::uint32_t>(p) | std::uint64_t{load<std::uint32_t>(p + n - 4)} << 32;
      } else if (n > 0) {
        word[0] = byte(p[0]) | byte(p[n / 2]) << 8 | byte(p[n - 1]) << 16;
      }
    }

    void store(char* to) const {
      const std::size_t n = size;
      if (n >= 16) {
        put(to, word[0]);
        put(to + 8, word[1]);
        put(to + n - 16, word[2]);
        put(to + n - 8, word[3]);
      } else if (n >= 8) {
        put(to, word[0]);
        put(to + n - 8, word[1]);
      } else if (n >= 4) {
        put(to, static_cast<std::uint32_t>(word[0]));
        put(to + n - 4, static_cast<std::uint32_t>(word[0] >> 32));
      } else if (n > 0) {
        to[0] = static_cast<char>(word[0]);
        to[n / 2] = static_cast<char>(word[0] >> 8);
        to[n - 1] = static_cast<char>(word[0] >> 16);
      }
    }

    [[nodiscard]] std::uint64_t hash() const {
      std::uint64_t h = (word[0] * 0x9E3779B185EBCA87ull) ^ (word[1] * 0xC2B2AE3D27D4EB4Full) ^
                        (word[3] * 0x165667B19E3779F9ull) ^ size;
      return h ^ (h >> 29);
    }

    friend bool operator==(const Short&, const Short&) = default;

    template <class T>
    static T load(const char* p) {
      T v;
      std::memcpy(&v, p, sizeof v);
      return v;
    }
    template <class T>
    static void put(char* p, T v) {
      std::memcpy(p, &v, sizeof v);
    }
    static std::uint64_t byte(char c) { return static_cast<unsigned char>(c); }
  };

  struct Seen {
    Short text{std::string_view()};
    const char* data = nullptr;
  };

  // `v` viewing bytes of the text: the same value, viewing its bytes in the store.
  void move(Value& v) {
    if (!v.is_string() && !v.is_number()) return;
    const std::string_view t = v.text();
    // Strings with escapes were decoded into the arena: they stay where they are.
    if (t.data() < begin_ || t.data() > end_) return;
    const char* at = nullptr;
    if (t.data() < read_) {
      // Not in the order of the text (no reader makes such a tree): the store could overtake
      // it, so it goes to the arena instead.
      at = arena_.copy(t).data();
    } else {
      read_ = t.data() + t.size();
      at = place(t);
    }
    v = detail::TreeAccess::make(v.kind(), v.offset(), at, static_cast<std::uint32_t>(t.size()));
  }

  const char* place(std::string_view t) {
    if (t.empty()) return "";  // present, if empty: never a null address (an absent text's)
    if (t.size() > kShortest) return write(t);
    const Short text(t);
    Seen& slot = seen_[text.hash() & (kSeenSlots - 1)];
    if (slot.data != nullptr && slot.text == text) return slot.data;
    const char* at = nullptr;
    if (store_ == nullptr) {
      at = arena_.copy(t).data();
    } else {
      text.store(cursor_);
      at = cursor_;
      cursor_ += t.size();
    }
    slot = {text, at};
    return at;
  }

  const char* write(std::string_view t) {
    if (store_ == nullptr) return arena_.copy(t).data();
    char* at = cursor_;
    std::memmove(at, t.data(), t.size());
    cursor_ += t.size();
    return at;
  }

  const char* begin_;
  const char* end_;
  const char* read_ = nullptr;  // the end of the last bytes moved
  char* store_;
  char* cursor_;
  Arena& arena_;
  std::vector<Seen> seen_;
};

}  // namespace

std::size_t Document::detach_text(char* store, TextSource source) {
  Compactor compactor(text_, store, *arena_);
  compactor.walk(root_);
  auto detached = std::make_unique<Detached>();
  detached->source = std::move(source);
  detached_ = std::move(detached);
  lines_.reset();  // it viewed the text
  text_ = {};
  return compactor.used();
}

}  // namespace ptmpl::json
