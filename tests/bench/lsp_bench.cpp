// The language server's latency: a 10,000-story document open in serve(), one didChange, and
// the time until its publishDiagnostics arrives; against lint of the same text in-process in
// the same run (the baseline: what the server cannot avoid doing).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <istream>
#include <mutex>
#include <ostream>
#include <span>
#include <streambuf>
#include <string>
#include <thread>

#include "libtemplate/core/generator.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/lint.hpp"
#include "libtemplate/lsp/lsp.hpp"
#include "lsp/framing.hpp"

namespace {

// One direction of a pipe between two threads: what is written is read, in order; reading
// waits for it, and ends once the pipe is closed and empty.
class Pipe : public std::streambuf {
 public:
  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    ready_.notify_all();
  }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    char ch = traits_type::to_char_type(c);
    xsputn(&ch, 1);
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    std::lock_guard lock(mutex_);
    written_.append(s, static_cast<std::size_t>(n));
    ready_.notify_all();
    return n;
  }
  int_type underflow() override {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [&] { return !written_.empty() || closed_; });
    if (written_.empty()) return traits_type::eof();
    reading_.swap(written_);
    written_.clear();
    setg(reading_.data(), reading_.data(), reading_.data() + reading_.size());
    return traits_type::to_int_type(reading_[0]);
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::string written_;
  std::string reading_;
  bool closed_ = false;
};

constexpr std::string_view kUri = "file:///nowhere/bench.json";

const std::string& ten_thousand_stories() {
  static const std::string text = [] {
    ptmpl::GenerateOptions options;
    options.stories = 10'000;
    options.depth = 3;
    options.seed = 1;
    return ptmpl::generate_template(options).value();
  }();
  return text;
}

std::string notification(std::string_view method, const std::string& params) {
  return ptmpl::lsp::frame(R"({"jsonrpc":"2.0","method":")" + std::string(method) + R"(","params":)" + params + "}");
}

// A server on its own thread, fed and read through pipes.
class Session {
 public:
  Session() : in_(&to_server_), out_(&from_server_), reader_(replies_) {
    server_ = std::thread([this] {
      ptmpl::lsp::ServerOptions options;
      ptmpl::lsp::serve(in_, out_, options);
      from_server_.close();
    });
  }
  ~Session() {
    send(ptmpl::lsp::frame(R"({"jsonrpc":"2.0","id":9999,"method":"shutdown"})"));
    send(notification("exit", "null"));
    to_server_.close();
    server_.join();
  }
  void send(const std::string& framed) {
    std::ostream(&to_server_).write(framed.data(), static_cast<std::streamsize>(framed.size()));
  }
  // Reads messages until the diagnostics of `version`; their count of diagnostics.
  std::size_t wait_for_diagnostics(std::int64_t version) {
    for (;;) {
      ptmpl::lsp::Frame frame = reader_.read();
      if (frame.status == ptmpl::lsp::FrameStatus::End) return 0;
      if (frame.status != ptmpl::lsp::FrameStatus::Message) continue;
      auto doc = ptmpl::json::Document::parse(frame.body);
      const ptmpl::json::Value* params = doc.root().find("params");
      if (params == nullptr || params->find("version") == nullptr) continue;
      if (params->find("version")->as_int64() != version) continue;
      return params->find("diagnostics")->items().size();
    }
  }

 private:
  Pipe to_server_;
  Pipe from_server_;
  std::istream in_;
  std::ostream out_;
  std::istream replies_{&from_server_};
  ptmpl::lsp::FrameReader reader_;
  std::thread server_;
};

// didChange (one digit of the template's title, an incremental change) → publishDiagnostics.
void BM_LspDiagnosticsAfterChange(benchmark::State& state) {
  const std::string& text = ten_thousand_stories();
  Session session;
  session.send(ptmpl::lsp::frame(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{}})"));
  session.send(notification("initialized", "{}"));
  session.send(notification("textDocument/didOpen", "{\"textDocument\":{\"uri\":\"" + std::string(kUri) +
                                                        "\",\"languageId\":\"json\",\"version\":1,\"text\":" +
                                                        ptmpl::json::quoted(text) + "}}"));
  session.wait_for_diagnostics(1);
  // The title's line and the column of its first character inside the quotes.
  std::size_t title = text.find("\"title\": \"");
  std::size_t line =
      static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(title), '\n'));
  std::size_t column = title + 10 - (text.rfind('\n', title) + 1);
  std::int64_t version = 1;
  std::size_t findings = 0;
  for (auto _ : state) {
    ++version;
    std::string change =
        "{\"textDocument\":{\"uri\":\"" + std::string(kUri) + "\",\"version\":" + std::to_string(version) +
        "},\"contentChanges\":[{\"range\":{\"start\":{\"line\":" + std::to_string(line) +
        ",\"character\":" + std::to_string(column) + "},\"end\":{\"line\":" + std::to_string(line) +
        ",\"character\":" + std::to_string(column + 1) + "}},\"text\":\"" + std::to_string(version % 10) + "\"}]}";
    std::string framed = notification("textDocument/didChange", change);
    auto start = std::chrono::steady_clock::now();
    session.send(framed);
    findings = session.wait_for_diagnostics(version);
    auto end = std::chrono::steady_clock::now();
    state.SetIterationTime(std::chrono::duration<double>(end - start).count());
  }
  if (findings != 0) state.SkipWithError("the synthetic template should lint clean");
  state.counters["MiB"] = static_cast<double>(text.size()) / (1 << 20);
}
BENCHMARK(BM_LspDiagnosticsAfterChange)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(2.0);

// The baseline: lint of the same text in-process, as the server lints a document (lint_texts,
// one thread, configuration discovery).
void BM_LspBaselineLint(benchmark::State& state) {
  const std::string& text = ten_thousand_stories();
  std::string_view view = text;
  ptmpl::LintSettings settings;
  settings.jobs = 1;
  std::size_t findings = 0;
  for (auto _ : state) {
    auto run = ptmpl::lint_texts({"/nowhere/bench.json"}, std::span(&view, 1), settings);
    findings = run.diagnostics.size();
    benchmark::DoNotOptimize(run.diagnostics.data());
  }
  if (findings != 0) state.SkipWithError("the synthetic template should lint clean");
}
BENCHMARK(BM_LspBaselineLint)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace
