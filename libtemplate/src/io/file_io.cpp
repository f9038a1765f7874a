#include "libtemplate/core/file_io.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <iterator>
#include <limits>
#include <set>
#include <utility>

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/mapped_pages.hpp"

namespace ptmpl {

FileText::FileText(std::string owned) {
  auto text = std::make_shared<const std::string>(std::move(owned));
  view_ = *text;
  owned_ = std::move(text);
}

FileText::FileText(FileText&& other) noexcept {
  *this = std::move(other);
}

FileText& FileText::operator=(FileText&& other) noexcept {
  if (this == &other) return *this;
  owned_ = std::move(other.owned_);
  view_ = std::exchange(other.view_, {});
  page_bytes_ = std::exchange(other.page_bytes_, 0);
  regular_ = std::exchange(other.regular_, false);
  return *this;
}

void FileText::keep_only(std::size_t keep) {
  if (page_bytes_ == 0 || keep >= view_.size()) return;
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const auto start = reinterpret_cast<std::uintptr_t>(view_.data());
  const std::uintptr_t from = (start + keep + page - 1) / page * page;
  const std::uintptr_t end = start + page_bytes_;
  // Private anonymous pages: what is given back reads as zeros if touched again (it is not).
  if (from < end) ::madvise(reinterpret_cast<void*>(from), end - from, MADV_DONTNEED);
  view_ = view_.substr(0, keep);
}

FileText::~FileText() = default;

namespace {

Error too_long_stream(const std::string& path, std::uint64_t limit) {
  return Error::invalid(path + ": goes on past " + std::to_string(limit >> 20) + " MiB (" + std::to_string(limit) +
                        " bytes) and is not a regular file (standard input, a pipe or a device such as "
                        "/dev/zero); refused: save it to a file first");
}

// Pages for an input: its size and one byte more (or, when its size is not known, the limit
// and one byte more) of address space reserved at once and filled by read(), so the memory used
// is what was read — no doubling, no copy, no zero-filling ahead (/dev/zero is refused at the
// limit, not at twice it). The byte after what was read is a NUL, as after a std::string's
// characters: the extra byte is never kept. Null when the system refuses such a reservation.
std::shared_ptr<char> reserve_pages(std::size_t size) {
  void* pages = detail::map_pages(size);
  if (pages == nullptr) return nullptr;
  return std::shared_ptr<char>(static_cast<char*>(pages), [size](char* p) { detail::unmap_pages(p, size); });
}

/// What a file that is not a regular file is, as a message names it.
const char* kind_of(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISDIR(mode)) return "a directory";
  return "a special file";
}

/// Opens `path` to read. With FileKinds::kRegularOnly, opened without
/// waiting (open(2) of a FIFO waits for a writer; O_NONBLOCK changes nothing for a regular
/// file) and refused unless the file opened is a regular file.
Result<int> open_to_read(const std::string& path, FileKinds kinds) {
  const bool regular_only = kinds == FileKinds::kRegularOnly;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | (regular_only ? O_NONBLOCK : 0));
  if (fd < 0)
    return Error{errno == ENOENT ? ErrorCode::kNotFound : ErrorCode::kUnreadable,
                 path + ": cannot open: " + std::strerror(errno)};
  struct stat st {};
  if (regular_only && (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
    const int err = errno;
    ::close(fd);
    if (st.st_mode == 0) return Error::unreadable(path + ": cannot read: " + std::strerror(err));
    return Error::unreadable(path + ": is " + kind_of(st.st_mode) + ", not a regular file; refused");
  }
  return fd;
}

}  // namespace

Result<FileText> FileText::read(const std::string& path, std::uint64_t stream_limit) {
  if (path == "-") return read_descriptor(STDIN_FILENO, "standard input", stream_limit, {});
  auto fd = open_to_read(path, FileKinds::kAny);
  if (!fd.ok()) return fd.error();
  return read_descriptor(fd.value(), path, stream_limit, {});
}

Result<FileText> FileText::read_regular(const std::string& path) {
  auto fd = open_to_read(path, FileKinds::kRegularOnly);
  if (!fd.ok()) return fd.error();
  return read_descriptor(fd.value(), path, kMaxStreamBytes, {});
}

