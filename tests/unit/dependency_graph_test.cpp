// The dependency graph (libtemplate/core/dependency_graph.hpp): links resolved by temp_id text, how
// they nest, the two-node constraint graph of docs/semantics.md §5, and cycles found without recursion.
#include "libtemplate/core/dependency_graph.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "libtemplate/core/template_file.hpp"

namespace ptmpl {
namespace {

/// A parsed story list and the dependency graph of its first template.
struct Parsed {
  TemplateFile file;
  DependencyGraph graph;

  explicit Parsed(std::string text)
      : file(TemplateFile::parse("test.json", FileText(std::move(text)))), graph(stories()) {}

  [[nodiscard]] std::span<const Story> stories() const {
    return file.templates().empty() ? std::span<const Story>() : file.templates()[0].model.stories;
  }
};

std::string id_of(const DependencyGraph& graph, std::size_t story) {
  const Story& s = graph.story(story);
  return s.temp_id ? temp_id_key(*s.temp_id) : "?";
}

/// A cycle's chain as temp_ids: "1 → 10 → 11 → 1".
std::string chain(const DependencyGraph& graph, const Cycle& cycle) {
  std::string out;
  for (std::size_t story : cycle.stories) out += (out.empty() ? "" : " → ") + id_of(graph, story);
  return out;
}

/// A link as "source → target" temp_ids.
std::string link_text(const DependencyGraph& graph, std::size_t link) {
  const Link& l = graph.links()[link];
  return id_of(graph, l.source) + " → " + id_of(graph, l.target);
}

std::vector<std::string> chains(const DependencyGraph& graph, const CycleOptions& options = {}) {
  std::vector<std::string> out;
  for (const Cycle& cycle : graph.find_cycles(options)) out.push_back(chain(graph, cycle));
  return out;
}

// A dependency in JSON: {"source_id": s, "target_id": t, "type": 2}.
std::string dep(int source, int target) {
  return R"({"source_id": )" + std::to_string(source) + R"(, "target_id": )" + std::to_string(target) +
         R"(, "type": 2})";
}

TEST(DependencyGraph, ResolvesTargetsByTheTextOfTheirTempId) {
  Parsed p(R"([
    {"title": "a", "temp_id": 1, "dependencies": [{"source_id": 1, "target_id": "7", "type": 2, "lag": 3},
                                                  {"source_id": 1, "target_id": 99, "type": 0},
                                                  {"source_id": 1, "type": 0}]},
    {"title": "b", "temp_id": 7},
    {"title": "c", "temp_id": "REQ-1", "dependencies": [{"source_id": "REQ-1", "target_id": 1, "type": "FS"}]}
  ])");
  const DependencyGraph& g = p.graph;
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g.find(7), 1u);
  EXPECT_EQ(g.find("7"), 1u);
  EXPECT_EQ(g.find(std::string("REQ-1")), 2u);
  EXPECT_EQ(g.find("07"), DependencyGraph::npos);  // text, not value: "07" is not 7
  EXPECT_EQ(g.find(8), DependencyGraph::npos);

  ASSERT_EQ(g.links().size(), 2u);
  const Link& first = g.links()[0];
  EXPECT_EQ(first.source, 0u);
  EXPECT_EQ(first.target, 1u);
  EXPECT_EQ(first.type, DependencyType::FinishToStart);
  EXPECT_EQ(first.lag, 3);
  EXPECT_EQ(first.nesting, LinkNesting::Unrelated);
  EXPECT_EQ(first.dependency->index, 0u);
  EXPECT_EQ(g.story(first.source).dependency_pointer(*first.dependency), "/0/dependencies/0");
  const Link& second = g.links()[1];
  EXPECT_EQ(second.source, 2u);
  EXPECT_EQ(second.target, 0u);
  EXPECT_FALSE(second.type.has_value());  // "FS" is not a type: lint's dependency-type-invalid
  EXPECT_EQ(second.lag, 0);               // absent

