// The working calendar of an MS Project XML file: which days work and when a working day
// begins and ends, from the project's calendar (week days, working times, exceptions old and
// new style, base calendars). Private to the MSPDI reader.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <pugixml.hpp>

#include "libtemplate/calendar.hpp"

namespace ptmpl::mspdi {

/// A date and a time of day, as MSPDI writes them (`2024-10-21T08:00:00`).
struct DateTime {
  Date date;
  int minute = 0;  ///< minutes since midnight
};

[[nodiscard]] std::optional<DateTime> parse_datetime(std::string_view text);

/// What a calendar says about one kind of day.
struct DayRule {
  bool working = false;
  int start = 8 * 60;  ///< first working minute
  int end = 17 * 60;   ///< last working minute (exclusive)
};

/// A range of dates with its own rule (an exception, or an old-style `DayType` 0 period).
struct DateRule {
  Date from;
  Date to;  ///< inclusive
  DayRule rule;
};

class WorkCalendar {
 public:
  /// Monday to Friday, 08:00–12:00 and 13:00–17:00: MS Project's Standard calendar.
  WorkCalendar();

  /// Reads calendar `uid` from `<Calendars>`, its base calendars first (at most 16 deep).
  /// `notes` receives what could only be approximated (recurring exceptions).
  static WorkCalendar read(pugi::xml_node calendars, std::int64_t uid, std::vector<std::string>& notes);

  [[nodiscard]] DayRule day(Date date) const;
  [[nodiscard]] bool working(Date date) const { return day(date).working; }
  /// The week days that work, before exceptions.
  [[nodiscard]] WorkWeek week() const;

 private:
  void apply(pugi::xml_node calendar, std::vector<std::string>& notes);

  std::array<DayRule, 7> week_;       ///< index 0 = Sunday (MSPDI DayType 1)
  std::vector<DateRule> exceptions_;  ///< later ones win
};

}  // namespace ptmpl::mspdi
