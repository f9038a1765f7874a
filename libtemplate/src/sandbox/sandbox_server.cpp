// `ptmpl sandbox`: the project templates endpoints of the API reference over cpp-httplib.
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <netdb.h>
#include <openssl/rand.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>

#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/publish/api_client.hpp"
#include "libtemplate/sandbox/sandbox.hpp"
#include "sandbox/bounded_server.hpp"
#include "sandbox/certificate.hpp"
#include "sandbox/request.hpp"
#include "sandbox/template_store.hpp"
#include "sandbox/workspace_store.hpp"

namespace ptmpl {
namespace {

using sandbox::FieldError;
using sandbox::ListRequest;
using sandbox::parse_int;
using sandbox::RequestError;
using sandbox::StoredTemplate;
using sandbox::StoredWorkspace;
using sandbox::TemplateQuery;
using sandbox::TemplateStore;
using sandbox::WorkspaceStore;

constexpr const char* kCollection = "/api/v1/project_templates.json";
constexpr const char* kMember = R"(/api/v1/project_templates/(\d+)\.json)";
constexpr const char* kWorkspaces = "/api/v1/workspaces.json";
constexpr const char* kWorkspace = R"(/api/v1/workspaces/(\d+)\.json)";
/// Requests served on one kept-alive connection before it is closed.
constexpr std::size_t kKeepAliveRequests = 1000;

void send_errors(httplib::Response& res, int status, const std::vector<FieldError>& errors) {
  JsonEmitter json(JsonLayout::Compact);
  json.begin_object();
  json.key("errors");
  json.begin_array();
  for (const auto& e : errors) {
    json.begin_object();
    json.member("type", e.type);
    json.member("message", e.message);
    if (!e.field.empty()) json.member("field", e.field);
    json.end_object();
  }
  json.end_array();
  json.end_object();
  res.status = status;
  res.set_content(json.finish(), "application/json");
}

void send_error(httplib::Response& res, int status, std::string type, std::string message, std::string field = "") {
  send_errors(res, status, {FieldError{std::move(type), std::move(message), std::move(field)}});
}

/// The envelope of the API reference: count, meta, results in order, the map `key` of the
/// records of `page` keyed by id (each written by `write`), then what `more` adds.
template <typename Record>
std::string envelope(std::string_view key, const std::vector<Record>& page, std::size_t count, std::int64_t page_number,
                     std::int64_t page_size, const std::function<void(const Record&, JsonEmitter&)>& write,
                     const std::function<void(JsonEmitter&)>& more = {}) {
  JsonEmitter json(JsonLayout::Compact);
  json.begin_object();
  json.member("count", count);
  json.key("meta");
  json.begin_object();
  json.member("count", count);
  const auto size = static_cast<std::size_t>(page_size);
  json.member("page_count", size > 0 ? (count + size - 1) / size : 1);
  json.member("page_number", page_number);
  json.member("page_size", page_size);
  json.end_object();
  json.key("results");
  json.begin_array();
  for (const auto& r : page) {
    json.begin_object();
    json.member("key", key);
    json.member("id", std::to_string(r.id));
    json.end_object();
  }
  json.end_array();
  json.key(key);
  json.begin_object();
  for (const auto& r : page) {
    json.key(std::to_string(r.id));
    write(r, json);
  }
  json.end_object();
  if (more) more(json);
  json.end_object();
  return json.finish();
}

/// The templates' envelope; `include_users` adds the `users` map of their owners.
std::string template_envelope(const std::vector<StoredTemplate>& page, std::size_t count, bool with_raw_json,
                              std::int64_t page_number, std::int64_t page_size, bool include_users) {
  auto users = [&](JsonEmitter& json) {
    json.key("users");
    json.begin_object();
    std::vector<std::int64_t> ids;
    for (const auto& t : page)
      if (std::find(ids.begin(), ids.end(), t.user_id) == ids.end()) ids.push_back(t.user_id);
    for (auto id : ids) {
      json.key(std::to_string(id));
      json.begin_object();
      json.member("id", std::to_string(id));
      json.end_object();
    }
    json.end_object();
  };
  return envelope<StoredTemplate>(
      "project_templates", page, count, page_number, page_size,
      [&](const StoredTemplate& t, JsonEmitter& json) { sandbox::write_template_json(t, with_raw_json, json); },
      include_users ? std::function<void(JsonEmitter&)>(users) : nullptr);
}

std::string workspace_envelope(const std::vector<StoredWorkspace>& page, std::size_t count, std::int64_t page_number,
                               std::int64_t page_size) {
  return envelope<StoredWorkspace>("workspaces", page, count, page_number, page_size, sandbox::write_workspace_json);
}

/// The matches on the page `paging` asks for.
template <typename Record>
std::vector<Record> page_of(const std::vector<Record>& matches, const sandbox::Paging& paging) {
  auto [first, size] = paging.slice();
  std::vector<Record> page;
  for (std::size_t i = first; i < matches.size() && page.size() < size; ++i) page.push_back(matches[i]);
  return page;
}

}  // namespace

Result<std::vector<SandboxToken>> read_tokens_file(const std::string& path) {
  auto text = read_private_file(path, "tokens", FileKinds::kRegularOnly);
  if (!text.ok()) return text.error();
  std::istringstream in(std::move(text).value());
  std::vector<SandboxToken> tokens;
  std::map<std::string, std::pair<int, std::int64_t>, std::less<>> seen;  // token: its line and user
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    std::istringstream fields(line);
    std::string token, user, extra;
    if (!(fields >> token) || token[0] == '#') continue;
    auto user_id = fields >> user ? parse_int(user) : std::nullopt;
    if (!user_id || *user_id <= 0 || (fields >> extra))
      return Error::invalid(path + ":" + std::to_string(number) + ": expected `token user_id` (a positive integer)");
    auto [first, added] = seen.try_emplace(token, number, *user_id);
    if (!added && first->second.second != *user_id)
      return Error::invalid(path + ":" + std::to_string(number) + ": the token of line " +
                            std::to_string(first->second.first) + " (user " + std::to_string(first->second.second) +
                            ") is given to user " + std::to_string(*user_id) +
                            " here; a token must stand for one user");
    tokens.push_back({token, *user_id});
  }
  if (tokens.empty()) return Error::invalid(path + ": no tokens (one `token user_id` pair per line)");
  return tokens;
}

