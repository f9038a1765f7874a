#include "sandbox/bounded_server.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <climits>

namespace ptmpl::sandbox {
namespace {

using Clock = std::chrono::steady_clock;

// How often a wait looks whether the server is stopping: a stop never waits for a deadline.
constexpr std::chrono::milliseconds kStopCheck{100};

/// The numeric address and port of a socket's peer (`peer`) or its own end.
void address_of(socket_t sock, bool peer, std::string& ip, int& port) {
  sockaddr_storage addr{};
  socklen_t length = sizeof addr;
  auto* raw = reinterpret_cast<sockaddr*>(&addr);
  ip.clear();
  port = 0;
  if ((peer ? ::getpeername(sock, raw, &length) : ::getsockname(sock, raw, &length)) != 0) return;
  std::array<char, NI_MAXHOST> host{};
  std::array<char, NI_MAXSERV> service{};
  if (::getnameinfo(raw, length, host.data(), host.size(), service.data(), service.size(),
                    NI_NUMERICHOST | NI_NUMERICSERV) != 0)
    return;
  ip = host.data();
  port = std::atoi(service.data());
}

/// One client connection as cpp-httplib reads and writes it: a non-blocking socket (TLS or
/// not) whose every wait ends at the current deadline, the idle bound, or a stop.
class Connection final : public httplib::Stream {
 public:
  Connection(socket_t sock, SSL* ssl, const ConnectionLimits& limits, const std::atomic<socket_t>& listening)
      : sock_(sock), ssl_(ssl), limits_(limits), listening_(listening) {}

  /// Starts a request: its head must arrive by the head deadline.
  void begin_head() { deadline_ = Clock::now() + limits_.head_timeout; }
  /// The head has arrived: the body and the response have the exchange deadline.
  void begin_exchange() { deadline_ = Clock::now() + limits_.exchange_timeout; }

  /// The TLS handshake, within the head deadline.
  bool handshake() {
    return transfer([this] { return ssl_result(SSL_accept(ssl_)); }) > 0;
  }

  /// Waits up to `idle` for the next request on a kept-alive connection.
  bool next_request_arrives(std::chrono::milliseconds idle) {
    if (filled_ > used_ || (ssl_ != nullptr && SSL_pending(ssl_) > 0)) return true;
    deadline_ = Clock::now() + idle;
    return wait(POLLIN);
  }

  bool is_readable() const override {
    return filled_ > used_ || (ssl_ != nullptr && SSL_pending(ssl_) > 0) || wait(POLLIN);
  }
  bool is_writable() const override { return wait(POLLOUT); }

  ssize_t read(char* ptr, size_t size) override {
    // cpp-httplib reads the head a byte at a time: serve it from a buffer.
    if (filled_ == used_) {
      used_ = filled_ = 0;
      int n = transfer([this] { return raw_read(buffer_.data(), buffer_.size()); });
      if (n <= 0) return n;
      filled_ = static_cast<std::size_t>(n);
    }
    std::size_t n = std::min(size, filled_ - used_);
    std::copy_n(buffer_.data() + used_, n, ptr);
    used_ += n;
    return static_cast<ssize_t>(n);
  }

  ssize_t write(const char* ptr, size_t size) override {
    std::size_t done = 0;
    while (done < size) {
      int n = transfer([&] { return raw_write(ptr + done, size - done); });
      if (n <= 0) return -1;
      done += static_cast<std::size_t>(n);
    }
    return static_cast<ssize_t>(size);
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override { address_of(sock_, true, ip, port); }
  void get_local_ip_and_port(std::string& ip, int& port) const override { address_of(sock_, false, ip, port); }
  socket_t socket() const override { return sock_; }

 private:
  static constexpr int kWouldBlock = -2;

  /// Runs `step` (a read, a write, a handshake: > 0 done, 0 closed, -1 failed, kWouldBlock:
  /// to be tried again once the socket is ready for want_) until it is done or the wait ends.
  template <class Step>
  int transfer(Step step) {
    for (;;) {
      want_ = 0;
      ERR_clear_error();
      int n = step();
      if (n != kWouldBlock) return n;
      if (!wait(want_)) return -1;
    }
  }

  // What an OpenSSL call's result means for transfer().
  int ssl_result(int result) {
    if (result > 0) return result;
    switch (SSL_get_error(ssl_, result)) {
      case SSL_ERROR_WANT_READ:
        want_ = POLLIN;
        return kWouldBlock;
      case SSL_ERROR_WANT_WRITE:
        want_ = POLLOUT;
        return kWouldBlock;
      case SSL_ERROR_ZERO_RETURN:
        return 0;
      default:
        return -1;
    }
  }

  int socket_result(ssize_t result, short want) {
    if (result >= 0) return static_cast<int>(result);
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
      want_ = want;
      return kWouldBlock;
    }
    return -1;
  }

  int raw_read(char* ptr, std::size_t size) {
    int limit = static_cast<int>(std::min<std::size_t>(size, INT_MAX));
    if (ssl_ != nullptr) return ssl_result(SSL_read(ssl_, ptr, limit));
    return socket_result(::recv(sock_, ptr, static_cast<std::size_t>(limit), 0), POLLIN);
  }