Result<FileText> FileText::read_descriptor(int fd, const std::string& name, std::uint64_t stream_limit,
                                           std::string_view private_what) {
  auto done = [&] {
    if (fd != STDIN_FILENO) ::close(fd);
  };
  auto failed = [&](int err) {
    done();
    return Error::unreadable(name + ": cannot read: " + std::strerror(err));
  };
  struct stat st {};
  if (::fstat(fd, &st) != 0) return failed(errno);
  if (S_ISDIR(st.st_mode)) {
    done();
    return Error::unreadable(name + ": is a directory");
  }
  // Checked on the file that is read (fstat of the open descriptor), not on the name.
  if (!private_what.empty() && (st.st_mode & 077) != 0) {
    done();
    return Error::usage(name + ": the " + std::string(private_what) +
                        " file is readable by group or others; refused (chmod 600 " + name + ")");
  }
  // The file is read, not memory-mapped: a mapped file that another program truncates while
  // we read it would kill the process (SIGBUS). Read straight into place: a regular file into
  // pages of its size (plus the one byte that tells it grew meanwhile), what has no size (a
  // pipe, a device) into pages of `stream_limit` + 1 bytes. Either way the memory used is what
  // was read: no doubling, no copy, no zero-filling ahead.
  const bool regular = S_ISREG(st.st_mode);
  std::string data;  // the fallback: a string that grows
  std::size_t filled = 0;
  const std::uint64_t expected = regular ? static_cast<std::uint64_t>(st.st_size) : stream_limit;
  // Small files go to a string: a mapping per file would cost more than it saves. From 64 KiB
  // (about 100 stories) pages pay: no zeroing before the read, one call to make them resident,
  // and the model built in them once the text is let go (a 1,000-story lint: 1,008 -> 748 page
  // faults, at about 11 µs each on the project's virtual machine).
  constexpr std::uint64_t kPagesFrom = std::uint64_t{64} << 10;
  if ((!regular || expected >= kPagesFrom) && expected < std::numeric_limits<std::size_t>::max()) {
    const auto reserved = static_cast<std::size_t>(expected) + 1;
    if (std::shared_ptr<char> pages = reserve_pages(reserved)) {
      // A file of known size: all its pages at once, not a fault each as read() fills them
      // (inputs of unknown size mostly end far below the limit).
      if (regular) detail::populate_now(pages.get(), reserved);
      while (filled < reserved) {
        ssize_t n = ::read(fd, pages.get() + filled, reserved - filled);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return failed(errno);
        if (n == 0) break;
        filled += static_cast<std::size_t>(n);
      }
      if (!regular || filled < reserved) {
        done();
        if (!regular && filled > stream_limit) return too_long_stream(name, stream_limit);
        FileText text;
        text.view_ = std::string_view(pages.get(), filled);
        text.owned_ = std::move(pages);
        text.page_bytes_ = reserved;
        text.regular_ = regular;
        return text;
      }
      // A regular file that grew while it was read: go on below with what was read so far.
      data.assign(pages.get(), filled);
    }
  }
  if (regular && data.empty()) data.resize(static_cast<std::size_t>(st.st_size));
  for (;;) {
    if (filled == data.size() && regular) {
      // Every byte the size promised is read: one small read tells whether it grew meanwhile.
      char probe[4096];
      ssize_t n = ::read(fd, probe, sizeof probe);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return failed(errno);
      if (n == 0) break;
      data.append(probe, static_cast<std::size_t>(n));
      filled = data.size();
    }
    if (filled == data.size()) {
      std::size_t grown = std::max<std::size_t>(data.size() * 2, 1 << 16);
      if (!regular) grown = static_cast<std::size_t>(std::min<std::uint64_t>(grown, stream_limit + 1));
      if (grown <= filled) {  // the limit and its extra byte are read
        done();
        return too_long_stream(name, stream_limit);
      }
      data.resize(grown);
    }
    ssize_t n = ::read(fd, data.data() + filled, data.size() - filled);
    if (n < 0) {
      if (errno == EINTR) continue;
      return failed(errno);
    }
    if (n == 0) break;
    filled += static_cast<std::size_t>(n);
  }
  done();
  if (!regular && filled > stream_limit) return too_long_stream(name, stream_limit);
  data.resize(filled);
  FileText text(std::move(data));
  text.regular_ = regular;
  return text;
}

