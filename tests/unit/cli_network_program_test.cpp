// The network commands run in ptmpl-net, which ptmpl replaces itself with (tools/ptmpl/
// network_program.cpp): the user sees one program, and the others never load the network's
// libraries.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <unistd.h>

#include "cli_run.hpp"

namespace ptmpl::testing {
namespace {

const std::filesystem::path kPtmpl = PTMPL_BINARY;
const std::filesystem::path kNetworkProgram = kPtmpl.parent_path() / "ptmpl-net";

// Runs `program ARGS` from the repository root, standard input closed.
CliRun run_without_input(const std::filesystem::path& program, const std::string& args) {
  return run_program(program.string(), args + " </dev/null");
}

TEST(CliNetworkProgram, EachNetworkCommandAnswersAsPtmplNetDoes) {
  ASSERT_TRUE(std::filesystem::exists(kNetworkProgram)) << kNetworkProgram;
  // Help, a usage error and a run that fails on the network (nothing listens on port 9): the
  // same output, messages and exit code through ptmpl as from ptmpl-net itself.
  for (const std::string args :
       {"push --help", "diff --help", "list --help", "pull --help", "auth --help", "sandbox --help", "push", "auth",
        "list --nonsense", "list --base-url https://127.0.0.1:9 --token t --timeout 5"}) {
    const CliRun through = run_without_input(kPtmpl, args);
    const CliRun direct = run_without_input(kNetworkProgram, args);
    EXPECT_EQ(through.exit, direct.exit) << args;
    EXPECT_EQ(through.out, direct.out) << args;
    EXPECT_EQ(through.err, direct.err) << args;
    EXPECT_FALSE(through.out.empty() && through.err.empty()) << args;
  }
  EXPECT_EQ(run_without_input(kPtmpl, "push --help").exit, 0);
  EXPECT_NE(run_without_input(kPtmpl, "list --base-url https://127.0.0.1:9 --token t --timeout 5").exit, 0);
}

TEST(CliNetworkProgram, OtherCommandsRunInPtmplItself) {
  // ptmpl alone in a folder: its own commands work, and a network command says what is missing.
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / ("ptmpl-alone-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::filesystem::path alone = dir / "ptmpl";
  std::filesystem::copy_file(kPtmpl, alone);
  const CliRun lint = run_without_input(alone, "lint samples/");
  EXPECT_EQ(lint.exit, run_ptmpl("lint samples/").exit) << lint.err;
  EXPECT_EQ(lint.out, run_ptmpl("lint samples/").out);
  EXPECT_EQ(run_without_input(alone, "--help").exit, 0);
  EXPECT_NE(run_without_input(alone, "--help").out.find("push"), std::string::npos);
  const CliRun push = run_without_input(alone, "push --help");
  EXPECT_EQ(push.exit, 2);
  EXPECT_TRUE(push.out.empty());
  EXPECT_NE(push.err.find("ptmpl push: the program of the network commands, ptmpl-net, is not installed"),
            std::string::npos)
      << push.err;
  EXPECT_NE(push.err.find((dir / "ptmpl-net").string()), std::string::npos) << push.err;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ptmpl::testing
