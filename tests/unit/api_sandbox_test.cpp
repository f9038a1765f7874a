// The real client (libcurl) against the real sandbox over HTTPS on 127.0.0.1.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>

#include "libtemplate/publish/api_client.hpp"
#include "sandbox_process.hpp"

namespace ptmpl::testing {
namespace {

using namespace ptmpl::publish;

constexpr const char* kToken = "client-test-token-9f2c";

class ApiSandboxTest : public ::testing::Test {
 protected:
  ScratchDir dir{"api-sandbox"};
  std::string tokens = dir.write("tokens", std::string(kToken) + " 1\nother-user-token 2\n");

  std::unique_ptr<SandboxProcess> start(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"--data-dir", dir.file("data"), "--tokens-file", tokens};
    args.insert(args.end(), extra.begin(), extra.end());
    auto s = std::make_unique<SandboxProcess>(args);
    EXPECT_TRUE(s->ready()) << s->first_line();
    return s;
  }

  static Client client_for(const SandboxProcess& s, std::ostream* trace = nullptr, std::string cacert = "",
                           std::string token = kToken) {
    ClientOptions options;
    options.base_url = s.base_url();
    options.token = std::move(token);
    options.retry.max_attempts = 12;
    options.retry.base_delay = std::chrono::milliseconds(2);
    options.retry.max_delay = std::chrono::milliseconds(20);
    options.trace = trace;
    TransportOptions transport;
    transport.cacert = cacert.empty() ? s.ca_path() : cacert;
    transport.timeout = std::chrono::milliseconds(10'000);
    return Client(options, make_curl_transport(transport));
  }

  static std::string body(const std::string& title, const std::string& raw_json) {
    std::string escaped;
    for (char c : raw_json) {
      if (c == '"' || c == '\\') escaped += '\\';
      escaped += c;
    }
    return R"({"project_template":{"title":")" + title + R"(","raw_json":")" + escaped + R"("}})";
  }
};

TEST_F(ApiSandboxTest, CreatesReadsUpdatesAndListsOverVerifiedHttps) {
  auto s = start();
  Client client = client_for(*s);
  const std::string raw = R"([{"title":"Design \"v1\"","temp_id":1,"tag_list":"a, b"}])";
  auto created = client.create(body("Round trip", raw), "Round trip");
  ASSERT_TRUE(created.ok()) << created.error().message;
  EXPECT_EQ(created.value().raw_json, raw);
  auto read = client.get(created.value().id);
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_EQ(read.value().raw_json, raw);  // byte for byte
  auto updated = client.update(created.value().id, R"({"project_template":{"title":"Renamed"}})", "Renamed");
  ASSERT_TRUE(updated.ok()) << updated.error().message;
  EXPECT_EQ(updated.value().title, "Renamed");
  auto found = client.find_by_title("Renamed");
  ASSERT_TRUE(found.ok());
  ASSERT_EQ(found.value().size(), 1u);
  EXPECT_EQ(found.value()[0].id, created.value().id);
}

TEST_F(ApiSandboxTest, PaginatesEveryTemplateWithRawJson) {
  auto s = start();
  Client client = client_for(*s);
  for (int i = 0; i < 450; ++i)
    ASSERT_TRUE(
        client.create(body("P" + std::to_string(i), "[" + std::to_string(i) + "]"), "P" + std::to_string(i)).ok());
  ListQuery query;
  query.order = "title:asc";
  query.with_raw_json = true;
  auto all = client.list_all(query);
  ASSERT_TRUE(all.ok()) << all.error().message;
  ASSERT_EQ(all.value().size(), 450u);
  std::set<std::int64_t> ids;
  for (const auto& t : all.value()) {
    ids.insert(t.id);
    ASSERT_TRUE(t.raw_json.has_value());
    EXPECT_EQ(*t.raw_json, "[" + t.title.substr(1) + "]");
  }
  EXPECT_EQ(ids.size(), 450u);
  EXPECT_TRUE(std::is_sorted(all.value().begin(), all.value().end(),
                             [](const auto& a, const auto& b) { return a.title < b.title; }));
}

