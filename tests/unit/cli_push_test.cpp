// ptmpl push and ptmpl diff against the sandbox over HTTPS on 127.0.0.1: round trips of every
// sample, lint first, dry runs, conflicts, injected faults, and kill -9 in the middle of a push.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "cli_run.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/template_file.hpp"
#include "libtemplate/core/writer.hpp"
#include "libtemplate/publish/api_client.hpp"
#include "libtemplate/publish/publish.hpp"
#include "sandbox_process.hpp"
#include "test_files.hpp"

namespace ptmpl::testing::cli_push_test {
namespace {

namespace fs = std::filesystem;
constexpr const char* kToken = "cli-push-token-5c1e";

/// The project_template object of a document in canonical form, without the keys that record
/// the service (id, updated_at) or that the service computes (item_count).
std::string content_of(const std::string& text) {
  json::Document doc = json::Document::parse(text);
  EXPECT_TRUE(doc.ok());
  const json::Value& pt = *doc.root().find("project_template");
  json::Arena arena;
  json::Builder build(arena);
  std::vector<json::Member> kept;
  for (const json::Member& m : pt.members())
    if (m.key.text() != "id" && m.key.text() != "updated_at" && m.key.text() != "item_count") kept.push_back(m);
  json::Member root = build.member("project_template", build.object(kept));
  return write_canonical(build.object({&root, 1}), Shape::TemplateDocument);
}

int count_lines_with(const std::string& text, const std::string& needle) {
  int n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

class CliPushTest : public ::testing::Test {
 protected:
  ScratchDir dir{"cli-push"};
  std::string tokens = dir.write("tokens", std::string(kToken) + " 1\n");
  std::unique_ptr<SandboxProcess> sandbox;

  void SetUp() override { start_sandbox({}); }

  void start_sandbox(const std::vector<std::string>& extra) {
    sandbox.reset();
    std::vector<std::string> args = {"--data-dir", dir.file("data"), "--tokens-file", tokens};
    args.insert(args.end(), extra.begin(), extra.end());
    sandbox = std::make_unique<SandboxProcess>(args);
    ASSERT_TRUE(sandbox->ready()) << sandbox->first_line();
  }

  std::string service() const {
    return "--base-url '" + sandbox->base_url() + "' --cacert '" + sandbox->ca_path() + "'";
  }
  static std::string env() { return std::string("PTMPL_TOKEN=") + kToken; }

  /// Copies the samples that lint clean into `folder` of the scratch directory.
  std::vector<std::string> copy_samples(const std::string& folder) {
    fs::create_directories(dir.file(folder));
    std::vector<std::string> copies;
    for (const auto& path : json_files("samples")) {
      if (path.find("broken") != std::string::npos) continue;
      std::string copy = dir.file(folder + "/" + fs::path(path).filename().string());
      fs::copy_file(source_path(path), copy);
      copies.push_back(copy);
    }
    return copies;
  }

  /// Every template of the token's user, as the service holds it.
  std::vector<publish::RemoteTemplate> remote_templates() {
    publish::ClientOptions options;
    options.base_url = sandbox->base_url();
    options.token = kToken;
    publish::TransportOptions transport;
    transport.cacert = sandbox->ca_path();
    publish::Client client(options, publish::make_curl_transport(transport));
    publish::ListQuery query;
    query.mine = true;
    query.with_raw_json = true;
    auto all = client.list_all(query);
    EXPECT_TRUE(all.ok()) << (all.ok() ? "" : all.error().message);
    return all.ok() ? all.value() : std::vector<publish::RemoteTemplate>{};
  }

  /// Writes `n` small generated template documents (distinct titles) into `folder`.
  std::vector<std::string> generate(const std::string& folder, int n) {
    fs::create_directories(dir.file(folder));
    std::vector<std::string> paths;
    for (int i = 1; i <= n; ++i) {
      std::string path = dir.file(folder + "/t" + std::to_string(1000 + i) + ".json");
      CliRun run = run_ptmpl("gen --stories 6 --depth 2 --seed " + std::to_string(i) + " -o '" + path + "'");
      EXPECT_EQ(run.exit, 0) << run.err;
      paths.push_back(path);
    }
    return paths;
  }

  /// Every file in `paths` is on the service exactly once, with the file's id and content.
  void expect_on_service_once(const std::vector<std::string>& paths) {
    auto remote = remote_templates();
    EXPECT_EQ(remote.size(), paths.size());
    std::map<std::string, int> titles;
    for (const auto& t : remote) ++titles[t.title];
    for (const auto& [title, n] : titles) EXPECT_EQ(n, 1) << title;
    std::map<std::int64_t, const publish::RemoteTemplate*> by_id;
    for (const auto& t : remote) by_id[t.id] = &t;
    for (const auto& path : paths) {
      auto local = publish::read_local_template(path, slurp(path));
      ASSERT_TRUE(local.ok()) << path;
      ASSERT_TRUE(local.value().id.has_value()) << path << " did not get its id back";
      auto it = by_id.find(*local.value().id);
      ASSERT_NE(it, by_id.end()) << path;
      EXPECT_TRUE(publish::same_content(local.value(), *it->second)) << path;
      EXPECT_EQ(local.value().updated_at, it->second->updated_at) << path;
    }
  }
};

TEST_F(CliPushTest, EverySampleRoundTripsThroughTheServiceUnchanged) {
  auto files = copy_samples("push");
  std::map<std::string, std::string> before;
  for (const auto& f : files) before[f] = slurp(f);
  // A file named twice (and in its directory) is pushed once.
  CliRun push = run_ptmpl("push '" + dir.file("push") + "' '" + files[0] + "' " + service(), env());
  ASSERT_EQ(push.exit, 0) << push.err;
  EXPECT_EQ(count_lines_with(push.out, ": created template "), static_cast<int>(files.size())) << push.out;
  EXPECT_EQ(push.err, "ptmpl push: " + std::to_string(files.size()) + " templates: " + std::to_string(files.size()) +
                          " created\n");

  // Each file got its id and updated_at, stays canonical and lint-clean, and nothing else changed.
  for (const auto& f : files) EXPECT_EQ(content_of(slurp(f)), content_of(before[f])) << f;
  CliRun fmt = run_ptmpl("fmt --check '" + dir.file("push") + "'/*.json");
  EXPECT_EQ(fmt.exit, 0) << fmt.out << fmt.err;
  CliRun lint = run_ptmpl("lint '" + dir.file("push") + "'");
  EXPECT_EQ(lint.exit, 0) << lint.out;

  // Pulled into the same folder right away, nothing has changed: every file stays byte for
  // byte as it is (issue 36: 6 of 7 were rewritten, 79850 → 79850.0 and service defaults added).
  std::map<std::string, std::string> pushed_bytes;
  for (const auto& f : files) pushed_bytes[f] = slurp(f);
  CliRun same = run_ptmpl("pull --mine -o '" + dir.file("push") + "' " + service(), env());
  ASSERT_EQ(same.exit, 0) << same.err;
  for (const auto& f : files) EXPECT_EQ(slurp(f), pushed_bytes[f]) << f;
  // A file whose stories were taken out is written again: the pull brings them back.
  std::string cut = pushed_bytes[files[0]];
  const std::size_t raw = cut.find(",\n    \"raw_json\": [");
  ASSERT_NE(raw, std::string::npos);
  cut.erase(raw, cut.find("\n    ]", raw) + 6 - raw);
  std::ofstream(files[0], std::ios::binary) << cut;
  ASSERT_EQ(run_ptmpl("pull --mine -o '" + dir.file("push") + "' " + service(), env()).exit, 0);
  EXPECT_NE(slurp(files[0]).find("\"raw_json\": ["), std::string::npos);

  // Pulled back, each template holds exactly what the sample holds (the service's fields).
  CliRun pull = run_ptmpl("pull --mine -o '" + dir.file("pulled") + "' " + service(), env());
  ASSERT_EQ(pull.exit, 0) << pull.err;
  for (const auto& f : files) {
    std::string pushed = slurp(f);
    auto local = publish::read_local_template(f, pushed);
    ASSERT_TRUE(local.ok());
    std::string pulled_path;
    for (const auto& entry : fs::directory_iterator(dir.file("pulled")))
      if (entry.path().filename().string().starts_with(std::to_string(*local.value().id) + "-"))
        pulled_path = entry.path().string();
    ASSERT_FALSE(pulled_path.empty()) << f;
    std::string pulled = slurp(pulled_path);
    // The pulled document lacks only what the service does not store (template assignments).
    json::Document doc = json::Document::parse(pushed);
    json::Document back = json::Document::parse(pulled);
    const json::Value& ours = *doc.root().find("project_template");
    const json::Value& theirs = *back.root().find("project_template");
    EXPECT_EQ(write_canonical(*theirs.find("raw_json"), Shape::StoryList),
              write_canonical(*ours.find("raw_json"), Shape::StoryList))
        << f;
    for (const char* key : publish::kStoredFields) {
      if (ours.find(key) == nullptr) continue;
      ASSERT_NE(theirs.find(key), nullptr) << f << " " << key;
      // Numbers by value: the sandbox, like the service, answers budget as a decimal (31093.0).
      std::string a = write_compact(*theirs.find(key), Shape::Unknown);
      std::string b = write_compact(*ours.find(key), Shape::Unknown);
      if (theirs.find(key)->is_number() && ours.find(key)->is_number())
        EXPECT_EQ(std::stod(a), std::stod(b)) << f << " " << key;
      else
        EXPECT_EQ(a, b) << f << " " << key;
    }
    EXPECT_EQ(theirs.find("id")->text(), ours.find("id")->text());
    EXPECT_EQ(theirs.find("updated_at")->text(), ours.find("updated_at")->text());
  }

  // A second push sends nothing and leaves the files as they are.
  std::map<std::string, std::string> after;
  for (const auto& f : files) after[f] = slurp(f);
  CliRun again = run_ptmpl("push '" + dir.file("push") + "' " + service(), env());
  ASSERT_EQ(again.exit, 0) << again.err;
  EXPECT_EQ(count_lines_with(again.out, ": unchanged template "), static_cast<int>(files.size())) << again.out;
  for (const auto& f : files) EXPECT_EQ(slurp(f), after[f]) << f;
  expect_on_service_once(files);
}

TEST_F(CliPushTest, NothingIsPushedWhileAFileHasLintErrors) {
  copy_samples("push");
  fs::copy_file(source_path("samples/lint-demo-broken.json"), dir.file("push/lint-demo-broken.json"));
  CliRun push = run_ptmpl("push '" + dir.file("push") + "' " + service(), env());
  EXPECT_EQ(push.exit, 1);
  EXPECT_EQ(push.out, "");
  EXPECT_NE(push.err.find("lint-demo-broken.json:68:11: error: story has no title [title-missing]"), std::string::npos)
      << push.err;
  EXPECT_NE(push.err.find("ptmpl push: nothing pushed: fix the errors above first"), std::string::npos);
  EXPECT_TRUE(remote_templates().empty());
}

TEST_F(CliPushTest, DocumentsThatCannotBePublishedAreRefusedBeforeAnythingIsSent) {
  fs::create_directories(dir.file("bad"));
  fs::copy_file(source_path("samples/website-launch.json"), dir.file("bad/a.json"));
  fs::copy_file(source_path("samples/website-launch.json"), dir.file("bad/b.json"));
  CliRun twins = run_ptmpl("push '" + dir.file("bad") + "' " + service(), env());
  EXPECT_EQ(twins.exit, 2);
  EXPECT_NE(twins.err.find("are both titled \"Website Launch – Marketing Site Redesign\" and have no id"),
            std::string::npos)
      << twins.err;

  std::string list = dir.write("list.json", R"([{"title": "A", "story_type": "task"}])");
  CliRun bare = run_ptmpl("push '" + list + "' " + service(), env());
  EXPECT_EQ(bare.exit, 2);
  EXPECT_NE(bare.err.find("list.json: not a template document"), std::string::npos) << bare.err;

  CliRun no_token = run_ptmpl("push '" + dir.file("bad/a.json") + "' " + service(), "PTMPL_TOKEN=");
  EXPECT_EQ(no_token.exit, 2);
  EXPECT_EQ(no_token.err, "ptmpl push: PTMPL_TOKEN: the access token is empty\n");
  EXPECT_TRUE(remote_templates().empty());
}

TEST_F(CliPushTest, ADryRunPrintsThePlanAndChangesNothing) {
  auto files = copy_samples("push");
  std::string before = slurp(files[0]);
  CliRun dry = run_ptmpl("push --dry-run '" + files[0] + "' " + service(), env());
  ASSERT_EQ(dry.exit, 0) << dry.err;
  auto local = publish::read_local_template(files[0], before);
  ASSERT_TRUE(local.ok());
  EXPECT_TRUE(dry.out.starts_with(files[0] + ": would create \"" + local.value().title + "\"\n  POST " +
                                  sandbox->base_url() + "/project_templates.json\n  template:\n"))
      << dry.out;
  EXPECT_EQ(dry.out.find("\\\""), std::string::npos) << "no escaped JSON in the plan: " << dry.out;
  EXPECT_EQ(slurp(files[0]), before);
  EXPECT_TRUE(remote_templates().empty());

  ASSERT_EQ(run_ptmpl("push '" + files[0] + "' " + service(), env()).exit, 0);
  std::string pushed = slurp(files[0]);
  std::string edited = pushed;
  edited.replace(edited.find("\"shared\": false"), 15, "\"shared\": true");
  std::ofstream(files[0]) << edited;
  CliRun update = run_ptmpl("push --dry-run '" + files[0] + "' " + service(), env());
  ASSERT_EQ(update.exit, 0) << update.err;
  auto id = publish::read_local_template(files[0], pushed).value().id;
  EXPECT_TRUE(update.out.starts_with(files[0] + ": would update template " + std::to_string(*id) + " \""))
      << update.out;
  EXPECT_NE(update.out.find("PUT " + sandbox->base_url() + "/project_templates/" + std::to_string(*id) + ".json\n"),
            std::string::npos);
  EXPECT_EQ(slurp(files[0]), edited);
  EXPECT_NE(remote_templates().at(0).json.find("\"shared\":false"), std::string::npos);
}

// The plan of a dry run names each template's action, the template fields it changes and its
// stories added, changed and removed by temp_id and title; --format json gives the bodies.
TEST_F(CliPushTest, ADryRunShowsFieldsAndStoriesAddedChangedAndRemoved) {
  const std::string original = R"({"project_template": {"title": "Plan test", "description": "First",
  "shared": false, "raw_json": [
    {"title": "Kick-off", "temp_id": 1, "story_type": "milestone", "relative_start_date": 0,
     "relative_due_date": 0, "duration": 0},
    {"title": "Build", "temp_id": 2, "relative_start_date": 0, "relative_due_date": 4, "duration": 5,
     "sub_stories": [{"title": "Code", "temp_id": 3, "relative_start_date": 0, "relative_due_date": 4,
                      "duration": 5}]}]}}
)";
  const std::string path = dir.write("plan.json", original);
  const std::string url = sandbox->base_url();
  CliRun create = run_ptmpl("push --dry-run '" + path + "' " + service(), env());
  ASSERT_EQ(create.exit, 0) << create.err;
  EXPECT_EQ(create.out, path +
                            ": would create \"Plan test\"\n"
                            "  POST " +
                            url +
                            "/project_templates.json\n"
                            "  template:\n"
                            "    title: \"Plan test\"\n"
                            "    description: \"First\"\n"
                            "    shared: false\n"
                            "  stories: 0 changed, 3 added, 0 removed\n"
                            "    + [1] \"Kick-off\"\n"
                            "    + [2] \"Build\"\n"
                            "    + [3] \"Code\" under [2] \"Build\"\n");
  EXPECT_EQ(create.err, "ptmpl push: 1 template: 1 would create\n");
  EXPECT_TRUE(remote_templates().empty());

