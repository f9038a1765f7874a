#include "pager.hpp"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <string>

#include "libtemplate/core/file_io.hpp"

namespace ptmpl::cli {

namespace {

// The pager the environment names: PTMPL_PAGER, else PAGER (each even when set empty), else less.
std::string pager_command() {
  if (const char* own = std::getenv("PTMPL_PAGER")) return own;
  if (const char* pager = std::getenv("PAGER")) return pager;
  return "less";
}

// The terminal's rows, 0 when unknown.
std::size_t terminal_rows() {
  winsize size{};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0) return size.ws_row;
  return 0;
}

// 126 (not executable) and 127 (not found): the shell could not start the pager.
bool pager_did_not_start(int status) {
  return WIFEXITED(status) && (WEXITSTATUS(status) == 126 || WEXITSTATUS(status) == 127);
}

}  // namespace

Status write_paged(std::string_view text) {
  if (::isatty(STDOUT_FILENO) == 0) return write_stdout(text);
  const std::size_t rows = terminal_rows();
  const auto lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  std::string command = pager_command();
  const bool blank = command.find_first_not_of(" \t") == std::string::npos;
  if (rows == 0 || lines <= rows || blank || command == "cat") return write_stdout(text);

  // What C and C++ streams hold reaches the terminal before the pager takes over.
  if (Status flushed = write_stdout(""); !flushed.ok()) return flushed;
  // The child only execs; LESS is set here, where setenv is safe to call.
  if (std::getenv("LESS") == nullptr) ::setenv("LESS", "FRX", 1);
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) return write_stdout(text);
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(ends[0]);
    ::close(ends[1]);
    return write_stdout(text);
  }
  if (child == 0) {
    // Only async-signal-safe calls from here on.
    ::dup2(ends[0], STDIN_FILENO);
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(ends[0]);
  // The keys the user presses in the pager are the pager's: an interrupt meant for it (to stop
  // a search) does not end this process and leave the pager alone on the terminal.
  std::signal(SIGINT, SIG_IGN);
  std::signal(SIGQUIT, SIG_IGN);
  // A pager quit early closes the pipe: the rest is not wanted, and that is no error.
  (void)write_descriptor(ends[1], text, "the pager");
  ::close(ends[1]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (pager_did_not_start(status)) return write_stdout(text);
  return Done{};
}

}  // namespace ptmpl::cli
