// The one way the library spreads independent items over threads (lint's files, push's
// documents).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
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

/// How many workers a run of requests keeps busy, decided from how fast its items complete: it
/// starts with `first` workers and adds half as many again (at least one), up to `most`, for as
/// long as the last step made items complete at least kGain times as fast. Each worker costs a
/// connection (a TLS handshake on both sides); where the processors, not the network, are what
/// the items wait for, more of them only add that cost, and a push with 16 workers was slower
/// than with 4 (docs/performance.md). A step that made items complete more slowly is taken
/// back: the workers it added stop after their current item. Only times go in, so the
/// decisions are testable without threads.
class WorkerGrowth {
 public:
  using Clock = std::chrono::steady_clock;
  /// How much faster items must complete after a step for the next one to be tried.
  static constexpr double kGain = 1.2;
  /// A measurement lasts at least this long, and this many items (or twice the workers).
  static constexpr Clock::duration kShortestWindow = std::chrono::milliseconds(5);
  static constexpr std::size_t kFewestItems = 8;

  /// `count` items in all, `first` workers at the start (at least 1), never more than `most`.
  WorkerGrowth(std::size_t count, unsigned first, unsigned most)
      : count_(count), most_(std::max(1u, most)), workers_(std::clamp(first, 1u, most_)) {
    settled_ = workers_ == most_;
    starting_ = workers_;
  }

  /// Takes the completion of an item at `now` (in the order they complete; `first_of_worker`:
  /// the first item of the worker that did it, whose time includes its connection) and returns
  /// how many workers are wanted from now on: the ones numbered from this count stop after
  /// their item.
  unsigned completed(Clock::time_point now, bool first_of_worker) {
    ++done_;
    if (settled_) return workers_;
    // Nothing is measured until every worker of the step has made its connection and finished
    // an item: the window opens at the last of those first items.
    if (starting_ > 0) {
      if (first_of_worker && --starting_ == 0) {
        window_start_ = now;
        in_window_ = 0;
      }
      return workers_;
    }
    ++in_window_;
    if (in_window_ < std::max<std::size_t>(kFewestItems, 2 * std::size_t{workers_}) ||
        now - window_start_ < kShortestWindow)
      return workers_;
    const double rate = static_cast<double>(in_window_) / std::chrono::duration<double>(now - window_start_).count();
    if (last_rate_ > 0 && rate < last_rate_) {
      workers_ = last_workers_;  // slower than before the step: back
      settled_ = true;
      return workers_;
    }
    if (last_rate_ > 0 && rate < kGain * last_rate_) {
      settled_ = true;  // no faster: keep what there is, try no more
      return workers_;
    }
    last_rate_ = rate;
    last_workers_ = workers_;
    const unsigned next = std::min(most_, std::max(workers_ + 1, workers_ * 3 / 2));
    // Another step only while enough items are left for it to be measured and to pay.
    if (next == workers_ || count_ - std::min(done_, count_) < 4 * std::size_t{next}) {
      settled_ = true;
      return workers_;
    }
    starting_ = next - workers_;
    workers_ = next;
    return workers_;
  }

  /// The workers wanted now.
  [[nodiscard]] unsigned workers() const { return workers_; }
  /// Whether no further step will be tried.
  [[nodiscard]] bool settled() const { return settled_; }

 private:
  std::size_t count_;
  unsigned most_;
  unsigned workers_;
  bool settled_ = false;
  std::size_t done_ = 0;
  unsigned starting_ = 0;  // workers of the current step yet to finish their first item
  Clock::time_point window_start_{};
  std::size_t in_window_ = 0;
  double last_rate_ = 0;
  unsigned last_workers_ = 0;
};

/// for_each_on_workers for items that wait on a service: with up to `jobs` workers, started as
/// WorkerGrowth decides (from min(jobs, `first`)); a worker it no longer wants stops before
/// taking another item. Every index is still called exactly once, by the calling thread if no
/// other can be had: a thread that cannot be started, or whose make_state() throws, is simply
/// not there (the calling thread's own make_state() is made first, and its exception passes
/// to the caller before any thread starts). `work` must not throw.
template <class MakeState, class Work>
void for_each_on_growing_workers(std::size_t count, unsigned first, unsigned jobs, MakeState make_state, Work work) {
  if (count == 0) return;
  jobs = static_cast<unsigned>(std::min<std::size_t>(std::max(1u, jobs), count));
  using State = decltype(make_state());
  // On the heap rather than in a std::optional, which GCC 12 at -O3 takes for maybe uninitialized
  // when the State is a std::unique_ptr (push_templates' client), depending on what else its
  // translation unit holds.
  auto own_state = std::make_unique<State>(make_state());
  std::atomic<std::size_t> next{0};
  std::mutex mutex;
  WorkerGrowth growth(count, first, jobs);
  std::atomic<unsigned> wanted{growth.workers()};
  std::vector<std::thread> threads;
  bool closed = false;
  // Starts workers up to the number wanted; called with `mutex` held.
  std::function<void()> start_wanted;
  // Worker `number` (0: the calling thread) runs while the growth wants that many.
  auto run = [&](State& state, unsigned number) {
    for (bool first_item = true; number < wanted.load(std::memory_order_relaxed); first_item = false) {
      const std::size_t i = next.fetch_add(1);
      if (i >= count) break;
      work(state, i);
      std::lock_guard lock(mutex);
      wanted = growth.completed(WorkerGrowth::Clock::now(), first_item);
      // Started here, by the worker whose item completed: the calling thread may be busy.
      start_wanted();
    }
  };
  start_wanted = [&] {
    try {
      while (!closed && threads.size() + 1 < wanted && next.load() < count) {
        const auto number = static_cast<unsigned>(threads.size() + 1);
        threads.emplace_back([&run, &make_state, number] {
          std::optional<State> state;
          try {
            state.emplace(make_state());
          } catch (...) {
            return;  // no state (no connection) to be had: the others carry on
          }
          run(*state, number);
        });
      }
    } catch (...) {
      closed = true;  // no more threads to be had: the ones there carry on
    }
  };
  {
    std::lock_guard lock(mutex);
    start_wanted();
  }
  // The calling thread is worker 0, which is always wanted: it runs until every item is taken.
  run(*own_state, 0);
  // Its state goes before the others are waited for, as theirs do when they stop: a state may
  // hold what another worker waits for (a client's seat in the Pacer, counted until its
  // connection ends).
  own_state.reset();
  // Once closed, no thread is added, so the list can be walked.
  {
    std::lock_guard lock(mutex);
    closed = true;
  }
  for (std::thread& t : threads) t.join();
}

}  // namespace ptmpl::detail