// Named, not anonymous: Sandbox::Impl, a class with linkage, holds a list of them, which a unity
// build of the library would warn about (-Wsubobject-linkage).
namespace sandbox {

struct OAuthClient {
  std::string id, secret, redirect_uri;
};

}  // namespace sandbox

namespace {

using sandbox::OAuthClient;

Result<std::vector<OAuthClient>> read_oauth_clients(const std::string& path) {
  auto text = read_private_file(path, "OAuth clients", FileKinds::kRegularOnly);
  if (!text.ok()) return text.error();
  std::istringstream in(std::move(text).value());
  std::vector<OAuthClient> clients;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    std::istringstream fields(line);
    OAuthClient c;
    std::string extra;
    if (!(fields >> c.id) || c.id[0] == '#') continue;
    if (!(fields >> c.secret >> c.redirect_uri) || (fields >> extra))
      return Error::invalid(path + ":" + std::to_string(number) + ": expected `client_id client_secret redirect_uri`");
    clients.push_back(std::move(c));
  }
  return clients;
}

std::string random_hex(std::size_t bytes) {
  std::vector<unsigned char> raw(bytes);
  if (RAND_bytes(raw.data(), static_cast<int>(raw.size())) != 1) return {};
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned char b : raw) {
    out += hex[b >> 4];
    out += hex[b & 15];
  }
  return out;
}

/// A host as it stands in a URL: an IPv6 address in brackets.
std::string bracketed(const std::string& host) {
  return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}

/// Why `host:port` cannot be listened on, in the system's words: the server library only says
/// that it failed, so the steps it takes are taken again here (address lookup, socket, bind,
/// listen) and the first that fails is named.
std::string listen_failure(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  if (int gai = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found); gai != 0)
    return std::string("the address does not resolve: ") + ::gai_strerror(gai);
  std::string reason = "no address of it could be used";
  for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
    int sock = ::socket(a->ai_family, a->ai_socktype, a->ai_protocol);
    if (sock < 0) {
      reason = std::string("socket: ") + std::strerror(errno);
      continue;
    }
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (::bind(sock, a->ai_addr, a->ai_addrlen) != 0) {
      reason = std::strerror(errno);
    } else if (::listen(sock, 1) != 0) {
      reason = std::string("listen: ") + std::strerror(errno);
    } else {
      reason = "it was in use a moment ago and is free now; try again";
    }
    ::close(sock);
  }
  ::freeaddrinfo(found);
  return reason;
}

