// The service's OAuth 2.0 authorization-code flow (API reference, Authentication), for `ptmpl auth`.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/result.hpp"
#include "libtemplate/publish/api_client.hpp"

namespace ptmpl::publish {

/// A registered application.
struct OAuthApp {
  std::string app_url;  // the web application's address, which hosts /oauth/…
  std::string client_id;
  std::string redirect_uri;  // must match the registered callback
};

/// The address that sends a user to approve the application:
/// `{app_url}/oauth/authorize?client_id=…&response_type=code&redirect_uri=…[&state=…]`.
std::string authorize_url(const OAuthApp& app, std::string_view state);

/// The app URL of a base URL: the base URL without its trailing `/api/v1`.
std::string app_url_of(std::string_view base_url);

/// Exchanges `code` at `{app_url}/oauth/token` for an access token. Errors name the status and
/// the service's `error` and `error_description`; neither the secret nor the code appears in them.
/// A token unsendable_secret refuses is the service's error (kService), never returned.
Result<std::string> exchange_code(Transport& transport, const OAuthApp& app, const std::string& client_secret,
                                  const std::string& code);

/// Where `auth token` puts the token it is issued, made ready BEFORE the one-time code is
/// spent, so that a token is never issued into a place it cannot be written: a private
/// temporary file (mode 600, PendingFile) beside `path`, which keep() fills and renames over
/// `path`; removed if the program ends before (a signal included).
class TokenFile {
 public:
  /// Refuses (kUsage), touching nothing, "-" and a `path` that is not a regular file (a
  /// directory, a device, a FIFO, a name under /dev), and (kOutputFailed) a directory that is
  /// missing or not writable.
  static Result<TokenFile> prepare(const std::string& path);

  /// Writes `token` into the temporary file and renames it over the target. When the rename
  /// fails, the token stays in the temporary file and the error (kOutputFailed) names it; when
  /// even writing fails, the token is kept nowhere (`lost()`), so the caller must hand it to
  /// the user another way.
  Status keep(const std::string& token);
  [[nodiscard]] bool lost() const { return lost_; }
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  TokenFile(std::string path, PendingFile file) : path_(std::move(path)), file_(std::move(file)) {}
  std::string path_;
  PendingFile file_;
  bool lost_ = false;
};

/// The longest secret taken: a header line of this much is what servers commonly accept.
inline constexpr std::size_t kMaxSecretBytes = 8 << 10;

/// Why `secret` (a token, a client secret) could never be sent in an HTTP header: longer than
/// kMaxSecretBytes, or a byte that is not visible ASCII (a control, a space, NUL, a byte of
/// UTF-8), named with its offset; nullopt when it can be.
[[nodiscard]] std::optional<std::string> unsendable_secret(std::string_view secret);

/// A secret (the access token, the OAuth client secret), the one loader of them: from `file`
/// when given (refused, kUsage, when its group or others may read it, or when it holds more
/// than 64 KiB, before it is read), else `from_environment`, the value of the environment
/// variable `env_name` as the caller read it (the library reads no environment; nullopt:
/// unset). Surrounding whitespace is dropped; an empty secret, one with spaces or several
/// lines, or one unsendable_secret refuses, is refused. `what` names it in errors, which never
/// hold the secret.
Result<std::string> load_secret(const std::string& file, std::optional<std::string_view> from_environment,
                                std::string_view env_name, std::string_view what);

}  // namespace ptmpl::publish
