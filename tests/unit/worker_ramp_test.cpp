// How many of push's workers run at once: the ramp adds workers while they raise the items done
// a second, on a clock the test moves.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "api/worker_ramp.hpp"

namespace ptmpl::testing {
namespace {

using api::detail::WorkerRamp;
using namespace std::chrono_literals;

/// A service seen through the times at which items complete: `per_item(running)` is the time
/// between two completions while that many workers run.
template <class PerItem>
void complete(WorkerRamp& ramp, WorkerRamp::Clock::time_point& now, int items, PerItem per_item) {
  for (int i = 0; i < items; ++i) {
    now += per_item(ramp.running());
    ramp.completed();
  }
}

struct Manual {
  WorkerRamp::Clock::time_point now{};
  std::function<WorkerRamp::Clock::time_point()> clock() {
    return [this] { return now; };
  }
};

TEST(WorkerRamp, UpToTheStartingCountEveryWorkerRunsFromTheFirstItemAndTheCountNeverChanges) {
  Manual time;
  WorkerRamp ramp(3, 1000, time.clock());
  EXPECT_EQ(ramp.running(), 3u);
  EXPECT_TRUE(ramp.settled());
  EXPECT_TRUE(ramp.admit(2));
  complete(ramp, time.now, 500, [](unsigned running) { return 10ms / running; });
  EXPECT_EQ(ramp.running(), 3u);
  EXPECT_EQ(ramp.most_running(), 3u);
  EXPECT_EQ(WorkerRamp(0, 1000, time.clock()).running(), 1u);
}

TEST(WorkerRamp, TooFewItemsToMeasureRunEveryWorkerFromTheStart) {
  Manual time;
  // 127 items for 8 workers: fewer than kItemsPerWorker (16) a worker.
  WorkerRamp few(8, 127, time.clock());
  EXPECT_EQ(few.running(), 8u);
  EXPECT_TRUE(few.settled());
  WorkerRamp enough(8, 128, time.clock());
  EXPECT_EQ(enough.running(), WorkerRamp::kStart);
  EXPECT_FALSE(enough.settled());
}

TEST(WorkerRamp, AServiceBoundByItsLatencyGetsEveryWorker) {
  // Each request takes 10 ms, whatever else is in flight: twice the workers, twice the items.
  Manual time;
  WorkerRamp ramp(16, 1000, time.clock());
  EXPECT_EQ(ramp.running(), WorkerRamp::kStart);
  complete(ramp, time.now, 1000, [](unsigned running) { return 10ms / running; });
  EXPECT_EQ(ramp.running(), 16u);
  EXPECT_EQ(ramp.most_running(), 16u);
  EXPECT_TRUE(ramp.settled());
}

TEST(WorkerRamp, AnAdditionThatDoesNotRaiseTheRateIsTakenBack) {
  // A service (or machine) that is busy already: the same 0.25 ms an item, however many run.
  Manual time;
  WorkerRamp ramp(8, 1000, time.clock());
  complete(ramp, time.now, 1000, [](unsigned) { return 250us; });
  EXPECT_EQ(ramp.running(), WorkerRamp::kStart);
  EXPECT_EQ(ramp.most_running(), 8u);
  EXPECT_TRUE(ramp.settled());
}

TEST(WorkerRamp, ARiseBelowTheGainIsNotWorthTheWorkers) {
  // 10% more items a second with twice the workers: below kGain (15%), so back to four.
  Manual time;
  WorkerRamp ramp(8, 1000, time.clock());
  complete(ramp, time.now, 1000, [](unsigned running) { return running > 4 ? 1000us : 1100us; });
  EXPECT_EQ(ramp.running(), 4u);
  // 30% more: kept.
  Manual again;
  WorkerRamp kept(8, 1000, again.clock());
  complete(kept, again.now, 1000, [](unsigned running) { return running > 4 ? 1000us : 1300us; });
  EXPECT_EQ(kept.running(), 8u);
}

TEST(WorkerRamp, TheCountStopsAtTheMostAndAServiceThatSaturatesKeepsTheLastCountThatPaid) {
  Manual time;
  WorkerRamp six(6, 1000, time.clock());
  complete(six, time.now, 1000, [](unsigned running) { return 12ms / running; });
  EXPECT_EQ(six.running(), 6u);
  // Latency-bound up to 8 in flight, no better beyond.
  Manual later;
  WorkerRamp ramp(32, 2000, later.clock());
  complete(ramp, later.now, 2000, [](unsigned running) { return 8ms / std::min(running, 8u); });
  EXPECT_EQ(ramp.running(), 8u);
  EXPECT_EQ(ramp.most_running(), 16u);
}

TEST(WorkerRamp, TheFirstItemsAfterAnAdditionAreNotMeasured) {
  // The new workers' first items include their connections: slow ones in the warm-up do not
  // count against the addition.
  Manual time;
  WorkerRamp ramp(8, 1000, time.clock());
  int since_raise = -1;
  complete(ramp, time.now, 1000, [&](unsigned running) -> std::chrono::microseconds {
    if (running == 8 && ++since_raise < static_cast<int>(WorkerRamp::kWarmUpPerWorker * 8)) return 50ms;
    return running == 8 ? 500us : 1000us;
  });
  EXPECT_EQ(ramp.running(), 8u);
}

TEST(WorkerRamp, AWorkerBeyondTheRunningOnesClosesItsConnectionWaitsAndIsLetInByAnAddition) {
  Manual time;
  WorkerRamp ramp(8, 1000, time.clock());
  std::atomic<bool> closed{false};
  std::atomic<int> admitted{-1};
  std::thread waiting([&] { admitted = ramp.admit(6, [&] { closed = true; }) ? 1 : 0; });
  while (!closed) std::this_thread::yield();
  EXPECT_EQ(admitted, -1);  // still waiting: only four run
  complete(ramp, time.now, 200, [](unsigned running) { return 10ms / running; });
  waiting.join();
  EXPECT_EQ(admitted, 1);
  EXPECT_TRUE(ramp.admit(7));
}

TEST(WorkerRamp, TheEndReleasesEveryWaitingWorker) {
  Manual time;
  WorkerRamp ramp(8, 1000, time.clock());
  std::atomic<int> released{0};
  std::thread a([&] { released += ramp.admit(4) ? 10 : 1; });
  std::thread b([&] { released += ramp.admit(7) ? 10 : 1; });
  ramp.end();
  a.join();
  b.join();
  EXPECT_EQ(released, 2);  // both returned false
  EXPECT_FALSE(ramp.admit(0));
}

}  // namespace
}  // namespace ptmpl::testing