  // Unknown target and no target at all.
  ASSERT_EQ(g.dangling().size(), 2u);
  EXPECT_EQ(g.dangling()[0].source, 0u);
  EXPECT_EQ(g.dangling()[0].dependency->index, 1u);
  EXPECT_EQ(g.dangling()[1].dependency->index, 2u);
}

TEST(DependencyGraph, CanonicalTempIdsCompareLikeTheirText) {
  EXPECT_EQ(canonical_temp_id(TempId{std::string_view("12")}), TempId{std::int64_t{12}});
  EXPECT_EQ(canonical_temp_id(TempId{std::string_view("-3")}), TempId{std::int64_t{-3}});
  for (std::string_view text : {"012", "+1", "-0", "1.0", "1e3", " 1", "99999999999999999999", "A-1"})
    EXPECT_EQ(canonical_temp_id(TempId{text}), TempId{text}) << text;
  EXPECT_EQ(TempIdHash{}(canonical_temp_id(TempId{std::string_view("5")})), TempIdHash{}(TempId{std::int64_t{5}}));
}

TEST(DependencyGraph, DuplicateTempIdsResolveToTheFirstExceptForTheStoryItself) {
  Parsed p(R"([
    {"title": "a", "temp_id": 5},
    {"title": "b", "temp_id": 5, "dependencies": [{"source_id": 5, "target_id": 5, "type": 2}]},
    {"title": "c", "temp_id": 6, "dependencies": [{"source_id": 6, "target_id": 5, "type": 2}]}
  ])");
  EXPECT_EQ(p.graph.find(5), 0u);
  ASSERT_EQ(p.graph.links().size(), 2u);
  EXPECT_EQ(p.graph.links()[0].target, 1u);  // its own temp_id: a self-link
  EXPECT_EQ(p.graph.links()[0].nesting, LinkNesting::Same);
  EXPECT_EQ(p.graph.links()[1].target, 0u);
}

std::vector<std::size_t> repeated(const DependencyGraph& graph) {
  return {graph.repeated_temp_ids().begin(), graph.repeated_temp_ids().end()};
}

// Integer temp_ids that fill their range are looked up by value, others by hash: both answer
// alike, duplicates included, at the ends of the int64 range too.
TEST(DependencyGraph, DenseAndSparseIntegerTempIdsResolveAlike) {
  Parsed dense(R"([
    {"title": "a", "temp_id": 3}, {"title": "b", "temp_id": 4}, {"title": "c", "temp_id": "7"},
    {"title": "d", "temp_id": 4}, {"title": "e", "temp_id": "x"}, {"title": "f", "temp_id": -1}
  ])");
  EXPECT_EQ(dense.graph.find(3), 0u);
  EXPECT_EQ(dense.graph.find(4), 1u);  // the first of two
  EXPECT_EQ(dense.graph.find(7), 2u);
  EXPECT_EQ(dense.graph.find("7"), 2u);
  EXPECT_EQ(dense.graph.find("x"), 4u);
  EXPECT_EQ(dense.graph.find(-1), 5u);
  for (std::int64_t absent : {-2, 0, 5, 6, 8, 1000})
    EXPECT_EQ(dense.graph.find(absent), DependencyGraph::npos) << absent;
  EXPECT_EQ(repeated(dense.graph), (std::vector<std::size_t>{3}));

  Parsed sparse(R"([
    {"title": "a", "temp_id": -9223372036854775808}, {"title": "b", "temp_id": 9223372036854775807},
    {"title": "c", "temp_id": 1000000}, {"title": "d", "temp_id": "9223372036854775807"},
    {"title": "e", "temp_id": "y"}
  ])");
  EXPECT_EQ(sparse.graph.find(std::numeric_limits<std::int64_t>::min()), 0u);
  EXPECT_EQ(sparse.graph.find(std::numeric_limits<std::int64_t>::max()), 1u);
  EXPECT_EQ(sparse.graph.find(1000000), 2u);
  EXPECT_EQ(sparse.graph.find("y"), 4u);
  for (std::int64_t absent : {0, 1, 999999, 1000001})
    EXPECT_EQ(sparse.graph.find(absent), DependencyGraph::npos) << absent;
  EXPECT_EQ(repeated(sparse.graph), (std::vector<std::size_t>{3}));
}

