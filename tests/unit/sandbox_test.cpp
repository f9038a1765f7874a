// ptmpl sandbox over real HTTPS on 127.0.0.1: endpoints, envelope, errors, faults, durability.
#include <arpa/inet.h>
#include <fcntl.h>
#include <httplib.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <thread>

#include "cli_run.hpp"
#include "libtemplate/publish/api_client.hpp"
#include "libtemplate/sandbox/sandbox.hpp"
#include "sandbox_process.hpp"

namespace ptmpl::testing {
namespace {

constexpr const char* kTokens = "alice-token 1\n# a comment\n\nbob-token 2\n";

struct Reply {
  int status = -1;  // -1: no HTTP response (connection failed or dropped)
  rapidjson::Document json;
  std::string body;
  std::string retry_after;
};

class SandboxTest : public ::testing::Test {
 protected:
  ScratchDir dir{"sandbox"};
  std::string tokens = dir.write("tokens", kTokens);

  std::unique_ptr<SandboxProcess> start(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"--data-dir", dir.file("data"), "--tokens-file", tokens};
    args.insert(args.end(), extra.begin(), extra.end());
    auto process = std::make_unique<SandboxProcess>(args);
    EXPECT_TRUE(process->ready()) << process->first_line();
    return process;
  }

  static Reply call(const SandboxProcess& s, const std::string& method, const std::string& path,
                    const std::string& body = "", const std::string& token = "alice-token") {
    httplib::Client client(s.origin());
    if (s.ca_path() != "-") {
      client.set_ca_cert_path(s.ca_path().c_str());
      client.enable_server_certificate_verification(true);
    }
    httplib::Headers headers;
    if (!token.empty()) headers.emplace("Authorization", "Bearer " + token);
    std::string url = "/api/v1" + path;
    httplib::Result r = method == "GET"    ? client.Get(url.c_str(), headers)
                        : method == "POST" ? client.Post(url.c_str(), headers, body, "application/json")
                                           : client.Put(url.c_str(), headers, body, "application/json");
    Reply reply;
    if (!r) return reply;
    reply.status = r->status;
    reply.body = r->body;
    reply.retry_after = r->get_header_value("Retry-After");
    reply.json.Parse(r->body.c_str());
    return reply;
  }

  static std::string create_body(const std::string& title, const std::string& raw_json = "[]") {
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
    w.StartObject();
    w.Key("project_template");
    w.StartObject();
    w.Key("title");
    w.String(title.c_str());
    w.Key("raw_json");
    w.String(raw_json.c_str());
    w.EndObject();
    w.EndObject();
    return buffer.GetString();
  }

  // The templates of an envelope, in the order of `results` (never the map's order).
  static std::vector<const rapidjson::Value*> templates_of(const rapidjson::Document& envelope) {
    std::vector<const rapidjson::Value*> out;
    for (const auto& r : envelope["results"].GetArray())
      out.push_back(&envelope["project_templates"][r["id"].GetString()]);
    return out;
  }

