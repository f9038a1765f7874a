#include "convert/gan_calendar.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "libtemplate/core/json.hpp"

namespace ptmpl::gan {

namespace {

constexpr const char* kDayAttributes[7] = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};

pugi::xml_node find_element(pugi::xml_node root, std::string_view name) {
  return root.find_node([&](pugi::xml_node n) { return std::string_view(n.name()) == name; });
}

std::optional<EventType> event_type(std::string_view text) {
  // GanttProject before 2.7 wrote holidays without a type.
  if (text.empty() || text == "HOLIDAY") return EventType::Holiday;
  if (text == "WORKING_DAY") return EventType::WorkingDay;
  if (text == "NEUTRAL") return EventType::Neutral;
  return std::nullopt;
}

}  // namespace

WorkCalendar::WorkCalendar() {
  weekend_[0] = true;
  weekend_[6] = true;
}

WorkCalendar WorkCalendar::read(pugi::xml_node calendars,
                                std::vector<std::pair<pugi::xml_node, std::string>>& problems) {
  WorkCalendar calendar;
  if (pugi::xml_node week = find_element(calendars, "default-week")) {
    for (std::size_t d = 0; d < 7; ++d)
      if (pugi::xml_attribute a = week.attribute(kDayAttributes[d])) calendar.weekend_[d] = a.as_int() == 1;
  }
  if (pugi::xml_node only = find_element(calendars, "only-show-weekends"))
    calendar.weekends_work_ = std::string_view(only.attribute("value").as_string()) == "true";
  for (pugi::xml_node event : calendars.children("date")) calendar.add_event(event, problems);
  return calendar;
}

void WorkCalendar::add_event(pugi::xml_node node, std::vector<std::pair<pugi::xml_node, std::string>>& problems) {
  const std::string_view year = node.attribute("year").as_string();
  const auto month = json::parse_int64(node.attribute("month").as_string());
  const auto day = json::parse_int64(node.attribute("date").as_string());
  const std::optional<EventType> type = event_type(node.attribute("type").as_string());
  const std::string what = std::string("the calendar event year=\"") + std::string(year) + "\" month=\"" +
                           node.attribute("month").as_string() + "\" date=\"" + node.attribute("date").as_string() +
                           "\"";
  if (!type) {
    problems.emplace_back(node,
                          what + " has the unknown type \"" + node.attribute("type").as_string() + "\"; it is ignored");
    return;
  }
  if (!month || !day || *month < 1 || *month > 12 || *day < 1 || *day > 31) {
    problems.emplace_back(node, what + " is not a date; it is ignored");
    return;
  }
  if (year.empty()) {  // GanttProject: an event without a year recurs every year
    yearly_[{static_cast<unsigned>(*month), static_cast<unsigned>(*day)}] = *type;
    return;
  }
  char text[11];
  const auto y = json::parse_int64(year);
  const std::optional<Date> date = y && *y >= 1 && *y <= 9999 &&
                                           std::snprintf(text, sizeof text, "%04d-%02d-%02d", static_cast<int>(*y),
                                                         static_cast<int>(*month), static_cast<int>(*day)) == 10
                                       ? parse_date(text)
                                       : std::nullopt;
  if (!date) {
    problems.emplace_back(node, what + " is not a date; it is ignored");
    return;
  }
  one_off_[*date] = *type;
}

plan::Calendar WorkCalendar::plan_calendar(std::int64_t uid) const {
  using namespace std::chrono;
  plan::Calendar out;
  out.uid = uid;
  out.is_base = true;
  for (std::size_t d = 0; d < 7; ++d) {
    plan::WeekDay& week_day = out.week_days.emplace_back();
    week_day.type = static_cast<std::int64_t>(d) + 1;  // DayType 1 = Sunday
    week_day.rule.working = !weekend_[d] || weekends_work_;
  }
  auto holiday_on = [&](Date date) {
    plan::CalendarException& exception = out.exceptions.emplace_back();
    exception.from = exception.to = date;
    exception.rule.working = false;
  };
  // Only a yearly holiday changes a day: a yearly working day makes no weekend day work (only a
  // one-off one does), a neutral day is a colour. A plain exception goes over a recurrence of
  // its calendar, as a one-off event over a yearly one.
  for (const auto& [month_day, type] : yearly_) {
    const auto [m, d] = month_day;
    if (type != EventType::Holiday || !(month{m} / day{d}).ok()) continue;  // 31 April is no day
    if (m == 2 && d == 29) {
      // Only on leap years, where a yearly recurrence would take 28 February in the others.
      for (int y = 4; y <= 9999; y += 4)
        if (year{y}.is_leap()) holiday_on(year{y} / February / 29);
      continue;
    }
    plan::CalendarException& exception = out.exceptions.emplace_back();
    exception.from = year{1} / January / 1;
    exception.to = year{9999} / December / 31;
    exception.rule.working = false;
    exception.type = 2;  // MSPDI's numbering: every year, on a day of a month
    exception.month = {true, static_cast<std::int64_t>(m) - 1, {}};
    exception.month_day = {true, static_cast<std::int64_t>(d), {}};
  }
  // The one-off events last: later exceptions win over earlier ones. A neutral one defers to
  // the yearly events.
  for (const auto& [date, type] : one_off_) {
    if (type == EventType::Neutral) continue;
    if (type == EventType::Holiday) {
      holiday_on(date);
      continue;
    }
    plan::CalendarException& exception = out.exceptions.emplace_back();
    exception.from = exception.to = date;
    exception.rule.working = true;
  }
  return out;
}

std::array<bool, 7> WorkCalendar::week() const {
  std::array<bool, 7> out{};
  for (std::size_t d = 0; d < 7; ++d) out[d] = !weekend_[d];
  return out;
}

std::size_t WorkCalendar::holiday_count() const {
  auto is_holiday = [](const auto& entry) { return entry.second == EventType::Holiday; };
  return static_cast<std::size_t>(std::count_if(one_off_.begin(), one_off_.end(), is_holiday) +
                                  std::count_if(yearly_.begin(), yearly_.end(), is_holiday));
}

std::size_t WorkCalendar::working_day_count() const {
  auto is_working = [](const auto& entry) { return entry.second == EventType::WorkingDay; };
  return static_cast<std::size_t>(std::count_if(one_off_.begin(), one_off_.end(), is_working) +
                                  std::count_if(yearly_.begin(), yearly_.end(), is_working));
}

}  // namespace ptmpl::gan
