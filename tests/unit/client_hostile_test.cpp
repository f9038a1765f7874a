// The service's client against services that misbehave at the level of HTTP (headers without
// end, a body that drips, a connection dropped under a POST) and against inputs that could never
// be sent (ids, tokens, addresses, files of gigabytes): each bound is met and named.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "cli_run.hpp"
#include "fake_clock.hpp"
#include "libtemplate/publish/api_client.hpp"
#include "libtemplate/publish/oauth.hpp"
#include "raw_http_server.hpp"
#include "sandbox_process.hpp"

namespace ptmpl::testing::client_hostile_test {
namespace {

using std::chrono::milliseconds;
using Then = RawHttpServer::Then;

constexpr const char* kEnv = "PTMPL_TOKEN=hostile-token-5d1e";

std::string list_at(const RawHttpServer& server, const std::string& options = "") {
  return "list --base-url " + server.url("/api/v1") + " " + options;
}

/// A sparse file of `bytes` (no disk used), mode 600.
std::string sparse_file(const ScratchDir& dir, const std::string& name, off_t bytes) {
  std::string path = dir.file(name);
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  EXPECT_GE(fd, 0);
  EXPECT_EQ(::ftruncate(fd, bytes), 0);
  ::close(fd);
  return path;
}

// ---------------------------------------------------------------------------------------------
// Bounds of a response.

TEST(ClientHostileService, AHeaderLineOfTwentyMegabytesIsRefusedOnceNamingTheBound) {
  RawHttpServer server([](const RawHttpServer::Request&, RawHttpServer::Peer& peer) {
    if (peer.send("HTTP/1.1 200 OK\r\nX-Big: ")) {
      const std::string chunk(1 << 20, 'a');
      for (int i = 0; i < 20 && peer.send(chunk); ++i) {
      }
    }
    return Then::kClose;
  });
  CliRun run = run_ptmpl(list_at(server), kEnv);
  EXPECT_EQ(run.exit, 3);
  EXPECT_EQ(run.err,
            "ptmpl list: listing templates: a line of the response's headers is longer than 100.0 KiB (102400 bytes), "
            "the most libcurl takes\n");
  EXPECT_EQ(server.requests("GET"), 1);  // the same request would bring the same answer
}

TEST(ClientHostileService, HeadersWithoutEndAreCutAtTheirBound) {
  RawHttpServer server([](const RawHttpServer::Request&, RawHttpServer::Peer& peer) {
    const std::string line = "X-More: " + std::string(50 << 10, 'b') + "\r\n";
    if (peer.send("HTTP/1.1 200 OK\r\n"))
      while (peer.send(line)) {
      }
    return Then::kClose;
  });
  CliRun run = run_ptmpl(list_at(server), kEnv);
  EXPECT_EQ(run.exit, 3);
  EXPECT_EQ(run.err,
            "ptmpl list: listing templates: the response's headers pass 256.0 KiB (262144 bytes), the most the client "
            "takes\n");
  EXPECT_EQ(server.requests("GET"), 1);
}

TEST(ClientHostileService, AnEndlessChunkedBodyIsCutAtTheBoundTheOptionSets) {
  RawHttpServer server([](const RawHttpServer::Request&, RawHttpServer::Peer& peer) {
    const std::string chunk = "10000\r\n" + std::string(0x10000, ' ') + "\r\n";
    if (peer.send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"))
      while (peer.send(chunk)) {
      }
    return Then::kClose;
  });
  CliRun run = run_ptmpl(list_at(server, "--max-response 2"), kEnv);
  EXPECT_EQ(run.exit, 3);
  // Cut at the first piece past the bound (how big the pieces are is libcurl's choice).
  EXPECT_EQ(run.err.rfind("ptmpl list: listing templates: the response is too large: 2.", 0), 0u) << run.err;
  EXPECT_NE(run.err.find(" bytes); the client takes at most 2.0 MiB (2097152 bytes) (--max-response)\n"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(server.requests("GET"), 1);
}

// ---------------------------------------------------------------------------------------------
// A POST is sent once.

TEST(ClientHostileService, APostWhoseConnectionDropsIsNeverSentAgainByTheTransport) {
  // GETs are answered on a kept-alive connection; a POST is read, then its connection closed
  // without a word: it may have been applied.
  RawHttpServer server([](const RawHttpServer::Request& request, RawHttpServer::Peer& peer) {
    if (request.method == "POST") return Then::kClose;
    peer.send(RawHttpServer::response(200, "{}"));
    return Then::kKeepOpen;
  });
  auto transport = publish::make_curl_transport({});
  auto got = transport->send({"GET", server.url("/api/v1/project_templates.json"), {}, ""});
  ASSERT_TRUE(got.ok()) << got.error().message;
  auto posted =
      transport->send({"POST", server.url("/api/v1/project_templates.json"), {}, R"({"project_template":{}})"});
  ASSERT_FALSE(posted.ok());
  EXPECT_EQ(posted.error().code, ErrorCode::kNetwork);  // its outcome unknown: the client looks before sending again
  EXPECT_EQ(server.requests("POST"), 1);
  // The transport goes on working.
  EXPECT_TRUE(transport->send({"GET", server.url("/api/v1/project_templates.json"), {}, ""}).ok());
}

// ---------------------------------------------------------------------------------------------
// Time.

// The drip would keep a client that waits for the whole answer for 100,000 × 20 ms, half an
// hour; the command must give up at its deadline of 1 s. The bound on the whole run leaves room
// for a sanitized process starting on a loaded machine (it once took 3 s at load 7 against a
// bound of 2.5 s) and is still a hundred times shorter than the drip.
TEST(ClientHostileService, AServerThatDripsIsLeftAtTheDeadline) {
  RawHttpServer server([](const RawHttpServer::Request&, RawHttpServer::Peer& peer) {
    if (peer.send("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n"))
      while (peer.pause(20) && peer.send(" ")) {
      }
    return Then::kClose;
  });
  const auto started = std::chrono::steady_clock::now();
  CliRun run = run_ptmpl(list_at(server, "--timeout 1"), kEnv);
  const auto took = std::chrono::steady_clock::now() - started;
  EXPECT_EQ(run.exit, 3);
  EXPECT_EQ(run.err.rfind("ptmpl list: listing templates: no answer within the deadline of 1 s (--timeout); last: no "
                          "response: Operation timed out after ",
                          0),
            0u)
      << run.err;
  EXPECT_LT(took, std::chrono::seconds(15));
}

/// A transport whose every exchange takes 50 s of the test's clock (or the time it is given)
/// and ends without an answer.
class SlowTransport final : public publish::Transport {
 public:
  explicit SlowTransport(std::shared_ptr<FakeClock> clock) : clock_(std::move(clock)) {}
  std::vector<milliseconds> timeouts;
  Result<publish::HttpResponse> send(const publish::HttpRequest& request) override {
    timeouts.push_back(request.timeout);
    clock_->sleep_until(clock_->now() + std::min<milliseconds>(milliseconds(50'000), request.timeout));
    return Error::network("Operation timed out");
  }

 private:
  std::shared_ptr<FakeClock> clock_;
};

TEST(ClientHostileService, ARequestsAttemptsAndWaitsTogetherEndAtItsDeadline) {
  auto clock = std::make_shared<FakeClock>();
  auto slow = std::make_unique<SlowTransport>(clock);
  SlowTransport* transport = slow.get();
  publish::ClientOptions options;
  options.base_url = "https://templates.example/api/v1";
  options.token = "t0k3n-abcdefgh";
  options.clock = clock;
  options.jitter_seed = 7;
  publish::Client client(options, std::move(slow));
  auto got = client.get(12);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().code, ErrorCode::kNetwork);
  EXPECT_EQ(got.error().message,
            "reading template 12: no answer within the deadline of 120 s (--timeout); last: no response: Operation "
            "timed out");
  // Each attempt is given what is left of the 120 s; the third takes the rest.
  ASSERT_EQ(transport->timeouts.size(), 3u);
  EXPECT_EQ(transport->timeouts[0], milliseconds(120'000));
  EXPECT_LT(transport->timeouts[1], milliseconds(70'000));
  EXPECT_LT(transport->timeouts[2], milliseconds(20'000));
  EXPECT_EQ(clock->now(), FakeClock::epoch() + milliseconds(120'000));
}

// ---------------------------------------------------------------------------------------------
// What could never be sent.

TEST(ClientInput, IdsThatAreNotWholeNumbersAreRefusedShowingTheText) {
  for (const char* id : {"0x10", "1e3", "+5", "007", "0", "9223372036854775808"}) {
    CliRun run = run_ptmpl(std::string("pull '") + id + "' --base-url http://127.0.0.1:9/api/v1", kEnv);
    EXPECT_EQ(run.exit, 2) << id;
    EXPECT_EQ(run.err, std::string("ptmpl pull: \"") + id +
                           "\" is not a template id: a whole number from 1 to 2^63-1, in decimal digits alone\n");
  }
  EXPECT_EQ(publish::template_id("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(publish::template_id("12"), 12);
  for (const char* id : {"", " 12", "12 ", "1/../../x", "-1", "1_000", "١٢"})
    EXPECT_FALSE(publish::template_id(id)) << id;
}

TEST(ClientInput, ADocumentsIdThatIsNotAWholeNumberIsRefusedShowingIt) {
  ScratchDir dir("hostile-doc-id");
  for (const char* id : {"1/../../x", " 12", "+12", "0x10"}) {
    std::string file =
        dir.write("t.json", std::string(R"({"project_template":{"id":")") + id + R"(","title":"T","raw_json":[]}})");
    CliRun run = run_ptmpl("push '" + file + "' --dry-run --attempts 1 --base-url http://127.0.0.1:9/api/v1", kEnv);
    EXPECT_EQ(run.exit, 2) << id;
    EXPECT_EQ(run.err, "ptmpl push: " + file + ": \"id\" \"" + id +
                           "\" is not a template id (a whole number from 1 to 2^63-1); nothing pushed\n")
        << id;
  }
}

TEST(ClientInput, ABaseUrlHoldingControlsIsAUsageError) {
  CliRun run = run_ptmpl("list --base-url \"$(printf 'https://t.example/api/v1\\r\\nX-Evil: 1')\"", kEnv);
  EXPECT_EQ(run.exit, 2);
  EXPECT_EQ(run.err,
            "ptmpl list: base URL \"https://t.example/api/v1\\x0D\\x0AX-Evil: 1\" holds byte 0x0D at offset 24; a URL "
            "is visible ASCII (percent-encode the rest)\n");
  EXPECT_FALSE(publish::check_base_url("https://t.example/api v1").ok());
  EXPECT_FALSE(publish::check_base_url("https://t.example/api\x7F").ok());
  EXPECT_TRUE(publish::check_base_url("https://t.example/api/v1").ok());
}

TEST(ClientInput, ATokenThatCouldNeverBeSentIsRefused) {
  ScratchDir dir("hostile-token");
  auto message = [](const Result<std::string>& r) { return r.ok() ? "accepted: " + r.value() : r.error().message; };
  EXPECT_EQ(message(publish::load_token("", "abc\x1b[31mdef")),
            "PTMPL_TOKEN: the access token holds byte 0x1B at offset 3, which is not visible ASCII: it cannot be sent "
            "in an HTTP header");
  EXPECT_EQ(message(publish::load_token("", std::string(9000, 'a'))),
            "PTMPL_TOKEN: the access token is 9000 bytes long (at most 8192): it cannot be sent in an HTTP header");
  // A NUL would end the header where the C string does: the token would be cut, silently.
  std::string nul = dir.write("nul", std::string("abcdef\0ghijkl\n", 14));
  EXPECT_EQ(message(publish::load_token(nul, std::nullopt)),
            nul +
                ": the access token holds byte 0x00 at offset 6, which is not visible ASCII: it cannot be sent in "
                "an HTTP header");
  // A file of gigabytes is refused before it is read.
  std::string huge = sparse_file(dir, "huge", off_t{3} << 30);
  const auto started = std::chrono::steady_clock::now();
  auto refused = publish::load_token(huge, std::nullopt);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::milliseconds(500));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kUsage);
  EXPECT_EQ(refused.error().message, huge +
                                         ": holds 3221225472 bytes, and the access token file may hold at most 65536: "
                                         "refused (is it the right file?)");
}

TEST(ClientInput, AnAccessTokenTheServiceIssuesThatCouldNeverBeSentIsNotSaved) {
  ScratchDir dir("hostile-issued");
  for (const std::string& token : {std::string("abc\\ndef\\u001b[2J"), std::string(50 << 20, 'x')}) {
    RawHttpServer server([&](const RawHttpServer::Request&, RawHttpServer::Peer& peer) {
      peer.send(RawHttpServer::response(200, R"({"access_token":")" + token + R"(","token_type":"bearer"})"));
      return Then::kClose;
    });
    CliRun run = run_ptmpl("auth token --client-id c --redirect-uri https://ci.example/cb --code k --app-url " +
                               server.url() + " -o '" + dir.file("token") + "'",
                           "PTMPL_CLIENT_SECRET=s3cr3t");
    EXPECT_EQ(run.exit, 3);
    EXPECT_NE(run.err.find("ptmpl auth token: exchanging the code: the service's access token "), std::string::npos)
        << run.err.substr(0, 300);
    EXPECT_NE(run.err.find(": it could never be sent in an HTTP header; not saved\n"), std::string::npos);
    EXPECT_LT(run.err.size(), 300u);
    EXPECT_FALSE(std::filesystem::exists(dir.file("token")));
  }
}

// The token's file is made before the code is spent; a user who presses Ctrl-C while the
// service takes its time must not find an empty temporary file beside it afterwards.
TEST(ClientInput, AnAuthTokenInterruptedWhileTheServiceAnswersLeavesNoFile) {
  ScratchDir dir("hostile-interrupted");
  std::atomic<bool> asked{false};
  RawHttpServer server([&](const RawHttpServer::Request&, RawHttpServer::Peer& peer) {
    asked = true;
    (void)peer.pause(10000);  // no answer: the client waits until it is interrupted
    return Then::kClose;
  });
  const std::string token = dir.file("token");
  const std::string program = PTMPL_BINARY;
  const std::string url = server.url();
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::setenv("PTMPL_CLIENT_SECRET", "s3cr3t", 1);
    ::execl(program.c_str(), program.c_str(), "auth", "token", "--client-id", "c", "--redirect-uri",
            "https://ci.example/cb", "--code", "k", "--app-url", url.c_str(), "-o", token.c_str(),
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  auto leftovers = [&] {
    std::vector<std::string> found;
    for (const auto& entry : std::filesystem::directory_iterator(dir.file("")))
      if (entry.path().filename().string().find("token") != std::string::npos)
        found.push_back(entry.path().filename().string());
    return found;
  };
  // The request has arrived: the token's temporary file is there, waiting for it.
  for (int waited = 0; !asked && waited < 10000; waited += 5) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_TRUE(asked);
  EXPECT_EQ(leftovers().size(), 1u);
  ASSERT_EQ(::kill(child, SIGINT), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGINT);
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

TEST(ClientInput, ACaFileOfGigabytesIsRefusedBeforeItIsRead) {
  ScratchDir dir("hostile-ca");
  std::string ca = sparse_file(dir, "ca.pem", off_t{3} << 30);
  publish::TransportOptions options;
  options.cacert = ca;
  const auto started = std::chrono::steady_clock::now();
  auto got = publish::make_curl_transport(options)->send({"GET", "https://127.0.0.1:9/api/v1", {}, ""});
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::milliseconds(500));
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().code, ErrorCode::kUsage);
  EXPECT_EQ(got.error().message, ca + ": 3.0 GiB (3221225472 bytes) is too large for a CA certificate file (at most "
                                      "16.0 MiB (16777216 bytes)); is it the right file?");
}

}  // namespace
}  // namespace ptmpl::testing::client_hostile_test
