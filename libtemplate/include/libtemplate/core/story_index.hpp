// The stories of a template numbered once, in pre-order: the one numbering that the dependency
// graph, the declared intervals, the roll-ups and the schedule share, so that an index names the
// same story in each of them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <vector>

#include "libtemplate/core/model.hpp"

namespace ptmpl {

/// Every story of a tree, numbered 0, 1, … in pre-order (tree order: a story, then its whole
/// subtree, then its next sibling, as for_each_story() visits them), with its parent, its depth
/// and the end of its subtree. A story's descendants are exactly the indices
/// (index, subtree_end(index)); its first child, if any, is index + 1, and the next sibling of a
/// child c is subtree_end(c).
///
/// Building is linear in the number of stories and uses no recursion (any nesting depth); every
/// lookup is O(1). Holds pointers into `stories`, which must outlive it.
class StoryIndex {
 public:
  static constexpr std::size_t npos = kNoParent;

  /// The children of one story, in order, as indices (see children()).
  class Children {
   public:
    class iterator {
     public:
      using iterator_category = std::forward_iterator_tag;
      using value_type = std::size_t;
      using difference_type = std::ptrdiff_t;
      using pointer = const std::size_t*;
      using reference = std::size_t;

      iterator() = default;
      std::size_t operator*() const { return at_; }
      iterator& operator++() {
        at_ = index_->subtree_end(at_);
        return *this;
      }
      iterator operator++(int) {
        iterator before = *this;
        ++*this;
        return before;
      }
      friend bool operator==(const iterator& a, const iterator& b) { return a.at_ == b.at_; }

     private:
      friend class Children;
      iterator(const StoryIndex* index, std::size_t at) : index_(index), at_(at) {}
      const StoryIndex* index_ = nullptr;
      std::size_t at_ = 0;
    };

    [[nodiscard]] iterator begin() const { return {index_, first_}; }
    [[nodiscard]] iterator end() const { return {index_, end_}; }
    [[nodiscard]] bool empty() const { return first_ == end_; }

   private:
    friend class StoryIndex;
    Children(const StoryIndex* index, std::size_t first, std::size_t end) : index_(index), first_(first), end_(end) {}
    const StoryIndex* index_;
    std::size_t first_;
    std::size_t end_;
  };

  explicit StoryIndex(std::span<const Story> stories);

  /// Number of stories at every level.
  [[nodiscard]] std::size_t size() const { return entries_.size(); }
  /// The story numbered `index` (< size()).
  [[nodiscard]] const Story& story(std::size_t index) const { return *entries_[index].story; }
  /// Index of the parent, or npos for a top-level story.
  [[nodiscard]] std::size_t parent(std::size_t index) const {
    return entries_[index].parent == kNoParent32 ? npos : entries_[index].parent;
  }
  /// Nesting level: 0 for a top-level story.
  [[nodiscard]] std::size_t depth(std::size_t index) const { return entries_[index].depth; }
  /// One past the last index of the subtree.
  [[nodiscard]] std::size_t subtree_end(std::size_t index) const { return entries_[index].end; }
  /// True when the story has sub_stories (without reading the story itself).
  [[nodiscard]] bool is_parent(std::size_t index) const { return entries_[index].end > index + 1; }
  /// True when `descendant` lies in the subtree of `ancestor` (and is not `ancestor` itself).
  [[nodiscard]] bool is_ancestor(std::size_t ancestor, std::size_t descendant) const {
    return ancestor < descendant && descendant < entries_[ancestor].end;
  }
  /// The children of story `index`, in order: `for (std::size_t child : index.children(i))`.
  [[nodiscard]] Children children(std::size_t index) const { return {this, index + 1, entries_[index].end}; }

 private:
  // Indices in 32 bits (the constructor throws std::length_error past 2^32 - 2 stories): an
  // entry is 24 bytes, not 32.
  static constexpr std::uint32_t kNoParent32 = static_cast<std::uint32_t>(-1);
  struct Entry {
    const Story* story = nullptr;
    std::uint32_t parent = kNoParent32;
    std::uint32_t end = 0;
    std::uint32_t depth = 0;
  };

  std::vector<Entry> entries_;
};

}  // namespace ptmpl
