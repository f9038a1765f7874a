#include "libtemplate/file_io.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ptmpl {

FileText::FileText(std::string owned) : owned_(std::make_unique<std::string>(std::move(owned))), view_(*owned_) {}

FileText::FileText(FileText&& other) noexcept {
  *this = std::move(other);
}

FileText& FileText::operator=(FileText&& other) noexcept {
  if (this == &other) return *this;
  owned_ = std::move(other.owned_);
  view_ = std::exchange(other.view_, {});
  return *this;
}

FileText::~FileText() = default;

Result<FileText> FileText::read(const std::string& path) {
  if (path == "-") {
    std::string all(std::istreambuf_iterator<char>(std::cin), {});
    return FileText(std::move(all));
  }
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Error::unreadable(path + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return Error::unreadable(path + ": cannot read: " + std::strerror(err));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return Error::unreadable(path + ": is a directory");
  }
  // The file is read, not memory-mapped: a mapped file that another program truncates while
  // we read it would kill the process (SIGBUS). Read straight into place when the size is known.
  std::string data;
  if (S_ISREG(st.st_mode)) data.resize(static_cast<std::size_t>(st.st_size));
  std::size_t filled = 0;
  for (;;) {
    if (filled == data.size()) data.resize(std::max<std::size_t>(data.size() * 2, 1 << 16));
    ssize_t n = ::read(fd, data.data() + filled, data.size() - filled);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      return Error::unreadable(path + ": cannot read: " + std::strerror(err));
    }
    if (n == 0) break;
    filled += static_cast<std::size_t>(n);
  }
  data.resize(filled);
  ::close(fd);
  return FileText(std::move(data));
}

Result<std::vector<std::string>> expand_paths(const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const std::string& path : paths) {
    std::error_code ec;
    fs::file_status status = path == "-" ? fs::file_status(fs::file_type::regular) : fs::status(path, ec);
    if (ec || !fs::exists(status)) {
      return Error::not_found(path + ": no such file or directory");
    } else if (fs::is_directory(status)) {
      std::vector<std::string> found;
      fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec), end;
      for (; !ec && it != end; it.increment(ec)) {
        // Hidden files and directories (.ptmpl.json, .git, push's .ptmpl-backups) hold no
        // templates of the project.
        if (it->path().filename().string().starts_with('.')) {
          if (it->is_directory(ec)) it.disable_recursion_pending();
          continue;
        }
        if (it->path().extension() == ".json" && it->is_regular_file(ec)) found.push_back(it->path().string());
      }
      if (ec) return Error::unreadable(path + ": cannot list: " + ec.message());
      std::sort(found.begin(), found.end());
      out.insert(out.end(), found.begin(), found.end());
    } else {
      out.push_back(path);
    }
  }
  return out;
}

Status write_file_atomic(const std::string& given, std::string_view content) {
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
  if (fd < 0) return Error::output_failed(path + ": cannot create a temporary file beside it: " + std::strerror(errno));
  auto fail = [&](const char* what) {
    int err = errno;
    ::close(fd);
    ::unlink(temp.c_str());
    return Error::output_failed(path + ": " + what + ": " + std::strerror(err));
  };
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("cannot write");
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  mode_t mode = exists ? (st.st_mode & 07777) : 0644;
  if (::fchmod(fd, mode) != 0) return fail("cannot set permissions");
  // Keep the owner too when we may (as root); otherwise the new file is ours, as with any editor.
  if (exists && (st.st_uid != ::geteuid() || st.st_gid != ::getegid())) (void)::fchown(fd, st.st_uid, st.st_gid);
  if (::fsync(fd) != 0) return fail("cannot flush to disk");
  if (::close(fd) != 0) {
    ::unlink(temp.c_str());
    return Error::output_failed(path + ": cannot close: " + std::strerror(errno));
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(temp.c_str());
    return Error::output_failed(path + ": cannot replace: " + std::strerror(err));
  }
  // The rename is only durable once the directory entry is on disk too.
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0) return Error::output_failed(dir + ": cannot open the directory to flush it: " + std::strerror(errno));
  int sync_result = ::fsync(dir_fd);
  int sync_errno = errno;
  ::close(dir_fd);
  if (sync_result != 0)
    return Error::output_failed(dir + ": cannot flush the directory to disk: " + std::strerror(sync_errno));
  return Done{};
}

}  // namespace ptmpl
