// The CI job that docs/publishing.md gives, run as written against the sandbox: its `run:` steps
// are read from the page itself (so the page and the test cannot drift apart) and run with
// bash as a GitHub runner does (`bash -e -o pipefail`), in a git clone of a repository of
// templates, with `ptmpl` on PATH and the job's secrets in the environment.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "sandbox_process.hpp"
#include "test_files.hpp"

namespace ptmpl::testing::cli_publishing_job_test {
namespace {

namespace fs = std::filesystem;
constexpr const char* kToken = "publishing-job-token-77d1";

/// A step of a job: its `run:` script (steps that only `uses:` an action are not kept).
struct Step {
  std::string script;
};

/// The jobs of the first ```yaml block under "## A CI job" in `markdown`, by name, with their
/// `run:` steps in order. Reads the subset of YAML the page uses: `- run: COMMAND  # comment`
/// and `run: |` blocks. Any other form of `run:` fails the test rather than being skipped.
std::map<std::string, std::vector<Step>> jobs_of(const std::string& markdown) {
  std::map<std::string, std::vector<Step>> jobs;
  auto section = markdown.find("## A CI job");
  auto begin = markdown.find("```yaml\n", section);
  auto end = markdown.find("\n```", begin + 8);
  if (section == std::string::npos || begin == std::string::npos || end == std::string::npos) {
    ADD_FAILURE() << "docs/publishing.md has no ```yaml block under \"## A CI job\"";
    return jobs;
  }
  std::istringstream yaml(markdown.substr(begin + 8, end - begin - 8));
  std::vector<std::string> lines;
  for (std::string line; std::getline(yaml, line);) lines.push_back(line);
  auto indent_of = [](const std::string& line) { return line.find_first_not_of(' '); };
  bool in_jobs = false;
  std::string job;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (line == "jobs:") {
      in_jobs = true;
      continue;
    }
    if (!in_jobs || line.find_first_not_of(' ') == std::string::npos) continue;
    if (indent_of(line) == 2 && line.back() == ':') {
      job = line.substr(2, line.size() - 3);
      jobs[job];
      continue;
    }
    auto run = line.find("run:");
    if (run == std::string::npos || line.find_first_not_of(" -", indent_of(line)) != run) continue;
    std::string rest = line.substr(run + 4);
    if (rest == " |") {  // a block: the lines indented deeper than `run:`
      std::string script;
      for (; i + 1 < lines.size() && (lines[i + 1].empty() || indent_of(lines[i + 1]) > run); ++i)
        script += (lines[i + 1].empty() ? "" : lines[i + 1].substr(run + 2)) + "\n";
      jobs[job].push_back({script});
    } else if (rest.starts_with(' ') && rest.size() > 1) {
      jobs[job].push_back({rest.substr(1) + "\n"});  // bash drops the `# …` comment itself
    } else {
      ADD_FAILURE() << "a form of run: this test does not read: " << line;
    }
  }
  return jobs;
}

std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

struct ShellRun {
  int exit = -1;
  std::string output;  // standard output and error together, as a job's log shows them
};

ShellRun bash(const std::string& dir, const std::string& env, const std::string& script) {
  const std::string file = dir + "/.step.sh";
  std::ofstream(file) << script;
  std::string command =
      "cd '" + dir + "' && env " + env + " bash --noprofile --norc -e -o pipefail '" + file + "' 2>&1";
  ShellRun run;
  std::FILE* pipe = ::popen(command.c_str(), "r");
  char buffer[65536];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) run.output.append(buffer, n);
  const int status = ::pclose(pipe);
  run.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  fs::remove(file);
  return run;
}

class PublishingJobTest : public ::testing::Test {
 protected:
  ScratchDir dir{"publishing-job"};
  std::string tokens = dir.write("tokens", std::string(kToken) + " 1\n");
  std::unique_ptr<SandboxProcess> sandbox;
  std::map<std::string, std::vector<Step>> jobs = jobs_of(read_source("docs/publishing.md"));

  void SetUp() override {
    sandbox = std::make_unique<SandboxProcess>(
        std::vector<std::string>{"--data-dir", dir.file("data"), "--tokens-file", tokens});
    ASSERT_TRUE(sandbox->ready()) << sandbox->first_line();
  }

  /// The runner's environment: ptmpl first on PATH, the job's two secrets, and the sandbox's
  /// CA (a runner talking to the real service needs none). HOME and the lock folder are the
  /// scratch folder's, so nothing outside it is touched.
  std::string environment() const {
    const std::string bin = fs::path(PTMPL_BINARY).parent_path().string();
    return "PATH='" + bin + ":/usr/local/bin:/usr/bin:/bin' HOME='" + dir.path() + "' XDG_STATE_HOME='" +
           dir.file("state") + "' PTMPL_TOKEN=" + kToken + " PTMPL_BASE_URL='" + sandbox->base_url() +
           "' PTMPL_CACERT='" + sandbox->ca_path() + "' NO_COLOR=1 GIT_CONFIG_NOSYSTEM=1";
  }

