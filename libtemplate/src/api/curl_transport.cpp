// The libcurl transport: verified HTTPS, timeouts, no redirects, no signals.
#include <curl/curl.h>
#include <openssl/x509.h>

#include <strings.h>

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <mutex>

#include "libtemplate/api_client.hpp"

namespace ptmpl::api {
namespace {

/// What the callbacks of one exchange fill in.
struct Receiving {
  HttpResponse* response = nullptr;
  std::uint64_t limit = 0;
  std::uint64_t too_big = 0;  // the size that ended the exchange (declared or reached); 0: none
};

std::size_t append_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* in = static_cast<Receiving*>(user);
  std::uint64_t total = in->response->body.size() + size * count;
  if (total > in->limit) {
    in->too_big = total;
    return 0;  // ends the transfer (CURLE_WRITE_ERROR)
  }
  in->response->body.append(data, size * count);
  return size * count;
}

std::size_t append_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* in = static_cast<Receiving*>(user);
  HttpResponse* response = in->response;
  std::string_view line(data, size * count);
  if (line.starts_with("HTTP/")) response->headers.clear();  // a new response (e.g. after 100)
  auto colon = line.find(':');
  if (colon != std::string_view::npos) {
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' '))
      value.remove_suffix(1);
    std::string name(line.substr(0, colon));
    // A declared length beyond the limit ends the exchange before any of the body arrives.
    if (name.size() == 14 && ::strncasecmp(name.c_str(), "Content-Length", 14) == 0) {
      std::uint64_t declared = 0;
      auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), declared);
      if (ec == std::errc::result_out_of_range ||
          (ec == std::errc() && end == value.data() + value.size() && declared > in->limit)) {
        in->too_big = ec == std::errc() ? declared : UINT64_MAX;
        return 0;
      }
    }
    response->headers.emplace_back(std::move(name), std::string(value));
  }
  return size * count;
}

/// "3.0 GiB (3221225472 bytes)".
std::string describe_size(std::uint64_t bytes) {
  if (bytes == UINT64_MAX) return "more than 2^64 bytes";
  char text[64];
  double gib = static_cast<double>(bytes) / static_cast<double>(std::uint64_t{1} << 30);
  double mib = static_cast<double>(bytes) / static_cast<double>(1 << 20);
  if (gib >= 1) {
    std::snprintf(text, sizeof text, "%.1f GiB", gib);
  } else {
    std::snprintf(text, sizeof text, "%.1f MiB", mib);
  }
  return std::string(text) + " (" + std::to_string(bytes) + " bytes)";
}

bool plain_http(std::string_view url) {
  return url.size() >= 7 && ::strncasecmp(url.data(), "http://", 7) == 0;
}

