// How many workers push keeps busy (WorkerGrowth, libtemplate/src/io/worker_pool.hpp): decided
// from completion times alone, so a simulated service stands in for the network here, and the
// threads that carry it out (for_each_on_growing_workers) are checked for taking every item once.
#include "io/worker_pool.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <queue>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

namespace ptmpl::detail {
namespace {

using Clock = WorkerGrowth::Clock;

/// A service and its workers, simulated: each worker takes `item(w)` for an item while `w`
/// workers are at work, and `handshake` more for its first one (its connection). Completes
/// `count` items, starting and stopping workers as the growth says, and returns the workers
/// wanted after each item.
std::vector<unsigned> simulate(std::size_t count, unsigned first, unsigned most,
                               const std::function<std::chrono::duration<double>(unsigned)>& item,
                               std::chrono::duration<double> handshake = {}) {
  WorkerGrowth growth(count, first, most);
  struct Busy {
    double until;
    unsigned number;
    bool first;
    bool operator>(const Busy& other) const { return until > other.until; }
  };
  std::priority_queue<Busy, std::vector<Busy>, std::greater<>> busy;
  unsigned started = 0;
  std::size_t taken = 0;
  double now = 0;
  auto start = [&](unsigned wanted) {
    for (; started < wanted && taken < count; ++started, ++taken)
      busy.push({now + (handshake + item(wanted)).count(), started, true});
  };
  start(growth.workers());
  std::vector<unsigned> wanted;
  while (!busy.empty()) {
    const Busy done = busy.top();
    busy.pop();
    now = done.until;
    const unsigned w = growth.completed(
        Clock::time_point{} + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(now)),
        done.first);
    wanted.push_back(w);
    if (done.number < w && taken < count) {
      busy.push({now + item(w).count(), done.number, false});
      ++taken;
    }
    start(w);
  }
  return wanted;
}

using Seconds = std::chrono::duration<double>;

TEST(WorkerGrowth, GrowsToTheJobsAskedForWhileEachStepMakesItemsCompleteFaster) {
  // Waiting on the network: an item takes 1 ms whatever the others do, a connection 20 ms
  // (two or three round trips); the handshakes of a step are left out of its measurement.
  auto wanted = simulate(
      2000, 4, 16, [](unsigned) { return Seconds(0.001); }, Seconds(0.020));
  EXPECT_EQ(wanted.back(), 16u);
  // Through each step of half again: 4, 6, 9, 13, 16.
  std::vector<unsigned> steps;
  for (unsigned w : wanted)
    if (steps.empty() || steps.back() != w) steps.push_back(w);
  EXPECT_EQ(steps, (std::vector<unsigned>{4, 6, 9, 13, 16}));
}

TEST(WorkerGrowth, StopsAfterAStepThatDidNotPayAndTakesBackOneThatCostTime) {
  // Waiting on processors that are all busy: an item takes as long as the workers share them.
  auto flat = simulate(
      2000, 4, 16, [](unsigned w) { return Seconds(w * 0.000125); }, Seconds(0.003));
  EXPECT_EQ(flat.back(), 6u);
  EXPECT_EQ(*std::max_element(flat.begin(), flat.end()), 6u);
  // Each worker adds its own cost: the step is taken back.
  auto slower = simulate(
      2000, 4, 16, [](unsigned w) { return Seconds(w * 0.0001 * (1.0 + 0.1 * w)); }, Seconds(0.003));
  EXPECT_EQ(slower.back(), 4u);
  EXPECT_EQ(*std::max_element(slower.begin(), slower.end()), 6u);
  // Faster by less than kGain: kept, but no further step is tried.
  auto little = simulate(2000, 4, 16, [](unsigned w) { return Seconds(w <= 4 ? 0.004 : 0.0055); });
  EXPECT_EQ(little.back(), 6u);
  EXPECT_EQ(*std::max_element(little.begin(), little.end()), 6u);
}

TEST(WorkerGrowth, NeverGrowsBeyondTheJobsNorWithFewItemsLeft) {
  auto network = [](unsigned) { return Seconds(0.001); };
  // As many jobs as the first step: nothing to decide.
  auto fixed = simulate(500, 4, 4, network);
  EXPECT_TRUE(std::all_of(fixed.begin(), fixed.end(), [](unsigned w) { return w == 4; }));
  // One job: one worker, whatever is asked as a start.
  auto one = simulate(50, 4, 1, network);
  EXPECT_TRUE(std::all_of(one.begin(), one.end(), [](unsigned w) { return w == 1; }));
  // Twenty items: too few for a step to be measured and to pay.
  auto few = simulate(20, 4, 16, network);
  EXPECT_EQ(*std::max_element(few.begin(), few.end()), 4u);
}

TEST(WorkerGrowth, AMeasurementLastsAtLeastItsShortestWindow) {
  // A million items a second: windows of 8 items would last 8 µs; no decision comes before
  // kShortestWindow has passed since the first workers' first items.
  WorkerGrowth growth(100000, 4, 16);
  Clock::time_point now{};
  std::size_t items = 0;
  while (growth.workers() == 4 && !growth.settled()) {
    now += std::chrono::microseconds(1);
    growth.completed(now, items < 4);
    ++items;
  }
  EXPECT_GE(now - Clock::time_point{}, WorkerGrowth::kShortestWindow);
  EXPECT_GT(items, 4000u);
}

TEST(ForEachOnGrowingWorkers, CallsEveryIndexOnceWithNeverMoreWorkersThanJobs) {
  for (unsigned jobs : {1u, 3u, 16u}) {
    constexpr std::size_t kCount = 3000;
    std::vector<std::atomic<int>> calls(kCount);
    std::atomic<int> states{0};
    std::atomic<int> busy{0};
    std::atomic<int> most_busy{0};
    for_each_on_growing_workers(
        kCount, 2, jobs,
        [&] {
          ++states;
          return 0;
        },
        [&](int&, std::size_t i) {
          const int now = ++busy;
          int seen = most_busy.load();
          while (now > seen && !most_busy.compare_exchange_weak(seen, now)) {
          }
          ++calls[i];
          --busy;
        });
    EXPECT_TRUE(std::all_of(calls.begin(), calls.end(), [](const auto& c) { return c.load() == 1; })) << jobs;
    EXPECT_LE(most_busy.load(), static_cast<int>(jobs));
    EXPECT_LE(states.load(), static_cast<int>(jobs));
    EXPECT_GE(states.load(), static_cast<int>(std::min(jobs, 2u)));
  }
}

TEST(ForEachOnGrowingWorkers, AWorkerWhoseStateCannotBeMadeIsLeftOutAndNoItemIsLost) {
  // Items that wait (as on a network), so that the growth may start workers while they run.
  constexpr std::size_t kCount = 400;
  std::vector<std::atomic<int>> calls(kCount);
  std::atomic<int> made{0};
  for_each_on_growing_workers(
      kCount, 4, 16,
      [&] {
        if (++made == 2) throw std::runtime_error("no connection");
        return 0;
      },
      [&](int&, std::size_t i) {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        ++calls[i];
      });
  EXPECT_TRUE(std::all_of(calls.begin(), calls.end(), [](const auto& c) { return c.load() == 1; }));
  // The calling thread's own state fails: the error is the caller's, and no item was started.
  std::atomic<int> started{0};
  EXPECT_THROW(
      for_each_on_growing_workers(
          10, 4, 4, []() -> int { throw std::runtime_error("no connection"); }, [&](int&, std::size_t) { ++started; }),
      std::runtime_error);
  EXPECT_EQ(started.load(), 0);
}

TEST(ForEachOnGrowingWorkers, TheCallingThreadsStateGoesBeforeTheOthersAreWaitedFor) {
  // A state can hold what another worker waits for (push's clients hold a seat in the Pacer
  // until their connection ends). Here every other worker's first item waits for the calling
  // thread's state to go: were it kept until the others are joined, they would wait in vain.
  std::mutex mutex;
  std::condition_variable gone;
  bool own_gone = false;
  std::atomic<int> made{0};
  std::atomic<int> waited_in_vain{0};
  struct State {
    int number = 0;
    std::function<void()> on_end;
    State(int n, std::function<void()> end) : number(n), on_end(std::move(end)) {}
    State(State&& other) noexcept : number(other.number), on_end(std::exchange(other.on_end, nullptr)) {}
    State& operator=(State&&) = delete;
    ~State() {
      if (on_end) on_end();
    }
  };
  for_each_on_growing_workers(
      40, 4, 4,
      [&] {
        const int number = made++;  // the calling thread makes its own first
        return State(number, number != 0 ? std::function<void()>() : std::function<void()>([&] {
                       std::lock_guard lock(mutex);
                       own_gone = true;
                       gone.notify_all();
                     }));
      },
      [&](State& state, std::size_t) {
        if (state.number == 0) {
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
          return;
        }
        std::unique_lock lock(mutex);
        if (!gone.wait_for(lock, std::chrono::seconds(20), [&] { return own_gone; })) ++waited_in_vain;
      });
  EXPECT_EQ(waited_in_vain.load(), 0);
  EXPECT_GE(made.load(), 2);
}

}  // namespace
}  // namespace ptmpl::detail
