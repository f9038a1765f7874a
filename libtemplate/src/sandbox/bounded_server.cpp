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
#include <string_view>
#include <thread>
#include <vector>

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

/// The answer to a request head longer than `limit` bytes, in the service's error envelope.
std::string head_too_large(std::size_t limit) {
  const std::string body = R"({"errors":[{"type":"validation","message":"the request line and headers take more )"
                           R"(than )" +
                           std::to_string(limit) + R"( bytes"}]})";
  return "HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: application/json\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
}

}  // namespace

/// What a connection's buffered bytes hold so far.
enum class BoundedServer::Head {
  kWaiting,   // not a whole head yet; nothing more to read for now
  kComplete,  // a whole request line and headers, within the bound
  kTooLarge,  // more than the bound without the blank line that ends a head
  kClosed,    // the client closed, or the connection failed
};

/// One client connection as cpp-httplib reads and writes it: a non-blocking socket (TLS or
/// not). While its head arrives it never waits (take_head(), in the waiting room); then every
/// wait ends at the current deadline, the idle bound, or a stop. Closed, and its address's
/// count released, when destroyed.
class BoundedServer::Connection final : public httplib::Stream {
 public:
  Connection(BoundedServer& server, socket_t sock, std::string address, SSL* ssl)
      : server_(server),
        limits_(server.limits_),
        sock_(sock),
        ssl_(ssl),
        address_(std::move(address)),
        requests_left_(server.keep_alive_max_count_),
        deadline_(Clock::now() + limits_.head_timeout) {}
  ~Connection() override {
    if (ssl_ != nullptr) {
      if (clean_) SSL_shutdown(ssl_);  // one try: the close_notify alert, never waited for
      SSL_free(ssl_);
    }
    ::shutdown(sock_, SHUT_RDWR);
    ::close(sock_);
    server_.release(address_);
  }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  /// Takes what the socket holds now, without waiting: the rest of the TLS handshake, then the
  /// bytes of the head, until it is whole or too large, the socket has nothing more, or it ends.
  Head take_head() {
    want_ = 0;
    if (ssl_ != nullptr && SSL_is_init_finished(ssl_) == 0) {
      ERR_clear_error();
      int n = ssl_result(SSL_accept(ssl_));
      if (n == kWouldBlock) return Head::kWaiting;
      if (n <= 0) return Head::kClosed;
    }
    for (;;) {
      if (Head head = head_in_buffer(); head != Head::kWaiting) return head;
      make_room();
      ERR_clear_error();
      int n = raw_read(buffer_.data() + filled_, buffer_.size() - filled_);
      if (n == kWouldBlock) return Head::kWaiting;
      if (n <= 0) return Head::kClosed;
      if (!head_started_) {
        head_started_ = true;
        deadline_ = Clock::now() + limits_.head_timeout;
      }
      filled_ += static_cast<std::size_t>(n);
    }
  }

  /// The events a waiting connection is polled for.
  [[nodiscard]] short awaited() const { return want_ != 0 ? want_ : POLLIN; }
  /// When a waiting connection is closed unless its head is whole.
  [[nodiscard]] Clock::time_point deadline() const { return deadline_; }

  /// After a request on a kept-alive connection: the next head must start within `idle` (unless
  /// it has begun to arrive), then be whole within the head timeout.
  void await_next_head(std::chrono::milliseconds idle) {
    scanned_ = 0;
    head_started_ = filled_ > used_;
    deadline_ = Clock::now() + (head_started_ ? limits_.head_timeout : idle);
  }
  /// The head has arrived: the body and the response have the exchange deadline.
  void begin_exchange() { deadline_ = Clock::now() + limits_.exchange_timeout; }
  /// Whether the last request was served, so that TLS may close with its alert.
  void set_clean(bool clean) { clean_ = clean; }
  /// Requests this connection may still serve before it is closed.
  std::size_t& requests_left() { return requests_left_; }

  /// Answers a head over the bound with 431.
  void refuse_head() {
    begin_exchange();
    const std::string answer = head_too_large(limits_.max_head_bytes);
    clean_ = write(answer.data(), answer.size()) == static_cast<ssize_t>(answer.size());
  }

