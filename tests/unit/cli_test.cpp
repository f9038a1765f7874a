// The ptmpl binary end to end: exact output (golden files), exit codes, files left intact.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "test_files.hpp"

namespace ptmpl::cli_test {
namespace {

using testing::read_source;

struct CliRun {
  int exit = -1;
  std::string out;
  std::string err;
};

// Runs `ptmpl ARGS` from the repository root, so paths in the output are relative.
CliRun ptmpl(const std::string& args, const std::string& stdin_file = "") {
  std::string err_file = ::testing::TempDir() + "ptmpl-stderr-" + std::to_string(::getpid());
  std::string command = "cd '" PTMPL_SOURCE_DIR "' && '" PTMPL_BINARY "' " + args + " 2>'" + err_file + "'";
  if (!stdin_file.empty()) command += " <'" + stdin_file + "'";
  CliRun run;
  std::FILE* pipe = ::popen(command.c_str(), "r");
  char buffer[65536];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) run.out.append(buffer, n);
  int status = ::pclose(pipe);
  run.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(err_file);
  run.err.assign(std::istreambuf_iterator<char>(in), {});
  std::filesystem::remove(err_file);
  return run;
}

std::string temp_copy(const std::string& relative, const std::string& name) {
  std::string path = ::testing::TempDir() + name;
  std::ofstream(path, std::ios::binary) << read_source(relative);
  return path;
}

TEST(Cli, LintSamplesText) {
  CliRun r = ptmpl("lint samples/");
  EXPECT_EQ(r.exit, 1);
  EXPECT_EQ(r.out, read_source("tests/golden/lint-samples.txt"));
  EXPECT_EQ(r.err, "");
}

TEST(Cli, LintSamplesJson) {
  CliRun r = ptmpl("lint samples/ --format json");
  EXPECT_EQ(r.exit, 1);
  EXPECT_EQ(r.out, read_source("tests/golden/lint-samples.json"));
}

TEST(Cli, LintCleanFilesExitZero) {
  CliRun r = ptmpl("lint samples/website-launch.json samples/erp-implementation.json");
  EXPECT_EQ(r.exit, 0);
  EXPECT_EQ(r.out, "2 files checked: 0 errors, 0 warnings, 0 info\n");
}

TEST(Cli, LintFailOnWarning) {
  // The broken sample has errors, so --fail-on only matters for a warnings-only file.
  CliRun r = ptmpl("lint tests/data/cli/warnings-only.json");
  EXPECT_EQ(r.exit, 0) << r.out;
  CliRun strict = ptmpl("lint --fail-on warning tests/data/cli/warnings-only.json");
  EXPECT_EQ(strict.exit, 1);
  EXPECT_EQ(strict.out, r.out);
}

TEST(Cli, LintSyntaxErrorIsAFinding) {
  CliRun r = ptmpl("lint tests/data/cli/syntax-error.json");
  EXPECT_EQ(r.exit, 1);
  EXPECT_EQ(r.out,
            "tests/data/cli/syntax-error.json:4:5: error: expected ',' or '}' after an object member [json-syntax]\n"
            "1 file checked: 1 error, 0 warnings, 0 info\n");
}

TEST(Cli, LintMissingFileIsExitTwo) {
  CliRun r = ptmpl("lint samples/nope.json");
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(r.err, "ptmpl lint: samples/nope.json: no such file or directory\n");
}

TEST(Cli, LintReadsStandardInput) {
  CliRun r = ptmpl("lint -", PTMPL_SOURCE_DIR "/samples/lint-demo-broken.json");
  EXPECT_EQ(r.exit, 1);
  EXPECT_NE(r.out.find("-:87:13: warning: duplicate key \"title\""), std::string::npos) << r.out;
}

TEST(Cli, FmtPrintsCanonicalForm) {
  CliRun r = ptmpl("fmt tests/data/roundtrip/messy-story-list.json");
  EXPECT_EQ(r.exit, 0);
  EXPECT_EQ(r.out, read_source("tests/golden/fmt/messy-story-list.json"));
}

TEST(Cli, FmtCheckSamplesPasses) {
  CliRun r = ptmpl(
      "fmt --check samples/agency-retainer.json samples/employee-onboarding.json "
      "samples/erp-implementation.json samples/lint-demo-broken.json samples/office-move.json "
      "samples/software-release.json samples/website-launch.json");
  EXPECT_EQ(r.exit, 0);
  EXPECT_EQ(r.out, "");
}

TEST(Cli, FmtCheckListsFilesNotCanonical) {
  CliRun r = ptmpl("fmt --check samples/website-launch.json tests/data/roundtrip/messy-story-list.json");
  EXPECT_EQ(r.exit, 1);
  EXPECT_EQ(r.out, "tests/data/roundtrip/messy-story-list.json\n");
}

// Issue 36: fmt --diff shows what -w would change; several files or a directory printed one
// after another read as one document, so fmt asks which flag was meant.
TEST(Cli, FmtDiffShowsTheChangesAndSeveralDocumentsNeedAFlag) {
  CliRun diff = ptmpl("fmt --diff samples/website-launch.json tests/data/roundtrip/messy-story-list.json");
  EXPECT_EQ(diff.exit, 1);
  EXPECT_TRUE(
      diff.out.starts_with("--- a/tests/data/roundtrip/messy-story-list.json\n+++ "
                           "b/tests/data/roundtrip/messy-story-list.json\n@@ -1,"))
      << diff.out;
  CliRun clean = ptmpl("fmt --diff samples/");
  EXPECT_EQ(clean.exit, 0) << clean.out;
  EXPECT_EQ(clean.out, "");
  CliRun many = ptmpl("fmt samples/");
  EXPECT_EQ(many.exit, 2);
  EXPECT_EQ(many.out, "");
  EXPECT_EQ(many.err,
            "ptmpl fmt: several files or a directory: give --check to list those not in canonical form, --diff to "
            "show the changes, or -w to rewrite them\n");
}

TEST(Cli, FmtWriteIsAtomicAndKeepsPermissions) {
  std::string path = temp_copy("tests/data/roundtrip/messy-story-list.json", "fmt-write.json");
  ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
  CliRun r = ptmpl("fmt -w '" + path + "'");
  EXPECT_EQ(r.exit, 0) << r.err;
  std::ifstream in(path, std::ios::binary);
  std::string written(std::istreambuf_iterator<char>(in), {});
  EXPECT_EQ(written, read_source("tests/golden/fmt/messy-story-list.json"));
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
  // No temporary file left beside it.
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(path).parent_path()))
    EXPECT_EQ(entry.path().string().find("fmt-write.json.ptmpl-"), std::string::npos) << entry.path();
  std::filesystem::remove(path);
}

