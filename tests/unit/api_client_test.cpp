// The templates client without sockets: retries, backoff, unknown outcomes, envelopes, errors,
// URL and token rules, redaction.
#include "libtemplate/publish/api_client.hpp"
#include "fake_clock.hpp"
#include "libtemplate/publish/oauth.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <deque>
#include <sstream>

#include "sandbox_process.hpp"

namespace ptmpl::publish {
namespace {

using std::chrono::milliseconds;

constexpr const char* kToken = "s3cr3t-token-value";

// One scripted answer per request: a response, or an Error (no response).
class FakeTransport final : public Transport {
 public:
  std::deque<Result<HttpResponse>> script;
  std::vector<HttpRequest> sent;

  Result<HttpResponse> send(const HttpRequest& request) override {
    sent.push_back(request);
    if (script.empty()) return Error::internal("script exhausted");
    auto next = std::move(script.front());
    script.pop_front();
    return next;
  }
};

HttpResponse reply(int status, std::string body, std::vector<std::pair<std::string, std::string>> headers = {}) {
  HttpResponse r;
  r.status = status;
  r.body = std::move(body);
  r.headers = std::move(headers);
  return r;
}

std::string one(int id, const std::string& title) {
  std::string sid = std::to_string(id);
  return R"({"count":1,"results":[{"key":"project_templates","id":")" + sid + R"("}],"project_templates":{")" + sid +
         R"(":{"id":)" + sid + R"(,"title":")" + title +
         R"(","updated_at":"2026-01-01T00:00:00.000Z","raw_json":"[]"}}})";
}

struct Harness {
  FakeTransport* transport = nullptr;
  std::vector<milliseconds> waits;
  std::ostringstream trace;
  std::unique_ptr<Client> client;

  explicit Harness(RetryPolicy retry = {}, std::shared_ptr<Pacer> pacer = nullptr) {
    auto fake = std::make_unique<FakeTransport>();
    transport = fake.get();
    ClientOptions options;
    options.base_url = "https://templates.example/api/v1/";
    options.token = kToken;
    options.retry = retry;
    options.sleep = [this](milliseconds d) { waits.push_back(d); };
    options.jitter_seed = 42;
    options.trace = &trace;
    options.pacer = std::move(pacer);
    client = std::make_unique<Client>(options, std::move(fake));
  }
};

TEST(ApiClient, APacerHoldsEveryoneWhoWaitsOnIt) {
  auto clock = std::make_shared<testing::FakeClock>();
  Pacer pacer(clock);
  pacer.wait();  // nothing held: no sleep
  EXPECT_TRUE(clock->sleeps().empty());
  pacer.hold(milliseconds(300));
  pacer.hold(milliseconds(10));  // a shorter hold does not shorten it
  pacer.wait();
  ASSERT_EQ(clock->sleeps().size(), 1u);
  EXPECT_EQ(clock->sleeps()[0], testing::FakeClock::epoch() + milliseconds(300));
  pacer.wait();  // the hold is over
  EXPECT_EQ(clock->sleeps().size(), 1u);
}

TEST(ApiClient, A429HoldsTheSharedPacerForItsRetryAfter) {
  auto clock = std::make_shared<testing::FakeClock>();
  auto pacer = std::make_shared<Pacer>(clock);
  Harness busy({}, pacer);
  busy.transport->script.push_back(reply(429, "", {{"Retry-After", "1"}}));
  busy.transport->script.push_back(reply(200, one(7, "Launch")));
  // The client's own sleep is a recorder here; the pacer's clock is the test's: every client
  // sharing the pacer (each worker of `push --jobs`) is held for the same second.
  ASSERT_TRUE(busy.client->get(7).ok());
  ASSERT_EQ(busy.waits.size(), 1u);
  EXPECT_GE(busy.waits[0], milliseconds(1000));
  ASSERT_EQ(clock->sleeps().size(), 1u);
  EXPECT_GE(clock->sleeps()[0], testing::FakeClock::epoch() + milliseconds(1000));
  Harness other({}, pacer);  // another worker, after the hold: not held again
  other.transport->script.push_back(reply(200, one(8, "Other")));
  ASSERT_TRUE(other.client->get(8).ok());
  EXPECT_EQ(clock->sleeps().size(), 1u);
}

TEST(ApiClient, SendsTheBearerTokenToTheBaseUrl) {
  Harness h;
  h.transport->script.push_back(reply(200, one(7, "Launch")));
  auto t = h.client->get(7);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t.value().id, 7);
  EXPECT_EQ(t.value().raw_json, "[]");
  ASSERT_EQ(h.transport->sent.size(), 1u);
  EXPECT_EQ(h.transport->sent[0].url,
            "https://templates.example/api/v1/project_templates/7.json?optional_fields=raw_json");
  EXPECT_EQ(h.transport->sent[0].headers[0],
            (std::pair<std::string, std::string>{"Authorization", std::string("Bearer ") + kToken}));
}

TEST(ApiClient, Retries429HonouringRetryAfter) {
  Harness h;
  h.transport->script.push_back(
      reply(429, R"({"errors":[{"type":"system","message":"slow down"}]})", {{"retry-after", "3"}}));
  h.transport->script.push_back(reply(200, one(1, "A")));
  ASSERT_TRUE(h.client->get(1).ok());
  ASSERT_EQ(h.waits.size(), 1u);
  EXPECT_EQ(h.waits[0], milliseconds(3000));
}

TEST(ApiClient, ARetryAfterOfAnyLengthWaitsTheLongestWaitNeverNone) {
  for (const char* seconds : {"9223372036854775807", "99999999999999999999999", "86400"}) {
    Harness h;
    h.transport->script.push_back(reply(429, "", {{"Retry-After", seconds}}));
    h.transport->script.push_back(reply(200, one(1, "A")));
    ASSERT_TRUE(h.client->get(1).ok()) << seconds;
    ASSERT_EQ(h.waits.size(), 1u) << seconds;
    EXPECT_EQ(h.waits[0], RetryPolicy{}.max_delay) << seconds;
  }
}

TEST(ApiClient, AnErrorEnvelopeOfAHundredThousandEntriesShowsTheFirstTwenty) {
  std::string errors;
  for (int i = 0; i < 100'000; ++i)
    errors += std::string(errors.empty() ? "" : ",") + R"({"type":"validation","message":"bad )" + std::to_string(i) +
              R"(","field":"title"})";
  Harness h;
  h.transport->script.push_back(reply(422, R"({"errors":[)" + errors + "]}"));
  auto refused = h.client->get(1);
  ASSERT_FALSE(refused.ok());
  const std::string& message = refused.error().message;
  EXPECT_LT(message.size(), 1500u);
  EXPECT_EQ(message.rfind("reading template 1: HTTP 422: validation: bad 0 (field title); validation: bad 1 ", 0), 0u)
      << message.substr(0, 200);
  EXPECT_NE(message.find("; validation: bad 19 (field title); … and 99980 more"), std::string::npos)
      << message.substr(message.size() - 200);
  // One message of a megabyte is cut too.
  Harness one_long;
  one_long.transport->script.push_back(
      reply(422, R"({"errors":[{"type":"validation","message":")" + std::string(1 << 20, 'm') + R"("}]})"));
  auto cut = one_long.client->get(1);
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(cut.error().message, "reading template 1: HTTP 422: validation: " + std::string(499, 'm') + "…");
}

TEST(ApiClient, Retries503WithGrowingJitteredBackoffAndGivesUp) {
  RetryPolicy retry;
  retry.max_attempts = 5;
  retry.base_delay = milliseconds(100);
  retry.max_delay = milliseconds(350);
  Harness h(retry);
  for (int i = 0; i < 5; ++i)
    h.transport->script.push_back(reply(503, R"({"errors":[{"type":"system","message":"down for maintenance"}]})"));
  auto t = h.client->get(1);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(h.transport->sent.size(), 5u);  // bounded
  EXPECT_EQ(t.error().message,
            "reading template 1: gave up after 5 attempts; last: HTTP 503: system: down for maintenance");
  ASSERT_EQ(h.waits.size(), 4u);  // no wait after the last attempt
  // Step n is base·2^(n-1) capped at max_delay; the wait is between half the step and the step.
  const long steps[] = {100, 200, 350, 350};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_GE(h.waits[i].count(), steps[i] / 2) << i;
    EXPECT_LE(h.waits[i].count(), steps[i]) << i;
  }
}

