// Expanding directory arguments and replacing files atomically (file_io.hpp).
#include "libtemplate/core/file_io.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "peak_memory.hpp"
#include "sandbox_process.hpp"
#include "test_files.hpp"

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

TEST(WriteFileAtomicIfChanged, LeavesAFileThatHoldsTheBytesAloneAndReplacesOneThatDoesNot) {
  ScratchDir dir("atomic-if-changed");
  std::string path = dir.write("base.json", "same bytes");
  // A second name for the file read: a replacement is a new file, so the two names part.
  const std::string witness = dir.file("witness");
  ASSERT_EQ(::link(path.c_str(), witness.c_str()), 0);
  auto links = [&] {
    struct stat st {};
    EXPECT_EQ(::stat(path.c_str(), &st), 0);
    return st.st_nlink;
  };
  // The same bytes: not written again.
  ASSERT_TRUE(write_file_atomic_if_changed(path, "same bytes").ok());
  EXPECT_EQ(links(), 2u);
  // Same size, other bytes; a prefix; a longer text: each replaces the file.
  for (const char* content : {"SAME bytes", "same", "same bytes and more"}) {
    ASSERT_TRUE(write_file_atomic_if_changed(path, content).ok());
    EXPECT_EQ(slurp(path), content);
    EXPECT_EQ(links(), 1u);
  }
  EXPECT_EQ(slurp(witness), "same bytes");
  // A file read in several pieces: the same bytes are left alone, a difference in the last
  // piece only is seen.
  const std::string large(40 << 10, 'x');
  std::string changed_at_end = large;
  changed_at_end.back() = 'y';
  ASSERT_TRUE(write_file_atomic(path, large).ok());
  ::unlink(witness.c_str());
  ASSERT_EQ(::link(path.c_str(), witness.c_str()), 0);
  ASSERT_TRUE(write_file_atomic_if_changed(path, large).ok());
  EXPECT_EQ(links(), 2u);
  ASSERT_TRUE(write_file_atomic_if_changed(path, changed_at_end).ok());
  EXPECT_EQ(links(), 1u);
  EXPECT_EQ(slurp(path), changed_at_end);
  // A file that does not exist yet is written.
  ASSERT_TRUE(write_file_atomic_if_changed(dir.file("new.json"), "fresh").ok());
  EXPECT_EQ(slurp(dir.file("new.json")), "fresh");
  // A FIFO of the name is never read (it would block) and is replaced as any other file.
  std::string fifo = dir.file("fifo.json");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  ASSERT_TRUE(write_file_atomic_if_changed(fifo, "").ok());
  struct stat replaced {};
  ASSERT_EQ(::stat(fifo.c_str(), &replaced), 0);
  ASSERT_TRUE(S_ISREG(replaced.st_mode));
  EXPECT_EQ(slurp(fifo), "");
}

TEST(ExpandPaths, KeepsAFileReachedTwiceOnce) {
  ScratchDir dir("expand-twice");
  std::string a = dir.write("a.json", "[]");
  fs::create_symlink(a, dir.file("link.json"));
  auto paths = expand_paths({a, dir.path() + "/./a.json", dir.path()});
  ASSERT_TRUE(paths.ok());
  EXPECT_EQ(paths.value(), std::vector<std::string>{a});
}

