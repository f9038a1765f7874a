// Calendars (SPEC §4): working-day offsets, as stories declare them, mapped to calendar dates
// and back, for display and export only. The scheduler itself counts working days.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/result.hpp"

namespace ptmpl {

/// A calendar date (proleptic Gregorian), as days since 1970-01-01.
using Date = std::chrono::sys_days;

/// Parses a strict `YYYY-MM-DD` (four-digit year 0001–9999, a day that exists: no 2027-02-29).
[[nodiscard]] std::optional<Date> parse_date(std::string_view text);
/// `YYYY-MM-DD`.
[[nodiscard]] std::string format_date(Date date);

/// Which days work, and the project's day 0.
///
/// A working week (`workweek`: Monday to Friday; `7day`: every day) minus holidays. Day 0 is
/// the project start: the first working day on or after the start date, so that offsets and
/// dates agree whatever day the start date falls on. Offsets may be negative (work before the
/// project start): day -1 is the last working day before day 0.
///
/// Both directions are exact for any offset whose date lies in years 1–9999, across leap days
/// and year ends, in time logarithmic in the number of holidays (no day-by-day walking).
class Calendar {
 public:
  enum class Week : std::uint8_t {
    Workweek,  ///< Monday to Friday
    SevenDay,  ///< every day works
  };

  /// A calendar starting at `start`. `holidays` need not be sorted or unique; holidays on
  /// days that do not work anyway are ignored.
  Calendar(Week week, Date start, std::vector<Date> holidays = {});

  [[nodiscard]] Week week() const { return week_; }
  /// The date of day 0 (a working day).
  [[nodiscard]] Date day_zero() const { return day_zero_; }
  /// The holidays that fall on working days of the week, sorted and unique.
  [[nodiscard]] std::span<const Date> holidays() const { return holidays_; }

  /// True when `date` is a working day.
  [[nodiscard]] bool is_working_day(Date date) const;

  /// The date of working day `offset`. Absent when it lies outside years 1–9999.
  [[nodiscard]] std::optional<Date> date_of(std::int64_t offset) const;

  /// The offset of `date` when it is a working day; otherwise the offset of the next working
  /// day after it (so a story starting on a Saturday starts on Monday's offset).
  [[nodiscard]] std::int64_t offset_of(Date date) const;

 private:
  /// Working days of the week (ignoring holidays) in [epoch, date), negative before the epoch.
  [[nodiscard]] std::int64_t week_days_before(Date date) const;
  /// The `n`-th working day of the week (ignoring holidays) counted from the epoch (n may be negative).
  [[nodiscard]] Date nth_week_day(std::int64_t n) const;
  /// Holidays (on working days) strictly before `date`.
  [[nodiscard]] std::int64_t holidays_before(Date date) const;
  /// Working days (holidays excluded) in [epoch, date).
  [[nodiscard]] std::int64_t working_days_before(Date date) const;

  Week week_;
  std::vector<Date> holidays_;
  Date day_zero_;
  std::int64_t day_zero_index_ = 0;  ///< working_days_before(day_zero_)
};

/// Reads a holidays file: one `YYYY-MM-DD` per line; blank lines and lines starting with `#`
/// are skipped, as is trailing whitespace (and CR). An error names `path`, the line and what is
/// wrong with it.
[[nodiscard]] Result<std::vector<Date>> parse_holidays(std::string_view text, std::string_view path);

}  // namespace ptmpl
