// The project calendar of an MSPDI file in the template (issue 16): recurring exceptions are
// expanded date by date over the dates the calendar block records (each occurrence a holiday, or
// a working date on a weekend), with a finding only for what cannot be expanded; and an assigned
// resource whose calendar differs from the project's over its tasks' dates is a finding.
#include <gtest/gtest.h>

#include <pugixml.hpp>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "convert/mspdi_reader.hpp"
#include "convert/plan/work_calendar.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

using testing::source_path;

class CliConvertCalendar : public testing::CliScratchTest {
 protected:
  // The dates of the calendar block's list `key` ("holidays", "working") in a template.
  static std::vector<std::string> block_dates(const std::string& json, const std::string& key) {
    std::vector<std::string> out;
    const std::size_t list = json.find("\"" + key + "\": [");
    if (list == std::string::npos) return out;
    const std::size_t end = json.find(']', list);
    for (std::size_t at = json.find('"', json.find('[', list)); at < end; at = json.find('"', at + 12))
      out.push_back(json.substr(at + 1, 10));
    return out;
  }
};

TEST_F(CliConvertCalendar, RecurringExceptionsBecomeTheirDates) {
  // One exception of each recurrence type (tests/data/mspdi/recurring.xml), the plan from
  // 2027-01-04 to 2027-12-23: the block records 400 days on each side.
  const std::string out = (dir_ / "recurring.json").string();
  auto r = ptmpl("convert tests/data/mspdi/recurring.xml -o '" + out + "'");
  ASSERT_EQ(r.exit, 0) << r.err;
  const std::string json = read_file(out);
  const std::vector<std::string> holidays = {
      "2026-11-26",                                            // Thanksgiving (yearly, the fourth Thursday of November)
      "2026-12-24",                                            // Christmas Eve (yearly, December 24)
      "2027-01-01",                                            // the first weekday of every third month (a Friday)
      "2027-03-01", "2027-03-04", "2027-03-10",                // every third day; 03-07 is a Sunday
      "2027-04-01",                                            // the first weekday, three months on
      "2027-04-05", "2027-04-09", "2027-04-19", "2027-04-23",  // Mondays and Fridays, every other week
      "2027-05-31",                                            // the 31st, every other month
      "2027-07-01",                                            // the first weekday
      "2027-07-30",                // the last Friday (06-25 is worked: a plain exception over a recurring one)
      "2027-08-09", "2027-08-10",  // Type 8, not expanded: every day of its range
      "2027-08-27",                // the last Friday
      "2027-09-30",                // the 31st in a month of 30 days; 07-31 is a Saturday
      "2027-10-01",                // the first weekday
      "2027-11-25", "2027-12-24", "2028-11-23",  // Thanksgiving, Christmas Eve (2028-12-24 is a Sunday)
  };
  EXPECT_EQ(block_dates(json, "holidays"), holidays);
  // A working recurring exception on Saturdays: working dates.
  EXPECT_EQ(block_dates(json, "working"), (std::vector<std::string>{"2027-02-06", "2027-02-13", "2027-02-20"}));
  // What cannot be expanded, and only that, is a finding at the exception.
  expect_has(r.err,
             "tests/data/mspdi/recurring.xml:97:10: warning: calendar exception \"Weekday count\" recurs in a way "
             "ptmpl does not read (Type 8); it is applied to every day from 2027-08-09 to 2027-08-10 "
             "[mspdi-calendar-recurrence]");
  expect_has(r.err,
             "tests/data/mspdi/recurring.xml:103:10: warning: calendar exception \"No day of the week\" recurs "
             "(Type 6) on no date it names (DaysOfWeek \"0\"); it is not applied [mspdi-calendar-recurrence]");
  expect_has(r.err, "0 errors, 2 warnings");
}