TEST_F(ApiSandboxTest, RetriesInjectedFaultsWithNothingDuplicatedOrLost) {
  auto s = start({"--fail-rate", "0.35", "--faults", "429,503,drop,drop-after", "--retry-after", "0", "--seed", "7"});
  Client client = client_for(*s);
  for (int i = 0; i < 60; ++i) {
    auto t = client.create(body("F" + std::to_string(i), "[]"), "F" + std::to_string(i));
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(t.value().title, "F" + std::to_string(i));
  }
  s->stop(SIGTERM);
  auto clean = start();
  Client reader = client_for(*clean);
  auto all = reader.list_all({});
  ASSERT_TRUE(all.ok()) << all.error().message;
  std::multiset<std::string> titles;
  for (const auto& t : all.value()) titles.insert(t.title);
  EXPECT_EQ(titles.size(), 60u);
  for (int i = 0; i < 60; ++i) EXPECT_EQ(titles.count("F" + std::to_string(i)), 1u) << i;
}

TEST_F(ApiSandboxTest, Kill9DuringManyCreatesThenRestartAndRedoEndsWithEachTemplateOnce) {
  constexpr int kTemplates = 200;
  auto raw_of = [](int i) { return R"([{"title":"story of )" + std::to_string(i) + R"(","temp_id":1}])"; };
  auto title_of = [](int i) { return "K" + std::to_string(i); };
  {
    auto s = start();
    Client client = client_for(*s);
    std::atomic<int> done{0};
    std::atomic<bool> finished{false};
    // Killed from another thread while creates are in flight, at no particular request.
    std::thread killer([&] {
      while (done.load() < 70 && !finished.load()) std::this_thread::sleep_for(std::chrono::microseconds(200));
      s->stop(SIGKILL);
    });
    for (int i = 0; i < kTemplates; ++i) {
      if (!client.create(body(title_of(i), raw_of(i)), title_of(i)).ok()) break;
      ++done;
    }
    finished = true;
    killer.join();
    EXPECT_LT(done.load(), kTemplates);
  }
  // Restart on the same data; redo everything, creating only what is not there yet.
  auto s = start();
  Client client = client_for(*s);
  for (int i = 0; i < kTemplates; ++i) {
    auto existing = client.find_by_title(title_of(i));
    ASSERT_TRUE(existing.ok()) << existing.error().message;
    ASSERT_LE(existing.value().size(), 1u) << title_of(i);
    if (existing.value().empty()) {
      ASSERT_TRUE(client.create(body(title_of(i), raw_of(i)), title_of(i)).ok());
    }
  }
  ListQuery query;
  query.with_raw_json = true;
  auto all = client.list_all(query);
  ASSERT_TRUE(all.ok()) << all.error().message;
  ASSERT_EQ(all.value().size(), static_cast<std::size_t>(kTemplates));
  std::set<std::string> titles;
  for (const auto& t : all.value()) {
    titles.insert(t.title);
    EXPECT_EQ(t.raw_json, raw_of(std::stoi(t.title.substr(1)))) << t.title;
  }
  EXPECT_EQ(titles.size(), static_cast<std::size_t>(kTemplates));
}

TEST_F(ApiSandboxTest, SurfacesServiceErrorsWithStatusAndTemplate) {
  auto s = start();
  Client client = client_for(*s);
  auto invalid = client.create(R"({"project_template":{"title":"Bad","currency":"euros"}})", "Bad");
  ASSERT_FALSE(invalid.ok());
  EXPECT_EQ(invalid.error().message,
            "creating template \"Bad\": HTTP 422: validation: currency must be a three-letter ISO 4217 code "
            "(field currency)");
  auto missing = client.get(404);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, "reading template 404: HTTP 404: system: project template 404 not found");
}

