// ptmpl auth url / auth token against the sandbox's OAuth endpoints over HTTPS on 127.0.0.1.
#include <gtest/gtest.h>
#include <httplib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "cli_run.hpp"
#include "libtemplate/publish/oauth.hpp"
#include "sandbox_process.hpp"

namespace ptmpl::testing {
namespace {

constexpr const char* kSecret = "app-secret-5d1e";

class CliAuthTest : public ::testing::Test {
 protected:
  ScratchDir dir{"cli-auth"};
  std::string tokens = dir.write("tokens", "static-token 1\n");
  std::string clients = dir.write("clients", std::string("ci-app ") + kSecret + " https://ci.example/callback\n");
  std::string secret_file = dir.write("secret", std::string(kSecret) + "\n");
  SandboxProcess sandbox{
      {"--data-dir", dir.file("data"), "--tokens-file", tokens, "--oauth-clients", clients, "--oauth-user", "9"}};

  std::string app() const {
    return "--client-id ci-app --redirect-uri https://ci.example/callback --base-url '" + sandbox.base_url() + "'";
  }

  // Follows the printed authorization URL as a user's browser would; returns the code.
  std::string approve(const std::string& url) const {
    httplib::Client c(sandbox.origin());
    c.set_ca_cert_path(sandbox.ca_path().c_str());
    c.enable_server_certificate_verification(true);
    auto r = c.Get(url.substr(sandbox.origin().size()).c_str());
    if (!r || r->status != 302) return "";
    std::string location = r->get_header_value("Location");
    auto at = location.find("code=");
    return at == std::string::npos ? "" : location.substr(at + 5, location.find('&', at) - at - 5);
  }
};

TEST_F(CliAuthTest, PrintsTheAuthorizationUrl) {
  ASSERT_TRUE(sandbox.ready());
  CliRun run = run_ptmpl("auth url " + app() + " --state 'a b'");
  ASSERT_EQ(run.exit, 0) << run.err;
  EXPECT_EQ(run.out, sandbox.origin() +
                         "/oauth/authorize?client_id=ci-app&response_type=code&redirect_uri=https%3A%2F%2Fci.example%2F"
                         "callback&state=a%20b\n");
  EXPECT_EQ(publish::app_url_of("https://svc.example/api/v1/"), "https://svc.example");
}

TEST_F(CliAuthTest, ExchangesTheCodeIntoAPrivateTokenFileThatListUses) {
  ASSERT_TRUE(sandbox.ready());
  CliRun url = run_ptmpl("auth url " + app());
  std::string code = approve(url.out.substr(0, url.out.size() - 1));
  ASSERT_FALSE(code.empty()) << url.out;
  const std::string token_file = dir.file("token");
  // Never onto standard output or a device: the code is not even spent.
  for (const std::string place : {"-", "/dev/null", "/dev/stdout"}) {
    CliRun refused = run_ptmpl("auth token " + app() + " --cacert '" + sandbox.ca_path() + "' --code " + code +
                               " --client-secret-file '" + secret_file + "' -o " + place);
    EXPECT_EQ(refused.exit, 2) << place;
    EXPECT_EQ(refused.out, "") << place;
    EXPECT_EQ(refused.err, "ptmpl auth token: " + place + ": the token is written only to a regular file\n");
  }
  CliRun run = run_ptmpl("auth token " + app() + " --cacert '" + sandbox.ca_path() + "' --code " + code +
                         " --client-secret-file '" + secret_file + "' -o '" + token_file + "'");
  ASSERT_EQ(run.exit, 0) << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err,
            "ptmpl auth token: wrote the access token to " + token_file + " (use --token-file " + token_file + ")\n");
  struct stat st {};
  ASSERT_EQ(::stat(token_file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  std::ifstream in(token_file);
  std::string token;
  in >> token;
  EXPECT_EQ(token.size(), 64u);

  CliRun list = run_ptmpl("list --base-url '" + sandbox.base_url() + "' --cacert '" + sandbox.ca_path() +
                              "' --token-file '" + token_file + "'",
                          "PTMPL_TOKEN=");
  EXPECT_EQ(list.exit, 0) << list.err;

  // The code was used: a second exchange fails as the reference describes, without the secret.
  CliRun again = run_ptmpl("auth token " + app() + " --cacert '" + sandbox.ca_path() + "' --code " + code + " -o '" +
                               dir.file("token2") + "'",
                           std::string("PTMPL_CLIENT_SECRET=") + kSecret);
  EXPECT_EQ(again.exit, 3);
  EXPECT_EQ(again.err,
            "ptmpl auth token: exchanging the code: HTTP 400: invalid_grant: the code is unknown, used or expired\n");
  EXPECT_FALSE(std::filesystem::exists(dir.file("token2")));
}

TEST_F(CliAuthTest, KeepsTheSecretPrivate) {
  ASSERT_TRUE(sandbox.ready());
  CliRun wrong = run_ptmpl(
      "auth token " + app() + " --cacert '" + sandbox.ca_path() + "' --code whatever -o '" + dir.file("t") + "'",
      "PTMPL_CLIENT_SECRET=not-the-secret");
  EXPECT_EQ(wrong.exit, 3);
  EXPECT_EQ(wrong.err,
            "ptmpl auth token: exchanging the code: HTTP 401: invalid_client: unknown client_id or wrong "
            "client_secret\n");
  ::chmod(secret_file.c_str(), 0644);
  CliRun open_secret = run_ptmpl("auth token " + app() + " --code c --client-secret-file '" + secret_file + "' -o '" +
                                 dir.file("t") + "'");
  EXPECT_EQ(open_secret.exit, 2);
  EXPECT_NE(open_secret.err.find("readable by group or others; refused"), std::string::npos) << open_secret.err;
  EXPECT_EQ(open_secret.err.find(kSecret), std::string::npos);
}

}  // namespace
}  // namespace ptmpl::testing
