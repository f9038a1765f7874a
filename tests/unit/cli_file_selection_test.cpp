// Which files lint and fmt take from a directory (docs/commands/lint.md, "Selecting files"):
// git's ignore rules through libgit2 in a repository made for the test, node_modules and hidden
// folders, exclude globs, files that are not templates; standard input under a name;
// --max-warnings; and every command's --help naming its exit codes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include "cli_run.hpp"

namespace ptmpl {
namespace {

using testing::CliRun;

const char* const kTemplate = R"([{"temp_id": 1, "title": "A"}]
)";

class CliFileSelection : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) / ("ptmpl-selection-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string file(const std::string& name, const std::string& content) {
    std::filesystem::path path = dir_ / name;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << content;
    return path.string();
  }
  std::string repo() const { return dir_.string(); }

  // A git repository with every kind of ignore rule git has, and the files each one hides.
  void make_repository() {
    ASSERT_EQ(std::system(("git init -q '" + repo() + "'").c_str()), 0);
    file(".gitignore", "build/\n/top-only.json\n");     // directory-only; anchored
    file("nested/.gitignore", "*.json\n!keep.json\n");  // nested, with a negation
    file(".git/info/exclude", "secret.json\n");
    file("a.json", kTemplate);
    file("top-only.json", kTemplate);      // ignored: anchored at the root
    file("sub/top-only.json", kTemplate);  // kept: the pattern is anchored
    file("sub/build/b.json", kTemplate);   // ignored: build/ is a directory
    file("build.json", kTemplate);         // kept: build/ matches directories only
    file("nested/drop.json", kTemplate);   // ignored by nested/.gitignore
    file("nested/keep.json", kTemplate);   // kept: negated
    file("secret.json", kTemplate);        // ignored by .git/info/exclude
    file("node_modules/pkg/x.json", kTemplate);
    file(".hidden/h.json", kTemplate);
    file("package.json", R"({"name": "web", "version": "1.0.0"})");
  }

  static CliRun ptmpl(const std::string& args) { return testing::run_ptmpl(args, "NO_COLOR=1"); }
  static void expect_has(const std::string& text, const std::string& part) {
    EXPECT_NE(text.find(part), std::string::npos) << "missing: " << part << "\nin: " << text;
  }
  static void expect_lacks(const std::string& text, const std::string& part) {
    EXPECT_EQ(text.find(part), std::string::npos) << "present: " << part << "\nin: " << text;
  }

  std::filesystem::path dir_;
};

// Every file found is made non-canonical so that `fmt --check` names each file it took.
void uncanonical(const std::filesystem::path& root) {
  for (auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.path().extension() != ".json" || entry.path().filename() == "package.json") continue;
    if (entry.path().string().find("/.git/") != std::string::npos) continue;
    std::ofstream(entry.path(), std::ios::binary) << R"([{"title": "A", "temp_id": 1}])";
  }
}

TEST_F(CliFileSelection, LintRespectsGitIgnoreNodeModulesAndHiddenFolders) {
  make_repository();
  CliRun run = ptmpl("lint '" + repo() + "'");
  EXPECT_EQ(run.exit, 0) << run.out << run.err;
  EXPECT_EQ(run.out,
            "4 files checked: 0 errors, 0 warnings, 0 info\n1 JSON file is not a template; --verbose lists it\n");
  CliRun verbose = ptmpl("lint -v '" + repo() + "'");
  expect_has(verbose.out, "1 JSON file is not a template:\n  " + repo() + "/package.json\n");
}

// A report for programs (here JSON) keeps standard output to itself: the count of files that
// are not templates goes to standard error, as a note of the command, as fmt's does.
TEST_F(CliFileSelection, LintReportForProgramsNotesWhatIsNoTemplateOnStandardError) {
  make_repository();
  CliRun run = ptmpl("lint --format json '" + repo() + "'");
  EXPECT_EQ(run.exit, 0) << run.out << run.err;
  EXPECT_EQ(run.err, "ptmpl lint: 1 JSON file is not a template; --verbose lists it\n");
}

TEST_F(CliFileSelection, FmtCheckTakesDirectoriesWithTheSameSelection) {
  make_repository();
  uncanonical(dir_);
  CliRun run = ptmpl("fmt --check '" + repo() + "'");
  EXPECT_EQ(run.exit, 1) << run.err;
  const std::string r = repo() + "/";
  EXPECT_EQ(run.out, r + "a.json\n" + r + "build.json\n" + r + "nested/keep.json\n" + r + "sub/top-only.json\n");
  EXPECT_EQ(run.err, "ptmpl fmt: 1 JSON file is not a template; --verbose lists it\n");
}

TEST_F(CliFileSelection, NoRespectGitignoreReadsIgnoredFilesButNotNodeModules) {
  make_repository();
  uncanonical(dir_);
  CliRun run = ptmpl("fmt --check --no-respect-gitignore '" + repo() + "'");
  const std::string r = repo() + "/";
  EXPECT_EQ(run.out, r + "a.json\n" + r + "build.json\n" + r + "nested/drop.json\n" + r + "nested/keep.json\n" + r +
                         "secret.json\n" + r + "sub/build/b.json\n" + r + "sub/top-only.json\n" + r +
                         "top-only.json\n");
}

TEST_F(CliFileSelection, OutsideARepositoryNoGitignoreApplies) {
  file(".gitignore", "*.json\n");
  file("a.json", R"([{"title": "A", "temp_id": 1}])");
  CliRun run = ptmpl("fmt --check '" + repo() + "'");
  EXPECT_EQ(run.out, repo() + "/a.json\n");
}