TEST(WriteOutput, WritesAFifoInPlaceAndNeverReplacesIt) {
  ScratchDir dir("output-fifo");
  std::string fifo = dir.file("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = slurp(fifo); });
  Status written = write_output(fifo, "through the pipe\n");
  reader.join();
  ASSERT_TRUE(written.ok()) << written.error().message;
  EXPECT_EQ(received, "through the pipe\n");
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST(WriteOutput, WritesADeviceInPlace) {
  // A null device of our own (as root, as CI containers run): replacing it would turn it into a
  // regular file, as `-o /dev/null` once did to /dev/null.
  ScratchDir dir("output-device");
  std::string null = dir.file("null");
  if (::mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) GTEST_SKIP() << "mknod needs root";
  ASSERT_TRUE(write_output(null, "gone").ok());
  struct stat st {};
  ASSERT_EQ(::lstat(null.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST(WriteOutput, AFullDeviceIsAnError) {
  if (::access("/dev/full", W_OK) != 0) GTEST_SKIP() << "no /dev/full";
  Status written = write_output("/dev/full", std::string(1 << 16, 'x'));
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.error().code, ErrorCode::kOutputFailed);
  EXPECT_EQ(written.error().message, "/dev/full: cannot write: No space left on device");
  EXPECT_TRUE(fs::is_character_file("/dev/full"));
}

TEST(WriteOutput, ReplacesARegularFileAtomically) {
  ScratchDir dir("output-regular");
  std::string path = dir.write("out.txt", "old");
  ::chmod(path.c_str(), 0604);
  ASSERT_TRUE(write_output(path, "new").ok());
  EXPECT_EQ(slurp(path), "new");
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0604u);
}

TEST(CheckOutputIsNotInput, RefusesAnInputUnderAnyName) {
  ScratchDir dir("output-input");
  std::string input = dir.write("w.json", "[]");
  fs::create_symlink(input, dir.file("alias.json"));
  const std::string inputs[] = {input};
  for (const std::string& output : {input, dir.path() + "/./w.json", dir.file("alias.json")}) {
    Status apart = check_output_is_not_input(output, inputs);
    ASSERT_FALSE(apart.ok()) << output;
    EXPECT_EQ(apart.error().code, ErrorCode::kUsage);
    EXPECT_EQ(apart.error().message, output + ": is also an input (" + input + "); refusing to write over it");
  }
  EXPECT_TRUE(check_output_is_not_input(dir.file("new.csv"), inputs).ok());
  EXPECT_TRUE(check_output_is_not_input("-", inputs).ok());
  EXPECT_TRUE(check_output_is_not_input("/dev/null", inputs).ok());
}

TEST(RewriteFile, ReplacesOnlyWhatStillHoldsTheBytesRead) {
  ScratchDir dir("rewrite");
  std::string path = dir.write("t.json", "as read");
  ASSERT_TRUE(rewrite_file(path, "as read", "rewritten").ok());
  EXPECT_EQ(slurp(path), "rewritten");

  // Saved by an editor meanwhile: kept, and the error says so.
  Status stale = rewrite_file(path, "as read", "would lose the edit");
  ASSERT_FALSE(stale.ok());
  EXPECT_EQ(stale.error().code, ErrorCode::kConflict);
  EXPECT_EQ(stale.error().message, path + ": changed since it was read; not rewritten (run the command again)");
  EXPECT_EQ(slurp(path), "rewritten");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator{}), 1);  // no temporary left

  std::string fifo = dir.file("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  Status special = rewrite_file(fifo, "", "x");
  ASSERT_FALSE(special.ok());
  EXPECT_EQ(special.error().code, ErrorCode::kUsage);
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

// Issue 35, class 10: a text ends at its first NUL byte, so a file padded with gigabytes of
// zeros is read as far as the zeros (the NUL is kept, for its reader to refuse at its place);
// UTF-16, half of whose bytes are NULs, is read whole; a compound file whole or its first MiB.
TEST(ReadText, StopsAtTheFirstNulByteButReadsUtf16AndCompoundFilesAsAsked) {
  ScratchDir dir("read-text");
  const std::string padded = dir.write("padded.json", "[{\"title\": \"A\"}]\n");
  fs::resize_file(padded, std::uintmax_t{3} << 30);  // sparse: no disk
  std::optional<long> rise = peak_rise_kib([&] {
    auto text = FileText::read_text(padded);
    ASSERT_TRUE(text.ok()) << text.error().message;
    EXPECT_EQ(text.value().text(), std::string_view("[{\"title\": \"A\"}]\n\0", 18));
    EXPECT_FALSE(text.value().from_regular_file());  // not whole: never compared with the file again
  });
  if (rise) {
    EXPECT_LT(*rise, 8 * 1024) << "KiB";
  }
  // A NUL past the first chunk read at once (1 MiB), in a file read into pages.
  std::string long_text(3 << 20, 'x');
  long_text[(1 << 20) + 5] = '\0';
  const std::string late = dir.write("late.csv", long_text);
  auto cut = FileText::read_text(late);
  ASSERT_TRUE(cut.ok());
  EXPECT_EQ(cut.value().text().size(), (std::size_t{1} << 20) + 6);
  EXPECT_EQ(FileText::read(late).value().text().size(), long_text.size());  // read() reads all

  // Whole: text without a NUL, small or large, and UTF-16 either way round.
  const std::string plain = dir.write("plain.csv", "title\nA\n");
  EXPECT_EQ(FileText::read_text(plain).value().text(), "title\nA\n");
  EXPECT_TRUE(FileText::read_text(plain).value().from_regular_file());
  const std::string utf16(std::string_view("<\0?\0x\0m\0l\0\0\0", 12));
  EXPECT_EQ(FileText::read_text(dir.write("le.xml", utf16)).value().text(), utf16);
  const std::string big_endian(std::string_view("\0<\0?\0x\0m\0l\0\0", 12));
  EXPECT_EQ(FileText::read_text(dir.write("be.xml", big_endian)).value().text(), big_endian);
  const std::string bom = std::string("\xFF\xFE", 2) + std::string(std::string_view("t\0i\0\0\0", 6));
  EXPECT_EQ(FileText::read_text(dir.write("bom.csv", bom)).value().text(), bom);

  // A compound file: whole for a converter, its first MiB where a template is read.
  std::string compound("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", 8);
  compound += std::string(3 << 20, '\0');
  const std::string mpp = dir.write("plan.mpp", compound);
  EXPECT_EQ(FileText::read_text(mpp).value().text().size(), std::size_t{1} << 20);
  EXPECT_EQ(FileText::read_text(mpp, FileText::Compound::kWhole).value().text().size(), compound.size());

  // Standard input and pipes stop at the NUL too: /dev/zero is one byte, not 2 GiB refused.
  auto zero = FileText::read_text("/dev/zero");
  ASSERT_TRUE(zero.ok()) << zero.error().message;
  EXPECT_EQ(zero.value().text(), std::string_view("\0", 1));
}

}  // namespace
}  // namespace ptmpl::testing