TEST(DependencyGraph, PreOrderNumberingAndNesting) {
  Parsed p(R"([
    {"title": "P", "temp_id": 10, "dependencies": [)" +
           dep(10, 12) + R"(], "sub_stories": [
      {"title": "Q", "temp_id": 11, "sub_stories": [
        {"title": "c", "temp_id": 12, "dependencies": [)" +
           dep(12, 10) + "," + dep(12, 12) + "," + dep(12, 20) + R"(]}]},
      {"title": "d", "temp_id": 13}]},
    {"title": "e", "temp_id": 20}
  ])");
  const DependencyGraph& g = p.graph;
  ASSERT_EQ(g.size(), 5u);
  EXPECT_EQ(id_of(g, 0), "10");
  EXPECT_EQ(id_of(g, 1), "11");
  EXPECT_EQ(id_of(g, 2), "12");
  EXPECT_EQ(id_of(g, 3), "13");
  EXPECT_EQ(id_of(g, 4), "20");
  EXPECT_EQ(g.parent(0), DependencyGraph::npos);
  EXPECT_EQ(g.parent(2), 1u);
  EXPECT_EQ(g.parent(3), 0u);
  EXPECT_TRUE(g.is_ancestor(0, 2));
  EXPECT_TRUE(g.is_ancestor(0, 3));
  EXPECT_FALSE(g.is_ancestor(1, 3));
  EXPECT_FALSE(g.is_ancestor(2, 2));

  ASSERT_EQ(g.links().size(), 4u);
  EXPECT_EQ(g.links()[0].nesting, LinkNesting::SourceContainsTarget);  // 10 → 12
  EXPECT_EQ(g.links()[1].nesting, LinkNesting::TargetContainsSource);  // 12 → 10
  EXPECT_EQ(g.links()[2].nesting, LinkNesting::Same);                  // 12 → 12
  EXPECT_EQ(g.links()[3].nesting, LinkNesting::Unrelated);             // 12 → 20
  // Links within a family are errors of their own, not cycles.
  EXPECT_TRUE(g.find_cycles().empty());
}

TEST(DependencyGraph, TwoNodesPerParent) {
  Parsed p(R"([
    {"title": "x", "temp_id": 1, "dependencies": [)" +
           dep(1, 10) + R"(]},
    {"title": "P", "temp_id": 10, "dependencies": [)" +
           dep(10, 2) + R"(], "sub_stories": [
      {"title": "a", "temp_id": 11}, {"title": "b", "temp_id": 12}]},
    {"title": "y", "temp_id": 2}
  ])");
  const DependencyGraph& g = p.graph;
  ASSERT_EQ(g.size(), 5u);
  ASSERT_EQ(g.node_count(), 6u);  // five in nodes, and P's out node
  EXPECT_EQ(g.in_node(1), 1u);
  EXPECT_EQ(g.out_node(1), 5u);
  EXPECT_EQ(g.out_node(0), 0u);  // a leaf's in and out are one node
  EXPECT_EQ(g.story_of_node(5), 1u);

  struct E {
    std::size_t from, to;
    bool link;
  };
  const std::vector<E> expected = {
      {0, 1, true},   // x → P.in
      {1, 2, false},  // P.in → a
      {1, 3, false},  // P.in → b
      {2, 5, false},  // a → P.out
      {3, 5, false},  // b → P.out
      {5, 4, true},   // P.out → y
  };
  ASSERT_EQ(g.edges().size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    SCOPED_TRACE("edge " + std::to_string(i));
    EXPECT_EQ(g.edges()[i].from, expected[i].from);
    EXPECT_EQ(g.edges()[i].to, expected[i].to);
    EXPECT_EQ(g.edges()[i].is_link(), expected[i].link);
  }
  EXPECT_TRUE(g.find_cycles().empty());
}