Result<std::string> read_private_file(const std::string& path, std::string_view what, FileKinds kinds,
                                      std::uint64_t max_bytes) {
  auto fd = open_to_read(path, kinds);
  if (!fd.ok()) return fd.error();
  // A secret is small: a file of gigabytes (a sparse one is made in an instant) is not read.
  struct stat st {};
  if (::fstat(fd.value(), &st) == 0 && S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) > max_bytes) {
    ::close(fd.value());
    return Error::usage(path + ": holds " + std::to_string(st.st_size) + " bytes, and the " + std::string(what) +
                        " file may hold at most " + std::to_string(max_bytes) + ": refused (is it the right file?)");
  }
  auto text = FileText::read_descriptor(fd.value(), path, max_bytes, what);
  if (!text.ok()) return text.error();
  return std::string(text.value().text());
}

std::optional<FileIdentity> identify(const std::string& path) {
  struct stat st {};
  if (path == "-" || ::stat(path.c_str(), &st) != 0) return std::nullopt;
  return FileIdentity{static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
}

Result<std::vector<SelectedFile>> walk_paths(const std::vector<std::string>& paths, const SkipPath& skip) {
  namespace fs = std::filesystem;
  std::vector<SelectedFile> out;
  std::set<FileIdentity> seen;
  auto keep = [&](std::string path, bool named) {
    std::optional<FileIdentity> id = identify(path);
    if (!id || seen.insert(*id).second) out.push_back(SelectedFile{std::move(path), named});
  };
  for (const std::string& path : paths) {
    std::error_code ec;
    fs::file_status status = path == "-" ? fs::file_status(fs::file_type::regular) : fs::status(path, ec);
    if (ec || !fs::exists(status)) {
      return Error::not_found(path + ": no such file or directory");
    } else if (fs::is_directory(status)) {
      std::vector<std::string> found;
      fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec), end;
      for (; !ec && it != end; it.increment(ec)) {
        // Hidden files and directories (.ptmpl.json, .git, push's .ptmpl-backups) and installed
        // packages (node_modules) hold no templates of the project.
        const std::string name = it->path().filename().string();
        const bool directory = it->is_directory(ec);
        const bool json_file = !directory && it->path().extension() == ".json" && it->is_regular_file(ec);
        if (!directory && !json_file) continue;
        if (name.starts_with('.') || (directory && name == "node_modules") ||
            (skip && skip(it->path().string(), directory))) {
          if (directory) it.disable_recursion_pending();
          continue;
        }
        if (json_file) found.push_back(it->path().string());
      }
      if (ec) return Error::unreadable(path + ": cannot list: " + ec.message());
      std::sort(found.begin(), found.end());
      for (std::string& file : found) keep(std::move(file), false);
    } else {
      keep(path, true);
    }
  }
  return out;
}

Result<std::vector<std::string>> expand_paths(const std::vector<std::string>& paths) {
  auto walked = walk_paths(paths);
  if (!walked.ok()) return walked.error();
  std::vector<std::string> out;
  for (SelectedFile& file : walked.value()) out.push_back(std::move(file.path));
  return out;
}

namespace {

std::string describe_errno(int err) {
  return std::strerror(err);
}

/// Writes all of `bytes` to `fd`, retrying short writes and interruptions, and waiting while a
/// non-blocking descriptor is full.
bool write_all(int fd, std::string_view bytes, int& err) {
  const char* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      // A non-blocking descriptor (one a reader shares and set so) that is full: wait until the
      // reader takes some, rather than give up part way through.
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        pollfd writable{fd, POLLOUT, 0};
        if (::poll(&writable, 1, -1) >= 0 || errno == EINTR) continue;
      }
      err = errno;
      return false;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

/// Whether `path` holds exactly `expected` now.
Status still_holds(const std::string& path, std::string_view expected) {
  auto now = FileText::read(path);
  if (!now.ok())
    return Error::conflict(path + ": changed since it was read (" + now.error().message + "); not rewritten");
  if (now.value().text() != expected)
    return Error::conflict(path + ": changed since it was read; not rewritten (run the command again)");
  return Done{};
}

/// Whether `path` is a regular file of exactly `expected`'s bytes (one of another size is not
/// read; a device or a FIFO is not even opened: opening one can do something of its own).
bool holds_exactly(const std::string& path, std::string_view expected) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
      static_cast<std::uint64_t>(st.st_size) != static_cast<std::uint64_t>(expected.size()))
    return false;
  auto now = FileText::read(path);
  return now.ok() && now.value().text() == expected;
}

