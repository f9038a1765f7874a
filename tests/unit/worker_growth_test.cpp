// How many workers push keeps busy (WorkerGrowth, libtemplate/src/worker_pool.hpp): decided
// from completion times alone, so a simulated service stands in for the network here, and the
// threads that carry it out (for_each_on_growing_workers) are checked for taking every item once.
#include "worker_pool.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <vector>

namespace ptmpl::detail {
namespace {

using Clock = WorkerGrowth::Clock;

/// Completes `count` items against a service that completes `rate(w)` items a second while `w`
/// workers are wanted; returns the workers wanted after each item.
std::vector<unsigned> simulate(std::size_t count, unsigned first, unsigned most,
                               const std::function<double(unsigned)>& rate) {
  WorkerGrowth growth(count, first, most);
  std::vector<unsigned> wanted;
  Clock::time_point now{};
  for (std::size_t i = 0; i < count; ++i) {
    now += std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / rate(growth.workers())));
    wanted.push_back(growth.completed(now));
  }
  return wanted;
}

TEST(WorkerGrowth, GrowsToTheJobsAskedForWhileEachStepMakesItemsCompleteFaster) {
  // Waiting on the network: each worker completes 20 items a second, whatever the others do.
  auto wanted = simulate(2000, 4, 16, [](unsigned w) { return 20.0 * w; });
  EXPECT_EQ(wanted.back(), 16u);
  // Through each step of half again: 4, 6, 9, 13, 16.
  std::vector<unsigned> steps;
  for (unsigned w : wanted)
    if (steps.empty() || steps.back() != w) steps.push_back(w);
  EXPECT_EQ(steps, (std::vector<unsigned>{4, 6, 9, 13, 16}));
}

TEST(WorkerGrowth, StopsAfterAStepThatDidNotPayAndTakesBackOneThatCostTime) {
  // Waiting on processors that are all busy: more workers, no faster.
  auto flat = simulate(2000, 4, 16, [](unsigned) { return 8000.0; });
  EXPECT_EQ(flat.back(), 6u);
  EXPECT_EQ(*std::max_element(flat.begin(), flat.end()), 6u);
  // Each worker adds its own cost: the step is taken back.
  auto slower = simulate(2000, 4, 16, [](unsigned w) { return 10000.0 / (1.0 + 0.1 * w); });
  EXPECT_EQ(slower.back(), 4u);
  EXPECT_EQ(*std::max_element(slower.begin(), slower.end()), 6u);
  // Faster by less than kGain: kept, but no further step is tried.
  auto little = simulate(2000, 4, 16, [](unsigned w) { return w <= 4 ? 1000.0 : 1100.0; });
  EXPECT_EQ(little.back(), 6u);
}

TEST(WorkerGrowth, NeverGrowsBeyondTheJobsNorWithFewItemsLeft) {
  // As many jobs as the first step: nothing to decide.
  auto fixed = simulate(500, 4, 4, [](unsigned w) { return 20.0 * w; });
  EXPECT_TRUE(std::all_of(fixed.begin(), fixed.end(), [](unsigned w) { return w == 4; }));
  // One job: one worker, whatever is asked as a start.
  auto one = simulate(50, 4, 1, [](unsigned w) { return 20.0 * w; });
  EXPECT_TRUE(std::all_of(one.begin(), one.end(), [](unsigned w) { return w == 1; }));
  // Twenty items: too few for a step to be measured and to pay.
  auto few = simulate(20, 4, 16, [](unsigned w) { return 20.0 * w; });
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
    growth.completed(now);
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

}  // namespace
}  // namespace ptmpl::detail
