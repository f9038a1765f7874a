// The libcurl transport: verified HTTPS, timeouts, no redirects, no signals.
#include <curl/curl.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <strings.h>
#include <sys/stat.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "libtemplate/core/file_io.hpp"
#include "libtemplate/publish/api_client.hpp"

namespace ptmpl::publish {
namespace {

/// What the callbacks of one exchange fill in.
struct Receiving {
  HttpResponse* response = nullptr;
  std::uint64_t limit = 0;         // of the body
  std::uint64_t header_limit = 0;  // of the status line and headers together
  std::uint64_t header_bytes = 0;
  std::uint64_t too_big = 0;     // the body's size that ended the exchange (declared or reached); 0: none
  bool headers_too_big = false;  // header_bytes passed header_limit
  bool body_started = false;
};

/// Makes room in `body` for `wanted` bytes, never more than `limit`: a body near the limit
/// takes no twice its size. Room within half the limit of it is the limit at once, so that the
/// last growth is not a copy of nearly all of it (std::string::reserve would also round up to
/// twice the capacity; reserved from empty, it takes what is asked).
void grow(std::string& body, std::uint64_t wanted, std::uint64_t limit) {
  std::string bigger;
  bigger.reserve(static_cast<std::size_t>(wanted > limit / 2 ? limit : wanted));
  bigger.append(body);
  body.swap(bigger);
}

std::size_t append_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* in = static_cast<Receiving*>(user);
  std::string& body = in->response->body;
  in->body_started = true;
  std::uint64_t total = body.size() + size * count;
  if (total > in->limit) {
    in->too_big = total;
    return 0;  // ends the transfer (CURLE_WRITE_ERROR)
  }
  if (total > body.capacity())
    grow(body, std::max<std::uint64_t>(total, std::uint64_t{body.capacity()} * 2), in->limit);
  body.append(data, size * count);
  return size * count;
}

std::size_t append_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* in = static_cast<Receiving*>(user);
  HttpResponse* response = in->response;
  in->header_bytes += size * count;
  if (in->header_bytes > in->header_limit) {
    in->headers_too_big = true;
    return 0;
  }
  std::string_view line(data, size * count);
  if (line.starts_with("HTTP/")) response->headers.clear();  // a new response (e.g. after 100)
  auto colon = line.find(':');
  if (colon != std::string_view::npos) {
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' '))
      value.remove_suffix(1);
    std::string name(line.substr(0, colon));
    // A declared length beyond the limit ends the exchange before any of the body arrives;
    // one within it is room made at once.
    if (name.size() == 14 && ::strncasecmp(name.c_str(), "Content-Length", 14) == 0) {
      std::uint64_t declared = 0;
      auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), declared);
      if (ec == std::errc::result_out_of_range ||
          (ec == std::errc() && end == value.data() + value.size() && declared > in->limit)) {
        in->too_big = ec == std::errc() ? declared : UINT64_MAX;
        return 0;
      }
      if (ec == std::errc() && end == value.data() + value.size()) grow(response->body, declared, declared);
    }
    response->headers.emplace_back(std::move(name), std::string(value));
  }
  return size * count;
}

/// "3.0 GiB (3221225472 bytes)", "1.5 MiB (1572864 bytes)", "100.0 KiB (102400 bytes)".
std::string describe_size(std::uint64_t bytes) {
  if (bytes == UINT64_MAX) return "more than 2^64 bytes";
  char text[64];
  double gib = static_cast<double>(bytes) / static_cast<double>(std::uint64_t{1} << 30);
  double mib = static_cast<double>(bytes) / static_cast<double>(1 << 20);
  if (gib >= 1) {
    std::snprintf(text, sizeof text, "%.1f GiB", gib);
  } else if (mib >= 1) {
    std::snprintf(text, sizeof text, "%.1f MiB", mib);
  } else {
    std::snprintf(text, sizeof text, "%.1f KiB", static_cast<double>(bytes) / 1024);
  }
  return std::string(text) + " (" + std::to_string(bytes) + " bytes)";
}

/// Whether libcurl may send `method` again by itself: only a request that repeating cannot
/// change (RFC 9110, 9.2.2). libcurl resends a request whose reused connection turns out dead
/// before any answer; on a fresh connection it never does.
bool idempotent(std::string_view method) {
  return method == "GET" || method == "HEAD" || method == "PUT" || method == "DELETE" || method == "OPTIONS";
}

