// Lint against the same baseline as read_write_bench.cpp (BM_RapidJsonDomParse, same bytes,
// same run): a whole 100,000-story template, and 5,000 small files in one call.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "bench_input.hpp"
#include "libtemplate/core/lint.hpp"
#include "libtemplate/toolkit/toolkit.hpp"

namespace {

// Read + model + every rule, as `ptmpl lint FILE` does for one file: the rules on one thread
// (threads:1), or split over two as the command does on a machine with two cores (threads:2).
// The tree takes its blocks from a pool kept across iterations, as lint_files keeps one across
// files.
void BM_LintLargeTemplate(benchmark::State& state) {
  const std::string& text = ptmpl::bench::large_template();
  std::size_t findings = 0;
  ptmpl::ReadOptions read;
  read.parse.memory = ptmpl::bench::arena_blocks();
  ptmpl::LintOptions options;
  options.threads = static_cast<unsigned>(state.range(0));
  for (auto _ : state) {
    auto file = ptmpl::TemplateFile::parse("bench.json", ptmpl::FileText::borrow(text), read);
    auto diagnostics = ptmpl::lint(file, options);
    findings = diagnostics.size();
    benchmark::DoNotOptimize(diagnostics.data());
  }
  if (findings != 0) state.SkipWithError("the synthetic template should lint clean");
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
  state.counters["MiB"] = static_cast<double>(text.size()) / (1 << 20);
}
BENCHMARK(BM_LintLargeTemplate)->Arg(1)->Arg(2)->ArgName("threads")->Unit(benchmark::kMillisecond)->UseRealTime();

// 5,000 small templates (20 stories each) in a directory, removed when the program ends.
struct TempDirectory {
  std::string path;
  ~TempDirectory() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

const std::string& small_files_directory() {
  static const TempDirectory dir{[] {
    std::string path = std::filesystem::temp_directory_path() / ("ptmpl-bench-" + std::to_string(::getpid()));
    std::filesystem::create_directories(path);
    for (int i = 0; i < 5000; ++i) {
      ptmpl::GenerateOptions options;
      options.stories = 20;
      options.depth = 2;
      options.seed = static_cast<std::uint64_t>(i + 1);
      std::ofstream(path + "/t" + std::to_string(i) + ".json") << ptmpl::generate_template(options).value();
    }
    return path;
  }()};
  return dir.path;
}

std::vector<std::string> small_files() {
  std::vector<std::string> files;
  for (int i = 0; i < 5000; ++i) files.push_back(small_files_directory() + "/t" + std::to_string(i) + ".json");
  return files;
}

// In the library, on all cores, with configuration discovery, as `ptmpl lint DIR` does.
void BM_Lint5000SmallFiles(benchmark::State& state) {
  std::vector<std::string> files = small_files();
  for (auto _ : state) {
    ptmpl::LintRun run = ptmpl::lint_files(files);
    if (!run.diagnostics.empty() || run.linted_count() != files.size()) state.SkipWithError("unexpected findings");
    benchmark::DoNotOptimize(run.files.data());
  }
  state.counters["files"] = static_cast<double>(files.size());
}
BENCHMARK(BM_Lint5000SmallFiles)->Unit(benchmark::kMillisecond)->UseRealTime();

// The whole process: `ptmpl lint DIR --format json`, started, run and waited for.
void BM_Lint5000SmallFilesProcess(benchmark::State& state) {
  std::string command = std::string("'") + PTMPL_BINARY + "' lint '" + small_files_directory() +
                        "' --no-config --format json > /dev/null";
  for (auto _ : state) {
    int status = std::system(command.c_str());
    if (status != 0) state.SkipWithError("ptmpl lint failed");
  }
}
BENCHMARK(BM_Lint5000SmallFilesProcess)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

// One small template through the toolkit, as the Python module's ptmpl.lint(path) calls it:
// the C++ side of the module's per-call overhead (scripts/bench-python.py).
void BM_ToolkitLint(benchmark::State& state) {
  const auto input = ptmpl::toolkit::Input::file(PTMPL_SOURCE_DIR "/samples/software-release.json");
  for (auto _ : state) {
    auto linted = ptmpl::toolkit::lint(input);
    if (!linted.ok()) state.SkipWithError(linted.error().message.c_str());
    benchmark::DoNotOptimize(linted);
  }
}
BENCHMARK(BM_ToolkitLint)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
