// Running the built ptmpl binary from tests: exit code, standard output and standard error.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

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

/// Runs `ptmpl ARGS` (a shell fragment) from the repository root, so paths in the output are
/// relative; `env` is prepended (e.g. "NO_COLOR=1").
inline CliRun run_ptmpl(const std::string& args, const std::string& env = "") {
  const std::string err_file = ::testing::TempDir() + "ptmpl-stderr-" + std::to_string(::getpid());
  const std::string command =
      "cd '" PTMPL_SOURCE_DIR "' && " + env + " '" PTMPL_BINARY "' " + args + " 2>'" + err_file + "'";
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
