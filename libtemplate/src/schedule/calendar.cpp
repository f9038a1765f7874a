// Working days ↔ dates. Weekday counting is closed-form (whole weeks plus a remainder, from a
// Monday), holidays are a sorted list counted by binary search, so neither direction walks
// day by day.
#include "libtemplate/core/calendar.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>

namespace ptmpl {

namespace {

using std::chrono::days;
using std::chrono::year_month_day;

// 1970-01-05, a Monday: weekday counting starts here.
constexpr Date kMonday{days{4}};
// Years 1–9999 span about 3.65 million days; no offset beyond this lands inside them.
constexpr std::int64_t kMaxOffset = 4'000'000;

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

std::int64_t count_before(const std::vector<Date>& dates, Date date) {
  return std::lower_bound(dates.begin(), dates.end(), date) - dates.begin();
}

void sort_unique(std::vector<Date>& dates) {
  std::sort(dates.begin(), dates.end());
  dates.erase(std::unique(dates.begin(), dates.end()), dates.end());
}

}  // namespace

Calendar::Calendar(WorkWeek week, Date start, std::vector<Date> holidays, std::vector<Date> working)
    : week_(week.empty() ? WorkWeek::monday_to_friday() : week),
      holidays_(std::move(holidays)),
      working_(std::move(working)) {
  week_size_ = week_.size();
  sort_unique(holidays_);
  sort_unique(working_);
  // A date listed in both does not work.
  std::erase_if(working_, [this](Date d) {
    return week_.works(std::chrono::weekday{d}) || std::binary_search(holidays_.begin(), holidays_.end(), d);
  });
  // Only holidays on days the week works change anything.
  std::erase_if(holidays_, [this](Date d) { return !week_.works(std::chrono::weekday{d}); });
  day_zero_ = start;
  while (!is_working_day(day_zero_)) day_zero_ += days{1};  // at most a week plus the holidays
  day_zero_index_ = working_days_before(day_zero_);
}

bool Calendar::is_working_day(Date date) const {
  if (!week_.works(std::chrono::weekday{date})) return std::binary_search(working_.begin(), working_.end(), date);
  return !std::binary_search(holidays_.begin(), holidays_.end(), date);
}

std::int64_t Calendar::week_days_before(Date date) const {
  const std::int64_t since = (date - kMonday).count();
  const std::int64_t weeks = floor_div(since, 7);
  std::int64_t n = week_size_ * weeks;
  for (std::int64_t i = 0; i < since - 7 * weeks; ++i)
    if (week_.works(std::chrono::Monday + days{i})) ++n;
  return n;
}

Date Calendar::nth_week_day(std::int64_t n) const {
  const std::int64_t weeks = floor_div(n, week_size_);
  std::int64_t rest = n - week_size_ * weeks;  // 0 … week_size_ - 1
  std::size_t i = 0;
  for (;; ++i) {
    if (!week_.works(std::chrono::Monday + days{static_cast<std::int64_t>(i)})) continue;
    if (rest-- == 0) break;
  }
  return kMonday + days{7 * weeks + static_cast<std::int64_t>(i)};
}

std::int64_t Calendar::working_days_before(Date date) const {
  return week_days_before(date) - count_before(holidays_, date) + count_before(working_, date);
}

std::optional<Date> Calendar::date_of(std::int64_t offset) const {
  if (offset > kMaxOffset || offset < -kMaxOffset) return std::nullopt;
  const std::int64_t wanted = day_zero_index_ + offset;
  // The answer is the first date d with working_days_before(d + 1) > wanted. Holidays move it
  // later than the week alone would, by at most their number of week days; working dates move
  // it earlier, by at most their number: so it lies in [lo, hi], searched by halving.
  const auto holidays = static_cast<std::int64_t>(holidays_.size());
  const auto extra = static_cast<std::int64_t>(working_.size());
  std::int64_t lo = (nth_week_day(wanted - extra) - kMonday).count();
  std::int64_t hi = (nth_week_day(wanted + holidays + 1) - kMonday).count();
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (working_days_before(kMonday + days{mid + 1}) > wanted)
      hi = mid;
    else
      lo = mid + 1;
  }
  const Date date = kMonday + days{lo};
  const year_month_day ymd{date};
  if (ymd.year() < std::chrono::year{1} || ymd.year() > std::chrono::year{9999}) return std::nullopt;
  return date;
}

std::int64_t Calendar::offset_of(Date date) const {
  while (!is_working_day(date)) date += days{1};
  return working_days_before(date) - day_zero_index_;
}

std::optional<Calendar> Calendar::ending_on(std::int64_t due, Date finish) const {
  const Calendar at_finish(week_, finish, holidays_, working_);
  // Day 0 of at_finish is the first working day on or after `finish`; day -1 the last before it.
  const std::int64_t last = at_finish.day_zero() == finish ? 0 : -1;
  if (due > kMaxOffset || due < -kMaxOffset) return std::nullopt;
  const std::optional<Date> start = at_finish.date_of(last - due);
  if (!start) return std::nullopt;
  return Calendar(week_, *start, holidays_, working_);
}

Calendar calendar_of(const CalendarBlock& block, Date fallback_start) {
  WorkWeek week = block.week.value_or(WorkWeek::monday_to_friday());
  if (week.empty()) week = WorkWeek::monday_to_friday();
  return Calendar(week, block.start.value_or(fallback_start), block.holidays, block.working);
}

std::optional<std::int64_t> deadline_offset(const CalendarBlock& block) {
  if (!block.start || !block.finish) return std::nullopt;
  const Calendar calendar = calendar_of(block, *block.start);
  const std::int64_t next = calendar.offset_of(*block.finish);  // the next working day when it does not work
  return calendar.is_working_day(*block.finish) ? next : next - 1;
}

Result<std::vector<Date>> parse_holidays(std::string_view text, std::string_view path) {
  std::vector<Date> holidays;
  std::size_t line_number = 0;
  while (!text.empty()) {
    const std::size_t eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
    ++line_number;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    if (line.empty() || line.front() == '#') continue;
    const std::optional<Date> date = parse_date(line);
    if (!date) {
      std::string shown(line.substr(0, 40));
      return Error::invalid(std::string(path) + ":" + std::to_string(line_number) +
                            ": not a date of the form YYYY-MM-DD: \"" + shown + (line.size() > 40 ? "…" : "") + "\"");
    }
    holidays.push_back(*date);
  }
  return holidays;
}

}  // namespace ptmpl
