#include "libtemplate/core/file_io.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <iterator>
#include <limits>
#include <mutex>
#include <optional>
#include <set>
#include <utility>

#include <fcntl.h>
#include <linux/magic.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/xattr.h>
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

namespace detail {

// Where a text input ends, told from its bytes as they arrive (FileText::read_text). Its first
// eight bytes decide how it is read: a compound file or a zip archive (a workbook) whole or its
// first MiB, UTF-16 text whole
// (half its bytes are NULs), anything else up to and including its first NUL byte.
class TextEnd {
 public:
  explicit TextEnd(FileText::Compound compound) : compound_(compound) {}

  // How many of the bytes read so far (`read`) are the text, once that is known; nothing while
  // reading goes on.
  std::optional<std::size_t> end_in(std::string_view read) {
    if (kind_ == Kind::kUndecided) {
      if (read.size() < 8) return std::nullopt;
      kind_ = read.starts_with("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1") || read.starts_with("PK\x03\x04")
                  ? (compound_ == FileText::Compound::kWhole ? Kind::kWhole : Kind::kFirstMiB)
              : utf16(read) ? Kind::kWhole
                            : Kind::kUntilNul;
    }
    switch (kind_) {
      case Kind::kFirstMiB:
        if (read.size() >= kCompoundPrefix) return kCompoundPrefix;
        return std::nullopt;
      case Kind::kUntilNul:
        if (const std::size_t nul = read.find('\0', scanned_); nul != std::string_view::npos) return nul + 1;
        scanned_ = read.size();
        return std::nullopt;
      case Kind::kUndecided:
      case Kind::kWhole:
        break;
    }
    return std::nullopt;
  }

  // The most bytes read at once, so that reading stops near where the text ends.
  static constexpr std::size_t kChunk = std::size_t{1} << 20;

 private:
  enum class Kind : std::uint8_t { kUndecided, kWhole, kFirstMiB, kUntilNul };

  // Enough of a compound file to name the plan: Microsoft Project keeps the stream naming its
  // format in the first 320 KiB of each of the 491 .mpp files the project was tried on.
  static constexpr std::size_t kCompoundPrefix = std::size_t{1} << 20;

  // UTF-16 by a byte order mark, or by two ASCII characters in either byte order.
  static bool utf16(std::string_view bytes) {
    if (bytes.starts_with("\xFF\xFE") || bytes.starts_with("\xFE\xFF")) return true;
    auto ascii = [](char c) { return c != '\0' && static_cast<unsigned char>(c) < 0x80; };
    return (ascii(bytes[0]) && bytes[1] == '\0' && ascii(bytes[2]) && bytes[3] == '\0') ||
           (bytes[0] == '\0' && ascii(bytes[1]) && bytes[2] == '\0' && ascii(bytes[3]));
  }

  FileText::Compound compound_;
  Kind kind_ = Kind::kUndecided;
  std::size_t scanned_ = 0;  // no NUL before here
};

}  // namespace detail

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

Result<FileText> FileText::read_text(const std::string& path, Compound compound, std::uint64_t stream_limit) {
  detail::TextEnd text_end(compound);
  if (path == "-") return read_descriptor(STDIN_FILENO, "standard input", stream_limit, {}, &text_end);
  auto fd = open_to_read(path, FileKinds::kAny);
  if (!fd.ok()) return fd.error();
  return read_descriptor(fd.value(), path, stream_limit, {}, &text_end);
}

Result<RandomAccessFile> RandomAccessFile::open(const std::string& path) {
  auto fd = open_to_read(path, FileKinds::kRegularOnly);
  if (!fd.ok()) return fd.error();
  struct stat st {};
  if (::fstat(fd.value(), &st) != 0) {
    const int err = errno;
    ::close(fd.value());
    return Error::unreadable(path + ": cannot read: " + std::strerror(err));
  }
  RandomAccessFile file;
  file.fd_ = std::shared_ptr<const int>(new int(fd.value()), [](const int* owned) {
    ::close(*owned);
    delete owned;
  });
  file.path_ = path;
  file.size_ = static_cast<std::uint64_t>(st.st_size);
  return file;
}

