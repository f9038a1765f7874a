// The calendars of .mpp files (src/convert/mpp/calendars.cpp): read from TBkndCal of MPP9, MPP12
// and MPP14 files, turned into the plan model, and compared with the MSPDI twins saved by
// the same Project version — day by day over the calendars, and as the template's calendar
// block where the file converts.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>

#include <pugixml.hpp>

#include "convert/cfb/compound_file.hpp"
#include "convert/mpp/mpp.hpp"
#include "convert/mpp/plan.hpp"
#include "convert/mspdi_reader.hpp"
#include "convert/plan/work_calendar.hpp"
#include "libtemplate/convert/convert.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

using detail::mpp::Calendar;
using detail::mpp::CalendarException;
using detail::mpp::Plan;

const std::string kCorpus = "tests/data/mpp/corpus/";

// The project properties and calendars of the .mpp file `bytes` (any format layout_of knows).
Result<Plan> read_calendars_of(const std::string& bytes, const std::string& path) {
  Result<detail::mpp::ReadPlan> read = detail::mpp::read_plan(bytes, path);
  if (!read.ok()) return read.error();
  if (read.value().calendars_unread) return Error::invalid(*read.value().calendars_unread);
  return std::move(read).value().plan;
}

const Calendar* find(const Plan& plan, std::int32_t uid) {
  for (const Calendar& c : plan.calendars)
    if (c.uid == uid) return &c;
  return nullptr;
}

const CalendarException* exception_named(const Calendar& calendar, const std::string& name) {
  for (const CalendarException& e : calendar.exceptions)
    if (e.name == name) return &e;
  return nullptr;
}

std::string hours(const plan::DayRule& rule) {
  if (!rule.working) return "off";
  return std::to_string(rule.start) + "-" + std::to_string(rule.end);
}

// The first day from 1995 to 2035 on which calendar `uid` of the two plans' calendars differs
// (working or not, first and last working minute), as "yyyy-mm-dd: a / b"; empty when none.
std::string first_difference(const std::vector<plan::Calendar>& ours, const std::vector<plan::Calendar>& twin,
                             std::int64_t uid) {
  std::vector<plan::CalendarNote> notes;
  plan::WorkCalendar a = plan::WorkCalendar::read(ours, uid, notes);
  plan::WorkCalendar b = plan::WorkCalendar::read(twin, uid, notes);
  const Date first = std::chrono::year_month_day{std::chrono::year{1995}, std::chrono::January, std::chrono::day{1}};
  const Date last = std::chrono::year_month_day{std::chrono::year{2035}, std::chrono::December, std::chrono::day{31}};
  a.expand(first, last, notes);
  b.expand(first, last, notes);
  for (Date d = first; d <= last; d += std::chrono::days{1})
    if (hours(a.day(d)) != hours(b.day(d))) return format_date(d) + ": " + hours(a.day(d)) + " / " + hours(b.day(d));
  return {};
}

// The template's calendar block (pretty-printed: from `"calendar": {` to its closing brace).
std::string calendar_block(const std::string& document) {
  const std::size_t from = document.find("\"calendar\": {");
  if (from == std::string::npos) return {};
  const std::size_t line = document.rfind('\n', from);
  const std::string indent = document.substr(line + 1, from - line - 1);
  const std::size_t to = document.find("\n" + indent + "}", from);
  return document.substr(from, to == std::string::npos ? std::string::npos : to - from);
}