  bool is_readable() const override {
    return filled_ > used_ || (ssl_ != nullptr && SSL_pending(ssl_) > 0) || wait(POLLIN);
  }
  bool is_writable() const override { return wait(POLLOUT); }

  ssize_t read(char* ptr, size_t size) override {
    // cpp-httplib reads the head a byte at a time: serve it from the buffer.
    if (filled_ == used_) {
      used_ = filled_ = 0;
      if (buffer_.size() < kReadSize) buffer_.resize(kReadSize);
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
  // What one read takes at most; the buffer holds a head of the bound and one read more.
  static constexpr std::size_t kReadSize = 16 * 1024;

  /// Whether the unread bytes hold a whole head within the bound: up to the first line that is
  /// `\r\n` alone, where cpp-httplib ends a head (a line ending in `\n` alone it skips), so it
  /// never reads a head beyond the bytes taken here.
  Head head_in_buffer() {
    const std::string_view unread(buffer_.data() + used_, filled_ - used_);
    // The bytes scanned before are not scanned again (a head sent a byte at a time).
    const std::size_t end = unread.find("\n\r\n", scanned_ > 2 ? scanned_ - 2 : 0);
    scanned_ = unread.size();
    if (end != std::string_view::npos) return end + 3 <= limits_.max_head_bytes ? Head::kComplete : Head::kTooLarge;
    return unread.size() > limits_.max_head_bytes ? Head::kTooLarge : Head::kWaiting;
  }

  /// Moves the unread bytes to the front and leaves room for one read after them.
  void make_room() {
    std::copy(buffer_.begin() + static_cast<std::ptrdiff_t>(used_),
              buffer_.begin() + static_cast<std::ptrdiff_t>(filled_), buffer_.begin());
    filled_ -= used_;
    used_ = 0;
    if (buffer_.size() < filled_ + kReadSize) buffer_.resize(filled_ + kReadSize);
  }

  /// Runs `step` (a read, a write: > 0 done, 0 closed, -1 failed, kWouldBlock: to be tried
  /// again once the socket is ready for want_) until it is done or the wait ends.
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

  // What an OpenSSL call's result means for transfer() and take_head().
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
      if (server_.svr_sock_.load() == INVALID_SOCKET) return false;
      auto now = Clock::now();
      if (now >= until) return false;
      auto slice = std::min<Clock::duration>(until - now, kStopCheck);
      pollfd p{sock_, events, 0};
      int ready = ::poll(&p, 1, static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(slice).count()));
      if (ready > 0) return true;
      if (ready < 0 && errno != EINTR) return false;
    }
  }

  BoundedServer& server_;
  const ConnectionLimits& limits_;
  socket_t sock_;
  SSL* ssl_;
  std::string address_;
  std::size_t requests_left_;
  Clock::time_point deadline_;
  bool head_started_ = true;  // a new connection's deadline runs from its acceptance
  bool clean_ = false;
  short want_ = 0;
  std::vector<char> buffer_;  // allocated at the first read: a silent connection costs none
  std::size_t used_ = 0, filled_ = 0, scanned_ = 0;
};

/// While the server listens, the accepted connections wait here, in one thread's poll(2),
/// until their TLS handshake is done and their request head has arrived whole (or too large,
/// or late); only then does a worker take one. A connection that is slow to start holds no
/// worker, so any number of them cannot keep a prompt client waiting. cpp-httplib makes this
/// its task queue: it hands it every accepted socket (the task runs at once, on the accepting
/// thread) and shuts it down when it stops listening.
class BoundedServer::Connections final : public httplib::TaskQueue {
 public:
  explicit Connections(BoundedServer& server) : server_(server), workers_(server.limits_.workers) {
    if (::pipe2(wake_.data(), O_NONBLOCK | O_CLOEXEC) != 0) wake_ = {-1, -1};
    room_ = std::thread([this] { wait_in_room(); });
  }
  ~Connections() override {
    if (room_.joinable()) shutdown();
    for (int fd : wake_)
      if (fd >= 0) ::close(fd);
    server_.connections_ = nullptr;
  }
  Connections(const Connections&) = delete;
  Connections& operator=(const Connections&) = delete;