  static std::string first_error(const Reply& r, const char* key) {
    if (!r.json.IsObject() || !r.json.HasMember("errors")) return "<no error envelope: " + r.body + ">";
    const auto& e = r.json["errors"][0];
    return e.HasMember(key) ? e[key].GetString() : "";
  }
};

TEST_F(SandboxTest, PrintsItsUrlAndCaAndServesVerifiedHttps) {
  auto s = start();
  EXPECT_TRUE(s->base_url().starts_with("https://127.0.0.1:")) << s->first_line();
  EXPECT_TRUE(s->base_url().ends_with("/api/v1"));
  EXPECT_TRUE(std::filesystem::exists(s->ca_path()));
  EXPECT_EQ(call(*s, "GET", "/project_templates.json").status, 200);

  // Without the sandbox's CA, verification fails: no response at all.
  httplib::Client stranger(s->origin());
  stranger.enable_server_certificate_verification(true);
  stranger.set_ca_cert_path("/dev/null");
  EXPECT_FALSE(stranger.Get("/api/v1/project_templates.json"));
  EXPECT_EQ(s->stop(SIGTERM), 0);
}

TEST_F(SandboxTest, PlainHttpPrintsNoCa) {
  auto s = start({"--http"});
  EXPECT_TRUE(s->base_url().starts_with("http://127.0.0.1:"));
  EXPECT_EQ(s->ca_path(), "-");
  EXPECT_EQ(call(*s, "GET", "/project_templates.json").status, 200);
}

TEST_F(SandboxTest, ServesAGivenCertificateAndPrintsItsCa) {
  namespace fs = std::filesystem;
  // A certificate made elsewhere: here, the set a first sandbox generated, moved out of its way.
  {
    auto generator = start();
    ASSERT_TRUE(generator->ready());
  }
  fs::create_directories(dir.file("given"));
  for (const char* name : {"ca.pem", "server.pem", "server.key"})
    fs::rename(dir.file("data/tls/") + name, dir.file("given/") + name);
  const std::string cert = dir.file("given/server.pem"), key = dir.file("given/server.key"),
                    ca = dir.file("given/ca.pem");

  SandboxProcess given(
      {"--data-dir", dir.file("data2"), "--tokens-file", tokens, "--cert", cert, "--key", key, "--ca", ca});
  ASSERT_TRUE(given.ready()) << given.first_line();
  EXPECT_EQ(given.ca_path(), fs::absolute(ca).string());
  EXPECT_FALSE(fs::exists(dir.file("data2/tls"))) << "generated a certificate although one was given";
  Reply created = call(given, "POST", "/project_templates.json", create_body("Given"));
  EXPECT_EQ(created.status, 200) << created.body;
  EXPECT_EQ(given.stop(SIGTERM), 0);

  // Without --ca, the certificate itself is what clients are told to trust.
  SandboxProcess self_signed({"--data-dir", dir.file("data2"), "--tokens-file", tokens, "--cert", cert, "--key", key});
  ASSERT_TRUE(self_signed.ready()) << self_signed.first_line();
  EXPECT_EQ(self_signed.ca_path(), fs::absolute(cert).string());

  const std::string sandbox = "sandbox --data-dir '" + dir.file("data3") + "' --tokens-file '" + tokens + "'";
  CliRun half = run_ptmpl(sandbox + " --cert '" + cert + "'", "");
  EXPECT_EQ(half.exit, 2);
  EXPECT_EQ(half.err, "ptmpl sandbox: --cert and --key go together\n");
  CliRun mismatched = run_ptmpl(sandbox + " --cert '" + ca + "' --key '" + key + "'", "");
  EXPECT_EQ(mismatched.exit, 2);
  EXPECT_EQ(mismatched.err, "ptmpl sandbox: " + ca + ", " + key + ": cannot load the certificate and key\n");
}

TEST_F(SandboxTest, CreatesShowsAndUpdatesTemplates) {
  auto s = start();
  const std::string raw = R"([{"title":"Kick-off","temp_id":1,"sub_stories":[{"title":"Agenda","temp_id":2}]}])";
  Reply created = call(*s, "POST", "/project_templates.json", create_body("Launch", raw));
  ASSERT_EQ(created.status, 200) << created.body;
  auto made = templates_of(created.json);
  ASSERT_EQ(made.size(), 1u);
  const std::string id = std::to_string((*made[0])["id"].GetInt64());
  EXPECT_STREQ((*made[0])["title"].GetString(), "Launch");
  EXPECT_EQ((*made[0])["item_count"].GetInt(), 2);
  EXPECT_EQ((*made[0])["user_id"].GetInt(), 1);

  Reply shown = call(*s, "GET", "/project_templates/" + id + ".json?optional_fields=raw_json");
  ASSERT_EQ(shown.status, 200);
  EXPECT_EQ(std::string((*templates_of(shown.json)[0])["raw_json"].GetString()), raw);  // byte for byte
  Reply plain = call(*s, "GET", "/project_templates/" + id + ".json");
  EXPECT_FALSE(templates_of(plain.json)[0]->HasMember("raw_json"));

  Reply updated = call(*s, "PUT", "/project_templates/" + id + ".json",
                       R"({"project_template":{"description":"v2","shared":true,"duration":12}})");
  ASSERT_EQ(updated.status, 200) << updated.body;
  const auto& after = *templates_of(updated.json)[0];
  EXPECT_STREQ(after["title"].GetString(), "Launch");
  EXPECT_STREQ(after["description"].GetString(), "v2");
  EXPECT_EQ(after["duration"].GetInt(), 12);
  EXPECT_GT(std::string(after["updated_at"].GetString()), std::string((*made[0])["updated_at"].GetString()));

  // Shared: another user sees it but may not change it.
  EXPECT_EQ(call(*s, "GET", "/project_templates/" + id + ".json", "", "bob-token").status, 200);
  EXPECT_EQ(call(*s, "PUT", "/project_templates/" + id + ".json", create_body("x"), "bob-token").status, 403);
}

// Of duplicate keys the service keeps the last value, and so does the sandbox: in request
// bodies (at every level it reads) and in the files of its store.
TEST_F(SandboxTest, ADuplicateKeyKeepsTheLastValue) {
  auto s = start();
  Reply created = call(*s, "POST", "/project_templates.json",
                       R"({"project_template":{"title":"First","duration":3,"raw_json":"[]",)"
                       R"("title":"Last","duration":5,"raw_json":"[{\"title\":\"A\",\"sub_stories\":[{}],)"
                       R"(\"sub_stories\":[]}]"}})");
  ASSERT_EQ(created.status, 200) << created.body;
  const auto& made = *templates_of(created.json)[0];
  EXPECT_STREQ(made["title"].GetString(), "Last");
  EXPECT_EQ(made["duration"].GetInt(), 5);
  EXPECT_EQ(made["item_count"].GetInt(), 1);  // the last sub_stories: none
  const std::string id = std::to_string(made["id"].GetInt64());

  Reply updated = call(*s, "PUT", "/project_templates/" + id + ".json",
                       R"({"project_template":{"description":"dropped"},"project_template":{"description":"kept",)"
                       R"("shared":"no","shared":true}})");
  ASSERT_EQ(updated.status, 200) << updated.body;
  EXPECT_STREQ((*templates_of(updated.json)[0])["description"].GetString(), "kept");
  EXPECT_TRUE((*templates_of(updated.json)[0])["shared"].GetBool());
  // An earlier invalid value does not count either way: only the last one is checked.
  Reply refused = call(*s, "PUT", "/project_templates/" + id + ".json",
                       R"({"project_template":{"currency":"EUR","currency":"euro"}})");
  EXPECT_EQ(refused.status, 422);
  EXPECT_EQ(first_error(refused, "field"), "currency");
  s->stop(SIGTERM);

  // A stored file with a key twice (written by hand) reads back with the last value.
  std::ofstream(dir.file("data/templates/" + id + ".json"))
      << R"({"id":)" << id << R"(,"user_id":1,"title":"Stored first","title":"Stored last","raw_json":"[]"})";
  s = start();
  Reply shown = call(*s, "GET", "/project_templates/" + id + ".json");
  ASSERT_EQ(shown.status, 200) << shown.body;
  EXPECT_STREQ((*templates_of(shown.json)[0])["title"].GetString(), "Stored last");
}

TEST_F(SandboxTest, AnswersErrorsInTheServiceEnvelope) {
  auto s = start();
  Reply unauthorised = call(*s, "GET", "/project_templates.json", "", "");
  EXPECT_EQ(unauthorised.status, 401);
  EXPECT_EQ(first_error(unauthorised, "type"), "oauth");
  EXPECT_EQ(call(*s, "GET", "/project_templates.json", "", "wrong-token").status, 401);

  Reply missing = call(*s, "GET", "/project_templates/999.json");
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(first_error(missing, "message"), "project template 999 not found");
  EXPECT_EQ(call(*s, "PUT", "/project_templates/999.json", create_body("x")).status, 404);
  EXPECT_EQ(call(*s, "GET", "/no_such_route.json").status, 404);

  Reply invalid = call(*s, "POST", "/project_templates.json",
                       R"({"project_template":{"title":"  ","raw_json":[1],"currency":"euro"}})");
  EXPECT_EQ(invalid.status, 422);
  std::set<std::string> fields;
  for (const auto& e : invalid.json["errors"].GetArray()) {
    EXPECT_STREQ(e["type"].GetString(), "validation");
    fields.insert(e["field"].GetString());
  }
  EXPECT_EQ(fields, (std::set<std::string>{"title", "raw_json", "currency"}));
  EXPECT_EQ(call(*s, "POST", "/project_templates.json", "{not json").status, 400);
  EXPECT_EQ(first_error(call(*s, "POST", "/project_templates.json", R"({"title":"x"})"), "field"), "project_template");

  EXPECT_EQ(first_error(call(*s, "GET", "/project_templates.json?per_page=201"), "field"), "per_page");
  EXPECT_EQ(first_error(call(*s, "GET", "/project_templates.json?optional_fields=raw_json"), "field"),
            "optional_fields");
  EXPECT_EQ(first_error(call(*s, "GET", "/project_templates.json?order=colour:asc"), "field"), "order");

  // Issue 14, case 20: each paging parameter says what is wrong with it.
  EXPECT_EQ(first_error(call(*s, "GET", "/project_templates.json?page=9223372036854775807"), "message"),
            "page is 9223372036854775807, beyond the largest the service takes (2147483647)");
  EXPECT_EQ(first_error(call(*s, "GET", "/project_templates.json?page=99999999999999999999"), "message"),
            "page is 99999999999999999999, beyond the largest the service takes (2147483647)");
  EXPECT_EQ(first_error(call(*s, "GET", "/project_templates.json?page=0"), "message"),
            "page is 0; it must be at least 1");
  EXPECT_EQ(first_error(call(*s, "GET", "/project_templates.json?per_page=two"), "message"),
            "per_page must be an integer, found \"two\"");
  EXPECT_EQ(first_error(call(*s, "GET", "/project_templates.json?per_page=201"), "message"),
            "per_page is 201, beyond the largest the service takes (200)");
}

TEST_F(SandboxTest, AnswersCompactJsonAndStoresOneLinePerTemplate) {
  auto s = start();
  Reply created = call(*s, "POST", "/project_templates.json",
                       R"({"project_template":{"title":"Q \"x\" \u001f é","budget":1234.5,"is_budgeted":true}})");
  ASSERT_EQ(created.status, 200) << created.body;
  // The times are the sandbox's clock's.
  auto timeless = [](const std::string& text) {
    return std::regex_replace(text, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)"), "T");
  };
  const std::string stored =
      R"({"id":1,"title":"Q \"x\" \u001f é","description":"","shared":false,"is_budgeted":true,"budget":1234.5,)"
      R"("currency":"USD","duration":null,"item_count":0,"user_id":1,"created_at":"T","updated_at":"T",)"
      R"("project_template_assignment_ids":[],"raw_json":"[]"})";
  EXPECT_EQ(timeless(created.body), R"({"count":1,"meta":{"count":1,"page_count":1,"page_number":1,"page_size":1},)"
                                    R"("results":[{"key":"project_templates","id":"1"}],"project_templates":{"1":)" +
                                        stored + "}}");
  std::ifstream file(dir.file("data") + "/templates/1.json");
  EXPECT_EQ(timeless(std::string(std::istreambuf_iterator<char>(file), {})), stored + "\n");
  EXPECT_EQ(call(*s, "GET", "/project_templates/9.json").body,
            R"({"errors":[{"type":"system","message":"project template 9 not found"}]})");
}

