// push_templates without sockets: a scripted in-memory service behind the Transport interface,
// shared by the workers, records what each worker sent and when.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include "fake_clock.hpp"
#include "libtemplate/publish/api_client.hpp"
#include "libtemplate/publish/publish.hpp"
#include "sandbox_process.hpp"

namespace ptmpl::testing {
namespace {

using namespace ptmpl::publish;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

/// The templates endpoints, in memory: title lookups (`mine=true&by_title=`) and creates.
/// Answers 429 with Retry-After to the creates named in `busy_titles`, once each. With `gate`
/// set, the first requests are held until that many are in flight at once, so overlap is
/// certain rather than a matter of timing. Times are read from `clock`, which only the test
/// moves. Thread-safe: every worker's transport sends to it.
class MemoryService {
 public:
  std::vector<std::string> busy_titles;
  int gate = 0;
  std::shared_ptr<FakeClock> clock = std::make_shared<FakeClock>();
  /// With this set, the service keeps that many connections (one per transport) and closes
  /// further ones unanswered: their client sees no response. So that this certainly happens
  /// while the kept ones are answered, the second request on a kept connection waits until
  /// one has been closed so, and that closing comes only once every kept connection has sent
  /// its second request (its client has had the first answer).
  int max_connections = 0;

  Result<HttpResponse> send(const void* connection, const HttpRequest& request) {
    if (max_connections > 0) {
      std::unique_lock lock(mutex_);
      auto kept = kept_.find(connection);
      if (kept == kept_.end() && static_cast<int>(kept_.size()) >= max_connections) {
        ++closed_unanswered_;
        // The same connection again with none of the kept ones closed since: a retry that
        // could only be closed again.
        auto [last, first] = closing_seen_at_.try_emplace(connection, closings_);
        if (!first && last->second == closings_) ++hopeless_retries_;
        last->second = closings_;
        connections_changed_.notify_all();
        connections_changed_.wait_for(lock, std::chrono::seconds(30), [this] {
          return std::all_of(kept_.begin(), kept_.end(), [](const auto& k) { return k.second >= 2; });
        });
        return Error::network("the service closed the connection unanswered (at its limit of connections)");
      }
      if (kept == kept_.end()) kept = kept_.emplace(connection, 0).first;
      if (++kept->second == 2) {
        connections_changed_.notify_all();
        connections_changed_.wait_for(lock, std::chrono::seconds(30), [this] { return closed_unanswered_ > 0; });
      }
    }
    return handle(request);
  }

  void close(const void* connection) {
    std::lock_guard lock(mutex_);
    if (kept_.erase(connection) > 0) ++closings_;
    connections_changed_.notify_all();
  }

  [[nodiscard]] int closed_unanswered() const {
    std::lock_guard lock(mutex_);
    return closed_unanswered_;
  }
  [[nodiscard]] int hopeless_retries() const {
    std::lock_guard lock(mutex_);
    return hopeless_retries_;
  }

  struct Sent {
    std::string method;
    Clock::time_point at;   // on `clock`
    std::uint64_t event{};  // when it started, numbered with the clock's sleeps
    int status = 0;
  };

  HttpResponse handle(const HttpRequest& request) {
    Clock::time_point at = clock->now();
    std::uint64_t event = clock->next_event();
    {
      std::unique_lock lock(mutex_);
      max_in_flight_ = std::max(max_in_flight_, ++in_flight_);
      if (in_flight_ >= gate) gate_open_ = true;
      gate_changed_.notify_all();
      // A bound in real time only so that a broken pool fails the test instead of hanging it.
      gate_changed_.wait_for(lock, std::chrono::seconds(30), [this] { return gate_open_; });
    }
    HttpResponse response = answer(request);
    std::lock_guard lock(mutex_);
    --in_flight_;
    sent_.push_back({request.method, at, event, response.status});
    return response;
  }

  [[nodiscard]] int max_in_flight() const {
    std::lock_guard lock(mutex_);
    return max_in_flight_;
  }
  [[nodiscard]] std::vector<Sent> sent() const {
    std::lock_guard lock(mutex_);
    return sent_;
  }
  [[nodiscard]] std::map<std::string, int> created() const {
    std::lock_guard lock(mutex_);
    return created_;
  }

 private:
  static std::string envelope(const std::vector<std::pair<int, std::string>>& templates) {
    std::string results, map;
    for (const auto& [id, title] : templates) {
      std::string sid = std::to_string(id);
      results += (results.empty() ? "" : ",") + std::string(R"({"key":"project_templates","id":")") + sid + "\"}";
      map += (map.empty() ? "" : ",") + std::string("\"") + sid + R"(":{"id":)" + sid + R"(,"title":")" + title +
             R"(","updated_at":"2026-01-01T00:00:00.000Z","raw_json":"[]"})";
    }
    return R"({"count":)" + std::to_string(templates.size()) + R"(,"results":[)" + results +
           R"(],"project_templates":{)" + map + "}}";
  }