  ASSERT_EQ(run_ptmpl("push '" + path + "' " + service(), env()).exit, 0);
  const std::string pushed = slurp(path);
  const std::int64_t id = *publish::read_local_template(path, pushed).value().id;
  std::string edited = pushed;
  edited.replace(edited.find("\"First\""), 7, "\"Second\"");
  edited.replace(edited.find("{\"title\": \"Kick-off\""),
                 edited.find("{\"title\": \"Build\"") - edited.find("{\"title\": \"Kick-off\""), "");
  edited.replace(edited.find("\"Code\", \"temp_id\": 3, \"relative_start_date\": 0, \"relative_due_date\": 4,\n"
                             "                      \"duration\": 5"),
                 std::string("\"Code\", \"temp_id\": 3, \"relative_start_date\": 0, \"relative_due_date\": 4,\n"
                             "                      \"duration\": 5")
                     .size(),
                 "\"Code\", \"temp_id\": 3, \"relative_start_date\": 0, \"relative_due_date\": 3, \"duration\": 4}, "
                 "{\"title\": \"Test\", \"temp_id\": 4, \"relative_start_date\": 4, \"relative_due_date\": 4, "
                 "\"duration\": 1");
  std::ofstream(path) << edited;
  CliRun lint = run_ptmpl("lint --no-config '" + path + "'");
  ASSERT_EQ(lint.exit, 0) << lint.out << edited;