TEST_F(SandboxTest, FiltersOrdersAndPaginatesOver450Templates) {
  auto s = start();
  for (int i = 0; i < 450; ++i) {
    char title[32];
    std::snprintf(title, sizeof title, "T%03d", (i * 7) % 450);  // created out of title order
    ASSERT_EQ(call(*s, "POST", "/project_templates.json", create_body(title)).status, 200);
  }
  ASSERT_EQ(call(*s, "POST", "/project_templates.json", create_body("Bob's"), "bob-token").status, 200);

  std::vector<std::string> titles;
  std::set<std::string> ids;
  for (int page = 1; page <= 3; ++page) {
    Reply r =
        call(*s, "GET", "/project_templates.json?mine=true&order=title:asc&per_page=200&page=" + std::to_string(page));
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json["count"].GetInt(), 450);
    EXPECT_EQ(r.json["meta"]["page_count"].GetInt(), 3);
    auto page_templates = templates_of(r.json);
    EXPECT_EQ(page_templates.size(), page < 3 ? 200u : 50u);
    for (const auto* t : page_templates) {
      titles.emplace_back((*t)["title"].GetString());
      ids.insert(std::to_string((*t)["id"].GetInt64()));
    }
  }
  ASSERT_EQ(titles.size(), 450u);
  EXPECT_EQ(ids.size(), 450u);  // nothing repeated across pages
  EXPECT_TRUE(std::is_sorted(titles.begin(), titles.end()));

  // Bob sees only his own (Alice's are not shared); by_title matches case-insensitively.
  EXPECT_EQ(call(*s, "GET", "/project_templates.json", "", "bob-token").json["count"].GetInt(), 1);
  Reply by_title = call(*s, "GET", "/project_templates.json?by_title=t44");
  EXPECT_EQ(by_title.json["count"].GetInt(), 10);  // T440 … T449
  Reply only = call(*s, "GET", "/project_templates.json?only=3,1,2&optional_fields=raw_json&order=title:desc");
  ASSERT_EQ(only.status, 200);
  auto picked = templates_of(only.json);
  ASSERT_EQ(picked.size(), 3u);
  EXPECT_TRUE((*picked[0]).HasMember("raw_json"));
  EXPECT_GT(std::string((*picked[0])["title"].GetString()), std::string((*picked[1])["title"].GetString()));
  Reply limited = call(*s, "GET", "/project_templates.json?order=title:asc&limit=5&offset=10&page=9");
  auto window = templates_of(limited.json);
  ASSERT_EQ(window.size(), 5u);
  EXPECT_STREQ((*window[0])["title"].GetString(), "T010");
}

TEST_F(SandboxTest, InjectsRateLimitsUnavailabilityAndDroppedConnections) {
  {
    auto s = start({"--fail-rate", "1", "--faults", "429", "--retry-after", "7"});
    Reply r = call(*s, "GET", "/project_templates.json");
    EXPECT_EQ(r.status, 429);
    EXPECT_EQ(r.retry_after, "7");
    EXPECT_EQ(first_error(r, "type"), "system");
  }
  {
    auto s = start({"--fail-rate", "1", "--faults", "503"});
    EXPECT_EQ(call(*s, "GET", "/project_templates.json").status, 503);
  }
  {
    auto s = start({"--fail-rate", "1", "--faults", "drop"});
    EXPECT_EQ(call(*s, "POST", "/project_templates.json", create_body("lost")).status, -1);
  }
  {
    // drop-after: the create is applied, but the client never hears about it.
    auto s = start({"--fail-rate", "1", "--faults", "drop-after"});
    EXPECT_EQ(call(*s, "POST", "/project_templates.json", create_body("applied")).status, -1);
  }
  auto s = start();
  Reply all = call(*s, "GET", "/project_templates.json");
  ASSERT_EQ(all.json["count"].GetInt(), 1);
  EXPECT_STREQ((*templates_of(all.json)[0])["title"].GetString(), "applied");
}

