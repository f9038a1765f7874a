// Calendars (TBkndCal) of a .mpp file (plan.hpp).
//
// Layout facts (verified on the MPP9, MPP12 and MPP14 files of the corpus against their MSPDI
// twins):
// - FixedMeta items are 10 bytes; each FixedData record holds 12-byte triplets of int32: the
//   calendar's UID, its base calendar's UID (0 or -1 for a base calendar) and its resource's UID
//   — in that order, except in MPP14 written by Project 2013 and later: base, resource, UID.
//   Records that hold no calendar (UID 0 or negative) come first.
// - Var data: key 1 is the name (UTF-16LE); the calendar's data are under key 8 (key 3 in MPP9).
//   A base calendar without data takes the project's default calendar data (Props key
//   37753736); one without either is the standard calendar.
// - The data start with seven 60-byte day blocks, Sunday first (at +4 in MPP9, after the
//   exception count): uint16 1 = the base calendar's day (for a base calendar: the default
//   calendar's), else a working day when the uint16 count of periods at +2 is above 0; period
//   starts are uint16 at +8 and durations int32 at +20, both in 6-second units.
// - MPP9: a uint16 exception count at +0, and 64-byte exception records after the day blocks:
//   first and last day at +0/+2 (uint16 days since 1983-12-31), period count at +6, starts at
//   +12, durations at +24.
// - MPP12/14: at +420 a uint16 exception count, then from +424 92-byte exception records,
//   each followed by its name (length int32 at +88, padded to 4 bytes): first and last day at
//   +0/+2, occurrences at +4, period count at +14, starts at +20, durations at +32, and the
//   recurrence at +72 in MSPDI's own numbering with its parameters at +76..+79. After them, a
//   4-byte header and work weeks: seven day blocks, first and last day, 8 bytes, a named
//   length and the name.
// - The project's calendar is the base calendar Props key 37748750 names.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <unordered_set>

#include "convert/mpp/plan.hpp"

