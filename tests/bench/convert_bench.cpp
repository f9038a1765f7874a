// Converting a large Microsoft Project XML file (50,000 tasks, written by our own exporter from
// a synthetic template) against pugixml's plain parse of the same bytes in the same run.
//
//   build/release/tests/ptmpl_bench --benchmark_filter=Mspdi
// PTMPL_BENCH_MSPDI_TASKS sets another size.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include <pugixml.hpp>

#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/generator.hpp"
#include "libtemplate/core/template_file.hpp"

namespace {

const std::string& mspdi_input() {
  static const std::string text = [] {
    ptmpl::GenerateOptions options;
    const char* tasks = std::getenv("PTMPL_BENCH_MSPDI_TASKS");
    options.stories = tasks != nullptr ? std::strtoull(tasks, nullptr, 10) : 50'000;
    options.depth = 4;
    options.seed = 3;
    const ptmpl::TemplateFile file =
        ptmpl::TemplateFile::parse("bench.json", ptmpl::FileText(ptmpl::generate_template(options).value()));
    return ptmpl::export_mspdi(file).value().document;
  }();
  return text;
}

void mspdi_report(benchmark::State& state) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * mspdi_input().size()));
  state.counters["MiB"] = static_cast<double>(mspdi_input().size()) / (1 << 20);
}

// Baseline: pugixml's DOM parse with default flags, from the same bytes in memory.
void BM_MspdiBaselinePugixmlParse(benchmark::State& state) {
  const std::string& text = mspdi_input();
  for (auto _ : state) {
    pugi::xml_document doc;
    if (!doc.load_buffer(text.data(), text.size())) state.SkipWithError("parse error");
    benchmark::DoNotOptimize(doc.first_child());
  }
  mspdi_report(state);
}
BENCHMARK(BM_MspdiBaselinePugixmlParse)->Unit(benchmark::kMillisecond);

// The whole conversion: parse, calendar, tasks, links, resources, the template written.
void BM_MspdiConvert(benchmark::State& state) {
  const std::string& text = mspdi_input();
  for (auto _ : state) {
    auto converted = ptmpl::convert_mspdi(text, "bench.xml");
    if (!converted.ok()) state.SkipWithError("conversion failed");
    benchmark::DoNotOptimize(converted.value().document.data());
  }
  mspdi_report(state);
}
BENCHMARK(BM_MspdiConvert)->Unit(benchmark::kMillisecond);

}  // namespace