TEST_F(SandboxTest, KeepsEveryTemplateAcrossKill9AndRestart) {
  std::vector<std::string> raws;
  {
    auto s = start();
    for (int i = 0; i < 20; ++i) {
      raws.push_back(R"([{"title":"story )" + std::to_string(i) + R"(","temp_id":1}])");
      ASSERT_EQ(call(*s, "POST", "/project_templates.json", create_body("K" + std::to_string(i), raws.back())).status,
                200);
    }
    ASSERT_EQ(call(*s, "PUT", "/project_templates/5.json", R"({"project_template":{"title":"K4 renamed"}})").status,
              200);
    s->stop(SIGKILL);
  }
  // Every file is complete JSON, and a temporary file left by a killed writer is cleaned up.
  const std::string templates = dir.file("data/templates");
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(templates)) {
    std::ifstream in(entry.path());
    std::string text((std::istreambuf_iterator<char>(in)), {});
    rapidjson::Document doc;
    doc.Parse(text.c_str());
    EXPECT_FALSE(doc.HasParseError()) << entry.path();
    ++files;
  }
  EXPECT_EQ(files, 20);
  std::ofstream(templates + "/7.json.ptmpl-AbC123") << R"({"id":7,"title":"half-wri)";

  auto s = start();
  Reply all = call(*s, "GET", "/project_templates.json?per_page=200&order=title:asc");
  ASSERT_EQ(all.status, 200);
  EXPECT_EQ(all.json["count"].GetInt(), 20);
  EXPECT_FALSE(std::filesystem::exists(templates + "/7.json.ptmpl-AbC123"));
  Reply renamed = call(*s, "GET", "/project_templates/5.json?optional_fields=raw_json");
  EXPECT_STREQ((*templates_of(renamed.json)[0])["title"].GetString(), "K4 renamed");
  EXPECT_EQ(std::string((*templates_of(renamed.json)[0])["raw_json"].GetString()), raws[4]);
  // New ids continue after the stored ones.
  Reply next = call(*s, "POST", "/project_templates.json", create_body("after restart"));
  EXPECT_EQ((*templates_of(next.json)[0])["id"].GetInt(), 21);
}

TEST_F(SandboxTest, RefusesAnAddressInUseOrMalformedWithTheSystemsReason) {
  auto s = start();
  const std::string port = s->origin().substr(s->origin().rfind(':') + 1);
  CliRun busy = run_ptmpl("sandbox --listen 127.0.0.1:" + port + " --data-dir '" + dir.file("data2") +
                          "' --tokens-file '" + tokens + "'");
  EXPECT_EQ(busy.exit, 2);
  EXPECT_EQ(busy.err, "ptmpl sandbox: cannot listen on 127.0.0.1:" + port + ": Address already in use\n");
  // The system's reason for each way an address can fail: not this machine's, not resolvable.
  CliRun foreign =
      run_ptmpl("sandbox --listen 192.0.2.1:0 --data-dir '" + dir.file("data2") + "' --tokens-file '" + tokens + "'");
  EXPECT_EQ(foreign.exit, 2);
  EXPECT_EQ(foreign.err, "ptmpl sandbox: cannot listen on 192.0.2.1:0: Cannot assign requested address\n");
  CliRun unknown = run_ptmpl("sandbox --listen no-such-host.invalid:0 --data-dir '" + dir.file("data2") +
                             "' --tokens-file '" + tokens + "'");
  EXPECT_EQ(unknown.exit, 2);
  EXPECT_TRUE(
      unknown.err.starts_with("ptmpl sandbox: cannot listen on no-such-host.invalid:0: the address does not "
                              "resolve: "))
      << unknown.err;
  CliRun malformed =
      run_ptmpl("sandbox --listen 127.0.0.1 --data-dir '" + dir.file("data2") + "' --tokens-file '" + tokens + "'");
  EXPECT_EQ(malformed.exit, 2);
  EXPECT_EQ(malformed.err, "ptmpl sandbox: --listen: expected HOST:PORT, got '127.0.0.1'\n");
}

TEST_F(SandboxTest, RefusesAMalformedTokensFile) {
  dir.write("bad-tokens", "alice-token 1\njust-a-token\n");
  CliRun run =
      run_ptmpl("sandbox --data-dir '" + dir.file("data") + "' --tokens-file '" + dir.file("bad-tokens") + "'");
  EXPECT_EQ(run.exit, 2);
  EXPECT_NE(run.err.find("bad-tokens:2: expected `token user_id`"), std::string::npos) << run.err;
}

TEST_F(SandboxTest, RefusesAFifoForTokensOrATemplateAndATokenGivenToTwoUsers) {
  // Killed after 3 s if start-up blocks: a FIFO without a writer held it, SIGTERM too.
  const std::string bounded = "timeout -s KILL 3";
  const std::string fifo = dir.file("tokens.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  CliRun fifo_tokens = run_ptmpl("sandbox --data-dir '" + dir.file("data") + "' --tokens-file '" + fifo + "'", bounded);
  EXPECT_EQ(fifo_tokens.exit, 2);
  EXPECT_EQ(fifo_tokens.err, "ptmpl sandbox: " + fifo + ": is a FIFO, not a regular file; refused\n");

  std::filesystem::create_directories(dir.file("data/templates"));
  const std::string fifo_template = dir.file("data/templates/7.json");
  ASSERT_EQ(::mkfifo(fifo_template.c_str(), 0600), 0);
  CliRun fifo_store =
      run_ptmpl("sandbox --data-dir '" + dir.file("data") + "' --tokens-file '" + tokens + "'", bounded);
  EXPECT_EQ(fifo_store.exit, 2);
  EXPECT_EQ(fifo_store.err, "ptmpl sandbox: " + fifo_template + ": is a FIFO, not a regular file; refused\n");
  std::filesystem::remove(fifo_template);

  // One token for two users: which user a request acts as would depend on the file's order.
  const std::string shared = dir.write("shared-tokens", "alice-token 1\nbob-token 2\n\nalice-token 3\nbob-token 2\n");
  CliRun ambiguous = run_ptmpl("sandbox --data-dir '" + dir.file("data") + "' --tokens-file '" + shared + "'", bounded);
  EXPECT_EQ(ambiguous.exit, 2);
  EXPECT_EQ(ambiguous.err, "ptmpl sandbox: " + shared +
                               ":4: the token of line 1 (user 1) is given to user 3 here; a token must stand "
                               "for one user\n");
}

/// Sends `request` to a plain HTTP sandbox and gives the status line of the answer ("" when
/// the connection ends without one).
std::string status_line_of(const SandboxProcess& s, std::string_view request) {
  const std::string origin = s.origin();
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  to.sin_port = htons(static_cast<std::uint16_t>(std::stoi(origin.substr(origin.rfind(':') + 1))));
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  timeval wait{10, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &wait, sizeof wait);
  std::string answer;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) == 0) {
    // Sent whole even when the server answers early (a head too large): the answer is read after.
    for (std::size_t sent = 0; sent < request.size();) {
      ssize_t n = ::send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) break;
      sent += static_cast<std::size_t>(n);
    }
    char buffer[4096];
    for (ssize_t n; answer.find("\r\n") == std::string::npos && (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;)
      answer.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return answer.substr(0, answer.find("\r\n"));
}

