// The service's OAuth 2.0 authorization-code flow (API reference, Authentication), for `ptmpl auth`.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "libtemplate/api_client.hpp"
#include "libtemplate/result.hpp"

namespace ptmpl::api {

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
Result<std::string> exchange_code(Transport& transport, const OAuthApp& app, const std::string& client_secret,
                                  const std::string& code);

/// A secret (the access token, the OAuth client secret), the one loader of them: from `file`
/// when given (refused, kUsage, when its group or others may read it), else
/// `from_environment`, the value of the environment variable `env_name` as the caller read it
/// (the library reads no environment; nullopt: unset). Surrounding whitespace is dropped; an
/// empty secret, or one with spaces or several lines, is refused. `what` names it in errors,
/// which never hold the secret.
Result<std::string> load_secret(const std::string& file, std::optional<std::string_view> from_environment,
                                std::string_view env_name, std::string_view what);

}  // namespace ptmpl::api