  CliRun update = run_ptmpl("push --dry-run '" + path + "' " + service(), env());
  ASSERT_EQ(update.exit, 0) << update.err;
  EXPECT_EQ(update.out, path + ": would update template " + std::to_string(id) +
                            " \"Plan test\"\n"
                            "  PUT " +
                            url + "/project_templates/" + std::to_string(id) +
                            ".json\n"
                            "  template:\n"
                            "    description: \"First\" → \"Second\"\n"
                            "  stories: 1 changed, 1 added, 1 removed\n"
                            "    ~ [3] \"Code\"\n"
                            "        relative_due_date: 4 → 3\n"
                            "        duration: 5 → 4\n"
                            "    + [4] \"Test\" under [2] \"Build\"\n"
                            "    - [1] \"Kick-off\"\n");
  EXPECT_EQ(update.err, "ptmpl push: 1 template: 1 would update\n");

  // The machine-readable plan: the body as it would be sent, and the same changes.
  CliRun json = run_ptmpl("push --dry-run --format json '" + path + "' " + service(), env());
  ASSERT_EQ(json.exit, 0) << json.err;
  json::Document doc = json::Document::parse(json.out);
  ASSERT_TRUE(doc.ok()) << json.out;
  const json::Value& entry = doc.root().find("templates")->items()[0];
  EXPECT_EQ(entry.find("path")->text(), path);
  EXPECT_EQ(entry.find("action")->text(), "would update");
  EXPECT_EQ(entry.find("id")->as_int64(), id);
  const json::Value& request = *entry.find("request");
  EXPECT_EQ(request.find("method")->text(), "PUT");
  EXPECT_EQ(request.find("url")->text(), url + "/project_templates/" + std::to_string(id) + ".json");
  EXPECT_EQ(write_compact(*request.find("body"), Shape::Unknown),
            publish::read_local_template(path, edited).value().body);
  const json::Value& changes = *entry.find("changes");
  EXPECT_EQ(write_compact(*changes.find("fields"), Shape::Unknown), R"(["description"])");
  EXPECT_EQ(write_compact(*changes.find("stories"), Shape::Unknown),
            R"({"added":[{"temp_id":4,"title":"Test"}],"changed":[{"temp_id":3,"title":"Code"}],)"
            R"("removed":[{"temp_id":1,"title":"Kick-off"}]})");
  EXPECT_EQ(slurp(path), edited);

