// Expanding directory arguments and replacing files atomically (file_io.hpp).
#include "libtemplate/file_io.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "sandbox_process.hpp"

namespace ptmpl::testing {
namespace {

namespace fs = std::filesystem;

TEST(ExpandPaths, FindsJsonFilesBelowDirectoriesButNotHiddenOnes) {
  ScratchDir dir("expand");
  for (const char* name : {"b.json", "a.json", "notes.txt", ".ptmpl.json", "sub/c.json", ".git/x.json",
                           ".ptmpl-backups/3-2026.json", "sub/.hidden/d.json"}) {
    fs::create_directories(fs::path(dir.file(name)).parent_path());
    std::ofstream(dir.file(name)) << "[]";
  }
  auto paths = expand_paths({dir.path(), dir.file(".ptmpl.json")});
  ASSERT_TRUE(paths.ok());
  // Named explicitly, a hidden file is taken as given.
  EXPECT_EQ(paths.value(), (std::vector<std::string>{dir.file("a.json"), dir.file("b.json"), dir.file("sub/c.json"),
                                                     dir.file(".ptmpl.json")}));
  auto missing = expand_paths({dir.file("nope.json")});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, dir.file("nope.json") + ": no such file or directory");
}

TEST(WriteFileAtomic, ReplacesTheFileKeepingItsModeAndLeavesNoTemporaryFile) {
  ScratchDir dir("atomic");
  std::string path = dir.write("t.json", "old");
  ::chmod(path.c_str(), 0640);
  ASSERT_TRUE(write_file_atomic(path, "new").ok());
  std::ifstream in(path);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "new");
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator{}), 1);
}

}  // namespace
}  // namespace ptmpl::testing
