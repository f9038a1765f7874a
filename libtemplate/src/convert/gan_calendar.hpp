// The working calendar of a GanttProject `.gan` file: weekend days, "tasks run on weekends",
// and one-off or yearly events (holidays, extra working days), as the plan model's calendar
// says them. Private to the `.gan` reader.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <pugixml.hpp>

#include "convert/plan/plan.hpp"
#include "libtemplate/core/calendar.hpp"

namespace ptmpl::gan {

/// GanttProject's `CalendarEvent.Type`.
enum class EventType : std::uint8_t { Holiday, WorkingDay, Neutral };

class WorkCalendar {
 public:
  /// Saturday and Sunday off, no events: GanttProject's default calendar.
  WorkCalendar();

  /// Reads `<calendars>`: `<default-week>` (in `<day-types>`, or in `<day-types><calendar>` in
  /// old files), `<only-show-weekends>` and the `<date>` events. `problems` receives each event
  /// that could not be read, with its node.
  static WorkCalendar read(pugi::xml_node calendars, std::vector<std::pair<pugi::xml_node, std::string>>& problems);

  /// The calendar as the plan model holds it (UID `uid`), working on the days GanttProject's
  /// rule (WeekendCalendarImpl.getDayMask) says: a holiday never works; a weekend day works
  /// when weekends work or a one-off WORKING_DAY event says so; any other day works.
  [[nodiscard]] plan::Calendar plan_calendar(std::int64_t uid) const;

  [[nodiscard]] bool weekends_work() const { return weekends_work_; }
  /// The week days that work (index 0 = Sunday), before events and "tasks run on weekends".
  [[nodiscard]] std::array<bool, 7> week() const;
  [[nodiscard]] std::size_t holiday_count() const;
  [[nodiscard]] std::size_t working_day_count() const;

 private:
  void add_event(pugi::xml_node node, std::vector<std::pair<pugi::xml_node, std::string>>& problems);

  std::array<bool, 7> weekend_{};  ///< index 0 = Sunday; true: a weekend (non-working) day
  bool weekends_work_ = false;
  std::map<Date, EventType> one_off_;
  std::map<std::pair<unsigned, unsigned>, EventType> yearly_;  ///< by (month, day)
};

}  // namespace ptmpl::gan