  // Nothing to change: said as in a real run, no request.
  std::ofstream(path) << pushed;
  CliRun same = run_ptmpl("push --dry-run '" + path + "' " + service(), env());
  ASSERT_EQ(same.exit, 0) << same.err;
  EXPECT_EQ(same.out, path + ": unchanged template " + std::to_string(id) + " \"Plan test\"\n");
  CliRun same_json = run_ptmpl("push --dry-run --format json '" + path + "' " + service(), env());
  ASSERT_EQ(same_json.exit, 0) << same_json.err;
  json::Document same_doc = json::Document::parse(same_json.out);
  ASSERT_TRUE(same_doc.ok()) << same_json.out;
  const json::Value& unchanged = same_doc.root().find("templates")->items()[0];
  EXPECT_EQ(unchanged.find("action")->text(), "unchanged");
  EXPECT_EQ(unchanged.find("request"), nullptr);
}

TEST_F(CliPushTest, AChangeOnTheServiceIsNotOverwrittenWithoutForceAndIsSavedFirst) {
  auto files = copy_samples("push");
  const std::string mine = files[0];
  ASSERT_EQ(run_ptmpl("push '" + mine + "' " + service(), env()).exit, 0);
  std::int64_t id = *publish::read_local_template(mine, slurp(mine)).value().id;

  // Someone else pulls it, edits the description and pushes.
  CliRun pull = run_ptmpl("pull " + std::to_string(id) + " -o '" + dir.file("theirs") + "' " + service(), env());
  ASSERT_EQ(pull.exit, 0) << pull.err;
  std::string theirs_path = pull.out.substr(0, pull.out.find('\n'));
  std::string theirs = slurp(theirs_path);
  theirs.replace(theirs.find("\"description\": \"") + 16, 0, "Edited elsewhere. ");
  std::ofstream(theirs_path) << theirs;
  CliRun their_push =
      run_ptmpl("push '" + theirs_path + "' --backup-dir '" + dir.file("their-backups") + "' " + service(), env());
  ASSERT_EQ(their_push.exit, 0) << their_push.err;
  EXPECT_NE(their_push.out.find(": updated template " + std::to_string(id)), std::string::npos) << their_push.out;

  // diff shows the difference, and says which way.
  CliRun diff = run_ptmpl("diff '" + mine + "' " + service(), env());
  EXPECT_EQ(diff.exit, 1) << diff.err;
  EXPECT_NE(diff.out.find("template:\n  description: \"Edited elsewhere. "), std::string::npos) << diff.out;
  EXPECT_NE(diff.out.find("+++ local:   " + mine + "\n"), std::string::npos) << diff.out;

  // My edit of the old version is refused: exit 3, nothing sent, the file untouched.
  std::string edited = slurp(mine);
  edited.replace(edited.find("\"shared\": false"), 15, "\"shared\": true");
  std::ofstream(mine) << edited;
  const std::string backups = dir.file("backups");
  CliRun conflict = run_ptmpl("push '" + mine + "' --backup-dir '" + backups + "' " + service(), env());
  EXPECT_EQ(conflict.exit, 3);
  EXPECT_NE(conflict.err.find(mine + ": conflict: template " + std::to_string(id)), std::string::npos) << conflict.err;
  EXPECT_NE(conflict.err.find("changed on the service since this file was pulled"), std::string::npos);
  EXPECT_EQ(slurp(mine), edited);
  EXPECT_FALSE(fs::exists(backups));
  std::string service_version = slurp(theirs_path);  // their push wrote the new updated_at back
  EXPECT_EQ(remote_templates().at(0).updated_at,
            publish::read_local_template(theirs_path, service_version).value().updated_at);

  // --force overwrites, after saving the service's version (the one with their edit).
  CliRun force = run_ptmpl("push --force '" + mine + "' --backup-dir '" + backups + "' " + service(), env());
  ASSERT_EQ(force.exit, 0) << force.err;
  std::vector<std::string> saved;
  for (const auto& entry : fs::directory_iterator(backups)) saved.push_back(entry.path().string());
  ASSERT_EQ(saved.size(), 1u);
  EXPECT_NE(force.out.find("(its previous version saved as " + saved[0] + ")"), std::string::npos) << force.out;
  EXPECT_EQ(content_of(slurp(saved[0])), content_of(service_version));
  EXPECT_EQ(slurp(saved[0]), service_version);  // the document pull would write
  expect_on_service_once({mine});
  CliRun same = run_ptmpl("diff '" + mine + "' " + service(), env());
  EXPECT_EQ(same.exit, 0) << same.out;
  EXPECT_EQ(same.out, mine + ": the same as template " + std::to_string(id) + " on the service\n");
}

