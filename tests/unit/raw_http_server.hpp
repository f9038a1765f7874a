// A plain-HTTP server on 127.0.0.1 that answers with whatever bytes the test writes: the hostile
// services of the client's tests (a server that drips, drops a connection after reading a
// request, or sends headers without end), which a real HTTP library would not let a test be.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <charconv>
#include <functional>
#include <list>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace ptmpl::testing {

class RawHttpServer {
 public:
  struct Request {
    std::string method;
    std::string target;
    std::string body;
    int connection = 0;     // 1 for the first connection accepted, 2 for the next, …
    int on_connection = 0;  // 1 for a connection's first request, 2 for its next, …
  };

  /// The connection a request came on, for the answer to write to.
  class Peer {
   public:
    Peer(int fd, const std::atomic<bool>& stopping) : fd_(fd), stopping_(stopping) {}
    /// Writes every byte; false once the client is gone or the server stops.
    bool send(std::string_view bytes) {
      while (!bytes.empty()) {
        if (stopping_) return false;
        pollfd p{fd_, POLLOUT, 0};
        if (::poll(&p, 1, 50) <= 0) continue;
        ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n <= 0) return false;
        bytes.remove_prefix(static_cast<std::size_t>(n));
      }
      return true;
    }
    /// Waits `ms` milliseconds unless the server stops first; false when it stops.
    [[nodiscard]] bool pause(int ms) const {
      for (int waited = 0; waited < ms; waited += 5) {
        if (stopping_) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
      return !stopping_;
    }

   private:
    int fd_;
    const std::atomic<bool>& stopping_;
  };

  /// Whether the connection reads its next request after the answer, or is closed.
  enum class Then { kKeepOpen, kClose };
  using Answer = std::function<Then(const Request&, Peer&)>;

  explicit RawHttpServer(Answer answer) : answer_(std::move(answer)) {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address);
    ::listen(listener_, 16);
    socklen_t length = sizeof address;
    ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
    accepting_ = std::thread([this] { accept_connections(); });
  }
  ~RawHttpServer() {
    stopping_ = true;
    accepting_.join();
    for (std::thread& t : connections_) t.join();
    ::close(listener_);
  }
  RawHttpServer(const RawHttpServer&) = delete;
  RawHttpServer& operator=(const RawHttpServer&) = delete;

  /// `http://127.0.0.1:PORT` followed by `path`.
  [[nodiscard]] std::string url(std::string_view path = "") const {
    return "http://127.0.0.1:" + std::to_string(port_) + std::string(path);
  }
  /// The requests read so far with method `method`.
  [[nodiscard]] int requests(std::string_view method) const {
    std::lock_guard lock(mutex_);
    int n = 0;
    for (const std::string& m : methods_) n += m == method ? 1 : 0;
    return n;
  }

  /// "HTTP/1.1 STATUS …" with a JSON `body` and its Content-Length, kept alive.
  static std::string response(int status, std::string_view body) {
    return "HTTP/1.1 " + std::to_string(status) +
           " X\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" +
           std::string(body);
  }

 private:
  void accept_connections() {
    int count = 0;
    while (!stopping_) {
      pollfd p{listener_, POLLIN, 0};
      if (::poll(&p, 1, 20) <= 0) continue;
      int fd = ::accept(listener_, nullptr, nullptr);
      if (fd < 0) continue;
      connections_.emplace_back([this, fd, number = ++count] {
        serve(fd, number);
        ::close(fd);
      });
    }
  }

  void serve(int fd, int connection) {
    std::string in;
    Peer peer(fd, stopping_);
    for (int on_connection = 1;; ++on_connection) {
      Request request;
      request.connection = connection;
      request.on_connection = on_connection;
      std::size_t head_end;
      while ((head_end = in.find("\r\n\r\n")) == std::string::npos)
        if (!receive(fd, in)) return;
      std::string_view head(in.data(), head_end);
      request.method = std::string(head.substr(0, head.find(' ')));
      std::string_view rest = head.substr(request.method.size() + 1);
      request.target = std::string(rest.substr(0, rest.find(' ')));
      std::size_t length = 0;
      if (auto at = head.find("Content-Length: "); at != std::string_view::npos)
        std::from_chars(head.data() + at + 16, head.data() + head.size(), length);
      while (in.size() < head_end + 4 + length)
        if (!receive(fd, in)) return;
      request.body = in.substr(head_end + 4, length);
      in.erase(0, head_end + 4 + length);
      {
        std::lock_guard lock(mutex_);
        methods_.push_back(request.method);
      }
      if (answer_(request, peer) == Then::kClose) return;
    }
  }

  // Appends what arrives to `in`; false when the client closed or the server stops.
  bool receive(int fd, std::string& in) {
    while (!stopping_) {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, 20) <= 0) continue;
      char buffer[65536];
      ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
      if (n <= 0) return false;
      in.append(buffer, static_cast<std::size_t>(n));
      return true;
    }
    return false;
  }

  Answer answer_;
  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::thread accepting_;
  std::list<std::thread> connections_;  // touched by the accepting thread alone until it is joined
  mutable std::mutex mutex_;
  std::list<std::string> methods_;
};

}  // namespace ptmpl::testing