  /// A repository of templates (the samples that lint clean) pushed to a bare `origin`, and a
  /// clone of it, as actions/checkout leaves the branch. Returns the clone's path.
  std::string checkout() {
    const std::string env = environment();
    const std::string origin = dir.file("origin.git");
    const std::string seed = dir.file("seed");
    fs::create_directories(seed + "/templates");
    for (const auto& path : json_files("samples"))
      if (path.find("broken") == std::string::npos)
        fs::copy_file(source_path(path), seed + "/templates/" + fs::path(path).filename().string());
    ShellRun made = bash(dir.path(), env,
                         "git init -q --bare -b main origin.git\n"
                         "cd seed && git init -q -b main && git add templates\n"
                         "git -c user.name=author -c user.email=author@example.com commit -q -m templates\n"
                         "git push -q ../origin.git main\n"
                         "cd .. && git clone -q origin.git work\n");
    EXPECT_EQ(made.exit, 0) << made.output;
    return dir.file("work");
  }

  /// Runs every step of `job` in `work` as the runner would: the job stops at the first step
  /// that fails. Returns the log.
  std::string run_job(const std::string& job, const std::string& work) {
    EXPECT_TRUE(jobs.contains(job)) << "docs/publishing.md's workflow has no job " << job;
    std::string log;
    for (const Step& step : jobs[job]) {
      ShellRun run = bash(work, environment(), step.script);
      log += "$ " + step.script + run.output;
      EXPECT_EQ(run.exit, 0) << "step of job " << job << " failed:\n" << log;
      if (run.exit != 0) break;
    }
    return log;
  }

  std::string git(const std::string& where, const std::string& args) {
    ShellRun run = bash(where, environment(), "git " + args + "\n");
    EXPECT_EQ(run.exit, 0) << run.output;
    return run.output;
  }
};

TEST_F(PublishingJobTest, ThePageGivesALintJobAndAPublishJobOfCommandsToRun) {
  ASSERT_EQ(jobs.size(), 2u);
  ASSERT_EQ(jobs["lint"].size(), 2u);
  EXPECT_EQ(jobs["lint"][0].script, "ptmpl lint templates/ --format github\n");
  EXPECT_EQ(jobs["lint"][1].script, "ptmpl fmt --check templates/\n");
  ASSERT_EQ(jobs["publish"].size(), 3u);
  EXPECT_TRUE(jobs["publish"][2].script.starts_with("git config user.name")) << jobs["publish"][2].script;
}

TEST_F(PublishingJobTest, LintThenPublishRunGreenAndTheIdsAreCommittedBack) {
  const std::string work = checkout();
  const std::size_t templates = std::distance(fs::directory_iterator(work + "/templates"), fs::directory_iterator());
  ASSERT_GE(templates, 3u);

  // A pull request: lint and the formatting check pass on the samples.
  run_job("lint", work);

  // The merge: the dry run shows the plan, push creates every template, and the last step
  // commits the ids push wrote and pushes that commit to origin.
  std::string log = run_job("publish", work);
  EXPECT_NE(log.find("ptmpl push templates/ --dry-run"), std::string::npos) << log;
  const std::string origin_log = git(dir.file("origin.git"), "log --format=%s main");
  EXPECT_TRUE(origin_log.starts_with("Record template ids from the service\n")) << origin_log;
  const std::string files = git(dir.file("origin.git"), "show --name-only --format= main");
  EXPECT_EQ(static_cast<std::size_t>(std::count(files.begin(), files.end(), '\n')), templates) << files;
  for (const auto& entry : fs::directory_iterator(work + "/templates")) {
    std::ifstream in(entry.path());
    std::string text{std::istreambuf_iterator<char>(in), {}};
    EXPECT_NE(text.find("\"id\": "), std::string::npos) << entry.path();
  }
  const CliRun listed = run_ptmpl("list --mine --format json", environment());
  ASSERT_EQ(listed.exit, 0) << listed.err;
  EXPECT_EQ(count_of(listed.out, "\"id\": "), templates) << listed.out;

  // The next merge changes nothing: push finds every template unchanged, and there is no
  // commit to make.
  run_job("publish", work);
  EXPECT_EQ(git(dir.file("origin.git"), "log --format=%s main"), origin_log);
}

TEST_F(PublishingJobTest, ABrokenTemplateFailsTheLintJobWithAnAnnotationAndIsNeverPublished) {
  const std::string work = checkout();
  fs::copy_file(source_path("samples/lint-demo-broken.json"), work + "/templates/lint-demo-broken.json");
  ShellRun lint = bash(work, environment(), jobs["lint"].at(0).script);
  EXPECT_EQ(lint.exit, 1) << lint.output;
  EXPECT_NE(lint.output.find("::error file=templates/lint-demo-broken.json,line="), std::string::npos) << lint.output;
  // Were it merged anyway, the publish job stops at push, which lints first: nothing is sent.
  ShellRun push = bash(work, environment(), jobs["publish"].at(1).script);
  EXPECT_EQ(push.exit, 1) << push.output;
  const CliRun listed = run_ptmpl("list --mine --format json", environment());
  ASSERT_EQ(listed.exit, 0) << listed.err;
  EXPECT_EQ(listed.out.find("\"id\": "), std::string::npos) << listed.out;
}

}  // namespace
}  // namespace ptmpl::testing::cli_publishing_job_test