/// write_file_atomic, with `check` run just before the rename: when it fails, the original
/// stays as it is and its error is returned.
// A file's new content in a temporary file beside it, before it takes the file's place.
struct Staged {
  std::string path;  // the file replaced (a link's target)
  std::string temp;
};

// Writes `content` into a temporary file beside `given` (beside the file a link names), with the
// mode (and, as root, the owner) of the file it will replace; flushed to disk when `flush`.
Result<Staged> stage(const std::string& given, std::string_view content, bool flush) {
  // A symbolic link is followed: the file it names is replaced, and the link stays a link.
  std::error_code ec;
  std::string path = given;
  if (std::filesystem::is_symlink(given, ec)) {
    std::filesystem::path target = std::filesystem::canonical(given, ec);
    if (ec) return Error::output_failed(given + ": cannot follow the link: " + ec.message());
    path = target.string();
  }
  struct stat st {};
  bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && (::access(path.c_str(), W_OK) != 0 || (st.st_mode & 0222) == 0))
    return Error::output_failed(given + ": is read-only; not rewritten");
  std::string temp = path + ".ptmpl-XXXXXX";
  int fd = ::mkstemp(temp.data());
  if (fd < 0)
    return Error::output_failed(path + ": cannot create a temporary file beside it: " + describe_errno(errno));
  auto fail = [&](const char* what, int err) {
    ::close(fd);
    ::unlink(temp.c_str());
    return Error::output_failed(path + ": " + what + ": " + describe_errno(err));
  };
  int err = 0;
  if (!write_all(fd, content, err)) return fail("cannot write", err);
  mode_t mode = exists ? (st.st_mode & 07777) : 0644;
  if (::fchmod(fd, mode) != 0) return fail("cannot set permissions", errno);
  // Keep the owner too when we may (as root); otherwise the new file is ours, as with any editor.
  if (exists && (st.st_uid != ::geteuid() || st.st_gid != ::getegid())) (void)::fchown(fd, st.st_uid, st.st_gid);
  if (flush && ::fsync(fd) != 0) return fail("cannot flush to disk", errno);
  if (::close(fd) != 0) {
    ::unlink(temp.c_str());
    return Error::output_failed(path + ": cannot close: " + describe_errno(errno));
  }
  return Staged{std::move(path), std::move(temp)};
}

// The staged file takes its place.
Status put_in_place(const Staged& staged) {
  if (::rename(staged.temp.c_str(), staged.path.c_str()) != 0) {
    const int err = errno;
    ::unlink(staged.temp.c_str());
    return Error::output_failed(staged.path + ": cannot replace: " + describe_errno(err));
  }
  return Done{};
}

// The folder holding `path`, which a rename changed: the rename is only durable once the
// directory entry is on disk too.
std::string folder_of(const std::string& path) {
  std::string dir = std::filesystem::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}

Status flush_directory(const std::string& dir) {
  int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0)
    return Error::output_failed(dir + ": cannot open the directory to flush it: " + describe_errno(errno));
  int sync_result = ::fsync(dir_fd);
  int sync_errno = errno;
  ::close(dir_fd);
  if (sync_result != 0)
    return Error::output_failed(dir + ": cannot flush the directory to disk: " + describe_errno(sync_errno));
  return Done{};
}

Status replace_file(const std::string& given, std::string_view content, const std::function<Status()>& check) {
  Result<Staged> staged = stage(given, content, true);
  if (!staged.ok()) return staged.error();
  if (check) {
    if (Status ok = check(); !ok.ok()) {
      ::unlink(staged.value().temp.c_str());
      return ok;
    }
  }
  if (Status placed = put_in_place(staged.value()); !placed.ok()) return placed;
  return flush_directory(folder_of(staged.value().path));
}

}  // namespace

// /dev/stdout is a link to whatever standard output is: replacing the regular file behind it
// would leave the shell's descriptor on a deleted file.
bool written_in_place(const std::string& path) {
  if (path.starts_with("/dev/") || path.starts_with("/proc/")) return true;
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
}

Status write_file_atomic(const std::string& given, std::string_view content) {
  return replace_file(given, content, {});
}