std::string with_query(const std::string& uri, const std::string& query) {
  return uri + (uri.find('?') == std::string::npos ? "?" : "&") + query;
}

}  // namespace

struct Sandbox::Impl {
  SandboxOptions options;
  std::unique_ptr<sandbox::BoundedServer> server;
  // httplib's stop() does nothing until listen_after_bind() is running, so a stop that comes
  // first would be lost and serve() would block for ever: these two settle that race.
  std::atomic<bool> serving{false};
  std::atomic<bool> stopping{false};
  std::unique_ptr<TemplateStore> store;
  std::unique_ptr<WorkspaceStore> workspaces;
  mutable std::mutex tokens_mutex;  // guards tokens: /oauth/token adds to them
  std::vector<SandboxToken> tokens;
  std::vector<OAuthClient> oauth_clients;
  struct Grant {
    std::string client_id, redirect_uri;
    std::int64_t user_id = 0;
    std::chrono::steady_clock::time_point expires;
  };
  std::map<std::string, Grant> grants;  // by code; guarded by tokens_mutex
  std::string issued_tokens_path;       // tokens issued by /oauth/token, kept across restarts
  std::vector<SandboxToken> issued;
  std::string ca_path = "-";
  std::string base_url;
  std::mutex random_mutex;
  std::mt19937_64 random;
  // --hold-after: templates created or updated so far, and where held requests wait for stop().
  std::atomic<std::int64_t> writes{0};
  std::mutex hold_mutex;
  std::condition_variable hold_released;

  enum class Fault { kNone, k429, k503, kDrop, kDropAfter };

  Fault draw_fault() {
    if (options.fail_rate <= 0 || options.faults.empty()) return Fault::kNone;
    std::lock_guard lock(random_mutex);
    if (std::uniform_real_distribution<double>(0, 1)(random) >= options.fail_rate) return Fault::kNone;
    const std::string& kind =
        options.faults[std::uniform_int_distribution<std::size_t>(0, options.faults.size() - 1)(random)];
    if (kind == "429") return Fault::k429;
    if (kind == "503") return Fault::k503;
    if (kind == "drop") return Fault::kDrop;
    return Fault::kDropAfter;
  }

  static void drop_connection(httplib::Response& res) {
    // A chunked body whose provider fails: the connection is closed mid-response.
    res.body.clear();
    res.headers.erase("Content-Type");
    res.set_chunked_content_provider("application/json", [](std::size_t, httplib::DataSink&) { return false; });
  }

  std::optional<std::int64_t> authenticate(const httplib::Request& req) const {
    // The header's whole value, read from the headers themselves: get_header_value() gives it
    // as a C string, so `Bearer tok\0junk` read as `Bearer tok`. Two Authorization headers
    // are refused rather than one of them chosen.
    auto [header, end] = req.headers.equal_range("Authorization");
    if (header == end || std::next(header) != end) return std::nullopt;
    constexpr std::string_view kBearer = "Bearer ";
    const std::string_view value = header->second;
    if (!value.starts_with(kBearer)) return std::nullopt;
    std::string_view token = value.substr(kBearer.size());
    std::lock_guard lock(tokens_mutex);
    for (const auto& t : tokens)
      if (t.token == token) return t.user_id;
    return std::nullopt;
  }

  using Handler = void (Impl::*)(const httplib::Request&, httplib::Response&, std::int64_t user);

  httplib::Server::Handler route(Handler handler) {
    return [this, handler](const httplib::Request& req, httplib::Response& res) {
      if (options.hold_after > 0 && writes >= options.hold_after) {
        // Never answered: the client is stopped mid-run for as long as the server lives.
        std::unique_lock lock(hold_mutex);
        hold_released.wait(lock, [this] { return stopping.load(); });
        drop_connection(res);
        return;
      }
      Fault fault = draw_fault();
      if (fault == Fault::k429) {
        res.set_header("Retry-After", std::to_string(options.retry_after_seconds));
        send_error(
            res, 429, "system",
            "too many requests; retry after " + std::to_string(options.retry_after_seconds) + " s (injected fault)");
        return;
      }
      if (fault == Fault::k503) {
        send_error(res, 503, "system", "service unavailable (injected fault)");
        return;
      }
      if (fault == Fault::kDrop) {
        drop_connection(res);
        return;
      }
      auto user = authenticate(req);
      if (!user) {
        res.set_header("WWW-Authenticate", "Bearer");
        send_error(res, 401, "oauth", "invalid or missing access token");
        return;
      }
      (this->*handler)(req, res, *user);
      if ((req.method == "POST" || req.method == "PUT") && res.status >= 200 && res.status <= 299) ++writes;
      if (fault == Fault::kDropAfter) drop_connection(res);
    };
  }

