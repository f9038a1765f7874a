// Primavera P6 and Excel plans (issue 37), each against a baseline in the same run.
//
//   build/release/tests/ptmpl_bench --benchmark_filter='Xer|Xlsx'
//
// XER: converting the 3,994-activity cost-loaded P6 project (tests/data/p6/) against the floor
// of reading it at all: its bytes copied and split into lines and tab-separated fields.
// Excel: converting a workbook of 50,000 stories that ptmpl itself writes (a synthetic template
// exported with --to xlsx) against reading its bytes. The peer for Excel, openpyxl reading the
// same workbook in read-only mode, is a Python program: scripts/bench-xlsx.sh times both.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

#include "convert/xlsx/workbook.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/generator.hpp"

namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

const std::string& xer_bytes() {
  static const std::string bytes = slurp(fs::path(PTMPL_SOURCE_DIR) / "tests/data/p6/SP10-COST-LOADED.xer");
  return bytes;
}

// The floor: the bytes copied (a reader owns its text) and every line split into its fields.
void BM_XerReadAndSplit(benchmark::State& state) {
  const std::string& bytes = xer_bytes();
  for (auto _ : state) {
    std::string text = bytes;
    std::size_t fields = 0;
    std::string_view rest = text;
    while (!rest.empty()) {
      const std::size_t end = rest.find('\n');
      const std::string_view line = rest.substr(0, end);
      for (std::size_t at = 0; at != std::string_view::npos; at = line.find('\t', at + 1)) ++fields;
      rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
    }
    benchmark::DoNotOptimize(fields);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_XerReadAndSplit)->Unit(benchmark::kMillisecond);

void BM_XerConvert(benchmark::State& state) {
  const std::string& bytes = xer_bytes();
  for (auto _ : state) {
    auto converted = ptmpl::convert_plan(bytes, "SP10.xer");
    if (!converted.ok()) state.SkipWithError(converted.error().message.c_str());
    benchmark::DoNotOptimize(converted);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_XerConvert)->Unit(benchmark::kMillisecond);

// A workbook of 50,000 stories written by ptmpl (gen, then the workbook export).
const std::string& workbook_bytes() {
  static const std::string bytes = [] {
    ptmpl::GenerateOptions options;
    options.stories = 50'000;
    options.depth = 1;
    const std::string text = ptmpl::generate_template(options).value();
    auto workbook = ptmpl::export_xlsx(text, "gen.json");
    return workbook.ok() ? workbook.value().document : std::string();
  }();
  return bytes;
}

void BM_XlsxReadBytes(benchmark::State& state) {
  const std::string& bytes = workbook_bytes();
  for (auto _ : state) {
    std::string copy = bytes;
    benchmark::DoNotOptimize(copy.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_XlsxReadBytes)->Unit(benchmark::kMillisecond);

void BM_XlsxConvert50k(benchmark::State& state) {
  const std::string& bytes = workbook_bytes();
  if (bytes.empty()) state.SkipWithError("the workbook could not be written");
  for (auto _ : state) {
    auto converted = ptmpl::convert_plan(bytes, "gen.xlsx");
    if (!converted.ok()) state.SkipWithError(converted.error().message.c_str());
    benchmark::DoNotOptimize(converted);
  }
}
BENCHMARK(BM_XlsxConvert50k)->Unit(benchmark::kMillisecond);

// The work openpyxl's read-only mode does in scripts/bench-xlsx.sh: every cell's value of every
// sheet, the cells counted; no template made.
void BM_XlsxReadCells50k(benchmark::State& state) {
  const std::string& bytes = workbook_bytes();
  std::size_t cells = 0;
  for (auto _ : state) {
    cells = 0;
    auto workbook = ptmpl::detail::xlsx::Workbook::open(bytes, "gen.xlsx");
    if (!workbook.ok()) return state.SkipWithError(workbook.error().message.c_str());
    ptmpl::detail::xlsx::Row row;
    for (std::size_t sheet = 0; sheet < workbook.value().sheet_names().size(); ++sheet) {
      auto rows = workbook.value().rows(sheet);
      if (!rows.ok()) return state.SkipWithError(rows.error().message.c_str());
      for (;;) {
        auto more = rows.value().next(row);
        if (!more.ok()) return state.SkipWithError(more.error().message.c_str());
        if (!more.value()) break;
        cells += row.cells.size();
      }
    }
    benchmark::DoNotOptimize(cells);
  }
  state.counters["cells"] = static_cast<double>(cells);
}
BENCHMARK(BM_XlsxReadCells50k)->Unit(benchmark::kMillisecond);

}  // namespace