  HttpResponse answer(const HttpRequest& request) {
    HttpResponse response;
    response.status = 200;
    std::lock_guard lock(mutex_);
    if (request.method == "GET") {  // a title lookup: nothing is there before this run
      std::vector<std::pair<int, std::string>> found;
      for (const auto& [title, id] : ids_)
        if (request.url.find("by_title=" + url_encode(title) + "&") != std::string::npos ||
            request.url.ends_with("by_title=" + url_encode(title)))
          found.emplace_back(id, title);
      response.body = envelope(found);
      return response;
    }
    auto title_at = request.body.find(R"("title":")");
    std::string title = request.body.substr(title_at + 9, request.body.find('"', title_at + 9) - title_at - 9);
    auto busy = std::find(busy_titles.begin(), busy_titles.end(), title);
    if (busy != busy_titles.end()) {
      busy_titles.erase(busy);
      response.status = 429;
      response.headers = {{"Retry-After", "1"}};
      response.body = R"({"errors":[{"type":"system","message":"too many requests"}]})";
      return response;
    }
    ++created_[title];
    ids_[title] = next_id_;
    response.body = envelope({{next_id_++, title}});
    return response;
  }

  mutable std::mutex mutex_;
  std::condition_variable gate_changed_;
  std::condition_variable connections_changed_;
  std::map<const void*, int> kept_;             // open connection → requests sent on it
  std::map<const void*, int> closing_seen_at_;  // connection closed unanswered → closings_ then
  int closings_ = 0;                            // kept connections closed by their client
  int closed_unanswered_ = 0;
  int hopeless_retries_ = 0;
  bool gate_open_ = false;
  int in_flight_ = 0;
  int max_in_flight_ = 0;
  int next_id_ = 1;
  std::vector<Sent> sent_;
  std::map<std::string, int> created_;
  std::map<std::string, int> ids_;
};

class MemoryTransport final : public Transport {
 public:
  explicit MemoryTransport(MemoryService& service) : service_(service) {}
  ~MemoryTransport() override { service_.close(this); }
  MemoryTransport(const MemoryTransport&) = delete;
  MemoryTransport& operator=(const MemoryTransport&) = delete;
  Result<HttpResponse> send(const HttpRequest& request) override { return service_.send(this, request); }

 private:
  MemoryService& service_;
};

class PushWorkersTest : public ::testing::Test {
 protected:
  ScratchDir dir{"push-workers"};
  MemoryService service;

  std::vector<LocalTemplate> documents(int n) {
    std::vector<LocalTemplate> locals;
    for (int i = 0; i < n; ++i) {
      std::string text = R"({"project_template": {"title": "T)" + std::to_string(i) +
                         R"(", "raw_json": []}})"
                         "\n";
      auto local = read_local_template(dir.write("t" + std::to_string(i) + ".json", text), text);
      EXPECT_TRUE(local.ok());
      locals.push_back(std::move(local).value());
    }
    return locals;
  }

  std::vector<PushOutcome> push(const std::vector<LocalTemplate>& locals, unsigned jobs) {
    PushOptions options;
    options.jobs = jobs;
    options.backup_dir = dir.file("backups");
    auto pacer = std::make_shared<Pacer>(service.clock);
    auto make = [&] {
      ClientOptions client;
      // A retry's own wait returns at once and leaves the service's clock alone: only the
      // pacer moves that clock, so requests that start before it holds them show.
      client.sleep = [](milliseconds) {};
      client.base_url = "https://templates.example/api/v1";
      client.token = "workers-token";
      client.pacer = pacer;
      client.jitter_seed = 5;
      client.retry.base_delay = milliseconds(1);
      return std::make_unique<Client>(client, std::make_unique<MemoryTransport>(service));
    };
    return push_templates(locals, options, make);
  }
};

TEST_F(PushWorkersTest, AtMostJobsRequestsAreInFlightAndEachTemplateIsCreatedOnce) {
  auto locals = documents(24);
  service.gate = 3;  // the first requests wait until three are in flight
  auto outcomes = push(locals, 3);
  EXPECT_EQ(service.max_in_flight(), 3);  // the bound is reached, never passed
  ASSERT_EQ(outcomes.size(), locals.size());
  for (const auto& o : outcomes) EXPECT_EQ(o.action, PushAction::Created) << o.message;
  auto created = service.created();
  EXPECT_EQ(created.size(), locals.size());
  for (const auto& [title, n] : created) EXPECT_EQ(n, 1) << title;
}

TEST_F(PushWorkersTest, OneJobSendsOneRequestAtATime) {
  auto outcomes = push(documents(6), 1);
  for (const auto& o : outcomes) EXPECT_EQ(o.action, PushAction::Created) << o.message;
  EXPECT_EQ(service.max_in_flight(), 1);
  // A title lookup, a create, and the check that the title now names one template, each.
  EXPECT_EQ(service.sent().size(), 18u);
}

TEST_F(PushWorkersTest, A429SeenByOneWorkerHoldsEveryWorkerForItsRetryAfter) {
  auto locals = documents(12);
  service.busy_titles = {"T0"};  // the very first create is told to wait a second
  auto outcomes = push(locals, 4);
  for (const auto& o : outcomes) EXPECT_EQ(o.action, PushAction::Created) << o.message;
  auto sent = service.sent();
  auto refused = std::find_if(sent.begin(), sent.end(), [](const auto& s) { return s.status == 429; });
  ASSERT_NE(refused, sent.end());
  // Every worker waits on the pacer before each request, so once the worker told to wait has
  // set the hold, no request starts within its Retry-After second on the service's clock —
  // but for those already past the pacer then: at most one per other worker. The hold is set
  // before the pacer first sleeps until its end, so count from that sleep (counting from the
  // 429's answer is not safe: other workers may finish and start requests before the worker
  // told to wait gets to set the hold).
  const Clock::time_point answered = refused->at;
  const std::uint64_t hold_seen = service.clock->first_sleep_until(answered + milliseconds(1000));
  ASSERT_NE(hold_seen, 0u);
  int started_during_hold = 0;
  for (const auto& s : sent)
    if (s.event > hold_seen && s.at < answered + milliseconds(1000)) ++started_during_hold;
  EXPECT_LE(started_during_hold, 3);
  const auto sleeps = service.clock->sleeps();
  EXPECT_GE(std::count(sleeps.begin(), sleeps.end(), answered + milliseconds(1000)), 1);
  EXPECT_EQ(service.created().size(), locals.size());
  EXPECT_EQ(service.created().at("T0"), 1);
}

TEST_F(PushWorkersTest, WorkersBeyondTheConnectionsTheServiceTakesWaitForOneInsteadOfFailing) {
  // Six workers, a service that keeps two connections: the four others are closed unanswered
  // while those two are answered. They wait for one of the two to end, and then carry on
  // there; before, each tried again at once, spent its attempts and failed, and the push
  // stopped as if the service were gone.
  auto locals = documents(60);
  service.max_connections = 2;
  auto outcomes = push(locals, 6);
  ASSERT_EQ(outcomes.size(), locals.size());
  for (const auto& o : outcomes) EXPECT_EQ(o.action, PushAction::Created) << o.message;
  EXPECT_GE(service.closed_unanswered(), 1);
  EXPECT_EQ(service.hopeless_retries(), 0) << "a worker tried again while the connections answered were all open";
  auto created = service.created();
  EXPECT_EQ(created.size(), locals.size());
  for (const auto& [title, n] : created) EXPECT_EQ(n, 1) << title;
}

TEST_F(PushWorkersTest, AnEditSavedWhilePushingIsKeptAndTheIdToRecordIsNamed) {
  auto locals = documents(2);
  // Saved by an editor after push read the file: the id is not written over the edit.
  const std::string edited = R"js({"project_template": {"title": "T0 (edited)", "raw_json": []}})js"
                             "\n";
  dir.write("t0.json", edited);
  auto outcomes = push(locals, 1);
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_EQ(outcomes[0].action, PushAction::Failed);
  EXPECT_EQ(outcomes[0].failure, ErrorCode::kConflict);
  EXPECT_NE(outcomes[0].message.find("created template 1, but cannot record its id in the file: "), std::string::npos)
      << outcomes[0].message;
  EXPECT_NE(outcomes[0].message.find("; add \"id\": 1 and \"updated_at\": \"2026-01-01T00:00:00.000Z\" to its "
                                     "project_template before pushing it again"),
            std::string::npos)
      << outcomes[0].message;
  std::ifstream in(dir.file("t0.json"));
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), edited);
  EXPECT_EQ(outcomes[1].action, PushAction::Created);  // the other file got its id
  std::ifstream other(dir.file("t1.json"));
  EXPECT_NE(std::string(std::istreambuf_iterator<char>(other), {}).find("\"id\": 2"), std::string::npos);
}

}  // namespace
}  // namespace ptmpl::testing