TEST(ApiClient, DoesNotRetryAValidationErrorAndNamesTheTemplate) {
  Harness h;
  h.transport->script.push_back(reply(
      422,
      R"({"errors":[{"type":"validation","message":"title can't be blank","field":"title"},{"type":"validation","message":"bad currency","field":"currency"}]})"));
  auto t = h.client->update(12, R"({"project_template":{"title":""}})", "Launch plan");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(h.transport->sent.size(), 1u);
  EXPECT_EQ(t.error().message,
            "updating template 12 \"Launch plan\": HTTP 422: validation: title can't be blank (field title); "
            "validation: bad currency (field currency)");
  EXPECT_EQ(t.error().code, ErrorCode::kService);
}

TEST(ApiClient, RetriesAnIdempotentRequestWhoseResponseWasLost) {
  Harness h;
  h.transport->script.push_back(Error::network("connection reset"));
  h.transport->script.push_back(reply(200, one(3, "A")));
  auto t = h.client->update(3, R"({"project_template":{"title":"A"}})", "A");
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(h.transport->sent.size(), 2u);
  EXPECT_EQ(h.transport->sent[1].method, "PUT");
}

TEST(ApiClient, APostWithAnUnknownOutcomeLooksTheTitleUpInsteadOfRepeating) {
  Harness h;
  h.transport->script.push_back(Error::network("connection dropped"));
  // The lookup: the caller's templates matching the title (the service matches loosely).
  h.transport->script.push_back(reply(
      200,
      R"({"count":2,"results":[{"key":"project_templates","id":"8"},{"key":"project_templates","id":"9"}],"project_templates":{"8":{"id":8,"title":"Launch v2"},"9":{"id":9,"title":"Launch"}}})"));
  h.transport->script.push_back(reply(200, one(9, "Launch")));
  auto t = h.client->create(R"({"project_template":{"title":"Launch"}})", "Launch");
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t.value().id, 9);
  int posts = 0;
  for (const auto& r : h.transport->sent) posts += r.method == "POST";
  EXPECT_EQ(posts, 1);
  EXPECT_NE(h.transport->sent[1].url.find("mine=true&by_title=Launch"), std::string::npos);
}

TEST(ApiClient, APostThatDidNotLandIsSentAgainAfterTheLookup) {
  Harness h;
  h.transport->script.push_back(Error::network("connection dropped"));
  h.transport->script.push_back(reply(200, R"({"count":0,"results":[],"project_templates":{}})"));
  h.transport->script.push_back(reply(200, one(4, "New")));
  auto t = h.client->create(R"({"project_template":{"title":"New"}})", "New");
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t.value().id, 4);
  EXPECT_EQ(h.transport->sent.size(), 3u);
  EXPECT_EQ(h.transport->sent[2].method, "POST");
}

TEST(ApiClient, DoesNotRetryAFailureRetryingCannotFix) {
  Harness h;
  h.transport->script.push_back(Error::insecure("SSL certificate problem: unable to get local issuer certificate"));
  auto t = h.client->create(R"({"project_template":{"title":"A"}})", "A");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().message,
            "creating template \"A\": no response: SSL certificate problem: unable to get local issuer certificate");
  EXPECT_EQ(t.error().code, ErrorCode::kInsecure);
  EXPECT_EQ(t.error().exit_code(), 3);
  EXPECT_EQ(h.transport->sent.size(), 1u);  // neither retried nor looked up
  EXPECT_TRUE(h.waits.empty());
}

TEST(ApiClient, TakesTemplatesInTheOrderOfResultsNotOfTheMap) {
  Harness h;
  // The map also holds a sub-template-like object (id 1) that results does not name.
  h.transport->script.push_back(reply(
      200,
      R"({"count":3,"results":[{"key":"project_templates","id":"30"},{"key":"project_templates","id":"10"},{"key":"project_templates","id":"20"}],"project_templates":{"1":{"id":1,"title":"stray"},"10":{"id":10,"title":"ten"},"20":{"id":20,"title":"twenty"},"30":{"id":30,"title":"thirty"}}})"));
  auto page = h.client->list({});
  ASSERT_TRUE(page.ok()) << page.error().message;
  ASSERT_EQ(page.value().templates.size(), 3u);
  EXPECT_EQ(page.value().templates[0].title, "thirty");
  EXPECT_EQ(page.value().templates[1].title, "ten");
  EXPECT_EQ(page.value().templates[2].title, "twenty");
  EXPECT_EQ(page.value().count, 3);
}

