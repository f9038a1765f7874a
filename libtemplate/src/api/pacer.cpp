// Pacing shared by the workers of one run: a 429 or 503 holds them all (Pacer), on a clock
// the tests can drive.
#include <algorithm>
#include <thread>

#include "libtemplate/api_client.hpp"

namespace ptmpl::api {

const std::shared_ptr<Clock>& Clock::system() {
  class SystemClock final : public Clock {
   public:
    [[nodiscard]] time_point now() const override { return std::chrono::steady_clock::now(); }
    void sleep_until(time_point when) override { std::this_thread::sleep_until(when); }
  };
  static const std::shared_ptr<Clock> clock = std::make_shared<SystemClock>();
  return clock;
}

void Pacer::hold(std::chrono::milliseconds wait) {
  std::lock_guard lock(mutex_);
  until_ = std::max(until_, clock_->now() + wait);
}

void Pacer::wait() const {
  Clock::time_point until;
  {
    std::lock_guard lock(mutex_);
    until = until_;
  }
  if (until > clock_->now()) clock_->sleep_until(until);
}

}  // namespace ptmpl::api