Status RandomAccessFile::read(std::uint64_t offset, std::size_t length, std::string& out) const {
  const std::size_t start = out.size();
  out.resize(start + length);
  for (std::size_t done = 0; done < length;) {
    const ssize_t n = ::pread(*fd_, out.data() + start + done, length - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = errno;
      out.resize(start);
      if (n == 0)
        return Error::conflict(path_ + ": changed while ptmpl was reading it: it ends at byte " +
                               std::to_string(offset + done) + ", not " + std::to_string(size_) +
                               "; run the command again");
      return Error::unreadable(path_ + ": cannot read: " + std::strerror(err));
    }
    done += static_cast<std::size_t>(n);
  }
  return Done{};
}

Result<FileText> FileText::read_regular(const std::string& path, std::uint64_t max_bytes) {
  auto fd = open_to_read(path, FileKinds::kRegularOnly);
  if (!fd.ok()) return fd.error();
  struct stat st {};
  if (::fstat(fd.value(), &st) == 0 && static_cast<std::uint64_t>(st.st_size) > max_bytes) {
    ::close(fd.value());
    return Error::invalid(path + ": holds " + std::to_string(st.st_size) + " bytes, more than the " +
                          std::to_string(max_bytes) + " it may hold; refused");
  }
  return read_descriptor(fd.value(), path, kMaxStreamBytes, {});
}

Result<FileText> FileText::read_descriptor(int fd, const std::string& name, std::uint64_t stream_limit,
                                           std::string_view private_what, detail::TextEnd* text_end) {
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
      // (inputs of unknown size mostly end far below the limit). A text, which may end early,
      // a chunk's pages at a time.
      if (regular && text_end == nullptr) detail::populate_now(pages.get(), reserved);
      std::optional<std::size_t> end;
      while (filled < reserved && !end) {
        std::size_t want = reserved - filled;
        if (text_end != nullptr) {
          want = std::min(want, detail::TextEnd::kChunk);
          if (regular) detail::populate_now(pages.get() + filled, want);
        }
        ssize_t n = ::read(fd, pages.get() + filled, want);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return failed(errno);
        if (n == 0) break;
        filled += static_cast<std::size_t>(n);
        if (text_end != nullptr) end = text_end->end_in(std::string_view(pages.get(), filled));
      }
      if (end || !regular || filled < reserved) {
        done();
        if (!end && !regular && filled > stream_limit) return too_long_stream(name, stream_limit);
        FileText text;
        text.view_ = std::string_view(pages.get(), end.value_or(filled));
        text.owned_ = std::move(pages);
        text.page_bytes_ = reserved;
        text.regular_ = regular && !end;
        return text;
      }
      // A regular file that grew while it was read: go on below with what was read so far.
      data.assign(pages.get(), filled);
    }
  }
  if (regular && data.empty()) data.resize(static_cast<std::size_t>(st.st_size));
  std::optional<std::size_t> end;
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
    if (text_end != nullptr) end = text_end->end_in(std::string_view(data.data(), filled));
    if (end) break;
  }
  done();
  if (!end && !regular && filled > stream_limit) return too_long_stream(name, stream_limit);
  data.resize(end.value_or(filled));
  FileText text(std::move(data));
  text.regular_ = regular && !end;
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
  auto keep = [&](std::string path, const std::string& tree) {
    std::optional<FileIdentity> id = identify(path);
    if (!id || seen.insert(*id).second) out.push_back(SelectedFile{std::move(path), tree.empty(), tree});
  };
  for (const std::string& path : paths) {
    std::error_code ec;
    fs::file_status status = path == "-" ? fs::file_status(fs::file_type::regular) : fs::status(path, ec);
    if (ec || !fs::exists(status)) {
      return Error::not_found(path + ": no such file or directory");
    } else if (fs::is_directory(status)) {
      std::vector<std::string> found;
      std::vector<SelectedFile> unlisted;
      std::vector<std::string> pending{path};
      while (!pending.empty()) {
        const std::string directory = std::move(pending.back());
        pending.pop_back();
        fs::directory_iterator it(directory, ec), end;
        for (; !ec && it != end; it.increment(ec)) {
          // Hidden files and directories (.ptmpl.json, .git, push's .ptmpl-backups) and installed
          // packages (node_modules) hold no templates of the project.
          const std::string name = it->path().filename().string();
          const bool directory_entry = it->is_directory(ec);
          const bool json_file = !directory_entry && it->path().extension() == ".json" && it->is_regular_file(ec);
          if (!directory_entry && !json_file) continue;
          if (name.starts_with('.') || (directory_entry && name == "node_modules") ||
              (skip && skip(it->path().string(), directory_entry)))
            continue;
          if (json_file) found.push_back(it->path().string());
          // A link to a directory is not followed (a loop, or a tree outside the one named).
          else if (!it->is_symlink(ec))
            pending.push_back(it->path().string());
        }
        if (!ec) continue;
        if (directory == path) return Error::unreadable(path + ": cannot list: " + ec.message());
        unlisted.push_back(SelectedFile{
            directory, false, path,
            Error::unreadable(directory + ": cannot list: " + ec.message() + "; the files below it are not read")});
        ec.clear();
      }
      std::sort(found.begin(), found.end());
      for (std::string& file : found) keep(std::move(file), path);
      std::sort(unlisted.begin(), unlisted.end(),
                [](const SelectedFile& a, const SelectedFile& b) { return a.path < b.path; });
      for (SelectedFile& directory : unlisted) out.push_back(std::move(directory));
    } else {
      keep(path, {});
    }
  }
  return out;
}

