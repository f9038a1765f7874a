// The stories of a template by temp_id: DependencyGraph's lookup from a target_id to the story
// it names. Private to the library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "libtemplate/dependency_graph.hpp"

namespace ptmpl::detail {

/// Every story's canonical temp_id (canonical_temp_id()), and an open-addressing table from
/// those ids to the first story in tree order that has each. Built once, linear in the stories.
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
  /// The slot holding `key`, or the free one it would take.
  [[nodiscard]] std::size_t probe(const TempId& key) const;

  std::vector<std::optional<TempId>> keys_;  // by story
  std::vector<Slot> slots_;                  // a power of two, at most half full
};

}  // namespace ptmpl::detail
