// What fresh memory costs on this machine: the physical floor under a whole command's time a
// story at small sizes, where its memory comes in 4 KiB pages (the growth section of
// scripts/perf-report.sh sets these beside it). Each benchmark maps 16 MiB, makes every page
// resident one way, writes a byte in each, and gives it back; `us_per_4KiB` is the time of one
// 4 KiB page's worth.
//
//   build/release/tests/ptmpl_bench --benchmark_filter=BM_FreshPages
#include <benchmark/benchmark.h>

#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <cstdint>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

namespace {

constexpr std::size_t kBytes = std::size_t{16} << 20;
constexpr std::size_t kSmallPage = 4096;

enum class Way { kFaulted, kPopulated, kHugePages };

constexpr std::size_t kHugePage = std::size_t{2} << 20;

// kBytes starting on a huge page, advised to come in huge pages (the system gives them only
// for an aligned 2 MiB that a mapping wholly covers): mapped with a huge page to spare, whose
// start `mapped` is what munmap takes back (with kBytes + kHugePage).
char* map_huge(void*& mapped) {
  mapped = ::mmap(nullptr, kBytes + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) return nullptr;
  const auto at = reinterpret_cast<std::uintptr_t>(mapped);
  char* start = reinterpret_cast<char*>((at + kHugePage - 1) / kHugePage * kHugePage);
#ifdef MADV_HUGEPAGE
  ::madvise(start, kBytes, MADV_HUGEPAGE);
#endif
  return start;
}

void fresh_pages(benchmark::State& state, Way way) {
  std::chrono::steady_clock::duration spent{};
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    char* memory = nullptr;
    void* huge_mapping = nullptr;
    if (way == Way::kHugePages) {
      memory = map_huge(huge_mapping);
    } else {
      void* mapped = ::mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      memory = mapped == MAP_FAILED ? nullptr : static_cast<char*>(mapped);
#ifdef MADV_NOHUGEPAGE
      if (memory != nullptr) ::madvise(memory, kBytes, MADV_NOHUGEPAGE);
#endif
    }
    if (memory == nullptr) {
      state.SkipWithError("no memory mapped");
      return;
    }
    if (way == Way::kPopulated && ::madvise(memory, kBytes, MADV_POPULATE_WRITE) != 0) {
      state.SkipWithError("MADV_POPULATE_WRITE refused (Linux before 5.14)");
      ::munmap(memory, kBytes);
      return;
    }
    for (std::size_t at = 0; at < kBytes; at += kSmallPage) memory[at] = 1;
    benchmark::ClobberMemory();
    spent += std::chrono::steady_clock::now() - start;
    state.PauseTiming();
    if (way == Way::kHugePages)
      ::munmap(huge_mapping, kBytes + kHugePage);
    else
      ::munmap(memory, kBytes);
    state.ResumeTiming();
  }
  const double pages = static_cast<double>(state.iterations() * (kBytes / kSmallPage));
  state.counters["us_per_4KiB"] = std::chrono::duration<double, std::micro>(spent).count() / pages;
}

// One page fault per 4 KiB page, as a program's heap grows.
void BM_FreshPagesFaulted(benchmark::State& state) {
  fresh_pages(state, Way::kFaulted);
}
BENCHMARK(BM_FreshPagesFaulted)->Unit(benchmark::kMillisecond)->UseRealTime();

// Made resident in one call first (as file_io.cpp does for a small file's pages), then written.
void BM_FreshPagesPopulated(benchmark::State& state) {
  fresh_pages(state, Way::kPopulated);
}
BENCHMARK(BM_FreshPagesPopulated)->Unit(benchmark::kMillisecond)->UseRealTime();

// In 2 MiB pages: the baseline, what the same bytes cost at large sizes.
void BM_FreshPagesHuge(benchmark::State& state) {
  fresh_pages(state, Way::kHugePages);
}
BENCHMARK(BM_FreshPagesHuge)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