Result<std::vector<std::string>> expand_paths(const std::vector<std::string>& paths) {
  auto walked = walk_paths(paths);
  if (!walked.ok()) return walked.error();
  std::vector<std::string> out;
  for (SelectedFile& file : walked.value()) {
    if (file.unlisted) return *file.unlisted;
    out.push_back(std::move(file.path));
  }
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

// Temporary files being written, removed by a signal that ends the process: a fixed table of
// paths, so that the handler only reads (async-signal-safe) what writers publish atomically.
constexpr std::size_t kPendingSlots = 1024;
std::array<std::atomic<const char*>, kPendingSlots> pending_temporaries{};

extern "C" void remove_temporaries_and_end(int signal_number) {
  for (std::atomic<const char*>& slot : pending_temporaries)
    if (const char* path = slot.load()) ::unlink(path);
  // SA_RESETHAND made the action the default again: the signal ends the process as it would have.
  ::raise(signal_number);
}

// Installs the handler for the signals that end a process at a terminal or under a supervisor,
// once, and only where the signal still has its default action: a signal the program ignores
// (a pager's SIGINT) or handles itself stays so.
void remove_temporaries_on_signals() {
  static std::once_flag installed;
  std::call_once(installed, [] {
    for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction current {};
      if (::sigaction(signal_number, nullptr, &current) != 0 || current.sa_handler != SIG_DFL) continue;
      struct sigaction action {};
      action.sa_handler = remove_temporaries_and_end;
      action.sa_flags = SA_RESETHAND;
      ::sigemptyset(&action.sa_mask);
      ::sigaction(signal_number, &action, nullptr);
    }
  });
}

constexpr std::string_view kTemporaryMark = ".ptmpl-tmp-";
constexpr std::size_t kRandomChars = 6;