TEST_F(SandboxTest, ATokenIsTheWholeHeaderValueNotTheTextBeforeANul) {
  auto s = start({"--http"});
  auto request = [](std::string_view authorization) {
    return "GET /api/v1/project_templates.json HTTP/1.1\r\nHost: 127.0.0.1\r\n" + std::string(authorization) +
           "Connection: close\r\n\r\n";
  };
  EXPECT_EQ(status_line_of(*s, request("Authorization: Bearer alice-token\r\n")), "HTTP/1.1 200 OK");
  using namespace std::string_view_literals;
  EXPECT_EQ(status_line_of(*s, request("Authorization: Bearer alice-token\0junk\r\n"sv)), "HTTP/1.1 401 Unauthorized");
  EXPECT_EQ(status_line_of(*s, request("Authorization: Bearer alice-token\0\r\n"sv)), "HTTP/1.1 401 Unauthorized");
  // Two headers: neither is chosen over the other.
  EXPECT_EQ(status_line_of(*s, request("Authorization: Bearer alice-token\r\nAuthorization: Bearer bob-token\r\n")),
            "HTTP/1.1 401 Unauthorized");
}

TEST_F(SandboxTest, RequestHeadersBeyond64KiBAreAnswered431) {
  auto s = start({"--http"});
  auto request_with_headers_of = [](std::size_t bytes) {
    std::string head =
        "GET /api/v1/project_templates.json HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer alice-token\r\n"
        "Connection: close\r\n";
    for (int i = 0; head.size() < bytes; ++i)
      head += "X-Filler-" + std::to_string(i) + ": " + std::string(80, 'a') + "\r\n";
    return head + "\r\n";
  };
  EXPECT_EQ(status_line_of(*s, request_with_headers_of(60 * 1024)), "HTTP/1.1 200 OK");
  EXPECT_EQ(status_line_of(*s, request_with_headers_of(65 * 1024)), "HTTP/1.1 431 Request Header Fields Too Large");
  // Megabytes of headers are not read, let alone kept.
  EXPECT_EQ(status_line_of(*s, request_with_headers_of(4 << 20)), "HTTP/1.1 431 Request Header Fields Too Large");
  EXPECT_EQ(call(*s, "GET", "/project_templates.json").status, 200);
}

TEST_F(SandboxTest, RefusesBodiesThatAreNotUtf8AndNamesWhyABodyIsNotJson) {
  auto s = start();
  // Not UTF-8: refused as the service refuses an invalid field, naming it and where.
  Reply latin1 = call(*s, "POST", "/project_templates.json", "{\"project_template\":{\"title\":\"bad \xe9\"}}");
  EXPECT_EQ(latin1.status, 422) << latin1.body;
  EXPECT_EQ(first_error(latin1, "type"), "validation");
  EXPECT_EQ(first_error(latin1, "field"), "title");
  EXPECT_EQ(first_error(latin1, "message"),
            "title is not valid UTF-8: byte 0xE9 at line 1, column 35 does not start a valid sequence");
  Reply in_raw_json = call(*s, "POST", "/project_templates.json",
                           "{\"project_template\":{\"title\":\"t\",\"raw_json\":\"[{\\\"title\\\":\\\"\xc3\\\"}]\"}}");
  EXPECT_EQ(in_raw_json.status, 422) << in_raw_json.body;
  EXPECT_EQ(first_error(in_raw_json, "field"), "raw_json");
  Reply outside = call(*s, "POST", "/project_templates.json", "{\"\xff\":1}");
  EXPECT_EQ(outside.status, 422) << outside.body;
  EXPECT_EQ(first_error(outside, "message"),
            "the request body is not valid UTF-8: byte 0xFF at line 1, column 3 does not start a valid sequence");
  EXPECT_EQ(call(*s, "GET", "/project_templates.json").json["count"].GetInt(), 0) << "a refused body was stored";

  // JSON that cannot be read: the parser's reason, not "must be an object".
  EXPECT_EQ(first_error(call(*s, "POST", "/project_templates.json", "1e400"), "message"),
            "the request body is not valid JSON: number too big (line 1, column 1)");
  Reply surrogate = call(*s, "POST", "/project_templates.json", R"({"project_template":{"title":"\ud800"}})");
  EXPECT_EQ(surrogate.status, 400);
  EXPECT_NE(first_error(surrogate, "message").find("is not valid JSON: invalid UTF-16 surrogate"), std::string::npos)
      << surrogate.body;
  Reply lone_low = call(*s, "POST", "/project_templates.json", R"("\udc00")");
  EXPECT_NE(first_error(lone_low, "message").find("a low surrogate without a high one"), std::string::npos)
      << lone_low.body;
  EXPECT_EQ(first_error(call(*s, "POST", "/project_templates.json", "42"), "message"),
            "the request body must be a JSON object, found an integer");
}

TEST_F(SandboxTest, RefusesSecretsFilesOthersMayReadAndPlainHttpBeyondLoopback) {
  const std::string data = " --data-dir '" + dir.file("data") + "'";
  std::filesystem::permissions(tokens, std::filesystem::perms::group_read | std::filesystem::perms::others_read,
                               std::filesystem::perm_options::add);
  CliRun open_tokens = run_ptmpl("sandbox --tokens-file '" + tokens + "'" + data);
  EXPECT_EQ(open_tokens.exit, 2);
  EXPECT_EQ(open_tokens.err, "ptmpl sandbox: " + tokens +
                                 ": the tokens file is readable by group or others; "
                                 "refused (chmod 600 " +
                                 tokens + ")\n");
  std::filesystem::permissions(tokens, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);

  std::string clients = dir.write("clients", "app-1 app-secret https://app.example/callback\n");
  std::filesystem::permissions(clients, std::filesystem::perms::group_read, std::filesystem::perm_options::add);
  CliRun open_clients = run_ptmpl("sandbox --tokens-file '" + tokens + "' --oauth-clients '" + clients + "'" + data);
  EXPECT_EQ(open_clients.exit, 2);
  EXPECT_EQ(open_clients.err, "ptmpl sandbox: " + clients +
                                  ": the OAuth clients file is readable by group or "
                                  "others; refused (chmod 600 " +
                                  clients + ")\n");

  for (const std::string listen : {"0.0.0.0:0", "[::]:0", "192.0.2.1:0"}) {
    CliRun everywhere = run_ptmpl("sandbox --http --listen " + listen + " --tokens-file '" + tokens + "'" + data);
    EXPECT_EQ(everywhere.exit, 2) << listen;
    const std::string host = listen.substr(0, listen.rfind(':'));
    EXPECT_EQ(everywhere.err,
              "ptmpl sandbox: --http serves plain HTTP only on a loopback address (such as "
              "127.0.0.1 or ::1), not on " +
                  (host == "[::]" ? "::" : host) + "; leave --http out to serve HTTPS there\n");
  }
  // Any loopback address serves plain HTTP; HTTPS may listen anywhere.
  SandboxProcess loopback({"--http", "--data-dir", dir.file("data"), "--tokens-file", tokens}, "127.0.0.2:0");
  EXPECT_TRUE(loopback.ready()) << loopback.first_line();
  SandboxProcess everywhere({"--data-dir", dir.file("data2"), "--tokens-file", tokens}, "0.0.0.0:0");
  EXPECT_TRUE(everywhere.base_url().starts_with("https://0.0.0.0:")) << everywhere.first_line();
}

