// The service's OAuth 2.0 authorization-code flow (API reference, Authentication), for `ptmpl auth`.
#pragma once

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

/// A secret from `file` (refused when its group or others may read it) or else from the
/// environment variable `env_name`; surrounding whitespace dropped. `what` names it in errors.
Result<std::string> load_secret(const std::string& file, const char* env_name, std::string_view what);

}  // namespace ptmpl::api