namespace ptmpl::detail::mpp {

namespace {

constexpr std::int32_t kDefaultCalendarNameKey = 37748750;
constexpr std::int32_t kDefaultCalendarDataKey = 37753736;
constexpr std::uint16_t kNameKey = 1;
constexpr std::size_t kTripletSize = 12;
constexpr std::size_t kDayBlockSize = 60;
constexpr std::size_t kWeekSize = 7 * kDayBlockSize;
constexpr std::size_t kMaxPeriods = 5;
constexpr std::uint32_t kDayEnd = 24 * 600;  // midnight at the day's end, in 6-second units
constexpr std::size_t kMpp9ExceptionSize = 64;
constexpr std::size_t kExceptionSize = 92;
constexpr std::size_t kWorkWeekSize = kWeekSize + 16;

// Where one format keeps a calendar's parts.
struct Shape {
  std::uint16_t data_key = 8;
  std::size_t week_at = 0;  // the day blocks in the calendar data
  std::size_t uid_at = 0;   // in a triplet
  std::size_t base_at = 4;
  std::size_t resource_at = 8;
};

Shape shape_of(const Layout& layout) {
  Shape shape;
  if (layout.version == 9) {
    shape.data_key = 3;
    shape.week_at = 4;
  }
  if (layout.version == 14 && layout.written_2013_or_later) {
    shape.base_at = 0;
    shape.resource_at = 4;
    shape.uid_at = 8;
  }
  return shape;
}

// A uint16 count of days since 1983-12-31 (65535: none) as yyyy-mm-dd.
std::optional<std::string> day_text(std::string_view b, std::size_t at) {
  if (!fits(b, at, 2)) return std::nullopt;
  const std::uint32_t days = u16(b, at);
  if (days == 65535) return std::nullopt;
  const std::chrono::year_month_day ymd{std::chrono::sys_days(std::chrono::year{1983} / 12 / 31) +
                                        std::chrono::days{days}};
  char text[16];
  std::snprintf(text, sizeof text, "%04d-%02u-%02u", static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                static_cast<unsigned>(ymd.day()));
  return std::string(text);
}

// `count` periods: uint16 starts at `starts`, int32 durations at `durations`.
WorkingTimes read_times(std::string_view b, std::size_t count, std::size_t starts, std::size_t durations) {
  WorkingTimes times;
  count = std::min(count, kMaxPeriods);
  for (std::size_t i = 0; i < count; ++i) {
    if (!fits(b, starts + 2 * i, 2) || !fits(b, durations + 4 * i, 4)) break;
    const std::uint32_t start = u16(b, starts + 2 * i);
    const std::uint32_t duration = u32(b, durations + 4 * i);
    if (start >= kDayEnd || duration == 0) continue;
    times.emplace_back(start, start + std::min(duration, kDayEnd - start));
  }
  return times;
}

// A 60-byte day block at `at` (the caller has checked that it fits).
CalendarDay read_day(std::string_view b, std::size_t at) {
  CalendarDay day;
  if (u16(b, at) == 1) {
    day.inherited = true;
    return day;
  }
  day.times = read_times(b, u16(b, at + 2), at + 8, at + 20);
  return day;
}

// MS Project's standard week: Monday to Friday, 08:00–12:00 and 13:00–17:00.
std::array<CalendarDay, 7> standard_week() {
  std::array<CalendarDay, 7> week;
  for (std::size_t d = 1; d <= 5; ++d) week[d].times = {{8 * 600, 12 * 600}, {13 * 600, 17 * 600}};
  return week;
}

std::array<CalendarDay, 7> read_week(std::string_view b, std::size_t at) {
  std::array<CalendarDay, 7> week;
  for (std::size_t d = 0; d < 7; ++d) week[d] = read_day(b, at + d * kDayBlockSize);
  return week;
}

// A name of `length` bytes (UTF-16LE) at `at`, as far as the bytes hold it.
std::string name_at(std::string_view b, std::size_t at, std::size_t length) {
  if (at >= b.size()) return {};
  return utf16_text(b.substr(at, std::min(length, b.size() - at)));
}

// The recurrence of a 92-byte MPP12/14 exception record, in MSPDI's terms.
void read_recurrence(std::string_view r, CalendarException& e) {
  e.type = u16(r, 72);
  e.occurrences = u16(r, 4);
  switch (e.type) {
    case 1:
      break;
    case 2:  // yearly on a day of a month
      e.month = u8(r, 76);
      e.month_day = u8(r, 77);
      break;
    case 3:  // yearly on the nth day of a kind of a month
      e.month = u8(r, 76);
      e.month_position = u8(r, 77);
      e.month_item = u8(r, 78);
      break;
    case 4:  // monthly on a day
      e.month_day = u8(r, 76);
      e.period = u8(r, 78);
      break;
    case 5:  // monthly on the nth day of a kind
      e.month_position = u8(r, 76);
      e.month_item = u8(r, 77);
      e.period = u16(r, 78);
      break;
    case 6:  // weekly
      e.days_of_week = u8(r, 76);
      e.period = u16(r, 78);
      break;
    case 7:  // every `period` days
      e.period = u16(r, 76);
      break;
    default:  // no recurrence MS Project stores: every day of the range
      e.type = 1;
      break;
  }
}

// MPP12/14: the exceptions from +420 and the work weeks after them.
void read_exceptions(std::string_view b, Calendar& calendar) {
  if (b.size() <= kWeekSize) return;
  const std::size_t count = u16(b, kWeekSize);
  std::size_t at = kWeekSize + 4;
  for (std::size_t i = 0; i < count; ++i) {
    if (!fits(b, at, kExceptionSize)) return;  // the work weeks cannot be found either
    const std::string_view r = b.substr(at, kExceptionSize);
    const std::uint32_t name_length = u32(r, 88);
    const std::size_t padded = (static_cast<std::size_t>(name_length) + 3) / 4 * 4;
    CalendarException e;
    read_recurrence(r, e);
    e.times = read_times(r, u16(r, 14), 20, 32);
    if (name_length > 0) e.name = name_at(b, at + kExceptionSize, name_length);
    auto from = day_text(r, 0);
    auto to = day_text(r, 2);
    if (from && to && *from <= *to) {
      e.from = std::move(*from);
      e.to = std::move(*to);
      calendar.exceptions.push_back(std::move(e));
    }
    if (padded > b.size() - at - kExceptionSize) return;
    at += kExceptionSize + padded;
  }
  at += 4;  // the work weeks' header
  while (fits(b, at, kWorkWeekSize)) {
    CalendarWorkWeek week;
    week.days = read_week(b, at);
    auto from = day_text(b, at + kWeekSize);
    auto to = day_text(b, at + kWeekSize + 2);
    const std::uint32_t name_length = u32(b, at + kWeekSize + 12);
    const std::size_t padded = (static_cast<std::size_t>(name_length) + 3) / 4 * 4;
    week.name = name_at(b, at + kWorkWeekSize, name_length);
    if (from && to && *from <= *to) {
      week.from = std::move(*from);
      week.to = std::move(*to);
      calendar.work_weeks.push_back(std::move(week));
    }
    if (padded > b.size() - at - kWorkWeekSize) return;
    at += kWorkWeekSize + padded;
  }
}

// MPP9: the exceptions after the day blocks, 64 bytes each, without recurrences or names.
void read_mpp9_exceptions(std::string_view b, Calendar& calendar) {
  if (!fits(b, 0, 2)) return;
  const std::size_t count = u16(b, 0);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t at = 4 + kWeekSize + i * kMpp9ExceptionSize;
    if (!fits(b, at, kMpp9ExceptionSize)) return;
    const std::string_view r = b.substr(at, kMpp9ExceptionSize);
    CalendarException e;
    e.times = read_times(r, u16(r, 6), 12, 24);
    auto from = day_text(r, 0);
    auto to = day_text(r, 2);
    if (!from || !to || *to < *from) continue;
    e.from = std::move(*from);
    e.to = std::move(*to);
    calendar.exceptions.push_back(std::move(e));
  }
}

// The calendar data `b` (var data, or the project's default calendar data) into `calendar`.
// `defaults` are the days a base calendar's inherited days take.
void read_calendar_data(std::string_view b, const Shape& shape, int version, const std::array<CalendarDay, 7>* defaults,
                        Calendar& calendar) {
  if (!fits(b, shape.week_at, kWeekSize)) {
    if (defaults != nullptr) calendar.days = *defaults;
    return;
  }
  calendar.days = read_week(b, shape.week_at);
  if (defaults != nullptr)
    for (std::size_t d = 0; d < 7; ++d)
      if (calendar.days[d].inherited) calendar.days[d] = (*defaults)[d];
  if (version == 9) {
    read_mpp9_exceptions(b, calendar);
  } else {
    read_exceptions(b, calendar);
  }
}

}  // namespace