// Project 2016's MPP14 (the late triplet order): every recurrence MS Project stores, with the
// parameters its MSPDI twin names, and a working exception with its times.
TEST(MppCalendar, RecurringExceptionsOfAnMpp14FileAreReadWithTheirRecurrence) {
  const std::string path = testing::source_path(kCorpus + "mpxj__calendar-recurring-exceptions-project2016-mpp14.mpp");
  Result<Plan> plan = read_calendars_of(testing::slurp(path), path);
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  ASSERT_EQ(plan.value().project.calendar_uid, 1);
  const Calendar* standard = find(plan.value(), 1);
  ASSERT_NE(standard, nullptr);
  EXPECT_EQ(standard->name, "Standard");
  EXPECT_FALSE(standard->base_uid);
  // Its days are the project's default calendar's: Monday to Friday, 08:00-12:00 and 13:00-17:00.
  EXPECT_TRUE(standard->days[0].times.empty());
  EXPECT_FALSE(standard->days[0].inherited);
  ASSERT_EQ(standard->days[1].times.size(), 2u);
  EXPECT_EQ(standard->days[1].times[0], std::make_pair(4800u, 7200u));
  EXPECT_EQ(standard->days[1].times[1], std::make_pair(7800u, 10200u));
  EXPECT_EQ(standard->exceptions.size(), 27u);

  struct Expected {
    const char* name;
    int type, period, days_of_week, month_day, month, item, position;
    const char* from;
    const char* to;
  };
  for (const Expected& x : {Expected{"Daily 1", 1, 1, 0, 1, 0, 0, 0, "2000-01-01", "2000-01-03"},
                            Expected{"Daily 2", 7, 3, 0, 1, 0, 0, 0, "2000-02-01", "2000-02-10"},
                            Expected{"Weekly 4 Thursday", 6, 4, 16, 1, 0, 0, 0, "2001-01-01", "2001-05-24"},
                            Expected{"Monthly Relative 2", 5, 3, 0, 1, 0, 5, 1, "2002-01-01", "2002-10-08"},
                            Expected{"Monthly Absolute 2", 4, 5, 0, 4, 0, 0, 0, "2003-01-01", "2005-02-04"},
                            Expected{"Yearly Relative 2", 3, 1, 0, 1, 3, 6, 1, "2004-01-01", "2008-04-09"},
                            Expected{"Yearly Absolute 3", 2, 1, 0, 3, 3, 0, 0, "2005-01-01", "2009-04-03"}}) {
    const CalendarException* e = exception_named(*standard, x.name);
    ASSERT_NE(e, nullptr) << x.name;
    EXPECT_EQ(e->type, x.type) << x.name;
    EXPECT_EQ(e->period, x.period) << x.name;
    EXPECT_EQ(e->days_of_week, x.days_of_week) << x.name;
    EXPECT_EQ(e->month_day, x.month_day) << x.name;
    EXPECT_EQ(e->month, x.month) << x.name;
    EXPECT_EQ(e->month_item, x.item) << x.name;
    EXPECT_EQ(e->month_position, x.position) << x.name;
    EXPECT_EQ(e->from, x.from) << x.name;
    EXPECT_EQ(e->to, x.to) << x.name;
    EXPECT_TRUE(e->times.empty()) << x.name;
  }
  const CalendarException* working = exception_named(*standard, "Recurring Working");
  ASSERT_NE(working, nullptr);
  EXPECT_EQ(working->type, 5);
  ASSERT_EQ(working->times.size(), 2u);
  EXPECT_EQ(working->times[0], std::make_pair(5400u, 7800u));   // 09:00-13:00
  EXPECT_EQ(working->times[1], std::make_pair(8400u, 10200u));  // 14:00-17:00
}

// Project 2010's MPP14 (the early triplet order), MPP12 and MPP9: base calendars, resource
// calendars based on Standard, and a calendar of no resource (not one of the plan's) left out.
TEST(MppCalendar, BaseAndResourceCalendarsAreReadInEveryFormat) {
  for (const std::string name :
       {"mpxj__calendar-calendars-project2010-mpp14.mpp", "mpxj__calendar-calendars-project2010-mpp12.mpp",
        "mpxj__calendar-calendars-project2010-mpp9.mpp"}) {
    const std::string path = testing::source_path(kCorpus + name);
    Result<Plan> plan = read_calendars_of(testing::slurp(path), path);
    ASSERT_TRUE(plan.ok()) << name << ": " << plan.error().message;
    std::string seen;
    for (const Calendar& c : plan.value().calendars) {
      seen += std::to_string(c.uid) + ":" + c.name + ":" + (c.base_uid ? std::to_string(*c.base_uid) : "-") + ":" +
              (c.resource_uid ? std::to_string(*c.resource_uid) : "-") + " ";
    }
    EXPECT_EQ(seen, "1:Standard:-:- 3:Calendar1:-:- 4:Calendar2:-:- 5::1:1 6::1:2 ") << name;
    EXPECT_EQ(plan.value().project.calendar_uid, 1) << name;
    const Calendar* resource = find(plan.value(), 5);
    ASSERT_NE(resource, nullptr) << name;
    for (const auto& day : resource->days) EXPECT_TRUE(day.inherited) << name;
  }
}

