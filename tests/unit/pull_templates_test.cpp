// pull_templates and the diffs of a file, without sockets: a scripted transport answers.
#include <gtest/gtest.h>

#include <deque>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "libtemplate/publish/api_client.hpp"
#include "libtemplate/publish/file_diff.hpp"
#include "libtemplate/publish/pull.hpp"

namespace ptmpl::testing {
namespace {

using namespace ptmpl::publish;
namespace fs = std::filesystem;

class ScriptedTransport final : public Transport {
 public:
  std::deque<Result<HttpResponse>> script;
  Result<HttpResponse> send(const HttpRequest&) override {
    if (script.empty()) return Error::internal("script exhausted");
    auto next = std::move(script.front());
    script.pop_front();
    return next;
  }
};

HttpResponse reply(int status, std::string body) {
  HttpResponse r;
  r.status = status;
  r.body = std::move(body);
  return r;
}

/// The service's answer to GET of template `id`.
std::string one(int id, const std::string& title, const std::string& updated_at = "2026-01-01T00:00:00.000Z") {
  std::string sid = std::to_string(id);
  return R"({"count":1,"results":[{"key":"project_templates","id":")" + sid + R"("}],"project_templates":{")" + sid +
         R"(":{"id":)" + sid + R"(,"title":")" + title + R"(","updated_at":")" + updated_at +
         R"(","raw_json":"[{\"temp_id\":1,\"title\":\"Kick-off\"}]"}}})";
}

struct Service {
  ScriptedTransport* transport = nullptr;
  std::unique_ptr<Client> client;
  Service() {
    auto fake = std::make_unique<ScriptedTransport>();
    transport = fake.get();
    ClientOptions options;
    options.base_url = "https://templates.example/api/v1";
    options.token = "t0ken";
    options.retry.max_attempts = 1;
    options.sleep = [](std::chrono::milliseconds) {};
    options.jitter_seed = 1;
    client = std::make_unique<Client>(options, std::move(fake));
  }
};

fs::path fresh_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("ptmpl-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(PullTemplates, NamingNothingOrTwoThingsIsAUsageErrorBeforeAnyRequest) {
  Service service;
  PullSelection both;
  both.all = true;
  both.mine = true;
  PullOutcome out = pull_templates(*service.client, both, {});
  ASSERT_TRUE(out.stopped);
  EXPECT_EQ(out.stopped->code, ErrorCode::kUsage);
  EXPECT_TRUE(out.templates.empty());
  EXPECT_FALSE(PullSelection{}.check().ok());
}

TEST(PullTemplates, WritesEachTemplateAndRecordsItsBaseAndAMissingOneDoesNotStopThem) {
  Service service;
  service.transport->script.push_back(reply(404, R"({"errors":[{"type":"not_found","message":"no such"}]})"));
  service.transport->script.push_back(reply(200, one(12, "Launch")));
  fs::path dir = fresh_dir("pull");
  PullSelection ids;
  ids.ids = {11, 12};
  PullOptions options;
  options.output_dir = (dir / "templates").string();
  options.base_dir = (dir / "bases").string();
  PullOutcome out = pull_templates(*service.client, ids, options);
  EXPECT_FALSE(out.stopped);
  ASSERT_EQ(out.unavailable.size(), 1U);
  EXPECT_EQ(out.unavailable[0].code, ErrorCode::kNotFound);
  ASSERT_EQ(out.templates.size(), 1U);
  const PulledTemplate& t = out.templates[0];
  EXPECT_EQ(t.id, 12);
  EXPECT_TRUE(t.written);
  EXPECT_FALSE(t.error);
  EXPECT_TRUE(t.notes.empty());
  EXPECT_EQ(t.path, (dir / "templates" / "12-launch.json").string());
  EXPECT_NE(read_text(t.path).find("\"Kick-off\""), std::string::npos);
  EXPECT_TRUE(fs::exists(dir / "bases" / "12.json"));

  // The file has edits not pushed: refused without --force, saved first with it.
  std::string edited = read_text(t.path);
  edited.replace(edited.find("Kick-off"), 8, "Kick-on!");
  std::ofstream(t.path) << edited;
  service.transport->script.push_back(reply(200, one(12, "Launch")));
  PullSelection twelve;
  twelve.ids = {12};
  PullOutcome refused = pull_templates(*service.client, twelve, options);
  ASSERT_EQ(refused.templates.size(), 1U);
  ASSERT_TRUE(refused.templates[0].error);
  EXPECT_EQ(refused.templates[0].error->code, ErrorCode::kConflict);
  EXPECT_FALSE(refused.templates[0].written);
  options.force = true;
  service.transport->script.push_back(reply(200, one(12, "Launch")));
  PullOutcome forced = pull_templates(*service.client, twelve, options);
  ASSERT_EQ(forced.templates.size(), 1U);
  EXPECT_TRUE(forced.templates[0].written);
  ASSERT_EQ(forced.templates[0].notes.size(), 1U);
  EXPECT_EQ(forced.templates[0].notes[0], t.path + ": its previous bytes saved as " + t.path + ".bak");
  EXPECT_EQ(read_text(t.path + ".bak"), edited);
  fs::remove_all(dir);
}