Status read_calendars(Source& source, const Properties& properties, Plan& plan) {
  std::string_view streams[4];
  const char* names[4] = {"FixedMeta", "FixedData", "VarMeta", "Var2Data"};
  for (int i = 0; i < 4; ++i) {
    auto bytes = source.stream({"TBkndCal", names[i]}, true);
    if (!bytes.ok()) return bytes.error();
    if (!bytes.value())
      return Error::invalid(std::string("the calendar table has no stream \"TBkndCal/") + names[i] + "\"");
    streams[i] = *bytes.value();
  }
  const Layout& layout = source.layout();
  const Shape shape = shape_of(layout);
  const std::vector<Row> rows = read_rows(streams[0], streams[1], source.layout().calendar_meta_size);
  const VarData var = read_var_data(streams[2], streams[3], layout.var_entry_size);
  auto var_item = [&](std::int32_t uid, std::uint16_t key) -> std::optional<std::string_view> {
    auto it = var.find({uid, key});
    if (it == var.end()) return std::nullopt;
    return it->second;
  };

  // The project's default calendar data: what base calendars without their own data hold, and
  // what their inherited days are.
  const std::array<CalendarDay, 7> standard = standard_week();
  std::array<CalendarDay, 7> defaults = standard;
  std::optional<std::string_view> default_data;
  if (auto it = properties.props.find(kDefaultCalendarDataKey); it != properties.props.end()) {
    default_data = it->second;
    Calendar parsed;
    read_calendar_data(it->second, shape, layout.version, &standard, parsed);
    defaults = parsed.days;
  }

  std::vector<Calendar> bases;
  std::vector<Calendar> derived;
  std::unordered_set<std::int32_t> seen;
  for (const Row& row : rows) {
    for (std::size_t at = 0; fits(row.data, at, kTripletSize); at += kTripletSize) {
      const auto uid = static_cast<std::int32_t>(u32(row.data, at + shape.uid_at));
      const auto base = static_cast<std::int32_t>(u32(row.data, at + shape.base_at));
      const auto resource = static_cast<std::int32_t>(u32(row.data, at + shape.resource_at));
      if (uid <= 0 || seen.count(uid) != 0) continue;
      const bool is_base = base <= 0 || base == uid;
      // A calendar based on another belongs to a resource; one of no resource is none of the plan's.
      if (!is_base && resource <= 0) continue;
      seen.insert(uid);
      Calendar calendar;
      calendar.uid = uid;
      if (auto name = var_item(uid, kNameKey)) calendar.name = utf16_text(*name);
      if (resource > 0) calendar.resource_uid = resource;
      std::optional<std::string_view> data = var_item(uid, shape.data_key);
      if (is_base) {
        if (!data) data = default_data;
        if (data) {
          read_calendar_data(*data, shape, layout.version, &defaults, calendar);
        } else {
          calendar.days = standard;
        }
        bases.push_back(std::move(calendar));
      } else {
        calendar.base_uid = base;
        for (CalendarDay& day : calendar.days) day.inherited = true;
        if (data) read_calendar_data(*data, shape, layout.version, nullptr, calendar);
        derived.push_back(std::move(calendar));
      }
    }
  }
  if (bases.empty()) return Error::invalid("the calendar table holds no base calendar");

  std::unordered_set<std::int32_t> base_uids;
  for (const Calendar& c : bases) base_uids.insert(c.uid);
  plan.calendars = std::move(bases);
  for (Calendar& c : derived)  // a calendar based on one the file does not hold is dropped
    if (base_uids.count(*c.base_uid) != 0) plan.calendars.push_back(std::move(c));

  // The project's calendar: the one Props names, else "Standard", else the first.
  std::string wanted = "Standard";
  if (auto it = properties.props.find(kDefaultCalendarNameKey); it != properties.props.end())
    if (std::string name = utf16_text(it->second); !name.empty()) wanted = std::move(name);
  auto named = [&](const std::string& name) {
    return std::find_if(plan.calendars.begin(), plan.calendars.end(),
                        [&](const Calendar& c) { return !c.base_uid && c.name == name; });
  };
  auto project = named(wanted);
  if (project == plan.calendars.end()) project = named("Standard");
  if (project == plan.calendars.end()) project = plan.calendars.begin();
  plan.project.calendar_uid = project->uid;
  return Done{};
}

}  // namespace ptmpl::detail::mpp