TEST_F(CliFileSelection, ExcludeGlobsFromConfigurationAndCommandLine) {
  file("a.json", R"([{"title": "A", "temp_id": 1}])");
  file("drafts/b.json", R"([{"title": "B", "temp_id": 1}])");
  file("legacy/c.json", R"([{"title": "C", "temp_id": 1}])");
  file("legacy/keep/d.json", R"([{"title": "D", "temp_id": 1}])");
  file("old.json", R"([{"title": "O", "temp_id": 1}])");
  file(".ptmpl.json", R"({"exclude": ["drafts"], "extend-exclude": ["legacy/c*"],
 "ignore": [{"files": "old.json"}]})");
  const std::string r = repo() + "/";
  CliRun run = ptmpl("fmt --check '" + repo() + "'");
  EXPECT_EQ(run.out, r + "a.json\n" + r + "legacy/keep/d.json\n");
  // --exclude replaces the configuration's exclude; extend-exclude and the ignore stay.
  CliRun replaced = ptmpl("fmt --check --exclude 'keep/' '" + repo() + "'");
  EXPECT_EQ(replaced.out, r + "a.json\n" + r + "drafts/b.json\n");
  CliRun extended = ptmpl("fmt --check --extend-exclude 'a.json' '" + repo() + "'");
  EXPECT_EQ(extended.out, r + "legacy/keep/d.json\n");
  // A file named is read whatever the globs say.
  CliRun named = ptmpl("fmt --check '" + r + "drafts/b.json'");
  EXPECT_EQ(named.out, r + "drafts/b.json\n");
}

TEST_F(CliFileSelection, ANonTemplateNamedExplicitlyIsStillAnError) {
  const std::string path = file("package.json", R"({"name": "web"})");
  CliRun run = ptmpl("lint '" + path + "'");
  EXPECT_EQ(run.exit, 1);
  expect_has(run.out, "not a template");
}

TEST_F(CliFileSelection, StdinFilenameNamesFindingsAndPicksTheConfiguration) {
  file("sub/.ptmpl.json", R"({"rules": {"title-missing": "warning"}})");
  const std::string name = repo() + "/sub/plan.json";
  CliRun run = ptmpl("lint --stdin-filename '" + name + "' - < samples/lint-demo-broken.json");
  expect_has(run.out, name + ":68:11: warning: story has no title [title-missing]");
  CliRun fmt = ptmpl("fmt --check --stdin-filename '" + name + "' - < '" +
                     file("in.json", R"([{"title": "A", "temp_id": 1}])") + "'");
  EXPECT_EQ(fmt.exit, 1);
  EXPECT_EQ(fmt.out, name + "\n");
  CliRun refused = ptmpl("lint --stdin-filename x.json a.json");
  EXPECT_EQ(refused.exit, 2);
  expect_has(refused.err, "give '-' as the only path");
}

TEST_F(CliFileSelection, MaxWarningsFailsWhenThereAreMoreWarnings) {
  // The demo file has 2 warnings (and errors, turned off here).
  file(".ptmpl.json", R"({"fail_on": "error", "rules": {"schema": "off", "title-missing": "off",
 "story-type-invalid": "off", "temp-id-duplicate": "off", "temp-id-missing": "warning"}})");
  std::filesystem::copy_file(std::string(PTMPL_SOURCE_DIR) + "/samples/lint-demo-broken.json", dir_ / "demo.json");
  CliRun counted = ptmpl("lint --format json '" + repo() + "/demo.json'");
  ASSERT_EQ(counted.exit, 0) << counted.out << counted.err;
  expect_has(counted.out, "\"warning\": 3");
  EXPECT_EQ(ptmpl("lint --max-warnings 3 '" + repo() + "/demo.json'").exit, 0);
  CliRun over = ptmpl("lint --max-warnings 2 '" + repo() + "/demo.json'");
  EXPECT_EQ(over.exit, 1);
  expect_has(over.err, "ptmpl lint: 3 warnings, more than --max-warnings 2");
}

// Every command's --help names its exit codes (docs/semantics.md §6), and lint's its six formats.
TEST(CliHelp, EveryCommandNamesItsExitCodes) {
  CliRun top = testing::run_ptmpl("--help");
  std::istringstream lines(top.out);
  std::vector<std::string> commands;
  bool in_list = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("Subcommands:")) {
      in_list = true;
      continue;
    }
    if (in_list && line.starts_with("  ") && line.size() > 2 && line[2] != ' ')
      commands.push_back(line.substr(2, line.find(' ', 2) - 2));
    else if (in_list && !line.empty() && !line.starts_with(" "))
      in_list = false;
  }
  ASSERT_GE(commands.size(), 15u) << top.out;
  for (const std::string& command : commands) {
    CliRun help = testing::run_ptmpl(command + " --help");
    const std::size_t codes = help.out.find("Exit codes:");
    ASSERT_NE(codes, std::string::npos) << command << " --help names no exit codes";
    const std::string listed = help.out.substr(codes);
    EXPECT_NE(listed.find("0 "), std::string::npos) << command << " --help does not name exit code 0";
    EXPECT_NE(listed.find("2 "), std::string::npos) << command << " --help does not name exit code 2";
  }
  CliRun lint = testing::run_ptmpl("lint --help");
  for (const char* format : {"text", "json", "sarif", "github", "junit", "gitlab"})
    EXPECT_NE(lint.out.find(format), std::string::npos) << format;
  EXPECT_EQ(top.out.find("(text or JSON)"), std::string::npos);
  for (const char* command : {"diff", "push", "pull", "list", "auth"}) {
    CliRun help = testing::run_ptmpl(std::string(command) + " --help");
    EXPECT_NE(help.out.find("3 network"), std::string::npos) << command << " --help does not name exit code 3";
  }
}

}  // namespace
}  // namespace ptmpl
