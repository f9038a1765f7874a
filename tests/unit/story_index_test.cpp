// The story index (libtemplate/core/story_index.hpp): pre-order numbering, parents, depths, subtree
// ends and children, shared by the dependency graph, the declared intervals, the roll-ups and
// the schedule.
#include "libtemplate/core/story_index.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libtemplate/core/dependency_graph.hpp"
#include "libtemplate/core/intervals.hpp"
#include "libtemplate/core/rollup.hpp"
#include "libtemplate/core/schedule.hpp"
#include "libtemplate/core/template_file.hpp"

namespace ptmpl {
namespace {

// 0 A { 1 B { 2 C }, 3 D }, 4 E
constexpr const char* kTree = R"([
  {"title": "A", "sub_stories": [
    {"title": "B", "sub_stories": [{"title": "C"}]},
    {"title": "D"}]},
  {"title": "E"}])";

TemplateFile parse(const char* text) {
  return TemplateFile::parse("test.json", FileText(std::string(text)));
}

std::vector<std::size_t> children_of(const StoryIndex& index, std::size_t i) {
  std::vector<std::size_t> out;
  for (std::size_t child : index.children(i)) out.push_back(child);
  return out;
}

TEST(StoryIndex, PreOrderWithParentsDepthsAndSubtrees) {
  const TemplateFile file = parse(kTree);
  const StoryIndex index(file.templates()[0].model.stories);
  ASSERT_EQ(index.size(), 5u);
  const char* titles[] = {"A", "B", "C", "D", "E"};
  const std::size_t parents[] = {StoryIndex::npos, 0, 1, 0, StoryIndex::npos};
  const std::size_t depths[] = {0, 1, 2, 1, 0};
  const std::size_t ends[] = {4, 3, 3, 4, 5};
  const bool is_parent[] = {true, true, false, false, false};
  for (std::size_t i = 0; i < index.size(); ++i) {
    EXPECT_EQ(index.story(i).title, titles[i]) << i;
    EXPECT_EQ(index.parent(i), parents[i]) << i;
    EXPECT_EQ(index.depth(i), depths[i]) << i;
    EXPECT_EQ(index.subtree_end(i), ends[i]) << i;
    EXPECT_EQ(index.is_parent(i), is_parent[i]) << i;
    EXPECT_EQ(index.is_parent(i), index.story(i).is_parent()) << i;
  }
  // is_ancestor() against its definition: `a` is on the chain of parents above `d`.
  for (std::size_t a = 0; a < index.size(); ++a) {
    for (std::size_t d = 0; d < index.size(); ++d) {
      bool above = false;
      for (std::size_t p = index.parent(d); p != StoryIndex::npos; p = index.parent(p)) above = above || p == a;
      EXPECT_EQ(index.is_ancestor(a, d), above) << a << " over " << d;
    }
  }
}

TEST(StoryIndex, ChildrenInOrder) {
  const TemplateFile file = parse(kTree);
  const StoryIndex index(file.templates()[0].model.stories);
  EXPECT_EQ(children_of(index, 0), (std::vector<std::size_t>{1, 3}));
  EXPECT_EQ(children_of(index, 1), (std::vector<std::size_t>{2}));
  EXPECT_TRUE(index.children(2).empty());
  EXPECT_TRUE(index.children(4).empty());
  EXPECT_FALSE(index.children(0).empty());
}

TEST(StoryIndex, EmptyTemplate) {
  const StoryIndex index(std::span<const Story>{});
  EXPECT_EQ(index.size(), 0u);
}

TEST(StoryIndex, OneIndexServesEveryStructure) {
  const TemplateFile file = parse(kTree);
  const StoryIndex index(file.templates()[0].model.stories);
  const DependencyGraph graph(index);
  const DeclaredIntervals intervals(index);
  const Rollup rollup(index);
  const Schedule schedule(graph);
  EXPECT_EQ(&graph.index(), &index);
  EXPECT_EQ(&intervals.index(), &index);
  EXPECT_EQ(&rollup.index(), &index);
  EXPECT_EQ(graph.size(), index.size());
  EXPECT_EQ(intervals.size(), index.size());
  EXPECT_EQ(rollup.item_count(), index.size());
  EXPECT_EQ(schedule.size(), index.size());
  for (std::size_t i = 0; i < index.size(); ++i) {
    EXPECT_EQ(&graph.story(i), &index.story(i));
    EXPECT_EQ(&intervals.story(i), &index.story(i));
    EXPECT_EQ(&rollup.story(i), &index.story(i));
    EXPECT_EQ(schedule.depth(i), index.depth(i));
  }
}

TEST(StoryIndex, DeepNestingNeedsNoRecursion) {
  // 200,000 levels, built directly (the reader bounds nesting; the model itself does not).
  constexpr std::size_t kDepth = 200000;
  std::vector<Story> chain(kDepth);
  for (std::size_t i = 0; i + 1 < kDepth; ++i) chain[i].sub_stories = std::span<const Story>(&chain[i + 1], 1);
  const StoryIndex index(std::span<const Story>(chain.data(), 1));
  ASSERT_EQ(index.size(), kDepth);
  EXPECT_EQ(index.subtree_end(0), kDepth);
  EXPECT_EQ(index.depth(kDepth - 1), kDepth - 1);
  EXPECT_EQ(index.parent(kDepth - 1), kDepth - 2);
  EXPECT_EQ(children_of(index, kDepth / 2), (std::vector<std::size_t>{kDepth / 2 + 1}));
  EXPECT_EQ(&index.story(kDepth / 2), &chain[kDepth / 2]);
}

}  // namespace
}  // namespace ptmpl
