#include "libtemplate/core/story_index.hpp"

#include <algorithm>
#include <stdexcept>

#include "libtemplate/core/rollup.hpp"

namespace ptmpl {

StoryIndex::StoryIndex(std::span<const Story> stories) {
  // Counted first: growing the array instead costs more than this quick walk of the tree's
  // shape (the array is large, and fresh memory is slow to touch).
  const std::size_t count = item_count(stories);
  if (count >= kNoParent32) throw std::length_error("a template of more than 4,294,967,294 stories");
  entries_.reserve(count);
  for_each_story_indexed(stories, [&](const Story& story, std::size_t index, std::size_t parent, std::size_t depth) {
    entries_.push_back({&story, parent == npos ? kNoParent32 : static_cast<std::uint32_t>(parent),
                        static_cast<std::uint32_t>(index + 1), static_cast<std::uint32_t>(depth)});
  });
  // Children come after their parent: walking backwards completes each subtree before its
  // parent takes it in.
  for (std::size_t i = entries_.size(); i-- > 0;)
    if (entries_[i].parent != kNoParent32)
      entries_[entries_[i].parent].end = std::max(entries_[entries_[i].parent].end, entries_[i].end);
}

}  // namespace ptmpl