TEST_F(ApiSandboxTest, KeepsTheTokenOutOfTraceAndErrors) {
  auto s = start();
  std::ostringstream trace;
  Client client = client_for(*s, &trace);
  ASSERT_TRUE(client.list({}).ok());
  Client wrong = client_for(*s, &trace, "", std::string(kToken) + "-revoked");
  auto refused = wrong.list({});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message, "listing templates: HTTP 401: oauth: invalid or missing access token");
  EXPECT_EQ(trace.str().find(kToken), std::string::npos) << trace.str();
  EXPECT_NE(trace.str().find("Bearer [REDACTED]"), std::string::npos);
}

TEST_F(ApiSandboxTest, RefusesAServerItCannotVerify) {
  auto s = start();
  // Another sandbox's CA: same names, different authority.
  ScratchDir other("api-sandbox-other");
  SandboxProcess stranger({"--data-dir", other.file("data"), "--tokens-file", tokens});
  ASSERT_TRUE(stranger.ready()) << stranger.first_line();
  ASSERT_NE(stranger.base_url(), s->base_url());
  ASSERT_NE(stranger.ca_path(), s->ca_path());
  // Each one is reachable and verifies with its own CA, so what fails below is the CA alone.
  ASSERT_TRUE(client_for(*s).list({}).ok());
  ASSERT_TRUE(client_for(stranger).list({}).ok());

  for (int round = 0; round < 5; ++round) {
    Client client = client_for(*s, nullptr, stranger.ca_path());
    auto listed = client.list({});
    ASSERT_FALSE(listed.ok());
    const std::string& message = listed.error().message;
    EXPECT_TRUE(
        message.starts_with("listing templates: no response: the server's certificate does not verify "
                            "against " +
                            stranger.ca_path() + ": "))
        << message;
    EXPECT_NE(message.find("(curl error "), std::string::npos) << message;
    EXPECT_EQ(message.find("gave up"), std::string::npos) << message;  // not retried
    EXPECT_EQ(listed.error().code, ErrorCode::kInsecure) << message;
  }
}

// The client decodes a CA file once per process and keeps it (curl_transport.cpp, CaFiles): a
// file replaced at the same path is decoded again, so what was trusted before is not trusted
// after, and a file that no longer holds a certificate is refused, not served from the cache.
TEST_F(ApiSandboxTest, ACaFileReplacedAtItsPathIsReadAgain) {
  auto s = start();
  ScratchDir other("api-sandbox-replaced");
  SandboxProcess stranger({"--data-dir", other.file("data"), "--tokens-file", tokens});
  ASSERT_TRUE(stranger.ready()) << stranger.first_line();
  auto read = [](const std::string& path) {
    std::ifstream in(path);
    return std::string{std::istreambuf_iterator<char>(in), {}};
  };
  const std::string trusted = dir.file("trusted.pem");
  auto replace = [&](const std::string& text) {
    // A new file renamed over the old one, as a package manager or an editor writes it.
    std::string next = trusted + ".next";
    std::ofstream(next) << text;
    ASSERT_EQ(std::rename(next.c_str(), trusted.c_str()), 0);
  };
  replace(read(s->ca_path()));
  ASSERT_TRUE(client_for(*s, nullptr, trusted).list({}).ok());
  EXPECT_FALSE(client_for(stranger, nullptr, trusted).list({}).ok());

  replace(read(stranger.ca_path()));
  auto now_stranger = client_for(stranger, nullptr, trusted).list({});
  EXPECT_TRUE(now_stranger.ok()) << now_stranger.error().message;
  auto now_first = client_for(*s, nullptr, trusted).list({});
  ASSERT_FALSE(now_first.ok());
  EXPECT_EQ(now_first.error().code, ErrorCode::kInsecure) << now_first.error().message;

  replace("not a certificate\n");
  auto none = client_for(stranger, nullptr, trusted).list({});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().code, ErrorCode::kInsecure) << none.error().message;
}

