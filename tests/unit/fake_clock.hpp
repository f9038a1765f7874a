// A clock the test drives: time moves only when someone sleeps, at once, to the time asked for.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <vector>

#include "libtemplate/publish/api_client.hpp"

namespace ptmpl::testing {

class FakeClock final : public publish::Clock {
 public:
  [[nodiscard]] time_point now() const override {
    std::lock_guard lock(mutex_);
    return now_;
  }
  void sleep_until(time_point when) override {
    std::lock_guard lock(mutex_);
    sleeps_.push_back(when);
    sleep_events_.push_back(next_event());
    now_ = std::max(now_, when);
  }
  /// One count shared by the sleeps and whatever the test numbers with it, so that the test
  /// can tell which of its events came after a sleeper asked to wait.
  std::uint64_t next_event() { return events_.fetch_add(1) + 1; }
  /// The event number of the first sleep that asked to wake at `when`; 0 if none did.
  [[nodiscard]] std::uint64_t first_sleep_until(time_point when) const {
    std::lock_guard lock(mutex_);
    for (std::size_t i = 0; i < sleeps_.size(); ++i)
      if (sleeps_[i] == when) return sleep_events_[i];
    return 0;
  }
  /// Every time a sleeper asked to wake at, in order.
  [[nodiscard]] std::vector<time_point> sleeps() const {
    std::lock_guard lock(mutex_);
    return sleeps_;
  }
  /// The clock's start: tests read offsets from it.
  static time_point epoch() { return time_point{} + std::chrono::hours(1); }

 private:
  mutable std::mutex mutex_;
  time_point now_ = epoch();
  std::vector<time_point> sleeps_;
  std::vector<std::uint64_t> sleep_events_;
  std::atomic<std::uint64_t> events_{0};
};

}  // namespace ptmpl::testing