/// Refuses (kUsage) a CA file larger than any bundle of certificates, before libcurl or the
/// decoder reads it whole (a sparse file of gigabytes is read in a moment of the user's time).
Status check_ca_file(const std::string& path) {
  struct stat st {};
  if (path.empty() || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return Done{};  // libcurl says why not
  if (static_cast<std::uint64_t>(st.st_size) > TransportOptions::kMaxCaFileBytes)
    return Error::usage(path + ": " + describe_size(static_cast<std::uint64_t>(st.st_size)) +
                        " is too large for a CA certificate file (at most " +
                        describe_size(TransportOptions::kMaxCaFileBytes) + "); is it the right file?");
  return Done{};
}

// The certificates a connection verifies the server with, decoded once per process and file:
// libcurl would otherwise read and decode the whole CA file for each new connection, each
// worker's first (a fifth of a push's processor time with 16 workers and a one-certificate
// file; the system's bundle holds 140). Each connection gets a store of its own holding the
// same certificates (libcurl sets flags on a connection's store, so one store is not shared).
struct CaCertificates {
  std::vector<X509*> certificates;
  std::vector<X509_CRL*> crls;
  std::string directory;  // a hashed directory OpenSSL looks certificates up in ("": none)

  CaCertificates() = default;
  CaCertificates(const CaCertificates&) = delete;
  CaCertificates& operator=(const CaCertificates&) = delete;
  ~CaCertificates() {
    for (X509* certificate : certificates) X509_free(certificate);
    for (X509_CRL* crl : crls) X509_CRL_free(crl);
  }

  /// A new store with these certificates; null when out of memory.
  [[nodiscard]] X509_STORE* store() const {
    X509_STORE* store = X509_STORE_new();
    if (store == nullptr) return nullptr;
    for (X509* certificate : certificates) X509_STORE_add_cert(store, certificate);
    for (X509_CRL* crl : crls) X509_STORE_add_crl(store, crl);
    if (!directory.empty()) X509_STORE_load_path(store, directory.c_str());
    return store;
  }

  /// Every certificate and CRL of the PEM text `pem`, and the directory `directory`; null when
  /// OpenSSL finds no certificate in them (libcurl then reads them itself and says why not).
  static std::shared_ptr<const CaCertificates> decode(std::string_view pem, const std::string& directory) {
    auto out = std::make_shared<CaCertificates>();
    out->directory = directory;
    if (!pem.empty()) {
      std::unique_ptr<BIO, int (*)(BIO*)> in(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), BIO_free);
      if (in == nullptr) return nullptr;
      auto free_infos = [](STACK_OF(X509_INFO) * list) { sk_X509_INFO_pop_free(list, X509_INFO_free); };
      std::unique_ptr<STACK_OF(X509_INFO), decltype(free_infos)> infos(
          PEM_X509_INFO_read_bio(in.get(), nullptr, nullptr, nullptr), free_infos);
      if (infos == nullptr) return nullptr;
      for (int i = 0; i < sk_X509_INFO_num(infos.get()); ++i) {
        X509_INFO* info = sk_X509_INFO_value(infos.get(), i);
        if (info->x509 != nullptr && X509_up_ref(info->x509) == 1) out->certificates.push_back(info->x509);
        if (info->crl != nullptr && X509_CRL_up_ref(info->crl) == 1) out->crls.push_back(info->crl);
      }
      if (out->certificates.empty()) return nullptr;
    } else if (directory.empty()) {
      return nullptr;
    }
    return out;
  }
};

// The decoded CA files of the process, by file and directory. A file is decoded again when it
// is not the file decoded before (another inode, size or modification time): a test's sandbox
// writes a new CA where the one before it was.
class CaFiles {
 public:
  std::shared_ptr<const CaCertificates> get(const std::string& file, const std::string& directory) {
    struct stat now {};
    if (!file.empty() && ::stat(file.c_str(), &now) != 0) return nullptr;
    const Identity identity{now.st_dev, now.st_ino, now.st_size, now.st_mtim.tv_sec, now.st_mtim.tv_nsec};
    std::lock_guard lock(mutex_);
    Entry& entry = decoded_[file + '\0' + directory];
    if (entry.certificates != nullptr && entry.identity == identity) return entry.certificates;
    std::string bytes;
    if (!file.empty()) {
      auto read = FileText::read(file, TransportOptions::kMaxCaFileBytes);
      if (!read.ok()) return nullptr;
      bytes = read.value().text();
    }
    entry.certificates = CaCertificates::decode(bytes, directory);
    entry.identity = identity;
    return entry.certificates;
  }

 private:
  struct Identity {
    dev_t device;
    ino_t inode;
    off_t size;
    time_t seconds;
    long nanoseconds;
    bool operator==(const Identity&) const = default;
  };
  struct Entry {
    Identity identity{};
    std::shared_ptr<const CaCertificates> certificates;
  };
  std::mutex mutex_;
  std::map<std::string, Entry> decoded_;
};