// Reads `path`'s project calendar without one kind of its exceptions (`drop`: "Exceptions" for
// the Project 2007 ones, "WeekDay0" for the DayType 0 periods older versions read) and returns
// the dates from `from` to `to` on which it works other than its week says.
std::vector<Date> exception_days(const std::string& path, const std::string& drop, Date from, Date to,
                                 std::vector<plan::CalendarNote>& notes) {
  pugi::xml_document xml;
  EXPECT_TRUE(xml.load_file(path.c_str())) << path;
  const pugi::xml_node project = xml.child("Project");
  for (pugi::xml_node calendar : project.child("Calendars").children("Calendar")) {
    if (drop == "Exceptions") calendar.remove_child("Exceptions");
    if (drop != "WeekDay0") continue;
    pugi::xml_node days = calendar.child("WeekDays");
    for (pugi::xml_node day = days.first_child(); day;) {
      const pugi::xml_node next = day.next_sibling();
      if (std::string_view(day.child_value("DayType")) == "0") days.remove_child(day);
      day = next;
    }
  }
  const std::vector<plan::Calendar> calendars = mspdi::read_calendars(project.child("Calendars"));
  auto calendar = plan::WorkCalendar::read(calendars, project.child("CalendarUID").text().as_llong(), notes);
  calendar.expand(from, to, notes);
  std::vector<Date> out;
  for (Date d = from; d <= to; d += std::chrono::days{1})
    if (calendar.working(d) != calendar.week().works(std::chrono::weekday{d})) out.push_back(d);
  return out;
}

TEST_F(CliConvertCalendar, RecurringExceptionsAreTheDatesMsProjectWrites) {
  // MS Project's own file: 27 exceptions of every recurrence type (daily every 3, 5, 7 days,
  // weekly every 1 to 7 weeks, monthly by day and by position, yearly by day and by position),
  // which it also writes out date by date as DayType 0 periods for older readers. Expanded, the
  // exceptions close exactly the days those periods close.
  const std::string path =
      source_path("tests/data/mspdi/twins/mpxj__calendar-recurring-exceptions-project2016-mspdi.xml");
  const Date from = std::chrono::sys_days{std::chrono::year{1999} / 1 / 1};
  const Date to = std::chrono::sys_days{std::chrono::year{2011} / 12 / 31};
  std::vector<plan::CalendarNote> notes;
  const std::vector<Date> expanded = exception_days(path, "WeekDay0", from, to, notes);
  EXPECT_TRUE(notes.empty()) << notes.front().message;
  const std::vector<Date> written = exception_days(path, "Exceptions", from, to, notes);
  std::vector<std::string> a, b;
  for (Date d : expanded) a.push_back(format_date(d));
  for (Date d : written) b.push_back(format_date(d));
  EXPECT_EQ(a, b);
  // Of the 141 occurrences, 92 change a day: a weekday closed or a Saturday worked.
  EXPECT_EQ(b.size(), 92u);
  // The working exception: the first Saturday of the month, 2010-01-02 to 2010-03-06.
  EXPECT_NE(std::find(a.begin(), a.end(), "2010-02-06"), a.end());
}

TEST_F(CliConvertCalendar, TheRealFileConvertsWithoutRecurrenceFindings) {
  // Before, each of its 26 recurring exceptions was a finding and was applied to every day of
  // its range; now each is its dates, and none lies within 400 days of its 2017 plan.
  const std::string out = (dir_ / "recurring.json").string();
  auto r = ptmpl("convert tests/data/mspdi/twins/mpxj__calendar-recurring-exceptions-project2016-mspdi.xml -o '" + out +
                 "'");
  ASSERT_EQ(r.exit, 0) << r.err;
  expect_lacks(r.err, "mspdi-calendar-recurrence");
  expect_lacks(r.err, "warning");
}

