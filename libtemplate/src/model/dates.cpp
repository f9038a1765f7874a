// Dates and working weekdays as templates write them (dates.hpp).
#include "libtemplate/core/dates.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>

namespace ptmpl {

namespace {

using std::chrono::year_month_day;

bool digits(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int number(std::string_view text) {
  int n = 0;
  for (char c : text) n = n * 10 + (c - '0');
  return n;
}

constexpr std::array<std::string_view, 7> kWeekdayNames = {"mon", "tue", "wed", "thu", "fri", "sat", "sun"};

std::chrono::weekday iso_weekday(std::size_t i) {
  return std::chrono::weekday{static_cast<unsigned>((i + 1) % 7)};
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

int WorkWeek::size() const {
  return std::popcount(bits_);
}

std::vector<std::string_view> WorkWeek::names() const {
  std::vector<std::string_view> out;
  for (std::size_t i = 0; i < 7; ++i)
    if (works(iso_weekday(i))) out.push_back(kWeekdayNames[i]);
  return out;
}

std::string WorkWeek::describe() const {
  if (*this == monday_to_friday()) return "Mon–Fri";
  if (*this == every_day()) return "every day";
  if (empty()) return "no working day";
  // One run of consecutive days (wrapping past Sunday) reads as a range: "Sun–Thu".
  auto title = [](std::size_t i) {
    std::string name(kWeekdayNames[i % 7]);
    name[0] = static_cast<char>(name[0] - 'a' + 'A');
    return name;
  };
  for (std::size_t first = 0; first < 7; ++first) {
    if (!works(iso_weekday(first)) || works(iso_weekday((first + 6) % 7))) continue;
    std::size_t n = 0;
    while (n < 7 && works(iso_weekday((first + n) % 7))) ++n;
    if (static_cast<int>(n) == size()) return n == 1 ? title(first) : title(first) + "–" + title(first + n - 1);
  }
  std::string out;
  for (std::size_t i = 0; i < 7; ++i)
    if (works(iso_weekday(i))) out += (out.empty() ? "" : ", ") + title(i);
  return out;
}

std::optional<std::chrono::weekday> parse_weekday(std::string_view name) {
  for (std::size_t i = 0; i < 7; ++i)
    if (kWeekdayNames[i] == name) return iso_weekday(i);
  return std::nullopt;
}

std::string_view weekday_name(std::chrono::weekday day) {
  return kWeekdayNames[day.iso_encoding() - 1];
}

}  // namespace ptmpl
