// Hostile services and careless users of the publishing commands: proxies, misbehaving paging,
// huge and undecodable responses, overlapping pushes, pull over unpushed edits, token files.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "cli_run.hpp"
#include "libtemplate/core/file_io.hpp"
#include "libtemplate/publish/api_client.hpp"
#include "libtemplate/publish/oauth.hpp"
#include "libtemplate/publish/publish.hpp"
#include "sandbox_process.hpp"
#include "test_files.hpp"

namespace ptmpl::testing::cli_publish_robustness_test {
namespace {

namespace fs = std::filesystem;
constexpr const char* kToken = "robust-token-3f9a1c";
constexpr const char* kSecret = "app-secret-8e2b";

/// A listening socket on 127.0.0.1 that counts the connections made to it (a proxy that must
/// see nothing).
class CountingListener {
 public:
  CountingListener() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    ::listen(fd_, 16);
    socklen_t len = sizeof addr;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] {
      while (!stop_) {
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, 50) <= 0) continue;
        int c = ::accept(fd_, nullptr, nullptr);
        if (c < 0) continue;
        ++connections_;
        char buf[4096];
        ::recv(c, buf, sizeof buf, MSG_DONTWAIT);
        ::close(c);
      }
    });
  }
  ~CountingListener() {
    stop_ = true;
    thread_.join();
    ::close(fd_);
  }
  CountingListener(const CountingListener&) = delete;
  CountingListener& operator=(const CountingListener&) = delete;
  [[nodiscard]] int port() const { return port_; }
  [[nodiscard]] int connections() const { return connections_; }

 private:
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> connections_{0};
  std::thread thread_;
};

/// A misbehaving service over plain HTTP on 127.0.0.1: `answer` gives the body of every GET of
/// the templates list (whatever its page) and of a single template.
class FakeService {
 public:
  explicit FakeService(std::function<void(const httplib::Request&, httplib::Response&)> answer) {
    server_.Get(R"(/api/v1/.*)", [answer](const httplib::Request& req, httplib::Response& res) { answer(req, res); });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ~FakeService() {
    server_.stop();
    thread_.join();
  }
  FakeService(const FakeService&) = delete;
  FakeService& operator=(const FakeService&) = delete;
  [[nodiscard]] std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/api/v1"; }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
};

/// A list envelope of templates `(id, title)`, with `count`.
std::string envelope(const std::vector<std::pair<int, std::string>>& templates, const std::string& count) {
  std::string results, map;
  for (const auto& [id, title] : templates) {
    std::string sid = std::to_string(id);
    results += std::string(results.empty() ? "" : ",") + R"({"key":"project_templates","id":")" + sid + "\"}";
    map += std::string(map.empty() ? "" : ",") + "\"" + sid + R"(":{"id":)" + sid + R"(,"title":")" + title +
           R"(","updated_at":"2026-01-0)" + sid + R"(T00:00:00.000Z","raw_json":"[]"})";
  }
  return R"({"count":)" + count + R"(,"results":[)" + results + R"(],"project_templates":{)" + map + "}}";
}

std::string env() {
  return std::string("PTMPL_TOKEN=") + kToken;
}

// ---------------------------------------------------------------------------------------------
// Case 9: plain HTTP never goes through a proxy (the token and the client secret in clear).

TEST(CliPublishRobustness, PlainHttpToLoopbackNeverGoesThroughAProxy) {
  ScratchDir dir("robust-proxy");
  std::string tokens = dir.write("tokens", std::string(kToken) + " 1\n");
  std::string clients = dir.write("clients", std::string("ci-app ") + kSecret + " https://ci.example/callback\n");
  SandboxProcess sandbox({"--http", "--data-dir", dir.file("data"), "--tokens-file", tokens, "--oauth-clients", clients,
                          "--oauth-user", "1"});
  ASSERT_TRUE(sandbox.ready()) << sandbox.first_line();
  CountingListener proxy;
  std::string at = "http://127.0.0.1:" + std::to_string(proxy.port());
  std::string proxies = "http_proxy=" + at + " HTTP_PROXY=" + at + " ALL_PROXY=" + at + " all_proxy=" + at +
                        " https_proxy=" + at + " no_proxy= NO_PROXY= ";

  CliRun list = run_ptmpl("list --attempts 1 --base-url '" + sandbox.base_url() + "'", proxies + env());
  EXPECT_EQ(list.exit, 0) << list.err;

  // auth token sends the client secret and the code.
  std::string app =
      "--client-id ci-app --redirect-uri https://ci.example/callback --base-url '" + sandbox.base_url() + "'";
  CliRun url = run_ptmpl("auth url " + app);
  httplib::Client browser(sandbox.origin());
  auto approved = browser.Get(url.out.substr(sandbox.origin().size(), url.out.size() - sandbox.origin().size() - 1));
  ASSERT_TRUE(approved) << url.out;
  std::string location = approved->get_header_value("Location");
  std::string code = location.substr(location.find("code=") + 5);
  code = code.substr(0, code.find('&'));
  CliRun token = run_ptmpl("auth token " + app + " --code " + code + " -o '" + dir.file("token") + "'",
                           proxies + "PTMPL_CLIENT_SECRET=" + kSecret);
  EXPECT_EQ(token.exit, 0) << token.err;
  EXPECT_EQ(proxy.connections(), 0);
}

