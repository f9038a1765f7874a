// Dates and working weekdays as templates write them (docs/semantics.md §4): `YYYY-MM-DD` and `mon` … `sun`.
// The model holds them (the calendar block); calendars (calendar.hpp) count working days with them.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

/// `mon`, `tue`, … `sun` (the calendar block's spelling, docs/semantics.md §4) → the day.
[[nodiscard]] std::optional<std::chrono::weekday> parse_weekday(std::string_view name);
/// The day's name as the calendar block spells it (`mon` … `sun`).
[[nodiscard]] std::string_view weekday_name(std::chrono::weekday day);

}  // namespace ptmpl