// Envelopes a service should not send: each is the service's fault (kService), named.
TEST(ApiClient, AnUnusableEnvelopeIsTheServicesErrorSayingWhatIsWrong) {
  const std::string entry = R"({"count":1,"results":[{"key":"project_templates","id":"10"}],)";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"not json", "the response is not a JSON object"},
      {R"(["results"])", "the response is not a JSON object"},
      {"{\"results\":[]}\x80", "the response is not a JSON object"},  // not UTF-8
      {R"({"count":1})", "the response has no `results` array"},
      {R"({"results":{"key":"project_templates","id":"10"}})", "the response has no `results` array"},
      {R"({"results":[{"key":"project_templates","id":"10"}]})", "the response has no `project_templates` map"},
      {entry + R"("project_templates":[]})", "the response has no `project_templates` map"},
      {entry + R"("project_templates":{"11":{"id":11}}})", "`results` names template 10, which the map lacks"},
      {entry + R"("project_templates":{"10":"ten"}})", "a template in the response is not an object"},
      {entry + R"("project_templates":{"10":{"title":"ten"}}})", "a template in the response has no id"},
      {entry + R"("project_templates":{"10":{"id":"ten"}}})",
       "a template in the response has an id that is not a whole number from 1 to 2^63-1: \"ten\""},
      // A number that begins the text is not the id: "1/../../x" is not template 1.
      {entry + R"("project_templates":{"10":{"id":"1/../../x"}}})",
       "a template in the response has an id that is not a whole number from 1 to 2^63-1: \"1/../../x\""},
      {entry + R"("project_templates":{"10":{"id":"0x10"}}})",
       "a template in the response has an id that is not a whole number from 1 to 2^63-1: \"0x10\""},
      {entry + R"("project_templates":{"10":{"id":"1e3"}}})",
       "a template in the response has an id that is not a whole number from 1 to 2^63-1: \"1e3\""},
      {entry + R"("project_templates":{"10":{"id":0}}})",
       "a template in the response has an id that is not a whole number from 1 to 2^63-1: 0"},
      {entry + R"("project_templates":{"10":{"id":-4}}})",
       "a template in the response has an id that is not a whole number from 1 to 2^63-1: -4"},
      {entry + R"("project_templates":{"10":{"id":{"value":10}}}})", "a template in the response has no usable id"},
      {entry + R"("project_templates":{"10":{"id":10.5}}})", "a template in the response has no usable id"},
      // The last of duplicate keys is the one read: here, a `results` that is not an array.
      {R"({"results":[],"results":7,"project_templates":{}})", "the response has no `results` array"},
  };
  for (const auto& [body, message] : cases) {
    Harness h;
    h.transport->script.push_back(reply(200, body));
    auto page = h.client->list({});
    ASSERT_FALSE(page.ok()) << body;
    EXPECT_EQ(page.error().message, "listing templates: " + message) << body;
    EXPECT_EQ(page.error().code, ErrorCode::kService) << body;
  }
}

// Entries of `results` that do not name a template of the map are skipped; fields of the wrong
// type are left empty; a template's JSON is kept as the service wrote it.
TEST(ApiClient, OddButUsableEnvelopesAreRead) {
  Harness h;
  h.transport->script.push_back(reply(
      200, R"({"count":"2","results":[{"key":"users","id":"1"},{"id":"10"},7,{"key":"project_templates","id":10}],)"
           R"("project_templates":{"10":{"id":"10","title":5,"updated_at":null,"raw_json":[],)"
           R"("x": [ 1.50, "\u00e9" ]}}})"));
  auto page = h.client->list({});
  ASSERT_TRUE(page.ok()) << page.error().message;
  EXPECT_EQ(page.value().count, 0);  // not an integer
  ASSERT_EQ(page.value().templates.size(), 1u);
  const RemoteTemplate& t = page.value().templates[0];
  EXPECT_EQ(t.id, 10);
  EXPECT_EQ(t.title, "");
  EXPECT_EQ(t.updated_at, "");
  EXPECT_EQ(t.raw_json, std::nullopt);
  EXPECT_EQ(t.json, R"({"id":"10","title":5,"updated_at":null,"raw_json":[],"x": [ 1.50, "\u00e9" ]})");

  // Nesting up to the bound is read (only deeper is refused, below).
  const std::string deep = std::string(4000, '[') + std::string(4000, ']');
  h.transport->script.push_back(reply(200, R"({"count":1,"results":[{"key":"project_templates","id":"3"}],)"
                                           R"("project_templates":{"3":{"id":3,"title":"Deep","x":)" +
                                               deep + "}}}"));
  auto deep_page = h.client->list({});
  ASSERT_TRUE(deep_page.ok()) << deep_page.error().message;
  EXPECT_EQ(deep_page.value().templates.at(0).json, R"({"id":3,"title":"Deep","x":)" + deep + "}");
}

