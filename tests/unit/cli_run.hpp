// Running the built ptmpl binary from tests: exit code, standard output and standard error.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace ptmpl::testing {

struct CliRun {
  int exit = -1;
  std::string out;
  std::string err;
};

/// A file name for the standard error of one run: the process id keeps apart the test programs
/// ctest runs at once, the count the commands of one process (two in a row, or on two threads).
inline std::string stderr_file_name() {
  static std::atomic<unsigned> runs{0};
  return ::testing::TempDir() + "ptmpl-stderr-" + std::to_string(::getpid()) + "-" + std::to_string(++runs);
}

/// Runs `PROGRAM ARGS` (ARGS a shell fragment) from the repository root, so paths in the output
/// are relative; `env` is prepended (e.g. "NO_COLOR=1").
inline CliRun run_program(const std::string& program, const std::string& args, const std::string& env = "") {
  const std::string err_file = stderr_file_name();
  const std::string command =
      "cd '" PTMPL_SOURCE_DIR "' && " + env + " '" + program + "' " + args + " 2>'" + err_file + "'";
  CliRun run;
  std::FILE* pipe = ::popen(command.c_str(), "r");
  char buffer[65536];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) run.out.append(buffer, n);
  const int status = ::pclose(pipe);
  run.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(err_file);
  run.err.assign(std::istreambuf_iterator<char>(in), {});
  std::filesystem::remove(err_file);
  return run;
}

/// Runs `ptmpl ARGS` (see run_program).
inline CliRun run_ptmpl(const std::string& args, const std::string& env = "") {
  return run_program(PTMPL_BINARY, args, env);
}

/// A test that runs `ptmpl` on files it writes to a scratch folder of its own (named after the
/// test suite and the process), removed afterwards.
class CliScratchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("ptmpl-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->test_suite_name()) + "-" +
            std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  /// Writes `content` to `name` in the scratch folder; returns its path.
  std::string file(const std::string& name, const std::string& content) {
    std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << content;
    return path;
  }
  /// `ptmpl ARGS` without colour; `env` is prepended.
  static CliRun ptmpl(const std::string& args, const std::string& env = "") {
    return run_ptmpl(args, env + " NO_COLOR=1");
  }
  static std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  static void expect_has(const std::string& text, const std::string& part) {
    EXPECT_NE(text.find(part), std::string::npos) << "missing: " << part << "\nin: " << text;
  }
  static void expect_lacks(const std::string& text, const std::string& part) {
    EXPECT_EQ(text.find(part), std::string::npos) << "unexpected: " << part << "\nin: " << text;
  }

  std::filesystem::path dir_;
};

/// Runs a shell command and returns what it printed on standard output.
inline std::string shell_output(const std::string& command) {
  std::FILE* pipe = ::popen(command.c_str(), "r");
  std::string out;
  char buffer[65536];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  ::pclose(pipe);
  return out;
}

/// Runs `ptmpl ARGS` on a pseudo-terminal (script(1)), so it sees a terminal on standard
/// output; `env` is prepended. Carriage returns the terminal adds are dropped.
inline std::string run_ptmpl_on_terminal(const std::string& args, const std::string& env) {
  std::string out = shell_output("cd '" PTMPL_SOURCE_DIR "' && " + env + " script -qec \"'" PTMPL_BINARY "' " + args +
                                 "\" /dev/null");
  std::string clean;
  for (char c : out)
    if (c != '\r') clean += c;
  return clean;
}

}  // namespace ptmpl::testing