// ---------------------------------------------------------------------------------------------
// Case 12: paging and sizes are not trusted.

TEST(CliPublishRobustness, AServiceIgnoringPageOrCountingTooManyIsPagedOnce) {
  for (const char* count_text : {"300", "1000000000000"}) {
    const std::string count = count_text;
    std::atomic<int> requests{0};
    FakeService service([&](const httplib::Request&, httplib::Response& res) {
      ++requests;
      res.set_content(envelope({{1, "One"}, {2, "Two"}}, count), "application/json");
    });
    CliRun run = run_ptmpl("list --format json --base-url '" + service.base_url() + "'", env());
    EXPECT_EQ(run.exit, 0) << run.err;
    EXPECT_NE(run.out.find("\"count\": 2"), std::string::npos) << run.out;
    EXPECT_EQ(run.err, "ptmpl list: warning: the service counts " + count +
                           " templates, but its pages brought 2 different ones; page 2 brought no template not "
                           "seen before\n");
    EXPECT_EQ(requests, 2);
  }
}

TEST(CliPublishRobustness, AResponseLargerThanTheCapIsRefusedNamingItsSize) {
  httplib::Server server;
  server.Get(R"(/api/v1/.*)", [](const httplib::Request&, httplib::Response& res) {
    res.set_content_provider(std::size_t{3} << 30, "application/json",
                             [](std::size_t, std::size_t, httplib::DataSink& sink) {
                               static const std::string chunk(65536, ' ');
                               return sink.write(chunk.data(), chunk.size());
                             });
  });
  int port = server.bind_to_any_port("127.0.0.1");
  std::thread serving([&] { server.listen_after_bind(); });
  while (!server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  CliRun run = run_ptmpl("list --base-url http://127.0.0.1:" + std::to_string(port) + "/api/v1", env());
  server.stop();
  serving.join();
  EXPECT_EQ(run.exit, 3);
  EXPECT_EQ(run.err,
            "ptmpl list: listing templates: the response is too large: 3.0 GiB (3221225472 bytes); the client takes at "
            "most 256.0 MiB (268435456 bytes) (--max-response)\n");
}

TEST(CliPublishRobustness, AResponseGrowingPastTheCapWithoutALengthIsCut) {
  httplib::Server server;
  server.Get("/big", [](const httplib::Request&, httplib::Response& res) {
    res.set_chunked_content_provider("application/json", [](std::size_t offset, httplib::DataSink& sink) {
      static const std::string chunk(4096, ' ');
      if (offset > (std::size_t{64} << 20)) return false;  // the client stopped long before
      return sink.write(chunk.data(), chunk.size());
    });
  });
  int port = server.bind_to_any_port("127.0.0.1");
  std::thread serving([&] { server.listen_after_bind(); });
  while (!server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  publish::TransportOptions options;
  options.max_response_bytes = 100'000;
  auto transport = publish::make_curl_transport(options);
  auto got = transport->send({"GET", "http://127.0.0.1:" + std::to_string(port) + "/big", {}, ""});
  server.stop();
  serving.join();
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().code, ErrorCode::kService);
  // Cut at the first piece that passes the limit (how big the pieces are is libcurl's choice).
  const std::string& message = got.error().message;
  ASSERT_EQ(message.rfind("the response is too large: ", 0), 0u) << message;
  std::uint64_t size = std::stoull(message.substr(message.find('(') + 1));
  EXPECT_GT(size, 100'000u);
  EXPECT_LT(size, 100'000u + (1u << 20));
  EXPECT_NE(message.find(" bytes); the client takes at most 97.7 KiB (100000 bytes) (--max-response)"),
            std::string::npos)
      << message;
}

TEST(CliPublishRobustness, AnInputThatIsNotARegularFileIsReadUpToTheCap) {
  auto zero = FileText::read("/dev/zero", 1 << 20);
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.error().code, ErrorCode::kInvalid);
  EXPECT_EQ(zero.error().message,
            "/dev/zero: goes on past 1 MiB (1048576 bytes) and is not a regular file (standard input, a pipe or a "
            "device such as /dev/zero); refused: save it to a file first");
  // Exactly the cap is taken.
  ScratchDir dir("robust-cap");
  std::string fifo = dir.file("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] { std::ofstream(fifo) << std::string(1 << 20, 'x'); });
  auto exact = FileText::read(fifo, 1 << 20);
  writer.join();
  ASSERT_TRUE(exact.ok()) << exact.error().message;
  EXPECT_EQ(exact.value().text(), std::string(1 << 20, 'x'));
  // The reader's pages end with a NUL after the text, as a std::string does (parsers rely on it).
  EXPECT_EQ(exact.value().text().data()[exact.value().text().size()], '\0');
  // And the bytes outlive moves of the FileText that holds them.
  FileText moved = std::move(exact).value();
  EXPECT_EQ(moved.text(), std::string(1 << 20, 'x'));
  // A regular file is not capped: its size is known.
  std::string big = dir.write("big.json", std::string(3 << 20, ' '));
  EXPECT_TRUE(FileText::read(big, 1 << 20).ok());
}

// ---------------------------------------------------------------------------------------------
// Case 13: one template the client cannot use does not hide the others.

TEST(CliPublishRobustness, ATemplateWhoseTitleIsNotUtf8IsReportedAndTheOthersCarryOn) {
  FakeService service([](const httplib::Request& req, httplib::Response& res) {
    std::vector<std::pair<int, std::string>> all = {{1, "Good one"}, {2, "bad \xe9"}, {3, "Good three"}};
    if (req.path == "/api/v1/project_templates/2.json") all = {{2, "bad \xe9"}};
    if (req.path == "/api/v1/project_templates/3.json") all = {{3, "Good three"}};
    res.set_content(envelope(all, std::to_string(all.size())), "application/json");
  });
  const std::string bad =
      "ptmpl list: listing templates: template 2: its title is not UTF-8 text (byte 0xE9 at offset 4); skipped, the "
      "others are shown\n";
  CliRun json = run_ptmpl("list --format json --base-url '" + service.base_url() + "'", env());
  EXPECT_EQ(json.exit, 3);
  EXPECT_EQ(json.err, bad);
  EXPECT_NE(json.out.find("\"count\": 2"), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("Good three"), std::string::npos) << json.out;
  EXPECT_EQ(json.out.find("null"), std::string::npos) << json.out;

  CliRun table = run_ptmpl("list --base-url '" + service.base_url() + "'", env());
  EXPECT_EQ(table.exit, 3);
  EXPECT_EQ(table.err, bad);
  EXPECT_NE(table.out.find("Good three"), std::string::npos) << table.out;

  ScratchDir dir("robust-utf8");
  CliRun all = run_ptmpl("pull --all -o '" + dir.path() + "' --base-url '" + service.base_url() + "'", env());
  EXPECT_EQ(all.exit, 3);
  EXPECT_NE(all.err.find("template 2: its title is not UTF-8 text"), std::string::npos) << all.err;
  EXPECT_TRUE(fs::exists(dir.file("1-good-one.json")));
  EXPECT_TRUE(fs::exists(dir.file("3-good-three.json")));

  CliRun ids = run_ptmpl("pull 2 3 -o '" + dir.file("ids") + "' --base-url '" + service.base_url() + "'", env());
  EXPECT_EQ(ids.exit, 3);
  EXPECT_EQ(ids.err,
            "ptmpl pull: reading template 2: template 2: its title is not UTF-8 text (byte 0xE9 at offset 4)\n");
  EXPECT_TRUE(fs::exists(dir.file("ids/3-good-three.json")));
}

// ---------------------------------------------------------------------------------------------
// Case 20: messages that name the real problem.

TEST(CliPublishRobustness, PlainHttpSentToATlsPortSaysSo) {
  ScratchDir dir("robust-tls-port");
  std::string tokens = dir.write("tokens", std::string(kToken) + " 1\n");
  SandboxProcess sandbox({"--data-dir", dir.file("data"), "--tokens-file", tokens});
  ASSERT_TRUE(sandbox.ready()) << sandbox.first_line();
  std::string http = "http://" + sandbox.base_url().substr(std::string("https://").size());
  CliRun run = run_ptmpl("list --attempts 1 --base-url '" + http + "'", env());
  EXPECT_EQ(run.exit, 3);
  EXPECT_NE(run.err.find("the server closed the connection without answering plain HTTP: is it an HTTPS server? "
                         "(try https:// in the address)"),
            std::string::npos)
      << run.err;
}

TEST(CliPublishRobustness, AShortClientSecretIsNotRedactedOutOfProse) {
  ScratchDir dir("robust-redact");
  std::string tokens = dir.write("tokens", std::string(kToken) + " 1\n");
  std::string clients = dir.write("clients", std::string("ci-app ") + kSecret + " https://ci.example/callback\n");
  SandboxProcess sandbox({"--data-dir", dir.file("data"), "--tokens-file", tokens, "--oauth-clients", clients});
  ASSERT_TRUE(sandbox.ready()) << sandbox.first_line();
  CliRun run = run_ptmpl("auth token --client-id ci-app --redirect-uri https://ci.example/callback --base-url '" +
                             sandbox.base_url() + "' --cacert '" + sandbox.ca_path() + "' --code c0de -o '" +
                             dir.file("token") + "'",
                         "PTMPL_CLIENT_SECRET=wrong");
  EXPECT_EQ(run.exit, 3);
  EXPECT_EQ(run.err,
            "ptmpl auth token: exchanging the code: HTTP 401: invalid_client: unknown client_id or wrong "
            "client_secret\n");
  // The rule (api_client.hpp): long secrets anywhere, short ones where they stand as a value.
  EXPECT_EQ(publish::redact("a=wrong&b \"wrong\" Bearer wrong\nor wrong client_secret; wrongly", "wrong"),
            "a=[REDACTED]&b \"[REDACTED]\" Bearer [REDACTED]\nor wrong client_secret; wrongly");
  EXPECT_EQ(publish::redact("xx-s3cr3t-value-yy", "s3cr3t-value"), "xx-[REDACTED]-yy");
}

// ---------------------------------------------------------------------------------------------
// Case 16: a token file that cannot be written is refused before the code is spent.

class CliTokenFileTest : public ::testing::Test {
 protected:
  ScratchDir dir{"robust-token-file"};
  std::string tokens = dir.write("tokens", "static-token 1\n");
  std::string clients = dir.write("clients", std::string("ci-app ") + kSecret + " https://ci.example/callback\n");
  SandboxProcess sandbox{
      {"--data-dir", dir.file("data"), "--tokens-file", tokens, "--oauth-clients", clients, "--oauth-user", "9"}};

  std::string app() const {
    return "--client-id ci-app --redirect-uri https://ci.example/callback --base-url '" + sandbox.base_url() +
           "' --cacert '" + sandbox.ca_path() + "'";
  }
  std::string code() const {
    httplib::Client c(sandbox.origin());
    c.set_ca_cert_path(sandbox.ca_path().c_str());
    c.enable_server_certificate_verification(true);
    auto r =
        c.Get("/oauth/authorize?client_id=ci-app&response_type=code&redirect_uri=https%3A%2F%2Fci.example%2Fcallback");
    if (!r) return "";
    std::string location = r->get_header_value("Location");
    auto at = location.find("code=");
    return at == std::string::npos ? "" : location.substr(at + 5, location.find('&', at) - at - 5);
  }
  CliRun token(const std::string& code, const std::string& output) const {
    return run_ptmpl("auth token " + app() + " --code " + code + " -o '" + output + "'",
                     std::string("PTMPL_CLIENT_SECRET=") + kSecret);
  }
};

TEST_F(CliTokenFileTest, ADirectoryOrAMissingDirectoryIsRefusedBeforeTheCodeIsSpent) {
  ASSERT_TRUE(sandbox.ready()) << sandbox.first_line();
  std::string c = code();
  ASSERT_FALSE(c.empty());
  std::string folder = dir.file("folder");
  fs::create_directories(folder);
  fs::permissions(folder, fs::perms(0755));
  CliRun to_dir = token(c, folder);
  EXPECT_EQ(to_dir.exit, 2);
  EXPECT_EQ(to_dir.err, "ptmpl auth token: " + folder +
                            ": is a directory; the token is written only to a regular file "
                            "(name one inside it: -o " +
                            folder + "/token); nothing was sent, the code is still valid\n");
  struct stat st {};
  ASSERT_EQ(::stat(folder.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0755u);  // never touched

  CliRun no_dir = token(c, dir.file("nodir/tok"));
  EXPECT_EQ(no_dir.exit, 2);
  EXPECT_EQ(no_dir.err, "ptmpl auth token: " + dir.file("nodir/tok") +
                            ": cannot create a temporary file beside it: No such file or directory; nothing was "
                            "sent, the code is still valid\n");

  // The code was not spent: it still gives the token, into a private file, and nothing is left beside it.
  CliRun ok = token(c, folder + "/token");
  ASSERT_EQ(ok.exit, 0) << ok.err;
  ASSERT_EQ(::stat((folder + "/token").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(slurp(folder + "/token").size(), 65u);
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(folder)) ++entries;
  EXPECT_EQ(entries, 1);
}

TEST(TokenFile, ATokenThatCannotBePutInPlaceIsKeptBesideItOrReportedLost) {
  ScratchDir dir("robust-token-keep");
  // The rename fails (a directory appeared at the target meanwhile): the token stays in the
  // temporary file, which the error names.
  std::string target = dir.file("token");
  auto file = publish::TokenFile::prepare(target);
  ASSERT_TRUE(file.ok()) << file.error().message;
  fs::create_directories(target + "/busy");
  Status kept = file.value().keep("the-issued-token");
  ASSERT_FALSE(kept.ok());
  EXPECT_FALSE(file.value().lost());
  const std::string& message = kept.error().message;
  auto at = message.find("it is kept in ");
  ASSERT_NE(at, std::string::npos) << message;
  std::string temp = message.substr(at + 14, message.find(": move it") - at - 14);
  EXPECT_EQ(slurp(temp), "the-issued-token\n");
  struct stat st {};
  ASSERT_EQ(::stat(temp.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);

  // Writing fails (a file size limit of 0 stands in for a full disk): lost() tells the caller
  // to hand the token over another way, and nothing is left behind.
  auto second = publish::TokenFile::prepare(dir.file("token2"));
  ASSERT_TRUE(second.ok());
  rlimit old{};
  ::getrlimit(RLIMIT_FSIZE, &old);
  auto previous = ::signal(SIGXFSZ, SIG_IGN);
  rlimit none = old;
  none.rlim_cur = 0;
  ::setrlimit(RLIMIT_FSIZE, &none);
  Status failed = second.value().keep("the-issued-token");
  ::setrlimit(RLIMIT_FSIZE, &old);
  ::signal(SIGXFSZ, previous);
  ASSERT_FALSE(failed.ok());
  EXPECT_TRUE(second.value().lost());
  EXPECT_FALSE(fs::exists(dir.file("token2")));
}

// ---------------------------------------------------------------------------------------------
// Case 5: pull never overwrites edits not pushed yet.

class CliPullOverEditsTest : public ::testing::Test {
 protected:
  ScratchDir dir{"robust-pull"};
  std::string tokens = dir.write("tokens", std::string(kToken) + " 1\n");
  SandboxProcess sandbox{{"--data-dir", dir.file("data"), "--tokens-file", tokens}};
  std::int64_t id = 0;

  publish::Client client() const {
    publish::ClientOptions options;
    options.base_url = sandbox.base_url();
    options.token = kToken;
    publish::TransportOptions transport;
    transport.cacert = sandbox.ca_path();
    return publish::Client(options, publish::make_curl_transport(transport));
  }
  void SetUp() override {
    ASSERT_TRUE(sandbox.ready()) << sandbox.first_line();
    auto created = client().create(R"({"project_template":{"title":"Launch","duration":5,"raw_json":"[]"}})", "Launch");
    ASSERT_TRUE(created.ok());
    id = created.value().id;
  }
  CliRun pull(const std::string& what) const {
    return run_ptmpl("pull " + what + " -o '" + dir.file("out") + "' --base-url '" + sandbox.base_url() +
                         "' --cacert '" + sandbox.ca_path() + "'",
                     env());
  }
};

TEST_F(CliPullOverEditsTest, AnEditedFileIsRefusedUnlessForceWhichBacksItUp) {
  CliRun first = pull(std::to_string(id));
  ASSERT_EQ(first.exit, 0) << first.err;
  std::string file = dir.file("out/" + std::to_string(id) + "-launch.json");
  std::string pulled = slurp(file);
  // Pulling again over the untouched file: nothing to lose.
  EXPECT_EQ(pull(std::to_string(id)).exit, 0);

  std::string edited = pulled;
  edited.replace(edited.find("\"duration\": 5"), 13, "\"duration\": 9");
  std::ofstream(file, std::ios::binary) << edited;
  for (const std::string& what : {std::to_string(id), std::string("--mine")}) {
    CliRun refused = pull(what);
    EXPECT_EQ(refused.exit, 2) << what;
    EXPECT_EQ(refused.err, "ptmpl pull: " + file + ": it holds edits not pushed to template " + std::to_string(id) +
                               "; not overwritten (`ptmpl diff " + file +
                               "` shows how they differ; push it first, pull with --merge to merge the service's "
                               "changes into it, or pull with --force, which saves the file to " +
                               file + ".bak first)\n")
        << what;
    EXPECT_EQ(slurp(file), edited);
  }
  CliRun forced = pull("--force " + std::to_string(id));
  ASSERT_EQ(forced.exit, 0) << forced.err;
  EXPECT_EQ(forced.err, "ptmpl pull: " + file + ": its previous bytes saved as " + file + ".bak\n");
  EXPECT_EQ(slurp(file + ".bak"), edited);
  EXPECT_EQ(slurp(file), pulled);
}

// The service keeps neither the calendar block nor the assignment list with names, nor keys of
// the author's own: pulling a change of the service over the file keeps them (docs/semantics.md §2: nothing
// the user wrote is lost), while a field the service stores comes from the service.
TEST_F(CliPullOverEditsTest, PullKeepsWhatOnlyTheFileHolds) {
  CliRun first = pull(std::to_string(id));
  ASSERT_EQ(first.exit, 0) << first.err;
  const std::string file = dir.file("out/" + std::to_string(id) + "-launch.json");
  std::string text = slurp(file);
  text.replace(text.find("\"duration\": 5"), 13,
               "\"duration\": 5,\n    \"project_template_assignments\": [{\"id\": 100, \"name\": \"Designer\"}],\n"
               "    \"x-owner\": \"pmo\"");
  text.replace(text.rfind('}'), 1, ",\n  \"calendar\": {\"start\": \"2027-01-04\", \"holidays\": [\"2027-01-06\"]}\n}");
  std::ofstream(file, std::ios::binary) << text;
  // Unchanged on the service: pull leaves the file byte for byte as its author wrote it
  // (issue 36; it was rewritten in canonical form).
  CliRun same = pull(std::to_string(id));
  ASSERT_EQ(same.exit, 0) << same.err;
  const std::string mine = slurp(file);
  EXPECT_EQ(mine, text);
  CliRun again = pull(std::to_string(id));
  ASSERT_EQ(again.exit, 0) << again.err;
  EXPECT_EQ(slurp(file), mine);
  // Changed on the service (a colleague doubled the duration): refused without --force, as the
  // file may hold edits; with --force the service's fields arrive and the file's own stay.
  ASSERT_TRUE(
      client().update(id, R"({"project_template":{"title":"Launch","duration":10,"raw_json":"[]"}})", "Launch").ok());
  CliRun forced = pull("--force " + std::to_string(id));
  ASSERT_EQ(forced.exit, 0) << forced.err;
  const std::string after = slurp(file);
  EXPECT_NE(after.find("\"duration\": 10"), std::string::npos) << after;
  EXPECT_NE(after.find("\"project_template_assignments\": [\n      {\n        \"id\": 100"), std::string::npos)
      << after;
  EXPECT_NE(after.find("\"x-owner\": \"pmo\""), std::string::npos) << after;
  EXPECT_NE(after.find("\"calendar\": {\n    \"start\": \"2027-01-04\""), std::string::npos) << after;
  EXPECT_NE(after.find("\"2027-01-06\""), std::string::npos) << after;
}

// Pull finds the file that holds the template's id below -o (as push finds it), whatever its
// name, and writes there instead of beside it; the rules for a file already there apply to it.
TEST_F(CliPullOverEditsTest, PullWritesIntoTheFileThatHoldsTheTemplateWhateverItsName) {
  CliRun first = pull(std::to_string(id));
  ASSERT_EQ(first.exit, 0) << first.err;
  const std::string named = dir.file("out/" + std::to_string(id) + "-launch.json");
  const std::string pulled = slurp(named);
  fs::create_directories(dir.file("out/plans"));
  const std::string mine = dir.file("out/plans/launch.json");
  fs::rename(named, mine);

  for (const std::string& what : {std::to_string(id), std::string("--mine")}) {
    CliRun again = pull(what);
    EXPECT_EQ(again.exit, 0) << again.err;
    EXPECT_EQ(again.out, mine + "\n") << what;
    EXPECT_FALSE(fs::exists(named)) << what << ": written beside the file that holds template " << id;
    EXPECT_EQ(slurp(mine), pulled);
  }
  // A push of the folder finds one file for the template (before, two: refused both).
  CliRun push = run_ptmpl(
      "push '" + dir.file("out") + "' --base-url '" + sandbox.base_url() + "' --cacert '" + sandbox.ca_path() + "'",
      "XDG_STATE_HOME='" + dir.file("state") + "' " + env());
  EXPECT_EQ(push.exit, 0) << push.err;
  EXPECT_EQ(push.out, mine + ": unchanged template " + std::to_string(id) + " \"Launch\"\n");

  // Edits not pushed yet in that file: refused, naming it; nothing written anywhere.
  std::string edited = pulled;
  edited.replace(edited.find("\"duration\": 5"), 13, "\"duration\": 9");
  std::ofstream(mine, std::ios::binary) << edited;
  CliRun refused = pull(std::to_string(id));
  EXPECT_EQ(refused.exit, 2);
  EXPECT_EQ(refused.out, "");
  EXPECT_EQ(refused.err, "ptmpl pull: " + mine + ": it holds edits not pushed to template " + std::to_string(id) +
                             "; not overwritten (`ptmpl diff " + mine +
                             "` shows how they differ; push it first, pull with --merge to merge the service's changes "
                             "into it, or pull with --force, which saves the file to " +
                             mine + ".bak first)\n");
  EXPECT_EQ(slurp(mine), edited);
  EXPECT_FALSE(fs::exists(named));
  CliRun forced = pull("--force " + std::to_string(id));
  ASSERT_EQ(forced.exit, 0) << forced.err;
  EXPECT_EQ(forced.out, mine + "\n");
  EXPECT_EQ(slurp(mine + ".bak"), edited);
  EXPECT_EQ(slurp(mine), pulled);
  EXPECT_FALSE(fs::exists(named));

  // Two files holding the id: neither can be told to be the one; refused, naming both.
  const std::string copy = dir.file("out/launch-copy.json");
  fs::copy_file(mine, copy);
  CliRun two = pull(std::to_string(id));
  EXPECT_EQ(two.exit, 2);
  EXPECT_EQ(two.err, "ptmpl pull: " + copy + " and " + mine + " both hold template " + std::to_string(id) +
                         ": keep the id in one of them only; not pulled\n");
  EXPECT_FALSE(fs::exists(named));

  // No file holds it: a new file, named after the template, as before.
  fs::remove(copy);
  fs::remove(mine);
  CliRun fresh = pull(std::to_string(id));
  EXPECT_EQ(fresh.exit, 0) << fresh.err;
  EXPECT_EQ(fresh.out, named + "\n");
  EXPECT_EQ(slurp(named), pulled);
}

// ---------------------------------------------------------------------------------------------
// Case 4: pushes do not create duplicates.

class CliPushTogetherTest : public ::testing::Test {
 protected:
  ScratchDir dir{"robust-push-together"};
  std::string tokens = dir.write("tokens", std::string(kToken) + " 1\n");
  SandboxProcess sandbox{{"--data-dir", dir.file("data"), "--tokens-file", tokens}};

  publish::Client client() const {
    publish::ClientOptions options;
    options.base_url = sandbox.base_url();
    options.token = kToken;
    publish::TransportOptions transport;
    transport.cacert = sandbox.ca_path();
    return publish::Client(options, publish::make_curl_transport(transport));
  }
  std::string service() const { return "--base-url '" + sandbox.base_url() + "' --cacert '" + sandbox.ca_path() + "'"; }
  std::string state() const { return "XDG_STATE_HOME='" + dir.file("state") + "' " + env(); }
  void write_templates(const std::string& folder, int n) const {
    fs::create_directories(dir.file(folder));
    for (int i = 0; i < n; ++i)
      dir.write(folder + "/t" + std::to_string(i) + ".json", R"({"project_template": {"title": "Together )" +
                                                                 std::to_string(i) +
                                                                 R"(", "raw_json": []}})"
                                                                 "\n");
  }
};

TEST_F(CliPushTogetherTest, ASecondPushToTheSameServiceWaitsForTheFirst) {
  ASSERT_TRUE(sandbox.ready()) << sandbox.first_line();
  write_templates("a", 3);
  auto lock = publish::PushLock::take(dir.file("state/ptmpl/locks"), sandbox.base_url(), {});
  ASSERT_TRUE(lock.ok()) << lock.error().message;
  auto held = std::make_unique<publish::PushLock>(std::move(lock).value());
  CliRun run;
  std::thread pushing([&] { run = run_ptmpl("push '" + dir.file("a") + "' " + service(), state()); });
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  auto meanwhile = client().list_all({});
  ASSERT_TRUE(meanwhile.ok());
  EXPECT_EQ(meanwhile.value().size(), 0u);  // it waits, sending nothing
  held.reset();
  pushing.join();
  EXPECT_EQ(run.exit, 0) << run.err;
  EXPECT_EQ(run.err.rfind("ptmpl push: waiting for another push to " + sandbox.base_url() +
                          " on this machine to finish "
                          "(lock " +
                          dir.file("state/ptmpl/locks/push-")),
            0u)
      << run.err;
  EXPECT_EQ(client().list_all({}).value().size(), 3u);
}

TEST_F(CliPushTogetherTest, TwoPushesOfTheSameNewTemplatesAtOnceCreateEachOnce) {
  ASSERT_TRUE(sandbox.ready()) << sandbox.first_line();
  write_templates("a", 20);
  write_templates("b", 20);
  CliRun a, b;
  std::thread first([&] { a = run_ptmpl("push -j 8 '" + dir.file("a") + "' " + service(), state()); });
  std::thread second([&] { b = run_ptmpl("push -j 8 '" + dir.file("b") + "' " + service(), state()); });
  first.join();
  second.join();
  EXPECT_EQ(a.exit, 0) << a.err;
  EXPECT_EQ(b.exit, 0) << b.err;
  auto all = client().list_all({});
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all.value().size(), 20u);
}

/// Creates a template of the same title through another client just before a POST goes out:
/// another machine's push at the same time, which no lock here can hold back.
class RacingTransport final : public publish::Transport {
 public:
  RacingTransport(std::unique_ptr<publish::Transport> inner, std::function<void()> race)
      : inner_(std::move(inner)), race_(std::move(race)) {}
  Result<publish::HttpResponse> send(const publish::HttpRequest& request) override {
    if (request.method == "POST" && race_) std::exchange(race_, {})();
    return inner_->send(request);
  }

 private:
  std::unique_ptr<publish::Transport> inner_;
  std::function<void()> race_;
};

TEST_F(CliPushTogetherTest, ADuplicateCreatedElsewhereAtTheSameTimeIsReportedWithItsIds) {
  ASSERT_TRUE(sandbox.ready()) << sandbox.first_line();
  write_templates("a", 1);
  std::string path = dir.file("a/t0.json");
  auto local = publish::read_local_template(path, slurp(path));
  ASSERT_TRUE(local.ok());
  std::int64_t other = 0;
  publish::ClientOptions options;
  options.base_url = sandbox.base_url();
  options.token = kToken;
  publish::TransportOptions transport;
  transport.cacert = sandbox.ca_path();
  publish::Client racing(options, std::make_unique<RacingTransport>(publish::make_curl_transport(transport), [&] {
                           auto made = client().create(local.value().body, local.value().title);
                           if (made.ok()) other = made.value().id;
                         }));
  publish::PushOutcome outcome = publish::push_template(racing, local.value(), {});
  ASSERT_NE(other, 0);
  EXPECT_EQ(outcome.action, publish::PushAction::Failed);
  EXPECT_EQ(outcome.failure, ErrorCode::kService);  // exit 3
  EXPECT_EQ(outcome.message, "created template " + std::to_string(outcome.id) +
                                 ", but the service now holds 2 templates of yours titled \"Together 0\" (ids " +
                                 std::to_string(other) + ", " + std::to_string(outcome.id) +
                                 "): another push created it at the same time; the file records " +
                                 std::to_string(outcome.id) + ": delete the others in the web application");
  EXPECT_NE(slurp(path).find("\"id\": " + std::to_string(outcome.id)), std::string::npos);
}

}  // namespace
}  // namespace ptmpl::testing::cli_publish_robustness_test