  const OAuthClient* oauth_client(const std::string& id) const {
    for (const auto& c : oauth_clients)
      if (c.id == id) return &c;
    return nullptr;
  }

  static void oauth_error(httplib::Response& res, int status, const std::string& error,
                          const std::string& description) {
    JsonEmitter json(JsonLayout::Compact);
    json.begin_object();
    json.member("error", error);
    json.member("error_description", description);
    json.end_object();
    res.status = status;
    res.set_content(json.finish(), "application/json");
  }

  // API reference, Authentication: the user is sent here; the sandbox approves at once as
  // `oauth_user_id` (or refuses when `deny=1`, to rehearse the error path) and redirects.
  void authorize(const httplib::Request& req, httplib::Response& res) {
    auto param = [&](const char* name) { return req.has_param(name) ? req.get_param_value(name) : std::string(); };
    const OAuthClient* client = oauth_client(param("client_id"));
    if (client == nullptr) return oauth_error(res, 400, "invalid_client", "unknown client_id");
    if (param("redirect_uri") != client->redirect_uri)
      return oauth_error(res, 400, "invalid_request", "redirect_uri does not match the registered callback");
    std::string state = req.has_param("state") ? "&state=" + publish::url_encode(param("state")) : "";
    if (param("response_type") != "code") {
      res.set_redirect(with_query(client->redirect_uri, "error=unsupported_response_type&error_description=" +
                                                            publish::url_encode("response_type must be code") + state));
      return;
    }
    if (param("deny") == "1") {
      res.set_redirect(with_query(client->redirect_uri, "error=access_denied&error_description=" +
                                                            publish::url_encode("the user refused access") + state));
      return;
    }
    std::string code = random_hex(16);
    {
      std::lock_guard lock(tokens_mutex);
      grants[code] = Grant{client->id, client->redirect_uri, options.oauth_user_id,
                           std::chrono::steady_clock::now() + std::chrono::minutes(5)};  // reference: 5 minutes
    }
    res.set_redirect(with_query(client->redirect_uri, "code=" + code + state));
  }

  void token(const httplib::Request& req, httplib::Response& res) {
    std::map<std::string, std::string> fields;
    json::Document doc = json::Document::parse(req.body);
    if (doc.ok() && doc.root().is_object()) {
      for (const json::Member& m : doc.root().members())  // of duplicate keys, the last stays
        if (m.value.is_string()) fields[std::string(m.key.text())] = m.value.text();
    } else {
      for (const auto& [key, value] : req.params) fields[key] = value;  // form-urlencoded body
    }
    const OAuthClient* client = oauth_client(fields["client_id"]);
    if (client == nullptr || fields["client_secret"] != client->secret)
      return oauth_error(res, 401, "invalid_client", "unknown client_id or wrong client_secret");
    if (fields["grant_type"] != "authorization_code")
      return oauth_error(res, 400, "unsupported_grant_type", "grant_type must be authorization_code");
    SandboxToken issued_token;
    {
      std::lock_guard lock(tokens_mutex);
      auto grant = grants.find(fields["code"]);
      if (grant == grants.end() || grant->second.client_id != client->id ||
          grant->second.expires < std::chrono::steady_clock::now())
        return oauth_error(res, 400, "invalid_grant", "the code is unknown, used or expired");
      if (fields["redirect_uri"] != grant->second.redirect_uri)
        return oauth_error(res, 400, "invalid_grant", "redirect_uri differs from the authorization request");
      issued_token = SandboxToken{random_hex(32), grant->second.user_id};
      grants.erase(grant);  // a code is used once
      issued.push_back(issued_token);
      std::string text;
      for (const auto& t : issued) text += t.token + " " + std::to_string(t.user_id) + "\n";
      if (auto s = write_file_atomic(issued_tokens_path, text); !s.ok())
        return oauth_error(res, 503, "temporarily_unavailable", "cannot store the token");
      tokens.push_back(issued_token);
    }
    JsonEmitter json(JsonLayout::Compact);
    json.begin_object();
    json.member("access_token", issued_token.token);
    json.member("token_type", "bearer");
    json.end_object();
    res.set_content(json.finish(), "application/json");
  }