// The plan read from each copied file works day by day as its twin's calendars do, and an
// MPP14 file converts to its twin's calendar block without the mpp-calendar finding.
TEST(MppCalendar, CopiedFilesWorkAsTheirTwinsCalendars) {
  const std::map<std::string, std::string> pairs = {
      {"mpxj__calendar-recurring-exceptions-project2016-mpp14.mpp",
       "mpxj__calendar-recurring-exceptions-project2016-mspdi.xml"},
      {"mpxj__calendar-calendars-project2010-mpp14.mpp", "mpxj__calendar-calendars-project2010-mspdi.xml"},
      {"mpxj__calendar-calendars-project2010-mpp12.mpp", "mpxj__calendar-calendars-project2010-mspdi.xml"},
      {"mpxj__calendar-calendars-project2010-mpp9.mpp", "mpxj__calendar-calendars-project2010-mspdi.xml"}};
  for (const auto& [mpp, twin] : pairs) {
    const std::string path = testing::source_path(kCorpus + mpp);
    const std::string bytes = testing::slurp(path);
    Result<Plan> plan = read_calendars_of(bytes, path);
    ASSERT_TRUE(plan.ok()) << mpp << ": " << plan.error().message;
    const plan::Plan ours = detail::mpp::to_plan(plan.value());
    pugi::xml_document theirs;
    ASSERT_TRUE(theirs.load_file(testing::source_path(kCorpus + twin).c_str()));
    const pugi::xml_node b = theirs.child("Project");
    const std::vector<plan::Calendar> twin_calendars = mspdi::read_calendars(b.child("Calendars"));
    EXPECT_EQ(ours.project.calendar_uid.value_or(-1), b.child("CalendarUID").text().as_int()) << mpp;
    for (const plan::Calendar& calendar : twin_calendars)
      EXPECT_EQ(first_difference(ours.calendars, twin_calendars, calendar.uid), "")
          << mpp << ", calendar " << calendar.uid;
    if (mpp.find("mpp14") == std::string::npos) continue;
    Result<Conversion> from_mpp = convert_plan(bytes, mpp);
    Result<Conversion> from_twin = convert_plan(testing::slurp(testing::source_path(kCorpus + twin)), twin);
    ASSERT_TRUE(from_mpp.ok()) << from_mpp.error().message;
    ASSERT_TRUE(from_twin.ok()) << from_twin.error().message;
    EXPECT_EQ(calendar_block(from_mpp.value().document), calendar_block(from_twin.value().document)) << mpp;
    for (const Diagnostic& d : from_mpp.value().diagnostics) EXPECT_NE(d.rule, "mpp-calendar") << mpp << d.message;
  }
}

// A file without a calendar table converts on the standard calendar, saying why.
TEST(MppCalendar, AFileWithoutCalendarsIsReadOnTheStandardCalendarWithAFinding) {
  const std::string path = testing::source_path(kCorpus + "mpxj__task-links-project2016-mpp14.mpp");
  std::string bytes = testing::slurp(path);
  // Rename the storage "TBkndCal" (UTF-16 in the directory) so that the table is not found.
  const std::string name("T\0B\0k\0n\0d\0C\0a\0l\0", 16);
  const std::size_t at = bytes.find(name);
  ASSERT_NE(at, std::string::npos);
  bytes[at] = 'X';
  Result<Conversion> out = convert_plan(bytes, path);
  ASSERT_TRUE(out.ok()) << out.error().message;
  bool found = false;
  for (const Diagnostic& d : out.value().diagnostics) {
    if (d.rule != "mpp-calendar") continue;
    found = true;
    EXPECT_EQ(d.message,
              "the plan's calendars cannot be read (the calendar table has no stream \"TBkndCal/FixedMeta\"); its "
              "dates are counted on the standard calendar (Monday to Friday, 08:00-12:00 and 13:00-17:00)");
  }
  EXPECT_TRUE(found);
}