// Made once and never destroyed: transports may be destroyed during the program's exit.
CaFiles& ca_files() {
  static auto* files = new CaFiles;
  return *files;
}

// Whether libcurl runs on OpenSSL, whose SSL_CTX the context callback receives.
bool curl_uses_openssl() {
  static const bool openssl = [] {
    const curl_version_info_data* info = curl_version_info(CURLVERSION_NOW);
    return info != nullptr && info->ssl_version != nullptr &&
           std::string_view(info->ssl_version).starts_with("OpenSSL/");
  }();
  return openssl;
}

// CURLOPT_SSL_CTX_FUNCTION: the new connection's context verifies with a store of its own
// holding the certificates decoded before (CaCertificates, passed as `certificates`).
CURLcode verify_with(CURL*, void* ssl_ctx, void* certificates) {
  X509_STORE* store = static_cast<const CaCertificates*>(certificates)->store();
  if (store == nullptr) return CURLE_OUT_OF_MEMORY;
  SSL_CTX_set_cert_store(static_cast<SSL_CTX*>(ssl_ctx), store);  // takes it, frees the one before
  return CURLE_OK;
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
    if (auto ca = check_ca_file(options_.cacert); !ca.ok()) return ca.error();
    CURL* c = curl_;
    curl_easy_reset(c);
    HttpResponse response;
    Receiving receiving{
        .response = &response, .limit = options_.max_response_bytes, .header_limit = options_.max_header_bytes};
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
    verify_with_decoded_certificates(c);
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
    auto timeout = request.timeout.count() > 0 ? std::min(request.timeout, options_.timeout) : options_.timeout;
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(std::max<std::int64_t>(timeout.count(), 1)));
    // Sent once: the caller decides what an unknown outcome means (push looks the title up).
    if (!idempotent(request.method)) curl_easy_setopt(c, CURLOPT_FRESH_CONNECT, 1L);
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
    // Not retried, any of the bounds: the same request would bring the same answer.
    if (code != CURLE_OK && receiving.too_big != 0) {
      return Error::service("the response is too large: " + describe_size(receiving.too_big) +
                            "; the client takes at most " + describe_size(options_.max_response_bytes) +
                            " (--max-response)");
    }
    if (code != CURLE_OK && receiving.headers_too_big)
      return Error::service("the response's headers pass " + describe_size(options_.max_header_bytes) +
                            ", the most the client takes");
    // libcurl refuses a header line longer than it holds (CURL_MAX_HTTP_HEADER) as "out of memory".
    if (code == CURLE_OUT_OF_MEMORY && !receiving.body_started)
      return Error::service("a line of the response's headers is longer than " + describe_size(CURL_MAX_HTTP_HEADER) +
                            ", the most libcurl takes");
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
  // The certificates to verify with: options_.cacert, or libcurl's defaults (the system's),
  // decoded once for the process when OpenSSL reads them, else read by libcurl itself.
  void verify_with_decoded_certificates(CURL* c) {
    std::string file = options_.cacert;
    std::string directory;
    if (file.empty()) {
      // After curl_easy_reset: libcurl's built-in defaults.
      char* path = nullptr;
      if (curl_easy_getinfo(c, CURLINFO_CAINFO, &path) == CURLE_OK && path != nullptr) file = path;
      path = nullptr;
      if (curl_easy_getinfo(c, CURLINFO_CAPATH, &path) == CURLE_OK && path != nullptr) directory = path;
    }
    certificates_ = curl_uses_openssl() ? ca_files().get(file, directory) : nullptr;
    if (certificates_ == nullptr) {
      if (!options_.cacert.empty()) curl_easy_setopt(c, CURLOPT_CAINFO, options_.cacert.c_str());
      return;
    }
    curl_easy_setopt(c, CURLOPT_CAINFO, nullptr);
    curl_easy_setopt(c, CURLOPT_CAPATH, nullptr);
    curl_easy_setopt(c, CURLOPT_SSL_CTX_FUNCTION, verify_with);
    curl_easy_setopt(c, CURLOPT_SSL_CTX_DATA, const_cast<CaCertificates*>(certificates_.get()));
  }

  // What the connection being set up verifies with (kept alive while libcurl may use it).
  std::shared_ptr<const CaCertificates> certificates_;
  TransportOptions options_;
  CURL* curl_ = nullptr;
};

}  // namespace

std::unique_ptr<Transport> make_curl_transport(const TransportOptions& options) {
  return std::make_unique<CurlTransport>(options);
}

}  // namespace ptmpl::publish