TEST_F(CliPushTest, AFileWithoutIdUpdatesTheTemplateOfTheSameTitle) {
  auto files = copy_samples("push");
  std::string original = slurp(files[1]);
  ASSERT_EQ(run_ptmpl("push '" + files[1] + "' " + service(), env()).exit, 0);
  std::int64_t id = *publish::read_local_template(files[1], slurp(files[1])).value().id;
  std::string edited = original;  // no id: found by its title
  edited.replace(edited.find("\"shared\": false"), 15, "\"shared\": true");
  std::ofstream(files[1]) << edited;
  const std::string backups = dir.file("backups");
  CliRun push = run_ptmpl("push '" + files[1] + "' --backup-dir '" + backups + "' " + service(), env());
  ASSERT_EQ(push.exit, 0) << push.err;
  EXPECT_NE(push.out.find(": updated template " + std::to_string(id)), std::string::npos) << push.out;
  EXPECT_EQ(std::distance(fs::directory_iterator(backups), fs::directory_iterator{}), 1);
  expect_on_service_once({files[1]});
}

// Issue 36: a plain update push wrote .ptmpl-backups/ into the directory it ran in (the
// repository root). The service's version is saved beside the bases, in ptmpl's state
// directory, and the message names where.
TEST_F(CliPushTest, AnUpdateSavesTheServicesVersionBesideTheBasesNotInTheRepository) {
  auto files = copy_samples("push");
  const std::string state = dir.file("state");
  const std::string with_state = env() + " XDG_STATE_HOME='" + state + "'";
  ASSERT_EQ(run_ptmpl("push '" + files[1] + "' " + service(), with_state).exit, 0);
  std::string edited = slurp(files[1]);
  edited.replace(edited.find("\"shared\": false"), 15, "\"shared\": true");
  std::ofstream(files[1]) << edited;
  const bool before = fs::exists(PTMPL_SOURCE_DIR "/.ptmpl-backups");
  CliRun push = run_ptmpl("push '" + files[1] + "' " + service(), with_state);
  ASSERT_EQ(push.exit, 0) << push.err;
  const std::string backups = state + "/ptmpl/backups/";
  const std::size_t at = push.out.find("(its previous version saved as " + backups);
  ASSERT_NE(at, std::string::npos) << push.out;
  const std::string saved = push.out.substr(at + 31, push.out.find(')', at) - at - 31);
  EXPECT_TRUE(fs::is_regular_file(saved)) << saved;
  EXPECT_EQ(fs::path(saved).parent_path().parent_path(), fs::path(state) / "ptmpl" / "backups");
  EXPECT_EQ(fs::exists(PTMPL_SOURCE_DIR "/.ptmpl-backups"), before);  // the command ran there

  // Without a state directory, and without --backup-dir, there is no place: nothing is sent.
  edited.replace(edited.find("\"shared\": true"), 14, "\"shared\": false");
  std::ofstream(files[1]) << edited;
  CliRun nowhere = run_ptmpl("push '" + files[1] + "' " + service(), "env -u HOME -u XDG_STATE_HOME " + env());
  EXPECT_NE(nowhere.exit, 0);
  EXPECT_NE(nowhere.err.find("set HOME or XDG_STATE_HOME"), std::string::npos) << nowhere.err;
}