// Of duplicate keys the last is used, as lint reads them and the service keeps them: in the
// envelope, in the map of templates, in each template and in the error envelope.
TEST(ApiClient, DuplicateKeysInResponsesAreReadAsTheLast) {
  Harness h;
  h.transport->script.push_back(reply(
      200,
      R"({"count":9,"results":[{"key":"project_templates","id":"10"}],"count":2,)"
      R"("results":[{"key":"project_templates","id":"20","id":"10"},{"key":"users","key":"project_templates","id":"20"}],)"
      R"("project_templates":{"10":{"id":10,"title":"old ten"},"20":{"id":20,"title":"twenty"},)"
      R"("10":{"id":1,"id":10,"title":"first","updated_at":"a","title":"ten","updated_at":"b","raw_json":"[1]",)"
      R"("raw_json":"[2]"}}})"));
  auto page = h.client->list({});
  ASSERT_TRUE(page.ok()) << page.error().message;
  EXPECT_EQ(page.value().count, 2);
  ASSERT_EQ(page.value().templates.size(), 2u);
  const RemoteTemplate& ten = page.value().templates[0];
  EXPECT_EQ(ten.id, 10);
  EXPECT_EQ(ten.title, "ten");
  EXPECT_EQ(ten.updated_at, "b");
  EXPECT_EQ(ten.raw_json, "[2]");
  EXPECT_EQ(page.value().templates[1].title, "twenty");

  h.transport->script.push_back(reply(
      422, R"({"errors":[{"type":"x","message":"dropped"}],"errors":[{"type":"validation","message":"a","message":"b",)"
           R"("field":"title"}]})"));
  auto t = h.client->update(12, R"({"project_template":{"title":""}})", "Launch plan");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().message, "updating template 12 \"Launch plan\": HTTP 422: validation: b (field title)");
  EXPECT_EQ(t.error().code, ErrorCode::kService);
}

// Pulling: the document holds the last of duplicate keys of the service's template, and its
// numbers as the service spelled them (as fmt keeps them).
TEST(ApiClient, ATemplateDocumentTakesTheLastOfDuplicateKeys) {
  RemoteTemplate remote;
  remote.id = 4;
  remote.json = R"({"id":4,"title":"first","duration":1,"title":"last","budget":null,"duration":2,"budget":1500.50})";
  remote.raw_json = R"([{"title":"A","temp_id":1}])";
  auto document = template_document(remote);
  ASSERT_TRUE(document.ok()) << document.error().message;
  EXPECT_EQ(document.value(), R"({
  "project_template": {
    "id": 4,
    "title": "last",
    "budget": 1500.50,
    "duration": 2,
    "raw_json": [
      {
        "title": "A",
        "temp_id": 1
      }
    ]
  }
}
)");
}

// A broken or hostile service: a response nested a million levels deep is an error naming the
// bound, not a stack overflow (RapidJSON's DOM recurses once per level).
TEST(ApiClient, AResponseNestedAMillionLevelsDeepIsAnErrorNotACrash) {
  constexpr std::size_t kLevels = 1'000'000;
  Harness h;
  h.transport->script.push_back(reply(
      200, R"({"count":1,"results":[{"key":"project_templates","id":"1"}],"project_templates":{"1":{"id":1,"title":)" +
               std::string(kLevels, '[') + std::string(kLevels, ']') + "}}}"));
  auto page = h.client->list({});
  ASSERT_FALSE(page.ok());
  EXPECT_NE(page.error().message.find("nested deeper than 4096 levels"), std::string::npos) << page.error().message;

  // An error body as deep: shown as an unexpected body, not parsed recursively.
  h.transport->script.push_back(
      reply(422, R"({"errors":)" + std::string(kLevels, '[') + std::string(kLevels, ']') + "}"));
  auto t = h.client->update(12, R"({"project_template":{"title":"x"}})", "Launch plan");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().message.find("HTTP 422"), std::string::npos) << t.error().message;
}

