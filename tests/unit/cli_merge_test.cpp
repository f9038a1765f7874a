// `ptmpl pull --merge` and `ptmpl diff --three-way` against the sandbox: a colleague edits the
// template on the service (through the API client) while the user edits the pulled file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cli_run.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/publish/api_client.hpp"
#include "sandbox_process.hpp"
#include "test_files.hpp"

namespace ptmpl::testing {
namespace {

namespace fs = std::filesystem;
constexpr const char* kToken = "merge-token-5d21e8";

/// `text` with `from` (which must be there) replaced by `to`.
std::string edited(std::string text, const std::string& from, const std::string& to) {
  auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

class CliMergeTest : public ::testing::Test {
 protected:
  ScratchDir dir{"cli-merge"};
  std::string tokens = dir.write("tokens", std::string(kToken) + " 1\n");
  SandboxProcess sandbox{{"--data-dir", dir.file("data"), "--tokens-file", tokens}};
  std::int64_t id = 0;
  std::string file;

  static constexpr const char* kStories =
      R"([{"temp_id":1,"title":"Plan","story_type":"task","duration":3},{"temp_id":2,"title":"Build","story_type":"task","duration":4}])";

  publish::Client client() const {
    publish::ClientOptions options;
    options.base_url = sandbox.base_url();
    options.token = kToken;
    publish::TransportOptions transport;
    transport.cacert = sandbox.ca_path();
    return publish::Client(options, publish::make_curl_transport(transport));
  }
  /// A colleague saves `stories` on the service, in the web application.
  void colleague_saves(const std::string& stories) const {
    auto updated = client().update(
        id, R"({"project_template":{"title":"Launch","duration":5,"raw_json":)" + json::quoted(stories) + "}}",
        "Launch");
    ASSERT_TRUE(updated.ok()) << updated.error().message;
  }
  void SetUp() override {
    ASSERT_TRUE(sandbox.ready()) << sandbox.first_line();
    auto created = client().create(
        R"({"project_template":{"title":"Launch","duration":5,"raw_json":)" + json::quoted(kStories) + "}}", "Launch");
    ASSERT_TRUE(created.ok());
    id = created.value().id;
    CliRun pulled = ptmpl("pull " + std::to_string(id) + " -o '" + dir.file("out") + "'");
    ASSERT_EQ(pulled.exit, 0) << pulled.err;
    file = dir.file("out/" + std::to_string(id) + "-launch.json");
    ASSERT_TRUE(fs::exists(file));
  }
  CliRun ptmpl(const std::string& args, const std::string& state = "state") const {
    return run_ptmpl(args + " --base-url '" + sandbox.base_url() + "' --cacert '" + sandbox.ca_path() + "'",
                     "XDG_STATE_HOME='" + dir.file(state) + "' PTMPL_TOKEN=" + kToken);
  }
};

TEST_F(CliMergeTest, EditsOnBothSidesOfDifferentThingsAreMergedAndWritten) {
  // The user changes Plan's duration; the colleague renames Build and adds Ship.
  const std::string mine = edited(slurp(file), "\"duration\": 3", "\"duration\": 6");
  std::ofstream(file, std::ios::binary) << mine;
  colleague_saves(
      R"([{"temp_id":1,"title":"Plan","story_type":"task","duration":3},{"temp_id":2,"title":"Build and test","story_type":"task","duration":4},{"temp_id":3,"title":"Ship","story_type":"milestone"}])");

  // Two-way, the colleague's edit reads as the file reverting it; plain pull refuses the file.
  CliRun refused = ptmpl("pull " + std::to_string(id) + " -o '" + dir.file("out") + "'");
  EXPECT_EQ(refused.exit, 2);
  EXPECT_NE(refused.err.find("pull with --merge to merge the service's changes into it"), std::string::npos)
      << refused.err;

  CliRun three = ptmpl("diff --three-way '" + file + "'");
  EXPECT_EQ(three.exit, 1) << three.err;
  const std::string head = "--- base:    template " + std::to_string(id) + " \"Launch\" (updated_at ";
  EXPECT_TRUE(three.out.starts_with(head)) << three.out;
  const std::string body = three.out.substr(three.out.find("local changes:"));
  EXPECT_EQ(body,
            "local changes:\n"
            "  stories: 1 changed, 0 added, 0 removed\n"
            "    ~ [1] \"Plan\"\n"
            "        duration: 3 → 6\n"
            "service changes:\n"
            "  stories: 1 changed, 1 added, 0 removed\n"
            "    ~ [2] \"Build and test\"\n"
            "        title: \"Build\" → \"Build and test\"\n"
            "    + [3] \"Ship\"\n"
            "conflicts: none (`ptmpl pull --merge` merges them)\n");

  CliRun merged = ptmpl("pull --merge " + std::to_string(id) + " -o '" + dir.file("out") + "'");
  ASSERT_EQ(merged.exit, 0) << merged.err;
  EXPECT_EQ(merged.out, file + "\n");
  EXPECT_NE(merged.err.find(file + ": merged the changes to template " + std::to_string(id) + " on the service ("),
            std::string::npos)
      << merged.err;
  const std::string result = slurp(file);
  EXPECT_NE(result.find("\"duration\": 6"), std::string::npos) << result;
  EXPECT_NE(result.find("\"title\": \"Build and test\""), std::string::npos) << result;
  EXPECT_NE(result.find("\"title\": \"Ship\""), std::string::npos) << result;
  EXPECT_EQ(run_ptmpl("fmt --check '" + file + "'").exit, 0) << "the merged file is canonical";

  // The file now sits on the service's version: push updates it (no conflict), and the
  // service holds both sides' edits.
  CliRun push = ptmpl("push '" + file + "' --backup-dir '" + dir.file("backups") + "'");
  EXPECT_EQ(push.exit, 0) << push.err;
  EXPECT_TRUE(push.out.starts_with(file + ": updated template " + std::to_string(id) + " \"Launch\"")) << push.out;
  auto now = client().get(id, true);
  ASSERT_TRUE(now.ok());
  EXPECT_NE(now.value().raw_json->find("\"duration\":6"), std::string::npos) << *now.value().raw_json;
  EXPECT_NE(now.value().raw_json->find("Build and test"), std::string::npos) << *now.value().raw_json;
  // And the push recorded its version as the new base: neither side has changed since.
  CliRun after = ptmpl("diff --three-way '" + file + "'");
  EXPECT_EQ(after.exit, 0) << after.out << after.err;
  EXPECT_NE(after.out.find("local changes: none\nservice changes: none\nconflicts: none\n"), std::string::npos)
      << after.out;
}

TEST_F(CliMergeTest, ConflictingEditsAreListedAndNothingIsWritten) {
  const std::string mine = edited(slurp(file), "\"duration\": 3", "\"duration\": 6");
  std::ofstream(file, std::ios::binary) << mine;
  colleague_saves(
      R"([{"temp_id":1,"title":"Plan","story_type":"task","duration":8},{"temp_id":2,"title":"Build","story_type":"task","duration":4}])");

  CliRun merged = ptmpl("pull --merge " + std::to_string(id) + " -o '" + dir.file("out") + "'");
  EXPECT_EQ(merged.exit, 1);
  EXPECT_EQ(merged.out, "");
  const std::string first = "ptmpl pull: " + file +
                            ": 1 conflict between the file's edits and the changes to template " + std::to_string(id) +
                            " on the service since ";
  EXPECT_TRUE(merged.err.starts_with(first)) << merged.err;
  EXPECT_NE(merged.err.find("; nothing written:\n  [1] \"Plan\": duration: locally 6, on the service 8 (base 3)\n"),
            std::string::npos)
      << merged.err;
  EXPECT_EQ(slurp(file), mine);

  CliRun three = ptmpl("diff --three-way '" + file + "'");
  EXPECT_EQ(three.exit, 1);
  EXPECT_NE(three.out.find("conflicts: 1 (`ptmpl pull --merge` writes nothing until they are resolved)\n"
                           "  [1] \"Plan\": duration: locally 6, on the service 8 (base 3)\n"),
            std::string::npos)
      << three.out;
}

TEST_F(CliMergeTest, WithoutARecordedBaseThereIsNothingToMergeFrom) {
  const std::string mine = edited(slurp(file), "\"duration\": 3", "\"duration\": 6");
  std::ofstream(file, std::ios::binary) << mine;
  // Another state directory: this machine never pulled the template there.
  CliRun three = ptmpl("diff --three-way '" + file + "'", "other-state");
  EXPECT_EQ(three.exit, 2);
  EXPECT_EQ(three.err, "ptmpl diff: " + file + ": no base of template " + std::to_string(id) +
                           " is recorded on this machine: pull it first (`ptmpl pull " + std::to_string(id) +
                           " -o DIR`; each pull and push records the version it agreed on with the service)\n");
  CliRun merged = ptmpl("pull --merge " + std::to_string(id) + " -o '" + dir.file("out") + "'", "other-state");
  EXPECT_EQ(merged.exit, 2);
  EXPECT_NE(merged.err.find(file + ": cannot merge: no base of template " + std::to_string(id) +
                            " is recorded on this machine"),
            std::string::npos)
      << merged.err;
  EXPECT_EQ(slurp(file), mine);
  // --merge and --force say opposite things.
  EXPECT_EQ(ptmpl("pull --merge --force " + std::to_string(id)).exit, 2);
}

TEST_F(CliMergeTest, NoChangeOnTheServiceKeepsTheFilesEditsAsTheyAre) {
  const std::string mine = edited(slurp(file), "\"duration\": 3", "\"duration\":    6");
  std::ofstream(file, std::ios::binary) << mine;
  CliRun merged = ptmpl("pull --merge " + std::to_string(id) + " -o '" + dir.file("out") + "'");
  EXPECT_EQ(merged.exit, 0) << merged.err;
  EXPECT_NE(merged.err.find("the file's edits are kept as they are"), std::string::npos) << merged.err;
  EXPECT_EQ(slurp(file), mine);  // not even reformatted
}

}  // namespace
}  // namespace ptmpl::testing
