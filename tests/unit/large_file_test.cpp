// A file past 2 GiB: read through mmap, positions beyond 2^31 exact, no crash.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include <sys/statvfs.h>
#include <unistd.h>

#include "libtemplate/core/lint.hpp"
#include "libtemplate/core/template_file.hpp"

namespace ptmpl {
namespace {

constexpr std::uint64_t kSpaces = (std::uint64_t{1} << 31) + 5;  // just past 2 GiB

TEST(LargeFile, TwoGibibytesWithAnErrorAtTheEnd) {
  std::filesystem::path dir = std::filesystem::temp_directory_path();
  struct statvfs fs {};
  if (statvfs(dir.c_str(), &fs) == 0 && fs.f_bavail * fs.f_frsize < kSpaces + (512u << 20))
    GTEST_SKIP() << "needs 2.5 GiB free in " << dir;
  std::string path = (dir / ("ptmpl-large-" + std::to_string(::getpid()) + ".json")).string();
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::string chunk(8u << 20, ' ');
    std::fputc('[', f);
    for (std::uint64_t left = kSpaces; left > 0;) {
      std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(left, chunk.size()));
      ASSERT_EQ(std::fwrite(chunk.data(), 1, n, f), n);
      left -= n;
    }
    std::fputs("x]", f);
    std::fclose(f);
  }
  LintRun run = lint_files({path});
  std::filesystem::remove(path);
  ASSERT_FALSE(run.has_errors());
  ASSERT_EQ(run.diagnostics.size(), 1u);
  const Diagnostic& d = run.diagnostics[0];
  EXPECT_EQ(d.rule, "json-syntax");
  EXPECT_EQ(d.line, 1u);
  EXPECT_EQ(d.column, kSpaces + 2) << "'[' is column 1, then the spaces, then 'x'";
  EXPECT_NE(d.message.find("expected a JSON value"), std::string::npos) << d.message;
}

}  // namespace
}  // namespace ptmpl

namespace ptmpl {
namespace {

// The deepest nesting ptmpl accepts is read and linted (in a worker thread, whose stack is the
// smallest) without exhausting the stack; asking for more is bounded.
TEST(Limits, DeepestAcceptedNestingOfSubStories) {
  constexpr int kLevels = 2000;  // two JSON levels each: 4,001 with the root array
  std::string text = "[";
  for (int i = 1; i <= kLevels; ++i)
    text +=
        "{\"title\": \"Level " + std::to_string(i) + "\", \"temp_id\": " + std::to_string(i) + ", \"sub_stories\": [";
  for (int i = 0; i < kLevels; ++i) text += "]}";
  text += "]";
  std::string path = ::testing::TempDir() + "ptmpl-deep-" + std::to_string(::getpid()) + ".json";
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  }
  LintSettings settings;
  settings.discover_config = false;
  settings.max_depth = json::kMaxDepthLimit;
  settings.jobs = 2;
  LintRun run = lint_files({path, path}, settings);
  ASSERT_FALSE(run.has_errors()) << run.files[0].error->message;
  for (const Diagnostic& d : run.diagnostics) EXPECT_NE(d.rule, "nesting-depth") << d.message;

  settings.max_depth = 1'000'000;  // bounded to kMaxDepthLimit, not a stack overflow
  LintRun bounded = lint_files({path}, settings);
  EXPECT_FALSE(bounded.has_errors());
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace ptmpl