// Duplicate keys: lint reads the last value (and warns), so the last is what is sent, stored
// and reported; the body holds each key once.
TEST_F(CliPushTest, ATitleWrittenTwiceIsPushedAsTheLastOne) {
  std::string path = dir.write("twice.json", R"({"project_template": {"title": "First title", "shared": true,
  "description": "Twice titled", "title": "Last title", "shared": false,
  "raw_json": [{"title": "Kick-off", "temp_id": 1, "story_type": "milestone", "relative_start_date": 0,
                "relative_due_date": 0, "duration": 0, "temp_id": 2}]}}
)");
  CliRun plan = run_ptmpl("push --dry-run '" + path + "' " + service(), env());
  ASSERT_EQ(plan.exit, 0) << plan.err;
  EXPECT_TRUE(plan.out.starts_with(path + ": would create \"Last title\"\n")) << plan.out;
  CliRun dry = run_ptmpl("push --dry-run --format json '" + path + "' " + service(), env());
  ASSERT_EQ(dry.exit, 0) << dry.err;
  json::Document plan_doc = json::Document::parse(dry.out);
  ASSERT_TRUE(plan_doc.ok()) << dry.out;
  const json::Value* body = plan_doc.root().find("templates")->items()[0].find("request")->find("body");
  ASSERT_NE(body, nullptr) << dry.out;
  const std::string sent = write_compact(*body, Shape::Unknown);  // the body as it would be sent
  EXPECT_EQ(count_lines_with(sent, "\"title\":\"Last title\""), 1) << sent;
  EXPECT_EQ(count_lines_with(dry.out, "First title"), 0) << dry.out;
  EXPECT_EQ(count_lines_with(sent, "\"shared\""), 1) << sent;
  EXPECT_NE(sent.find("\"shared\":false"), std::string::npos) << sent;
  EXPECT_EQ(count_lines_with(sent, "temp_id"), 1) << sent;
  EXPECT_NE(sent.find("\\\"temp_id\\\":2"), std::string::npos) << sent;

  CliRun push = run_ptmpl("push '" + path + "' " + service(), env());
  ASSERT_EQ(push.exit, 0) << push.err;
  EXPECT_NE(push.out.find(": created template "), std::string::npos) << push.out;
  EXPECT_TRUE(push.out.ends_with(" \"Last title\"\n")) << push.out;
  auto remote = remote_templates();
  ASSERT_EQ(remote.size(), 1u);
  EXPECT_EQ(remote[0].title, "Last title");
  EXPECT_NE(remote[0].json.find("\"shared\":false"), std::string::npos) << remote[0].json;
  EXPECT_EQ(count_lines_with(*remote[0].raw_json, "temp_id"), 1) << *remote[0].raw_json;
  // What the service holds is what the file says: a second push has nothing to send.
  CliRun again = run_ptmpl("push '" + path + "' " + service(), env());
  ASSERT_EQ(again.exit, 0) << again.err;
  EXPECT_NE(again.out.find(": unchanged template "), std::string::npos) << again.out;
  expect_on_service_once({path});
}