// The process a temporary file `name` (`.NAME.ptmpl-tmp-PID-XXXXXX`) was made by; 0 when the
// name is no such temporary file's.
pid_t temporary_owner(std::string_view name) {
  const std::size_t mark = name.rfind(kTemporaryMark);
  if (!name.starts_with('.') || mark == std::string_view::npos) return 0;
  std::string_view rest = name.substr(mark + kTemporaryMark.size());
  const std::size_t dash = rest.find('-');
  if (dash == 0 || dash == std::string_view::npos || rest.size() - dash - 1 != kRandomChars) return 0;
  pid_t pid = 0;
  for (char c : rest.substr(0, dash)) {
    if (c < '0' || c > '9' || pid > 100'000'000) return 0;
    pid = pid * 10 + (c - '0');
  }
  return pid;
}

// Removes from `dir` the temporary files of ptmpl runs whose process is gone (a crash, SIGKILL,
// a power cut): once per directory and process, before the first temporary file made there.
// A process id reused since is taken as alive: its file stays until a later run.
void remove_temporaries_of_gone_runs(const std::string& dir) {
  static std::mutex mutex;
  static std::set<std::string> cleaned;
  {
    std::lock_guard lock(mutex);
    if (!cleaned.insert(dir).second) return;
  }
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const pid_t owner = temporary_owner(name);
    if (owner <= 0 || owner == ::getpid() || ::kill(owner, 0) == 0 || errno != ESRCH) continue;
    if (it->is_regular_file(ec) && !it->is_symlink(ec)) ::unlink(it->path().c_str());
  }
}

}  // namespace

