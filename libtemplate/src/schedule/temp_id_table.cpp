#include "schedule/temp_id_table.hpp"

#include <algorithm>
#include <limits>
#include <variant>

namespace ptmpl::detail {

namespace {

// `to` - `from` for to >= from, in unsigned arithmetic: the span of two int64 may not fit in one.
std::uint64_t distance(std::int64_t from, std::int64_t to) {
  return static_cast<std::uint64_t>(to) - static_cast<std::uint64_t>(from);
}

}  // namespace

TempIdTable::TempIdTable(const StoryIndex& index, std::vector<std::size_t>& repeated) {
  const std::size_t count = index.size();
  keys_.resize(count);
  std::size_t integers = 0;
  std::int64_t low = std::numeric_limits<std::int64_t>::max();
  std::int64_t high = std::numeric_limits<std::int64_t>::min();
  for (std::size_t i = 0; i < count; ++i) {
    const Story& story = index.story(i);
    if (!story.temp_id) continue;
    const TempId& key = keys_[i].emplace(canonical_temp_id(*story.temp_id));
    if (const auto* n = std::get_if<std::int64_t>(&key)) {
      ++integers;
      low = std::min(low, *n);
      high = std::max(high, *n);
    }
  }
  // Dense: the integer ids span at most four entries a story (an array no larger than the
  // hashed table would be).
  const bool dense = integers > 0 && distance(low, high) < static_cast<std::uint64_t>(4 * count);
  std::size_t hashed = count;
  if (dense) {
    dense_low_ = low;
    dense_.assign(static_cast<std::size_t>(distance(low, high)) + 1, kFree);
    hashed = count - integers;
  }
  std::size_t slots = 16;
  while (slots < 2 * hashed) slots *= 2;
  slots_.assign(slots, Slot{});
  // Of duplicate temp_ids, the first in tree order keeps its place.
  for (std::size_t i = 0; i < count; ++i) {
    if (!keys_[i]) continue;
    const TempId& key = *keys_[i];
    const auto* n = std::get_if<std::int64_t>(&key);
    if (n != nullptr && dense) {
      std::uint32_t& story = dense_[static_cast<std::size_t>(distance(dense_low_, *n))];
      if (story == kFree)
        story = static_cast<std::uint32_t>(i);
      else
        repeated.push_back(i);
      continue;
    }
    Slot& slot = slots_[probe(key)];
    if (slot.story == kFree)
      slot = Slot{tag_of(key), static_cast<std::uint32_t>(i), n != nullptr};
    else
      repeated.push_back(i);
  }
}

const std::uint32_t* TempIdTable::dense_entry(std::int64_t id) const {
  const std::uint64_t at = distance(dense_low_, id);
  return at < dense_.size() ? &dense_[static_cast<std::size_t>(at)] : nullptr;
}

std::size_t TempIdTable::find(const TempId& key) const {
  if (const auto* n = std::get_if<std::int64_t>(&key); n != nullptr && !dense_.empty()) {
    const std::uint32_t* story = dense_entry(*n);
    return story == nullptr || *story == kFree ? npos : *story;
  }
  const Slot& slot = slots_[probe(key)];
  return slot.story == kFree ? npos : slot.story;
}

std::uint64_t TempIdTable::tag_of(const TempId& key) {
  // An integer is its own tag (exact); a string is tagged by its hash and confirmed by text.
  if (const auto* n = std::get_if<std::int64_t>(&key)) return static_cast<std::uint64_t>(*n);
  return TempIdHash{}(key);
}

std::size_t TempIdTable::probe(const TempId& key) const {
  const std::size_t mask = slots_.size() - 1;
  const std::uint64_t tag = tag_of(key);
  const bool integer = std::holds_alternative<std::int64_t>(key);
  for (std::size_t slot = TempIdHash{}(key)&mask;; slot = (slot + 1) & mask) {
    const Slot& at = slots_[slot];
    if (at.story == kFree) return slot;
    if (at.tag != tag || at.integer != integer) continue;
    if (integer || *keys_[at.story] == key) return slot;
  }
}

}  // namespace ptmpl::detail