  void list(const httplib::Request& req, httplib::Response& res, std::int64_t user) {
    auto read = sandbox::read_list_request(req.params);
    if (const auto* refused = std::get_if<RequestError>(&read))
      return send_errors(res, refused->status, refused->errors);
    const ListRequest& request = std::get<ListRequest>(read);
    auto matches = store->query(user, request.query);
    res.set_content(template_envelope(page_of(matches, request), matches.size(), request.with_raw_json, request.page,
                                      request.per_page, request.include_users),
                    "application/json");
  }

  std::optional<StoredTemplate> visible(const httplib::Request& req, httplib::Response& res, std::int64_t user) {
    auto id = parse_int(req.matches[1].str());
    auto t = id ? store->find(*id) : std::nullopt;
    if (!t || (t->user_id != user && !t->shared)) {
      send_error(res, 404, "system", "project template " + req.matches[1].str() + " not found");
      return std::nullopt;
    }
    return t;
  }

  void show(const httplib::Request& req, httplib::Response& res, std::int64_t user) {
    auto t = visible(req, res, user);
    if (!t) return;
    res.set_content(template_envelope({*t}, 1, sandbox::wants_raw_json(req.params), 1, 1, false), "application/json");
  }

  void respond_stored(httplib::Response& res, const Result<StoredTemplate>& stored) {
    if (!stored.ok()) return send_error(res, 503, "system", "cannot store the template: " + stored.error().message);
    res.set_content(template_envelope({stored.value()}, 1, true, 1, 1, false), "application/json");
  }

  void create(const httplib::Request& req, httplib::Response& res, std::int64_t user) {
    StoredTemplate t;
    t.user_id = user;
    if (auto refused = sandbox::apply_template_body(req.body, t, true))
      return send_errors(res, refused->status, refused->errors);
    respond_stored(res, store->create(std::move(t)));
  }

  void update(const httplib::Request& req, httplib::Response& res, std::int64_t user) {
    auto t = visible(req, res, user);
    if (!t) return;
    if (t->user_id != user)
      return send_error(res, 403, "system", "project template " + std::to_string(t->id) + " belongs to another user");
    if (auto refused = sandbox::apply_template_body(req.body, *t, false))
      return send_errors(res, refused->status, refused->errors);
    respond_stored(res, store->update(std::move(*t)));
  }

  void list_workspaces(const httplib::Request& req, httplib::Response& res, std::int64_t user) {
    auto read = sandbox::read_workspace_list_request(req.params);
    if (const auto* refused = std::get_if<RequestError>(&read))
      return send_errors(res, refused->status, refused->errors);
    const auto& request = std::get<sandbox::WorkspaceListRequest>(read);
    auto matches = workspaces->query(user, request.query);
    res.set_content(workspace_envelope(page_of(matches, request), matches.size(), request.page, request.per_page),
                    "application/json");
  }

  /// The workspace of the route's id when `user` participates in it (its creator, here) and it is
  /// not archived, unless `include_archived`; else answers 404 (API reference: show routes).
  std::optional<StoredWorkspace> participating(const httplib::Request& req, httplib::Response& res, std::int64_t user,
                                               bool include_archived) {
    auto id = parse_int(req.matches[1].str());
    auto w = id ? workspaces->find(*id) : std::nullopt;
    if (!w || w->creator_id != user || (w->archived && !include_archived)) {
      send_error(res, 404, "system", "workspace " + req.matches[1].str() + " not found");
      return std::nullopt;
    }
    return w;
  }

  void show_workspace(const httplib::Request& req, httplib::Response& res, std::int64_t user) {
    auto w = participating(req, res, user, sandbox::wants_archived(req.params));
    if (!w) return;
    res.set_content(workspace_envelope({*w}, 1, 1, 1), "application/json");
  }

