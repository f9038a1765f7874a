#include "convert/mspdi_calendar.hpp"

#include <algorithm>
#include <charconv>

namespace ptmpl::mspdi {

namespace {

std::optional<int> two_digits(std::string_view text, std::size_t at) {
  if (at + 2 > text.size() || text[at] < '0' || text[at] > '9' || text[at + 1] < '0' || text[at + 1] > '9')
    return std::nullopt;
  return (text[at] - '0') * 10 + (text[at + 1] - '0');
}

// "08:00:00" → minutes since midnight (24:00:00 is the end of the day).
std::optional<int> parse_time(std::string_view text) {
  const auto h = two_digits(text, 0);
  const auto m = two_digits(text, 3);
  if (!h || !m || text.size() < 5 || text[2] != ':' || *h > 24 || *m > 59) return std::nullopt;
  return *h * 60 + *m;
}

std::string_view child_text(pugi::xml_node node, const char* name) {
  return node.child(name).text().as_string();
}

std::optional<std::int64_t> child_int(pugi::xml_node node, const char* name) {
  const std::string_view text = child_text(node, name);
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// The working day a <WeekDay> or <Exception> describes: DayWorking and its working times.
DayRule day_rule(pugi::xml_node node) {
  DayRule rule;
  rule.working = child_int(node, "DayWorking").value_or(0) == 1;
  int first = 24 * 60;
  int last = 0;
  for (pugi::xml_node time : node.child("WorkingTimes").children("WorkingTime")) {
    const auto from = parse_time(child_text(time, "FromTime"));
    const auto to = parse_time(child_text(time, "ToTime"));
    if (!from || !to) continue;
    first = std::min(first, *from);
    last = std::max(last, *to == 0 ? 24 * 60 : *to);  // 00:00 as an end is midnight
  }
  if (first < last) {
    rule.start = first;
    rule.end = last;
  }
  return rule;
}

std::optional<DateRule> period_rule(pugi::xml_node period, DayRule rule) {
  const auto from = parse_datetime(child_text(period, "FromDate"));
  const auto to = parse_datetime(child_text(period, "ToDate"));
  if (!from || !to || to->date < from->date) return std::nullopt;
  return DateRule{from->date, to->date, rule};
}

// The shape MSPDI writes, `YYYY-MM-DDTHH:MM:SS`, read in one go (two date-times per task); a
// text of any other shape, or not a valid date and time, goes the general way.
std::optional<DateTime> parse_plain_datetime(std::string_view text) {
  if (text.size() != 19 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' || text[16] != ':')
    return std::nullopt;
  int field[6] = {};
  constexpr std::size_t kAt[6] = {0, 5, 8, 11, 14, 17};
  constexpr std::size_t kDigits[6] = {4, 2, 2, 2, 2, 2};
  for (std::size_t f = 0; f < 6; ++f)
    for (std::size_t i = kAt[f]; i < kAt[f] + kDigits[f]; ++i) {
      if (text[i] < '0' || text[i] > '9') return std::nullopt;
      field[f] = field[f] * 10 + (text[i] - '0');
    }
  const std::chrono::year_month_day date{std::chrono::year{field[0]},
                                         std::chrono::month{static_cast<unsigned>(field[1])},
                                         std::chrono::day{static_cast<unsigned>(field[2])}};
  if (field[0] < 1 || !date.ok() || field[3] > 24 || field[4] > 59) return std::nullopt;
  return DateTime{Date{date}, std::min(field[3] * 60 + field[4], 24 * 60)};
}

}  // namespace

std::optional<DateTime> parse_datetime(std::string_view text) {
  if (auto plain = parse_plain_datetime(text)) return plain;
  if (text.size() < 10) return std::nullopt;
  const std::optional<Date> date = parse_date(text.substr(0, 10));
  if (!date) return std::nullopt;
  DateTime out{*date, 0};
  if (text.size() == 10) return out;
  if (text[10] != 'T') return std::nullopt;
  const auto minute = parse_time(text.substr(11));
  if (!minute) return std::nullopt;
  out.minute = std::min(*minute, 24 * 60);
  return out;
}

WorkCalendar::WorkCalendar() {
  for (std::size_t d = 0; d < 7; ++d) week_[d].working = d >= 1 && d <= 5;
}

WorkCalendar WorkCalendar::read(pugi::xml_node calendars, std::int64_t uid, std::vector<std::string>& notes) {
  // The chain of base calendars, the calendar itself last.
  std::vector<pugi::xml_node> chain;
  for (std::int64_t next = uid; chain.size() < 16;) {
    pugi::xml_node found;
    for (pugi::xml_node c : calendars.children("Calendar"))
      if (child_int(c, "UID") == next) {
        found = c;
        break;
      }
    if (!found || std::find(chain.begin(), chain.end(), found) != chain.end()) break;
    chain.push_back(found);
    const auto base = child_int(found, "BaseCalendarUID");
    if (!base || *base < 0 || child_int(found, "IsBaseCalendar").value_or(0) == 1) break;
    next = *base;
  }
  WorkCalendar calendar;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) calendar.apply(*it, notes);
  return calendar;
}

void WorkCalendar::apply(pugi::xml_node calendar, std::vector<std::string>& notes) {
  for (pugi::xml_node weekday : calendar.child("WeekDays").children("WeekDay")) {
    const auto type = child_int(weekday, "DayType");
    if (!type) continue;
    if (*type >= 1 && *type <= 7) {
      week_[static_cast<std::size_t>(*type - 1)] = day_rule(weekday);
    } else if (*type == 0) {  // Project 2003 and older: an exception as a week day with a period
      if (auto rule = period_rule(weekday.child("TimePeriod"), day_rule(weekday))) exceptions_.push_back(*rule);
    }
  }
  for (pugi::xml_node exception : calendar.child("Exceptions").children("Exception")) {
    auto rule = period_rule(exception.child("TimePeriod"), day_rule(exception));
    if (!rule) continue;
    // Type 1 is a plain daily range; other types recur (weekly, monthly, yearly) within it.
    const std::int64_t type = child_int(exception, "Type").value_or(1);
    if (type != 1) {
      notes.push_back("calendar exception \"" + std::string(child_text(exception, "Name")) + "\" recurs (type " +
                      std::to_string(type) + "); it is applied to every day from " + format_date(rule->from) + " to " +
                      format_date(rule->to));
    }
    exceptions_.push_back(*rule);
  }
}

WorkWeek WorkCalendar::week() const {
  WorkWeek out;
  for (unsigned d = 0; d < 7; ++d)
    if (week_[d].working) out.add(std::chrono::weekday{d});
  return out;
}

DayRule WorkCalendar::day(Date date) const {
  for (auto it = exceptions_.rbegin(); it != exceptions_.rend(); ++it)
    if (it->from <= date && date <= it->to) return it->rule;
  const unsigned weekday = std::chrono::weekday{date}.c_encoding();  // 0 = Sunday
  return week_[weekday];
}

}  // namespace ptmpl::mspdi
