// ptmpl apply against the sandbox over HTTPS on 127.0.0.1 (a template pushed first when it has no
// id, then a workspace created from it), and the sandbox's workspace endpoints themselves.
#include <gtest/gtest.h>
#include <httplib.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/publish/api_client.hpp"
#include "libtemplate/publish/publish.hpp"
#include "sandbox_process.hpp"
#include "test_files.hpp"

namespace ptmpl::testing::cli_apply_test {
namespace {

namespace fs = std::filesystem;
constexpr const char* kToken = "cli-apply-token-7a2f";
constexpr const char* kOtherToken = "cli-apply-other-9b41";
constexpr const char* kSample = "samples/agency-retainer.json";  // budgeted, in GBP

/// The value of `key` in the JSON object `json`, as compact text ("" when absent).
std::string field(const std::string& json, std::string_view key) {
  json::Document doc = json::Document::parse(json);
  const json::Value* v = doc.ok() ? doc.root().find(key) : nullptr;
  if (v == nullptr) return "";
  return v->is_string()
             ? std::string(v->text())
             : std::string(json.substr(v->offset(), json::value_end(json, *v).value_or(v->offset()) - v->offset()));
}

class ApplyTest : public ::testing::Test {
 protected:
  ScratchDir dir{"cli-apply"};
  std::string tokens = dir.write("tokens", std::string(kToken) + " 1\n" + kOtherToken + " 2\n");
  std::unique_ptr<SandboxProcess> sandbox;

  void SetUp() override { start_sandbox(); }

  void start_sandbox() {
    sandbox.reset();
    sandbox = std::make_unique<SandboxProcess>(
        std::vector<std::string>{"--data-dir", dir.file("data"), "--tokens-file", tokens});
    ASSERT_TRUE(sandbox->ready()) << sandbox->first_line();
  }

  std::string service() const {
    return "--base-url '" + sandbox->base_url() + "' --cacert '" + sandbox->ca_path() + "'";
  }
  std::string env() const {
    return std::string("PTMPL_TOKEN=") + kToken + " XDG_STATE_HOME='" + dir.file("state") + "' NO_COLOR=1";
  }

  std::unique_ptr<publish::Client> client(const char* token = kToken) const {
    publish::ClientOptions options;
    options.base_url = sandbox->base_url();
    options.token = token;
    publish::TransportOptions transport;
    transport.cacert = sandbox->ca_path();
    return std::make_unique<publish::Client>(options, publish::make_curl_transport(transport));
  }

  /// The caller's workspaces, archived ones too.
  std::vector<publish::RemoteWorkspace> workspaces() const {
    publish::WorkspaceListQuery query;
    query.include_archived = true;
    query.per_page = 200;
    auto page = client()->list_workspaces(query);
    EXPECT_TRUE(page.ok()) << (page.ok() ? "" : page.error().message);
    return page.ok() ? page.value().workspaces : std::vector<publish::RemoteWorkspace>{};
  }

  std::vector<publish::RemoteTemplate> templates() const {
    publish::ListQuery query;
    query.mine = true;
    auto all = client()->list_all(query);
    EXPECT_TRUE(all.ok());
    return all.ok() ? all.value() : std::vector<publish::RemoteTemplate>{};
  }

  std::string copy_sample() const {
    std::string copy = dir.file("template.json");
    fs::copy_file(source_path(kSample), copy, fs::copy_options::overwrite_existing);
    return copy;
  }

