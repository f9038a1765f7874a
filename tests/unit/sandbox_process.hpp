// Running `ptmpl sandbox` as a child process from tests: its first line gives the base URL and
// the CA certificate; it is stopped with SIGTERM or killed with SIGKILL.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace ptmpl::testing {

/// A fresh directory under the test temporary directory, removed by the destructor.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& name) {
    path_ = ::testing::TempDir() + "ptmpl-" + name + "-" + std::to_string(::getpid());
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] std::string file(const std::string& name) const { return path_ + "/" + name; }
  /// Writes `content` to `name` (mode 0600) and returns its path.
  std::string write(const std::string& name, const std::string& content) const {
    std::ofstream(file(name)) << content;
    std::filesystem::permissions(file(name), std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
    return file(name);
  }

 private:
  std::string path_;
};

class SandboxProcess {
 public:
  /// Starts `ptmpl sandbox --listen LISTEN ARGS…` and reads its first line.
  explicit SandboxProcess(const std::vector<std::string>& args, const std::string& listen = "127.0.0.1:0") {
    int out[2];
    if (::pipe(out) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(out[1], STDOUT_FILENO);
      ::close(out[0]);
      ::close(out[1]);
      std::vector<std::string> all = {PTMPL_BINARY, "sandbox", "--listen", listen};
      all.insert(all.end(), args.begin(), args.end());
      std::vector<char*> argv;
      for (auto& a : all) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(PTMPL_BINARY, argv.data());
      ::_exit(127);
    }
    ::close(out[1]);
    stdout_ = ::fdopen(out[0], "r");
    char line[4096];
    if (std::fgets(line, sizeof line, stdout_) == nullptr) return;
    first_line_ = line;
    if (!first_line_.empty() && first_line_.back() == '\n') first_line_.pop_back();
    const std::string prefix = "listening on ";
    auto ca = first_line_.find(" ca=");
    if (first_line_.rfind(prefix, 0) != 0 || ca == std::string::npos) return;
    base_url_ = first_line_.substr(prefix.size(), ca - prefix.size());
    ca_path_ = first_line_.substr(ca + 4);
  }
  ~SandboxProcess() { stop(SIGTERM); }
  SandboxProcess(const SandboxProcess&) = delete;
  SandboxProcess& operator=(const SandboxProcess&) = delete;

  /// Sends `signal` and waits; returns the exit status (-1 if killed by a signal or not running).
  int stop(int signal) {
    if (pid_ <= 0) return -1;
    ::kill(pid_, signal);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    if (stdout_ != nullptr) std::fclose(stdout_);
    stdout_ = nullptr;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  [[nodiscard]] bool ready() const { return !base_url_.empty(); }
  [[nodiscard]] const std::string& first_line() const { return first_line_; }
  /// https://127.0.0.1:PORT/api/v1
  [[nodiscard]] const std::string& base_url() const { return base_url_; }
  /// https://127.0.0.1:PORT
  [[nodiscard]] std::string origin() const { return base_url_.substr(0, base_url_.find("/api/v1")); }
  [[nodiscard]] const std::string& ca_path() const { return ca_path_; }

 private:
  pid_t pid_ = -1;
  std::FILE* stdout_ = nullptr;
  std::string first_line_;
  std::string base_url_;
  std::string ca_path_;
};

}  // namespace ptmpl::testing
