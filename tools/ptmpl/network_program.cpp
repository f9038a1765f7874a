// In `ptmpl`: the network commands run in ptmpl-net (tools/ptmpl/CMakeLists.txt), which this
// process replaces itself with, so that the other commands never load libcurl, OpenSSL and
// cpp-httplib. ptmpl-net is looked for beside ptmpl (the build tree), then where it is
// installed (PTMPL_NET_FROM_BINDIR, from the directory of ptmpl).
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "commands.hpp"

namespace ptmpl::cli {

namespace {

constexpr std::array<std::string_view, 8> kNetworkCommands = {"push", "apply", "diff",    "list",
                                                              "pull", "auth",  "sandbox", "__reference"};

// The network commands are registered here too, so that `ptmpl --help` lists them and a
// misspelt command is matched against them; main() hands them to ptmpl-net before parsing,
// so their handlers do not run.
std::function<int()> forwarded(CLI::App& app) {
  app.allow_extras();
  return [] {
    report_note("", "internal error: a network command was not handed to ptmpl-net");
    return int{kUsage};
  };
}

}  // namespace

std::function<int()> setup_apply(CLI::App& app) {
  return forwarded(app);
}
std::function<int()> setup_auth(CLI::App& app) {
  return forwarded(app);
}
std::function<int()> setup_diff(CLI::App& app) {
  return forwarded(app);
}
std::function<int()> setup_list(CLI::App& app) {
  return forwarded(app);
}
std::function<int()> setup_pull(CLI::App& app) {
  return forwarded(app);
}
std::function<int()> setup_push(CLI::App& app) {
  return forwarded(app);
}
std::function<int()> setup_sandbox(CLI::App& app) {
  return forwarded(app);
}

bool is_network_command(std::string_view name) {
  return std::find(kNetworkCommands.begin(), kNetworkCommands.end(), name) != kNetworkCommands.end();
}

int run_network_program(std::string_view command, char** argv) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) {
    report_note(command, "cannot find the program of the network commands, ptmpl-net: /proc/self/exe: " + ec.message());
    return kUsage;
  }
  const fs::path directory = self.parent_path();
  const std::vector<fs::path> candidates = {directory / "ptmpl-net",
                                            (directory / PTMPL_NET_FROM_BINDIR).lexically_normal()};
  for (const fs::path& candidate : candidates) {
    if (::access(candidate.c_str(), X_OK) != 0) continue;
    ::execv(candidate.c_str(), argv);
    const int failure = errno;
    report_note(command, "cannot run " + candidate.string() + ": " + std::strerror(failure));
    return kUsage;
  }
  report_note(command, "the program of the network commands, ptmpl-net, is not installed (looked for " +
                           candidates[0].string() + " and " + candidates[1].string() + "); reinstall ptmpl");
  return kUsage;
}

}  // namespace ptmpl::cli