  void enqueue(std::function<void()> accepted) override { accepted(); }

  void shutdown() override {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake();
    room_.join();
    workers_.shutdown();  // their waits end within kStopCheck: the listening socket is closed
  }

  /// Puts `connection` among those waiting for their head; closes it when the server stops.
  void wait_for_head(std::unique_ptr<Connection> connection) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
      arriving_.push_back(std::move(connection));
    }
    wake();
  }

 private:
  void wake() {
    char byte = 0;
    [[maybe_unused]] auto ignored = ::write(wake_[1], &byte, 1);  // a full pipe wakes the room already
  }

  void wait_in_room() {
    std::vector<std::unique_ptr<Connection>> waiting;
    std::vector<pollfd> polled;
    for (;;) {
      {
        std::lock_guard lock(mutex_);
        if (stopping_) break;
        for (auto& c : arriving_) waiting.push_back(std::move(c));
        arriving_.clear();
      }
      polled.assign(1, pollfd{wake_[0], POLLIN, 0});
      auto next = Clock::time_point::max();
      for (const auto& c : waiting) {
        polled.push_back(pollfd{c->socket(), c->awaited(), 0});
        next = std::min(next, c->deadline());
      }
      int timeout = -1;
      if (next != Clock::time_point::max()) {
        auto left = std::chrono::ceil<std::chrono::milliseconds>(next - Clock::now()).count();
        timeout = static_cast<int>(std::clamp<decltype(left)>(left, 0, INT_MAX));
      }
      if (::poll(polled.data(), polled.size(), timeout) < 0 && errno != EINTR) break;
      if (polled[0].revents != 0)
        for (char drain[64]; ::read(wake_[0], drain, sizeof drain) > 0;) {
        }
      const auto now = Clock::now();
      std::size_t kept = 0;
      for (std::size_t i = 0; i < waiting.size(); ++i) {
        Head head = polled[i + 1].revents != 0 ? waiting[i]->take_head() : Head::kWaiting;
        if (head == Head::kWaiting && now < waiting[i]->deadline()) {
          if (kept != i) waiting[kept] = std::move(waiting[i]);
          ++kept;
        } else if (head == Head::kComplete || head == Head::kTooLarge) {
          Connection* connection = waiting[i].release();  // a std::function is copied: no unique_ptr in it
          workers_.enqueue([this, connection, head] { server_.serve(std::unique_ptr<Connection>(connection), head); });
        } else {
          waiting[i].reset();  // closed, failed or late
        }
      }
      waiting.resize(kept);
    }
  }

  BoundedServer& server_;
  httplib::ThreadPool workers_;
  std::array<int, 2> wake_{-1, -1};  // a pipe: a connection arrived, or the server stops
  std::mutex mutex_;
  std::vector<std::unique_ptr<Connection>> arriving_;  // guarded by mutex_
  bool stopping_ = false;                              // guarded by mutex_
  std::thread room_;
};

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
  new_task_queue = [this] { return connections_ = new Connections(*this); };
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
    if (ssl == nullptr || SSL_set_fd(ssl, sock) != 1) {
      SSL_free(ssl);
      ::close(sock);
      release(address);
      return false;
    }
  }
  connections_->wait_for_head(std::make_unique<Connection>(*this, sock, std::move(address), ssl));
  return true;
}

void BoundedServer::serve(std::unique_ptr<Connection> connection, Head head) {
  while (head == Head::kComplete) {
    std::size_t& left = connection->requests_left();
    bool closed = false;
    bool served = process_request(*connection, left == 1, closed,
                                  [&connection](httplib::Request&) { connection->begin_exchange(); });
    connection->set_clean(served);
    if (!served || closed || --left == 0) return;
    connection->await_next_head(std::chrono::seconds(keep_alive_timeout_sec_));
    head = connection->take_head();  // a next head sent at once is served at once
  }
  if (head == Head::kTooLarge) connection->refuse_head();
  if (head == Head::kWaiting) connections_->wait_for_head(std::move(connection));
}

}  // namespace ptmpl::sandbox
