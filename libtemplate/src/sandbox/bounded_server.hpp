// The sandbox's HTTP(S) server: cpp-httplib's routing over connections whose time and number
// are bounded, so that slow or many connections from one client cannot starve the others.
// cpp-httplib bounds each read (5 s) but not a whole request, and serves every connection on
// one of a few workers: ten clients sending a byte a second held them all. Here each connection
// is handled by this class (TLS included, through OpenSSL on a non-blocking socket), with a
// deadline for the whole request head and a cap on the connections of one client address.
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
  /// From a connection's first byte (or, on a kept-alive connection, the next request's), the
  /// TLS handshake, the request line and the headers must all arrive within this.
  std::chrono::milliseconds head_timeout{10'000};
  /// Then the body must arrive and the response be taken within this, as a whole.
  std::chrono::milliseconds exchange_timeout{60'000};
  /// Within those, the longest the client may leave the connection silent (or unread).
  std::chrono::milliseconds idle_timeout{5'000};
  /// Connections open at once from one client address; more are closed at once, unread.
  std::size_t per_client = 32;
  /// Connections served at once (worker threads); more wait for a worker.
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
  // cpp-httplib calls this on a worker for each accepted socket, which it then forgets.
  bool process_and_close_socket(socket_t sock) override;
  /// Counts a connection from `address` in; false (not counted) when that client is at its cap.
  bool admit(const std::string& address);
  void release(const std::string& address);

  ConnectionLimits limits_;
  TlsContext tls_;
  std::mutex open_mutex_;
  std::map<std::string, std::size_t> open_;  // connections open per client address
};

}  // namespace ptmpl::sandbox
