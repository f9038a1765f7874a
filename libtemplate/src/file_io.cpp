#include "libtemplate/file_io.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <iterator>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ptmpl {

FileText::FileText(std::string owned) : owned_(std::make_unique<std::string>(std::move(owned))), view_(*owned_) {}

FileText::FileText(FileText&& other) noexcept {
  *this = std::move(other);
}

FileText& FileText::operator=(FileText&& other) noexcept {
  if (this == &other) return *this;
  if (map_ != nullptr) ::munmap(map_, map_size_);
  owned_ = std::move(other.owned_);
  map_ = other.map_;
  map_size_ = other.map_size_;
  view_ = other.view_;
  other.map_ = nullptr;
  other.map_size_ = 0;
  other.view_ = {};
  return *this;
}

FileText::~FileText() {
  if (map_ != nullptr) ::munmap(map_, map_size_);
}

Result<FileText> FileText::read(const std::string& path) {
  if (path == "-") {
    std::string all(std::istreambuf_iterator<char>(std::cin), {});
    return FileText(std::move(all));
  }
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Error{path + ": cannot open: " + std::strerror(errno)};
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return Error{path + ": cannot read: " + std::strerror(err)};
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return Error{path + ": is a directory"};
  }
  FileText result;
  if (S_ISREG(st.st_mode) && st.st_size > 0) {
    auto size = static_cast<std::size_t>(st.st_size);
    void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map != MAP_FAILED) {
      ::madvise(map, size, MADV_SEQUENTIAL);
      ::close(fd);
      result.map_ = map;
      result.map_size_ = size;
      result.view_ = {static_cast<const char*>(map), size};
      return result;
    }
  }
  // Pipes, empty files and anything mmap refuses: read it.
  std::string data;
  char buffer[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      return Error{path + ": cannot read: " + std::strerror(err)};
    }
    if (n == 0) break;
    data.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return FileText(std::move(data));
}

Result<std::vector<std::string>> expand_paths(const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const std::string& path : paths) {
    std::error_code ec;
    fs::file_status status = fs::status(path, ec);
    if (path == "-") {
      out.push_back(path);
    } else if (ec || !fs::exists(status)) {
      return Error{path + ": no such file or directory"};
    } else if (fs::is_directory(status)) {
      std::vector<std::string> found;
      fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec), end;
      for (; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".json" && it->is_regular_file(ec)) found.push_back(it->path().string());
      if (ec) return Error{path + ": cannot list: " + ec.message()};
      std::sort(found.begin(), found.end());
      out.insert(out.end(), found.begin(), found.end());
    } else {
      out.push_back(path);
    }
  }
  return out;
}

Status write_file_atomic(const std::string& path, std::string_view content) {
  struct stat st {};
  bool exists = ::stat(path.c_str(), &st) == 0;
  std::string temp = path + ".ptmpl-XXXXXX";
  int fd = ::mkstemp(temp.data());
  if (fd < 0) return Error{path + ": cannot create a temporary file beside it: " + std::strerror(errno)};
  auto fail = [&](const char* what) {
    int err = errno;
    ::close(fd);
    ::unlink(temp.c_str());
    return Error{path + ": " + what + ": " + std::strerror(err)};
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
  if (::fsync(fd) != 0) return fail("cannot flush to disk");
  if (::close(fd) != 0) {
    ::unlink(temp.c_str());
    return Error{path + ": cannot close: " + std::strerror(errno)};
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(temp.c_str());
    return Error{path + ": cannot replace: " + std::strerror(err)};
  }
  return Done{};
}

}  // namespace ptmpl
