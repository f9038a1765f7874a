// Calendars (docs/semantics.md §4): working-day offsets, as stories declare them, mapped to calendar dates
// and back, for display and export only. The scheduler itself counts working days.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/core/dates.hpp"
#include "libtemplate/core/model.hpp"
#include "libtemplate/core/result.hpp"

namespace ptmpl {

/// Which days work, and the project's day 0.
///
/// A working week minus holidays plus extra working dates. Day 0 is the project start: the
/// first working day on or after the start date, so that offsets and dates agree whatever day
/// the start date falls on. Offsets may be negative (work before the project start): day -1 is
/// the last working day before day 0.
///
/// Both directions are exact for any offset whose date lies in years 1–9999, across leap days
/// and year ends, in time logarithmic in the number of holidays and working dates (no
/// day-by-day walking).
class Calendar {
 public:
  /// A calendar starting at `start`. `holidays` and `working` need not be sorted or unique;
  /// holidays on days the week does not work, and working dates on days it does, change
  /// nothing and are dropped; a date listed in both is a holiday. Precondition: at least one
  /// day of `week` works (callers refuse an empty week first; an empty one is taken as
  /// Monday to Friday).
  Calendar(WorkWeek week, Date start, std::vector<Date> holidays = {}, std::vector<Date> working = {});

  [[nodiscard]] WorkWeek week() const { return week_; }
  /// The date of day 0 (a working day).
  [[nodiscard]] Date day_zero() const { return day_zero_; }
  /// The holidays that fall on working days of the week, sorted and unique.
  [[nodiscard]] std::span<const Date> holidays() const { return holidays_; }
  /// The extra working dates that fall on days the week does not work, sorted and unique.
  [[nodiscard]] std::span<const Date> working_dates() const { return working_; }

  /// True when `date` is a working day.
  [[nodiscard]] bool is_working_day(Date date) const;

  /// The date of working day `offset`. Absent when it lies outside years 1–9999.
  [[nodiscard]] std::optional<Date> date_of(std::int64_t offset) const;

  /// The offset of `date` when it is a working day; otherwise the offset of the next working
  /// day after it (so a story starting on a Saturday starts on Monday's offset).
  [[nodiscard]] std::int64_t offset_of(Date date) const;

  /// The same working days with day 0 moved to the latest start for which working day `due`
  /// falls on `finish`, or on the last working day before `finish` when that date does not work
  /// (docs/semantics.md §14). Absent when that day 0 lies outside years 1–9999.
  [[nodiscard]] std::optional<Calendar> ending_on(std::int64_t due, Date finish) const;

 private:
  /// Working days of the week (ignoring holidays and working dates) in [epoch, date), negative
  /// before the epoch.
  [[nodiscard]] std::int64_t week_days_before(Date date) const;
  /// The `n`-th working day of the week (ignoring holidays and working dates) counted from the
  /// epoch (n may be negative).
  [[nodiscard]] Date nth_week_day(std::int64_t n) const;
  /// Working days (holidays excluded, working dates included) in [epoch, date).
  [[nodiscard]] std::int64_t working_days_before(Date date) const;

  WorkWeek week_;
  int week_size_ = 0;
  std::vector<Date> holidays_;
  std::vector<Date> working_;
  Date day_zero_;
  std::int64_t day_zero_index_ = 0;  ///< working_days_before(day_zero_)
};

/// Reads a holidays file: one `YYYY-MM-DD` per line; blank lines and lines starting with `#`
/// are skipped, as is trailing whitespace (and CR). An error names `path`, the line and what is
/// wrong with it.
[[nodiscard]] Result<std::vector<Date>> parse_holidays(std::string_view text, std::string_view path);

/// The calendar a document's calendar block describes, with `fallback_start` when it has no
/// start and Monday to Friday when it has no week.
[[nodiscard]] Calendar calendar_of(const CalendarBlock& block, Date fallback_start);

/// The deadline of a calendar block that has both a `start` and a `finish` (docs/semantics.md
/// §14): the offset, in working days of the block's calendar from its day 0, of the last day the
/// project may work, the finish itself when it works, else the last working day before it. None
/// unless the block has both (a finish alone places day 0 back from it: the project meets it).
[[nodiscard]] std::optional<std::int64_t> deadline_offset(const CalendarBlock& block);

}  // namespace ptmpl
