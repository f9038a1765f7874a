// The language server as editors run it: `ptmpl lsp` over standard input and output, with a
// client that reads its output slowly.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "libtemplate/core/generator.hpp"
#include "lsp_session.hpp"

extern char** environ;

namespace ptmpl::lsp::lsp_stdio_test {
namespace {

using testing::document_params;
using testing::Script;

struct Output {
  std::string bytes;
  int exit_code = -1;
};

// Runs `ptmpl lsp` with `input` on standard input and a pipe of one page on standard output,
// set non-blocking (as some editors leave it), read only after a pause and then a page at a
// time: the server's writes find the pipe full.
Output run_with_slow_reader(const std::string& input) {
  const std::string input_file = ::testing::TempDir() + "ptmpl-lsp-input-" + std::to_string(::getpid());
  std::ofstream(input_file, std::ios::binary) << input;
  int pipe_fds[2];
  EXPECT_EQ(::pipe(pipe_fds), 0);
  ::fcntl(pipe_fds[1], F_SETPIPE_SZ, 4096);
  ::fcntl(pipe_fds[1], F_SETFL, ::fcntl(pipe_fds[1], F_GETFL) | O_NONBLOCK);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, input_file.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[1]);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  char program[] = PTMPL_BINARY;
  char command[] = "lsp";
  char* argv[] = {program, command, nullptr};
  pid_t child = 0;
  EXPECT_EQ(::posix_spawn(&child, program, &actions, nullptr, argv, environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);

  Output out;
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  char page[4096];
  for (ssize_t n; (n = ::read(pipe_fds[0], page, sizeof page)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    out.bytes.append(page, static_cast<std::size_t>(n));
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  ::close(pipe_fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::filesystem::remove(input_file);
  return out;
}

TEST(LspStdio, AClientReadingSlowlyFromANonBlockingPipeGetsEveryMessageWhole) {
  auto generated = generate_template({.stories = 1500, .depth = 3, .deps = std::nullopt, .seed = 5});
  ASSERT_TRUE(generated.ok());
  const std::string uri = "file:///nowhere/big.json";
  // Answers (the request threads) and diagnostics (the lint threads) are written meanwhile,
  // most of them far larger than the pipe.
  Script script;
  script.initialize().open(uri, generated.value());
  for (int id = 1; id <= 6; ++id) {
    script.request(id, "textDocument/documentSymbol", document_params(uri));
    script.change(uri, id + 1, generated.value());
  }
  script.shutdown();
  Output out = run_with_slow_reader(script.text());

  std::istringstream written(out.bytes);
  FrameReader reader(written);
  std::set<std::string> answered;
  std::size_t messages = 0;
  for (;;) {
    Frame frame = reader.read();
    if (frame.status == FrameStatus::End) break;
    ASSERT_EQ(frame.status, FrameStatus::Message) << "after " << messages << " whole messages: " << frame.error;
    json::Document message = json::Document::parse(frame.body);
    ASSERT_TRUE(message.ok()) << "message " << messages << " is not whole: " << frame.body.substr(0, 200);
    ++messages;
    if (const json::Value* id = message.root().find("id"); id != nullptr && message.root().find("method") == nullptr)
      answered.insert(std::string(id->text()));
  }
  EXPECT_EQ(answered, (std::set<std::string>{"0", "1", "2", "3", "4", "5", "6", "9999"}));
  EXPECT_EQ(out.exit_code, 0);
}

}  // namespace
}  // namespace ptmpl::lsp::lsp_stdio_test