TEST(Cli, FmtRefusesInvalidJsonAndLeavesTheFile) {
  std::string path = temp_copy("tests/data/cli/syntax-error.json", "fmt-bad.json");
  std::string before = read_source("tests/data/cli/syntax-error.json");
  CliRun r = ptmpl("fmt -w '" + path + "'");
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("fmt-bad.json:4:5: error: expected ',' or '}' after an object member [json-syntax]"),
            std::string::npos)
      << r.err;
  std::ifstream in(path, std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), before);
  std::filesystem::remove(path);
}

TEST(Cli, FmtRefusesAFileTooDeepToRead) {
  CliRun r = ptmpl("fmt tests/data/cli/too-deep.json");
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("too-deep.json:1:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("[nesting-depth]"), std::string::npos) << r.err;
}

TEST(Cli, RulesListsTheCatalogue) {
  CliRun r = ptmpl("rules");
  EXPECT_EQ(r.exit, 0);
  EXPECT_EQ(r.out, read_source("tests/golden/rules.txt"));
}

TEST(Cli, ExplainPrintsTheRulePage) {
  CliRun r = ptmpl("explain temp-id-duplicate");
  EXPECT_EQ(r.exit, 0);
  EXPECT_EQ(r.out, read_source("docs/rules/temp-id-duplicate.md"));
  CliRun bad = ptmpl("explain no-such-rule");
  EXPECT_EQ(bad.exit, 2);
  EXPECT_EQ(bad.err, "ptmpl explain: unknown rule \"no-such-rule\"; ptmpl rules lists them\n");
}

TEST(Cli, SchemaPrintsTheBundledSchema) {
  for (const char* name : {"raw_json", "template", "config"}) {
    CliRun r = ptmpl(std::string("schema ") + name);
    EXPECT_EQ(r.exit, 0);
    EXPECT_EQ(r.out, read_source("schemas/" + std::string(name) + ".schema.json"));
  }
  EXPECT_EQ(ptmpl("schema").out, read_source("schemas/raw_json.schema.json"));
  EXPECT_EQ(ptmpl("schema nope").exit, 2);
}

TEST(Cli, GenIsDeterministicAndLintsClean) {
  CliRun a = ptmpl("gen --stories 50 --depth 3 --deps 60 --seed 5");
  CliRun b = ptmpl("gen --stories 50 --depth 3 --deps 60 --seed 5");
  EXPECT_EQ(a.exit, 0);
  EXPECT_EQ(a.out, b.out);
  std::string path = ::testing::TempDir() + "gen.json";
  CliRun written = ptmpl("gen --stories 50 --depth 3 --deps 60 --seed 5 -o '" + path + "'");
  EXPECT_EQ(written.exit, 0);
  std::ifstream in(path, std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), a.out);
  CliRun lint = ptmpl("lint '" + path + "'");
  EXPECT_EQ(lint.exit, 0) << lint.out;
  std::filesystem::remove(path);
}

