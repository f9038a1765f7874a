#include "libtemplate/api_client.hpp"

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

#include <rapidjson/document.h>

#include "json_nesting.hpp"
#include "libtemplate/json.hpp"
#include "rapidjson_emit.hpp"

namespace ptmpl::api {
namespace {

constexpr const char* kRedacted = "[REDACTED]";
constexpr int kMaxPerPage = 200;  // API reference, Limits

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string json_text(const rapidjson::Value& value) {
  JsonEmitter json(JsonLayout::Compact);
  detail::emit(value, json);
  return json.finish();
}

/// The service's error envelope as one line: `validation: title can't be blank (field title); …`.
std::string describe_errors(const std::string& body) {
  rapidjson::Document doc;
  detail::parse_iteratively(doc, body);
  if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("errors") || !doc["errors"].IsArray() ||
      doc["errors"].Empty()) {
    std::string excerpt = body.substr(0, 200);
    return excerpt.empty() ? "no error details" : "unexpected body: " + excerpt;
  }
  std::string out;
  for (const auto& e : doc["errors"].GetArray()) {
    if (!out.empty()) out += "; ";
    auto str = [&](const char* key) {
      return e.IsObject() && e.HasMember(key) && e[key].IsString() ? std::string(e[key].GetString()) : std::string();
    };
    std::string type = str("type"), message = str("message"), field = str("field");
    out += (type.empty() ? "error" : type) + ": " + message;
    if (!field.empty()) out += " (field " + field + ")";
  }
  return out;
}

Result<RemoteTemplate> read_template(const rapidjson::Value& object) {
  if (!object.IsObject()) return Error::service("a template in the response is not an object");
  RemoteTemplate t;
  auto id = object.FindMember("id");
  if (id == object.MemberEnd()) return Error::service("a template in the response has no id");
  if (id->value.IsInt64()) {
    t.id = id->value.GetInt64();
  } else if (id->value.IsString()) {
    std::string_view s(id->value.GetString(), id->value.GetStringLength());
    if (std::from_chars(s.data(), s.data() + s.size(), t.id).ec != std::errc())
      return Error::service("a template in the response has a non-numeric id");
  } else {
    return Error::service("a template in the response has no usable id");
  }
  if (auto v = object.FindMember("title"); v != object.MemberEnd() && v->value.IsString())
    t.title = v->value.GetString();
  if (auto v = object.FindMember("updated_at"); v != object.MemberEnd() && v->value.IsString())
    t.updated_at = v->value.GetString();
  if (auto v = object.FindMember("raw_json"); v != object.MemberEnd() && v->value.IsString())
    t.raw_json = std::string(v->value.GetString(), v->value.GetStringLength());
  t.json = json_text(object);
  return t;
}

/// The templates of an envelope, taken in the order of `results` (API reference, rule 2: the
/// map may hold other objects of the same type, and its order means nothing).
Result<TemplatePage> read_envelope(const std::string& body) {
  rapidjson::Document doc;
  // Each template is copied out with Accept(), which recurses once per level.
  if (detail::json_nesting(body) > json::kMaxDepthLimit)
    return Error::service("the response is nested deeper than " + std::to_string(json::kMaxDepthLimit) + " levels");
  detail::parse_iteratively(doc, body);
  if (doc.HasParseError() || !doc.IsObject()) return Error::service("the response is not a JSON object");
  auto results = doc.FindMember("results");
  auto map = doc.FindMember("project_templates");
  if (results == doc.MemberEnd() || !results->value.IsArray())
    return Error::service("the response has no `results` array");
  TemplatePage page;
  if (auto count = doc.FindMember("count"); count != doc.MemberEnd() && count->value.IsInt64())
    page.count = count->value.GetInt64();
  for (const auto& entry : results->value.GetArray()) {
    if (!entry.IsObject() || !entry.HasMember("key") || !entry.HasMember("id")) continue;
    if (!entry["key"].IsString() || std::string_view(entry["key"].GetString()) != "project_templates") continue;
    std::string id = entry["id"].IsString()  ? entry["id"].GetString()
                     : entry["id"].IsInt64() ? std::to_string(entry["id"].GetInt64())
                                             : std::string();
    if (map == doc.MemberEnd() || !map->value.IsObject())
      return Error::service("the response has no `project_templates` map");
    auto found = map->value.FindMember(id.c_str());
    if (found == map->value.MemberEnd())
      return Error::service("`results` names template " + id + ", which the map lacks");
    auto t = read_template(found->value);
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

Result<std::string> load_token(const std::string& token_file) {
  std::string token;
  if (!token_file.empty()) {
    struct stat st {};
    if (::stat(token_file.c_str(), &st) != 0)
      return Error::unreadable(token_file + ": cannot read the token file: " + std::strerror(errno));
    if ((st.st_mode & 077) != 0)
      return Error::usage(token_file + ": the token file is readable by group or others; refused (chmod 600 " +
                          token_file + ")");
    std::ifstream in(token_file);
    if (!in) return Error::unreadable(token_file + ": cannot read the token file");
    token.assign(std::istreambuf_iterator<char>(in), {});
  } else if (const char* env = std::getenv("PTMPL_TOKEN"); env != nullptr) {
    token = env;
  } else {
    return Error::usage(
        "no access token: set PTMPL_TOKEN or pass --token-file (docs/commands/push.md explains tokens)");
  }
  auto first = token.find_first_not_of(" \t\r\n");
  auto last = token.find_last_not_of(" \t\r\n");
  token = first == std::string::npos ? "" : token.substr(first, last - first + 1);
  if (token.empty())
    return Error::usage((token_file.empty() ? std::string("PTMPL_TOKEN") : token_file) + ": the access token is empty");
  if (token.find_first_of(" \t\r\n") != std::string::npos)
    return Error::usage((token_file.empty() ? std::string("PTMPL_TOKEN") : token_file) +
                        ": the access token has spaces or several lines");
  return token;
}

std::string redact(std::string text, std::string_view secret) {
  if (secret.empty()) return text;
  for (auto at = text.find(secret); at != std::string::npos; at = text.find(secret, at + std::strlen(kRedacted)))
    text.replace(at, secret.size(), kRedacted);
  return text;
}

void Pacer::hold(std::chrono::milliseconds wait) {
  std::lock_guard lock(mutex_);
  until_ = std::max(until_, std::chrono::steady_clock::now() + wait);
}

void Pacer::wait() const {
  std::chrono::steady_clock::time_point until;
  {
    std::lock_guard lock(mutex_);
    until = until_;
  }
  if (until > std::chrono::steady_clock::now()) std::this_thread::sleep_until(until);
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