std::vector<Status> write_files_atomic(std::span<const std::pair<std::string, std::string_view>> files) {
  std::vector<Status> out(files.size(), Done{});
  std::vector<std::optional<Staged>> staged(files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    Result<Staged> one = stage(files[i].first, files[i].second, false);
    if (one.ok())
      staged[i] = std::move(one).value();
    else
      out[i] = one.error();
  }
  // One flush of each file system written to, instead of one per file: the new contents are
  // on disk before any of them takes its file's place.
  std::set<std::string> folders;
  for (const std::optional<Staged>& s : staged)
    if (s) folders.insert(folder_of(s->path));
  std::set<dev_t> flushed;
  for (const std::string& dir : folders) {
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0 || !flushed.insert(st.st_dev).second) continue;
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    const int result = fd < 0 ? -1 : ::syncfs(fd);
    const int err = errno;
    if (fd >= 0) ::close(fd);
    if (result == 0) continue;
    for (std::size_t i = 0; i < files.size(); ++i) {
      if (!staged[i] || folder_of(staged[i]->path) != dir) continue;
      ::unlink(staged[i]->temp.c_str());
      staged[i].reset();
      out[i] = Error::output_failed(files[i].first + ": cannot flush to disk: " + describe_errno(err));
    }
  }
  for (std::size_t i = 0; i < files.size(); ++i)
    if (staged[i]) out[i] = put_in_place(*staged[i]);
  for (const std::string& dir : folders)
    if (Status flushed_dir = flush_directory(dir); !flushed_dir.ok())
      for (std::size_t i = 0; i < files.size(); ++i)
        if (staged[i] && out[i].ok() && folder_of(staged[i]->path) == dir) out[i] = flushed_dir.error();
  return out;
}

Status write_file_atomic_if_changed(const std::string& path, std::string_view content) {
  if (holds_exactly(path, content)) return Done{};
  return write_file_atomic(path, content);
}

Status write_output(const std::string& path, std::string_view bytes) {
  if (path == "-") return write_stdout(bytes);
  if (!written_in_place(path)) return write_file_atomic(path, bytes);
  // Never O_CREAT: a device or FIFO that vanished is not recreated as a regular file. A regular
  // file reached through /dev or /proc is truncated, as a shell's `>` would.
  struct stat st {};
  bool regular = ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY | (regular ? O_TRUNC : 0));
  if (fd < 0) return Error::output_failed(path + ": cannot open for writing: " + describe_errno(errno));
  int err = 0;
  bool written = write_all(fd, bytes, err);
  if (::close(fd) != 0 && written) {
    err = errno;
    written = false;
  }
  if (!written) return Error::output_failed(path + ": cannot write: " + describe_errno(err));
  return Done{};
}

Status check_output_is_not_input(const std::string& output, std::span<const std::string> inputs) {
  std::optional<FileIdentity> target = identify(output);
  if (!target || written_in_place(output)) return Done{};
  for (const std::string& input : inputs) {
    if (identify(input) == target)
      return Error::usage(output + ": is also an input (" + input + "); refusing to write over it");
  }
  return Done{};
}

Status rewrite_file(const std::string& path, std::string_view read, std::string_view bytes) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return Error::conflict(path + ": no longer exists; not rewritten");
  if (!S_ISREG(st.st_mode)) return Error::usage(path + ": not a regular file; not rewritten in place");
  return replace_file(path, bytes, [&] { return still_holds(path, read); });
}

Status write_descriptor(int fd, std::string_view bytes, std::string_view name) {
  int err = 0;
  if (!write_all(fd, bytes, err))
    return Error::output_failed(std::string(name) + ": cannot write: " + describe_errno(err));
  return Done{};
}

Status write_stdout(std::string_view bytes) {
  // What C++ and C streams hold goes first, so that the order of the output is kept.
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0)
    return Error::output_failed("standard output: cannot write: " + describe_errno(errno));
  int err = 0;
  if (!write_all(STDOUT_FILENO, bytes, err))
    return Error::output_failed("standard output: cannot write: " + describe_errno(err));
  return Done{};
}

Status finish_stdout() {
  errno = 0;
  std::cout.flush();
  bool failed = !std::cout;
  if (std::fflush(stdout) != 0) failed = true;
  int err = errno;
  if (std::ferror(stdout) != 0) failed = true;
  if (!failed) return Done{};
  return Error::output_failed("standard output: cannot write" +
                              (err != 0 ? ": " + describe_errno(err) : std::string(" all of the output")));
}

}  // namespace ptmpl
