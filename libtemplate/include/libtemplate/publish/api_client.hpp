// The client of the service's project templates endpoints (docs/semantics.md §8): requests, retries, errors.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "libtemplate/core/result.hpp"

namespace ptmpl::publish {

struct HttpRequest {
  std::string method;  // GET, POST, PUT
  std::string url;     // absolute
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  /// The most this exchange may take (the client's deadline, less what the request's earlier
  /// attempts and waits took); zero: the transport's own timeout alone.
  std::chrono::milliseconds timeout{0};
};

struct HttpResponse {
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  /// The value of header `name` (case-insensitive), or "" when absent.
  [[nodiscard]] std::string header(std::string_view name) const;
};

/// Performs one HTTP exchange, never repeating it: a POST is sent once, even when a connection
/// dies under it (its outcome is then unknown, and the caller decides). An Error means no
/// usable response arrived: code kNetwork when the connection was refused, dropped or timed out
/// (retrying may help; for a request that changes data, its outcome is unknown), kService when
/// the answer passes a bound of TransportOptions (retrying brings the same), any other code
/// when retrying cannot help and nothing was sent (kInsecure: the server's certificate does not
/// verify, an unreadable CA file, a malformed URL; kUsage: a URL the client refuses, a CA file
/// too large to be one).
class Transport {
 public:
  virtual ~Transport() = default;
  virtual Result<HttpResponse> send(const HttpRequest& request) = 0;
};

struct TransportOptions {
  std::string cacert;  // CA certificate file (PEM) to verify the server with; "": the system's
  std::chrono::milliseconds connect_timeout{10'000};
  std::chrono::milliseconds timeout{kDefaultDeadline};  // whole exchange
  /// The largest response body taken: a bigger one (by its Content-Length, or as it arrives)
  /// ends the exchange with kService naming the size, before it is held in memory. A page of
  /// 200 templates of 1,000 stories each is about 130 MiB.
  std::uint64_t max_response_bytes = kMaxResponseBytes;
  static constexpr std::uint64_t kMaxResponseBytes = std::uint64_t{256} << 20;  // 256 MiB
  /// The most bytes of a response's status line and headers together (kService beyond); below
  /// the 300 KiB at which some builds of libcurl stop, so that the bound met is always named.
  /// libcurl itself refuses one header line longer than 100 KiB.
  std::uint64_t max_header_bytes = kMaxHeaderBytes;
  static constexpr std::uint64_t kMaxHeaderBytes = std::uint64_t{256} << 10;  // 256 KiB
  /// The largest CA file (`cacert`) read: a bundle of every public CA is about 200 KiB.
  static constexpr std::uint64_t kMaxCaFileBytes = std::uint64_t{16} << 20;  // 16 MiB
  /// The default of `timeout` and of a request's deadline (ClientOptions::deadline).
  static constexpr std::chrono::milliseconds kDefaultDeadline{120'000};
};

/// libcurl: HTTPS with peer and host verification always on; plain http:// is refused unless
/// the host is a loopback address, and is sent straight to it, never through a proxy (the
/// token would cross the proxy's link in clear text; docs/semantics.md §11 "Secrets"). HTTPS may go through
/// the proxy the environment names (it sees only CONNECT). One transport is used by one thread
/// at a time.
std::unique_ptr<Transport> make_curl_transport(const TransportOptions& options);

/// Accepts `https://…`, and `http://…` only for localhost, 127.0.0.0/8 and ::1.
Status check_base_url(std::string_view url);

/// The bearer token: from `token_file` when given, else `from_environment` (the value of
/// PTMPL_TOKEN, which the caller reads; nullopt: unset). load_secret's rules (oauth.hpp).
Result<std::string> load_token(const std::string& token_file, std::optional<std::string_view> from_environment);

/// The id `text` spells: a whole number from 1 to 2^63-1 in decimal digits alone (no sign, no
/// spaces, no leading zero, no other base or exponent); nullopt for anything else, which no
/// template of the service has.
[[nodiscard]] std::optional<std::int64_t> template_id(std::string_view text);

/// `text` as a message shows it: between quotes, cut after 40 bytes, each byte that is not
/// visible ASCII as \xNN.
[[nodiscard]] std::string quoted_excerpt(std::string_view text);

/// A secret of at least this many bytes is redacted wherever it appears.
inline constexpr std::size_t kRedactAnywhereLength = 8;

/// `text` with `secret` replaced by "[REDACTED]". A secret of kRedactAnywhereLength bytes or
/// more is replaced wherever it appears, even inside a word; a shorter one (say `wrong`) only
/// where it stands as a value: between quotes, after `=`, `:` or `Bearer `, or before `&`, `"`,
/// `'`, a line end or the end of the text, and never as a word of prose ("unknown client_id or
/// wrong client_secret" stays readable). docs/publishing.md, Token.
std::string redact(std::string text, std::string_view secret);

struct RetryPolicy {
  int max_attempts = 6;                         // per request, the first one included
  std::chrono::milliseconds base_delay{500};    // doubled after each failure
  std::chrono::milliseconds max_delay{30'000};  // cap of one wait, Retry-After included (however large)
};

/// Time as pacing sees it: the real clock, or one a test drives (no real sleeps in unit tests).
class Clock {
 public:
  using time_point = std::chrono::steady_clock::time_point;
  virtual ~Clock() = default;
  [[nodiscard]] virtual time_point now() const = 0;
  /// Returns once now() has reached `when`.
  virtual void sleep_until(time_point when) = 0;
  /// std::chrono::steady_clock and std::this_thread::sleep_until.
  static const std::shared_ptr<Clock>& system();
};

/// Shared by the clients of concurrent workers (`push --jobs`): a 429 or 503 that one of them
/// receives holds every one of them back for the wait it implies, so a busy service sees all
/// of the tool slow down, not just one connection. It also counts the clients whose connection
/// the service answers: one that gets no answer while others do has met the service's limit of
/// connections, and waits for one of theirs to end instead of spending its attempts.
class Pacer {
 public:
  explicit Pacer(std::shared_ptr<Clock> clock = Clock::system()) : clock_(std::move(clock)) {}
  /// Holds every request back until at least `wait` from now.
  void hold(std::chrono::milliseconds wait);
  /// Sleeps until the current hold (if any) is over.
  void wait() const;

  /// One client's connection as the Pacer counts it; given up when the Seat ends (after the
  /// client's transport, so that the service has seen the connection close). Without a Pacer
  /// every call does nothing.
  class Seat {
   public:
    explicit Seat(std::shared_ptr<Pacer> pacer = nullptr) : pacer_(std::move(pacer)) {}
    Seat(Seat&& other) noexcept : pacer_(std::move(other.pacer_)), state_(std::exchange(other.state_, State::kNone)) {}
    Seat& operator=(Seat&& other) noexcept;
    Seat(const Seat&) = delete;
    Seat& operator=(const Seat&) = delete;
    ~Seat() { give_up(); }

    /// Before a request: without an answered connection, waits while the answered and the
    /// trying connections of the other clients are as many as the service was seen to take
    /// (so that one that ends lets one other client in, not all that wait).
    void wait();
    /// An answer arrived (any status): this client's connection is counted.
    void answered();
    /// No answer arrived: the connection is no longer counted. True when other clients'
    /// connections are answered: the service takes no more than theirs (the limit drops to
    /// that), and wait() waits for one of them to end; the service did not fail.
    bool lost();

   private:
    enum class State : std::uint8_t { kNone, kTrying, kAnswered };
    /// Leaves the count of the current state (under the Pacer's lock).
    void leave_state();
    void give_up();
    std::shared_ptr<Pacer> pacer_;
    State state_ = State::kNone;
  };

 private:
  std::shared_ptr<Clock> clock_;
  mutable std::mutex mutex_;
  mutable std::condition_variable seats_changed_;
  Clock::time_point until_{};
  std::size_t answered_ = 0;                          // clients whose connection is answered
  std::size_t trying_ = 0;                            // clients past Seat::wait() whose connection is not answered yet
  std::size_t limit_ = static_cast<std::size_t>(-1);  // connections the service was seen to take
};

struct ClientOptions {
  std::string base_url;  // ends in /api/v1
  std::string token;
  RetryPolicy retry;
  /// Waits between attempts; tests pass a recorder. Default: std::this_thread::sleep_for.
  std::function<void(std::chrono::milliseconds)> sleep;
  std::uint64_t jitter_seed = 0;  // 0: from the clock
  /// `--verbose`: one line per request and response, the token redacted. Null: quiet.
  std::ostream* trace = nullptr;
  /// Shared with the other workers of one run; null: this client paces itself alone.
  std::shared_ptr<Pacer> pacer;
  /// The most one request may take, all its attempts and the waits between them together: an
  /// attempt gets what is left (HttpRequest::timeout), a wait that would end past it is not
  /// begun, and the request fails naming it. Zero: no deadline but the transport's timeout.
  std::chrono::milliseconds deadline = TransportOptions::kDefaultDeadline;
  /// What the deadline is measured on; the default `sleep` sleeps on it too.
  std::shared_ptr<Clock> clock = Clock::system();
};

/// A template as the service returned it.
struct RemoteTemplate {
  std::int64_t id = 0;
  std::string title;
  std::string updated_at;
  std::optional<std::string> raw_json;  // only when asked for (optional_fields=raw_json)
  std::string json;                     // the whole template object, as JSON text
};

/// Filters, order and page of `GET /project_templates.json` (API reference).
struct ListQuery {
  bool mine = false;
  std::string by_title;
  std::vector<std::int64_t> only;  // with_raw_json needs this (the service refuses it otherwise)
  std::string order;               // "title:asc", …; "": the service's default
  int page = 1;
  int per_page = 20;  // at most 200
  bool with_raw_json = false;
};

struct TemplatePage {
  std::int64_t count = 0;                 // matches of the whole query
  std::vector<RemoteTemplate> templates;  // in the order of `results`
  /// Templates of the page the client cannot use (text that is not UTF-8), each with a kService
  /// error naming the template's id and the field; the others are kept.
  std::vector<std::pair<std::int64_t, Error>> skipped;
};

/// A workspace (project) as the service returned it.
struct RemoteWorkspace {
  std::int64_t id = 0;
  std::string title;
  std::string json;  // the whole workspace object, as JSON text
};

/// Filters and page of `GET /workspaces.json` (API reference, "Workspace filters").
struct WorkspaceListQuery {
  bool include_archived = false;
  std::string matching;  // title match; "": no filter
  int page = 1;
  int per_page = 20;  // at most 200
};

struct WorkspacePage {
  std::int64_t count = 0;                   // matches of the whole query
  std::vector<RemoteWorkspace> workspaces;  // in the order of `results`
};

/// What list_all noticed besides the templates it returns.
struct ListNotes {
  std::vector<Error> skipped;         // as TemplatePage::skipped, of every page
  std::vector<std::string> warnings;  // the service's paging disagreed with its count
};

/// The service's client. Every call fails with code kNetwork when no response arrived after
/// every retry, kNotFound for an HTTP 404, kService for any other refusal or an answer it
/// cannot use, kInsecure or kUsage when the request cannot be made as asked.
class Client {
 public:
  Client(ClientOptions options, std::unique_ptr<Transport> transport);

  /// One page, templates in the order of the envelope's `results` (never the map's order).
  Result<TemplatePage> list(const ListQuery& query);
  /// Every page of `query` (per_page 200); `with_raw_json` fetches raw_json by `only` batches.
  /// The service's paging is not trusted: paging stops once `count` templates have arrived,
  /// or at a page that brings no template not seen before (a service ignoring `page`), or
  /// after kMaxPages; a template seen twice is kept once. When that disagrees with `count`, a
  /// warning says so in `notes`. Templates the client cannot use go to `notes` (or are
  /// dropped when it is null), the rest are returned.
  Result<std::vector<RemoteTemplate>> list_all(ListQuery query, ListNotes* notes = nullptr);
  /// The most pages list_all asks for: 200 templates each, 10 million templates.
  static constexpr int kMaxPages = 50'000;
  Result<RemoteTemplate> get(std::int64_t id, bool with_raw_json = true);
  /// POST `body` (a JSON object with key `project_template`). When the outcome of an attempt is
  /// unknown (no response), the template is looked up by exact `title` among the caller's
  /// before trying again, so it is never created twice.
  Result<RemoteTemplate> create(const std::string& body, const std::string& title);
  /// PUT `body` to template `id` (idempotent, so retried as is).
  Result<RemoteTemplate> update(std::int64_t id, const std::string& body, const std::string& title);
  /// The caller's templates whose title is exactly `title`, oldest id first.
  Result<std::vector<RemoteTemplate>> find_by_title(const std::string& title);

  /// One page of the caller's workspaces, in the order of the envelope's `results`.
  Result<WorkspacePage> list_workspaces(const WorkspaceListQuery& query);
  /// Workspace `id`; an archived one is kNotFound unless `include_archived` (API reference).
  Result<RemoteWorkspace> get_workspace(std::int64_t id, bool include_archived = false);
  /// POST `body` (a JSON object with key `workspace`), sent once: when no answer arrives its
  /// outcome is unknown, and the error (kNetwork) says so and names `title` to look for. Unlike a
  /// template's, a workspace's title is no key (one template applied twice makes two workspaces
  /// of its title), so it cannot be looked up to tell whether the POST was applied.
  Result<RemoteWorkspace> create_workspace(const std::string& body, const std::string& title);
  /// PUT `body` (`{"workspace": {…}}`, e.g. `archived`) to workspace `id` (idempotent, so
  /// retried as is).
  Result<RemoteWorkspace> update_workspace(std::int64_t id, const std::string& body);

  /// The API root requests go to (no trailing slash).
  [[nodiscard]] const std::string& base_url() const { return options_.base_url; }

 private:
  /// Sends with retries of 429/503 (and of lost responses when `idempotent`).
  Result<HttpResponse> exchange(const std::string& method, const std::string& path, const std::string& body,
                                const std::string& what, bool idempotent, bool* outcome_unknown = nullptr);
  std::chrono::milliseconds backoff(int attempt, const HttpResponse* response);
  /// `error` with the token redacted from its message.
  Error fail(Error error) const;
  /// Writes `lines` to the trace (ClientOptions::trace), if any: the token redacted, control
  /// characters escaped (a URL or a transport's message may hold any byte).
  void trace(const std::string& lines) const;

  ClientOptions options_;
  Pacer::Seat seat_;  // declared before transport_: given up after the connection has closed
  std::unique_ptr<Transport> transport_;
  std::uint64_t jitter_state_;
};

/// The template document of `remote` (docs/semantics.md §2), in canonical form: id, the template's fields,
/// and raw_json as a pretty story array (as the service's string when that is not valid JSON).
/// `updated_at` is kept (push compares it to tell whether the template changed on the service
/// since); other service-only fields (user_id, created_at) are left out.
Result<std::string> template_document(const RemoteTemplate& remote);

/// `pulled` (template_document's output) with what only the file `file` holds, so that pulling
/// over a file loses nothing the service does not keep: every member beside project_template
/// (the calendar block, an assignment list kept there, keys of the author's own) and every key
/// inside it that the service never stores (project_template_assignments, unknown keys). Keys
/// the service stores come from `pulled` alone, so one it no longer holds goes. `file` not a
/// template document: `pulled` unchanged.
std::string with_file_own_keys(const std::string& pulled, std::string_view file);

/// Percent-encodes `text` for a URL query or a form body: RFC 3986's unreserved characters
/// stay, every other byte becomes %XX.
[[nodiscard]] std::string url_encode(std::string_view text);

}  // namespace ptmpl::publish
