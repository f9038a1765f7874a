// Where working days fall on a time axis, in columns (the SVG chart and the HTML page).
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "libtemplate/core/calendar.hpp"
#include "libtemplate/core/intervals.hpp"

namespace ptmpl::preview {

/// Columns narrower than this (px) are not shaded as days off: the scale shows weeks, not days.
inline constexpr double kMinShadedColumnWidth = 6;

/// The columns of an axis from working day `first` to `last`. Without a calendar every column
/// is a working day; with one every column is a calendar day, so weekends and holidays take
/// their room, as on a wall planner. Day differences are taken unsigned: a span between dates
/// near ±2^62 does not fit int64.
class DayColumns {
 public:
  DayColumns(std::int64_t first, std::int64_t last, const std::optional<Calendar>& calendar);
  /// The column where working day `day` begins, clamped to the axis.
  [[nodiscard]] double start(std::int64_t day) const;
  /// The column where working day `day` ends (on a calendar, before the days off that follow it).
  [[nodiscard]] double after(std::int64_t day) const;
  /// Where an interval [start, finish) ends: after its last day, or at its start when empty.
  [[nodiscard]] double end(std::int64_t start, std::int64_t finish) const {
    return finish > start ? after(finish - 1) : this->start(start);
  }
  /// Where a story's first moment lies: the start of its first day, or the end of the day
  /// before when it starts at a day's end (an end-side milestone: on a calendar the end of a
  /// Friday, not the Monday after the weekend).
  [[nodiscard]] double first_moment(const Interval& early) const {
    return early.end_side ? after(early.first_day()) : start(early.start);
  }
  [[nodiscard]] std::uint64_t count() const { return count_; }
  /// The runs of calendar days that do not work, as [first column, columns) pairs; none
  /// without a calendar.
  [[nodiscard]] std::vector<std::pair<std::uint64_t, std::uint64_t>> days_off() const;

 private:
  std::int64_t first_;
  const Calendar* calendar_ = nullptr;  // set when the columns are calendar days
  Date first_date_{};
  std::uint64_t count_ = 1;
};

}  // namespace ptmpl::preview
