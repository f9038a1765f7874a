// The one way the library spreads independent items over threads (lint's files, push's
// documents).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace ptmpl::detail {

/// Calls `work(state, i)` for every i in [0, count), on up to `jobs` threads (0: one per core;
/// never more than `count`); the calling thread is one of them. Each thread first makes its
/// own `state` with `make_state()` (a connection, say) and then takes the next index whenever
/// it is free, so slow items do not hold fast ones back. `work` must not throw.
template <class MakeState, class Work>
void for_each_on_workers(std::size_t count, unsigned jobs, MakeState make_state, Work work) {
  if (count == 0) return;
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
  jobs = static_cast<unsigned>(std::min<std::size_t>(jobs, count));
  std::atomic<std::size_t> next{0};
  auto run = [&] {
    auto state = make_state();
    for (std::size_t i; (i = next.fetch_add(1)) < count;) work(state, i);
  };
  std::vector<std::thread> threads;
  threads.reserve(jobs - 1);
  for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(run);
  run();
  for (std::thread& t : threads) t.join();
}

}  // namespace ptmpl::detail