TEST_F(CliPushTest, ManyFilesWithInjectedFaultsArriveOnceEach) {
  start_sandbox({"--fail-rate", "0.3", "--faults", "429,503,drop,drop-after", "--retry-after", "0", "--seed", "11"});
  auto files = generate("many", 40);
  CliRun push = run_ptmpl("push '" + dir.file("many") + "' --jobs 4 --attempts 20 --verbose " + service(), env());
  ASSERT_EQ(push.exit, 0) << push.err.substr(push.err.size() > 4000 ? push.err.size() - 4000 : 0);
  EXPECT_EQ(count_lines_with(push.out, ": created template "), 40) << push.out;
  // The trace shows the faults, never the token.
  EXPECT_NE(push.err.find("< HTTP 429"), std::string::npos);
  EXPECT_NE(push.err.find("Bearer [REDACTED]"), std::string::npos);
  EXPECT_EQ(push.err.find(kToken), std::string::npos);
  EXPECT_EQ(push.out.find(kToken), std::string::npos);
  // Output follows the order of the files whatever order they finished in.
  std::size_t at = 0;
  for (const auto& f : files) {
    std::size_t found = push.out.find(f + ": ", at);
    ASSERT_NE(found, std::string::npos) << f;
    at = found + 1;
  }
  start_sandbox({});
  expect_on_service_once(files);
}