// A TLS client that speaks slowly: connected from `source` (any 127.x.y.z), the handshake
// done, then its request head a byte at a time.
class SlowClient {
 public:
  SlowClient(const SandboxProcess& s, const char* source, bool tls = true) {
    std::signal(SIGPIPE, SIG_IGN);  // a write to a connection the server closed fails, not kills
    const std::string origin = s.origin();
    const int port = std::stoi(origin.substr(origin.rfind(':') + 1));
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    timeval wait{10, 0};  // a handshake the server never answers fails here, not never
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
    ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &wait, sizeof wait);
    sockaddr_in from{}, to{};
    from.sin_family = to.sin_family = AF_INET;
    ::inet_pton(AF_INET, source, &from.sin_addr);
    ::inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
    to.sin_port = htons(static_cast<std::uint16_t>(port));
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&from), sizeof from) != 0 ||
        ::connect(fd_, reinterpret_cast<sockaddr*>(&to), sizeof to) != 0)
      return;
    if (!tls) {
      open_ = true;
      return;
    }
    ctx_ = SSL_CTX_new(TLS_client_method());
    ssl_ = SSL_new(ctx_);
    SSL_set_fd(ssl_, fd_);
    open_ = SSL_connect(ssl_) == 1;
  }
  ~SlowClient() {
    if (ssl_ != nullptr) SSL_free(ssl_);
    if (ctx_ != nullptr) SSL_CTX_free(ctx_);
    if (fd_ >= 0) ::close(fd_);
  }
  SlowClient(const SlowClient&) = delete;
  SlowClient& operator=(const SlowClient&) = delete;

  /// Whether the connection was set up (TLS: the handshake completed).
  [[nodiscard]] bool connected() const { return open_; }

  /// Sends the next byte of the head; false once the server has closed the connection.
  bool send_next_byte() {
    if (!open_ || closed_by_server() || sent_ == head_.size()) return false;
    if (SSL_write(ssl_, head_.data() + sent_, 1) != 1) return false;
    ++sent_;
    return true;
  }
  [[nodiscard]] bool head_sent() const { return sent_ == head_.size(); }

  /// Whether the server has closed the connection (an end of stream or a reset is waiting).
  [[nodiscard]] bool closed_by_server() const {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, 0) <= 0) return false;
    // Readable: the end, or only TLS 1.3's session tickets, which the server sends after the
    // handshake. A read that does not wait tells them apart.
    const int flags = ::fcntl(fd_, F_GETFL);
    ::fcntl(fd_, F_SETFL, flags | O_NONBLOCK);
    char byte;
    const int n = SSL_read(ssl_, &byte, 1);
    const int error = SSL_get_error(ssl_, n);
    ::fcntl(fd_, F_SETFL, flags);
    return n <= 0 && error != SSL_ERROR_WANT_READ;
  }

  /// Waits (up to the socket's 10 s) for the server to close a connection that sends nothing.
  [[nodiscard]] bool closed_while_silent() const {
    char byte;
    return ::recv(fd_, &byte, 1, 0) == 0 || errno == ECONNRESET;
  }

  /// Sends the rest of the head at once and reads the status line of the answer.
  std::string finish() {
    if (SSL_write(ssl_, head_.data() + sent_, static_cast<int>(head_.size() - sent_)) <= 0) return "";
    sent_ = head_.size();
    std::string answer;
    char buffer[4096];
    for (int n; answer.find("\r\n") == std::string::npos && (n = SSL_read(ssl_, buffer, sizeof buffer)) > 0;)
      answer.append(buffer, static_cast<std::size_t>(n));
    return answer.substr(0, answer.find("\r\n"));
  }

 private:
  int fd_ = -1;
  SSL_CTX* ctx_ = nullptr;
  SSL* ssl_ = nullptr;
  bool open_ = false;
  std::size_t sent_ = 0;
  std::string head_ =
      "GET /api/v1/project_templates.json HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer alice-token\r\n"
      "Connection: close\r\n\r\n";
};

TEST_F(SandboxTest, SlowClientsDoNotStarveOthers) {
  // Ten connections from one address (127.0.0.2) that send their heads a byte at a time; at
  // most four of them are let in, and none of them holds back the clients of 127.0.0.1.
  auto s = start({"--max-connections-per-client", "4", "--head-timeout", "300"});
  std::vector<std::unique_ptr<SlowClient>> slow;
  int let_in = 0;
  for (int i = 0; i < 10; ++i) {
    slow.push_back(std::make_unique<SlowClient>(*s, "127.0.0.2"));
    if (slow.back()->connected()) ++let_in;
  }
  EXPECT_EQ(let_in, 4) << "connections from one address beyond --max-connections-per-client";
  std::erase_if(slow, [](const auto& c) { return !c->connected(); });

  for (int i = 0; i < 12; ++i) {
    for (auto& c : slow) EXPECT_TRUE(c->send_next_byte()) << "a slow client was cut off early";
    Reply answered = i % 3 == 0 ? call(*s, "POST", "/project_templates.json", create_body("T" + std::to_string(i)))
                                : call(*s, "GET", "/project_templates.json");
    EXPECT_EQ(answered.status, 200) << "request " << i << " while slow clients are open: " << answered.body;
  }
  // Every slow client is still open, and one that now completes its head is answered.
  for (auto& c : slow) EXPECT_FALSE(c->closed_by_server());
  ASSERT_FALSE(slow.empty());
  EXPECT_EQ(slow.front()->finish(), "HTTP/1.1 200 OK");
  // Its place is free again for a fifth connection from that address.
  slow.front() = std::make_unique<SlowClient>(*s, "127.0.0.2");
  for (int attempt = 0; attempt < 50 && !slow.front()->connected(); ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // until the server has closed the old one
    slow.front() = std::make_unique<SlowClient>(*s, "127.0.0.2");
  }
  EXPECT_TRUE(slow.front()->connected());
  EXPECT_EQ(s->stop(SIGTERM), 0);
}

