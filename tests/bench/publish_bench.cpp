// Pushing 1,000 template documents (20 stories each) to the sandbox over HTTPS on 127.0.0.1,
// one at a time and with concurrent workers; then pushing them again, when every one is found
// unchanged. Each run starts from an empty sandbox and fresh copies of the files (not timed).
//
//   build/release/tests/ptmpl_bench --benchmark_filter=Push
// PTMPL_BENCH_PUSH_TEMPLATES sets another count.
#include <benchmark/benchmark.h>

#include <sys/resource.h>
#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "libtemplate/core/generator.hpp"
#include "libtemplate/publish/api_client.hpp"
#include "libtemplate/publish/publish.hpp"
#include "libtemplate/sandbox/sandbox.hpp"

namespace {

namespace fs = std::filesystem;
constexpr const char* kToken = "bench-token";

std::size_t template_count() {
  const char* n = std::getenv("PTMPL_BENCH_PUSH_TEMPLATES");
  return n != nullptr ? std::strtoull(n, nullptr, 10) : 1'000;
}

const std::vector<std::string>& documents() {
  static const std::vector<std::string> texts = [] {
    std::vector<std::string> out;
    for (std::size_t i = 1; i <= template_count(); ++i) {
      ptmpl::GenerateOptions options;
      options.stories = 20;
      options.depth = 2;
      options.seed = i;
      out.push_back(ptmpl::generate_template(options).value());
    }
    return out;
  }();
  return texts;
}

/// A sandbox serving an empty data directory, and the documents written afresh.
class PushRun {
 public:
  explicit PushRun(const std::string& name) {
    root_ = fs::temp_directory_path() / ("ptmpl-bench-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "files");
    std::ofstream(root_ / "tokens") << kToken << " 1\n";
    fs::permissions(root_ / "tokens", fs::perms::owner_read | fs::perms::owner_write);
    ptmpl::SandboxOptions options;
    options.data_dir = (root_ / "data").string();
    options.tokens_file = (root_ / "tokens").string();
    sandbox_ = std::move(ptmpl::Sandbox::start(options)).value();
    serving_ = std::thread([this] { sandbox_->serve(); });
    for (std::size_t i = 0; i < documents().size(); ++i) {
      std::string path = (root_ / "files" / ("t" + std::to_string(10000 + i) + ".json")).string();
      std::ofstream(path) << documents()[i];
      locals_.push_back(ptmpl::publish::read_local_template(path, documents()[i]).value());
    }
  }
  ~PushRun() {
    sandbox_->stop();
    serving_.join();
    fs::remove_all(root_);
  }

  /// Verifies the sandbox with `ca_file` from now on (its own CA file by default).
  void use_ca_file(std::string ca_file) { ca_file_ = std::move(ca_file); }
  [[nodiscard]] std::string ca_path() const { return sandbox_->ca_path(); }
  [[nodiscard]] fs::path root() const { return root_; }

  /// Pushes every document with `jobs` workers; false if any failed.
  bool push(unsigned jobs) {
    ptmpl::publish::PushOptions options;
    options.jobs = jobs;
    options.backup_dir = (root_ / "backups").string();
    auto pacer = std::make_shared<ptmpl::publish::Pacer>();
    auto make = [&] {
      ptmpl::publish::ClientOptions client;
      client.base_url = sandbox_->base_url();
      client.token = kToken;
      client.pacer = pacer;
      ptmpl::publish::TransportOptions transport;
      transport.cacert = ca_file_.empty() ? sandbox_->ca_path() : ca_file_;
      return std::make_unique<ptmpl::publish::Client>(client, ptmpl::publish::make_curl_transport(transport));
    };
    auto outcomes = ptmpl::publish::push_templates(locals_, options, make);
    for (const auto& o : outcomes)
      if (o.action == ptmpl::publish::PushAction::Failed) return false;
    return true;
  }

  /// The documents as their files now are (with the ids push wrote back).
  void reread() {
    for (auto& local : locals_) {
      std::ifstream in(local.path);
      std::string text{std::istreambuf_iterator<char>(in), {}};
      local = ptmpl::publish::read_local_template(local.path, text).value();
    }
  }

 private:
  fs::path root_;
  std::unique_ptr<ptmpl::Sandbox> sandbox_;
  std::thread serving_;
  std::vector<ptmpl::publish::LocalTemplate> locals_;
  std::string ca_file_;
};

// Both publish benchmarks run with 1, 4, 8 and 16 workers, in real time.
void with_jobs(benchmark::internal::Benchmark* family) {
  for (int jobs : {1, 4, 8, 16}) family->Arg(jobs);
  family->ArgName("jobs")->Unit(benchmark::kMillisecond)->UseRealTime();
}

// Creates every template: a title lookup and a POST each; the sandbox fsyncs every template
// and push writes each id back into its file (atomically, fsync'ed).
void BM_Push1000Create(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    auto run = std::make_unique<PushRun>("create");
    state.ResumeTiming();
    if (!run->push(static_cast<unsigned>(state.range(0)))) state.SkipWithError("a push failed");
    state.PauseTiming();
    run.reset();
    state.ResumeTiming();
  }
  state.counters["templates"] = static_cast<double>(template_count());
}
BENCHMARK(BM_Push1000Create)->Apply(with_jobs);

// Pushes again what is already there: a GET with raw_json and a comparison each, nothing sent.
// With `bundle`, the client verifies with the system's CA bundle and the sandbox's CA appended
// (as against the service, where every worker's connection is verified with the system's 140
// or so certificates), else with the sandbox's one-certificate file.
void push_unchanged(benchmark::State& state, bool bundle) {
  auto run = std::make_unique<PushRun>("unchanged");
  if (bundle) {
    const char* system_bundle = "/etc/ssl/certs/ca-certificates.crt";
    std::ifstream system(system_bundle);
    if (!system) {
      state.SkipWithError((std::string("no system CA bundle at ") + system_bundle).c_str());
      return;
    }
    std::string file = (run->root() / "bundle.pem").string();
    std::ofstream out(file);
    out << system.rdbuf() << std::ifstream(run->ca_path()).rdbuf();
    out.close();
    run->use_ca_file(file);
  }
  if (!run->push(4)) state.SkipWithError("the first push failed");
  run->reread();
  rusage before{};
  ::getrusage(RUSAGE_SELF, &before);
  for (auto _ : state)
    if (!run->push(static_cast<unsigned>(state.range(0)))) state.SkipWithError("a push failed");
  rusage after{};
  ::getrusage(RUSAGE_SELF, &after);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
  const double runs = static_cast<double>(state.iterations());
  // The whole process's processor time (client and sandbox) and context switches, a push.
  state.counters["cpu_ms"] =
      (seconds(after.ru_utime) + seconds(after.ru_stime) - seconds(before.ru_utime) - seconds(before.ru_stime)) * 1e3 /
      runs;
  state.counters["switches"] =
      static_cast<double>(after.ru_nvcsw + after.ru_nivcsw - before.ru_nvcsw - before.ru_nivcsw) / runs;
  state.counters["templates"] = static_cast<double>(template_count());
}

void BM_Push1000Unchanged(benchmark::State& state) {
  push_unchanged(state, false);
}
BENCHMARK(BM_Push1000Unchanged)->Apply(with_jobs);

void BM_Push1000UnchangedSystemCAs(benchmark::State& state) {
  push_unchanged(state, true);
}
BENCHMARK(BM_Push1000UnchangedSystemCAs)->Apply(with_jobs);

}  // namespace