TEST(ApiClient, ATemplateWhoseJsonOrRawJsonIsTooDeepIsNotWrittenAsADocument) {
  constexpr std::size_t kLevels = 1'000'000;
  RemoteTemplate deep_json;
  deep_json.id = 7;
  deep_json.json = R"({"id":7,"title":)" + std::string(kLevels, '[') + std::string(kLevels, ']') + "}";
  auto document = template_document(deep_json);
  ASSERT_FALSE(document.ok());
  EXPECT_EQ(document.error().message, "template 7: the service's JSON is nested deeper than 4096 levels");

  RemoteTemplate deep_stories;
  deep_stories.id = 8;
  deep_stories.json = R"({"id":8,"title":"Deep"})";
  deep_stories.raw_json = std::string(kLevels, '[') + std::string(kLevels, ']');
  document = template_document(deep_stories);
  ASSERT_FALSE(document.ok());
  EXPECT_EQ(document.error().message, "template 8: its raw_json is nested deeper than 4096 levels");
}

// A slow server: it takes the connection (the kernel completes the handshake of a listening
// socket) and never answers. Each attempt ends at the transport's timeout, and the retries are
// bounded, so the command ends with the timeout in its message instead of hanging.
TEST(ApiClient, AServerThatNeverAnswersTimesOutAndTheRetriesAreBounded) {
  int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(listener, 16), 0);
  socklen_t length = sizeof address;
  ASSERT_EQ(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length), 0);

  TransportOptions transport;
  transport.timeout = milliseconds(300);
  ClientOptions options;
  options.base_url = "http://127.0.0.1:" + std::to_string(ntohs(address.sin_port)) + "/api/v1";
  options.token = kToken;
  options.retry.max_attempts = 3;
  options.retry.base_delay = milliseconds(1);
  Client client(options, make_curl_transport(transport));
  const auto started = std::chrono::steady_clock::now();
  auto t = client.get(1);
  const auto took = std::chrono::steady_clock::now() - started;
  ::close(listener);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().message.find("reading template 1: gave up after 3 attempts"), std::string::npos)
      << t.error().message;
  // libcurl's wording: "Operation timed out after 301 milliseconds with 0 bytes received".
  EXPECT_NE(t.error().message.find("; last: no response: Operation timed out after "), std::string::npos)
      << t.error().message;
  EXPECT_NE(t.error().message.find("(curl error 28)"), std::string::npos) << t.error().message;
  EXPECT_LT(took, std::chrono::seconds(10));
}

TEST(ApiClient, ListAllPaginatesWith200AndFetchesRawJsonByOnly) {
  Harness h;
  auto page_of = [](int first, int n, int count) {
    std::string results, map;
    for (int id = first; id < first + n; ++id) {
      results +=
          std::string(results.empty() ? "" : ",") + R"({"key":"project_templates","id":")" + std::to_string(id) + "\"}";
      map += std::string(map.empty() ? "" : ",") + "\"" + std::to_string(id) + R"(":{"id":)" + std::to_string(id) +
             R"(,"title":"t","raw_json":"[1]"})";
    }
    return R"({"count":)" + std::to_string(count) + R"(,"results":[)" + results + R"(],"project_templates":{)" + map +
           "}}";
  };
  h.transport->script.push_back(reply(200, page_of(1, 200, 250)));
  h.transport->script.push_back(reply(200, page_of(201, 50, 250)));
  h.transport->script.push_back(reply(200, page_of(1, 200, 200)));
  h.transport->script.push_back(reply(200, page_of(201, 50, 50)));
  ListQuery query;
  query.with_raw_json = true;
  auto all = h.client->list_all(query);
  ASSERT_TRUE(all.ok()) << all.error().message;
  EXPECT_EQ(all.value().size(), 250u);
  EXPECT_EQ(all.value()[249].raw_json, "[1]");
  ASSERT_EQ(h.transport->sent.size(), 4u);
  EXPECT_NE(h.transport->sent[0].url.find("page=1&per_page=200"), std::string::npos);
  EXPECT_EQ(h.transport->sent[0].url.find("optional_fields"), std::string::npos);
  EXPECT_NE(h.transport->sent[1].url.find("page=2&per_page=200"), std::string::npos);
  EXPECT_NE(h.transport->sent[3].url.find("only=201%2C202"), std::string::npos);
  EXPECT_NE(h.transport->sent[3].url.find("optional_fields=raw_json"), std::string::npos);
}

