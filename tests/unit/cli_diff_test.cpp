// ptmpl diff against the sandbox over HTTPS on 127.0.0.1: --format json with every value whole,
// and many files and folders in one run, one exit code for all (issue 36).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cli_run.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/writer.hpp"
#include "libtemplate/publish/api_client.hpp"
#include "sandbox_process.hpp"
#include "test_files.hpp"

namespace ptmpl::testing::cli_diff_test {
namespace {

namespace fs = std::filesystem;
constexpr const char* kToken = "cli-diff-token-3f0a";

/// The service's copy of samples/office-move.json the golden diff compares it with, as a create body.
std::string office_move_on_the_service() {
  const std::string text = slurp(source_path("tests/data/publish/office-move-remote.json"));
  json::Document remote = json::Document::parse(text);
  EXPECT_TRUE(remote.ok());
  json::Arena arena;
  json::Builder build(arena);
  std::vector<json::Member> kept;
  for (const json::Member& m : remote.root().members())
    for (std::string_view key :
         {"title", "description", "shared", "is_budgeted", "budget", "currency", "duration", "raw_json"})
      if (m.key.text() == key) kept.push_back(m);
  json::Member body = build.member("project_template", build.object(kept));
  return write_compact(build.object({&body, 1}), Shape::Unknown);
}

/// A member's value as compact JSON, "(absent)" when there is none.
std::string member(const json::Value& object, std::string_view key) {
  const json::Value* value = object.find(key);
  return value == nullptr ? "(absent)" : write_compact(*value, Shape::Unknown);
}

/// The entry of `list` (an array of objects) whose `key` is `value` (compact JSON).
const json::Value* entry(const json::Value* list, std::string_view key, std::string_view value) {
  if (list == nullptr) return nullptr;
  for (const json::Value& item : list->items())
    if (member(item, key) == value) return &item;
  return nullptr;
}

class CliDiffTest : public ::testing::Test {
 protected:
  ScratchDir dir{"cli-diff"};
  std::string tokens = dir.write("tokens", std::string(kToken) + " 1\n");
  SandboxProcess sandbox{{"--data-dir", dir.file("data"), "--tokens-file", tokens}};

  void SetUp() override {
    ASSERT_TRUE(sandbox.ready()) << sandbox.first_line();
    publish::ClientOptions options;
    options.base_url = sandbox.base_url();
    options.token = kToken;
    publish::TransportOptions transport;
    transport.cacert = sandbox.ca_path();
    publish::Client client(options, publish::make_curl_transport(transport));
    auto created = client.create(office_move_on_the_service(), "Office move");
    ASSERT_TRUE(created.ok()) << created.error().message;
    office_move_id = created.value().id;
  }

  std::string service() const { return "--base-url '" + sandbox.base_url() + "' --cacert '" + sandbox.ca_path() + "'"; }
  static std::string env() { return std::string("PTMPL_TOKEN=") + kToken; }

  /// A copy of `sample` in `folder` of the scratch directory.
  std::string copy(const std::string& sample, const std::string& folder) {
    fs::create_directories(dir.file(folder));
    const std::string to = dir.file(folder + "/" + fs::path(sample).filename().string());
    fs::copy_file(source_path(sample), to, fs::copy_options::overwrite_existing);
    return to;
  }

