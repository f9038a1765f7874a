// A clock the test drives: time moves only when someone sleeps, at once, to the time asked for.
#pragma once

#include <algorithm>
#include <chrono>
#include <mutex>
#include <vector>

#include "libtemplate/api_client.hpp"

namespace ptmpl::testing {

class FakeClock final : public api::Clock {
 public:
  [[nodiscard]] time_point now() const override {
    std::lock_guard lock(mutex_);
    return now_;
  }
  void sleep_until(time_point when) override {
    std::lock_guard lock(mutex_);
    sleeps_.push_back(when);
    now_ = std::max(now_, when);
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
};

}  // namespace ptmpl::testing