  int raw_write(const char* ptr, std::size_t size) {
    int limit = static_cast<int>(std::min<std::size_t>(size, INT_MAX));
    if (ssl_ != nullptr) return ssl_result(SSL_write(ssl_, ptr, limit));
    return socket_result(::send(sock_, ptr, static_cast<std::size_t>(limit), MSG_NOSIGNAL), POLLOUT);
  }

  /// Waits until the socket is ready for `events`; false at the deadline, after the idle
  /// bound, when the server stops, or on an error.
  bool wait(short events) const {
    const auto until = std::min(deadline_, Clock::now() + limits_.idle_timeout);
    for (;;) {
      if (listening_.load() == INVALID_SOCKET) return false;
      auto now = Clock::now();
      if (now >= until) return false;
      auto slice = std::min<Clock::duration>(until - now, kStopCheck);
      pollfd p{sock_, events, 0};
      int ready = ::poll(&p, 1, static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(slice).count()));
      if (ready > 0) return true;
      if (ready < 0 && errno != EINTR) return false;
    }
  }

  socket_t sock_;
  SSL* ssl_;
  const ConnectionLimits& limits_;
  const std::atomic<socket_t>& listening_;
  Clock::time_point deadline_ = Clock::now();
  short want_ = 0;
  std::array<char, 16 * 1024> buffer_{};
  std::size_t used_ = 0, filled_ = 0;
};

}  // namespace

Result<TlsContext> make_tls_context(const std::string& cert_file, const std::string& key_file) {
  TlsContext ctx(SSL_CTX_new(TLS_server_method()), SSL_CTX_free);
  if (!ctx ||  //
      SSL_CTX_set_min_proto_version(ctx.get(), TLS1_2_VERSION) != 1 ||
      SSL_CTX_use_certificate_chain_file(ctx.get(), cert_file.c_str()) != 1 ||
      SSL_CTX_use_PrivateKey_file(ctx.get(), key_file.c_str(), SSL_FILETYPE_PEM) != 1 ||
      SSL_CTX_check_private_key(ctx.get()) != 1) {
    ERR_clear_error();
    return Error::invalid(cert_file + ", " + key_file + ": cannot load the certificate and key");
  }
  SSL_CTX_set_options(ctx.get(), SSL_OP_NO_COMPRESSION | SSL_OP_NO_SESSION_RESUMPTION_ON_RENEGOTIATION);
  // write() resumes a partly written buffer from where it stopped.
  SSL_CTX_set_mode(ctx.get(), SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  return ctx;
}

BoundedServer::BoundedServer(ConnectionLimits limits, TlsContext tls) : limits_(limits), tls_(std::move(tls)) {
  new_task_queue = [workers = limits_.workers] { return new httplib::ThreadPool(workers); };
}

BoundedServer::~BoundedServer() = default;

bool BoundedServer::listen_with_backlog() {
  socket_t sock = svr_sock_.load();
  if (sock == INVALID_SOCKET) {
    errno = EBADF;
    return false;
  }
  // listen(2) on a listening socket sets its backlog anew; no connection is lost.
  return ::listen(sock, limits_.backlog) == 0;
}

bool BoundedServer::admit(const std::string& address) {
  std::lock_guard lock(open_mutex_);
  std::size_t& open = open_[address];
  if (open >= limits_.per_client) {
    if (open == 0) open_.erase(address);
    return false;
  }
  ++open;
  return true;
}

void BoundedServer::release(const std::string& address) {
  std::lock_guard lock(open_mutex_);
  auto it = open_.find(address);
  if (it != open_.end() && --it->second == 0) open_.erase(it);
}

bool BoundedServer::process_and_close_socket(socket_t sock) {
  std::string address;
  int port = 0;
  address_of(sock, true, address, port);
  if (!admit(address)) {
    ::close(sock);
    return false;
  }
  int flags = ::fcntl(sock, F_GETFL);
  ::fcntl(sock, F_SETFL, flags | O_NONBLOCK);
  int yes = 1;
  ::setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);

  SSL* ssl = nullptr;
  if (tls_) {
    ssl = SSL_new(tls_.get());
    if (ssl != nullptr) SSL_set_fd(ssl, sock);
  }
  Connection connection(sock, ssl, limits_, svr_sock_);
  connection.begin_head();
  bool served = !tls_ || (ssl != nullptr && connection.handshake());
  for (std::size_t left = keep_alive_max_count_; served && left > 0; --left) {
    if (left != keep_alive_max_count_) {
      if (!connection.next_request_arrives(std::chrono::seconds(keep_alive_timeout_sec_))) break;
      connection.begin_head();
    }
    bool closed = false;
    served = process_request(connection, left == 1, closed,
                             [&connection](httplib::Request&) { connection.begin_exchange(); });
    if (closed) break;
  }
  if (ssl != nullptr) {
    if (served) SSL_shutdown(ssl);  // one try: the close_notify alert, never waited for
    SSL_free(ssl);
  }
  ::shutdown(sock, SHUT_RDWR);
  ::close(sock);
  release(address);
  return served;
}

}  // namespace ptmpl::sandbox
