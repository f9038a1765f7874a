// The client of the service's templates endpoints: requests, retries with backoff and
// jitter, and what an unknown outcome of a POST means (docs/semantics.md §8).
#include "libtemplate/publish/api_client.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <thread>

#include "libtemplate/core/printable.hpp"
#include "publish/envelope.hpp"

namespace ptmpl::publish {
namespace {

constexpr int kMaxPerPage = 200;  // API reference, Limits

/// "120 s", "1.5 s", "300 ms".
std::string describe_duration(std::chrono::milliseconds d) {
  if (d.count() < 1000) return std::to_string(d.count()) + " ms";
  std::string text = std::to_string(d.count() / 1000);
  if (d.count() % 1000 != 0) {
    std::string fraction = std::to_string(1000 + d.count() % 1000).substr(1);
    while (fraction.back() == '0') fraction.pop_back();
    text += "." + fraction;
  }
  return text + " s";
}

}  // namespace

std::optional<std::int64_t> template_id(std::string_view text) {
  // from_chars takes a sign and leading zeros, nothing else but digits.
  if (text.empty() || text.front() < '1' || text.front() > '9') return std::nullopt;
  std::int64_t id = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;  // not digits, or past 2^63-1
  return id;
}

std::string quoted_excerpt(std::string_view text) {
  constexpr std::size_t kShown = 40;
  static const char* hex = "0123456789ABCDEF";
  std::string out = "\"";
  for (unsigned char c : text.substr(0, kShown)) {
    if (c < 0x20 || c >= 0x7F || c == '"' || c == '\\') {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  out += text.size() > kShown ? "\"… (" + std::to_string(text.size()) + " bytes)" : "\"";
  return out;
}

using detail::describe_errors;
using detail::kWorkspaces;
using detail::read_envelope;
using detail::retry_after;
using detail::single;

namespace {

RemoteWorkspace as_workspace(RemoteTemplate object) {
  return {object.id, std::move(object.title), std::move(object.json)};
}

}  // namespace

Client::Client(ClientOptions options, std::unique_ptr<Transport> transport)
    : options_(std::move(options)), seat_(options_.pacer), transport_(std::move(transport)) {
  while (!options_.base_url.empty() && options_.base_url.back() == '/') options_.base_url.pop_back();
  if (!options_.clock) options_.clock = Clock::system();
  if (!options_.sleep)
    options_.sleep = [clock = options_.clock](std::chrono::milliseconds d) { clock->sleep_until(clock->now() + d); };
  jitter_state_ = options_.jitter_seed != 0
                      ? options_.jitter_seed
                      : static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) | 1;
}

Error Client::fail(Error error) const {
  error.message = redact(std::move(error.message), options_.token);
  return error;
}

void Client::trace(const std::string& lines) const {
  if (options_.trace != nullptr) *options_.trace << printable_lines(redact(lines, options_.token));
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
  int seat_waits = 0;          // attempts given back because the service answered other workers
  const bool bounded = options_.deadline.count() > 0;
  const Clock::time_point deadline = options_.clock->now() + options_.deadline;
  auto left = [&] { return std::chrono::duration_cast<std::chrono::milliseconds>(deadline - options_.clock->now()); };
  auto past_deadline = [&] {
    return fail({lost_response ? ErrorCode::kNetwork : ErrorCode::kService,
                 what + ": no answer within the deadline of " + describe_duration(options_.deadline) +
                     " (--timeout); last: " + last_problem});
  };
  // A wait between attempts, unless it would end past the deadline; `hold_all`: the other
  // workers wait too (the service said it is busy).
  auto wait_before_next = [&](std::chrono::milliseconds wait, bool hold_all) {
    if (bounded && wait >= left()) return false;
    if (hold_all && options_.pacer) options_.pacer->hold(wait);
    options_.sleep(wait);
    return true;
  };
  for (int attempt = 1; attempt <= options_.retry.max_attempts; ++attempt) {
    seat_.wait();
    if (options_.pacer) options_.pacer->wait();
    if (bounded) {
      if (left().count() <= 0) return past_deadline();
      request.timeout = left();
    }
    trace("> " + method + " " + request.url + " (attempt " + std::to_string(attempt) + ")\n> Authorization: Bearer " +
          options_.token + "\n");
    auto sent = transport_->send(request);
    if (!sent.ok()) {
      last_problem = "no response: " + sent.error().message;
      trace("< " + last_problem + "\n");
      lost_response = true;
      // Only a lost response is worth another attempt; a certificate that does not verify or a
      // malformed URL fails the same way every time.
      if (sent.error().code == ErrorCode::kService)  // an answer arrived, but one the client refuses
        return fail({ErrorCode::kService, what + ": " + sent.error().message});
      if (sent.error().code != ErrorCode::kNetwork) return fail({sent.error().code, what + ": " + last_problem});
      // Other workers are answered: the service takes no more connections than theirs. Waiting
      // for one of them to end costs no attempt (each wait needs one to end, so they are few).
      bool at_limit = seat_.lost();
      if (!idempotent) {
        if (outcome_unknown != nullptr) *outcome_unknown = true;
        return fail(Error::network(what + ": " + last_problem));
      }
      if (at_limit && seat_waits++ < options_.retry.max_attempts) {
        --attempt;
        continue;
      }
      if (attempt < options_.retry.max_attempts && !wait_before_next(backoff(attempt, nullptr), false))
        return past_deadline();
      continue;
    }
    seat_.answered();
    HttpResponse& response = sent.value();
    lost_response = false;
    trace("< HTTP " + std::to_string(response.status) + " (" + std::to_string(response.body.size()) + " bytes)\n");
    if (response.status == 429 || response.status == 503) {
      last_problem = "HTTP " + std::to_string(response.status) + ": " + describe_errors(response.body);
      if (attempt < options_.retry.max_attempts && !wait_before_next(backoff(attempt, &response), true))
        return past_deadline();
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

Result<std::vector<RemoteTemplate>> Client::list_all(ListQuery query, ListNotes* notes) {
  bool with_raw_json = query.with_raw_json && query.only.empty();
  if (with_raw_json) query.with_raw_json = false;  // fetched below by `only`, as the service requires
  query.per_page = kMaxPerPage;
  std::vector<RemoteTemplate> all;
  std::set<std::int64_t> seen;  // ids taken or skipped
  std::vector<Error> skipped;
  std::int64_t count = 0;
  std::string stopped;  // why paging ended before `count` was reached
  for (query.page = 1;; ++query.page) {
    if (query.page > kMaxPages) {
      stopped = "stopped after " + std::to_string(kMaxPages) + " pages";
      break;
    }
    auto page = list(query);
    if (!page.ok()) return page.error();
    count = page.value().count;
    std::size_t fresh = 0;
    for (auto& t : page.value().templates) {
      if (!seen.insert(t.id).second) continue;  // a template seen on an earlier page
      all.push_back(std::move(t));
      ++fresh;
    }
    for (auto& [id, error] : page.value().skipped) {
      if (!seen.insert(id).second) continue;
      skipped.push_back(fail(error.within("listing templates")));
      ++fresh;  // a bad template is new too: paging goes on past it
    }
    if (page.value().templates.empty() && page.value().skipped.empty()) break;
    if (fresh == 0) {
      stopped = "page " + std::to_string(query.page) + " brought no template not seen before";
      break;
    }
    if (static_cast<std::int64_t>(seen.size()) >= count) break;
  }
  if (static_cast<std::int64_t>(seen.size()) != count && notes != nullptr)
    notes->warnings.push_back("the service counts " + std::to_string(count) + " templates, but its pages brought " +
                              std::to_string(seen.size()) + " different ones" +
                              (stopped.empty() ? std::string() : "; " + stopped));
  if (with_raw_json) {
    std::set<std::int64_t> unusable;
    for (std::size_t first = 0; first < all.size(); first += kMaxPerPage) {
      ListQuery batch;
      batch.per_page = kMaxPerPage;
      batch.with_raw_json = true;
      std::size_t last = std::min(all.size(), first + kMaxPerPage);
      for (std::size_t i = first; i < last; ++i) batch.only.push_back(all[i].id);
      auto page = list(batch);
      if (!page.ok()) return page.error();
      for (auto& t : page.value().templates) {
        for (std::size_t i = first; i < last; ++i)
          if (all[i].id == t.id) all[i] = std::move(t);
      }
      // A template whose stories cannot be used is not returned without them.
      for (auto& [id, error] : page.value().skipped) {
        unusable.insert(id);
        skipped.push_back(fail(error.within("listing templates")));
      }
    }
    std::erase_if(all, [&](const RemoteTemplate& t) { return unusable.contains(t.id); });
  }
  if (notes != nullptr) notes->skipped = std::move(skipped);
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
    // The POST may or may not have been applied: look before trying again (docs/semantics.md §8).
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

Result<WorkspacePage> Client::list_workspaces(const WorkspaceListQuery& query) {
  if (query.per_page < 1 || query.per_page > kMaxPerPage) return fail(Error::usage("per_page must be from 1 to 200"));
  std::string path =
      "/workspaces.json?page=" + std::to_string(query.page) + "&per_page=" + std::to_string(query.per_page);
  if (query.include_archived) path += "&include_archived=true";
  if (!query.matching.empty()) path += "&matching=" + url_encode(query.matching);
  auto response = exchange("GET", path, "", "listing workspaces", true);
  if (!response.ok()) return response.error();
  auto page = read_envelope(response.value().body, kWorkspaces);
  if (!page.ok()) return fail(page.error().within("listing workspaces"));
  if (!page.value().skipped.empty()) return fail(page.value().skipped.front().second.within("listing workspaces"));
  WorkspacePage out;
  out.count = page.value().count;
  for (RemoteTemplate& object : page.value().templates) out.workspaces.push_back(as_workspace(std::move(object)));
  return out;
}

Result<RemoteWorkspace> Client::get_workspace(std::int64_t id, bool include_archived) {
  std::string what = "reading workspace " + std::to_string(id);
  auto response = exchange(
      "GET", "/workspaces/" + std::to_string(id) + ".json" + (include_archived ? "?include_archived=true" : ""), "",
      what, true);
  if (!response.ok()) return response.error();
  auto w = single(response.value().body, kWorkspaces);
  if (!w.ok()) return fail(w.error().within(what));
  return as_workspace(std::move(w).value());
}

Result<RemoteWorkspace> Client::create_workspace(const std::string& body, const std::string& title) {
  std::string what = "creating workspace \"" + title + "\"";
  bool unknown = false;
  auto response = exchange("POST", "/workspaces.json", body, what, false, &unknown);
  if (!response.ok()) {
    if (!unknown) return response.error();
    return fail(Error::network(response.error().message + "; it may have been created: look for workspace \"" + title +
                               "\" before applying again"));
  }
  auto w = single(response.value().body, kWorkspaces);
  if (!w.ok()) return fail(w.error().within(what));
  return as_workspace(std::move(w).value());
}

Result<RemoteWorkspace> Client::update_workspace(std::int64_t id, const std::string& body) {
  std::string what = "updating workspace " + std::to_string(id);
  auto response = exchange("PUT", "/workspaces/" + std::to_string(id) + ".json", body, what, true);
  if (!response.ok()) return response.error();
  auto w = single(response.value().body, kWorkspaces);
  if (!w.ok()) return fail(w.error().within(what));
  return as_workspace(std::move(w).value());
}

}  // namespace ptmpl::publish
