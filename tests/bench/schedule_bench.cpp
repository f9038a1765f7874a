// Scheduling a synthetic template of 1,000,000 stories and 1,000,000 links, against RapidJSON's
// plain DOM parse of the same bytes in the same run (scheduling is linear, like parsing).
//
//   build/release/tests/ptmpl_bench --benchmark_filter=Schedule
// PTMPL_BENCH_SCHEDULE_STORIES sets another size (links: as many as stories).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include <rapidjson/document.h>

#include "libtemplate/core/dependency_graph.hpp"
#include "libtemplate/core/generator.hpp"
#include "libtemplate/core/schedule.hpp"
#include "libtemplate/core/template_file.hpp"

namespace {

const std::string& schedule_input() {
  static const std::string text = [] {
    ptmpl::GenerateOptions options;
    const char* stories = std::getenv("PTMPL_BENCH_SCHEDULE_STORIES");
    options.stories = stories != nullptr ? std::strtoull(stories, nullptr, 10) : 1'000'000;
    options.deps = options.stories;
    options.depth = 4;
    options.seed = 7;
    return ptmpl::generate_template(options).value();
  }();
  return text;
}

// The template read once, outside the timings: the scheduler's input.
const ptmpl::TemplateFile& parsed() {
  static const ptmpl::TemplateFile file =
      ptmpl::TemplateFile::parse("bench.json", ptmpl::FileText::borrow(schedule_input()));
  return file;
}

std::span<const ptmpl::Story> stories() {
  return parsed().templates().at(0).model.stories;
}

void schedule_report(benchmark::State& state) {
  state.counters["MiB"] = static_cast<double>(schedule_input().size()) / (1 << 20);
}

// Baseline: RapidJSON DOM, default flags, of the same bytes.
void BM_ScheduleBaselineDomParse(benchmark::State& state) {
  const std::string& text = schedule_input();
  for (auto _ : state) {
    rapidjson::Document doc;
    doc.Parse(text.data(), text.size());
    if (doc.HasParseError()) state.SkipWithError("parse error");
    benchmark::DoNotOptimize(doc);
  }
  schedule_report(state);
}
BENCHMARK(BM_ScheduleBaselineDomParse)->Unit(benchmark::kMillisecond);

// Forward + backward pass + critical chains on a graph built beforehand.
void BM_SchedulePasses(benchmark::State& state) {
  const ptmpl::DependencyGraph graph(stories());
  for (auto _ : state) {
    const ptmpl::Schedule schedule(graph);
    if (!schedule.ok()) state.SkipWithError("no schedule");
    benchmark::DoNotOptimize(schedule.critical_count());
  }
  state.counters["links"] = static_cast<double>(graph.links().size());
  schedule_report(state);
}
BENCHMARK(BM_SchedulePasses)->Unit(benchmark::kMillisecond);

// The same plus building the dependency graph from the stories (temp_ids resolved, the
// constraint graph laid out): everything `ptmpl schedule` does after reading the file.
void BM_ScheduleWithGraph(benchmark::State& state) {
  for (auto _ : state) {
    const ptmpl::DependencyGraph graph(stories());
    const ptmpl::Schedule schedule(graph);
    if (!schedule.ok()) state.SkipWithError("no schedule");
    benchmark::DoNotOptimize(schedule.critical_count());
  }
  schedule_report(state);
}
BENCHMARK(BM_ScheduleWithGraph)->Unit(benchmark::kMillisecond);

}  // namespace