class CurlTransport final : public Transport {
 public:
  explicit CurlTransport(TransportOptions options) : options_(std::move(options)) {
    static std::once_flag global;
    std::call_once(global, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    curl_ = curl_easy_init();
  }
  ~CurlTransport() override {
    if (curl_ != nullptr) curl_easy_cleanup(curl_);
  }
  CurlTransport(const CurlTransport&) = delete;
  CurlTransport& operator=(const CurlTransport&) = delete;

  Result<HttpResponse> send(const HttpRequest& request) override {
    if (curl_ == nullptr) return Error::internal("cannot initialise libcurl");
    if (auto allowed = check_base_url(request.url); !allowed.ok()) return allowed.error();
    CURL* c = curl_;
    curl_easy_reset(c);
    HttpResponse response;
    Receiving receiving{&response, options_.max_response_bytes, 0};
    char error[CURL_ERROR_SIZE] = "";
    curl_slist* headers = nullptr;
    for (const auto& [name, value] : request.headers)
      headers = curl_slist_append(headers, (name + ": " + value).c_str());
    headers = curl_slist_append(headers, "Accept: application/json");
    headers = curl_slist_append(headers, "Expect:");  // no 100-continue round trip
    curl_easy_setopt(c, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "https,http");
    curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
    if (!options_.cacert.empty()) curl_easy_setopt(c, CURLOPT_CAINFO, options_.cacert.c_str());
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    // Plain HTTP goes straight to its (loopback) host: a proxy from http_proxy or ALL_PROXY
    // would receive the token or the client secret in clear text. NOPROXY "*" overrides
    // every proxy variable; HTTPS keeps them (the proxy sees only CONNECT).
    if (plain_http(request.url)) {
      curl_easy_setopt(c, CURLOPT_PROXY, "");
      curl_easy_setopt(c, CURLOPT_NOPROXY, "*");
    }
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options_.connect_timeout.count()));
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(options_.timeout.count()));
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, append_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &receiving);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, append_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &receiving);
    if (request.method == "POST" || request.method == "PUT") {
      curl_easy_setopt(c, CURLOPT_POSTFIELDS, request.body.data());
      curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
      if (request.method == "PUT") curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, "PUT");
    } else if (request.method != "GET") {
      curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, request.method.c_str());
    }
    CURLcode code = curl_easy_perform(c);
    curl_slist_free_all(headers);
    if (code != CURLE_OK && receiving.too_big != 0) {
      // Not retried: the same request would bring the same answer.
      return Error::service("the response is too large: " + describe_size(receiving.too_big) +
                            "; the client takes at most " + describe_size(options_.max_response_bytes));
    }
    if (code != CURLE_OK) {
      // A certificate that does not verify is curl error 60, but libcurl may report it as 35 (a
      // generic TLS failure), depending on what OpenSSL's error queue holds; the verification
      // result itself tells, so that neither is retried.
      // libcurl starts each connection's result at 1 (X509_V_ERR_UNSPECIFIED) and leaves it
      // there when the handshake ends before a certificate is checked: a server that closes a
      // connection at once (one at its limit of connections) is not one that failed to verify.
      long verify = X509_V_OK;
      curl_easy_getinfo(c, CURLINFO_SSL_VERIFYRESULT, &verify);
      bool unverified = code == CURLE_PEER_FAILED_VERIFICATION ||
                        (code == CURLE_SSL_CONNECT_ERROR && verify > X509_V_OK && verify != X509_V_ERR_UNSPECIFIED);
      bool permanent = unverified || code == CURLE_SSL_CACERT_BADFILE || code == CURLE_SSL_CERTPROBLEM ||
                       code == CURLE_URL_MALFORMAT || code == CURLE_UNSUPPORTED_PROTOCOL;
      std::string detail = error[0] != '\0' ? error : curl_easy_strerror(code);
      if (unverified)
        detail = "the server's certificate does not verify against " +
                 (options_.cacert.empty() ? std::string("the system's CAs") : options_.cacert) + ": " +
                 (verify > X509_V_OK ? std::string(X509_verify_cert_error_string(verify)) : detail);
      // Plain HTTP sent to a TLS port: the server drops the connection without a word.
      if (code == CURLE_GOT_NOTHING && plain_http(request.url))
        detail +=
            "; the server closed the connection without answering plain HTTP: is it an HTTPS server? (try "
            "https:// in the address)";
      // HTTPS sent to a plain-HTTP port: the TLS handshake reads an HTTP answer.
      if (code == CURLE_SSL_CONNECT_ERROR && !plain_http(request.url) && !unverified &&
          detail.find("wrong version number") != std::string::npos)
        detail += "; the server does not speak TLS on this port: is it a plain-HTTP server?";
      std::string message = detail + " (curl error " + std::to_string(static_cast<int>(code)) + ")";
      return permanent ? Error::insecure(std::move(message)) : Error::network(std::move(message));
    }
    long status = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    response.status = static_cast<int>(status);
    return response;
  }

 private:
  TransportOptions options_;
  CURL* curl_ = nullptr;
};

}  // namespace

std::unique_ptr<Transport> make_curl_transport(const TransportOptions& options) {
  return std::make_unique<CurlTransport>(options);
}

}  // namespace ptmpl::api
