// Converting Microsoft Project's own .mpp files (issue 17) against the raw cost of reading the
// file: opening the compound file and reading every one of its streams, in the same run; and,
// as a peer, converting the MSPDI twin that the same Project version saved of the same project.
//
//   build/release/tests/ptmpl_bench --benchmark_filter=Mpp
// Two files, from ../shared/corpus/mpp when that folder is beside the repository, else from
// tests/data/mpp/corpus: /0 the largest .mpp, /1 the largest .mpp with a twin (the peer
// compares with that one). PTMPL_BENCH_MPP names another file for /0. No synthetic large .mpp
// can be made: ptmpl writes no .mpp files.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "convert/cfb/compound_file.hpp"
#include "libtemplate/convert/convert.hpp"

namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

struct Input {
  fs::path mpp;
  fs::path twin;  // empty when none
  std::string bytes;
  std::string twin_bytes;
};

// The largest .mpp of `folder` named in its pairs.tsv, with a twin when `paired`.
Input largest(const fs::path& folder, bool paired) {
  Input best;
  std::istringstream lines(slurp(folder / "pairs.tsv"));
  std::string line;
  std::uintmax_t best_size = 0;
  while (std::getline(lines, line)) {
    const std::size_t tab = line.find('\t');
    if (tab == std::string::npos) continue;
    const std::string twin = line.substr(tab + 1, line.find('\t', tab + 1) - tab - 1);
    const fs::path mpp = folder / line.substr(0, tab);
    std::error_code error;
    const std::uintmax_t size = fs::file_size(mpp, error);
    if ((paired && twin.empty()) || error || size <= best_size) continue;
    best_size = size;
    best.mpp = mpp;
    best.twin = twin.empty() ? fs::path() : folder / twin;
  }
  return best;
}

Input load(bool paired) {
  Input out;
  const char* named = std::getenv("PTMPL_BENCH_MPP");
  if (named != nullptr && !paired) {
    out.mpp = named;
  } else {
    const fs::path source = PTMPL_SOURCE_DIR;
    for (const fs::path& folder : {source / "../shared/corpus/mpp", source / "tests/data/mpp/corpus"}) {
      if (!fs::exists(folder / "pairs.tsv")) continue;
      out = largest(folder, paired);
      if (!out.mpp.empty()) break;
    }
  }
  out.bytes = slurp(out.mpp);
  if (!out.twin.empty()) out.twin_bytes = slurp(out.twin);
  return out;
}

const Input& mpp_input(std::int64_t which) {
  static const Input files[2] = {load(false), load(true)};
  return files[which == 0 ? 0 : 1];
}

void mpp_report(benchmark::State& state, const std::string& bytes) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
  state.counters["KiB"] = static_cast<double>(bytes.size()) / 1024;
  state.SetLabel(mpp_input(state.range(0)).mpp.filename().string());
}

// Baseline: the compound file opened and every stream read, from the same bytes in memory.
void BM_MppBaselineReadAllStreams(benchmark::State& state) {
  const std::string& bytes = mpp_input(state.range(0)).bytes;
  for (auto _ : state) {
    auto file = ptmpl::cfb::CompoundFile::open(ptmpl::FileText::borrow(bytes), "bench.mpp");
    if (!file.ok()) {
      state.SkipWithError("not a compound file");
      break;
    }
    std::size_t total = 0;
    for (std::size_t i = 0; i < file.value().entry_count(); ++i) {
      const ptmpl::cfb::Entry& entry = file.value().entry(static_cast<std::uint32_t>(i));
      if (entry.is_storage()) continue;
      auto stream = file.value().read_stream(entry);
      if (stream.ok()) total += stream.value().size();
    }
    benchmark::DoNotOptimize(total);
  }
  mpp_report(state, bytes);
}
BENCHMARK(BM_MppBaselineReadAllStreams)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The whole conversion: compound file, tables, the in-memory MSPDI, the template written.
void BM_MppConvert(benchmark::State& state) {
  const std::string& bytes = mpp_input(state.range(0)).bytes;
  for (auto _ : state) {
    auto converted = ptmpl::convert_plan(bytes, "bench.mpp");
    if (!converted.ok()) {
      state.SkipWithError(converted.error().message.c_str());
      break;
    }
    benchmark::DoNotOptimize(converted.value().document.data());
  }
  mpp_report(state, bytes);
}
BENCHMARK(BM_MppConvert)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The peer: the same project converted from the MSPDI twin.
void BM_MppTwinMspdiConvert(benchmark::State& state) {
  const std::string& bytes = mpp_input(1).twin_bytes;
  if (bytes.empty()) {
    state.SkipWithError("the .mpp has no twin");
    return;
  }
  for (auto _ : state) {
    auto converted = ptmpl::convert_plan(bytes, "bench.xml");
    if (!converted.ok()) {
      state.SkipWithError(converted.error().message.c_str());
      break;
    }
    benchmark::DoNotOptimize(converted.value().document.data());
  }
  mpp_report(state, bytes);
}
BENCHMARK(BM_MppTwinMspdiConvert)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
