// Working-day offsets for the plan readers: how many working days lie between a plan's day 0
// and any date, through whichever calendar the plan carries (MS Project's, GanttProject's).
// Private to the converters.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "libtemplate/core/calendar.hpp"
#include "libtemplate/core/model.hpp"

namespace ptmpl::detail {

/// Counts working days from day 0 (the first working day on or after the project start) to
/// any date, with a table built once over the dates the plan uses (plus a margin of 400 days
/// on both sides; dates beyond it count as the table's ends).
class DayCounter {
 public:
  /// The days of the table on each side of the dates the plan uses.
  static constexpr int kMarginDays = 400;

  /// `working` says whether a date works; it is asked once per day of the table and not kept.
  DayCounter(const std::function<bool(Date)>& working, Date project_start, Date first, Date last);

  [[nodiscard]] Date day_zero() const { return day_zero_; }
  /// The working-day offset of `date` when it works, else of the next working day.
  [[nodiscard]] std::int64_t offset_on_or_after(Date date) const;
  /// The offset of `date` when it works, else of the previous working day.
  [[nodiscard]] std::int64_t offset_on_or_before(Date date) const;
  /// Whether `date` works (false outside the table).
  [[nodiscard]] bool working(Date date) const;

  /// The calendar block (docs/semantics.md §4) that gives the same working days over the table: `start`,
  /// `week`, the table's dates that `week` says work but do not (holidays) and that it says do
  /// not but do (working).
  [[nodiscard]] CalendarBlock calendar_block(Date start, WorkWeek week) const;

 private:
  [[nodiscard]] std::int64_t working_before(Date date) const;  ///< working days in [first_, date)

  Date first_;
  std::vector<std::int32_t> prefix_;  ///< working days in [first_, first_ + i)
  Date day_zero_;
  std::int64_t zero_ = 0;
};

}  // namespace ptmpl::detail
