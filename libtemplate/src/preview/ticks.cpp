#include "preview/ticks.hpp"

#include <algorithm>
#include <limits>

#include "libtemplate/core/story_fields.hpp"

namespace ptmpl::preview {

namespace {

constexpr std::int64_t kMaxStep = std::numeric_limits<std::int64_t>::max() / 10;

// The multiple of `step` at or after `day` (floor division for negative days).
std::int64_t first_multiple(std::int64_t day, std::int64_t step) {
  std::int64_t q = day / step;
  if (q * step < day) ++q;
  return q * step;
}

}  // namespace

std::vector<std::int64_t> tick_days(std::int64_t first, std::int64_t last, double units_per_day, double min_gap) {
  std::int64_t step = 1;
  // 1, 2, 5, 10, 20, 50, …
  for (int i = 0; static_cast<double>(step) * units_per_day < min_gap && step < kMaxStep; ++i)
    step = i % 3 == 1 ? step / 2 * 5 : step * 2;
  std::vector<std::int64_t> days;
  if (last < first) return days;
  for (std::int64_t day = first_multiple(first, step); day <= last; day += step) {
    days.push_back(day);
    if (last - day < step) break;  // no overflow past the last tick
  }
  return days;
}

TickLabels::TickLabels(const std::optional<Calendar>& calendar, std::int64_t first, std::int64_t last)
    : calendar_(calendar) {
  if (calendar_) {
    auto from = calendar_->date_of(first);
    auto to = calendar_->date_of(last);
    short_dates_ = from && to && std::chrono::year_month_day(*from).year() == std::chrono::year_month_day(*to).year();
  }
  width_ = std::max((*this)(first).size(), (*this)(last).size());
}

std::string TickLabels::operator()(std::int64_t day) const {
  std::string text = day_text(day, calendar_);
  if (short_dates_ && text.size() == 10) return text.substr(5);
  return text;
}

}  // namespace ptmpl::preview
