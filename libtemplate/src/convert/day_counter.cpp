#include "convert/day_counter.hpp"

#include <algorithm>

namespace ptmpl::detail {

using std::chrono::days;

DayCounter::DayCounter(const std::function<bool(Date)>& working, Date project_start, Date first, Date last) {
  // A margin on both sides: a date at either end may move to the next or previous working day.
  first_ = std::min(first, project_start) - days{kMarginDays};
  const Date end = std::max(last, project_start) + days{kMarginDays};
  const auto count = static_cast<std::size_t>((end - first_).count()) + 1;
  prefix_.resize(count + 1, 0);
  for (std::size_t i = 0; i < count; ++i)
    prefix_[i + 1] = prefix_[i] + (working(first_ + days{static_cast<std::int64_t>(i)}) ? 1 : 0);
  day_zero_ = project_start;
  while (!this->working(day_zero_) && day_zero_ < end) day_zero_ += days{1};
  zero_ = working_before(day_zero_);
}

bool DayCounter::working(Date date) const {
  const std::int64_t i = (date - first_).count();
  if (i < 0 || i + 1 >= static_cast<std::int64_t>(prefix_.size())) return false;
  return prefix_[static_cast<std::size_t>(i) + 1] != prefix_[static_cast<std::size_t>(i)];
}

CalendarBlock DayCounter::calendar_block(Date start, WorkWeek week) const {
  CalendarBlock block;
  block.start = start;
  block.week = week;
  for (std::size_t i = 0; i + 1 < prefix_.size(); ++i) {
    const Date date = first_ + days{static_cast<std::int64_t>(i)};
    const bool works = prefix_[i + 1] != prefix_[i];
    const bool usually = week.works(std::chrono::weekday{date});
    if (usually && !works) block.holidays.push_back(date);
    if (!usually && works) block.working.push_back(date);
  }
  return block;
}

std::int64_t DayCounter::working_before(Date date) const {
  const std::int64_t i =
      std::clamp<std::int64_t>((date - first_).count(), 0, static_cast<std::int64_t>(prefix_.size()) - 1);
  return prefix_[static_cast<std::size_t>(i)];
}

std::int64_t DayCounter::offset_on_or_after(Date date) const {
  // Working days before `date` is also the index of the first working day on or after it.
  return working_before(date) - zero_;
}

std::int64_t DayCounter::offset_on_or_before(Date date) const {
  return working_before(date + days{1}) - 1 - zero_;
}

}  // namespace ptmpl::detail
