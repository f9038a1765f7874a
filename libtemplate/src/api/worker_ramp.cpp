// How many of push's workers run at once (worker_ramp.hpp).
#include "worker_ramp.hpp"

#include <algorithm>
#include <limits>
#include <utility>

namespace ptmpl::api::detail {

WorkerRamp::WorkerRamp(unsigned most, std::size_t items, std::function<Clock::time_point()> now)
    : now_(std::move(now)),
      most_(std::max(1u, most)),
      running_(items < std::size_t{kItemsPerWorker} * most_ ? most_ : std::min(most_, kStart)),
      most_running_(running_),
      settled_(running_ == most_),
      warming_(kWarmUpPerWorker * running_) {}

bool WorkerRamp::admit(unsigned worker, const std::function<void()>& before_waiting) {
  std::unique_lock lock(mutex_);
  if (ended_) return false;
  if (worker < running_) return true;
  if (before_waiting) {
    lock.unlock();
    before_waiting();
    lock.lock();
  }
  turn_.wait(lock, [&] { return ended_ || worker < running_; });
  return !ended_;
}

void WorkerRamp::completed() {
  std::lock_guard lock(mutex_);
  if (settled_) return;
  const Clock::time_point now = now_();
  if (warming_ > 0) {
    if (--warming_ == 0) {
      measuring_ = now;
      measured_ = 0;
    }
    return;
  }
  if (++measured_ < kItemsPerWorker * running_) return;
  const double seconds = std::chrono::duration<double>(now - measuring_).count();
  const double rate = seconds > 0 ? measured_ / seconds : std::numeric_limits<double>::infinity();
  if (best_rate_ == 0 || rate >= best_rate_ * (1 + kGain)) {
    best_rate_ = rate;
    best_running_ = running_;
    if (running_ < most_) {
      running_ = std::min(most_, running_ * 2);
      most_running_ = std::max(most_running_, running_);
      warming_ = kWarmUpPerWorker * running_;
      turn_.notify_all();
    } else {
      settled_ = true;
    }
  } else {
    // The addition paid nothing: the workers beyond the best count finish their item and wait.
    running_ = best_running_;
    settled_ = true;
  }
}

void WorkerRamp::end() {
  std::lock_guard lock(mutex_);
  ended_ = true;
  turn_.notify_all();
}

unsigned WorkerRamp::running() const {
  std::lock_guard lock(mutex_);
  return running_;
}

unsigned WorkerRamp::most_running() const {
  std::lock_guard lock(mutex_);
  return most_running_;
}

bool WorkerRamp::settled() const {
  std::lock_guard lock(mutex_);
  return settled_;
}

}  // namespace ptmpl::api::detail