TEST_F(CliConvertCalendar, AResourceCalendarThatDiffersOverItsTasksIsAFinding) {
  // Ann's calendar is the project's; Bob's has a vacation within his task; Cleo's one after
  // hers; Dan works other hours on Mondays; Eve shares Bob's calendar but works on no task.
  const std::string out = (dir_ / "resources.json").string();
  auto r = ptmpl("convert --verbose tests/data/mspdi/resource-calendar.xml -o '" + out + "'");
  ASSERT_EQ(r.exit, 0) << r.err;
  expect_has(r.err,
             "tests/data/mspdi/resource-calendar.xml:75:54: warning: resource 2 \"Bob\" works on a calendar of its own "
             "(UID 3), which differs from the project calendar over its tasks' dates (2027-03-01 to 2027-03-05): on "
             "2027-03-03 the resource does not work and the project works between 08:00 and 17:00 (2 days differ); "
             "the tasks it works on keep their dates as working days of the project calendar "
             "[mspdi-resource-calendar]");
  expect_has(r.err,
             "resource 4 \"Dan\" works on a calendar of its own (UID 5), which differs from the project calendar over "
             "its tasks' dates (2027-03-08 to 2027-03-12): on 2027-03-08 the resource works between 09:00 and 13:00 "
             "and the project works between 08:00 and 17:00;");
  expect_lacks(r.err, "\"Ann\"");
  expect_lacks(r.err, "\"Cleo\"");
  expect_lacks(r.err, "\"Eve\"");
  expect_has(r.err, "0 errors, 2 warnings");
  // Its tasks keep their dates.
  auto s = ptmpl("schedule '" + out + "'");
  EXPECT_EQ(s.exit, 0) << s.err;
  expect_has(s.out, "2027-03-05");
  expect_has(s.out, "2027-03-12");
}

TEST_F(CliConvertCalendar, MsProjectsNightShiftResourceIsAFinding) {
  // MS Project's own file: Brian Leach works on the Night Shift calendar (from 23:00, and on
  // Saturday mornings), his tasks on the Standard calendar's dates.
  auto r = ptmpl("convert tests/data/mspdi/twins/mpxj__mspdiresource.xml -o '" + (dir_ / "r.json").string() + "'");
  ASSERT_EQ(r.exit, 0) << r.err;
  expect_has(r.err,
             "tests/data/mspdi/twins/mpxj__mspdiresource.xml:1567:5: warning: resource 3 \"Brian Leach\" works on a "
             "calendar of its own (UID 5), which differs from the project calendar over its tasks' dates (2006-08-25 "
             "to 2006-08-30): on 2006-08-25 the resource works between 00:00 and 24:00 and the project works between "
             "08:00 and 17:00 (5 days differ); the tasks it works on keep their dates as working days of the project "
             "calendar [mspdi-resource-calendar]");
}

TEST_F(CliConvertCalendar, RecurringExceptionsAreExpandedWithinOneBound) {
  // Hostile: a plan over 390 years, and sixteen exceptions every other day over all of them
  // (over 1,100,000 occurrences), one every 2^63 - 1 days, one with a period beyond any
  // integer, one with a month that does not exist. The expansion stops at 1,000,000
  // occurrences and says where.
  std::string exceptions;
  auto exception = [&](const std::string& name, const std::string& fields) {
    exceptions +=
        "<Exception><TimePeriod><FromDate>1690-01-01T00:00:00</FromDate><ToDate>2100-12-31T23:59:00"
        "</ToDate></TimePeriod><Name>" +
        name + "</Name>" + fields + "<DayWorking>0</DayWorking></Exception>\n";
  };
  exception("Once", "<Type>7</Type><Period>9223372036854775807</Period>");
  exception("Beyond an integer", "<Type>7</Type><Period>99999999999999999999</Period>");
  exception("Thirteenth month", "<Type>2</Type><Month>12</Month><MonthDay>1</MonthDay>");
  for (int i = 1; i <= 16; ++i) exception("Every other day " + std::to_string(i), "<Type>7</Type><Period>2</Period>");
  const std::string path = file("many.xml", R"(<?xml version="1.0" encoding="UTF-8"?>
<Project xmlns="http://schemas.microsoft.com/project"><StartDate>1700-01-04T08:00:00</StartDate>
<MinutesPerDay>480</MinutesPerDay><CalendarUID>1</CalendarUID><Calendars><Calendar><UID>1</UID>
<IsBaseCalendar>1</IsBaseCalendar><Exceptions>
)" + exceptions + R"(</Exceptions></Calendar></Calendars><Tasks>
<Task><UID>1</UID><ID>1</ID><Name>First</Name><Start>1700-01-04T08:00:00</Start><Finish>1700-01-08T17:00:00</Finish></Task>
<Task><UID>2</UID><ID>2</ID><Name>Last</Name><Start>2089-12-19T08:00:00</Start><Finish>2089-12-22T17:00:00</Finish></Task>
</Tasks></Project>
)");
  auto r = ptmpl("convert --verbose '" + path + "' -o '" + (dir_ / "many.json").string() + "'");
  EXPECT_EQ(r.exit, 0) << r.err;
  expect_has(r.err,
             "warning: calendar exception \"Thirteenth month\" recurs (Type 2) on no date it names (Month \"12\"); "
             "it is not applied [mspdi-calendar-recurrence]");
  expect_has(r.err,
             "recurs more often than ptmpl expands (1000000 occurrences of all recurring exceptions together, "
             "from 1698-11-29 to 2091-01-27); from ");
  expect_has(r.err, " on, it and the recurring exceptions after it are not applied [mspdi-calendar-recurrence]");
  expect_has(r.err,
             "warning: calendar exception \"Beyond an integer\" recurs (Type 7) on no date it names (Period "
             "\"99999999999999999999\"); it is not applied [mspdi-calendar-recurrence]");
  // "Once" (a period of more than a billion days) is its first day only, 1690-01-01; the
  // others close every other day, so day 0 is the plan's start or the day after.
  expect_lacks(r.err, "\"Once\"");
  expect_has(r.err, "day 0 is 1700-01-0");
  expect_has(r.err, "\"Every other day 14\" recurs more often");
}