TEST_F(SandboxTest, AConnectionBeyondTheCapIsANetworkErrorForTheClientNotAnUnverifiedCertificate) {
  // The one connection 127.0.0.1 may open is taken: the next is closed before its handshake.
  // That is the service at its limit (worth another try), not a server failing verification.
  auto s = start({"--max-connections-per-client", "1", "--head-timeout", "300"});
  SlowClient holder(*s, "127.0.0.1");
  ASSERT_TRUE(holder.connected());
  publish::TransportOptions options;
  options.cacert = s->ca_path();
  auto transport = publish::make_curl_transport(options);
  auto sent = transport->send(
      {"GET", s->base_url() + "/project_templates.json", {{"Authorization", "Bearer alice-token"}}, ""});
  ASSERT_FALSE(sent.ok());
  EXPECT_EQ(sent.error().code, ErrorCode::kNetwork) << sent.error().message;
  EXPECT_EQ(sent.error().message.find("does not verify"), std::string::npos) << sent.error().message;
  EXPECT_EQ(s->stop(SIGTERM), 0);
}

/// A sandbox in this process on plain HTTP, bound (and so listening) but not yet serving.
class UnservedSandbox {
 public:
  explicit UnservedSandbox(const ScratchDir& dir) {
    SandboxOptions options;
    options.http = true;
    options.data_dir = dir.file("in-process-data");
    options.tokens_file = dir.write("in-process-tokens", kTokens);
    auto started = Sandbox::start(options);
    EXPECT_TRUE(started.ok()) << (started.ok() ? "" : started.error().message);
    if (started.ok()) sandbox_ = std::move(started).value();
  }
  ~UnservedSandbox() {
    if (!sandbox_) return;
    if (!serving_.joinable()) serve();  // stop() ends a server that runs
    sandbox_->stop();
    serving_.join();
  }
  UnservedSandbox(const UnservedSandbox&) = delete;
  UnservedSandbox& operator=(const UnservedSandbox&) = delete;

  [[nodiscard]] bool ok() const { return sandbox_ != nullptr; }
  void serve() {
    serving_ = std::thread([this] { sandbox_->serve(); });
  }
  [[nodiscard]] std::uint16_t port() const {
    const std::string& url = sandbox_->base_url();
    auto colon = url.rfind(':');
    return static_cast<std::uint16_t>(std::stoi(url.substr(colon + 1, url.find('/', colon) - colon - 1)));
  }

 private:
  std::unique_ptr<Sandbox> sandbox_;
  std::thread serving_;
};

TEST_F(SandboxTest, ConnectionsMadeAtOnceAreQueuedUntilAcceptedNotDropped) {
  // Push's workers connect at the same moment. The server library listens with a backlog of
  // 5: beyond it the kernel dropped connections, and each came again only after a second.
  // Nothing accepts here, so every connection that completes is one the backlog holds.
  UnservedSandbox sandbox(dir);
  ASSERT_TRUE(sandbox.ok());
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  to.sin_port = htons(sandbox.port());
  constexpr int kConnections = 64;
  std::vector<pollfd> waiting;
  for (int i = 0; i < kConnections; ++i) {
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    ASSERT_GE(fd, 0);
    int result = ::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to);
    ASSERT_TRUE(result == 0 || errno == EINPROGRESS) << std::strerror(errno);
    waiting.push_back({fd, POLLOUT, 0});
  }
  int connected = 0;
  // Loopback completes a queued connection at once; a dropped one waits for the SYN's 1 s
  // retransmission, and is dropped again.
  for (int round = 0; round < 30 && !waiting.empty(); ++round) {
    ::poll(waiting.data(), waiting.size(), 100);
    std::erase_if(waiting, [&](const pollfd& p) {
      if ((p.revents & (POLLOUT | POLLERR | POLLHUP)) == 0) return false;
      int error = 0;
      socklen_t size = sizeof error;
      ::getsockopt(p.fd, SOL_SOCKET, SO_ERROR, &error, &size);
      if (error == 0) ++connected;
      ::close(p.fd);
      return true;
    });
  }
  for (const pollfd& p : waiting) ::close(p.fd);
  EXPECT_EQ(connected, kConnections) << "connections the listening socket did not queue";
}

TEST_F(SandboxTest, AKeptAliveConnectionServesManyRequests) {
  // The server library closes a connection after 5 requests: each push worker reconnected
  // (a TLS handshake) every few templates, all of them at about the same moment.
  UnservedSandbox sandbox(dir);
  ASSERT_TRUE(sandbox.ok());
  sandbox.serve();
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  timeval wait{10, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  to.sin_port = htons(sandbox.port());
  ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to), 0) << std::strerror(errno);
  const std::string request =
      "GET /api/v1/project_templates.json HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer alice-token\r\n\r\n";
  std::string pending;
  int answered = 0;
  for (int i = 0; i < 100; ++i) {
    ASSERT_EQ(::send(fd, request.data(), request.size(), MSG_NOSIGNAL), static_cast<ssize_t>(request.size()))
        << "request " << i << ": the connection is closed";
    // One response: its head, then Content-Length bytes of body.
    std::size_t head_end;
    std::size_t length = 0;
    bool complete = false;
    char buffer[4096];
    while (!complete) {
      if ((head_end = pending.find("\r\n\r\n")) != std::string::npos) {
        std::smatch m;
        std::string head = pending.substr(0, head_end);
        if (std::regex_search(head, m, std::regex("Content-Length: (\\d+)", std::regex::icase)))
          length = std::stoul(m[1]);
        complete = pending.size() >= head_end + 4 + length;
        if (complete) break;
      }
      ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
      if (n <= 0) break;
      pending.append(buffer, static_cast<std::size_t>(n));
    }
    ASSERT_TRUE(complete) << "request " << i << " got no complete response: the connection was closed";
    std::string head = pending.substr(0, head_end);
    EXPECT_TRUE(head.starts_with("HTTP/1.1 200")) << head;
    EXPECT_FALSE(std::regex_search(head, std::regex("Connection: close", std::regex::icase)))
        << "request " << i << ": " << head;
    pending.erase(0, head_end + 4 + length);
    ++answered;
  }
  ::close(fd);
  EXPECT_EQ(answered, 100);
}