  /// A raw request to the sandbox, for the envelope and status codes themselves.
  httplib::Result call(const std::string& method, const std::string& path, const std::string& body = "",
                       const std::string& token = kToken) const {
    httplib::Client http(sandbox->origin());
    http.set_ca_cert_path(sandbox->ca_path().c_str());
    http.enable_server_certificate_verification(true);
    httplib::Headers headers;
    if (!token.empty()) headers.emplace("Authorization", "Bearer " + token);
    std::string url = "/api/v1" + path;
    if (method == "GET") return http.Get(url.c_str(), headers);
    if (method == "POST") return http.Post(url.c_str(), headers, body, "application/json");
    return http.Put(url.c_str(), headers, body, "application/json");
  }
};

// No id: pushed as push pushes it (the file gets its id), then the workspace is created from
// it with the template's budget and currency, and the schedule from the start date follows.
TEST_F(ApplyTest, ATemplateWithoutIdIsPushedThenApplied) {
  std::string path = copy_sample();
  CliRun run = run_ptmpl("apply '" + path + "' --start 2027-01-04 " + service(), env());
  ASSERT_EQ(run.exit, 0) << run.err;
  auto remote = templates();
  ASSERT_EQ(remote.size(), 1u);
  auto local = publish::read_local_template(path, slurp(path));
  ASSERT_TRUE(local.ok());
  ASSERT_EQ(local.value().id, remote[0].id) << "the file records the pushed template's id";
  const std::string id = std::to_string(remote[0].id);
  EXPECT_NE(run.out.find(path + ": created template " + id + " \""), std::string::npos) << run.out;
  EXPECT_NE(run.out.find(path + ": \"id\": " + id + " written into the file"), std::string::npos) << run.out;

  auto made = workspaces();
  ASSERT_EQ(made.size(), 1u);
  const std::string& w = made[0].json;
  EXPECT_EQ(made[0].title, local.value().title);
  EXPECT_EQ(field(w, "project_tracker_template_id"), id);
  EXPECT_EQ(field(w, "start_date"), "2027-01-04");
  EXPECT_EQ(field(w, "creator_role"), "maven");
  EXPECT_EQ(field(w, "budgeted"), "true");
  EXPECT_EQ(field(w, "currency"), "GBP");
  EXPECT_EQ(field(w, "price_in_cents"), "3109300");  // the template's budget, 31093 pounds
  const std::string line = "created workspace " + std::to_string(made[0].id) + " " + json::quoted(made[0].title) +
                           " from template " + id + ", starting 2027-01-04\n";
  ASSERT_NE(run.out.find(line), std::string::npos) << run.out;
  CliRun schedule = run_ptmpl("schedule '" + path + "' --start 2027-01-04", "NO_COLOR=1");
  ASSERT_EQ(schedule.exit, 0);
  EXPECT_TRUE(run.out.ends_with(line + schedule.out)) << run.out;
}

// With an id: no push (the template on the service is left as it is), a title of one's own.
TEST_F(ApplyTest, ATemplateWithAnIdIsAppliedWithoutPushing) {
  std::string path = copy_sample();
  ASSERT_EQ(run_ptmpl("push '" + path + "' " + service(), env()).exit, 0);
  const std::string pushed = slurp(path);
  const std::string stamp = templates().at(0).updated_at;
  CliRun run =
      run_ptmpl("apply '" + path + "' --start 2027-03-01 --title 'Client X' --creator-role buyer " + service(), env());
  ASSERT_EQ(run.exit, 0) << run.err;
  EXPECT_EQ(run.out.find("template " + std::to_string(templates().at(0).id) + " \""), std::string::npos)
      << "no push line: " << run.out;
  EXPECT_EQ(run.err.find("ptmpl apply: 1 template"), std::string::npos) << run.err;
  EXPECT_EQ(templates().at(0).updated_at, stamp);
  EXPECT_EQ(slurp(path), pushed);
  auto made = workspaces();
  ASSERT_EQ(made.size(), 1u);
  EXPECT_EQ(made[0].title, "Client X");
  EXPECT_EQ(field(made[0].json, "creator_role"), "buyer");
  EXPECT_EQ(field(made[0].json, "start_date"), "2027-03-01");
  EXPECT_EQ(field(made[0].json, "project_tracker_template_id"), std::to_string(templates().at(0).id));
}

// --dry-run sends nothing that changes the service, and writes no file; it says what it would do.
TEST_F(ApplyTest, ADryRunChangesNothing) {
  std::string path = copy_sample();
  const std::string before = slurp(path);
  CliRun run = run_ptmpl("apply --dry-run '" + path + "' --start 2027-01-04 " + service(), env());
  ASSERT_EQ(run.exit, 0) << run.err;
  EXPECT_NE(run.out.find(path + ": would create \""), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("would create workspace "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find(" from the template pushed above, starting 2027-01-04\n  POST " + sandbox->base_url() +
                         "/workspaces.json\n  {\"workspace\":{\"title\":"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("\"start_date\":\"2027-01-04\",\"project_tracker_template_id\":null,\"budgeted\":true,"
                         "\"price\":31093,\"currency\":\"GBP\"}}"),
            std::string::npos)
      << run.out;
  EXPECT_EQ(slurp(path), before);
  EXPECT_TRUE(templates().empty());
  EXPECT_TRUE(workspaces().empty());
  EXPECT_FALSE(fs::exists(dir.file("data/workspaces/1.json")));

  // With an id, the body names it.
  ASSERT_EQ(run_ptmpl("push '" + path + "' " + service(), env()).exit, 0);
  CliRun with_id = run_ptmpl("apply --dry-run '" + path + "' --start 2027-01-04 " + service(), env());
  ASSERT_EQ(with_id.exit, 0) << with_id.err;
  EXPECT_NE(with_id.out.find("\"project_tracker_template_id\":" + std::to_string(templates().at(0).id) + ","),
            std::string::npos)
      << with_id.out;
  EXPECT_TRUE(workspaces().empty());
}

TEST_F(ApplyTest, AStartThatIsNoDateIsAUsageErrorBeforeAnythingIsSent) {
  std::string path = copy_sample();
  for (const char* start : {"2027-02-30", "04/01/2027", "2027-1-4"}) {
    CliRun run = run_ptmpl("apply '" + path + "' --start '" + start + "' " + service(), env());
    EXPECT_EQ(run.exit, 2) << start;
    EXPECT_EQ(run.err, std::string("ptmpl apply: --start: \"") + start + "\" is not a date (expected YYYY-MM-DD)\n");
  }
  EXPECT_TRUE(templates().empty());
  EXPECT_TRUE(workspaces().empty());
}

// The service refuses a template id it does not know: its error, exit 3, no workspace.
TEST_F(ApplyTest, AnUnknownTemplateIdIsTheServicesErrorAndExit3) {
  std::string text = slurp(source_path(kSample));
  text.replace(text.find("\"title\""), 0, "\"id\": 999,\n    ");
  std::ofstream(dir.file("unknown.json")) << text;
  CliRun run = run_ptmpl("apply '" + dir.file("unknown.json") + "' --start 2027-01-04 " + service(), env());
  EXPECT_EQ(run.exit, 3) << run.err;
  EXPECT_NE(run.err.find("ptmpl apply: creating workspace \""), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("HTTP 422: validation: project_tracker_template_id 999 is not a project template owned by "
                         "or shared with you (field project_tracker_template_id)"),
            std::string::npos)
      << run.err;
  EXPECT_TRUE(workspaces().empty());
}

// The sandbox's workspace endpoints through the client: create, show, list, archive, and every
// workspace back after a kill -9 and a restart.
TEST_F(ApplyTest, SandboxWorkspacesAreCreatedShownListedArchivedAndDurable) {
  auto c = client();
  auto first = c->create_workspace(
      R"({"workspace":{"title":"Alpha","creator_role":"maven","start_date":"2027-01-04"}})", "Alpha");
  ASSERT_TRUE(first.ok()) << first.error().message;
  auto second = c->create_workspace(R"({"workspace":{"title":"Beta","creator_role":"buyer","price":12.5}})", "Beta");
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_EQ(field(second.value().json, "price_in_cents"), "1250");
  auto shown = c->get_workspace(first.value().id);
  ASSERT_TRUE(shown.ok());
  EXPECT_EQ(shown.value().title, "Alpha");
  EXPECT_EQ(field(shown.value().json, "start_date"), "2027-01-04");
  EXPECT_EQ(field(shown.value().json, "archived"), "false");

  auto archived = c->update_workspace(first.value().id, R"({"workspace":{"archived":true}})");
  ASSERT_TRUE(archived.ok()) << archived.error().message;
  EXPECT_EQ(field(archived.value().json, "archived"), "true");
  auto hidden = c->get_workspace(first.value().id);
  ASSERT_FALSE(hidden.ok());
  EXPECT_EQ(hidden.error().code, ErrorCode::kNotFound) << hidden.error().message;
  EXPECT_TRUE(c->get_workspace(first.value().id, true).ok());
  auto listed = c->list_workspaces({});
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed.value().count, 1);
  EXPECT_EQ(listed.value().workspaces.at(0).title, "Beta");
  EXPECT_EQ(workspaces().size(), 2u);
  publish::WorkspaceListQuery matching;
  matching.include_archived = true;
  matching.matching = "alp";
  EXPECT_EQ(c->list_workspaces(matching).value().count, 1);
  EXPECT_EQ(client(kOtherToken)->list_workspaces({}).value().count, 0) << "another user's are not listed";
  EXPECT_EQ(client(kOtherToken)->get_workspace(second.value().id).error().code, ErrorCode::kNotFound);

  ASSERT_EQ(sandbox->stop(SIGKILL), -1);
  start_sandbox();
  auto after = workspaces();
  ASSERT_EQ(after.size(), 2u);
  EXPECT_EQ(client()->get_workspace(first.value().id, true).value().json, archived.value().json);
  auto third = client()->create_workspace(R"({"workspace":{"title":"Gamma","creator_role":"maven"}})", "Gamma");
  ASSERT_TRUE(third.ok());
  EXPECT_EQ(third.value().id, second.value().id + 1) << "ids continue after the largest stored";
}

// Errors in the service's envelope, with the reference's statuses.
TEST_F(ApplyTest, SandboxWorkspaceErrorsAreTheServicesEnvelope) {
  auto r = call("POST", "/workspaces.json", R"({"workspace":{"start_date":"2027-13-01","currency":"eur"}})");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 422);
  EXPECT_EQ(r->body,
            R"j({"errors":[{"type":"validation","message":"title can't be blank","field":"title"},)j"
            R"j({"type":"validation","message":"creator_role must be maven (the consultant role) or buyer )j"
            R"j((the client role)","field":"creator_role"},)j"
            R"j({"type":"validation","message":"currency must be a three-letter ISO 4217 code","field":"currency"},)j"
            R"j({"type":"validation","message":"start_date must be a date, YYYY-MM-DD","field":"start_date"}]})j");
  r = call("POST", "/workspaces.json", R"({"project_template":{}})");
  EXPECT_EQ(r->status, 422);
  EXPECT_NE(r->body.find("workspace is missing or not an object"), std::string::npos) << r->body;
  r = call("POST", "/workspaces.json", "{");
  EXPECT_EQ(r->status, 400);
  r = call("GET", "/workspaces.json", "", "");
  EXPECT_EQ(r->status, 401);
  EXPECT_EQ(r->body, R"({"errors":[{"type":"oauth","message":"invalid or missing access token"}]})");
  r = call("GET", "/workspaces/7.json");
  EXPECT_EQ(r->status, 404);
  EXPECT_EQ(r->body, R"({"errors":[{"type":"system","message":"workspace 7 not found"}]})");
  r = call("PUT", "/workspaces/7.json", R"({"workspace":{"archived":true}})");
  EXPECT_EQ(r->status, 404);
  r = call("GET", "/workspaces.json?order=title:asc&per_page=201");
  EXPECT_EQ(r->status, 400);
  EXPECT_NE(r->body.find("\"field\":\"order\""), std::string::npos) << r->body;
  EXPECT_NE(r->body.find("\"field\":\"per_page\""), std::string::npos) << r->body;
  // A template of another user that is not shared cannot be applied.
  auto other = client(kOtherToken)->create(R"({"project_template":{"title":"Theirs"}})", "Theirs");
  ASSERT_TRUE(other.ok());
  r = call("POST", "/workspaces.json",
           R"({"workspace":{"title":"Mine","creator_role":"maven","project_tracker_template_id":)" +
               std::to_string(other.value().id) + "}}");
  EXPECT_EQ(r->status, 422);
  EXPECT_NE(r->body.find("\"field\":\"project_tracker_template_id\""), std::string::npos) << r->body;
}

}  // namespace
}  // namespace ptmpl::testing::cli_apply_test
