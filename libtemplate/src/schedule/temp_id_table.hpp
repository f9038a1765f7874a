// The stories of a template by temp_id: DependencyGraph's lookup from a target_id to the story
// it names. Private to the library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "libtemplate/core/dependency_graph.hpp"

namespace ptmpl::detail {

/// Every story's canonical temp_id (canonical_temp_id()), and a table from those ids to the first
/// story in tree order that has each. Built once, linear in the stories. Integer ids that fill
/// their range densely (as written ids usually do: 1, 2, 3, …) are looked up in an array by
/// value, which stays in the cache where a hashed table of a large template does not; other ids
/// in an open-addressing table.
class TempIdTable {
 public:
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  /// The table of `index`'s stories. `repeated` receives, in tree order, each story whose
  /// temp_id an earlier story already has.
  TempIdTable(const StoryIndex& index, std::vector<std::size_t>& repeated);

  /// Story `story`'s canonical temp_id, if it has one.
  [[nodiscard]] const std::optional<TempId>& key(std::size_t story) const { return keys_[story]; }
  /// The first story whose canonical temp_id is `key` (canonical too), or npos.
  [[nodiscard]] std::size_t find(const TempId& key) const;

 private:
  static constexpr std::uint32_t kFree = static_cast<std::uint32_t>(-1);
  struct Slot {
    std::uint64_t tag = 0;  ///< tag_of() the story's canonical temp_id
    std::uint32_t story = kFree;
    bool integer = false;  ///< an integer temp_id, which `tag` holds exactly
  };

  [[nodiscard]] static std::uint64_t tag_of(const TempId& key);
  /// Where integer id `id` is in the dense array, or nullptr when the array does not cover it.
  [[nodiscard]] const std::uint32_t* dense_entry(std::int64_t id) const;
  /// The slot holding `key`, or the free one it would take.
  [[nodiscard]] std::size_t probe(const TempId& key) const;

  std::vector<std::optional<TempId>> keys_;  // by story
  std::vector<Slot> slots_;                  // a power of two, at most half full
  // Integer ids from dense_low_ on when the array is used (not empty): dense_[id - dense_low_]
  // is the story or kFree. Integer ids are then never in slots_.
  std::int64_t dense_low_ = 0;
  std::vector<std::uint32_t> dense_;
};

}  // namespace ptmpl::detail
