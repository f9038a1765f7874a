// The sandbox's HTTP(S) server: cpp-httplib's routing over connections whose time, number and
// request heads are bounded, so that slow or many connections cannot starve the others.
// cpp-httplib bounds each read (5 s) but not a whole request, serves every connection on one of
// a few workers from its first byte, and keeps request headers without bound: ten clients
// sending a byte a second held all the workers, 600 connections that never finished their TLS
// handshake kept a prompt client waiting past its 30 s timeout, 100 MB of headers was read
// and kept. Here connections wait for their request head in one thread's poll(2) (the TLS
// handshake done without blocking), with a deadline for the handshake and head as a whole and a
// bound on the head's size; only a complete head takes a worker. The connections of one client
// address are capped.
#pragma once

#include <httplib.h>
#include <openssl/ssl.h>

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "libtemplate/core/result.hpp"

namespace ptmpl::sandbox {

struct ConnectionLimits {
  /// From a connection's acceptance (or, on a kept-alive connection, the next request's first
  /// byte), the TLS handshake, the request line and the headers must all arrive within this.
  std::chrono::milliseconds head_timeout{10'000};
  /// The most bytes the request line and headers may take; a longer head is answered 431
  /// Request Header Fields Too Large, and the connection closed.
  std::size_t max_head_bytes = 64 * 1024;
  /// Then the body must arrive and the response be taken within this, as a whole.
  std::chrono::milliseconds exchange_timeout{60'000};
  /// Within those, the longest the client may leave the connection silent (or unread).
  std::chrono::milliseconds idle_timeout{5'000};
  /// Connections open at once from one client address; more are closed at once, unread.
  std::size_t per_client = 32;
  /// Requests served at once (worker threads); more wait, their heads complete, for a worker.
  std::size_t workers = 128;
  /// Connections the kernel completes and queues until they are accepted (listen(2)'s
  /// backlog; the system caps it at net.core.somaxconn). A connection beyond it is dropped
  /// unanswered and the client tries again only after its 1 s SYN timeout.
  int backlog = 1024;
};

/// The TLS context of a server certificate (PEM, with its chain) and its key. Fails (kInvalid)
/// naming both files when they cannot be loaded or do not match.
using TlsContext = std::unique_ptr<SSL_CTX, void (*)(SSL_CTX*)>;
[[nodiscard]] Result<TlsContext> make_tls_context(const std::string& cert_file, const std::string& key_file);

/// The server. Its connections wait for their heads outside the workers while it listens
/// (class Connections); the rest, reading requests and routing, is cpp-httplib's.
class BoundedServer : public httplib::Server {
 public:
  /// Serves TLS with `tls`, or plain HTTP when it is null.
  BoundedServer(ConnectionLimits limits, TlsContext tls);
  ~BoundedServer() override;

  /// Listens on the socket that bind_to_port() or bind_to_any_port() bound, with
  /// limits.backlog instead of cpp-httplib's 5 (fixed when the library was built): concurrent
  /// clients that connect at the same moment (push's workers, reconnecting together) overflow
  /// 5 and wait a second each. False, with errno, when nothing is bound or listen(2) fails.
  bool listen_with_backlog();

 private:
  class Connection;
  class Connections;
  enum class Head;

  // cpp-httplib calls this, on the thread that accepts, for each accepted socket, which it then
  // forgets: the connection is put among those waiting for their head.
  bool process_and_close_socket(socket_t sock) override;
  /// Serves the requests of `connection` (on a worker) while their heads are complete, then
  /// puts it back among the waiting connections, or closes it.
  void serve(std::unique_ptr<Connection> connection, Head head);
  /// Counts a connection from `address` in; false (not counted) when that client is at its cap.
  bool admit(const std::string& address);
  void release(const std::string& address);

  ConnectionLimits limits_;
  TlsContext tls_;
  Connections* connections_ = nullptr;  // while listening; owned by cpp-httplib (its task queue)
  std::mutex open_mutex_;
  std::map<std::string, std::size_t> open_;  // connections open per client address
};

}  // namespace ptmpl::sandbox
