// The libcurl transport: verified HTTPS, timeouts, no redirects, no signals.
#include <curl/curl.h>
#include <openssl/x509.h>

#include <mutex>

#include "libtemplate/api_client.hpp"

namespace ptmpl::api {
namespace {

std::size_t append_body(char* data, std::size_t size, std::size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

std::size_t append_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* response = static_cast<HttpResponse*>(user);
  std::string_view line(data, size * count);
  if (line.starts_with("HTTP/")) response->headers.clear();  // a new response (e.g. after 100)
  auto colon = line.find(':');
  if (colon != std::string_view::npos) {
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' '))
      value.remove_suffix(1);
    response->headers.emplace_back(std::string(line.substr(0, colon)), std::string(value));
  }
  return size * count;
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
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options_.connect_timeout.count()));
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(options_.timeout.count()));
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, append_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &response.body);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, append_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &response);
    if (request.method == "POST" || request.method == "PUT") {
      curl_easy_setopt(c, CURLOPT_POSTFIELDS, request.body.data());
      curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
      if (request.method == "PUT") curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, "PUT");
    } else if (request.method != "GET") {
      curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, request.method.c_str());
    }
    CURLcode code = curl_easy_perform(c);
    curl_slist_free_all(headers);
    if (code != CURLE_OK) {
      // A certificate that does not verify is curl error 60, but libcurl may report it as 35 (a
      // generic TLS failure), depending on what OpenSSL's error queue holds; the verification
      // result itself tells, so that neither is retried.
      long verify = X509_V_OK;
      curl_easy_getinfo(c, CURLINFO_SSL_VERIFYRESULT, &verify);
      bool unverified =
          code == CURLE_PEER_FAILED_VERIFICATION || (code == CURLE_SSL_CONNECT_ERROR && verify > X509_V_OK);
      bool permanent = unverified || code == CURLE_SSL_CACERT_BADFILE || code == CURLE_SSL_CERTPROBLEM ||
                       code == CURLE_URL_MALFORMAT || code == CURLE_UNSUPPORTED_PROTOCOL;
      std::string detail = error[0] != '\0' ? error : curl_easy_strerror(code);
      if (unverified)
        detail = "the server's certificate does not verify against " +
                 (options_.cacert.empty() ? std::string("the system's CAs") : options_.cacert) + ": " +
                 (verify > X509_V_OK ? std::string(X509_verify_cert_error_string(verify)) : detail);
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