TEST(PullTemplates, MergeConflictsAreListedInTheNoteAndNothingIsWritten) {
  Service service;
  fs::path dir = fresh_dir("pull-merge");
  PullSelection twelve;
  twelve.ids = {12};
  PullOptions options;
  options.output_dir = dir.string();
  // Outside the folder pulled into: a base there would be a second file holding template 12.
  options.base_dir = dir.string() + "-bases";
  service.transport->script.push_back(reply(200, one(12, "Launch")));
  PullOutcome first = pull_templates(*service.client, twelve, options);
  ASSERT_EQ(first.templates.size(), 1U);
  const std::string path = first.templates[0].path;
  std::string edited = read_text(path);
  edited.replace(edited.find("Kick-off"), 8, "Ours");
  std::ofstream(path) << edited;
  // The service changed the same title since.
  std::string theirs = one(12, "Launch", "2026-02-01T00:00:00.000Z");
  theirs.replace(theirs.find("Kick-off"), 8, "Theirs");
  service.transport->script.push_back(reply(200, theirs));
  options.merge = true;
  PullOutcome merged = pull_templates(*service.client, twelve, options);
  ASSERT_EQ(merged.templates.size(), 1U);
  const PulledTemplate& t = merged.templates[0];
  EXPECT_FALSE(t.error) << (t.error ? t.error->message : "");
  EXPECT_TRUE(t.conflicts);
  EXPECT_FALSE(t.written);
  ASSERT_EQ(t.notes.size(), 1U);
  EXPECT_EQ(t.notes[0].rfind(path + ": 1 conflict between the file's edits and the changes to template 12", 0), 0U);
  EXPECT_NE(t.notes[0].find("title: locally \"Ours\", on the service \"Theirs\" (base \"Kick-off\")"),
            std::string::npos);
  EXPECT_EQ(read_text(path), edited);
  fs::remove_all(dir);
  fs::remove_all(dir.string() + "-bases");
}

TEST(DiffWithService, SaysWhetherTheFileHoldsWhatTheServiceHolds) {
  Service service;
  fs::path dir = fresh_dir("diff");
  PullSelection twelve;
  twelve.ids = {12};
  PullOptions options;
  options.output_dir = dir.string();
  options.base_dir = (dir / "bases").string();
  service.transport->script.push_back(reply(200, one(12, "Launch")));
  const std::string path = pull_templates(*service.client, twelve, options).templates.at(0).path;
  auto local = read_template_document(path);
  ASSERT_TRUE(local.ok()) << local.error().message;
  service.transport->script.push_back(reply(200, one(12, "Launch")));
  auto same = diff_with_service(*service.client, local.value());
  ASSERT_TRUE(same.ok()) << same.error().message;
  EXPECT_FALSE(same.value().differs());
  EXPECT_EQ(diff_text(same.value()), path + ": the same as template 12 on the service\n");

  std::string theirs = one(12, "Launch", "2026-02-01T00:00:00.000Z");
  theirs.replace(theirs.find("Kick-off"), 8, "Kick-off call");
  service.transport->script.push_back(reply(200, theirs));
  auto three = diff_three_way_with_service(*service.client, local.value(), options.base_dir);
  ASSERT_TRUE(three.ok()) << three.error().message;
  EXPECT_TRUE(three.value().differs());
  EXPECT_NE(diff_text(three.value()).find("local changes: none\n"), std::string::npos);
  EXPECT_NE(diff_text(three.value()).find("conflicts: none\n"), std::string::npos);

  auto no_base = diff_three_way_with_service(*service.client, local.value(), (dir / "elsewhere").string());
  ASSERT_FALSE(no_base.ok());
  EXPECT_EQ(no_base.error().code, ErrorCode::kUsage);
  EXPECT_NE(no_base.error().message.find("no base of template 12"), std::string::npos);
  fs::remove_all(dir);
}

TEST(DiffWithService, AFileWithoutAnIdHasNoBase) {
  auto local = read_local_template("t.json", R"({"project_template": {"title": "T", "raw_json": "[]"}})");
  ASSERT_TRUE(local.ok());
  Status has_base = check_has_base(local.value());
  ASSERT_FALSE(has_base.ok());
  EXPECT_EQ(has_base.error().code, ErrorCode::kUsage);
  EXPECT_EQ(has_base.error().message.rfind("t.json: it has no \"id\"", 0), 0U);
}

}  // namespace
}  // namespace ptmpl::testing
