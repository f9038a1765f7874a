// A plan calendar's days: the per-day table expand() builds gives every day the rule the
// calendar's own precedence gives it (the last plain exception that covers the day, a base
// calendar's below its child's), whatever the number of exceptions.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <vector>

#include "convert/plan/plan.hpp"
#include "convert/plan/work_calendar.hpp"

namespace ptmpl {
namespace {

using std::chrono::days;
using std::chrono::year;

TEST(WorkCalendar, ExpandedDaysFollowTheLastExceptionThatCoversThem) {
  // A base calendar and a child, each with overlapping exceptions of varied lengths (some
  // beyond the span expanded, some before it), working or not, with their own hours.
  std::vector<plan::Calendar> calendars(2);
  calendars[0].uid = 1;
  calendars[0].is_base = true;
  calendars[1].uid = 2;
  calendars[1].base_uid = 1;
  const Date origin = year{2027} / 1 / 1;
  std::uint64_t state = 12345;
  auto next = [&](std::uint64_t bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::int64_t>((state >> 33) % bound);
  };
  for (int i = 0; i < 600; ++i) {
    plan::CalendarException exception;
    exception.from = origin + days{next(900) - 100};
    exception.to = *exception.from + days{next(i % 10 == 0 ? 400 : 12)};
    exception.rule = {next(2) == 0, static_cast<int>(next(10)) * 60, 17 * 60};
    exception.type = 1;
    exception.period.value = 1;
    calendars[static_cast<std::size_t>(i % 2)].exceptions.push_back(exception);
  }
  std::vector<plan::CalendarNote> notes;
  const plan::WorkCalendar scanned = plan::WorkCalendar::read(calendars, 2, notes);
  plan::WorkCalendar expanded = plan::WorkCalendar::read(calendars, 2, notes);
  expanded.expand(origin, origin + days{700}, notes);
  EXPECT_TRUE(notes.empty());
  int working = 0;
  for (Date d = origin - days{150}; d <= origin + days{1000}; d += days{1}) {
    const plan::DayRule want = scanned.day(d);  // not expanded: every exception looked at
    const plan::DayRule got = expanded.day(d);
    ASSERT_EQ(got.working, want.working) << format_date(d);
    ASSERT_EQ(got.start, want.start) << format_date(d);
    ASSERT_EQ(got.end, want.end) << format_date(d);
    working += got.working ? 1 : 0;
  }
  // Both kinds of day occur: the comparison is not of a calendar that is all one thing.
  EXPECT_GT(working, 100);
  EXPECT_LT(working, 1000);
}

}  // namespace
}  // namespace ptmpl
