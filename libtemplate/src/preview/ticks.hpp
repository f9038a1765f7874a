// The ticks of a time axis (the terminal Gantt chart and the SVG chart).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libtemplate/core/calendar.hpp"

namespace ptmpl::preview {

/// The working days that get a labelled tick on an axis from day `first` to day `last`: the
/// multiples of a step of 1, 2, 5, 10, 20, 50, 100, … working days, the smallest step whose
/// ticks lie at least `min_gap` units apart when one day spans `units_per_day` units. Ticks
/// fall on multiples of the step (day 0 is always one when in range), so with a workweek
/// calendar a step of 5 or more keeps them on one weekday.
[[nodiscard]] std::vector<std::int64_t> tick_days(std::int64_t first, std::int64_t last, double units_per_day,
                                                  double min_gap);

/// How tick labels are spelled: the offset without a calendar; with one, the date — `MM-DD`
/// when every day from `first` to `last` lies in one year (the year is in the chart's title
/// line), else `YYYY-MM-DD`.
class TickLabels {
 public:
  TickLabels(const std::optional<Calendar>& calendar, std::int64_t first, std::int64_t last);
  [[nodiscard]] std::string operator()(std::int64_t day) const;
  /// The widest label any tick can have (columns).
  [[nodiscard]] std::size_t width() const { return width_; }

 private:
  const std::optional<Calendar>& calendar_;
  bool short_dates_ = false;
  std::size_t width_ = 0;
};

}  // namespace ptmpl::preview
