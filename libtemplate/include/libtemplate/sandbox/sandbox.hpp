// A local stand-in for the service's project templates API, for tests and rehearsals (docs/semantics.md §8).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/core/result.hpp"

namespace ptmpl {

/// How `ptmpl sandbox` runs.
struct SandboxOptions {
  std::string host = "127.0.0.1";
  int port = 0;             // 0: any free port
  std::string data_dir;     // templates/ (one file per template) and tls/ live here
  std::string tokens_file;  // one `token user_id` pair per line; `#` comments, blank lines
  bool http = false;        // plain HTTP instead of TLS; only on a loopback host
  std::string cert_file;    // a given server certificate (PEM); with key_file
  std::string key_file;
  std::string ca_file;  // the CA printed for clients when a certificate is given (default: cert_file)
  /// Injected faults: this fraction of requests fails with one of `faults`, drawn at random.
  double fail_rate = 0.0;
  /// Fault kinds: "429" (with Retry-After), "503", "drop" (connection closed before the request
  /// is applied), "drop-after" (applied, then the connection closed: an unknown outcome).
  std::vector<std::string> faults = {"429", "503", "drop"};
  /// OAuth applications for /oauth/authorize and /oauth/token: one `client_id client_secret
  /// redirect_uri` per line. Empty: those endpoints answer 404.
  std::string oauth_clients_file;
  std::int64_t oauth_user_id = 1;  // the user who approves at /oauth/authorize
  int retry_after_seconds = 1;
  /// Once this many templates have been created or updated, every further request is held
  /// unanswered until the server stops: a client is then certainly stopped mid-run (tests of
  /// an interrupted push, rehearsals of an outage). 0: never.
  std::int64_t hold_after = 0;
  std::uint64_t seed = 1;
  /// The TLS handshake, request line and headers of a request must arrive within this many
  /// seconds as a whole (not per read), or the connection is closed.
  int head_timeout_seconds = 10;
  /// Connections open at once from one client address; further ones are closed unread.
  int max_connections_per_client = 32;
};

/// Sets `options.host` and `options.port` from `address`, as `--listen` takes it: HOST:PORT,
/// the port 0 to 65535 (0: any free port), an IPv6 host in brackets (`[::1]:8443`; the
/// brackets are taken off). Fails (kUsage, quoting `address`) when it is not that.
Status set_listen_address(SandboxOptions& options, std::string_view address);

/// The fault kinds of `--faults`: a comma-separated list, empty items left out.
[[nodiscard]] std::vector<std::string> fault_kinds(std::string_view list);

/// A running sandbox server. Binding happens in start(), so the URL is known before serving.
class Sandbox {
 public:
  /// Reads the tokens file and the data directory, prepares TLS (generating a CA and a server
  /// certificate under `<data_dir>/tls` unless one is given) and binds. Fails with a message
  /// naming the file or address at fault: kUsage for a tokens or OAuth clients file that its
  /// group or others may read, and for plain HTTP on a host that is not a loopback address.
  static Result<std::unique_ptr<Sandbox>> start(const SandboxOptions& options);
  ~Sandbox();
  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;

  /// `https://127.0.0.1:PORT/api/v1` (or http://). The OAuth endpoints are at the origin.
  [[nodiscard]] std::string base_url() const;
  /// The CA certificate clients verify against; "-" with plain HTTP.
  [[nodiscard]] std::string ca_path() const;
  /// Serves until stop() is called (from another thread). Returns false if serving failed.
  bool serve();
  void stop();

  struct Impl;

 private:
  explicit Sandbox(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// Reads a tokens file: `token user_id` per line. Fails naming the line that is malformed, and
/// refuses a file its group or others may read, as the client refuses its token file.
struct SandboxToken {
  std::string token;
  std::int64_t user_id = 0;
};
Result<std::vector<SandboxToken>> read_tokens_file(const std::string& path);

}  // namespace ptmpl
