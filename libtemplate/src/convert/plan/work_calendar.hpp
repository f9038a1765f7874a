// The working calendar of a plan: which days work and when a working day begins and ends,
// from the plan's calendar (week days, working times, exceptions old and new style, recurring
// exceptions, base calendars), as MS Project reads them. Private to the converters.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "convert/plan/plan.hpp"
#include "libtemplate/core/calendar.hpp"

namespace ptmpl::plan {

/// A range of dates with its own rule (an exception, or an old-style `DayType` 0 period).
struct DateRule {
  Date from;
  Date to;  ///< inclusive
  DayRule rule;
  int level = 0;  ///< its calendar's place in the chain of base calendars (0 = the first base)
};

/// A recurring exception (Type 2 to 7, or 1 with a period above 1): one day each time it
/// recurs, from `from` to `to`.
struct Recurrence {
  enum class Kind : std::uint8_t { weekly, monthly, yearly, daily };  ///< in MS Project's order of precedence
  Kind kind = Kind::daily;
  bool relative = false;  ///< monthly, yearly: the nth `item` of the month, not a day number
  Date from;
  Date to;                    ///< inclusive
  std::int64_t period = 1;    ///< daily, weekly, monthly: every `period` days, weeks or months
  unsigned days_of_week = 0;  ///< weekly: bit 0 Sunday … bit 6 Saturday
  unsigned month_day = 1;     ///< absolute: the day of the month (the month's last when it is shorter)
  unsigned month = 1;         ///< yearly: 1 = January
  unsigned item = 0;          ///< relative: 0 day, 1 weekday, 2 weekend day, 3…9 Sunday…Saturday
  unsigned position = 0;      ///< relative: 0…3 the first…fourth, 4 the last
  DayRule rule;
  int level = 0;
  const CalendarException* source = nullptr;  ///< for findings
};

/// What the calendar could not take as the file says: a message and where.
struct CalendarNote {
  Place at;
  std::string message;
};

/// The calendar `uid` of `calendars` (the first of that UID), or nullptr.
[[nodiscard]] const Calendar* find_calendar(const std::vector<Calendar>& calendars, std::int64_t uid);

class WorkCalendar {
 public:
  /// Monday to Friday, 08:00–12:00 and 13:00–17:00: MS Project's Standard calendar.
  WorkCalendar();

  /// At most this many occurrences of recurring exceptions are expanded, all together.
  static constexpr std::int64_t kMaxOccurrences = 1'000'000;

  /// Calendar `uid` of `calendars`, its base calendars first (at most 16 deep). `notes`
  /// receives what cannot be taken as the file says (a recurrence of an unknown type, or one
  /// that names no date). Recurring exceptions apply once `expand` has placed them. The
  /// calendars must outlive the WorkCalendar.
  static WorkCalendar read(const std::vector<Calendar>& calendars, std::int64_t uid, std::vector<CalendarNote>& notes);

  /// Places the exceptions in force on each day from `first` to `last`, plain and recurring
  /// (a later call replaces the earlier one), so that day() takes constant time there; a span
  /// of more than 403 years (the 400 a plan may span, and margins) places none. `notes`
  /// receives a recurrence cut short by kMaxOccurrences.
  void expand(Date first, Date last, std::vector<CalendarNote>& notes);

  /// Whether calendar `uid` has no week days, exceptions or work weeks of its own beyond its
  /// base calendar `base` (so it works exactly as `base` does): MS Project's resource
  /// calendars, mostly.
  [[nodiscard]] static bool plain_child_of(const std::vector<Calendar>& calendars, std::int64_t uid, std::int64_t base);

  [[nodiscard]] DayRule day(Date date) const;
  [[nodiscard]] bool working(Date date) const { return day(date).working; }
  /// The week days that work, before exceptions.
  [[nodiscard]] WorkWeek week() const;

 private:
  void apply(const Calendar& calendar, int level, std::vector<CalendarNote>& notes);
  void place_plain_exceptions();      // fills plain_ over the days of expanded_
  std::array<DayRule, 7> week_;       ///< index 0 = Sunday (DayType 1)
  std::vector<DateRule> exceptions_;  ///< later ones win
  std::vector<Recurrence> recurrences_;
  // The expanded recurrences: for each day from expanded_first_, the recurrence in force
  // (an index into recurrences_), or -1.
  Date expanded_first_;
  std::vector<std::int32_t> expanded_;
  std::vector<std::int32_t> plain_;  // the same days: the plain exception in force (into exceptions_), or -1
};

}  // namespace ptmpl::plan
