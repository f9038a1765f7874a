// Calendars (libtemplate/core/calendar.hpp): strict dates, working-day offsets ↔ dates both ways for
// `workweek` and `7day` with holidays, across years and leap days, checked against a day-by-day
// walk; the holidays file.
#include "libtemplate/core/calendar.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ptmpl::calendar_test {
namespace {

using std::chrono::days;

Date date(const char* text) {
  const std::optional<Date> d = parse_date(text);
  EXPECT_TRUE(d) << text;
  return d.value_or(Date{});
}

std::string shown(std::optional<Date> d) {
  return d ? format_date(*d) : "none";
}

TEST(Dates, StrictParsing) {
  EXPECT_EQ(format_date(date("2027-01-04")), "2027-01-04");
  EXPECT_EQ(format_date(date("2028-02-29")), "2028-02-29");
  EXPECT_EQ(format_date(date("0001-01-01")), "0001-01-01");
  EXPECT_EQ(format_date(date("9999-12-31")), "9999-12-31");
  for (const char* bad :
       {"2027-02-29", "2100-02-29", "2027-1-04", "2027-01-4", "0000-01-01", "2027-13-01", "2027-00-10", "2027-04-31",
        "2027-01-04 ", " 2027-01-04", "2027/01/04", "", "20270104", "2027-01-0x", "+027-01-04"})
    EXPECT_FALSE(parse_date(bad)) << bad;
}

TEST(Calendar, WorkweekCountsMondayToFriday) {
  const Calendar c(WorkWeek::monday_to_friday(), date("2027-01-04"));  // a Monday
  EXPECT_EQ(shown(c.date_of(0)), "2027-01-04");
  EXPECT_EQ(shown(c.date_of(4)), "2027-01-08");
  EXPECT_EQ(shown(c.date_of(5)), "2027-01-11");
  EXPECT_EQ(shown(c.date_of(-1)), "2027-01-01");  // the Friday before
  EXPECT_EQ(shown(c.date_of(-3)), "2026-12-30");
  EXPECT_EQ(c.offset_of(date("2027-01-11")), 5);
  EXPECT_EQ(c.offset_of(date("2027-01-09")), 5);  // a Saturday: the next working day's offset
  EXPECT_EQ(c.offset_of(date("2026-12-30")), -3);
  // 1,000,000 working days are exactly 200,000 weeks.
  EXPECT_EQ(shown(c.date_of(1'000'000)), "5860-01-30");
}

TEST(Calendar, DayZeroIsTheFirstWorkingDayOnOrAfterTheStart) {
  const Calendar saturday(WorkWeek::monday_to_friday(), date("2027-01-09"));
  EXPECT_EQ(format_date(saturday.day_zero()), "2027-01-11");
  EXPECT_EQ(shown(saturday.date_of(-1)), "2027-01-08");
  const Calendar holiday(WorkWeek::monday_to_friday(), date("2027-01-01"), {date("2027-01-01")});
  EXPECT_EQ(format_date(holiday.day_zero()), "2027-01-04");
}

TEST(Calendar, SevenDayAcrossLeapDaysAndYearEnds) {
  const Calendar c(WorkWeek::every_day(), date("2028-02-28"));
  EXPECT_EQ(shown(c.date_of(1)), "2028-02-29");
  EXPECT_EQ(shown(c.date_of(2)), "2028-03-01");
  EXPECT_EQ(shown(c.date_of(307)), "2028-12-31");
  EXPECT_EQ(shown(c.date_of(308)), "2029-01-01");
  EXPECT_EQ(shown(c.date_of(-365)), "2027-02-28");
  // Four years (1,461 days: 2028-02-29 lies inside them) and a day to the next leap day.
  EXPECT_EQ(c.offset_of(date("2032-02-29")), 1462);
}

TEST(Calendar, HolidaysAreSkippedBothWays) {
  const Calendar c(
      WorkWeek::monday_to_friday(), date("2027-01-04"),
      {date("2027-01-06"), date("2027-01-09") /* a Saturday: no effect */, date("2027-01-06"), date("2026-12-31")});
  ASSERT_EQ(c.holidays().size(), 2u);
  EXPECT_FALSE(c.is_working_day(date("2027-01-06")));
  EXPECT_EQ(shown(c.date_of(1)), "2027-01-05");
  EXPECT_EQ(shown(c.date_of(2)), "2027-01-07");
  EXPECT_EQ(shown(c.date_of(4)), "2027-01-11");
  EXPECT_EQ(shown(c.date_of(-1)), "2027-01-01");
  EXPECT_EQ(shown(c.date_of(-2)), "2026-12-30");  // the 31st is a holiday
  EXPECT_EQ(c.offset_of(date("2027-01-06")), 2);  // a holiday maps to the next working day
}

// The reference: walk day by day from day 0.
std::vector<Date> walk(const Calendar& c, int before, int after) {
  std::vector<Date> out;
  Date d = c.day_zero();
  for (int k = 0; k < before;) {
    d -= days{1};
    if (c.is_working_day(d)) {
      out.insert(out.begin(), d);
      ++k;
    }
  }
  d = c.day_zero();
  for (int k = 0; k <= after; d += days{1})
    if (c.is_working_day(d)) {
      out.push_back(d);
      ++k;
    }
  return out;
}

TEST(Calendar, AgreesWithADayByDayWalkOverDecades) {
  std::vector<Date> holidays;
  for (int year = 2020; year <= 2060; ++year)
    for (const char* md : {"-01-01", "-05-01", "-12-25", "-12-26", "-02-29", "-07-04"}) {
      const std::string text = std::to_string(year) + md;
      if (auto d = parse_date(text)) holidays.push_back(*d);
    }
  for (WorkWeek week : {WorkWeek::monday_to_friday(), WorkWeek::every_day()}) {
    const Calendar c(week, date("2027-03-17"), holidays);
    const int before = 2000;
    const int after = 9000;
    const std::vector<Date> expected = walk(c, before, after);
    for (int k = -before; k <= after; ++k) {
      const Date want = expected[static_cast<std::size_t>(k + before)];
      ASSERT_EQ(shown(c.date_of(k)), format_date(want)) << "offset " << k;
      ASSERT_EQ(c.offset_of(want), k);
    }
  }
}

// The calendar block's weeks (docs/semantics.md §4): any set of weekdays, with holidays and extra working
// dates on the days the week does not work, agrees with the walk both ways.
TEST(Calendar, AnyWeekWithHolidaysAndWorkingDatesAgreesWithAWalk) {
  std::vector<Date> holidays;
  std::vector<Date> working;
  for (Date d = date("2025-01-01"); d < date("2035-01-01"); d += days{1}) {
    const auto n = d.time_since_epoch().count();
    if (n % 11 == 0) holidays.push_back(d);
    if (n % 5 == 0) working.push_back(d);  // some on working days: they change nothing
  }
  WorkWeek sun_to_thu;
  for (const char* name : {"sun", "mon", "tue", "wed", "thu"}) sun_to_thu.add(*parse_weekday(name));
  WorkWeek three_days;
  for (const char* name : {"mon", "wed", "sat"}) three_days.add(*parse_weekday(name));
  WorkWeek one_day;
  one_day.add(*parse_weekday("sun"));
  for (WorkWeek week : {sun_to_thu, three_days, one_day, WorkWeek::monday_to_friday()}) {
    const Calendar c(week, date("2029-06-13"), holidays, working);
    const std::vector<Date> expected = walk(c, 600, 1500);
    for (int k = -600; k <= 1500; ++k) {
      const Date want = expected[static_cast<std::size_t>(k + 600)];
      ASSERT_EQ(shown(c.date_of(k)), format_date(want)) << week.describe() << " offset " << k;
      ASSERT_EQ(c.offset_of(want), k) << week.describe();
    }
  }
}

TEST(Calendar, WorkingDatesWorkAndHolidaysWinOverThem) {
  // 2027-12-18 and 12-19 are a weekend; 12-24 a Friday.
  const Calendar c(WorkWeek::monday_to_friday(), date("2027-12-17"), {date("2027-12-24"), date("2027-12-19")},
                   {date("2027-12-18"), date("2027-12-19"), date("2027-12-20")});
  EXPECT_TRUE(c.is_working_day(date("2027-12-18")));
  EXPECT_FALSE(c.is_working_day(date("2027-12-19")));  // listed in both: a holiday
  EXPECT_FALSE(c.is_working_day(date("2027-12-24")));
  ASSERT_EQ(c.working_dates().size(), 1u);  // 12-20 works anyway, 12-19 is a holiday
  EXPECT_EQ(shown(c.date_of(1)), "2027-12-18");
  EXPECT_EQ(shown(c.date_of(2)), "2027-12-20");
  EXPECT_EQ(shown(c.date_of(6)), "2027-12-27");
}

TEST(Calendar, WeeksAreNamedAsTheBlockSpellsThem) {
  EXPECT_EQ(WorkWeek::monday_to_friday().describe(), "Mon–Fri");
  EXPECT_EQ(WorkWeek::every_day().describe(), "every day");
  WorkWeek week;
  for (const char* name : {"sun", "mon", "tue", "wed", "thu"}) week.add(*parse_weekday(name));
  EXPECT_EQ(week.describe(), "Sun–Thu");
  EXPECT_EQ(week.names(), (std::vector<std::string_view>{"mon", "tue", "wed", "thu", "sun"}));
  EXPECT_FALSE(parse_weekday("monday"));
  EXPECT_EQ(weekday_name(std::chrono::Saturday), "sat");
}

TEST(Calendar, OffsetsOutsideYearsOneToNineThousandAreRefused) {
  const Calendar c(WorkWeek::monday_to_friday(), date("2027-01-04"));
  EXPECT_FALSE(c.date_of(3'000'000));
  EXPECT_FALSE(c.date_of(-1'000'000));
  EXPECT_FALSE(c.date_of(std::numeric_limits<std::int64_t>::max()));
  EXPECT_FALSE(c.date_of(std::numeric_limits<std::int64_t>::min()));
  EXPECT_TRUE(c.date_of(-500'000));  // back to the 9th century
}

TEST(Holidays, FileWithCommentsBlankLinesAndCrlf) {
  const auto parsed =
      parse_holidays("# public holidays\r\n2027-01-01\r\n\r\n  2027-12-25  \n# end\n2027-12-26", "h.txt");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  ASSERT_EQ(parsed.value().size(), 3u);
  EXPECT_EQ(format_date(parsed.value()[2]), "2027-12-26");
}

TEST(Holidays, BadLineIsNamed) {
  const auto parsed = parse_holidays("2027-01-01\n2027-02-30\n", "holidays.txt");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().message, "holidays.txt:2: not a date of the form YYYY-MM-DD: \"2027-02-30\"");
  EXPECT_FALSE(parse_holidays("2027-01-01 Christmas\n", "h").ok());
}

}  // namespace
}  // namespace ptmpl::calendar_test
