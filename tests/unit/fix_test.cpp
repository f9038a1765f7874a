// Applying fixes and showing them as a diff.
#include <gtest/gtest.h>

#include "libtemplate/core/fix.hpp"

namespace ptmpl {
namespace {

Diagnostic with_fix(std::uint64_t offset, std::uint64_t length, std::string replacement) {
  Diagnostic d;
  d.rule = "duration-mismatch";
  d.fix = Fix{offset, length, std::move(replacement)};
  return d;
}

TEST(ApplyFixes, ReplacesOnlyTheFixedBytes) {
  std::string text = "{\"a\": 1,\n \"b\": \"x , y\"}";
  // Out of order on purpose: fixes are applied by offset.
  FixResult r = apply_fixes(text, {with_fix(15, 7, "\"x, y\""), with_fix(6, 1, "42"), Diagnostic{}});
  EXPECT_EQ(r.text, "{\"a\": 42,\n \"b\": \"x, y\"}");
  EXPECT_EQ(r.applied, 2u);
  EXPECT_EQ(r.skipped, 0u);
}

TEST(ApplyFixes, OverlappingAndOutOfRangeFixesAreLeftOut) {
  FixResult r = apply_fixes("abcdef", {with_fix(1, 3, "X"), with_fix(2, 1, "Y"), with_fix(5, 9, "Z")});
  EXPECT_EQ(r.text, "aXef");
  EXPECT_EQ(r.applied, 1u);
  EXPECT_EQ(r.skipped, 1u);
}

TEST(ApplyFixes, UnsafeFixesOnlyWhenAskedFor) {
  Diagnostic unsafe = with_fix(1, 1, "U");
  unsafe.fix->unsafe = true;
  FixResult safe_only = apply_fixes("abc", {with_fix(0, 1, "S"), unsafe});
  EXPECT_EQ(safe_only.text, "Sbc");
  EXPECT_EQ(safe_only.applied, 1u);
  EXPECT_EQ(safe_only.withheld, 1u);
  FixResult both = apply_fixes("abc", {with_fix(0, 1, "S"), unsafe}, FixOptions{.unsafe = true});
  EXPECT_EQ(both.text, "SUc");
  EXPECT_EQ(both.applied, 2u);
  EXPECT_EQ(both.withheld, 0u);
}

TEST(UnifiedDiff, HunksWithThreeLinesOfContext) {
  std::string before, after;
  for (int i = 1; i <= 20; ++i) {
    before += "line " + std::to_string(i) + "\n";
    after += (i == 5 || i == 16 ? "LINE " : "line ") + std::to_string(i) + "\n";
  }
  EXPECT_EQ(unified_diff("t.json", before, after),
            "--- a/t.json\n+++ b/t.json\n"
            "@@ -2,7 +2,7 @@\n line 2\n line 3\n line 4\n-line 5\n+LINE 5\n line 6\n line 7\n line 8\n"
            "@@ -13,7 +13,7 @@\n line 13\n line 14\n line 15\n-line 16\n+LINE 16\n line 17\n line 18\n line 19\n");
  EXPECT_EQ(unified_diff("t.json", before, before), "");
}

TEST(UnifiedDiff, NearbyChangesShareAHunkAndAMissingFinalNewlineIsMarked) {
  EXPECT_EQ(unified_diff("t.json", "a\nb\nc\nd", "a\nB\nc\nD"),
            "--- a/t.json\n+++ b/t.json\n@@ -1,4 +1,4 @@\n a\n-b\n+B\n c\n-d\n\\ No newline at end of file\n"
            "+D\n\\ No newline at end of file\n");
}

// Lines added and removed (fmt --diff, a fix that splits a line) are paired by the shortest
// edit script, as git pairs them, with each side's own line numbers; they were one hunk of the
// whole file when the line counts differed.
TEST(UnifiedDiff, LinesAddedAndRemovedAreFoundAsGitFindsThem) {
  std::string before, after;
  for (int i = 1; i <= 20; ++i) {
    before += "line " + std::to_string(i) + "\n";
    if (i == 4) continue;  // removed
    after += "line " + std::to_string(i) + "\n";
    if (i == 15) after += "new a\nnew b\n";  // added
  }
  EXPECT_EQ(unified_diff("t.json", before, after),
            "--- a/t.json\n+++ b/t.json\n"
            "@@ -1,7 +1,6 @@\n line 1\n line 2\n line 3\n-line 4\n line 5\n line 6\n line 7\n"
            "@@ -13,6 +12,8 @@\n line 13\n line 14\n line 15\n+new a\n+new b\n line 16\n line 17\n line 18\n");
  // Everything different: one hunk, removals then additions.
  EXPECT_EQ(unified_diff("t.json", "a\nb\n", "c\n"), "--- a/t.json\n+++ b/t.json\n@@ -1,2 +1,1 @@\n-a\n-b\n+c\n");
  // Into an empty file: git's `-1,0`-style start for the empty side.
  EXPECT_EQ(unified_diff("t.json", "", "x\n"), "--- a/t.json\n+++ b/t.json\n@@ -0,0 +1,1 @@\n+x\n");
}

}  // namespace
}  // namespace ptmpl
