// How many of push's workers run at once. `--jobs` is the most: the run starts with a few and
// adds workers while each addition raises the number of templates done a second. Where the
// service (or the machine) is already busy, more workers only add connections, TLS
// handshakes, context switches and cache misses: on the project's two-core machine, pushing
// 1,000 unchanged templates to the sandbox took 231 ms with 4 workers and 270 ms with 8, with
// the same processor time a push (docs/performance.md, "Publish").
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>

namespace ptmpl::api::detail {

class WorkerRamp {
 public:
  using Clock = std::chrono::steady_clock;
  /// Workers that run from the start of a long run (fewer when `most` is fewer): the default
  /// of `--jobs`.
  static constexpr unsigned kStart = 4;
  /// Items a running worker completes in one measurement (after the warm-up), and the
  /// warm-up after a change: the first items of a new worker include its connection.
  static constexpr unsigned kItemsPerWorker = 16;
  static constexpr unsigned kWarmUpPerWorker = 2;
  /// The rise in items a second that keeps an addition (a doubling of the workers). A service
  /// bound by its latency nearly doubles; one bound by its processors stays within noise.
  static constexpr double kGain = 0.15;

  /// Up to `most` workers (at least 1) for `items` items; `now` reads the time (tests pass
  /// their own). Fewer than kItemsPerWorker items a worker are too few to measure, and there a
  /// worker too many costs little while one too few (against a distant service) costs whole
  /// round trips: every worker runs from the start.
  WorkerRamp(unsigned most, std::size_t items, std::function<Clock::time_point()> now = Clock::now);

  /// Before worker `worker` (0-based) takes an item: true at once while it is among the running
  /// ones; else calls `before_waiting` (to close an idle connection) and waits for its turn.
  /// False once end() was called.
  bool admit(unsigned worker, const std::function<void()>& before_waiting = {});
  /// An item was completed (whatever its outcome): the measurement advances, and may add
  /// workers or take the last addition back.
  void completed();
  /// No item is left: every worker waiting in admit() returns false.
  void end();

  /// Workers allowed to run now.
  [[nodiscard]] unsigned running() const;
  /// The most that ran at once.
  [[nodiscard]] unsigned most_running() const;
  /// True once the count no longer changes (the last addition paid nothing, or `most` runs).
  [[nodiscard]] bool settled() const;

 private:
  mutable std::mutex mutex_;
  std::condition_variable turn_;
  std::function<Clock::time_point()> now_;
  unsigned most_;
  unsigned running_;
  unsigned most_running_;
  bool settled_;
  bool ended_ = false;
  unsigned warming_;             // completions still to skip before measuring
  unsigned measured_ = 0;        // completions in the measurement
  Clock::time_point measuring_;  // when the measurement started
  double best_rate_ = 0;         // items a second of the best count so far (0: none measured)
  unsigned best_running_ = 0;
};

}  // namespace ptmpl::api::detail
