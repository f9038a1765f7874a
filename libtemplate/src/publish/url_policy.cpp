// What the client may send where: the base-URL policy (HTTPS, plain HTTP only to a loopback
// address, no credentials in the URL), URL encoding, the token and its redaction.
#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <thread>

#include "libtemplate/publish/api_client.hpp"
#include "libtemplate/publish/oauth.hpp"
#include "publish/envelope.hpp"

namespace ptmpl::publish {
namespace {

using detail::iequals;

constexpr const char* kRedacted = "[REDACTED]";

bool is_loopback(std::string host) {
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (iequals(host, "localhost")) return true;
  in_addr v4{};
  if (::inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (::inet_pton(AF_INET6, host.c_str(), &v6) == 1) return IN6_IS_ADDR_LOOPBACK(&v6);
  return false;
}

}  // namespace

std::string url_encode(std::string_view text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string HttpResponse::header(std::string_view name) const {
  for (const auto& [key, value] : headers)
    if (iequals(key, name)) return value;
  return "";
}

Status check_base_url(std::string_view url) {
  // A URL is visible ASCII: a control (CR LF would start a header of its own), a space or a
  // byte past ASCII is a mistake of the address, not something to send.
  for (std::size_t i = 0; i < url.size(); ++i) {
    auto byte = static_cast<unsigned char>(url[i]);
    if (byte <= 0x20 || byte >= 0x7F)
      return Error::usage("base URL " + quoted_excerpt(url) + " holds byte " + detail::hex_byte(byte) + " at offset " +
                          std::to_string(i) + "; a URL is visible ASCII (percent-encode the rest)");
  }
  auto scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return Error::usage("base URL '" + std::string(url) + "' has no scheme");
  std::string scheme(url.substr(0, scheme_end));
  std::string_view rest = url.substr(scheme_end + 3);
  std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
  if (authority.find('@') != std::string_view::npos)
    return Error::usage("base URL must not carry credentials; use PTMPL_TOKEN or --token-file");
  std::string host;
  if (!authority.empty() && authority.front() == '[') {
    host = std::string(authority.substr(0, authority.find(']') + 1));
  } else {
    host = std::string(authority.substr(0, authority.find(':')));
  }
  if (host.empty()) return Error::usage("base URL '" + std::string(url) + "' has no host");
  if (iequals(scheme, "https")) return Done{};
  if (iequals(scheme, "http")) {
    if (is_loopback(host)) return Done{};
    return Error::usage("refusing plain http:// to " + host + ": only https is allowed, except to a loopback address");
  }
  return Error::usage("base URL '" + std::string(url) + "': unsupported scheme " + scheme + " (https only)");
}

Result<std::string> load_token(const std::string& token_file, std::optional<std::string_view> from_environment) {
  if (token_file.empty() && !from_environment)
    return Error::usage(
        "no access token: set PTMPL_TOKEN or pass --token-file (docs/commands/push.md explains tokens)");
  return load_secret(token_file, from_environment, "PTMPL_TOKEN", "access token");
}

namespace {

bool word_byte(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  return std::isalnum(u) || c == '-' || c == '_' || c == '.' || c == '~' || c == '+' || c == '/' || u >= 0x80;
}

/// Whether the occurrence [at, at + length) of a short secret stands as a value, not as a word
/// of prose (url_policy's rule, api_client.hpp).
bool stands_as_value(std::string_view text, std::size_t at, std::size_t length) {
  std::size_t end = at + length;
  bool left_open = at == 0 || !word_byte(text[at - 1]);
  bool right_open = end == text.size() || !word_byte(text[end]);
  if (!left_open || !right_open) return false;  // part of a longer word
  auto before = text.substr(0, at);
  bool left_value = at == 0 || std::string_view("\"'=`").find(text[at - 1]) != std::string_view::npos ||
                    before.ends_with(":") || before.ends_with(": ") || before.ends_with("Bearer ");
  bool right_value = end == text.size() || std::string_view("\"'&`\r\n,;").find(text[end]) != std::string_view::npos;
  return left_value || right_value;
}

}  // namespace

std::string redact(std::string text, std::string_view secret) {
  if (secret.empty()) return text;
  const bool anywhere = secret.size() >= kRedactAnywhereLength;
  for (auto at = text.find(secret); at != std::string::npos;) {
    if (anywhere || stands_as_value(text, at, secret.size())) {
      text.replace(at, secret.size(), kRedacted);
      at = text.find(secret, at + std::strlen(kRedacted));
    } else {
      at = text.find(secret, at + 1);
    }
  }
  return text;
}

}  // namespace ptmpl::publish
