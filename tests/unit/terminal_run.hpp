// Running the built ptmpl binary on a pseudo-terminal: what a person at a terminal would see.
#pragma once

#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace ptmpl::testing {

struct TerminalRun {
  int exit = -1;
  std::string out;  // what reached the terminal, carriage returns dropped
};

// Runs `ptmpl ARGS` from the repository root on a new pseudo-terminal of `rows` rows and 100
// columns, with `env` (NAME=VALUE pairs) added to the environment and NO_COLOR set.
inline TerminalRun run_on_pty(const std::vector<std::string>& args, unsigned short rows,
                              const std::vector<std::pair<std::string, std::string>>& env) {
  winsize size{};
  size.ws_row = rows;
  size.ws_col = 100;
  int master = -1;
  const pid_t child = ::forkpty(&master, nullptr, nullptr, &size);
  if (child < 0) return {};
  if (child == 0) {
    if (::chdir(PTMPL_SOURCE_DIR) != 0) ::_exit(126);
    ::unsetenv("COLUMNS");
    ::unsetenv("LESS");
    ::unsetenv("PAGER");
    ::unsetenv("PTMPL_PAGER");
    ::setenv("NO_COLOR", "1", 1);
    for (const auto& [name, value] : env) ::setenv(name.c_str(), value.c_str(), 1);
    std::vector<char*> argv{const_cast<char*>(PTMPL_BINARY)};
    for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    ::execv(PTMPL_BINARY, argv.data());
    ::_exit(127);
  }
  TerminalRun run;
  char buffer[4096];
  for (;;) {
    ssize_t n = ::read(master, buffer, sizeof buffer);
    if (n > 0) {
      for (ssize_t i = 0; i < n; ++i)
        if (buffer[i] != '\r') run.out += buffer[i];
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;  // EIO once the child and the pager have closed the terminal
    }
  }
  ::close(master);
  int status = 0;
  ::waitpid(child, &status, 0);
  run.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

}  // namespace ptmpl::testing
