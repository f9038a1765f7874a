#include "libtemplate/publish/oauth.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <utility>

#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/json.hpp"
#include "publish/envelope.hpp"

namespace ptmpl::publish {
namespace {

std::string trimmed(std::string text) {
  auto first = text.find_first_not_of(" \t\r\n");
  auto last = text.find_last_not_of(" \t\r\n");
  return first == std::string::npos ? "" : text.substr(first, last - first + 1);
}

/// The most bytes of a secret file: a token or a client secret is a few hundred bytes.
constexpr std::uint64_t kMaxSecretFileBytes = std::uint64_t{64} << 10;

}  // namespace

std::optional<std::string> unsendable_secret(std::string_view secret) {
  if (secret.size() > kMaxSecretBytes)
    return "is " + std::to_string(secret.size()) + " bytes long (at most " + std::to_string(kMaxSecretBytes) + ")";
  for (std::size_t i = 0; i < secret.size(); ++i) {
    auto byte = static_cast<unsigned char>(secret[i]);
    if (byte < 0x21 || byte > 0x7E)
      return "holds byte " + detail::hex_byte(byte) + " at offset " + std::to_string(i) +
             ", which is not visible ASCII";
  }
  return std::nullopt;
}

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
    auto read = read_private_file(file, what, FileKinds::kAny, kMaxSecretFileBytes);
    if (!read.ok()) return read.error();
    secret = std::move(read).value();
  } else if (from_environment) {
    secret = *from_environment;
  } else {
    return Error::usage("no " + std::string(what) + ": pass its file or set " + std::string(env_name));
  }
  secret = trimmed(std::move(secret));
  if (secret.empty()) return Error::usage(source + ": the " + std::string(what) + " is empty");
  if (secret.find_first_of(" \t\r\n") != std::string::npos)
    return Error::usage(source + ": the " + std::string(what) + " has spaces or several lines");
  if (auto why = unsendable_secret(secret))
    return Error::usage(source + ": the " + std::string(what) + " " + *why + ": it cannot be sent in an HTTP header");
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
  if (response.status == 200 && !text("access_token").empty()) {
    std::string token = text("access_token");
    // Saved, it would be refused at every use: a header cannot carry it (and a terminal
    // showing the file would run its escapes).
    if (auto why = unsendable_secret(token))
      return Error::service("exchanging the code: the service's access token " + *why +
                            ": it could never be sent in an HTTP header; not saved");
    return token;
  }
  std::string error = text("error");
  std::string description = text("error_description");
  return Error::service(clean("exchanging the code: HTTP " + std::to_string(response.status) + ": " +
                              (error.empty() ? "no access_token in the answer" : error) +
                              (description.empty() ? "" : ": " + description)));
}

Result<TokenFile> TokenFile::prepare(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::string target = path;
  if (fs::is_symlink(path, ec)) {  // the file the link names gets the token; the link stays
    fs::path resolved = fs::weakly_canonical(path, ec);
    if (!ec) target = resolved.string();
  }
  struct stat st {};
  bool exists = ::stat(target.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode))
    return Error::usage(path +
                        ": is a directory; the token is written only to a regular file (name one inside it: -o " +
                        (fs::path(path) / "token").string() + "); nothing was sent, the code is still valid");
  // Never standard output, a terminal, a device or a FIFO.
  if (path == "-" || written_in_place(path) || (exists && !S_ISREG(st.st_mode)))
    return Error::usage(path + ": the token is written only to a regular file");
  Result<PendingFile> file = PendingFile::create(target, 0600);
  if (!file.ok()) return Error::output_failed(file.error().message + "; nothing was sent, the code is still valid");
  return TokenFile(target, std::move(file).value());
}

Status TokenFile::keep(const std::string& token) {
  Status kept = file_.commit(token + "\n");
  if (!kept.ok() && file_.kept_in().empty()) lost_ = true;
  return kept;
}

}  // namespace ptmpl::publish