TEST_F(CliConvertCalendar, ResourceCalendarsAreComparedWithinOneBound) {
  // Hostile: 40 resources with calendars of their own, each on a task of 390 years: 5.7 million
  // days to compare. Comparing stops at 4,000,000 days; the resources beyond are still named.
  std::string calendars, resources, assignments;
  for (int i = 1; i <= 40; ++i) {
    const std::string n = std::to_string(i);
    calendars +=
        "<Calendar><UID>" + std::to_string(i + 1) +
        "</UID><BaseCalendarUID>1</BaseCalendarUID><Exceptions><Exception><TimePeriod><FromDate>2089-12-20T00:00:00"
        "</FromDate><ToDate>2089-12-20T23:59:00</ToDate></TimePeriod><DayWorking>0</DayWorking></Exception>"
        "</Exceptions></Calendar>\n";
    resources += "<Resource><UID>" + n + "</UID><Name>R" + n + "</Name><CalendarUID>" + std::to_string(i + 1) +
                 "</CalendarUID></Resource>\n";
    assignments +=
        "<Assignment><UID>" + n + "</UID><TaskUID>1</TaskUID><ResourceUID>" + n + "</ResourceUID></Assignment>\n";
  }
  const std::string path = file("resources.xml", R"(<?xml version="1.0" encoding="UTF-8"?>
<Project xmlns="http://schemas.microsoft.com/project"><StartDate>1700-01-04T08:00:00</StartDate>
<MinutesPerDay>480</MinutesPerDay><CalendarUID>1</CalendarUID><Calendars>
<Calendar><UID>1</UID><IsBaseCalendar>1</IsBaseCalendar></Calendar>
)" + calendars + R"(</Calendars><Tasks>
<Task><UID>1</UID><ID>1</ID><Name>Long</Name><Start>1700-01-04T08:00:00</Start><Finish>2089-12-22T17:00:00</Finish></Task>
</Tasks><Resources>
)" + resources + "</Resources><Assignments>\n" + assignments +
                                                     "</Assignments></Project>\n");
  auto r = ptmpl("convert --verbose '" + path + "' -o '" + (dir_ / "resources.json").string() + "'");
  EXPECT_EQ(r.exit, 0) << r.err;
  expect_has(r.err,
             "resource 1 \"R1\" works on a calendar of its own (UID 2), which differs from the project "
             "calendar over its tasks' dates (1700-01-04 to 2089-12-22): on 2089-12-20 the resource does not "
             "work and the project works between 08:00 and 17:00;");
  expect_has(r.err,
             "resource 40 \"R40\" works on a calendar of its own (UID 41), not compared day by day with the "
             "project calendar (too many days of resource calendars); the tasks it works on keep their dates as "
             "working days of the project calendar [mspdi-resource-calendar]");
  expect_has(r.err, "0 errors, 40 warnings");
}

}  // namespace
}  // namespace ptmpl
