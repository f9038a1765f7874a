#include "preview/day_columns.hpp"

#include <algorithm>
#include <limits>

namespace ptmpl::preview {

DayColumns::DayColumns(std::int64_t first, std::int64_t last, const std::optional<Calendar>& calendar) : first_(first) {
  std::optional<Date> from = calendar ? calendar->date_of(first) : std::nullopt;
  std::optional<Date> to = calendar ? calendar->date_of(last) : std::nullopt;
  if (from && to) {
    calendar_ = &*calendar;
    first_date_ = *from;
    count_ = static_cast<std::uint64_t>((*to - *from).count()) + 1;
  } else {
    count_ = static_cast<std::uint64_t>(last) - static_cast<std::uint64_t>(first) + 1;
  }
}

double DayColumns::start(std::int64_t day) const {
  if (day <= first_) return 0;
  double offset = 0;
  if (calendar_ != nullptr) {
    std::optional<Date> date = calendar_->date_of(day);
    offset = date ? static_cast<double>((*date - first_date_).count()) : static_cast<double>(count_);
  } else {
    offset = static_cast<double>(static_cast<std::uint64_t>(day) - static_cast<std::uint64_t>(first_));
  }
  return std::min(offset, static_cast<double>(count_));
}

double DayColumns::after(std::int64_t day) const {
  if (calendar_ == nullptr) return start(day == std::numeric_limits<std::int64_t>::max() ? day : day + 1);
  return std::min(start(day) + 1, static_cast<double>(count_));
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> DayColumns::days_off() const {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> runs;
  if (calendar_ == nullptr) return runs;
  for (std::uint64_t c = 0; c < count_; ++c) {
    if (calendar_->is_working_day(first_date_ + std::chrono::days(c))) continue;
    if (!runs.empty() && runs.back().first + runs.back().second == c)
      ++runs.back().second;
    else
      runs.emplace_back(c, 1);
  }
  return runs;
}

}  // namespace ptmpl::preview