// Every pair of the shared corpus: the project calendar of the plan read from the .mpp
// works day by day as the twin's, per format; and the MPP14 files give their twin's calendar
// block.
TEST(MppCalendarSweep, ProjectCalendarsAgreeWithTheTwinsPerFormat) {
  namespace fs = std::filesystem;
  const fs::path folder = testing::shared_folder("corpus/mpp");
  if (folder.empty()) GTEST_SKIP() << "no ../shared/corpus/mpp beside the repository";
  std::map<std::string, std::pair<int, int>> days;    // format → (agree, pairs)
  std::map<std::string, std::pair<int, int>> all;     // every calendar of the twin
  std::map<std::string, int> not_standard;            // twins whose project calendar is not the standard one
  std::map<std::string, std::pair<int, int>> blocks;  // MPP14 calendar blocks
  std::string differ;
  for (const auto& [mpp, twin] : testing::mpp_pairs(folder / "pairs.tsv")) {
    const std::string bytes = testing::slurp((folder / mpp).string());
    const std::string format = mpp.find("mpp14") != std::string::npos   ? "MPP14"
                               : mpp.find("mpp12") != std::string::npos ? "MPP12"
                               : mpp.find("mpp9") != std::string::npos  ? "MPP9"
                                                                        : "other";
    ++days[format].second;
    Result<Plan> plan = read_calendars_of(bytes, mpp);
    pugi::xml_document theirs;
    if (plan.ok() && theirs.load_file((folder / twin).c_str())) {
      const plan::Plan a = detail::mpp::to_plan(plan.value());
      const pugi::xml_node b = theirs.child("Project");
      const std::vector<plan::Calendar> twin_calendars = mspdi::read_calendars(b.child("Calendars"));
      const std::int64_t uid = b.child("CalendarUID").text().as_llong();
      std::string difference = a.project.calendar_uid.value_or(-1) != uid
                                   ? std::string("another project calendar")
                                   : first_difference(a.calendars, twin_calendars, uid);
      if (difference.empty())
        ++days[format].first;
      else
        differ += "\n  " + mpp + ": " + difference;
      // Every other calendar of the twin (base and resource calendars), by UID.
      ++all[format].second;
      for (const plan::Calendar& calendar : twin_calendars) {
        const std::int64_t other = calendar.uid;
        if (difference.empty()) difference = first_difference(a.calendars, twin_calendars, other);
        if (!difference.empty()) {
          differ += "\n  " + mpp + ", calendar " + std::to_string(other) + ": " + difference;
          break;
        }
      }
      if (difference.empty()) ++all[format].first;
      // What the standard calendar (the fallback) would give: how many twins it differs from.
      if (!first_difference(detail::mpp::to_plan(Plan{}).calendars, twin_calendars, uid).empty())
        ++not_standard[format];
    } else {
      differ += "\n  " + mpp + ": " + (plan.ok() ? "unreadable twin" : plan.error().message);
    }
    if (format != "MPP14") continue;
    ++blocks[format].second;
    Result<Conversion> a = convert_plan(bytes, mpp);
    Result<Conversion> b = convert_plan(testing::slurp((folder / twin).string()), twin);
    if (a.ok() && b.ok() && calendar_block(a.value().document) == calendar_block(b.value().document))
      ++blocks[format].first;
    else
      differ += "\n  " + mpp + ": calendar block";
  }
  // Measured: every pair's project calendar agrees with its twin's over 1995-2035, in each
  // format (MPP8, the one other, is not read), and every MPP14 file gives its twin's calendar
  // block.
  EXPECT_EQ(days["MPP14"], std::make_pair(49, 49)) << differ;
  EXPECT_EQ(days["MPP12"], std::make_pair(76, 76)) << differ;
  EXPECT_EQ(days["MPP9"], std::make_pair(95, 95)) << differ;
  EXPECT_EQ(days["other"], std::make_pair(0, 1)) << differ;
  EXPECT_EQ(all["MPP14"], std::make_pair(49, 49)) << differ;
  EXPECT_EQ(all["MPP12"], std::make_pair(76, 76)) << differ;
  EXPECT_EQ(all["MPP9"], std::make_pair(95, 95)) << differ;
  EXPECT_EQ(blocks["MPP14"], std::make_pair(49, 49)) << differ;
  // Of those, the twins whose project calendar is not the standard calendar somewhere in
  // 1995-2035 (holidays, other hours): the ones the standard calendar got wrong (the recurring
  // exceptions of 2000-2010; the plans themselves lie in 2017, so their calendar blocks were
  // the same on the standard calendar).
  EXPECT_EQ(not_standard["MPP14"], 2) << differ;
  EXPECT_EQ(not_standard["MPP12"], 3) << differ;
  EXPECT_EQ(not_standard["MPP9"], 0) << differ;
}

}  // namespace
}  // namespace ptmpl
