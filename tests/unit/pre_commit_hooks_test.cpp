// .pre-commit-hooks.yaml: each hook's entry is a ptmpl command that passes a clean template,
// fails a bad one, and is documented in docs/ci.md.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

using testing::read_source;
using testing::run_ptmpl;

struct Hook {
  std::string id;
  std::string entry;
  std::string exclude;
};

// The hooks, read from the file's `- id:` items (a flat list of `key: value` lines).
std::vector<Hook> hooks() {
  std::vector<Hook> out;
  std::istringstream lines(read_source(".pre-commit-hooks.yaml"));
  for (std::string line; std::getline(lines, line);) {
    auto value = [&line](const std::string& key) { return line.substr(line.find(key) + key.size()); };
    if (line.rfind("- id: ", 0) == 0)
      out.push_back({value("- id: "), "", ""});
    else if (!out.empty() && line.rfind("  entry: ", 0) == 0)
      out.back().entry = value("  entry: ");
    else if (!out.empty() && line.rfind("  exclude: ", 0) == 0)
      out.back().exclude = value("  exclude: ");
  }
  return out;
}

TEST(PreCommitHooks, EntriesPassACleanTemplateAndFailABadOne) {
  const std::vector<Hook> list = hooks();
  ASSERT_EQ(list.size(), 2u);
  const std::string messy = ::testing::TempDir() + "hook-messy-" + std::to_string(::getpid()) + ".json";
  std::ofstream(messy) << R"([{"title":"Kick-off","temp_id":1}])";
  for (const Hook& hook : list) {
    ASSERT_EQ(hook.entry.rfind("ptmpl ", 0), 0u) << hook.id;
    const std::string command = hook.entry.substr(6);
    EXPECT_EQ(run_ptmpl(command + " samples/website-launch.json samples/office-move.json").exit, 0) << hook.id;
    const std::string bad = hook.id == "ptmpl-lint" ? "samples/lint-demo-broken.json" : messy;
    EXPECT_EQ(run_ptmpl(command + " samples/website-launch.json " + bad).exit, 1) << hook.id;
    // The lint configuration is JSON too, but not a template.
    EXPECT_EQ(hook.exclude, "(^|/)\\.ptmpl\\.json$") << hook.id;
  }
  std::filesystem::remove(messy);
}

TEST(PreCommitHooks, EveryHookIsDocumented) {
  const std::string page = read_source("docs/ci.md");
  for (const Hook& hook : hooks()) EXPECT_NE(page.find("id: " + hook.id + "\n"), std::string::npos) << hook.id;
}

}  // namespace
}  // namespace ptmpl
