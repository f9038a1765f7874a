// The one version: the one project() names in the top CMakeLists.txt, which CMake writes into
// libtemplate/core/version.hpp (cmake/version.hpp.in) for the library and the programs.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <regex>
#include <string>

#include "cli_run.hpp"
#include "libtemplate/core/version.hpp"

namespace ptmpl::version_test {
namespace {

// The version of `project(ptmpl VERSION …)` in the top CMakeLists.txt, or "" when it names none.
std::string project_version() {
  std::ifstream in(PTMPL_SOURCE_DIR "/CMakeLists.txt");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::smatch match;
  if (!std::regex_search(text, match, std::regex(R"(project\(ptmpl\s+VERSION\s+([0-9]+\.[0-9]+\.[0-9]+)\s)")))
    return "";
  return match[1];
}

TEST(Version, IsTheProjectsVersion) {
  const std::string project = project_version();
  ASSERT_FALSE(project.empty()) << "no project(ptmpl VERSION MAJOR.MINOR.PATCH …) in CMakeLists.txt";
  EXPECT_EQ(kVersion, project);
}

TEST(Version, PtmplVersionPrintsIt) {
  const testing::CliRun run = testing::run_ptmpl("--version");
  EXPECT_EQ(run.exit, 0) << run.err;
  EXPECT_EQ(run.out, "ptmpl " + std::string(kVersion) + "\n");
}

}  // namespace
}  // namespace ptmpl::version_test
