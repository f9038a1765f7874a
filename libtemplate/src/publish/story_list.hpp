// A story list flattened in pre-order: the one walk diff and merge pair stories by.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "libtemplate/core/json.hpp"

namespace ptmpl::publish::detail {

inline constexpr std::size_t kTopLevel = static_cast<std::size_t>(-1);

/// One story of a list, or of the lists below it.
struct FlatStory {
  const json::Value* story = nullptr;  ///< an object
  std::string temp_id;                 ///< compact JSON text; "" when absent or null
  bool pairable = false;               ///< temp_id is a string or a number (merge pairs by those alone)
  std::string title;                   ///< "" when none
  std::string label;                   ///< `[12] "Kick-off"`, `[survey] "Survey"`: temp_id and title as shown
  std::size_t parent = kTopLevel;      ///< the parent's index in the flat list
  std::string parent_label;            ///< "" at the top level
  std::string place;                   ///< the titles from the top down to it, for matching stories without temp_id
};

/// The stories of a list, flattened.
struct FlatStories {
  std::vector<FlatStory> stories;  ///< pre-order
  /// For each value of a list that is not a story (not an object), the index of the story whose
  /// list holds it (kTopLevel: the top list); it is not in `stories`.
  std::vector<std::size_t> not_stories;
};

/// `list` and every `sub_stories` array below its stories, in pre-order; nothing when `list`
/// is not an array.
[[nodiscard]] FlatStories flatten_stories(const json::Value& list);

/// A temp_id as people write it: 12, survey.
[[nodiscard]] std::string id_text(const json::Value& id);

}  // namespace ptmpl::publish::detail