TEST_F(CliPushTest, AProgressBarIsDrawnOnATerminal) {
  generate("few", 3);
  std::string out = run_ptmpl_on_terminal("push '" + dir.file("few") + "' " + service(), env());
  EXPECT_NE(out.find("[..............................] 0/3"), std::string::npos) << out;
  EXPECT_NE(out.find("[##########....................] 1/3"), std::string::npos) << out;
  EXPECT_NE(out.find("[####################..........] 2/3"), std::string::npos) << out;
  EXPECT_NE(out.find("\033[2K"), std::string::npos) << out;
  EXPECT_EQ(count_lines_with(out, ": created template "), 3) << out;
  // The last bar is erased: the run ends with the lines and the summary on a clean terminal.
  EXPECT_LT(out.rfind("2/3"), out.rfind("\033[2K")) << out;
  EXPECT_TRUE(out.ends_with("ptmpl push: 3 templates: 3 created\n")) << out;

  // With --verbose the trace has the terminal to itself: no bar.
  std::string verbose = run_ptmpl_on_terminal("push '" + dir.file("few") + "' --verbose " + service(), env());
  EXPECT_EQ(count_lines_with(verbose, ": unchanged template "), 3) << verbose;
  EXPECT_EQ(verbose.find("0/3"), std::string::npos) << verbose;
  EXPECT_EQ(verbose.find("\033["), std::string::npos) << verbose;
  // Not on a terminal: no bar and no escape sequences either.
  CliRun piped = run_ptmpl("push '" + dir.file("few") + "' " + service(), env());
  EXPECT_EQ(piped.err, "ptmpl push: 3 templates: 3 unchanged\n");
}

TEST_F(CliPushTest, KillingTheServiceOrThePushMidwayThenPushingAgainEndsWithEveryTemplateOnce) {
  auto files = generate("200", 200);
  const std::string log = dir.file("push.log");
  auto push_in_background = [&](const std::string& args) {
    pid_t pid = ::fork();
    if (pid == 0) {
      std::string command = "cd '" PTMPL_SOURCE_DIR "' && " + env() + " exec '" PTMPL_BINARY "' push '" +
                            dir.file("200") + "' " + args + " " + service() + " >'" + log + "' 2>&1";
      ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    return pid;
  };
  auto wait_for_lines = [&](int n) {
    for (int i = 0; i < 3000 && count_lines_with(slurp(log), ": created template ") < n; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  };

  // 1. The service is killed (-9) while the push runs: the push stops with exit 3. The sandbox
  // holds every request after the 40th template, so the kill lands mid-push whatever the speed.
  start_sandbox({"--hold-after", "40"});
  pid_t push = push_in_background("--jobs 4 --attempts 2");
  wait_for_lines(40);
  sandbox->stop(SIGKILL);
  int status = 0;
  ::waitpid(push, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 3) << slurp(log);
  EXPECT_NE(slurp(log).find("not attempted: the service stopped answering"), std::string::npos);
  const int first_run = count_lines_with(slurp(log), ": created template ");
  EXPECT_GE(first_run, 40);
  EXPECT_LT(first_run, 200);

  // 2. Restarted on the same data, holding after 60 more; the push itself is killed (-9) while
  // it waits, so it is certainly still running.
  start_sandbox({"--hold-after", "60"});
  push = push_in_background("--jobs 4");
  wait_for_lines(60);
  ::kill(push, SIGKILL);
  ::waitpid(push, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status)) << "the push ended before it was killed: " << slurp(log);
  for (const auto& f : files) ASSERT_TRUE(publish::read_local_template(f, slurp(f)).ok()) << f << " is damaged";

  start_sandbox({});
  // 3. Pushed again to the end: exactly 200 templates, each once, each with its file's content.
  CliRun again = run_ptmpl("push '" + dir.file("200") + "' --jobs 4 " + service(), env());
  ASSERT_EQ(again.exit, 0) << again.err;
  expect_on_service_once(files);
}

}  // namespace
}  // namespace ptmpl::testing::cli_push_test
