// Working days ↔ dates. Weekday counting is closed-form (whole weeks plus a remainder, from a
// Monday), holidays are a sorted list counted by binary search, so neither direction walks
// day by day.
#include "libtemplate/calendar.hpp"

#include <algorithm>
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

bool digits(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int number(std::string_view text) {
  int n = 0;
  for (char c : text) n = n * 10 + (c - '0');
  return n;
}

}  // namespace

std::optional<Date> parse_date(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
  const std::string_view y = text.substr(0, 4);
  const std::string_view m = text.substr(5, 2);
  const std::string_view d = text.substr(8, 2);
  if (!digits(y) || !digits(m) || !digits(d)) return std::nullopt;
  const year_month_day date{std::chrono::year{number(y)}, std::chrono::month{static_cast<unsigned>(number(m))},
                            std::chrono::day{static_cast<unsigned>(number(d))}};
  if (number(y) < 1 || !date.ok()) return std::nullopt;
  return Date{date};
}

std::string format_date(Date date) {
  const year_month_day ymd{date};
  char text[32];
  std::snprintf(text, sizeof text, "%04d-%02u-%02u", static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                static_cast<unsigned>(ymd.day()));
  return text;
}

Calendar::Calendar(Week week, Date start, std::vector<Date> holidays) : week_(week), holidays_(std::move(holidays)) {
  std::sort(holidays_.begin(), holidays_.end());
  holidays_.erase(std::unique(holidays_.begin(), holidays_.end()), holidays_.end());
  // Only holidays on days the week works change anything.
  std::erase_if(holidays_,
                [this](Date d) { return week_ == Week::Workweek && std::chrono::weekday{d}.iso_encoding() > 5; });
  day_zero_ = start;
  while (!is_working_day(day_zero_)) day_zero_ += days{1};  // at most a weekend plus the holidays
  day_zero_index_ = working_days_before(day_zero_);
}

bool Calendar::is_working_day(Date date) const {
  if (week_ == Week::Workweek && std::chrono::weekday{date}.iso_encoding() > 5) return false;
  return !std::binary_search(holidays_.begin(), holidays_.end(), date);
}

std::int64_t Calendar::week_days_before(Date date) const {
  const std::int64_t since = (date - kMonday).count();
  if (week_ == Week::SevenDay) return since;
  const std::int64_t weeks = floor_div(since, 7);
  return 5 * weeks + std::min<std::int64_t>(since - 7 * weeks, 5);
}

Date Calendar::nth_week_day(std::int64_t n) const {
  if (week_ == Week::SevenDay) return kMonday + days{n};
  const std::int64_t weeks = floor_div(n, 5);
  return kMonday + days{7 * weeks + (n - 5 * weeks)};
}

std::int64_t Calendar::holidays_before(Date date) const {
  return std::lower_bound(holidays_.begin(), holidays_.end(), date) - holidays_.begin();
}

std::int64_t Calendar::working_days_before(Date date) const {
  return week_days_before(date) - holidays_before(date);
}

std::optional<Date> Calendar::date_of(std::int64_t offset) const {
  if (offset > kMaxOffset || offset < -kMaxOffset) return std::nullopt;
  const std::int64_t wanted = day_zero_index_ + offset;
  // f(k) = k − holidays before the k-th week day never decreases; the answer is the first k
  // with f(k) = wanted that is not a holiday, and it lies in [wanted, wanted + holidays].
  auto f = [this](std::int64_t k) { return k - holidays_before(nth_week_day(k)); };
  std::int64_t lo = wanted;
  std::int64_t hi = wanted + static_cast<std::int64_t>(holidays_.size());
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (f(mid) >= wanted)
      hi = mid;
    else
      lo = mid + 1;
  }
  Date date = nth_week_day(lo);
  while (!is_working_day(date)) date = nth_week_day(++lo);
  const year_month_day ymd{date};
  if (ymd.year() < std::chrono::year{1} || ymd.year() > std::chrono::year{9999}) return std::nullopt;
  return date;
}

std::int64_t Calendar::offset_of(Date date) const {
  while (!is_working_day(date)) date += days{1};
  return working_days_before(date) - day_zero_index_;
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
