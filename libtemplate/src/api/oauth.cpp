#include "libtemplate/oauth.hpp"

#include <sys/stat.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "libtemplate/json.hpp"

namespace ptmpl::api {
namespace {

std::string trimmed(std::string text) {
  auto first = text.find_first_not_of(" \t\r\n");
  auto last = text.find_last_not_of(" \t\r\n");
  return first == std::string::npos ? "" : text.substr(first, last - first + 1);
}

}  // namespace

std::string authorize_url(const OAuthApp& app, std::string_view state) {
  std::string url = app.app_url + "/oauth/authorize?client_id=" + url_encode(app.client_id) +
                    "&response_type=code&redirect_uri=" + url_encode(app.redirect_uri);
  if (!state.empty()) url += "&state=" + url_encode(state);
  return url;
}

std::string app_url_of(std::string_view base_url) {
  while (!base_url.empty() && base_url.back() == '/') base_url.remove_suffix(1);
  if (base_url.ends_with("/api/v1")) base_url.remove_suffix(7);
  return std::string(base_url);
}

Result<std::string> load_secret(const std::string& file, std::optional<std::string_view> from_environment,
                                std::string_view env_name, std::string_view what) {
  const std::string source = file.empty() ? std::string(env_name) : file;
  std::string secret;
  if (!file.empty()) {
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0)
      return Error::unreadable(file + ": cannot read the " + std::string(what) + " file: " + std::strerror(errno));
    if ((st.st_mode & 077) != 0)
      return Error::usage(file + ": the " + std::string(what) +
                          " file is readable by group or others; refused (chmod 600 " + file + ")");
    std::ifstream in(file);
    if (!in) return Error::unreadable(file + ": cannot read the " + std::string(what) + " file");
    secret.assign(std::istreambuf_iterator<char>(in), {});
  } else if (from_environment) {
    secret = *from_environment;
  } else {
    return Error::usage("no " + std::string(what) + ": pass its file or set " + std::string(env_name));
  }
  secret = trimmed(std::move(secret));
  if (secret.empty()) return Error::usage(source + ": the " + std::string(what) + " is empty");
  if (secret.find_first_of(" \t\r\n") != std::string::npos)
    return Error::usage(source + ": the " + std::string(what) + " has spaces or several lines");
  return secret;
}

Result<std::string> exchange_code(Transport& transport, const OAuthApp& app, const std::string& client_secret,
                                  const std::string& code) {
  std::string url = app.app_url + "/oauth/token";
  if (auto allowed = check_base_url(url); !allowed.ok()) return allowed.error();
  HttpRequest request{"POST",
                      url,
                      {{"Content-Type", "application/x-www-form-urlencoded"}},
                      "client_id=" + url_encode(app.client_id) + "&client_secret=" + url_encode(client_secret) +
                          "&grant_type=authorization_code&code=" + url_encode(code) +
                          "&redirect_uri=" + url_encode(app.redirect_uri)};
  auto clean = [&](std::string text) { return redact(redact(std::move(text), client_secret), code); };
  auto sent = transport.send(request);
  if (!sent.ok()) return Error::network(clean("exchanging the code: no response: " + sent.error().message));
  const HttpResponse& response = sent.value();
  json::Document doc = json::Document::parse(response.body);
  auto text = [&](std::string_view key) {
    const json::Value* v = doc.root().find(key);
    return v != nullptr && v->is_string() ? std::string(v->text()) : std::string();
  };
  if (response.status == 200 && !text("access_token").empty()) return text("access_token");
  std::string error = text("error");
  std::string description = text("error_description");
  return Error::service(clean("exchanging the code: HTTP " + std::to_string(response.status) + ": " +
                              (error.empty() ? "no access_token in the answer" : error) +
                              (description.empty() ? "" : ": " + description)));
}

}  // namespace ptmpl::api
