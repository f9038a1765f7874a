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

#include "libtemplate/core/result.hpp"

namespace ptmpl {

/// A calendar date (proleptic Gregorian), as days since 1970-01-01.
using Date = std::chrono::sys_days;

/// Parses a strict `YYYY-MM-DD` (four-digit year 0001–9999, a day that exists: no 2027-02-29).
[[nodiscard]] std::optional<Date> parse_date(std::string_view text);
/// `YYYY-MM-DD`.
[[nodiscard]] std::string format_date(Date date);

/// The working weekdays of a calendar: a set of the seven days of the week.
class WorkWeek {
 public:
  /// Monday to Friday (`--calendar workweek`, the default).
  [[nodiscard]] static constexpr WorkWeek monday_to_friday() { return WorkWeek(0x1F); }
  /// Every day works (`--calendar 7day`).
  [[nodiscard]] static constexpr WorkWeek every_day() { return WorkWeek(0x7F); }
  /// No day works; add days with `add()`.
  constexpr WorkWeek() = default;

  void add(std::chrono::weekday day) { bits_ = static_cast<std::uint8_t>(bits_ | bit(day)); }
  [[nodiscard]] bool works(std::chrono::weekday day) const { return (bits_ & bit(day)) != 0; }
  /// How many days of the week work (0–7).
  [[nodiscard]] int size() const;
  [[nodiscard]] bool empty() const { return bits_ == 0; }
  /// The working days' names (`mon` … `sun`), Monday first.
  [[nodiscard]] std::vector<std::string_view> names() const;
  /// "Mon–Fri", "every day", or the working days' names ("Sun–Thu", "Mon, Wed, Fri").
  [[nodiscard]] std::string describe() const;
  friend constexpr bool operator==(WorkWeek, WorkWeek) = default;

 private:
  constexpr explicit WorkWeek(std::uint8_t bits) : bits_(bits) {}
  // Bit 0 is Monday, bit 6 Sunday (ISO order).
  static constexpr std::uint8_t bit(std::chrono::weekday day) {
    return static_cast<std::uint8_t>(1U << (day.iso_encoding() - 1));
  }

  std::uint8_t bits_ = 0;
};

/// `mon`, `tue`, … `sun` (the calendar block's spelling, SPEC §4) → the day.
[[nodiscard]] std::optional<std::chrono::weekday> parse_weekday(std::string_view name);
/// The day's name as the calendar block spells it (`mon` … `sun`).
[[nodiscard]] std::string_view weekday_name(std::chrono::weekday day);

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

}  // namespace ptmpl