TEST(Cli, UsageErrorsExitTwo) {
  EXPECT_EQ(ptmpl("").exit, 2);
  EXPECT_EQ(ptmpl("frobnicate").exit, 2);
  EXPECT_EQ(ptmpl("lint").exit, 2);
  EXPECT_EQ(ptmpl("lint --format xml samples/").exit, 2);
  EXPECT_EQ(ptmpl("fmt --check -w samples/website-launch.json").exit, 2);
}

TEST(Cli, EveryCommandHasHelpWithAnExample) {
  for (const char* command : {"lint", "fmt", "lsp", "schedule", "stats", "rules", "explain", "schema", "gen"}) {
    CliRun r = ptmpl(std::string(command) + " --help");
    EXPECT_EQ(r.exit, 0) << command;
    EXPECT_NE(r.out.find("Example:\n  ptmpl " + std::string(command)), std::string::npos) << command << r.out;
  }
  CliRun top = ptmpl("--help");
  EXPECT_EQ(top.exit, 0);
  for (const char* command : {"lint", "fmt", "lsp", "schedule", "stats", "rules", "explain", "schema", "gen"})
    EXPECT_NE(top.out.find(command), std::string::npos);
}

}  // namespace
}  // namespace ptmpl::cli_test

namespace ptmpl::cli_test {
namespace {

// On a terminal (here: a pseudo-terminal from script(1)) findings get the source line and a
// caret; NO_COLOR turns colour off, not the excerpt.
TEST(Cli, TerminalOutputHasExcerptsAndRespectsNoColor) {
  auto run_in_terminal = [](const std::string& env) {
    std::string command = "cd '" PTMPL_SOURCE_DIR "' && " + env +
                          " script -qec \"'" PTMPL_BINARY "' lint tests/data/cli/syntax-error.json\" /dev/null";
    std::FILE* pipe = ::popen(command.c_str(), "r");
    std::string out;
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
    ::pclose(pipe);
    std::string clean;
    for (char c : out)
      if (c != '\r') clean += c;
    return clean;
  };
  std::string plain = run_in_terminal("NO_COLOR=1");
  EXPECT_EQ(plain,
            "tests/data/cli/syntax-error.json:4:5: error: expected ',' or '}' after an object member [json-syntax]\n"
            " 4 |     \"temp_id\": 1\n"
            "   |     ^\n"
            "1 file checked: 1 error, 0 warnings, 0 info\n");
  std::string coloured = run_in_terminal("NO_COLOR=");
  EXPECT_NE(coloured.find("\033[1;31merror\033[0m"), std::string::npos) << coloured;
}

}  // namespace
}  // namespace ptmpl::cli_test

