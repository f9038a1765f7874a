// Letting a parsed tree go of its text (Document::detach_text): the strings and numbers the
// tree views in the text move into a small store, so that the text (most of it whitespace,
// punctuation and keys written again and again) can be given back; the text comes back from
// its source only when something asks for it (a position, an excerpt, a fix).
#include <cstring>
#include <vector>

#include "libtemplate/json.hpp"

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
      : begin_(text.data()), end_(text.data() + text.size()), store_(store), cursor_(store), arena_(arena),
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
    if (v.is_array()) __builtin_prefetch(v.items().data());
    else if (v.is_object()) __builtin_prefetch(v.members().data());
  }

  [[nodiscard]] std::size_t used() const { return static_cast<std::size_t>(cursor_ - store_); }

 private:
  static constexpr std::size_t kSeenSlots = 4096;  // a power of two
  static constexpr std::size_t kSeenLongest = 32;  // longer texts are seldom written twice

  struct Seen {
    const char* data = nullptr;
    std::size_t size = 0;
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
    v = Value::make(v.kind(), v.offset(), at, static_cast<std::uint32_t>(t.size()));
  }

  const char* place(std::string_view t) {
    if (t.size() > kSeenLongest) return write(t);
    Seen& slot = seen_[hash(t) & (kSeenSlots - 1)];
    if (slot.data != nullptr && slot.size == t.size() && std::memcmp(slot.data, t.data(), t.size()) == 0)
      return slot.data;
    const char* at = write(t);
    slot = {at, t.size()};
    return at;
  }

  const char* write(std::string_view t) {
    if (t.empty()) return "";  // present, if empty: never a null address (an absent text's)
    if (store_ == nullptr) return arena_.copy(t).data();
    char* at = cursor_;
    std::memmove(at, t.data(), t.size());
    cursor_ += t.size();
    return at;
  }

  // First and last eight bytes and the size: enough to tell apart the short texts of a file.
  static std::uint64_t hash(std::string_view t) {
    std::uint64_t head = 0;
    std::uint64_t tail = 0;
    if (t.size() >= 8) {
      std::memcpy(&head, t.data(), 8);
      std::memcpy(&tail, t.data() + t.size() - 8, 8);
    } else if (!t.empty()) {
      std::memcpy(&head, t.data(), t.size());
    }
    std::uint64_t h = (head * 0x9E3779B185EBCA87ull) ^ (tail * 0xC2B2AE3D27D4EB4Full) ^ t.size();
    return h ^ (h >> 29);
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