// Not in the anonymous namespace: PendingFile, a public class, holds one.
namespace detail {

// A temporary file beside the file it will replace, named `.NAME.ptmpl-tmp-PID-XXXXXX`, with
// NAME cut so that the whole fits NAME_MAX; removed when it is let go without taking its file's
// place, and by a signal that ends the process (pending_temporaries).
class TemporaryFile {
 public:
  // Creates it, open for writing, beside `path`, with `mode` (the umask applies).
  static Result<TemporaryFile> create(const std::string& path, mode_t mode) {
    remove_temporaries_on_signals();
    const std::filesystem::path target(path);
    const std::string dir = target.parent_path().string();
    remove_temporaries_of_gone_runs(dir.empty() ? "." : dir);
    const std::string tail = std::string(kTemporaryMark) + std::to_string(::getpid()) + "-";
    std::string name = target.filename().string();
    const std::size_t room = NAME_MAX - 1 - tail.size() - kRandomChars;
    if (name.size() > room) {
      name.resize(room);
      while (!name.empty() && (static_cast<unsigned char>(name.back()) & 0xC0) == 0x80) name.pop_back();
      if (!name.empty() && static_cast<unsigned char>(name.back()) >= 0xC0) name.pop_back();
    }
    const std::string stem = (dir.empty() ? std::string() : dir + "/") + "." + name + tail;
    static std::atomic<std::uint64_t> counter{0};
    for (int attempt = 0; attempt < 100; ++attempt) {
      std::uint64_t bits = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                           (++counter * 0x9E3779B97F4A7C15ULL);
      std::string temp = stem;
      for (std::size_t i = 0; i < kRandomChars; ++i, bits /= 62)
        temp += "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"[bits % 62];
      // Published for the signal handler before it exists: a signal between its creation and
      // its publication would leave it behind.
      TemporaryFile file(std::move(temp));
      file.fd_ = ::open(file.path_->c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
      if (file.fd_ >= 0) return file;
      const int err = errno;
      (void)file.keep();  // not made: nothing to remove
      if (err != EEXIST)
        return Error::output_failed(path + ": cannot create a temporary file beside it: " + describe_errno(err));
    }
    return Error::output_failed(path + ": cannot create a temporary file beside it: " + describe_errno(EEXIST));
  }

  TemporaryFile(TemporaryFile&& other) noexcept
      : path_(std::move(other.path_)), slot_(std::exchange(other.slot_, nullptr)), fd_(std::exchange(other.fd_, -1)) {}
  TemporaryFile& operator=(TemporaryFile&&) = delete;
  ~TemporaryFile() {
    close();
    if (path_) ::unlink(path_->c_str());
    forget();
  }

  [[nodiscard]] int fd() const { return fd_; }
  [[nodiscard]] const std::string& path() const { return *path_; }

  // Closes the descriptor; the system's error code on failure, 0 otherwise.
  int close() {
    if (fd_ < 0) return 0;
    const int result = ::close(std::exchange(fd_, -1));
    return result == 0 ? 0 : errno;
  }

  // Lets go of the file without removing it; its name.
  std::string keep() {
    forget();
    std::string name = *path_;
    path_.reset();
    return name;
  }

  // Renames it over `path`; it is then no longer removed.
  Status replace(const std::string& path) {
    if (::rename(path_->c_str(), path.c_str()) != 0)
      return Error::output_failed(path + ": cannot replace: " + describe_errno(errno));
    forget();
    path_.reset();
    return Done{};
  }

 private:
  explicit TemporaryFile(std::string path) : path_(std::make_unique<const std::string>(std::move(path))) {
    // The string is heap-held, so the signal handler's pointer stays valid as this is moved.
    for (std::atomic<const char*>& slot : pending_temporaries) {
      const char* none = nullptr;
      if (slot.compare_exchange_strong(none, path_->c_str())) {
        slot_ = &slot;
        break;
      }
    }
  }
  void forget() {
    if (slot_ != nullptr) std::exchange(slot_, nullptr)->store(nullptr);
  }

  std::unique_ptr<const std::string> path_;
  std::atomic<const char*>* slot_ = nullptr;  // where the signal handler finds it; null when the table is full
  int fd_ = -1;
};

}  // namespace detail

using detail::TemporaryFile;

namespace {

// Copies the extended attributes of the file `from` (user.*, and ACLs, which are
// system.posix_acl_* attributes) onto the open file `fd`. An attribute the file system or the
// user's rights do not allow to set (security.*, trusted.* as a user) is left out.
Status copy_extended_attributes(const std::string& from, int fd) {
  auto failed = [&](const std::string& what) {
    return Error::output_failed(from + ": cannot " + what + ": " + describe_errno(errno));
  };
  ssize_t size = ::listxattr(from.c_str(), nullptr, 0);
  if (size < 0 && errno == ENOTSUP) return Done{};
  std::string names(size > 0 ? static_cast<std::size_t>(size) : 0, '\0');
  if (size > 0) size = ::listxattr(from.c_str(), names.data(), names.size());
  if (size < 0) return failed("list its extended attributes");
  names.resize(static_cast<std::size_t>(size));
  for (std::size_t at = 0; at < names.size(); at = names.find('\0', at) + 1) {
    const char* name = names.c_str() + at;
    ssize_t length = ::getxattr(from.c_str(), name, nullptr, 0);
    std::string value(length > 0 ? static_cast<std::size_t>(length) : 0, '\0');
    if (length > 0) length = ::getxattr(from.c_str(), name, value.data(), value.size());
    if (length < 0) return failed(std::string("read its extended attribute ") + name);
    value.resize(static_cast<std::size_t>(length));
    if (::fsetxattr(fd, name, value.data(), value.size(), 0) != 0 && errno != ENOTSUP && errno != EPERM)
      return failed(std::string("copy its extended attribute ") + name);
  }
  return Done{};
}

// A file's new content in a temporary file beside it, before it takes the file's place.
struct Staged {
  std::string path;  // the file replaced (a link's target)
  TemporaryFile temp;
};

// The file a name stands for, a symbolic link followed (the link stays a link).
Result<std::string> link_target(const std::string& given) {
  std::error_code ec;
  if (!std::filesystem::is_symlink(given, ec)) return given;
  std::filesystem::path target = std::filesystem::canonical(given, ec);
  if (ec) return Error::output_failed(given + ": cannot follow the link: " + ec.message());
  return target.string();
}

// Writes `content` into a temporary file beside `given` (beside the file a link names), with the
// mode, extended attributes and (as root) owner of the file it will replace, or the mode the
// umask allows for a new file; flushed to disk when `flush`.
Result<Staged> stage(const std::string& given, std::string_view content, bool flush) {
  Result<std::string> target = link_target(given);
  if (!target.ok()) return target.error();
  std::string path = std::move(target).value();
  struct stat st {};
  bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && (::access(path.c_str(), W_OK) != 0 || (st.st_mode & 0222) == 0))
    return Error::output_failed(given + ": is read-only; not rewritten");
  // Private while written when it replaces a file (which may be private); 0666 less the umask
  // for a new file, as any program's new file.
  Result<TemporaryFile> temp = TemporaryFile::create(path, exists ? 0600 : 0666);
  if (!temp.ok()) return temp.error();
  const int fd = temp.value().fd();
  auto fail = [&](const char* what, int err) {
    return Error::output_failed(path + ": " + what + ": " + describe_errno(err));
  };
  int err = 0;
  if (!write_all(fd, content, err)) return fail("cannot write", err);
  if (exists) {
    if (::fchmod(fd, st.st_mode & 07777) != 0) return fail("cannot set permissions", errno);
    // Keep the owner too when we may (as root); otherwise the new file is ours, as with any editor.
    if (st.st_uid != ::geteuid() || st.st_gid != ::getegid()) (void)::fchown(fd, st.st_uid, st.st_gid);
    // After the mode: an ACL, copied last, is the original's together with its mode bits.
    if (Status copied = copy_extended_attributes(path, fd); !copied.ok()) return copied.error();
  }
  if (flush && ::fsync(fd) != 0) return fail("cannot flush to disk", errno);
  if (int close_err = temp.value().close(); close_err != 0) return fail("cannot close", close_err);
  return Staged{std::move(path), std::move(temp).value()};
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

// Whether the file `path` (found below the directory `tree`) lies outside it once links are
// followed: a link in a tree (a cloned repository) may name any file of the user's.
bool leaves_tree(const std::string& path, const std::string& tree) {
  std::error_code ec;
  const std::filesystem::path file = std::filesystem::canonical(path, ec);
  if (ec) return true;
  const std::filesystem::path root = std::filesystem::canonical(tree, ec);
  if (ec) return true;
  const std::filesystem::path inside = file.lexically_relative(root);
  return inside.empty() || *inside.begin() == "..";
}

Status replace_file(const std::string& given, std::string_view content, const std::function<Status()>& check) {
  Result<Staged> staged = stage(given, content, true);
  if (!staged.ok()) return staged.error();
  if (check) {
    if (Status ok = check(); !ok.ok()) return ok;
  }
  if (Status placed = staged.value().temp.replace(staged.value().path); !placed.ok()) return placed;
  return flush_directory(folder_of(staged.value().path));
}

}  // namespace

namespace {

bool on_kernel_file_system(const std::string& path) {
  struct statfs fs {};
  return ::statfs(path.c_str(), &fs) == 0 && (fs.f_type == PROC_SUPER_MAGIC || fs.f_type == SYSFS_MAGIC);
}

// Whether a symbolic link on the way from `path` to its file lives in /proc: /dev/stdout and
// /proc/self/fd/1 stand for another program's descriptor (a shell's `>`), and replacing the
// regular file behind it would leave that descriptor on a deleted file.
bool reached_through_proc(std::string path) {
  namespace fs = std::filesystem;
  for (int hops = 0; hops < 40; ++hops) {  // the system's own bound on links in a row
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return false;
    const fs::path link(path);
    const std::string folder = link.parent_path().empty() ? "." : link.parent_path().string();
    if (on_kernel_file_system(folder)) return true;
    std::error_code ec;
    const fs::path target = fs::read_symlink(link, ec);
    if (ec) return false;
    path = (target.is_absolute() ? target : link.parent_path() / target).string();
  }
  return false;
}

}  // namespace

bool written_in_place(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return false;
  return !S_ISREG(st.st_mode) || reached_through_proc(path) || on_kernel_file_system(path);
}

Status write_file_atomic(const std::string& given, std::string_view content) {
  return replace_file(given, content, {});
}

struct PendingFile::Parts {
  std::string path;
  TemporaryFile temp;
  std::string kept_in;
};

PendingFile::PendingFile(std::unique_ptr<Parts> parts) : parts_(std::move(parts)) {}
PendingFile::PendingFile(PendingFile&&) noexcept = default;
PendingFile::~PendingFile() = default;

const std::string& PendingFile::kept_in() const {
  return parts_->kept_in;
}

Result<PendingFile> PendingFile::create(const std::string& path, unsigned mode) {
  Result<TemporaryFile> temp = TemporaryFile::create(path, static_cast<mode_t>(mode));
  if (!temp.ok()) return temp.error();
  return PendingFile(std::make_unique<Parts>(Parts{path, std::move(temp).value(), {}}));
}

Status PendingFile::commit(std::string_view bytes) {
  TemporaryFile& temp = parts_->temp;
  auto fail = [&](const char* what, int err) {
    return Error::output_failed(parts_->path + ": " + what + ": " + describe_errno(err));
  };
  int err = 0;
  if (!write_all(temp.fd(), bytes, err)) return fail("cannot write", err);
  if (::fsync(temp.fd()) != 0) return fail("cannot flush to disk", errno);
  if (int close_err = temp.close(); close_err != 0) return fail("cannot close", close_err);
  if (::rename(temp.path().c_str(), parts_->path.c_str()) != 0) {
    const int rename_err = errno;
    parts_->kept_in = temp.keep();
    return Error::output_failed(parts_->path + ": cannot put it in place: " + describe_errno(rename_err) +
                                "; it is kept in " + parts_->kept_in + ": move it where you want it");
  }
  (void)temp.keep();  // in place now, under its new name
  return flush_directory(folder_of(parts_->path));
}

std::vector<Status> write_files_atomic(std::span<const std::pair<std::string, std::string_view>> files) {
  std::vector<Status> out(files.size(), Done{});
  std::vector<std::optional<Staged>> staged(files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    Result<Staged> one = stage(files[i].first, files[i].second, false);
    if (one.ok())
      staged[i].emplace(std::move(one).value());
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
      staged[i].reset();
      out[i] = Error::output_failed(files[i].first + ": cannot flush to disk: " + describe_errno(err));
    }
  }
  for (std::size_t i = 0; i < files.size(); ++i)
    if (staged[i]) out[i] = staged[i]->temp.replace(staged[i]->path);
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
  // file reached through /proc is truncated, as a shell's `>` would.
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

Status rewrite_file(const std::string& path, std::string_view read, std::string_view bytes, const std::string& tree) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return Error::conflict(path + ": no longer exists; not rewritten");
  if (!S_ISREG(st.st_mode)) return Error::usage(path + ": not a regular file; not rewritten in place");
  // A replacement is a new file: the other names would keep the old bytes. Writing in place
  // instead would risk a half-written file under every name.
  if (st.st_nlink > 1)
    return Error::usage(path + ": has " + std::to_string(st.st_nlink) +
                        " names (hard links); not rewritten, since a new file would part it from the others "
                        "(write the output elsewhere and copy it over the file: cp keeps the names together)");
  if (!tree.empty() && leaves_tree(path, tree))
    return Error::usage(path + ": a symbolic link that leads out of " + tree +
                        "; not rewritten (name the file itself to rewrite it)");
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