TEST(DependencyGraph, LinksWhoseLagIsNotAnIntegerAreMarkedAndNotSchedulable) {
  Parsed p(R"([
    {"title": "a", "temp_id": 1, "dependencies": [
      {"source_id": 1, "target_id": 2, "type": 2},
      {"source_id": 1, "target_id": 2, "type": 2, "lag": -3},
      {"source_id": 1, "target_id": 2, "type": 2, "lag": 1.5},
      {"source_id": 1, "target_id": 2, "type": 2, "lag": "2"},
      {"source_id": 1, "target_id": 2, "type": 2, "lag": 99999999999999999999},
      {"source_id": 1, "target_id": 2, "type": 2, "lag": null},
      {"source_id": 1, "target_id": 2, "type": 9},
      {"source_id": 1, "target_id": 1, "type": 2}]},
    {"title": "b", "temp_id": 2}])");
  const auto links = p.graph.links();
  ASSERT_EQ(links.size(), 8u);
  const bool invalid[] = {false, false, true, true, true, true, false, false};
  const bool schedulable[] = {true, true, false, false, false, false, false, false};
  for (std::size_t i = 0; i < links.size(); ++i) {
    SCOPED_TRACE("link " + std::to_string(i));
    EXPECT_EQ(links[i].lag_invalid, invalid[i]);
    EXPECT_EQ(lag_invalid(p.graph.story(0), *links[i].dependency), invalid[i]);
    EXPECT_EQ(links[i].schedulable(), schedulable[i]);
    if (invalid[i]) {
      EXPECT_EQ(links[i].lag, 0);
    }
  }
  EXPECT_EQ(links[1].lag, -3);
}