  std::int64_t office_move_id = 0;
};

TEST_F(CliDiffTest, JsonGivesEveryChangeWithBothValuesWhole) {
  const std::string file = copy("samples/office-move.json", "one");
  CliRun run = run_ptmpl("diff --format json '" + file + "' " + service(), env());
  EXPECT_EQ(run.exit, 1) << run.err;
  json::Document doc = json::Document::parse(run.out);
  ASSERT_TRUE(doc.ok()) << run.out;
  const json::Value* files = doc.root().find("files");
  ASSERT_TRUE(files != nullptr && files->items().size() == 1) << run.out;
  const json::Value& diff = files->items()[0];
  EXPECT_EQ(member(diff, "file"), json::quoted(file));
  EXPECT_EQ(member(diff, "result"), "\"different\"");
  const json::Value* copy = diff.find("service");
  ASSERT_NE(copy, nullptr) << run.out;
  EXPECT_EQ(member(*copy, "id"), std::to_string(office_move_id));
  EXPECT_EQ(member(*copy, "title"), "\"Office Move – Oerlikon to Zürich-West\"");
  EXPECT_EQ(member(*copy, "updated_at").size(), 26u) << run.out;  // "2026-11-22T06:21:38.144Z"

  // The template's fields: the long description whole on both sides (the text cuts it), numbers as numbers.
  const json::Value* changes = diff.find("changes");
  ASSERT_NE(changes, nullptr) << run.out;
  const std::string sample_text = slurp(file);
  json::Document sample = json::Document::parse(sample_text);
  const std::string description = member(*sample.root().find("project_template"), "description");
  ASSERT_GT(description.size(), 200u);
  const json::Value* fields = changes->find("template");
  ASSERT_TRUE(fields != nullptr && fields->items().size() == 2) << run.out;
  const json::Value* changed_description = entry(fields, "key", "\"description\"");
  ASSERT_NE(changed_description, nullptr) << run.out;
  EXPECT_EQ(member(*changed_description, "service"), "\"Relocation of the Oerlikon office (draft).\"");
  EXPECT_EQ(member(*changed_description, "local"), description);
  const json::Value* duration = entry(fields, "key", "\"duration\"");
  ASSERT_NE(duration, nullptr) << run.out;
  EXPECT_EQ(member(*duration, "service"), "113");
  EXPECT_EQ(member(*duration, "local"), "108");

  // The stories, as the golden text shows them: three changed, one removed.
  const json::Value* stories = changes->find("stories");
  ASSERT_NE(stories, nullptr) << run.out;
  EXPECT_EQ(member(*stories, "added"), "[]");
  EXPECT_EQ(member(*stories, "reordered"), "false");
  const json::Value* changed = stories->find("changed");
  ASSERT_TRUE(changed != nullptr && changed->items().size() == 3) << run.out;
  const json::Value* planning = entry(changed, "temp_id", "\"planning\"");
  ASSERT_NE(planning, nullptr) << run.out;
  EXPECT_EQ(member(*planning, "title"), "\"Planning & lease\"");
  EXPECT_EQ(member(*planning, "path"), R"(["Planning & lease"])");
  EXPECT_EQ(member(*planning, "keys"), R"([{"key":"title","service":"Planning","local":"Planning & lease"}])");
  EXPECT_EQ(member(*planning, "moved"), "(absent)");
  const json::Value* survey = entry(changed, "temp_id", "\"survey\"");
  ASSERT_NE(survey, nullptr) << run.out;
  EXPECT_EQ(member(*survey, "path"), R"(["Planning & lease","Space requirements survey"])");
  EXPECT_EQ(member(*survey, "keys"), R"([{"key":"duration","service":7,"local":5}])");
  EXPECT_EQ(member(*survey, "dependencies"),
            R"({"removed":[],"changed":[],"added":[{"source_id":"survey","target_id":"broker","type":0,"lag":2}]})");
  const json::Value* space_plan = entry(changed, "temp_id", "\"space-plan\"");
  ASSERT_NE(space_plan, nullptr) << run.out;
  EXPECT_EQ(member(*space_plan, "keys"), "[]");
  EXPECT_EQ(
      member(*space_plan, "moved"),
      R"({"from":{"temp_id":"it","title":"IT & telecoms"},"to":{"temp_id":"design","title":"Design & fit-out"}})");
  EXPECT_EQ(member(*stories, "removed"),
            R"([{"temp_id":"parking","title":"Parking permits","path":["Planning","Parking permits"],)"
            R"("parent":{"temp_id":"planning","title":"Planning"}}])");

  // The text of one file is what it was (tests/golden/publish/office-move.diff, there for samples/…).
  CliRun text = run_ptmpl("diff '" + file + "' " + service(), env());
  EXPECT_EQ(text.exit, 1) << text.err;
  std::string golden = slurp(source_path("tests/golden/publish/office-move.diff"));
  golden.replace(golden.find("template 3 "), 11, "template " + std::to_string(office_move_id) + " ");
  golden.replace(golden.find("samples/office-move.json"), 24, file);
  const std::size_t stamp = golden.find("2026-11-21T16:42:05.120Z");
  const std::size_t their_stamp = text.out.find("(updated_at ") + 12;
  golden.replace(stamp, 24, text.out.substr(their_stamp, 24));
  EXPECT_EQ(text.out, golden);
}

TEST_F(CliDiffTest, AFolderIsComparedFileByFileAndTheWorstExitCodeWins) {
  // One the same (pushed as it is), one changed, one not a template document.
  const std::string same = copy("samples/website-launch.json", "folder");
  ASSERT_EQ(run_ptmpl("push '" + same + "' " + service(), env()).exit, 0);
  const std::string changed = copy("samples/office-move.json", "folder");
  const std::string invalid = dir.write("folder/broken.json", "{\"project_template\": {\"title\": ");
  const std::string folder = dir.file("folder");

  CliRun text = run_ptmpl("diff '" + folder + "' " + service(), env());
  EXPECT_EQ(text.exit, 2) << text.err;
  EXPECT_NE(text.err.find("ptmpl diff: " + invalid + ": "), std::string::npos) << text.err;
  EXPECT_NE(text.out.find("+++ local:   " + changed + "\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find(same + ": the same as template "), std::string::npos) << text.out;

  CliRun json = run_ptmpl("diff --format json '" + folder + "' " + service(), env());
  EXPECT_EQ(json.exit, 2) << json.err;
  json::Document doc = json::Document::parse(json.out);
  ASSERT_TRUE(doc.ok()) << json.out;
  const json::Value* files = doc.root().find("files");
  ASSERT_TRUE(files != nullptr && files->items().size() == 3) << json.out;
  // In the order of the walk: broken.json, office-move.json, website-launch.json.
  EXPECT_EQ(member(files->items()[0], "file"), json::quoted(invalid));
  EXPECT_EQ(member(files->items()[0], "result"), "\"error\"");
  EXPECT_NE(member(files->items()[0], "error").find(invalid), std::string::npos) << json.out;
  EXPECT_EQ(member(files->items()[1], "file"), json::quoted(changed));
  EXPECT_EQ(member(files->items()[1], "result"), "\"different\"");
  EXPECT_EQ(member(files->items()[2], "file"), json::quoted(same));
  EXPECT_EQ(member(files->items()[2], "result"), "\"same\"");
  EXPECT_EQ(member(*files->items()[2].find("changes"), "template"), "[]");

  // Files and folders together; without the broken file, "differs" is the worst: exit 1.
  fs::remove(invalid);
  const std::string other = copy("samples/website-launch.json", "other");
  CliRun mixed = run_ptmpl("diff '" + folder + "' '" + other + "' " + service(), env());
  EXPECT_EQ(mixed.exit, 1) << mixed.err;
  EXPECT_EQ(mixed.err, "");
  EXPECT_NE(mixed.out.find(other + ": the same as template "), std::string::npos) << mixed.out;
  CliRun all_same = run_ptmpl("diff '" + same + "' '" + other + "' " + service(), env());
  EXPECT_EQ(all_same.exit, 0) << all_same.err;
}

TEST_F(CliDiffTest, AServiceErrorOfOneFileIsExit3AndTheOthersAreStillCompared) {
  const std::string same = copy("samples/website-launch.json", "ids");
  ASSERT_EQ(run_ptmpl("push '" + same + "' " + service(), env()).exit, 0);
  // An id the service does not hold is the file's error (2); a service that does not answer is 3.
  std::string gone = slurp(same);
  const std::size_t id = gone.find("\"id\": ") + 6;
  gone.replace(id, gone.find(',', id) - id, "999");
  const std::string missing = dir.write("ids/gone.json", gone);
  CliRun run = run_ptmpl("diff --format json '" + missing + "' '" + same + "' " + service(), env());
  EXPECT_EQ(run.exit, 2) << run.err;
  EXPECT_NE(run.err.find("ptmpl diff: " + missing + ": "), std::string::npos) << run.err;
  json::Document doc = json::Document::parse(run.out);
  ASSERT_TRUE(doc.ok()) << run.out;
  EXPECT_EQ(member(doc.root().find("files")->items()[0], "result"), "\"error\"");
  EXPECT_EQ(member(doc.root().find("files")->items()[1], "result"), "\"same\"");

  CliRun down =
      run_ptmpl("diff '" + same + "' '" + missing + "' --base-url https://127.0.0.1:9/api/v1 --attempts 1", env());
  EXPECT_EQ(down.exit, 3) << down.err;
  EXPECT_NE(down.err.find("ptmpl diff: " + same + ": "), std::string::npos) << down.err;
  EXPECT_NE(down.err.find("ptmpl diff: " + missing + ": "), std::string::npos) << down.err;
}

TEST_F(CliDiffTest, ThreeWayJsonGivesEachSidesChangesAndTheConflictsWithTheirValues) {
  const std::string state = dir.file("state");
  const std::string with_state = env() + " XDG_STATE_HOME='" + state + "'";
  CliRun pull =
      run_ptmpl("pull " + std::to_string(office_move_id) + " -o '" + dir.file("mine") + "' " + service(), with_state);
  ASSERT_EQ(pull.exit, 0) << pull.err;
  const std::string mine = pull.out.substr(0, pull.out.find('\n'));
  CliRun theirs_pull =
      run_ptmpl("pull " + std::to_string(office_move_id) + " -o '" + dir.file("theirs") + "' " + service(),
                env() + " XDG_STATE_HOME='" + dir.file("their-state") + "'");
  ASSERT_EQ(theirs_pull.exit, 0) << theirs_pull.err;
  const std::string theirs = theirs_pull.out.substr(0, theirs_pull.out.find('\n'));
  // Both change the duration of the template, differently; they edit the description too.
  auto edit = [](const std::string& path, const std::string& from, const std::string& to) {
    std::string text = slurp(path);
    ASSERT_NE(text.find(from), std::string::npos) << from;
    text.replace(text.find(from), from.size(), to);
    std::ofstream(path) << text;
  };
  const std::string long_description(300, 'x');
  edit(theirs, "\"duration\": 113", "\"duration\": 120");
  edit(theirs, "\"Relocation of the Oerlikon office (draft).\"", "\"" + long_description + "\"");
  ASSERT_EQ(
      run_ptmpl("push '" + theirs + "' " + service(), env() + " XDG_STATE_HOME='" + dir.file("their-state") + "'").exit,
      0);
  edit(mine, "\"duration\": 113", "\"duration\": 100");

  CliRun run = run_ptmpl("diff --three-way --format json '" + mine + "' " + service(), with_state);
  EXPECT_EQ(run.exit, 1) << run.err;
  json::Document doc = json::Document::parse(run.out);
  ASSERT_TRUE(doc.ok()) << run.out;
  const json::Value& diff = doc.root().find("files")->items()[0];
  EXPECT_EQ(member(diff, "result"), "\"different\"");
  EXPECT_EQ(member(*diff.find("base"), "id"), std::to_string(office_move_id));
  EXPECT_NE(member(*diff.find("service"), "updated_at"), member(*diff.find("base"), "updated_at"));
  EXPECT_EQ(member(*diff.find("local_changes"), "template"), R"([{"key":"duration","base":113,"local":100}])");
  EXPECT_EQ(member(*diff.find("service_changes"), "template"),
            R"([{"key":"description","base":"Relocation of the Oerlikon office (draft).","service":")" +
                long_description + R"("},{"key":"duration","base":113,"service":120}])");
  EXPECT_EQ(member(diff, "conflicts"), R"([{"story":null,"key":"duration","base":113,"local":100,"service":120}])");
}

TEST_F(CliDiffTest, AnUnknownFormatIsRefusedWithTheNearestName) {
  CliRun run = run_ptmpl("diff --format jsno samples/office-move.json " + service(), env());
  EXPECT_EQ(run.exit, 2);
  EXPECT_NE(run.err.find("did you mean json?"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace ptmpl::testing::cli_diff_test
