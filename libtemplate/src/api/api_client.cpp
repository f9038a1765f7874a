#include "libtemplate/api_client.hpp"
#include "libtemplate/oauth.hpp"

#include <arpa/inet.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <thread>

#include "libtemplate/json.hpp"

namespace ptmpl::api {
namespace {

constexpr const char* kRedacted = "[REDACTED]";
constexpr int kMaxPerPage = 200;  // API reference, Limits

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

/// The service's error envelope as one line: `validation: title can't be blank (field title); …`.
std::string describe_errors(const std::string& body) {
  json::Document doc = json::Document::parse(body);
  const json::Value* errors = doc.root().find("errors");
  if (errors == nullptr || !errors->is_array() || errors->items().empty()) {
    std::string excerpt = body.substr(0, 200);
    return excerpt.empty() ? "no error details" : "unexpected body: " + excerpt;
  }
  std::string out;
  for (const json::Value& e : errors->items()) {
    if (!out.empty()) out += "; ";
    auto str = [&](std::string_view key) {
      const json::Value* v = e.find(key);
      return v != nullptr && v->is_string() ? std::string(v->text()) : std::string();
    };
    std::string type = str("type"), message = str("message"), field = str("field");
    out += (type.empty() ? "error" : type) + ": " + message;
    if (!field.empty()) out += " (field " + field + ")";
  }
  return out;
}

/// One template of an envelope; `body` is the text it was parsed from, of which its `json` is
/// the template's part, as the service wrote it.
Result<RemoteTemplate> read_template(const json::Value& object, std::string_view body) {
  if (!object.is_object()) return Error::service("a template in the response is not an object");
  RemoteTemplate t;
  const json::Value* id = object.find("id");
  if (id == nullptr) return Error::service("a template in the response has no id");
  if (std::optional<std::int64_t> number = id->as_int64()) {
    t.id = *number;
  } else if (id->is_string()) {
    std::string_view s = id->text();
    if (std::from_chars(s.data(), s.data() + s.size(), t.id).ec != std::errc())
      return Error::service("a template in the response has a non-numeric id");
  } else {
    return Error::service("a template in the response has no usable id");
  }
  auto text = [&](std::string_view key) -> std::optional<std::string> {
    const json::Value* v = object.find(key);
    if (v == nullptr || !v->is_string()) return std::nullopt;
    return std::string(v->text());
  };
  t.title = text("title").value_or("");
  t.updated_at = text("updated_at").value_or("");
  t.raw_json = text("raw_json");
  std::uint64_t end = json::value_end(body, object).value_or(object.offset());
  t.json = std::string(body.substr(object.offset(), end - object.offset()));
  return t;
}

/// The templates of an envelope, taken in the order of `results` (API reference, rule 2: the
/// map may hold other objects of the same type, and its order means nothing). Of duplicate
/// keys, the last is used, as everywhere.
Result<TemplatePage> read_envelope(const std::string& body) {
  // The templates' JSON is read again as trees (pull writes it as documents), which keep at
  // most this depth: a deeper response is refused whole rather than cut.
  json::ParseOptions options;
  options.max_depth = json::kMaxDepthLimit;
  json::Document doc = json::Document::parse(body, options);
  if (doc.truncated())
    return Error::service("the response is nested deeper than " + std::to_string(json::kMaxDepthLimit) + " levels");
  if (!doc.ok() || !doc.root().is_object()) return Error::service("the response is not a JSON object");
  const json::Value* results = doc.root().find("results");
  const json::Value* map = doc.root().find("project_templates");
  if (results == nullptr || !results->is_array()) return Error::service("the response has no `results` array");
  TemplatePage page;
  if (const json::Value* count = doc.root().find("count"); count != nullptr && count->as_int64())
    page.count = *count->as_int64();
  for (const json::Value& entry : results->items()) {
    const json::Value* key = entry.find("key");
    const json::Value* id = entry.find("id");
    if (key == nullptr || id == nullptr) continue;
    if (!key->is_string() || key->text() != "project_templates") continue;
    std::string id_text = id->is_string()  ? std::string(id->text())
                          : id->as_int64() ? std::to_string(*id->as_int64())
                                           : std::string();
    if (map == nullptr || !map->is_object()) return Error::service("the response has no `project_templates` map");
    const json::Value* found = map->find(id_text);
    if (found == nullptr) return Error::service("`results` names template " + id_text + ", which the map lacks");
    auto t = read_template(*found, body);
    if (!t.ok()) return t.error();
    page.templates.push_back(std::move(t).value());
  }
  return page;
}

Result<RemoteTemplate> single(const std::string& body) {
  auto page = read_envelope(body);
  if (!page.ok()) return page.error();
  if (page.value().templates.size() != 1)
    return Error::service("expected one template in the response, got " +
                          std::to_string(page.value().templates.size()));
  return std::move(page.value().templates.front());
}

bool is_loopback(std::string host) {
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (iequals(host, "localhost")) return true;
  in_addr v4{};
  if (::inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (::inet_pton(AF_INET6, host.c_str(), &v6) == 1) return IN6_IS_ADDR_LOOPBACK(&v6);
  return false;
}

std::optional<std::chrono::milliseconds> retry_after(const HttpResponse& response) {
  std::string value = response.header("Retry-After");
  long seconds = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size() || seconds < 0) return std::nullopt;
  return std::chrono::milliseconds(seconds * 1000);
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

std::string redact(std::string text, std::string_view secret) {
  if (secret.empty()) return text;
  for (auto at = text.find(secret); at != std::string::npos; at = text.find(secret, at + std::strlen(kRedacted)))
    text.replace(at, secret.size(), kRedacted);
  return text;
}

const std::shared_ptr<Clock>& Clock::system() {
  class SystemClock final : public Clock {
   public:
    [[nodiscard]] time_point now() const override { return std::chrono::steady_clock::now(); }
    void sleep_until(time_point when) override { std::this_thread::sleep_until(when); }
  };
  static const std::shared_ptr<Clock> clock = std::make_shared<SystemClock>();
  return clock;
}

void Pacer::hold(std::chrono::milliseconds wait) {
  std::lock_guard lock(mutex_);
  until_ = std::max(until_, clock_->now() + wait);
}

void Pacer::wait() const {
  Clock::time_point until;
  {
    std::lock_guard lock(mutex_);
    until = until_;
  }
  if (until > clock_->now()) clock_->sleep_until(until);
}

Client::Client(ClientOptions options, std::unique_ptr<Transport> transport)
    : options_(std::move(options)), transport_(std::move(transport)) {
  while (!options_.base_url.empty() && options_.base_url.back() == '/') options_.base_url.pop_back();
  if (!options_.sleep) options_.sleep = [](std::chrono::milliseconds d) { std::this_thread::sleep_for(d); };
  jitter_state_ = options_.jitter_seed != 0
                      ? options_.jitter_seed
                      : static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) | 1;
}

Error Client::fail(Error error) const {
  error.message = redact(std::move(error.message), options_.token);
  return error;
}

std::chrono::milliseconds Client::backoff(int attempt, const HttpResponse* response) {
  // Exponential backoff with "equal jitter": half the step fixed, half random, so concurrent
  // clients spread out but each still waits at least base·2^(n-1)/2.
  auto step = options_.retry.base_delay.count() << std::min(attempt - 1, 20);
  step = std::min<std::int64_t>(step, options_.retry.max_delay.count());
  jitter_state_ ^= jitter_state_ << 13;  // xorshift64
  jitter_state_ ^= jitter_state_ >> 7;
  jitter_state_ ^= jitter_state_ << 17;
  auto half = step / 2;
  std::chrono::milliseconds wait(
      half + (half > 0 ? static_cast<std::int64_t>(jitter_state_ % static_cast<std::uint64_t>(half + 1)) : 0));
  if (response != nullptr) {
    if (auto after = retry_after(*response)) wait = std::max(wait, *after);  // the service knows best
  }
  return std::min(wait, options_.retry.max_delay);
}

Result<HttpResponse> Client::exchange(const std::string& method, const std::string& path, const std::string& body,
                                      const std::string& what, bool idempotent, bool* outcome_unknown) {
  if (auto allowed = check_base_url(options_.base_url); !allowed.ok()) return fail(allowed.error());
  HttpRequest request{method, options_.base_url + path, {{"Authorization", "Bearer " + options_.token}}, body};
  if (!body.empty()) request.headers.emplace_back("Content-Type", "application/json");
  std::string last_problem;
  bool lost_response = false;  // the last attempt got no answer at all
  for (int attempt = 1; attempt <= options_.retry.max_attempts; ++attempt) {
    if (options_.pacer) options_.pacer->wait();
    if (options_.trace != nullptr)
      *options_.trace << redact("> " + method + " " + request.url + " (attempt " + std::to_string(attempt) +
                                    ")\n> Authorization: Bearer " + options_.token + "\n",
                                options_.token);
    auto sent = transport_->send(request);
    if (!sent.ok()) {
      last_problem = "no response: " + sent.error().message;
      if (options_.trace != nullptr) *options_.trace << redact("< " + last_problem + "\n", options_.token);
      lost_response = true;
      // Only a lost response is worth another attempt; a certificate that does not verify or a
      // malformed URL fails the same way every time.
      if (sent.error().code != ErrorCode::kNetwork) return fail({sent.error().code, what + ": " + last_problem});
      if (!idempotent) {
        if (outcome_unknown != nullptr) *outcome_unknown = true;
        return fail(Error::network(what + ": " + last_problem));
      }
      if (attempt < options_.retry.max_attempts) options_.sleep(backoff(attempt, nullptr));
      continue;
    }
    HttpResponse& response = sent.value();
    lost_response = false;
    if (options_.trace != nullptr)
      *options_.trace << redact(
          "< HTTP " + std::to_string(response.status) + " (" + std::to_string(response.body.size()) + " bytes)\n",
          options_.token);
    if (response.status == 429 || response.status == 503) {
      last_problem = "HTTP " + std::to_string(response.status) + ": " + describe_errors(response.body);
      if (attempt < options_.retry.max_attempts) {
        auto wait = backoff(attempt, &response);
        if (options_.pacer) options_.pacer->hold(wait);
        options_.sleep(wait);
      }
      continue;
    }
    if (response.status < 200 || response.status > 299)
      return fail({response.status == 404 ? ErrorCode::kNotFound : ErrorCode::kService,
                   what + ": HTTP " + std::to_string(response.status) + ": " + describe_errors(response.body)});
    return std::move(response);
  }
  return fail(
      {lost_response ? ErrorCode::kNetwork : ErrorCode::kService,
       what + ": gave up after " + std::to_string(options_.retry.max_attempts) + " attempts; last: " + last_problem});
}

Result<TemplatePage> Client::list(const ListQuery& query) {
  if (query.per_page < 1 || query.per_page > kMaxPerPage) return fail(Error::usage("per_page must be from 1 to 200"));
  std::string path =
      "/project_templates.json?page=" + std::to_string(query.page) + "&per_page=" + std::to_string(query.per_page);
  if (query.mine) path += "&mine=true";
  if (!query.by_title.empty()) path += "&by_title=" + url_encode(query.by_title);
  if (!query.order.empty()) path += "&order=" + url_encode(query.order);
  if (!query.only.empty()) {
    std::string ids;
    for (auto id : query.only) ids += (ids.empty() ? "" : ",") + std::to_string(id);
    path += "&only=" + url_encode(ids);
  }
  if (query.with_raw_json) path += "&optional_fields=raw_json";
  auto response = exchange("GET", path, "", "listing templates", true);
  if (!response.ok()) return response.error();
  auto page = read_envelope(response.value().body);
  if (!page.ok()) return fail(page.error().within("listing templates"));
  return page;
}

Result<std::vector<RemoteTemplate>> Client::list_all(ListQuery query) {
  bool with_raw_json = query.with_raw_json && query.only.empty();
  if (with_raw_json) query.with_raw_json = false;  // fetched below by `only`, as the service requires
  query.per_page = kMaxPerPage;
  std::vector<RemoteTemplate> all;
  for (query.page = 1;; ++query.page) {
    auto page = list(query);
    if (!page.ok()) return page.error();
    for (auto& t : page.value().templates) all.push_back(std::move(t));
    if (page.value().templates.empty() || static_cast<std::int64_t>(all.size()) >= page.value().count) break;
  }
  if (!with_raw_json) return all;
  for (std::size_t first = 0; first < all.size(); first += kMaxPerPage) {
    ListQuery batch;
    batch.per_page = kMaxPerPage;
    batch.with_raw_json = true;
    for (std::size_t i = first; i < std::min(all.size(), first + kMaxPerPage); ++i) batch.only.push_back(all[i].id);
    auto page = list(batch);
    if (!page.ok()) return page.error();
    for (auto& t : page.value().templates) {
      for (std::size_t i = first; i < std::min(all.size(), first + kMaxPerPage); ++i)
        if (all[i].id == t.id) all[i] = std::move(t);
    }
  }
  return all;
}

Result<RemoteTemplate> Client::get(std::int64_t id, bool with_raw_json) {
  std::string what = "reading template " + std::to_string(id);
  auto response = exchange(
      "GET", "/project_templates/" + std::to_string(id) + ".json" + (with_raw_json ? "?optional_fields=raw_json" : ""),
      "", what, true);
  if (!response.ok()) return response.error();
  auto t = single(response.value().body);
  if (!t.ok()) return fail(t.error().within(what));
  return t;
}

Result<std::vector<RemoteTemplate>> Client::find_by_title(const std::string& title) {
  ListQuery query;
  query.mine = true;
  query.by_title = title;
  auto found = list_all(query);
  if (!found.ok()) return found.error();
  std::vector<RemoteTemplate> exact;
  for (auto& t : found.value())
    if (t.title == title) exact.push_back(std::move(t));
  std::sort(exact.begin(), exact.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return exact;
}

Result<RemoteTemplate> Client::create(const std::string& body, const std::string& title) {
  std::string what = "creating template \"" + title + "\"";
  std::string last_problem;
  for (int attempt = 1; attempt <= options_.retry.max_attempts; ++attempt) {
    bool unknown = false;
    auto response = exchange("POST", "/project_templates.json", body, what, false, &unknown);
    if (response.ok()) {
      auto t = single(response.value().body);
      if (!t.ok()) return fail(t.error().within(what));
      return t;
    }
    if (!unknown) return response.error();
    // The POST may or may not have been applied: look before trying again (SPEC §8).
    last_problem = response.error().message;
    auto existing = find_by_title(title);
    if (!existing.ok())
      return fail({existing.error().code, last_problem + "; then, looking the title up: " + existing.error().message});
    if (!existing.value().empty()) return get(existing.value().back().id, true);
    if (attempt < options_.retry.max_attempts) options_.sleep(backoff(attempt, nullptr));
  }
  return fail(Error::network(what + ": gave up after " + std::to_string(options_.retry.max_attempts) +
                             " attempts; last: " + last_problem));
}

Result<RemoteTemplate> Client::update(std::int64_t id, const std::string& body, const std::string& title) {
  std::string what = "updating template " + std::to_string(id) + " \"" + title + "\"";
  auto response = exchange("PUT", "/project_templates/" + std::to_string(id) + ".json", body, what, true);
  if (!response.ok()) return response.error();
  auto t = single(response.value().body);
  if (!t.ok()) return fail(t.error().within(what));
  return t;
}

}  // namespace ptmpl::api
