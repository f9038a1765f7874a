// Pacing shared by the workers of one run: a 429 or 503 holds them all (Pacer), on a clock
// the tests can drive; a worker that the service does not answer while it answers others
// waits for one of their connections to end (Pacer::Seat).
#include <algorithm>
#include <thread>
#include <utility>

#include "libtemplate/publish/api_client.hpp"

namespace ptmpl::publish {

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

Pacer::Seat& Pacer::Seat::operator=(Seat&& other) noexcept {
  if (this != &other) {
    give_up();
    pacer_ = std::move(other.pacer_);
    state_ = std::exchange(other.state_, State::kNone);
  }
  return *this;
}

void Pacer::Seat::leave_state() {
  if (state_ == State::kAnswered) --pacer_->answered_;
  if (state_ == State::kTrying) --pacer_->trying_;
  state_ = State::kNone;
}

void Pacer::Seat::wait() {
  if (!pacer_ || state_ != State::kNone) return;
  std::unique_lock lock(pacer_->mutex_);
  pacer_->seats_changed_.wait(lock, [this] { return pacer_->answered_ + pacer_->trying_ < pacer_->limit_; });
  ++pacer_->trying_;
  state_ = State::kTrying;
}

void Pacer::Seat::answered() {
  if (!pacer_ || state_ == State::kAnswered) return;
  std::lock_guard lock(pacer_->mutex_);
  leave_state();
  state_ = State::kAnswered;
  // The service takes at least as many as it answers at once.
  pacer_->limit_ = std::max(pacer_->limit_, ++pacer_->answered_);
}

bool Pacer::Seat::lost() {
  if (!pacer_) return false;
  std::lock_guard lock(pacer_->mutex_);
  leave_state();
  pacer_->seats_changed_.notify_all();
  if (pacer_->answered_ == 0) return false;  // nobody is answered: the service itself failed
  pacer_->limit_ = pacer_->answered_;
  return true;
}

void Pacer::Seat::give_up() {
  if (!pacer_ || state_ == State::kNone) return;
  std::lock_guard lock(pacer_->mutex_);
  leave_state();
  pacer_->seats_changed_.notify_all();
}

}  // namespace ptmpl::publish