TEST(ApiClient, AMissingTemplateIsNotFoundAndOtherRefusalsAreTheServices) {
  Harness h;
  h.transport->script.push_back(reply(404, R"({"errors":[{"type":"system","message":"not found"}]})"));
  auto missing = h.client->get(9);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(missing.error().exit_code(), 2);
  h.transport->script.push_back(reply(500, R"({"errors":[{"type":"system","message":"oops"}]})"));
  auto broken = h.client->get(9);
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.error().code, ErrorCode::kService);
  EXPECT_EQ(h.transport->sent.size(), 2u);  // neither is retried
}

TEST(ApiClient, LostResponsesAreNetworkFailuresAndBusyAnswersTheServices) {
  Harness h;
  for (int i = 0; i < RetryPolicy{}.max_attempts; ++i)
    h.transport->script.push_back(Error::network("connection reset"));
  auto lost = h.client->get(1);
  ASSERT_FALSE(lost.ok());
  EXPECT_EQ(lost.error().code, ErrorCode::kNetwork);
  for (int i = 0; i < RetryPolicy{}.max_attempts; ++i) h.transport->script.push_back(reply(503, ""));
  auto busy = h.client->get(1);
  ASSERT_FALSE(busy.ok());
  EXPECT_EQ(busy.error().code, ErrorCode::kService);
  EXPECT_NE(busy.error().message.find("gave up after"), std::string::npos) << busy.error().message;
}

TEST(ApiClient, NeverShowsTheTokenInErrorsOrTrace) {
  Harness h;
  h.transport->script.push_back(Error::network(std::string("proxy said: bad header Bearer ") + kToken));
  h.transport->script.push_back(
      reply(401, std::string(R"({"errors":[{"type":"oauth","message":"token )") + kToken + R"( revoked"}]})"));
  auto t = h.client->get(5);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().message, "reading template 5: HTTP 401: oauth: token [REDACTED] revoked");
  EXPECT_EQ(t.error().code, ErrorCode::kService);
  const std::string trace = h.trace.str();
  EXPECT_EQ(trace.find(kToken), std::string::npos) << trace;
  EXPECT_NE(trace.find("> Authorization: Bearer [REDACTED]"), std::string::npos) << trace;
  EXPECT_NE(trace.find("< HTTP 401"), std::string::npos) << trace;
  EXPECT_EQ(redact("a s3cr3t-token-values3cr3t-token-value b", kToken), "a [REDACTED][REDACTED] b");
}

// `--verbose` writes to a terminal: a transport's message quoting what a proxy or a service
// sent must not reach it with its escape sequences.
TEST(ApiClient, TheTraceEscapesControlCharacters) {
  Harness h;
  h.transport->script.push_back(Error::network("proxy said: \x1b]0;pwned\x07\x1b[2J"));
  h.transport->script.push_back(reply(200, one(5, "Launch")));
  ASSERT_TRUE(h.client->get(5).ok());
  const std::string trace = h.trace.str();
  EXPECT_EQ(trace.find('\x1b'), std::string::npos) << trace;
  EXPECT_EQ(trace.find('\x07'), std::string::npos) << trace;
  EXPECT_NE(trace.find("< no response: proxy said: \\u001B]0;pwned\\u0007\\u001B[2J\n"), std::string::npos) << trace;
  EXPECT_NE(trace.find("< HTTP 200"), std::string::npos) << trace;
}

TEST(ApiClient, AcceptsHttpsAndPlainHttpOnlyToLoopback) {
  EXPECT_TRUE(check_base_url("https://api.example.com/api/v1").ok());
  EXPECT_TRUE(check_base_url("http://127.0.0.1:8080/api/v1").ok());
  EXPECT_TRUE(check_base_url("http://127.3.4.5/api/v1").ok());
  EXPECT_TRUE(check_base_url("http://localhost:1/api/v1").ok());
  EXPECT_TRUE(check_base_url("http://[::1]:9/api/v1").ok());
  EXPECT_EQ(check_base_url("http://api.example.com/api/v1").error().message,
            "refusing plain http:// to api.example.com: only https is allowed, except to a loopback address");
  EXPECT_FALSE(check_base_url("http://128.0.0.1/api/v1").ok());
  EXPECT_FALSE(check_base_url("http://127.0.0.1.example.com/api/v1").ok());
  EXPECT_FALSE(check_base_url("ftp://127.0.0.1/").ok());
  EXPECT_FALSE(check_base_url("https://user:pw@api.example.com/").ok());
  EXPECT_FALSE(check_base_url("api.example.com").ok());

  auto fake = std::make_unique<FakeTransport>();
  FakeTransport* transport = fake.get();
  Client client({"http://api.example.com/api/v1", kToken, {}, {}, 1, nullptr, nullptr}, std::move(fake));
  EXPECT_FALSE(client.get(1).ok());
  EXPECT_TRUE(transport->sent.empty());  // refused before anything is sent
}