TEST(DependencyGraph, DagHasNoCycles) {
  // A diamond, a parent with a chain inside it, links into and out of the parent, and a
  // duplicate link: no cycle.
  Parsed p(R"([
    {"title": "a", "temp_id": 1, "dependencies": [)" +
           dep(1, 2) + "," + dep(1, 3) + R"(]},
    {"title": "b", "temp_id": 2, "dependencies": [)" +
           dep(2, 4) + R"(]},
    {"title": "c", "temp_id": 3, "dependencies": [)" +
           dep(3, 4) + "," + dep(3, 4) + R"(]},
    {"title": "d", "temp_id": 4, "dependencies": [)" +
           dep(4, 10) + R"(]},
    {"title": "P", "temp_id": 10, "dependencies": [)" +
           dep(10, 5) + R"(], "sub_stories": [
      {"title": "e", "temp_id": 11, "dependencies": [)" +
           dep(11, 12) + R"(]},
      {"title": "f", "temp_id": 12}]},
    {"title": "g", "temp_id": 5}
  ])");
  EXPECT_TRUE(p.graph.find_cycles().empty());
}

TEST(DependencyGraph, SimpleCycleReportedOnceAtItsClosingLink) {
  Parsed p(R"([
    {"title": "a", "temp_id": 3, "dependencies": [)" +
           dep(3, 7) + R"(]},
    {"title": "b", "temp_id": 7, "dependencies": [)" +
           dep(7, 12) + R"(]},
    {"title": "c", "temp_id": 12, "dependencies": [)" +
           dep(12, 3) + R"(]}
  ])");
  const std::vector<Cycle> cycles = p.graph.find_cycles();
  ASSERT_EQ(cycles.size(), 1u);
  EXPECT_EQ(chain(p.graph, cycles[0]), "3 → 7 → 12 → 3");
  EXPECT_EQ(link_text(p.graph, cycles[0].closing_link), "12 → 3");
  ASSERT_EQ(cycles[0].links.size(), 3u);
  EXPECT_EQ(cycles[0].links.back(), cycles[0].closing_link);
}

TEST(DependencyGraph, CycleIntoAParentThroughItsSubtree) {
  // 1 → P (a link into P constrains B inside it) and B → 1.
  Parsed p(R"([
    {"title": "A", "temp_id": 1, "dependencies": [)" +
           dep(1, 10) + R"(]},
    {"title": "P", "temp_id": 10, "sub_stories": [
      {"title": "B", "temp_id": 11, "dependencies": [)" +
           dep(11, 1) + R"(]}]}
  ])");
  const std::vector<Cycle> cycles = p.graph.find_cycles();
  ASSERT_EQ(cycles.size(), 1u);
  EXPECT_EQ(chain(p.graph, cycles[0]), "1 → 10 → 11 → 1");
  EXPECT_EQ(link_text(p.graph, cycles[0].closing_link), "11 → 1");
}

TEST(DependencyGraph, CycleOutOfAParentThroughItsSubtree) {
  // P → 1 (a link out of P waits for B inside it) and 1 → B.
  Parsed p(R"([
    {"title": "P", "temp_id": 10, "dependencies": [)" +
           dep(10, 1) + R"(], "sub_stories": [
      {"title": "B", "temp_id": 11}]},
    {"title": "A", "temp_id": 1, "dependencies": [)" +
           dep(1, 11) + R"(]}
  ])");
  const std::vector<Cycle> cycles = p.graph.find_cycles();
  ASSERT_EQ(cycles.size(), 1u);
  // The search starts at P, goes down to B, up to P's out node, over to 1, and back to B.
  EXPECT_EQ(chain(p.graph, cycles[0]), "10 → 1 → 11 → 10");
  EXPECT_EQ(link_text(p.graph, cycles[0].closing_link), "1 → 11");
}

TEST(DependencyGraph, CycleBetweenAParentAndAnOutsideStory) {
  // 1 → P and P → 1: P's interval depends on its children, which wait for 1.
  Parsed p(R"([
    {"title": "A", "temp_id": 1, "dependencies": [)" +
           dep(1, 10) + R"(]},
    {"title": "P", "temp_id": 10, "dependencies": [)" +
           dep(10, 1) + R"(], "sub_stories": [{"title": "B", "temp_id": 11}]}
  ])");
  const std::vector<Cycle> cycles = p.graph.find_cycles();
  ASSERT_EQ(cycles.size(), 1u);
  EXPECT_EQ(chain(p.graph, cycles[0]), "1 → 10 → 1");
}

TEST(DependencyGraph, ParentAndChildrenAloneFormNoCycle) {
  // Siblings linked both ways through their parents' nodes would be a cycle only with a link
  // back; nested parents with links among cousins in one direction are not.
  Parsed p(R"([
    {"title": "P", "temp_id": 10, "sub_stories": [
      {"title": "Q", "temp_id": 11, "dependencies": [)" +
           dep(11, 13) + R"(], "sub_stories": [{"title": "a", "temp_id": 12}]},
      {"title": "R", "temp_id": 13, "sub_stories": [{"title": "b", "temp_id": 14}]}]}
  ])");
  EXPECT_TRUE(p.graph.find_cycles().empty());
}

TEST(DependencyGraph, EachLinkClosesAtMostOneCycle) {
  // A figure eight through 1: two cycles, each at its own closing link.
  Parsed p(R"([
    {"title": "a", "temp_id": 1, "dependencies": [)" +
           dep(1, 2) + "," + dep(1, 3) + R"(]},
    {"title": "b", "temp_id": 2, "dependencies": [)" +
           dep(2, 1) + R"(]},
    {"title": "c", "temp_id": 3, "dependencies": [)" +
           dep(3, 1) + R"(]},
    {"title": "d", "temp_id": 4, "dependencies": [)" +
           dep(4, 5) + R"(]},
    {"title": "e", "temp_id": 5, "dependencies": [)" +
           dep(5, 4) + R"(]}
  ])");
  EXPECT_EQ(chains(p.graph), (std::vector<std::string>{"1 → 2 → 1", "1 → 3 → 1", "4 → 5 → 4"}));

  // Past max_chains, cycles are still found at their closing link, without a chain.
  const std::vector<Cycle> limited = p.graph.find_cycles({.max_chains = 1});
  ASSERT_EQ(limited.size(), 3u);
  EXPECT_EQ(chain(p.graph, limited[0]), "1 → 2 → 1");
  EXPECT_TRUE(limited[1].stories.empty());
  EXPECT_TRUE(limited[1].links.empty());
  EXPECT_EQ(link_text(p.graph, limited[1].closing_link), "3 → 1");
  EXPECT_EQ(link_text(p.graph, limited[2].closing_link), "5 → 4");
}

// Stories built directly (no JSON), for sizes whose JSON would be slow to write and read.
struct Built {
  std::vector<Story> stories;
  std::vector<Dependency> dependencies;
};

TEST(DependencyGraph, LongChainWithOneBackLinkNeedsNoRecursion) {
  constexpr std::int64_t kCount = 100'000;
  Built b;
  b.stories.resize(kCount);
  b.dependencies.resize(kCount);
  for (std::int64_t i = 0; i < kCount; ++i) {
    Story& s = b.stories[static_cast<std::size_t>(i)];
    s.temp_id = TempId{i + 1};
    Dependency& d = b.dependencies[static_cast<std::size_t>(i)];
    d.source_id = TempId{i + 1};
    d.target_id = TempId{i + 1 < kCount ? i + 2 : 1};  // the last one links back to the first
    d.type = 2;
    s.dependencies = std::span<const Dependency>(&d, 1);
  }
  const DependencyGraph graph(b.stories);
  const std::vector<Cycle> cycles = graph.find_cycles();
  ASSERT_EQ(cycles.size(), 1u);
  ASSERT_EQ(cycles[0].stories.size(), static_cast<std::size_t>(kCount) + 1);
  EXPECT_EQ(id_of(graph, cycles[0].stories.front()), "1");
  EXPECT_EQ(id_of(graph, cycles[0].stories[1]), "2");
  EXPECT_EQ(id_of(graph, cycles[0].stories[kCount - 1]), std::to_string(kCount));
  EXPECT_EQ(id_of(graph, cycles[0].stories.back()), "1");
  EXPECT_EQ(link_text(graph, cycles[0].closing_link), std::to_string(kCount) + " → 1");

  // Without the back link: a 100,000-link path, no cycle.
  b.dependencies.back().target_id.reset();
  const DependencyGraph path(b.stories);
  EXPECT_TRUE(path.find_cycles().empty());
  EXPECT_EQ(path.dangling().size(), 1u);
}

TEST(DependencyGraph, DeepNestingNeedsNoRecursion) {
  // 100,000 parents nested in one another (deeper than any file the reader accepts by
  // default); the innermost story links to an outside story, which links to the outermost.
  constexpr std::size_t kDepth = 100'000;
  Built b;
  b.stories.resize(kDepth + 1);
  b.dependencies.resize(2);
  std::vector<Story> top(2);
  for (std::size_t i = 0; i < kDepth; ++i) {
    b.stories[i].temp_id = TempId{static_cast<std::int64_t>(i + 1)};
    if (i + 1 < kDepth) b.stories[i].sub_stories = std::span<const Story>(&b.stories[i + 1], 1);
  }
  top[0] = b.stories[0];
  top[1].temp_id = TempId{std::string_view("X")};
  b.dependencies[0].target_id = TempId{std::int64_t{1}};  // X → the outermost
  b.dependencies[1].target_id = TempId{std::string_view("X")};
  top[1].dependencies = std::span<const Dependency>(&b.dependencies[0], 1);
  b.stories[kDepth - 1].dependencies = std::span<const Dependency>(&b.dependencies[1], 1);  // innermost → X

  const DependencyGraph graph(top);
  ASSERT_EQ(graph.size(), kDepth + 1);
  EXPECT_TRUE(graph.is_ancestor(0, kDepth - 1));
  const std::vector<std::string> found = chains(graph);
  ASSERT_EQ(found.size(), 1u);
  // The search goes down from the outermost story to the innermost, over to X and back up to
  // the outermost, which contains the innermost (where the chain starts, at the first link).
  EXPECT_EQ(found[0], std::to_string(kDepth) + " → X → 1 → " + std::to_string(kDepth));
}

}  // namespace
}  // namespace ptmpl
