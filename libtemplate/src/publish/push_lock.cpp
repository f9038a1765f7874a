// One push at a time per service address on this machine: a lock file under the user's state
// directory, held with flock(2) (released by the system when the process ends, however it ends).
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "libtemplate/core/hash.hpp"
#include "libtemplate/publish/publish.hpp"
#include "publish/publish_support.hpp"

namespace ptmpl::publish {
namespace detail {

std::string address_key(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  auto scheme_end = url.find("://");
  std::size_t host_end = scheme_end == std::string::npos ? 0 : url.find('/', scheme_end + 3);
  if (host_end == std::string::npos) host_end = url.size();
  for (std::size_t i = 0; i < host_end; ++i)
    url[i] = static_cast<char>(std::tolower(static_cast<unsigned char>(url[i])));
  return url;
}

}  // namespace detail

std::string push_lock_dir(std::optional<std::string_view> xdg_state_home, std::optional<std::string_view> home) {
  const std::string state = state_dir(xdg_state_home, home);
  return state.empty() ? state : (std::filesystem::path(state) / "locks").string();
}

Result<PushLock> PushLock::take(const std::string& dir, const std::string& base_url,
                                const std::function<void(const std::string&)>& waiting) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Error::output_failed(dir + ": cannot create the directory of push locks: " + ec.message());
  std::string key = detail::address_key(base_url);
  std::string path = (std::filesystem::path(dir) / ("push-" + hash_hex(fnv1a(key)) + ".lock")).string();
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return Error::output_failed(path + ": cannot open the push lock: " + std::strerror(errno));
  PushLock lock(fd);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK)
      return Error::output_failed(path + ": cannot take the push lock: " + std::strerror(errno));
    if (waiting) waiting("waiting for another push to " + key + " on this machine to finish (lock " + path + ")");
    int rc;
    while ((rc = ::flock(fd, LOCK_EX)) != 0 && errno == EINTR) {
    }
    if (rc != 0) return Error::output_failed(path + ": cannot take the push lock: " + std::strerror(errno));
  }
  // For whoever looks at the file: which address it guards.
  if (::ftruncate(fd, 0) == 0) (void)!::write(fd, (key + "\n").data(), key.size() + 1);
  return lock;
}

PushLock::~PushLock() {
  if (fd_ >= 0) ::close(fd_);  // releases the flock
}

}  // namespace ptmpl::publish