TEST(ApiClient, LoadsATokenFromAPrivateFileOrTheEnvironment) {
  testing::ScratchDir dir("token");
  std::string file = dir.write("token", std::string("  ") + kToken + "\n");
  auto token = load_token(file, std::nullopt);
  ASSERT_TRUE(token.ok()) << token.error().message;
  EXPECT_EQ(token.value(), kToken);

  ::chmod(file.c_str(), 0640);
  auto refused = load_token(file, "from-env");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message,
            file + ": the access token file is readable by group or others; refused (chmod 600 " + file + ")");
  EXPECT_EQ(refused.error().message.find(kToken), std::string::npos);

  EXPECT_EQ(load_token("", " from-env\n").value(), "from-env");
  auto unset = load_token("", std::nullopt);
  ASSERT_FALSE(unset.ok());
  EXPECT_EQ(unset.error().code, ErrorCode::kUsage);
  EXPECT_EQ(load_token("", "").error().message, "PTMPL_TOKEN: the access token is empty");
  EXPECT_EQ(load_token("", "two words").error().message, "PTMPL_TOKEN: the access token has spaces or several lines");
  std::string empty = dir.write("empty", "\n");
  EXPECT_EQ(load_token(empty, "from-env").error().message, empty + ": the access token is empty");
  // The client secret goes through the same loader.
  EXPECT_EQ(load_secret("", std::nullopt, "PTMPL_CLIENT_SECRET", "client secret").error().message,
            "no client secret: pass its file or set PTMPL_CLIENT_SECRET");
}

TEST(OAuth, ExchangeSendsTheReferencesFormAndKeepsSecretsOutOfErrors) {
  FakeTransport transport;
  OAuthApp app{"https://app.example", "cid", "https://ci.example/cb"};
  transport.script.push_back(reply(200, R"({"access_token":"tok-1","token_type":"bearer"})"));
  auto token = exchange_code(transport, app, "the-secret", "the-code");
  ASSERT_TRUE(token.ok()) << token.error().message;
  EXPECT_EQ(token.value(), "tok-1");
  ASSERT_EQ(transport.sent.size(), 1u);
  EXPECT_EQ(transport.sent[0].url, "https://app.example/oauth/token");
  EXPECT_EQ(
      transport.sent[0].body,
      "client_id=cid&client_secret=the-secret&grant_type=authorization_code&code=the-code&redirect_uri=https%3A%2F%"
      "2Fci.example%2Fcb");

  transport.script.push_back(
      reply(400, R"({"error":"invalid_grant","error_description":"code the-code for secret the-secret expired"})"));
  auto refused = exchange_code(transport, app, "the-secret", "the-code");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message,
            "exchanging the code: HTTP 400: invalid_grant: code [REDACTED] for secret [REDACTED] expired");
  EXPECT_EQ(
      authorize_url(app, ""),
      "https://app.example/oauth/authorize?client_id=cid&response_type=code&redirect_uri=https%3A%2F%2Fci.example%"
      "2Fcb");
  EXPECT_FALSE(exchange_code(transport, {"http://app.example", "cid", "x"}, "s", "c").ok());  // https only
}

TEST(OAuth, TheLastOfDuplicateKeysInTheAnswerIsUsed) {
  FakeTransport transport;
  OAuthApp app{"https://app.example", "cid", "https://ci.example/cb"};
  transport.script.push_back(reply(200, R"({"access_token":"old","token_type":"bearer","access_token":"tok-2"})"));
  auto token = exchange_code(transport, app, "the-secret", "the-code");
  ASSERT_TRUE(token.ok()) << token.error().message;
  EXPECT_EQ(token.value(), "tok-2");
  transport.script.push_back(reply(400, R"({"error":"x","error":"invalid_grant","error_description":"expired"})"));
  auto refused = exchange_code(transport, app, "the-secret", "the-code");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message, "exchanging the code: HTTP 400: invalid_grant: expired");
  EXPECT_EQ(refused.error().code, ErrorCode::kService);
}

}  // namespace
}  // namespace ptmpl::publish
