// ptmpl list and ptmpl pull against the sandbox over HTTPS on 127.0.0.1.
#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "cli_run.hpp"
#include "libtemplate/core/writer.hpp"
#include "libtemplate/publish/api_client.hpp"
#include "sandbox_process.hpp"

namespace ptmpl::testing::cli_publish_test {
namespace {

constexpr const char* kToken = "cli-publish-token-77ab";

class CliPublishTest : public ::testing::Test {
 protected:
  ScratchDir dir{"cli-publish"};
  std::string tokens = dir.write("tokens", std::string(kToken) + " 1\nsomeone-else 2\n");
  SandboxProcess sandbox{{"--data-dir", dir.file("data"), "--tokens-file", tokens}};

  /// A client of the sandbox with `token`.
  publish::Client client_with(const std::string& token) const {
    publish::ClientOptions options;
    options.base_url = sandbox.base_url();
    options.token = token;
    publish::TransportOptions transport;
    transport.cacert = sandbox.ca_path();
    return publish::Client(options, publish::make_curl_transport(transport));
  }

  void SetUp() override {
    ASSERT_TRUE(sandbox.ready()) << sandbox.first_line();
    publish::Client client = client_with(kToken);
    ASSERT_TRUE(
        client
            .create(
                R"({"project_template":{"title":"Website launch","duration":20,"raw_json":"[{\"title\":\"Kick-off\",\"temp_id\":1,\"story_type\":\"milestone\"}]"}})",
                "Website launch")
            .ok());
    ASSERT_TRUE(client.create(R"({"project_template":{"title":"Office move","shared":true}})", "Office move").ok());
    publish::Client client2 = client_with("someone-else");
    ASSERT_TRUE(client2.create(R"({"project_template":{"title":"Not mine, shared","shared":true}})", "x").ok());
  }

  std::string service() const { return "--base-url '" + sandbox.base_url() + "' --cacert '" + sandbox.ca_path() + "'"; }
  static std::string env() { return std::string("PTMPL_TOKEN=") + kToken; }
};

TEST_F(CliPublishTest, ListPrintsATableInTheServiceOrder) {
  CliRun run = run_ptmpl("list " + service() + " --order title:asc", env());
  ASSERT_EQ(run.exit, 0) << run.err;
  std::istringstream lines(run.out);
  std::string header, first, second, third;
  std::getline(lines, header);
  std::getline(lines, first);
  std::getline(lines, second);
  std::getline(lines, third);
  EXPECT_TRUE(header.starts_with("ID      TITLE")) << run.out;
  EXPECT_TRUE(first.starts_with("3       Not mine, shared")) << run.out;
  EXPECT_TRUE(second.starts_with("2       Office move")) << run.out;
  EXPECT_TRUE(third.starts_with("1       Website launch    1      20        no ")) << run.out;
}

TEST_F(CliPublishTest, PtmplCacertTrustsTheSandboxAndTheOptionWinsOverIt) {
  const std::string address = "--base-url '" + sandbox.base_url() + "'";
  // Without a CA the sandbox's certificate does not verify against the system's store.
  CliRun untrusted = run_ptmpl("list " + address, env() + " PTMPL_CACERT=");
  EXPECT_EQ(untrusted.exit, 3) << untrusted.err;
  EXPECT_NE(untrusted.err.find("certificate does not verify"), std::string::npos) << untrusted.err;
  CliRun trusted = run_ptmpl("list " + address, env() + " PTMPL_CACERT='" + sandbox.ca_path() + "'");
  EXPECT_EQ(trusted.exit, 0) << trusted.err;
  EXPECT_NE(trusted.out.find("Website launch"), std::string::npos) << trusted.out;
  CliRun option_wins = run_ptmpl("list " + service(), env() + " PTMPL_CACERT='" + dir.file("no-such-ca.pem") + "'");
  EXPECT_EQ(option_wins.exit, 0) << option_wins.err;
}

TEST_F(CliPublishTest, ListLinesUpTitlesByTheirWidthAndPullSpellsTheirFileNamesInAscii) {
  publish::Client client = client_with(kToken);
  ASSERT_TRUE(client.create(R"({"project_template":{"title":"Zürich office move","duration":7}})", "Zürich").ok());
  CliRun list = run_ptmpl("list " + service() + " --order title:asc", env());
  ASSERT_EQ(list.exit, 0) << list.err;
  std::istringstream lines(list.out);
  std::vector<std::string> rows;
  for (std::string line; std::getline(lines, line);) rows.push_back(line);
  ASSERT_EQ(rows.size(), 5u) << list.out;
  // "ü" is two bytes but one column: the ITEMS column starts at the same column on every line.
  auto items_column = [](const std::string& row, const std::string& title) {
    const std::string before = row.substr(0, row.find(title) + title.size());
    std::size_t columns = 0;
    for (char c : before) columns += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return columns + row.substr(before.size()).find_first_not_of(' ');
  };
  EXPECT_EQ(items_column(rows[4], "Zürich office move"), items_column(rows[2], "Office move")) << list.out;
  EXPECT_EQ(items_column(rows[4], "Zürich office move"), 8u + 18u + 2u) << list.out;
  const std::string out = dir.file("pulled");
  CliRun pull = run_ptmpl("pull " + service() + " 4 -o '" + out + "'", env());
  ASSERT_EQ(pull.exit, 0) << pull.err;
  EXPECT_TRUE(std::filesystem::exists(out + "/4-zurich-office-move.json")) << pull.out << pull.err;
}

TEST_F(CliPublishTest, ListPrintsJsonWithFilters) {
  CliRun run = run_ptmpl("list " + service() + " --mine --format json --order title:desc", env());
  ASSERT_EQ(run.exit, 0) << run.err;
  rapidjson::Document doc;
  doc.Parse(run.out.c_str());
  ASSERT_FALSE(doc.HasParseError()) << run.out;
  EXPECT_EQ(doc["count"].GetInt(), 2);
  EXPECT_STREQ(doc["templates"][0]["title"].GetString(), "Website launch");
  EXPECT_STREQ(doc["templates"][1]["title"].GetString(), "Office move");
  // Pretty as `fmt` prints: the service's keys in its order, two spaces a level.
  json::Document tree = json::Document::parse(run.out);
  EXPECT_EQ(write_canonical(tree.root(), Shape::Unknown), run.out);
  EXPECT_TRUE(run.out.starts_with("{\n  \"count\": 2,\n  \"templates\": [\n    {\n      \"id\": ")) << run.out;
}

TEST_F(CliPublishTest, PullWritesLintCleanCanonicalDocuments) {
  const std::string out = dir.file("pulled");
  CliRun run = run_ptmpl("pull " + service() + " --mine -o '" + out + "'", env());
  ASSERT_EQ(run.exit, 0) << run.err;
  EXPECT_EQ(run.out, out + "/2-office-move.json\n" + out + "/1-website-launch.json\n");  // updated_at:desc
  std::ifstream in(out + "/1-website-launch.json");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  // updated_at is the service's: the sandbox's clock when SetUp created the template.
  const std::string stamp_key = "    \"updated_at\": \"";
  auto stamp = text.find(stamp_key);
  ASSERT_NE(stamp, std::string::npos) << text;
  auto stamp_end = text.find("\",\n", stamp);
  EXPECT_EQ(stamp_end - stamp - stamp_key.size(), 24u) << text;  // 2026-11-22T06:21:38.144Z
  text.erase(stamp, stamp_end + 3 - stamp);
  EXPECT_EQ(text, R"({
  "project_template": {
    "id": 1,
    "title": "Website launch",
    "description": "",
    "shared": false,
    "is_budgeted": false,
    "currency": "USD",
    "duration": 20,
    "item_count": 1,
    "raw_json": [
      {
        "story_type": "milestone",
        "title": "Kick-off",
        "temp_id": 1
      }
    ]
  }
}
)");
  EXPECT_EQ(run_ptmpl("lint '" + out + "'").exit, 0);
  EXPECT_EQ(run_ptmpl("fmt --check '" + out + "/1-website-launch.json' '" + out + "/2-office-move.json'").exit, 0);

  CliRun one = run_ptmpl("pull " + service() + " 3 -o '" + out + "'", env());
  ASSERT_EQ(one.exit, 0) << one.err;
  EXPECT_EQ(one.out, out + "/3-not-mine-shared.json\n");
  CliRun titled = run_ptmpl("pull " + service() + " --title 'Office move' -o '" + out + "'", env());
  EXPECT_EQ(titled.out, out + "/2-office-move.json\n");
}