namespace ptmpl::cli_test {
namespace {

using testing::slurp;

TEST(Cli, FmtWriteFollowsSymbolicLinks) {
  std::string real = ::testing::TempDir() + "fmt-real.json";
  std::string link = ::testing::TempDir() + "fmt-link.json";
  std::filesystem::remove(link);
  std::ofstream(real, std::ios::binary) << read_source("tests/data/roundtrip/messy-story-list.json");
  std::filesystem::create_symlink(real, link);
  CliRun r = ptmpl("fmt -w '" + link + "'");
  EXPECT_EQ(r.exit, 0) << r.err;
  EXPECT_TRUE(std::filesystem::is_symlink(link)) << "the link stays a link";
  EXPECT_EQ(slurp(real), read_source("tests/golden/fmt/messy-story-list.json")) << "the file it names is rewritten";
  std::filesystem::remove(link);
  std::filesystem::remove(real);
}

TEST(Cli, FmtWriteLeavesReadOnlyFilesAlone) {
  std::string path = ::testing::TempDir() + "fmt-read-only.json";
  std::filesystem::remove(path);
  std::ofstream(path, std::ios::binary) << read_source("tests/data/roundtrip/messy-story-list.json");
  ASSERT_EQ(::chmod(path.c_str(), 0444), 0);
  CliRun r = ptmpl("fmt -w '" + path + "'");
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find("fmt-read-only.json: is read-only; not rewritten"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(path), read_source("tests/data/roundtrip/messy-story-list.json"));
  ::chmod(path.c_str(), 0644);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace ptmpl::cli_test

namespace ptmpl::cli_test {
namespace {

TEST(Cli, LintFixDryRunPrintsADiffAndChangesNothing) {
  std::string path = ::testing::TempDir() + "fix-dry.json";
  std::ofstream(path, std::ios::binary) << read_source("tests/data/cli/fixable.json");
  CliRun r = ptmpl("lint --no-config --fix --dry-run '" + path + "'");
  EXPECT_EQ(r.exit, 1) << "something to fix";
  std::string name = path.substr(1);
  EXPECT_EQ(
      r.out,
      "# " + path + ":7:17: safe fix [duration-mismatch]\n# " + path + ":8:17: safe fix [tag-list-format]\n--- a/" +
          name + "\n+++ b/" + name +
          "\n@@ -4,8 +4,8 @@\n     \"temp_id\": 1,\n     \"relative_start_date\": 0,\n"
          "     \"relative_due_date\": 4,\n-    \"duration\": 3,\n-    \"tag_list\": \" design,review ,, design\"\n"
          "+    \"duration\": 5,\n+    \"tag_list\": \"design, review\"\n   },\n   {\n"
          "     \"story_type\": \"milestone\",\n");
  EXPECT_EQ(slurp(path), read_source("tests/data/cli/fixable.json"));
  std::filesystem::remove(path);
}

TEST(Cli, LintFixRewritesOnlyTheFixedValuesAndReportsWhatIsLeft) {
  std::string path = ::testing::TempDir() + "fix-apply.json";
  std::ofstream(path, std::ios::binary) << read_source("tests/data/cli/fixable.json");
  CliRun r = ptmpl("lint --no-config --fix '" + path + "'");
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_EQ(r.out, "1 file checked: 0 errors, 0 warnings, 0 info\n");
  EXPECT_NE(r.err.find("fix-apply.json: applied 2 fixes"), std::string::npos) << r.err;
  std::string expected = read_source("tests/data/cli/fixable.json");
  expected.replace(expected.find("\"duration\": 3"), 13, "\"duration\": 5");
  expected.replace(expected.find("\" design,review ,, design\""), 26, "\"design, review\"");
  EXPECT_EQ(slurp(path), expected);
  CliRun again = ptmpl("lint --no-config --fix --dry-run '" + path + "'");
  EXPECT_EQ(again.exit, 0);
  EXPECT_EQ(again.out, "");
  std::filesystem::remove(path);
}

// Writes `text` to a fresh file under the test directory and returns its path.
std::string temp_file(const std::string& name, std::string_view text) {
  std::string path = ::testing::TempDir() + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(Cli, LintFailsOnAMisspeltKeyAndOnlyAnUnsafeFixRenamesIt) {
  const std::string text =
      "[\n  {\"title\": \"Launch\", \"temp_id\": 1,\n   \"sub_storys\": [{\"title\": \"Copy\", \"temp_id\": 2}]}\n]\n";
  std::string path = temp_file("misspelt.json", text);
  CliRun r = ptmpl("lint --no-config '" + path + "'");
  EXPECT_EQ(r.exit, 1) << "a misspelt key fails CI";
  EXPECT_EQ(r.out, path +
                       ":3:4: error: unknown story key \"sub_storys\": did you mean \"sub_stories\"? What it holds is "
                       "not read, and the service ignores it [key-misspelt]\n"
                       "1 file checked: 1 error, 0 warnings, 0 info\n");
  // Plain --fix leaves the rename (unsafe) and says so.
  CliRun fix = ptmpl("lint --no-config --fix '" + path + "'");
  EXPECT_EQ(fix.exit, 1);
  EXPECT_NE(fix.err.find("misspelt.json: 1 unsafe fix is not applied (--unsafe-fixes applies them)"), std::string::npos)
      << fix.err;
  EXPECT_EQ(slurp(path), text);
  CliRun dry = ptmpl("lint --no-config --fix --dry-run '" + path + "'");
  EXPECT_EQ(dry.exit, 0) << "nothing would change";
  EXPECT_EQ(dry.out, "# " + path + ":3:4: unsafe fix, not applied (--unsafe-fixes applies it) [key-misspelt]\n");
  // --unsafe-fixes renames it, and the child story is read.
  CliRun unsafe = ptmpl("lint --no-config --fix --unsafe-fixes '" + path + "'");
  EXPECT_EQ(unsafe.exit, 0) << unsafe.out << unsafe.err;
  std::string expected = text;
  expected.replace(expected.find("sub_storys"), 10, "sub_stories");
  EXPECT_EQ(slurp(path), expected);
  CliRun stats = ptmpl("stats --format json '" + path + "'");
  EXPECT_NE(stats.out.find("\"item_count\": 2"), std::string::npos) << "the sub-story counts\n" << stats.out;
  std::filesystem::remove(path);
}

TEST(Cli, LintUnsafeFixOptionNeedsFix) {
  CliRun r = ptmpl("lint --no-config --unsafe-fixes tests/data/cli/fixable.json");
  EXPECT_EQ(r.exit, 2) << r.out;
}

// A template whose item_count (a safe fix) and budget (an unsafe one) disagree with its stories.
constexpr std::string_view kTemplateFixes = R"({
  "project_template": {
    "title": "T",
    "is_budgeted": true,
    "budget": 100,
    "item_count": 5,
    "raw_json": [{"title": "A", "temp_id": 1, "budget_estimate_in_cents": 25000}]
  }
}
)";

TEST(Cli, LintFixAppliesSafeFixesAndUnsafeFixesOnlyWhenAsked) {
  std::string path = temp_file("unsafe.json", kTemplateFixes);
  CliRun dry = ptmpl("lint --no-config --fix --dry-run '" + path + "'");
  EXPECT_EQ(dry.exit, 1);
  std::string name = path.substr(1);
  EXPECT_EQ(dry.out, "# " + path +
                         ":5:15: unsafe fix, not applied (--unsafe-fixes applies it) [template-budget-mismatch]\n"
                         "# " +
                         path +
                         ":6:19: safe fix [template-item-count-mismatch]\n"
                         "--- a/" +
                         name + "\n+++ b/" + name +
                         "\n@@ -3,7 +3,7 @@\n     \"title\": \"T\",\n"
                         "     \"is_budgeted\": true,\n     \"budget\": 100,\n-    \"item_count\": 5,\n"
                         "+    \"item_count\": 1,\n     \"raw_json\": [{\"title\": \"A\", \"temp_id\": 1, "
                         "\"budget_estimate_in_cents\": 25000}]\n   }\n }\n");
  CliRun unsafe_dry = ptmpl("lint --no-config --fix --unsafe-fixes --dry-run '" + path + "'");
  EXPECT_NE(unsafe_dry.out.find("# " + path + ":5:15: unsafe fix [template-budget-mismatch]\n"), std::string::npos)
      << unsafe_dry.out;
  EXPECT_NE(unsafe_dry.out.find("+    \"budget\": 250,\n"), std::string::npos) << unsafe_dry.out;
  EXPECT_EQ(slurp(path), kTemplateFixes) << "a dry run changes nothing";

  // Behaviour change: plain --fix no longer recomputes the template's budget.
  CliRun fix = ptmpl("lint --no-config --fail-on warning --fix '" + path + "'");
  EXPECT_EQ(fix.exit, 1) << "the budget finding is left";
  EXPECT_NE(fix.out.find("[template-budget-mismatch]"), std::string::npos) << fix.out;
  std::string expected(kTemplateFixes);
  expected.replace(expected.find("\"item_count\": 5"), 15, "\"item_count\": 1");
  EXPECT_EQ(slurp(path), expected);
  CliRun unsafe = ptmpl("lint --no-config --fail-on warning --fix --unsafe-fixes '" + path + "'");
  EXPECT_EQ(unsafe.exit, 0) << unsafe.out;
  expected.replace(expected.find("\"budget\": 100"), 13, "\"budget\": 250");
  EXPECT_EQ(slurp(path), expected);
  std::filesystem::remove(path);
}

TEST(Cli, LintTemplateDurationFixWaitsForTheStoryDurationFix) {
  // The story's duration (3) disagrees with its dates (0 to 4: 5 days); the template says 7.
  // Computed from the story as written, the template fix would write 3 while the safe fix
  // makes the story 5 days long. The first run fixes the story only; the second the template.
  const std::string text =
      "{\"project_template\": {\"title\": \"T\", \"duration\": 7, \"raw_json\": [\n"
      "  {\"title\": \"A\", \"temp_id\": 1, \"relative_start_date\": 0, \"relative_due_date\": 4, \"duration\": "
      "3}]}}\n";
  std::string path = temp_file("durations.json", text);
  CliRun first = ptmpl("lint --no-config --fail-on warning --fix --unsafe-fixes '" + path + "'");
  EXPECT_EQ(first.exit, 1);
  EXPECT_NE(first.err.find("applied 1 fix"), std::string::npos) << first.err;
  std::string expected = text;
  expected.replace(expected.find("\"duration\": 3"), 13, "\"duration\": 5");
  EXPECT_EQ(slurp(path), expected) << "the template's duration is not written from the unfixed story";
  EXPECT_NE(first.out.find("the template's duration is 7, but its stories span 5 working days"), std::string::npos)
      << first.out;
  CliRun second = ptmpl("lint --no-config --fail-on warning --fix --unsafe-fixes '" + path + "'");
  EXPECT_EQ(second.exit, 0) << second.out;
  expected.replace(expected.find("\"duration\": 7"), 13, "\"duration\": 5");
  EXPECT_EQ(slurp(path), expected);
  std::filesystem::remove(path);
}

TEST(Cli, LintChecksAssigneesAgainstTheListInsideTheTemplate) {
  CliRun r = ptmpl("lint --no-config --fail-on warning tests/data/rules/assignment-unknown/fail-inside.json");
  EXPECT_EQ(r.exit, 1);
  EXPECT_NE(r.out.find("fail-inside.json:6:79: warning: assignee_id 555 of story \"Welcome call\" is not the id of any "
                       "project_template_assignments entry (the file lists 100) [assignment-unknown]"),
            std::string::npos)
      << r.out;
  CliRun both = ptmpl("lint --no-config --fail-on warning tests/data/rules/assignment-list-twice/fail.json");
  EXPECT_EQ(both.exit, 1);
  EXPECT_NE(both.out.find("fail.json:4:37: warning: project_template_assignments is written inside project_template "
                          "and beside it (line 10)"),
            std::string::npos)
      << both.out;
  // The schema types the list in either place.
  CliRun mistyped = ptmpl("lint --no-config tests/data/cli/assignments-inside-mistyped.json");
  EXPECT_EQ(mistyped.exit, 1);
  EXPECT_NE(mistyped.out.find("assignments-inside-mistyped.json:1:77: error: `id` must be an integer, found a string "
                              "[schema]"),
            std::string::npos)
      << mistyped.out;
}

TEST(Cli, LintFormatsForCi) {
  CliRun github = ptmpl("lint --no-config --format github tests/data/cli/syntax-error.json");
  EXPECT_EQ(github.exit, 1);
  EXPECT_EQ(
      github.out,
      "::error file=tests/data/cli/syntax-error.json,line=4,col=5,title=json-syntax::expected ',' or '}' after an "
      "object member\n");
  CliRun junit = ptmpl("lint --no-config --format junit samples/website-launch.json");
  EXPECT_EQ(junit.exit, 0);
  EXPECT_NE(junit.out.find("<testcase name=\"samples/website-launch.json\" classname=\"ptmpl.lint\"></testcase>"),
            std::string::npos)
      << junit.out;
  CliRun sarif = ptmpl("lint --no-config --format sarif samples/lint-demo-broken.json");
  EXPECT_EQ(sarif.exit, 1);
  EXPECT_NE(sarif.out.find("\"version\": \"2.1.0\""), std::string::npos);
  CliRun gitlab = ptmpl("lint --no-config --format gitlab samples/lint-demo-broken.json");
  EXPECT_NE(gitlab.out.find("\"check_name\": \"temp-id-duplicate\""), std::string::npos);
}

TEST(Cli, LintStatisticsAndExitZero) {
  CliRun r = ptmpl("lint --no-config --statistics --exit-zero samples/lint-demo-broken.json");
  EXPECT_EQ(r.exit, 0);
  EXPECT_NE(r.out.find("     2  temp-id-missing\n     2  title-missing\n"), std::string::npos) << r.out;
}

TEST(Cli, LintConfigurationFromTheCommandLine) {
  CliRun with =
      ptmpl("lint --config tests/data/config/project/.ptmpl.json tests/data/config/project/templates/plan.json");
  EXPECT_EQ(with.exit, 1);
  EXPECT_NE(with.out.find("warning: story_type is \"epic\""), std::string::npos) << with.out;
  CliRun found = ptmpl("lint tests/data/config/project/templates/plan.json");
  EXPECT_EQ(found.out, with.out) << "found upward from the file";
  CliRun none = ptmpl("lint --no-config tests/data/config/project/templates/plan.json");
  EXPECT_NE(none.out.find("error: story_type is \"epic\""), std::string::npos) << none.out;
  CliRun bad = ptmpl("lint --config tests/data/config/unknown-rule.ptmpl.json samples/website-launch.json");
  EXPECT_EQ(bad.exit, 2);
  EXPECT_EQ(bad.out, "");
  EXPECT_EQ(
      bad.err,
      "ptmpl lint: tests/data/config/unknown-rule.ptmpl.json:4:5: unknown rule \"temp-id-duplcate\" (did you mean "
      "\"temp-id-duplicate\"?); ptmpl rules lists them\n");
}

}  // namespace
}  // namespace ptmpl::cli_test
