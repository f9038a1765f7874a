// Read and write of a synthetic template, against RapidJSON's plain DOM parse of the same
// bytes (the physical limit of reading: one parse, nothing kept but the values).
//
//   build/release/tests/ptmpl_bench [--benchmark_filter=...]   (PTMPL_BENCH_STORIES=100000)
// The baseline, BM_RapidJsonDomParse, is in this file; lint_bench.cpp compares with it too.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include <rapidjson/document.h>

#include "bench_input.hpp"
#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/template_file.hpp"
#include "libtemplate/core/writer.hpp"

namespace {

const std::string& input() {
  return ptmpl::bench::large_template();
}

void report(benchmark::State& state) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * input().size()));
  state.counters["MiB"] = static_cast<double>(input().size()) / (1 << 20);
}

// Baseline: RapidJSON DOM, default flags, from the same bytes in memory.
void BM_RapidJsonDomParse(benchmark::State& state) {
  const std::string& text = input();
  for (auto _ : state) {
    rapidjson::Document doc;
    doc.Parse(text.data(), text.size());
    if (doc.HasParseError()) state.SkipWithError("parse error");
    benchmark::DoNotOptimize(doc);
  }
  report(state);
}
BENCHMARK(BM_RapidJsonDomParse)->Unit(benchmark::kMillisecond);

ptmpl::ReadOptions read_options(bool model) {
  ptmpl::ReadOptions options;
  options.build_model = model;
  options.parse.memory = ptmpl::bench::arena_blocks();
  return options;
}

// Read: the file into our tree (every value with its position and spelling, duplicate keys
// found, UTF-8 checked, shape detected), as `fmt` reads it.
void BM_Read(benchmark::State& state) {
  const std::string& text = input();
  for (auto _ : state) {
    auto file = ptmpl::TemplateFile::parse("bench.json", ptmpl::FileText::borrow(text), read_options(false));
    benchmark::DoNotOptimize(file.document().root());
  }
  report(state);
}
BENCHMARK(BM_Read)->Unit(benchmark::kMillisecond);

// Read plus the typed model of every story with its JSON pointer, as `lint` reads it.
void BM_ReadWithModel(benchmark::State& state) {
  const std::string& text = input();
  for (auto _ : state) {
    auto file = ptmpl::TemplateFile::parse("bench.json", ptmpl::FileText::borrow(text), read_options(true));
    benchmark::DoNotOptimize(file.templates().data());
  }
  report(state);
}
BENCHMARK(BM_ReadWithModel)->Unit(benchmark::kMillisecond);

// Write: the canonical pretty form of the parsed tree.
void BM_WriteCanonical(benchmark::State& state) {
  const std::string& text = input();
  auto doc = ptmpl::json::Document::parse(text);
  for (auto _ : state) {
    std::string out = ptmpl::write_canonical(doc.root(), ptmpl::Shape::TemplateDocument);
    benchmark::DoNotOptimize(out.data());
  }
  report(state);
}
BENCHMARK(BM_WriteCanonical)->Unit(benchmark::kMillisecond);

// Read + write, as `ptmpl fmt` does.
void BM_ReadWrite(benchmark::State& state) {
  const std::string& text = input();
  for (auto _ : state) {
    auto file = ptmpl::TemplateFile::parse("bench.json", ptmpl::FileText::borrow(text), read_options(false));
    std::string out = ptmpl::write_canonical(file.document().root(), file.shape());
    benchmark::DoNotOptimize(out.data());
  }
  report(state);
}
BENCHMARK(BM_ReadWrite)->Unit(benchmark::kMillisecond);

// Reading the template's file from the page cache as every command reads one: read_text (a
// MiB at a time, each looked through for the NUL byte that ends a text) against the baseline
// read (all the file's pages populated at once, no look).
const std::string& input_file() {
  static const std::string path = [] {
    std::string name =
        (std::filesystem::temp_directory_path() / ("ptmpl-bench-" + std::to_string(::getpid()) + ".json")).string();
    std::ofstream(name, std::ios::binary) << input();
    std::atexit([] { std::filesystem::remove(input_file()); });
    return name;
  }();
  return path;
}

void BM_ReadFile(benchmark::State& state, bool as_text) {
  for (auto _ : state) {
    auto text = as_text ? ptmpl::FileText::read_text(input_file()) : ptmpl::FileText::read(input_file());
    if (!text.ok()) state.SkipWithError("cannot read");
    benchmark::DoNotOptimize(text.value().text().data());
  }
  report(state);
}
BENCHMARK_CAPTURE(BM_ReadFile, Whole, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ReadFile, AsText, true)->Unit(benchmark::kMillisecond);

}  // namespace