TEST_F(CliPublishTest, ServiceErrorsExitWith3AndSetUpErrorsWith2) {
  // A template that does not exist is the caller's mistake, not the service's: exit 2.
  CliRun missing = run_ptmpl("pull " + service() + " 99", env());
  EXPECT_EQ(missing.exit, 2);
  EXPECT_EQ(missing.err, "ptmpl pull: reading template 99: HTTP 404: system: project template 99 not found\n");

  CliRun revoked = run_ptmpl("list " + service(), "PTMPL_TOKEN=revoked");
  EXPECT_EQ(revoked.exit, 3);
  EXPECT_EQ(revoked.err, "ptmpl list: listing templates: HTTP 401: oauth: invalid or missing access token\n");

  CliRun plain = run_ptmpl("list --base-url http://example.com/api/v1", env());
  EXPECT_EQ(plain.exit, 2);
  EXPECT_EQ(plain.err,
            "ptmpl list: refusing plain http:// to example.com: only https is allowed, except to a loopback address\n");

  CliRun no_url = run_ptmpl("list", env() + " PTMPL_BASE_URL=");
  EXPECT_EQ(no_url.exit, 2);
  const std::string no_default =
      "no service address: pass --base-url or set PTMPL_BASE_URL to the service's API root (ending in /api/v1); "
      "there is no default\n";
  EXPECT_EQ(no_url.err, "ptmpl list: " + no_default);
  // The same for every command that talks to the service, before anything is read or sent.
  for (const std::string command :
       {"pull --all", "push samples/website-launch.json", "diff samples/website-launch.json"}) {
    CliRun run = run_ptmpl(command, env() + " PTMPL_BASE_URL=");
    EXPECT_EQ(run.exit, 2) << command;
    EXPECT_EQ(run.err, "ptmpl " + command.substr(0, command.find(' ')) + ": " + no_default) << command;
  }

  std::string token_file = dir.write("token", std::string(kToken) + "\n");
  ::chmod(token_file.c_str(), 0644);
  CliRun open_file = run_ptmpl("list " + service() + " --token-file '" + token_file + "'", "PTMPL_TOKEN=");
  EXPECT_EQ(open_file.exit, 2);
  EXPECT_NE(open_file.err.find("readable by group or others; refused"), std::string::npos) << open_file.err;
  ::chmod(token_file.c_str(), 0600);
  EXPECT_EQ(run_ptmpl("list " + service() + " --token-file '" + token_file + "'", "PTMPL_TOKEN=").exit, 0);

  CliRun wrong_ca = run_ptmpl("list --base-url '" + sandbox.base_url() + "'", env());  // system CAs only
  EXPECT_EQ(wrong_ca.exit, 3);
  EXPECT_NE(wrong_ca.err.find("no response"), std::string::npos) << wrong_ca.err;

  EXPECT_EQ(run_ptmpl("pull " + service() + " --all --mine", env()).exit, 2);
}

TEST_F(CliPublishTest, LocalProblemsExit2EvenWhenTheServiceIsAsked) {
  // No such title on the service: the caller's mistake.
  CliRun untitled = run_ptmpl("pull " + service() + " --title 'No such plan' -o '" + dir.file("none") + "'", env());
  EXPECT_EQ(untitled.exit, 2) << untitled.err;
  EXPECT_EQ(untitled.err, "ptmpl pull: no template is titled \"No such plan\"\n");

  // A document that is not JSON is refused before anything is asked.
  std::string broken = dir.write("broken.json", "{\"project_template\": {\"title\": \"x\",}");
  CliRun parse = run_ptmpl("diff " + service() + " '" + broken + "'", env());
  EXPECT_EQ(parse.exit, 2) << parse.err;

  // Two of the caller's templates share the title: ambiguous, so exit 2 and a way out.
  publish::Client client = client_with(kToken);
  ASSERT_TRUE(client.create(R"({"project_template":{"title":"Office move"}})", "Office move twin").ok());
  std::string twin = dir.write("twin.json", R"({"project_template": {"title": "Office move", "raw_json": []}})");
  CliRun ambiguous = run_ptmpl("diff " + service() + " '" + twin + "'", env());
  EXPECT_EQ(ambiguous.exit, 2) << ambiguous.err;
  EXPECT_EQ(ambiguous.err,
            "ptmpl diff: " + twin +
                ": 2 of your templates are titled \"Office move\" (ids 2, 4): add the \"id\" of the one to "
                "update to the file\n");
  CliRun push = run_ptmpl("push " + service() + " '" + twin + "'", env());
  EXPECT_EQ(push.exit, 2) << push.err;
  EXPECT_NE(push.err.find("2 of your templates are titled \"Office move\" (ids 2, 4)"), std::string::npos) << push.err;

  // A document whose id the service does not hold: not found, exit 2.
  std::string gone = dir.write("gone.json", R"({"project_template": {"id": 99, "title": "Gone", "raw_json": []}})");
  CliRun missing = run_ptmpl("push " + service() + " '" + gone + "'", env());
  EXPECT_EQ(missing.exit, 2) << missing.err;
  EXPECT_NE(missing.err.find("deleted on the service?"), std::string::npos) << missing.err;
}

TEST_F(CliPublishTest, VerboseTraceNeverShowsTheToken) {
  CliRun run = run_ptmpl("pull " + service() + " --all --verbose -o '" + dir.file("v") + "'", env());
  ASSERT_EQ(run.exit, 0) << run.err;
  EXPECT_NE(run.err.find("> Authorization: Bearer [REDACTED]"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("optional_fields=raw_json"), std::string::npos);
  EXPECT_EQ((run.out + run.err).find(kToken), std::string::npos);
  for (const auto& entry : std::filesystem::directory_iterator(dir.file("v"))) {
    std::ifstream in(entry.path());
    std::string text((std::istreambuf_iterator<char>(in)), {});
    EXPECT_EQ(text.find(kToken), std::string::npos);
  }
}

}  // namespace
}  // namespace ptmpl::testing::cli_publish_test
