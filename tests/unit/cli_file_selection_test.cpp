// Which files lint and fmt take from a directory (docs/commands/lint.md, "Selecting files"):
// git's ignore rules (GitIgnoreRules, compared with git itself) in a repository made for the
// test; ignore files and patterns made to hold the walk; directories that cannot be listed;
// node_modules and hidden
// folders, exclude globs, files that are not templates; standard input under a name;
// --max-warnings; and every command's --help naming its exit codes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <set>

#include "cli_run.hpp"
#include "libtemplate/core/git_ignore.hpp"

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

// Issue 36: the pre-commit hook names every changed JSON file, and `ptmpl lint package.json`
// failed the commit. --force-exclude takes named files through the walk's selection: ignored
// and excluded ones (or below an ignored directory) are skipped, one that is not a template is
// passed over as below a directory; lint and fmt alike.
TEST_F(CliFileSelection, ForceExcludeAppliesTheSelectionToNamedFiles) {
  make_repository();
  file(".ptmpl.json", R"({"exclude": ["drafts/"]})");
  file("drafts/d.json", "[{]");
  const std::string named = " a.json package.json secret.json sub/build/b.json drafts/d.json nested/keep.json";
  // Run inside the repository, naming the files as a hook does (relative to its root).
  auto in_repo = [&](const std::string& args) {
    return testing::run_program("/bin/sh", "-c \"cd '" + repo() + "' && '" PTMPL_BINARY "' " + args + named + "\"",
                                "NO_COLOR=1");
  };
  CliRun plain = in_repo("lint");
  EXPECT_EQ(plain.exit, 1);  // package.json and the broken draft are errors when named
  CliRun forced = in_repo("lint --force-exclude");
  EXPECT_EQ(forced.exit, 0) << forced.out << forced.err;
  EXPECT_EQ(forced.out,
            "2 files checked: 0 errors, 0 warnings, 0 info\n1 JSON file is not a template; --verbose lists it\n");
  uncanonical(dir_);
  file(".ptmpl.json", R"({"exclude": ["drafts/"]})");  // uncanonical() wrote over it
  CliRun fmt = in_repo("fmt --check --force-exclude");
  EXPECT_EQ(fmt.exit, 1);
  EXPECT_EQ(fmt.out, "a.json\nnested/keep.json\n");
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

// Runs `ptmpl ARGS` under a deadline (`timeout`: exit 124 when it is reached), in seconds since
// the start.
CliRun ptmpl_within(double seconds, const std::string& args, double& took) {
  const auto start = std::chrono::steady_clock::now();
  CliRun run = testing::run_ptmpl(args, "NO_COLOR=1 timeout 20");
  took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_NE(run.exit, 124) << "ptmpl " << args << " ran for 20 s";
  EXPECT_LT(took, seconds) << "ptmpl " << args;
  return run;
}

// Patterns whose matching took exponential time (a name of 200 letters against twenty '*', a
// path forty directories deep against twenty "**") match in polynomial time and still say what
// git says; a pattern longer than a path can be is skipped, named with its file and line.
TEST_F(CliFileSelection, PathologicalPatternsDoNotHoldTheWalk) {
  ASSERT_EQ(std::system(("git init -q '" + repo() + "'").c_str()), 0);
  file(".gitignore",
       "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b\n"
       "a/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/b\n" +
           std::string(5000, 'x') + "\nnot-me.json\n");
  const std::string long_name(200, 'a');
  file(long_name + ".json", kTemplate);                // kept: no 'b' after the a's
  file(std::string(25, 'a') + "b/x.json", kTemplate);  // ignored: the directory matches
  std::string deep = "a";
  for (int i = 0; i < 40; ++i) deep += "/x";
  file(deep + "/c.json", kTemplate);  // kept: no name "b"
  file("a/x/x/b/d.json", kTemplate);  // ignored: a/**/b
  file("not-me.json", kTemplate);     // ignored: the line after the long one
  double took = 0;
  CliRun run = ptmpl_within(2, "lint '" + repo() + "'", took);
  EXPECT_EQ(run.exit, 2) << run.out << run.err;
  EXPECT_EQ(run.err, "ptmpl lint: " + repo() +
                         "/.gitignore:3: a pattern of 5000 bytes, more than the 4096 a pattern may have; skipped\n");
  EXPECT_EQ(run.out, "2 files checked: 0 errors, 0 warnings, 0 info\n");
}

// An ignore file that is a FIFO (no writer: opening it to read would wait for ever) is
// reported and left out; the walk goes on and the files are linted; exit 2.
TEST_F(CliFileSelection, AnIgnoreFileThatIsNoRegularFileIsReportedNotRead) {
  make_repository();
  std::filesystem::remove(dir_ / ".git/info/exclude");
  ASSERT_EQ(::mkfifo((dir_ / ".git/info/exclude").c_str(), 0644), 0);
  ASSERT_EQ(::mkfifo((dir_ / "sub/.gitignore").c_str(), 0644), 0);
  double took = 0;
  CliRun run = ptmpl_within(2, "lint '" + repo() + "'", took);
  EXPECT_EQ(run.exit, 2) << run.out << run.err;
  EXPECT_EQ(run.err, "ptmpl lint: " + repo() +
                         "/.git/info/exclude: is a FIFO, not a regular file; refused; its ignore patterns are not "
                         "applied\nptmpl lint: " +
                         repo() +
                         "/sub/.gitignore: is a FIFO, not a regular file; refused; its ignore patterns are "
                         "not applied\n");
  // secret.json is linted now: .git/info/exclude said to skip it.
  expect_has(run.out, "5 files checked: 0 errors");
  uncanonical(dir_);
  CliRun fmt = ptmpl_within(2, "fmt --check '" + repo() + "'", took);
  EXPECT_EQ(fmt.exit, 2) << fmt.err;
  expect_has(fmt.err, "ptmpl fmt: " + repo() + "/sub/.gitignore: is a FIFO");
  expect_has(fmt.out, repo() + "/secret.json\n");
  // Without git's rules no ignore file is opened.
  CliRun no_git = ptmpl_within(2, "fmt --check --no-respect-gitignore '" + repo() + "'", took);
  EXPECT_EQ(no_git.exit, 1) << no_git.err;
  EXPECT_EQ(no_git.err, "ptmpl fmt: 1 JSON file is not a template; --verbose lists it\n");
}

// A directory that cannot be listed is named with the reason; the files beside it are linted
// and the exit is 2. (Run as an unprivileged user when the tests run as root, whom no
// permission stops.)
TEST_F(CliFileSelection, ADirectoryThatCannotBeListedIsReportedAndTheRestLinted) {
  std::string as_user;
  if (::geteuid() == 0) {
    if (std::system("setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null") != 0)
      GTEST_SKIP() << "running as root, and setpriv cannot drop to an unprivileged user";
    as_user = " setpriv --reuid=65534 --regid=65534 --clear-groups";
  }
  file("a.json", kTemplate);
  file("closed/b.json", kTemplate);
  file("open/c.json", kTemplate);
  ASSERT_EQ(::chmod((dir_ / "closed").c_str(), 0), 0);
  CliRun run = testing::run_ptmpl("lint '" + repo() + "'", "NO_COLOR=1" + as_user);
  CliRun fmt = testing::run_ptmpl("fmt --check '" + repo() + "'", "NO_COLOR=1" + as_user);
  ::chmod((dir_ / "closed").c_str(), 0755);
  EXPECT_EQ(run.exit, 2) << run.out << run.err;
  EXPECT_EQ(run.err,
            "ptmpl lint: " + repo() + "/closed: cannot list: Permission denied; the files below it are not read\n");
  EXPECT_EQ(run.out, "2 files checked: 0 errors, 0 warnings, 0 info\n");
  EXPECT_EQ(fmt.exit, 2) << fmt.out << fmt.err;
  expect_has(fmt.err, "/closed: cannot list: Permission denied");
}

// ptmpl's reading of the ignore rules against git's own: every file of a repository full of
// tricky patterns (negations, anchors, "**", classes, escapes, trailing spaces, a directory
// that cannot be re-included, nested files, .git/info/exclude, core.excludesFile) is ignored
// by GitIgnoreRules exactly when `git ls-files --others --exclude-standard` leaves it out, and
// `fmt` takes exactly the templates git lists.
TEST_F(CliFileSelection, IgnoreRulesAgreeWithGit) {
  ASSERT_EQ(std::system(("git init -q '" + repo() + "'").c_str()), 0);
  const std::string excludes = (dir_ / ".git/global-ignore").string();
  ASSERT_EQ(std::system(("git -C '" + repo() + "' config core.excludesFile '" + excludes + "'").c_str()), 0);
  std::ofstream(excludes) << "global.json\nglobal2.json\n*.log\n";
  file(".gitignore",
       "# a comment\n\\#hash.json\n\\!bang.json\ntrail.json   \nspace\\ .json\n*.tmp\n!keep.tmp\nbuild/\n"
       "/root-only.json\ndoc/*.json\n**/deep/*.json\na/**/z.json\nlogs/**\n!logs/keep.json\nexcluded/\n"
       "!excluded/back.json\n[abc]x.json\n[!abc]y.json\n[a-c]r.json\n?q.json\n[[:digit:]]d.json\nfoo/**/\n"
       "mid/dle.json\n!global2.json\nstar*/\n\\[lit].json\n*.bak\r\n");
  file("sub/.gitignore", "*.json\n!keep*.json\n/anchored.txt\n");
  file(".git/info/exclude", "secret*\n!secret-keep.json\n");
  const std::vector<std::string> names = {"#hash.json",
                                          "!bang.json",
                                          "trail.json",
                                          "space .json",
                                          "space.json",
                                          "x.tmp",
                                          "keep.tmp",
                                          "build/a.json",
                                          "build.json",
                                          "src/build/b.json",
                                          "root-only.json",
                                          "sub/root-only.json",
                                          "doc/d.json",
                                          "doc/sub/d.json",
                                          "deep/e.json",
                                          "x/deep/e.json",
                                          "x/y/deep/e.json",
                                          "x/deep/y/e.json",
                                          "a/z.json",
                                          "a/b/z.json",
                                          "a/b/c/z.json",
                                          "b/a/z.json",
                                          "logs/one.json",
                                          "logs/keep.json",
                                          "logs/x/keep.json",
                                          "excluded/back.json",
                                          "excluded/other.json",
                                          "ax.json",
                                          "dx.json",
                                          "ay.json",
                                          "dy.json",
                                          "br.json",
                                          "dr.json",
                                          "1q.json",
                                          "q.json",
                                          "7d.json",
                                          "xd.json",
                                          "foo/bar/f.json",
                                          "foo/f.json",
                                          "mid/dle.json",
                                          "x/mid/dle.json",
                                          "global.json",
                                          "global2.json",
                                          "x/global.json",
                                          "a.log",
                                          "stars/s.json",
                                          "starry",
                                          "[lit].json",
                                          "l.json",
                                          "c.bak",
                                          "sub/s.json",
                                          "sub/keep-me.json",
                                          "sub/anchored.txt",
                                          "sub/x/anchored.txt",
                                          "sub/deeper/t.json",
                                          "secret.json",
                                          "secret-keep.json",
                                          "x/secret.txt",
                                          "plain.json",
                                          "x/plain.txt"};
  for (const std::string& name : names) file(name, R"([{"title": "A", "temp_id": 1}])");

  std::set<std::string> git_lists;
  std::FILE* pipe = ::popen(("git -C '" + repo() + "' ls-files --others --exclude-standard").c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  char line[4096];
  while (std::fgets(line, sizeof line, pipe) != nullptr) {
    std::string entry(line);
    if (entry.ends_with('\n')) entry.pop_back();
    git_lists.insert(entry);
  }
  ASSERT_EQ(::pclose(pipe), 0);
  // What git says of a few, as gitignore(5) has it: the comparison below has both kinds.
  for (const char* kept : {"keep.tmp", "logs/keep.json", "sub/keep-me.json", "secret-keep.json", "global2.json",
                           "space.json", "b/a/z.json", "dx.json", "ay.json"})
    EXPECT_EQ(git_lists.count(kept), 1u) << kept;
  for (const char* ignored : {"excluded/back.json", "a/b/c/z.json", "sub/s.json", "x.tmp", "global.json", "trail.json",
                              "space .json", "x/deep/e.json", "7d.json", "c.bak", "#hash.json", "!bang.json"})
    EXPECT_EQ(git_lists.count(ignored), 0u) << ignored;

  GitIgnoreRules rules({.work_tree = repo(), .global_files = {(dir_ / ".git/info/exclude").string(), excludes}});
  std::vector<std::string> all = names;
  all.push_back(".gitignore");
  all.push_back("sub/.gitignore");
  for (const std::string& name : all) EXPECT_EQ(rules.ignored(name, false), git_lists.count(name) == 0) << name;
  EXPECT_TRUE(rules.take_problems().empty());

  // The templates fmt takes are the *.json files git lists (every one is not canonical).
  std::set<std::string> expected;
  for (const std::string& name : names)
    if (name.ends_with(".json") && git_lists.count(name) != 0) expected.insert(repo() + "/" + name);
  CliRun run = ptmpl("fmt --check '" + repo() + "'");
  std::set<std::string> taken;
  std::istringstream out(run.out);
  for (std::string entry; std::getline(out, entry);) taken.insert(entry);
  EXPECT_EQ(taken, expected) << run.err;
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