  void respond_stored(httplib::Response& res, const Result<StoredWorkspace>& stored) {
    if (!stored.ok()) return send_error(res, 503, "system", "cannot store the workspace: " + stored.error().message);
    res.set_content(workspace_envelope({stored.value()}, 1, 1, 1), "application/json");
  }

  void create_workspace(const httplib::Request& req, httplib::Response& res, std::int64_t user) {
    StoredWorkspace w;
    w.creator_id = user;
    auto template_visible = [&](std::int64_t id) {
      auto t = store->find(id);
      return t && (t->user_id == user || t->shared);
    };
    if (auto refused = sandbox::apply_workspace_body(req.body, w, true, template_visible))
      return send_errors(res, refused->status, refused->errors);
    respond_stored(res, workspaces->create(std::move(w)));
  }

  void update_workspace(const httplib::Request& req, httplib::Response& res, std::int64_t user) {
    // An archived workspace is updated too: setting archived to false brings it back.
    auto w = participating(req, res, user, true);
    if (!w) return;
    if (auto refused = sandbox::apply_workspace_body(req.body, *w, false, [](std::int64_t) { return false; }))
      return send_errors(res, refused->status, refused->errors);
    respond_stored(res, workspaces->update(std::move(*w)));
  }
};

Sandbox::Sandbox(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Sandbox::~Sandbox() = default;

Result<std::unique_ptr<Sandbox>> Sandbox::start(const SandboxOptions& options) {
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  impl->random.seed(options.seed);
  for (const auto& kind : options.faults)
    if (kind != "429" && kind != "503" && kind != "drop" && kind != "drop-after")
      return Error::usage("unknown fault '" + kind + "' (expected 429, 503, drop or drop-after)");
  if (options.fail_rate < 0 || options.fail_rate > 1) return Error::usage("--fail-rate must be between 0 and 1");
  if (options.head_timeout_seconds < 1) return Error::usage("--head-timeout must be at least 1 second");
  if (options.max_connections_per_client < 1) return Error::usage("--max-connections-per-client must be at least 1");
  if (options.data_dir.empty()) return Error::usage("a data directory is required (--data-dir)");
  // The client's own rule (docs/semantics.md §11 "Secrets"): tokens travel over plain HTTP only to a
  // loopback address, so the sandbox serves plain HTTP nowhere else.
  if (options.http && !publish::check_base_url("http://" + bracketed(options.host) + "/").ok())
    return Error::usage("--http serves plain HTTP only on a loopback address (such as 127.0.0.1 or ::1), not on " +
                        options.host + "; leave --http out to serve HTTPS there");
  auto tokens = read_tokens_file(options.tokens_file);
  if (!tokens.ok()) return tokens.error();
  impl->tokens = std::move(tokens).value();
  if (!options.oauth_clients_file.empty()) {
    auto clients = read_oauth_clients(options.oauth_clients_file);
    if (!clients.ok()) return clients.error();
    impl->oauth_clients = std::move(clients).value();
  }
  auto store = TemplateStore::open(options.data_dir);
  if (!store.ok()) return store.error();
  impl->store = std::move(store).value();
  auto workspaces = WorkspaceStore::open(options.data_dir);
  if (!workspaces.ok()) return workspaces.error();
  impl->workspaces = std::move(workspaces).value();
  // Tokens issued through /oauth/token never expire (API reference), so they survive restarts.
  impl->issued_tokens_path = options.data_dir + "/oauth-tokens";
  std::error_code size_error;  // a file without a size (a FIFO) is read, and so refused by name
  if (std::filesystem::exists(impl->issued_tokens_path) &&
      std::filesystem::file_size(impl->issued_tokens_path, size_error) != 0) {
    auto issued = read_tokens_file(impl->issued_tokens_path);
    if (!issued.ok()) return issued.error();
    impl->issued = std::move(issued).value();
    impl->tokens.insert(impl->tokens.end(), impl->issued.begin(), impl->issued.end());
  } else if (!std::filesystem::exists(impl->issued_tokens_path)) {
    // Created private: it holds tokens, and read_tokens_file refuses it otherwise.
    int fd = ::open(impl->issued_tokens_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return Error::output_failed(impl->issued_tokens_path + ": cannot create it: " + std::strerror(errno));
    ::close(fd);
  }

  sandbox::TlsContext tls(nullptr, SSL_CTX_free);
  if (!options.http) {
    std::string cert = options.cert_file, key = options.key_file;
    if (cert.empty() != key.empty()) return Error::usage("--cert and --key go together");
    if (cert.empty()) {
      auto files = sandbox::ensure_tls_files(options.data_dir + "/tls");
      if (!files.ok()) return files.error();
      cert = files.value().server_cert;
      key = files.value().server_key;
      impl->ca_path = files.value().ca_cert;
    } else {
      impl->ca_path = options.ca_file.empty() ? cert : options.ca_file;
    }
    auto context = sandbox::make_tls_context(cert, key);
    if (!context.ok()) return context.error();
    tls = std::move(context).value();
  }
  sandbox::ConnectionLimits limits;
  limits.head_timeout = std::chrono::seconds(options.head_timeout_seconds);
  limits.per_client = static_cast<std::size_t>(options.max_connections_per_client);
  impl->server = std::make_unique<sandbox::BoundedServer>(limits, std::move(tls));
  std::error_code ec;
  auto absolute = std::filesystem::absolute(impl->ca_path, ec);
  if (impl->ca_path != "-" && !ec) impl->ca_path = absolute.string();

  Impl* self = impl.get();
  httplib::Server& server = *impl->server;
  server.Get(kCollection, self->route(&Impl::list));
  server.Post(kCollection, self->route(&Impl::create));
  server.Get(kMember, self->route(&Impl::show));
  server.Put(kMember, self->route(&Impl::update));
  server.Get(kWorkspaces, self->route(&Impl::list_workspaces));
  server.Post(kWorkspaces, self->route(&Impl::create_workspace));
  server.Get(kWorkspace, self->route(&Impl::show_workspace));
  server.Put(kWorkspace, self->route(&Impl::update_workspace));
  if (!impl->oauth_clients.empty()) {
    server.Get("/oauth/authorize",
               [self](const httplib::Request& req, httplib::Response& res) { self->authorize(req, res); });
    server.Post("/oauth/token", [self](const httplib::Request& req, httplib::Response& res) { self->token(req, res); });
  }
  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    if (res.status == 404) send_error(res, 404, "system", "no route for " + req.method + " " + req.path);
  });
  server.set_payload_max_length(64 * 1024 * 1024);
  // Headers and body go out as separate writes; without this, Nagle's algorithm and the
  // client's delayed ACK add ~40 ms to every response.
  server.set_tcp_nodelay(true);
  // cpp-httplib's default sets SO_REUSEPORT, which lets a second sandbox share a port that is
  // in use; SO_REUSEADDR alone allows quick restarts and makes a busy port an error.
  server.set_socket_options([](int sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  // An idle keep-alive connection holds a worker, and SIGTERM waits for the workers.
  server.set_keep_alive_timeout(2);
  // cpp-httplib closes a connection after 5 requests: every push worker then reconnected (a
  // TLS handshake) every 5 templates, all of them at about the same moment.
  server.set_keep_alive_max_count(kKeepAliveRequests);

  int port = options.port == 0 ? server.bind_to_any_port(options.host) : options.port;
  if (options.port != 0 && !server.bind_to_port(options.host, options.port)) port = -1;
  if (port > 0 && !impl->server->listen_with_backlog()) port = -1;
  if (port <= 0)
    return Error::usage("cannot listen on " + options.host + ":" + std::to_string(options.port) + ": " +
                        listen_failure(options.host, options.port));
  impl->base_url = std::string(options.http ? "http" : "https") + "://" + bracketed(options.host) + ":" +
                   std::to_string(port) + "/api/v1";
  return std::unique_ptr<Sandbox>(new Sandbox(std::move(impl)));
}

std::string Sandbox::base_url() const {
  return impl_->base_url;
}
std::string Sandbox::ca_path() const {
  return impl_->ca_path;
}
bool Sandbox::serve() {
  impl_->serving = true;
  bool served = impl_->stopping || impl_->server->listen_after_bind();
  impl_->serving = false;
  return served;
}

void Sandbox::stop() {
  {
    std::lock_guard lock(impl_->hold_mutex);
    impl_->stopping = true;
  }
  impl_->hold_released.notify_all();
  // serve() has started, or will see `stopping`: wait until httplib runs, so its stop() counts.
  while (impl_->serving && !impl_->server->is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  impl_->server->stop();
}

}  // namespace ptmpl
