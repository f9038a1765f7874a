#include "schedule/temp_id_table.hpp"

#include <variant>

namespace ptmpl::detail {

TempIdTable::TempIdTable(const StoryIndex& index, std::vector<std::size_t>& repeated) {
  const std::size_t count = index.size();
  keys_.resize(count);
  std::size_t slots = 16;
  while (slots < 2 * count) slots *= 2;
  slots_.assign(slots, Slot{});
  for (std::size_t i = 0; i < count; ++i) {
    const Story& story = index.story(i);
    if (!story.temp_id) continue;
    const TempId& key = keys_[i].emplace(canonical_temp_id(*story.temp_id));
    Slot& slot = slots_[probe(key)];
    // Of duplicate temp_ids, the first in tree order keeps the slot.
    if (slot.story == kFree)
      slot = Slot{tag_of(key), static_cast<std::uint32_t>(i), std::holds_alternative<std::int64_t>(key)};
    else
      repeated.push_back(i);
  }
}

std::size_t TempIdTable::find(const TempId& key) const {
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