TEST_F(SandboxTest, ARequestHeadHasADeadlineAsAWholeNotPerRead) {
  auto s = start({"--head-timeout", "1"});
  // A byte every 100 ms keeps every single read short; the head as a whole (122 bytes, over
  // 12 s) is cut off at its deadline, long before it is complete.
  SlowClient trickling(*s, "127.0.0.1");
  ASSERT_TRUE(trickling.connected());
  while (trickling.send_next_byte()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(trickling.head_sent()) << "a head sent over 12 s was read with a 1 s deadline";
  // A connection that never starts its TLS handshake is closed too.
  SlowClient silent(*s, "127.0.0.1", false);
  ASSERT_TRUE(silent.connected());
  EXPECT_TRUE(silent.closed_while_silent());
  // A prompt client is served as ever.
  EXPECT_EQ(call(*s, "GET", "/project_templates.json").status, 200);
}

TEST_F(SandboxTest, ConnectionsThatNeverFinishTheirHandshakeDoNotDelayAPromptClient) {
  // 200 connections from 200 addresses (so under any per-address cap), more than the workers
  // (128): half send nothing, half the first bytes of a ClientHello and no more.
  auto s = start();
  const std::string origin = s->origin();
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  to.sin_port = htons(static_cast<std::uint16_t>(std::stoi(origin.substr(origin.rfind(':') + 1))));
  std::vector<int> stalled;
  for (int i = 1; i <= 200; ++i) {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in from{};
    from.sin_family = AF_INET;
    from.sin_addr.s_addr = htonl(0x7f000300 + static_cast<std::uint32_t>(i));  // 127.0.3.i
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&from), sizeof from), 0) << std::strerror(errno);
    ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to), 0) << std::strerror(errno);
    if (i % 2 == 0) ::send(fd, "\x16\x03\x01\x00\xc8\x01", 6, MSG_NOSIGNAL);  // a record of 200 bytes, 1 sent
    stalled.push_back(fd);
  }
  const auto asked = std::chrono::steady_clock::now();
  EXPECT_EQ(call(*s, "GET", "/project_templates.json").status, 200);
  const auto waited = std::chrono::steady_clock::now() - asked;
  EXPECT_LT(waited, std::chrono::seconds(2))
      << "a prompt client waited " << std::chrono::duration_cast<std::chrono::milliseconds>(waited).count() << " ms";
  for (int fd : stalled) ::close(fd);
  EXPECT_EQ(s->stop(SIGTERM), 0);
}

}  // namespace
}  // namespace ptmpl::testing

namespace ptmpl::testing {
namespace {

class SandboxOAuthTest : public ::testing::Test {
 protected:
  ScratchDir dir{"sandbox-oauth"};
  std::string tokens = dir.write("tokens", "static-token 1\n");
  std::string clients = dir.write("clients", "app-1 app-secret https://app.example/callback\n");

  std::unique_ptr<SandboxProcess> start() {
    auto s = std::make_unique<SandboxProcess>(std::vector<std::string>{
        "--data-dir", dir.file("data"), "--tokens-file", tokens, "--oauth-clients", clients, "--oauth-user", "5"});
    EXPECT_TRUE(s->ready()) << s->first_line();
    return s;
  }

  static httplib::Client client(const SandboxProcess& s) {
    httplib::Client c(s.origin());
    c.set_ca_cert_path(s.ca_path().c_str());
    c.enable_server_certificate_verification(true);
    return c;
  }

  // The query parameter `name` of a redirect's Location.
  static std::string query_value(const std::string& location, const std::string& name) {
    auto at = location.find(name + "=");
    if (at == std::string::npos) return "";
    auto end = location.find('&', at);
    return location.substr(at + name.size() + 1,
                           end == std::string::npos ? std::string::npos : end - at - name.size() - 1);
  }

  static std::string authorize(const SandboxProcess& s, const std::string& extra = "") {
    auto c = client(s);
    auto r = c.Get(
        ("/oauth/"
         "authorize?client_id=app-1&response_type=code&redirect_uri=https%3A%2F%2Fapp.example%2Fcallback&state=xyz" +
         extra)
            .c_str());
    EXPECT_TRUE(r);
    if (!r) return "";
    EXPECT_EQ(r->status, 302);
    return r->get_header_value("Location");
  }

  static httplib::Result exchange(const SandboxProcess& s, const std::string& code,
                                  const std::string& secret = "app-secret") {
    auto c = client(s);
    httplib::Params form = {{"client_id", "app-1"},
                            {"client_secret", secret},
                            {"grant_type", "authorization_code"},
                            {"code", code},
                            {"redirect_uri", "https://app.example/callback"}};
    return c.Post("/oauth/token", form);
  }
};

TEST_F(SandboxOAuthTest, ExchangesACodeForATokenThatWorksAndSurvivesRestarts) {
  std::string token;
  {
    auto s = start();
    std::string location = authorize(*s);
    EXPECT_TRUE(location.starts_with("https://app.example/callback?code=")) << location;
    EXPECT_EQ(query_value(location, "state"), "xyz");
    std::string code = query_value(location, "code");
    auto r = exchange(*s, code);
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 200) << r->body;
    rapidjson::Document doc;
    doc.Parse(r->body.c_str());
    EXPECT_STREQ(doc["token_type"].GetString(), "bearer");
    token = doc["access_token"].GetString();

    // Used once only.
    auto again = exchange(*s, code);
    EXPECT_EQ(again->status, 400);
    EXPECT_NE(again->body.find("\"error\":\"invalid_grant\""), std::string::npos) << again->body;
  }
  auto s = start();
  auto c = client(*s);
  auto created = c.Post("/api/v1/project_templates.json", {{"Authorization", "Bearer " + token}},
                        R"({"project_template":{"title":"via OAuth"}})", "application/json");
  ASSERT_TRUE(created);
  EXPECT_EQ(created->status, 200) << created->body;
  EXPECT_NE(created->body.find("\"user_id\":5"), std::string::npos) << created->body;
  EXPECT_EQ(std::filesystem::status(dir.file("data/oauth-tokens")).permissions() &
                (std::filesystem::perms::group_all | std::filesystem::perms::others_all),
            std::filesystem::perms::none);
}

TEST_F(SandboxOAuthTest, AnswersTheReferencesErrors) {
  auto s = start();
  std::string denied = authorize(*s, "&deny=1");
  EXPECT_EQ(query_value(denied, "error"), "access_denied") << denied;
  EXPECT_FALSE(query_value(denied, "error_description").empty());
  auto c = client(*s);
  auto wrong_type =
      c.Get("/oauth/authorize?client_id=app-1&response_type=token&redirect_uri=https%3A%2F%2Fapp.example%2Fcallback");
  EXPECT_EQ(query_value(wrong_type->get_header_value("Location"), "error"), "unsupported_response_type");
  auto wrong_redirect =
      c.Get("/oauth/authorize?client_id=app-1&response_type=code&redirect_uri=https%3A%2F%2Fevil.example%2F");
  EXPECT_EQ(wrong_redirect->status, 400);  // never redirected to an unregistered address

  std::string code = query_value(authorize(*s), "code");
  auto bad_secret = exchange(*s, code, "wrong");
  EXPECT_EQ(bad_secret->status, 401);
  EXPECT_NE(bad_secret->body.find("invalid_client"), std::string::npos);
  auto bad_code = exchange(*s, "not-a-code");
  EXPECT_EQ(bad_code->status, 400);
  EXPECT_NE(bad_code->body.find("invalid_grant"), std::string::npos);
}

}  // namespace
}  // namespace ptmpl::testing
