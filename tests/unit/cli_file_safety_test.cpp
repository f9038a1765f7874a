// What ptmpl's one output path does to the files around the one it writes (docs/semantics.md §11
// "Writing output" and "Rewriting a user's file"): links, modes, second names, extended
// attributes, temporary files left by a signal, file types and long names.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "cli_run.hpp"

namespace ptmpl {
namespace {

namespace fs = std::filesystem;
using testing::CliRun;

class FileSafety : public testing::CliScratchTest {
 protected:
  // A template that is not canonical (one line) and has a safe fix (duration 10 for 5 days).
  static constexpr const char* kFixable =
      R"([{"title": "A", "story_type": "task", "temp_id": 1, "relative_start_date": 0, "relative_due_date": 4, "duration": 10}])";

  std::string at(const std::string& name) const { return (dir_ / name).string(); }

  static mode_t mode_of(const std::string& path) {
    struct stat st {};
    EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
    return st.st_mode & 07777;
  }

  // The temporary files ptmpl left in `dir`.
  static std::vector<std::string> temporaries(const fs::path& dir) {
    std::vector<std::string> found;
    for (const auto& entry : fs::directory_iterator(dir))
      if (entry.path().filename().string().find(".ptmpl-") != std::string::npos)
        found.push_back(entry.path().filename().string());
    return found;
  }
};

TEST_F(FileSafety, DirectoryWalksNeverRewriteThroughALinkOutOfTheTree) {
  fs::create_directories(dir_ / "tree");
  fs::create_directories(dir_ / "outside");
  const std::string outside = file("outside/o.json", kFixable);
  fs::create_symlink("../outside/o.json", dir_ / "tree" / "link.json");
  const std::string tree = at("tree");

  CliRun fmt = ptmpl("fmt -w '" + tree + "'");
  EXPECT_EQ(fmt.exit, 2) << fmt.err;
  expect_has(fmt.err, "link.json: a symbolic link that leads out of " + tree + "; not rewritten");
  EXPECT_EQ(read_file(outside), kFixable);

  CliRun fix = ptmpl("lint --fix '" + tree + "'");
  EXPECT_EQ(fix.exit, 2) << fix.err;
  expect_has(fix.err, "link.json: a symbolic link that leads out of " + tree + "; not rewritten");
  EXPECT_EQ(read_file(outside), kFixable);

  // Reading through the link stays: the finding is reported.
  CliRun lint = ptmpl("lint '" + tree + "'");
  expect_has(lint.out, "link.json:1:");

  // Named on the command line, the link is the user's choice: the file it names is rewritten.
  CliRun named = ptmpl("fmt -w '" + tree + "/link.json'");
  EXPECT_EQ(named.exit, 0) << named.err;
  EXPECT_NE(read_file(outside), kFixable);
  EXPECT_TRUE(fs::is_symlink(dir_ / "tree" / "link.json"));
}

TEST_F(FileSafety, NewFilesGetTheModeTheUmaskAllows) {
  const std::string csv = at("a.csv");
  const std::string json = at("c.json");
  CliRun schedule = ptmpl("schedule samples/office-move.json --format csv -o '" + csv + "'", "umask 077 &&");
  ASSERT_EQ(schedule.exit, 0) << schedule.err;
  EXPECT_EQ(mode_of(csv), 0600u);
  CliRun gen = ptmpl("gen --stories 3 -o '" + json + "'", "umask 027 &&");
  ASSERT_EQ(gen.exit, 0) << gen.err;
  EXPECT_EQ(mode_of(json), 0640u);
  // A file replaced keeps its own mode.
  ::chmod(json.c_str(), 0664);
  ASSERT_EQ(ptmpl("gen --stories 4 -o '" + json + "'", "umask 077 &&").exit, 0);
  EXPECT_EQ(mode_of(json), 0664u);
}

TEST_F(FileSafety, AFileWithASecondNameIsNotSplitFromIt) {
  const std::string a = file("a.json", kFixable);
  const std::string b = at("b.json");
  ASSERT_EQ(::link(a.c_str(), b.c_str()), 0);
  for (const std::string command : {"fmt -w", "lint --fix"}) {
    CliRun run = ptmpl(command + " '" + a + "'");
    EXPECT_EQ(run.exit, 2) << command << ": " << run.err;
    expect_has(run.err, a + ": has 2 names (hard links); not rewritten");
    EXPECT_EQ(read_file(a), kFixable);
    EXPECT_EQ(read_file(b), kFixable);
  }
}

TEST_F(FileSafety, ExtendedAttributesSurviveARewrite) {
  const std::string a = file("a.json", kFixable);
  const std::string value = "kept";
  if (::setxattr(a.c_str(), "user.ptmpl-test", value.data(), value.size(), 0) != 0)
    GTEST_SKIP() << "the file system of " << a << " refuses user extended attributes";
  CliRun fmt = ptmpl("fmt -w '" + a + "'");
  ASSERT_EQ(fmt.exit, 0) << fmt.err;
  ASSERT_NE(read_file(a), kFixable);
  char buffer[64] = {};
  const ssize_t n = ::getxattr(a.c_str(), "user.ptmpl-test", buffer, sizeof buffer);
  ASSERT_EQ(n, static_cast<ssize_t>(value.size()));
  EXPECT_EQ(std::string(buffer, static_cast<std::size_t>(n)), value);
}

TEST_F(FileSafety, ASignalMidWriteLeavesNoTemporaryFile) {
  const std::string big = at("big.json");
  ASSERT_EQ(ptmpl("gen --stories 300000 -o '" + big + "'").exit, 0);
  // Compact (not canonical): a JSON string never spans lines, so what follows a line break is
  // indentation.
  std::string text = read_file(big);
  std::string compact;
  compact.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\n') {
      compact += text[i];
      continue;
    }
    while (i + 1 < text.size() && text[i + 1] == ' ') ++i;
  }
  text.clear();
  std::ofstream(big, std::ios::binary) << compact;

  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::execl(PTMPL_BINARY, PTMPL_BINARY, "fmt", "-w", big.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  bool seen = false;
  for (auto until = std::chrono::steady_clock::now() + std::chrono::seconds(120);
       !seen && std::chrono::steady_clock::now() < until;) {
    seen = !temporaries(dir_).empty();
    if (!seen) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ASSERT_EQ(::kill(child, SIGTERM), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(seen) << "no temporary file appeared";
  if (WIFSIGNALED(status)) {
    EXPECT_EQ(WTERMSIG(status), SIGTERM);
  }
  EXPECT_EQ(temporaries(dir_), std::vector<std::string>{});
  // Either the original, or (when the signal came after the rename) the canonical form.
  const std::string now = read_file(big);
  if (now != compact) {
    EXPECT_EQ(ptmpl("fmt --check '" + big + "'").exit, 0);
  }
}

TEST_F(FileSafety, ALaterRunRemovesTheTemporaryFilesOfADeadRun) {
  const std::string a = file("a.json", kFixable);
  // A process that is gone: a child that has been waited for.
  const pid_t gone = ::fork();
  if (gone == 0) ::_exit(0);
  ::waitpid(gone, nullptr, 0);
  const std::string dead = at(".a.json.ptmpl-tmp-" + std::to_string(gone) + "-AbCdEf");
  const std::string alive = at(".a.json.ptmpl-tmp-" + std::to_string(::getpid()) + "-AbCdEf");
  std::ofstream(dead) << "partial";
  std::ofstream(alive) << "partial";
  ASSERT_EQ(ptmpl("fmt -w '" + a + "'").exit, 0);
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(fs::exists(alive));
}

TEST_F(FileSafety, FilesAreTreatedByTheirTypeNotTheirPath) {
  if (!fs::is_directory("/dev/shm") || ::access("/dev/shm", W_OK) != 0) GTEST_SKIP() << "no writable /dev/shm";
  const std::string fresh = "/dev/shm/ptmpl-file-safety-" + std::to_string(::getpid()) + ".json";
  CliRun created = ptmpl("gen --stories 2 -o '" + fresh + "'");
  EXPECT_EQ(created.exit, 0) << created.err;
  EXPECT_TRUE(fs::is_regular_file(fresh));
  // An existing regular file there is replaced atomically: a new file takes its place.
  struct stat before {};
  ASSERT_EQ(::stat(fresh.c_str(), &before), 0);
  EXPECT_EQ(ptmpl("gen --stories 3 -o '" + fresh + "'").exit, 0);
  struct stat after {};
  ASSERT_EQ(::stat(fresh.c_str(), &after), 0);
  EXPECT_NE(before.st_ino, after.st_ino);
  fs::remove(fresh);
}

TEST_F(FileSafety, AFileWithALongNameCanBeRewritten) {
  const std::string name = std::string(240, 'n') + ".json";  // 245 bytes
  const std::string path = file(name, kFixable);
  ASSERT_EQ(read_file(path), kFixable);
  CliRun fmt = ptmpl("fmt -w '" + path + "'");
  EXPECT_EQ(fmt.exit, 0) << fmt.err;
  EXPECT_NE(read_file(path), kFixable);
  EXPECT_EQ(temporaries(dir_), std::vector<std::string>{});
}

TEST_F(FileSafety, AnEmptyOutputNameOrRewritingStandardInputIsAUsageError) {
  CliRun empty = ptmpl("gen --stories 2 -o ''");
  EXPECT_EQ(empty.exit, 2) << empty.err;
  expect_has(empty.err, "empty");
  CliRun stdin_write = ptmpl("fmt -w - < samples/office-move.json");
  EXPECT_EQ(stdin_write.exit, 2) << stdin_write.err;
  expect_has(stdin_write.err, "standard input");
  EXPECT_EQ(stdin_write.out, "");
}

}  // namespace
}  // namespace ptmpl