/// A plain-HTTP listener on 127.0.0.1 that accepts connections, records the request line of
/// each, and never answers.
class SilentServer {
 public:
  SilentServer() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof address;
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&address), size) != 0 || ::listen(fd_, 16) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &size) != 0)
      return;
    port_ = ntohs(address.sin_port);
    thread_ = std::thread([this] {
      for (;;) {
        int connection = ::accept(fd_, nullptr, nullptr);
        if (connection < 0) return;
        std::string head;
        char buffer[4096];
        while (head.find("\r\n") == std::string::npos) {
          ssize_t n = ::recv(connection, buffer, sizeof buffer, 0);
          if (n <= 0) break;
          head.append(buffer, static_cast<std::size_t>(n));
        }
        std::lock_guard lock(mutex_);
        lines_.push_back(head.substr(0, head.find("\r\n")));
        held_.push_back(connection);  // open and unanswered until the server goes
      }
    });
  }
  ~SilentServer() {
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    if (thread_.joinable()) thread_.join();
    for (int c : held_) ::close(c);
  }
  SilentServer(const SilentServer&) = delete;
  SilentServer& operator=(const SilentServer&) = delete;

  [[nodiscard]] std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/api/v1"; }
  /// The request lines so far, once there are `expected` of them (or after 5 s).
  [[nodiscard]] std::vector<std::string> request_lines(std::size_t expected) const {
    for (int i = 0; i < 500; ++i) {
      {
        std::lock_guard lock(mutex_);
        if (lines_.size() >= expected) break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    std::lock_guard lock(mutex_);
    return lines_;
  }

 private:
  int fd_ = -1;
  int port_ = 0;
  std::thread thread_;
  mutable std::mutex mutex_;
  std::vector<std::string> lines_;
  std::vector<int> held_;
};

TEST_F(ApiSandboxTest, TimesOutAServerThatNeverAnswersAndNeverRepeatsAPostBlindly) {
  SilentServer silent;
  ClientOptions options;
  options.base_url = silent.base_url();
  options.token = kToken;
  options.retry.max_attempts = 3;
  options.retry.base_delay = std::chrono::milliseconds(2);
  options.retry.max_delay = std::chrono::milliseconds(5);
  TransportOptions transport;
  transport.timeout = std::chrono::milliseconds(300);
  Client client(options, make_curl_transport(transport));

  auto started = std::chrono::steady_clock::now();
  auto listed = client.list({});
  ASSERT_FALSE(listed.ok());
  EXPECT_NE(listed.error().message.find("(curl error 28)"), std::string::npos) << listed.error().message;  // timeout
  EXPECT_NE(listed.error().message.find("gave up after 3 attempts"), std::string::npos) << listed.error().message;
  EXPECT_EQ(listed.error().code, ErrorCode::kNetwork);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
  EXPECT_EQ(silent.request_lines(3).size(), 3u);  // a GET is retried

  // The POST times out: it may have been applied, so the title is looked up (which times out
  // too) instead of sending it again.
  auto created = client.create(R"({"project_template":{"title":"Silent"}})", "Silent");
  ASSERT_FALSE(created.ok());
  EXPECT_NE(created.error().message.find("then, looking the title up: "), std::string::npos) << created.error().message;
  auto lines = silent.request_lines(3 + 1 + 3);
  ASSERT_EQ(lines.size(), 3u + 1u + 3u) << ::testing::PrintToString(lines);
  EXPECT_EQ(lines[3], "POST /api/v1/project_templates.json HTTP/1.1");
  for (std::size_t i = 4; i < lines.size(); ++i)
    EXPECT_TRUE(
        lines[i].starts_with("GET /api/v1/project_templates.json?page=1&per_page=200&mine=true&by_title=Silent"))
        << lines[i];
  for (const auto& line : lines) EXPECT_EQ(line.find(kToken), std::string::npos);
}

}  // namespace
}  // namespace ptmpl::testing
