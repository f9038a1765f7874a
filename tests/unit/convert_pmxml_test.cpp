// The Primavera P6 XML (PMXML) reader: what it reads of P6's own exports (tests/data/p6/, origins
// in SOURCES-pmxml.md) into the P6 model (convert/p6/p6.hpp), value by value against what the
// files say (and their XER twins in the shared corpus), and what it does with hostile input.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "convert/findings.hpp"
#include "convert/p6/p6.hpp"
#include "libtemplate/convert/convert.hpp"
#include "test_files.hpp"

namespace ptmpl::convert_pmxml_test {
namespace {

using namespace std::chrono;
using detail::p6::ActivityType;
using detail::p6::ConstraintType;
using detail::p6::Interval;
using detail::p6::LagCalendar;
using detail::p6::RelationshipType;
using detail::p6::Status;
using testing::read_source;

// One reading of `text`: the file (or the error) and the findings.
struct Read {
  std::string path;
  std::string text;
  detail::FindingSink findings{text, path, ConvertOptions{}};
  Result<detail::p6::File> file = detail::p6::read_pmxml(text, path, findings);
  std::vector<Diagnostic> diagnostics = findings.take();

  Read(std::string name, std::string content) : path(std::move(name)), text(std::move(content)) {}
  explicit Read(const std::string& data_file) : Read(data_file, read_source(data_file)) {}

  const detail::p6::File& ok() const {
    EXPECT_TRUE(file.ok()) << (file.ok() ? "" : file.error().message);
    return file.value();
  }
  [[nodiscard]] std::vector<std::string> rules() const {
    std::vector<std::string> out;
    for (const Diagnostic& d : diagnostics) out.push_back(d.rule);
    return out;
  }
};

plan::DateTime at(year_month_day date, int hour, int minute = 0) {
  return {sys_days{date}, hour * 60 + minute};
}

TEST(ConvertPmxml, PercentCompleteCalendarIsItsXerTwins) {
  const Read read("tests/data/p6/mpxj__percent-complete-8.4.pmxml");
  const detail::p6::File& file = read.ok();
  EXPECT_TRUE(read.diagnostics.empty());
  ASSERT_EQ(file.calendars.size(), 1U);
  const detail::p6::Calendar& calendar = file.calendars[0];
  EXPECT_EQ(calendar.id, 178);
  EXPECT_EQ(calendar.name, "Corporate - Standard Full Time");
  EXPECT_EQ(calendar.hours_per_day, 8.0);
  EXPECT_FALSE(calendar.base_id);  // xsi:nil
  EXPECT_TRUE(calendar.week_read);
  EXPECT_TRUE(calendar.notes.empty());
  // Finish 15:59:00 is the last minute worked: 08:00–16:00, as the XER twin's `f|16:00`.
  const std::vector<Interval> day{{8 * 60, 16 * 60}};
  EXPECT_TRUE(calendar.week[0].empty());  // Sunday, <WorkTime xsi:nil="true"/>
  for (std::size_t d = 1; d <= 5; ++d) EXPECT_EQ(calendar.week[d], day) << d;
  EXPECT_TRUE(calendar.week[6].empty());
  // The XER twin's exceptions, as day serials from 1899-12-30.
  const int serials[] = {41519, 41155, 40364, 40910, 41633, 41094, 40427, 40536, 41235, 40179, 40903, 40543,
                         40791, 41421, 40728, 41275, 41606, 40329, 41459, 40871, 40507, 41057, 40693, 41268};
  std::vector<Date> expected;
  for (int serial : serials) expected.push_back(sys_days{year{1899} / 12 / 30} + days{serial});
  std::sort(expected.begin(), expected.end());
  std::vector<Date> holidays;
  for (const auto& exception : calendar.exceptions) {
    EXPECT_TRUE(exception.work.empty());  // holidays
    EXPECT_TRUE(exception.place.known());
    holidays.push_back(exception.date);
  }
  EXPECT_EQ(holidays, expected);
  EXPECT_EQ(holidays.front(), sys_days{year{2010} / 1 / 1});  // serial 40179
}

TEST(ConvertPmxml, PercentCompleteProjectAndActivities) {
  const Read read("tests/data/p6/mpxj__percent-complete-8.4.pmxml");
  const detail::p6::File& file = read.ok();
  ASSERT_EQ(file.projects.size(), 1U);
  const detail::p6::Project& project = file.projects[0];
  EXPECT_EQ(project.id, 4507);
  EXPECT_EQ(project.short_name, "EC00640");
  EXPECT_EQ(project.name, "Percent Complete Test");
  EXPECT_EQ(project.calendar_id, 178);
  EXPECT_EQ(project.data_date.value, at(year{2015} / 2 / 24, 0));
  EXPECT_EQ(project.planned_start.value, at(year{2015} / 2 / 24, 0));
  EXPECT_EQ(project.lag_calendar, LagCalendar::Predecessor);  // not written: P6's default
  EXPECT_TRUE(project.lag_calendar_text.empty());
  // The project node (WBSObjectId 26010, the XER twin's proj_node_flag row) and no other WBS.
  ASSERT_EQ(project.wbs.size(), 1U);
  EXPECT_EQ(project.wbs[0].id, 26010);
  EXPECT_TRUE(project.wbs[0].project_node);
  EXPECT_EQ(project.wbs[0].name, "Percent Complete Test");

  ASSERT_EQ(project.activities.size(), 12U);
  for (std::size_t i = 0; i < project.activities.size(); ++i) {
    EXPECT_EQ(project.activities[i].id, 101717 + static_cast<std::int64_t>(i));
    EXPECT_FALSE(project.activities[i].wbs_id);  // xsi:nil: directly under the project
  }
  const detail::p6::Activity& first = project.activities[0];
  EXPECT_EQ(first.code, "A1000");
  EXPECT_EQ(first.name, "Duration 0%");
  EXPECT_EQ(first.calendar_id, 178);
  EXPECT_EQ(first.type, ActivityType::TaskDependent);
  EXPECT_EQ(first.status, Status::NotStarted);
  EXPECT_EQ(first.planned_hours.value, 800.0);  // hours, as the XER twin's target_drtn_hr_cnt
  EXPECT_EQ(first.remaining_hours.value, 800.0);
  EXPECT_EQ(first.start.value, at(year{2015} / 2 / 24, 8));  // RemainingEarlyStartDate (restart_date)
  EXPECT_EQ(first.finish.value, at(year{2015} / 7 / 13, 16));
  EXPECT_EQ(first.planned_start.value, at(year{2015} / 2 / 24, 8));
  EXPECT_EQ(first.planned_finish.value, at(year{2015} / 7 / 13, 16));
  EXPECT_FALSE(first.actual_start.written());
  EXPECT_EQ(first.primary.type, ConstraintType::None);  // <PrimaryConstraintType />
  EXPECT_EQ(first.percent_complete, 0.0);

  const detail::p6::Activity& second = project.activities[1];  // Duration 25%
  EXPECT_EQ(second.status, Status::InProgress);
  EXPECT_EQ(second.remaining_hours.value, 600.0);
  EXPECT_EQ(second.finish.value, at(year{2015} / 6 / 8, 16));
  EXPECT_EQ(second.actual_start.value, at(year{2015} / 2 / 24, 8));
  EXPECT_EQ(second.percent_complete, 25.0);                  // the fraction 0.25
  EXPECT_EQ(project.activities[7].percent_complete, 100.0);  // Physical 100%
  EXPECT_EQ(project.activities[10].percent_complete, 75.0);  // Units 75%
}

TEST(ConvertPmxml, ResourceRatesAssignmentsRolesAndCdata) {
  const Read read("tests/data/p6/mpxj__resource-rates-test.pmxml.xml");
  const detail::p6::File& file = read.ok();
  EXPECT_TRUE(read.diagnostics.empty());
  ASSERT_EQ(file.projects.size(), 1U);
  const detail::p6::Project& project = file.projects[0];
  EXPECT_EQ(project.id, 368);
  EXPECT_EQ(project.short_name, "NEWPROJ");  // CDATA
  EXPECT_EQ(project.name, "Resource Rates Test");
  EXPECT_EQ(project.currency, "USD");
  ASSERT_EQ(file.resources.size(), 1U);
  EXPECT_EQ(file.resources[0].id, 1316);
  EXPECT_EQ(file.resources[0].name, "Resource 1");
  EXPECT_EQ(file.resources[0].short_name, "R1");
  EXPECT_EQ(file.resources[0].calendar_id, 597);
  ASSERT_EQ(file.roles.size(), 1U);
  EXPECT_EQ(file.roles[0].id, 332);
  EXPECT_EQ(file.roles[0].short_name, "ROLE1");
  // Calendar 597: 08:00–12:00 and 13:00–17:00 (Finish 11:59 and 16:59), Monday to Friday.
  ASSERT_EQ(file.calendars.size(), 1U);
  const std::vector<Interval> day{{8 * 60, 12 * 60}, {13 * 60, 17 * 60}};
  EXPECT_EQ(file.calendars[0].week[3], day);
  EXPECT_TRUE(file.calendars[0].week[0].empty());
  EXPECT_TRUE(file.calendars[0].exceptions.empty());

  ASSERT_EQ(project.wbs.size(), 1U);  // the project node
  EXPECT_EQ(project.wbs[0].id, 3680);
  ASSERT_EQ(project.activities.size(), 1U);
  EXPECT_EQ(project.activities[0].id, 35845);
  EXPECT_FALSE(project.activities[0].wbs_id);
  // The XER twin's TASKRSRC rows 6639–6643: 240 h each; costs at 1, 2, 6 (role), 7 (role), 99 an hour.
  struct Expected {
    std::optional<std::int64_t> role;
    double cost;
  };
  const Expected expected[] = {{{}, 240}, {{}, 480}, {332, 1440}, {332, 1680}, {{}, 23760}};
  ASSERT_EQ(project.assignments.size(), std::size(expected));
  for (std::size_t i = 0; i < std::size(expected); ++i) {
    SCOPED_TRACE(i);
    const detail::p6::Assignment& a = project.assignments[i];
    EXPECT_EQ(a.activity_id, 35845);
    EXPECT_EQ(a.resource_id, 1316);
    EXPECT_EQ(a.role_id, expected[i].role);
    EXPECT_EQ(a.planned_units.value, 240.0);
    EXPECT_EQ(a.planned_cost.value, expected[i].cost);
    EXPECT_EQ(a.actual_units.value, 0.0);
    EXPECT_TRUE(a.place.known());
  }
}

// The four 18.1 exports, without a namespace, differ only in RelationshipLagCalendar.
TEST(ConvertPmxml, LagCalendarOfEachQuartetFile) {
  const std::pair<const char*, LagCalendar> files[] = {
      {"PredecessorCalendar", LagCalendar::Predecessor},
      {"SuccessorCalendar", LagCalendar::Successor},
      {"TwentyFourHourCalendar", LagCalendar::TwentyFourHour},
      {"ProjectDefaultCalendar", LagCalendar::ProjectDefault},
  };
  for (const auto& [name, lag] : files) {
    SCOPED_TRACE(name);
    const Read read(std::string("tests/data/p6/mpxj__") + name + ".pmxml.xml");
    const detail::p6::File& file = read.ok();
    EXPECT_TRUE(read.diagnostics.empty());
    ASSERT_EQ(file.projects.size(), 1U);  // not the summary under <ProjectList>
    const detail::p6::Project& project = file.projects[0];
    EXPECT_EQ(project.lag_calendar, lag);
    EXPECT_TRUE(project.lag_calendar_place.known());
    EXPECT_EQ(project.id, 34136);
    EXPECT_EQ(project.short_name, "201020");
    EXPECT_TRUE(project.retained_logic);
    EXPECT_FALSE(project.progress_override);
    EXPECT_TRUE(project.logic_place.known());
    ASSERT_EQ(file.calendars.size(), 1U);
    EXPECT_EQ(file.calendars[0].id, 12002);
    const std::vector<Interval> day{{7 * 60, 12 * 60}, {12 * 60 + 30, 15 * 60 + 30}};
    EXPECT_EQ(file.calendars[0].week[1], day);
    EXPECT_TRUE(file.calendars[0].week[6].empty());
    ASSERT_EQ(project.wbs.size(), 1U);  // no project node written: only WBS 36331
    EXPECT_EQ(project.wbs[0].id, 36331);
    EXPECT_FALSE(project.wbs[0].project_node);
    EXPECT_EQ(project.wbs[0].sequence, 1500);
    ASSERT_EQ(project.activities.size(), 1U);
    const detail::p6::Activity& a = project.activities[0];
    EXPECT_EQ(a.code, "A1000");
    EXPECT_EQ(a.status, Status::Completed);
    EXPECT_EQ(a.planned_hours.value, 360.0);
    EXPECT_EQ(a.start.value, at(year{2021} / 5 / 17, 22));  // EarlyStartDate: no remaining early dates
    EXPECT_EQ(a.actual_finish.value, at(year{2021} / 4 / 19, 15, 30));
    EXPECT_EQ(a.percent_complete, 100.0);
    EXPECT_EQ(a.wbs_id, 36331);
  }
}

TEST(ConvertPmxml, RelationshipsOfEachTypeAcrossProjectsWithAPrefix) {
  const Read read("tests/data/p6/relationships.pmxml");
  const detail::p6::File& file = read.ok();
  EXPECT_TRUE(read.diagnostics.empty());
  ASSERT_EQ(file.projects.size(), 2U);
  const detail::p6::Project& p1 = file.projects[0];
  EXPECT_FALSE(p1.retained_logic);
  EXPECT_TRUE(p1.progress_override);
  EXPECT_EQ(file.projects[1].lag_calendar, LagCalendar::TwentyFourHour);
  ASSERT_EQ(p1.wbs.size(), 2U);
  EXPECT_TRUE(p1.wbs[0].project_node);
  EXPECT_EQ(p1.wbs[1].parent_id, 100);
  EXPECT_EQ(p1.wbs[1].sequence, 20);
  ASSERT_EQ(p1.activities.size(), 3U);
  EXPECT_EQ(p1.activities[0].type, ActivityType::StartMilestone);
  EXPECT_EQ(p1.activities[1].type, ActivityType::FinishMilestone);
  EXPECT_FALSE(p1.activities[1].wbs_id);
  const detail::p6::Activity& c = p1.activities[2];
  EXPECT_EQ(c.type, ActivityType::LevelOfEffort);
  EXPECT_EQ(c.primary.type, ConstraintType::StartOnOrAfter);
  EXPECT_EQ(c.primary.date.value, at(year{2030} / 1 / 7, 8));
  EXPECT_EQ(c.secondary.type, ConstraintType::FinishOnOrBefore);
  EXPECT_EQ(c.secondary.date.value, at(year{2030} / 2 / 1, 17));

  struct Expected {
    std::int64_t predecessor, successor;
    RelationshipType type;
    double lag;
    bool cross;
  };
  const Expected expected[] = {
      {11, 12, RelationshipType::FinishToStart, 0, false},     {11, 13, RelationshipType::StartToStart, 8, false},
      {12, 13, RelationshipType::FinishToFinish, -4.5, false}, {13, 12, RelationshipType::StartToFinish, 16, false},
      {21, 11, RelationshipType::FinishToStart, 0, true},
  };
  ASSERT_EQ(p1.relationships.size(), std::size(expected));
  for (std::size_t i = 0; i < std::size(expected); ++i) {
    SCOPED_TRACE(i);
    const detail::p6::Relationship& r = p1.relationships[i];
    EXPECT_EQ(r.predecessor_id, expected[i].predecessor);
    EXPECT_EQ(r.successor_id, expected[i].successor);
    EXPECT_EQ(r.type, expected[i].type);
    EXPECT_EQ(r.lag_hours.value, expected[i].lag);
    EXPECT_EQ(r.cross_project, expected[i].cross);
  }
  // Written beside the projects: P2's, as its successor is; its predecessor is P1's.
  ASSERT_EQ(file.projects[1].relationships.size(), 1U);
  EXPECT_EQ(file.projects[1].relationships[0].successor_id, 22);
  EXPECT_TRUE(file.projects[1].relationships[0].cross_project);

  // A 24-hour day (Finish 23:59) and an exception with working time.
  ASSERT_EQ(file.calendars.size(), 1U);
  EXPECT_EQ(file.calendars[0].week[3], (std::vector<Interval>{{0, 24 * 60}}));
  ASSERT_EQ(file.calendars[0].exceptions.size(), 1U);
  EXPECT_EQ(file.calendars[0].exceptions[0].date, sys_days{year{2030} / 1 / 2});
  EXPECT_EQ(file.calendars[0].exceptions[0].work, (std::vector<Interval>{{9 * 60, 13 * 60}}));
}

// The views point into the document the file keeps, not into the text read.
TEST(ConvertPmxml, TheFileOutlivesTheText) {
  detail::p6::File file;
  {
    const Read read("tests/data/p6/mpxj__percent-complete-8.4.pmxml");
    file = read.ok();
  }
  ASSERT_EQ(file.projects.size(), 1U);
  EXPECT_EQ(file.projects[0].name, "Percent Complete Test");
  EXPECT_EQ(file.calendars[0].name, "Corporate - Standard Full Time");
}

// A PMXML document holding `inside`, its root with `root_attributes`.
std::string document(std::string_view inside, std::string_view root_attributes = "") {
  return "<APIBusinessObjects" + std::string(root_attributes) + ">" + std::string(inside) + "</APIBusinessObjects>";
}

// A project P (ObjectId 1) with `body` after its Id and ObjectId.
std::string project(std::string_view body) {
  return "<Project><Id>P</Id><ObjectId>1</ObjectId>" + std::string(body) + "</Project>";
}

TEST(ConvertPmxml, NotXmlIsAnErrorWithItsPlace) {
  const Read read("plan.xml", "ERMHDR\t8.4\n%T\tPROJECT\n");
  ASSERT_FALSE(read.file.ok());
  EXPECT_EQ(read.file.error().code, ErrorCode::kInvalid);
  EXPECT_EQ(read.file.error().message, "plan.xml:3:1: not well-formed XML: No document element found");
}

TEST(ConvertPmxml, AnotherRootIsAnError) {
  const Read read("plan.xml", "<Project xmlns=\"http://schemas.microsoft.com/project\"/>");
  ASSERT_FALSE(read.file.ok());
  EXPECT_EQ(read.file.error().message,
            "plan.xml: not a Primavera P6 XML export (its root element is <Project>, not <APIBusinessObjects>)");
}

TEST(ConvertPmxml, AHugeLagIsReadAsWritten) {
  const Read read("plan.xml", document(project("<Activity><ObjectId>1</ObjectId></Activity>"
                                               "<Activity><ObjectId>2</ObjectId></Activity>"
                                               "<Relationship><Lag>1000000000000</Lag><PredecessorActivityObjectId>1"
                                               "</PredecessorActivityObjectId><SuccessorActivityObjectId>2"
                                               "</SuccessorActivityObjectId><Type>Finish to Start</Type></Relationship>"
                                               "<Relationship><Lag>1e999</Lag><PredecessorActivityObjectId>1"
                                               "</PredecessorActivityObjectId><SuccessorActivityObjectId>2"
                                               "</SuccessorActivityObjectId><Type>Sideways</Type></Relationship>")));
  const detail::p6::File& file = read.ok();
  ASSERT_EQ(file.projects.at(0).relationships.size(), 2U);
  EXPECT_EQ(file.projects[0].relationships[0].lag_hours.value, 1e12);  // to_plan says what a template holds
  // Beyond a double, and a type P6 does not write: kept as written for to_plan's findings.
  EXPECT_FALSE(file.projects[0].relationships[1].lag_hours.value);
  EXPECT_EQ(file.projects[0].relationships[1].lag_hours.text, "1e999");
  EXPECT_EQ(file.projects[0].relationships[1].type, RelationshipType::Unknown);
  EXPECT_EQ(file.projects[0].relationships[1].type_text, "Sideways");
}

TEST(ConvertPmxml, ADoctypeIsReportedAndItsEntitiesAreNotExpanded) {
  std::string text = "<?xml version=\"1.0\"?>\n<!DOCTYPE APIBusinessObjects [\n <!ENTITY a \"aaaaaaaaaa\">\n";
  for (int i = 1; i < 10; ++i) {
    text += " <!ENTITY " + std::string(1, static_cast<char>('a' + i)) + " \"";
    for (int k = 0; k < 10; ++k) text += "&" + std::string(1, static_cast<char>('a' + i - 1)) + ";";
    text += "\">\n";
  }
  text += "]>\n" + document(project("<Name>&j;</Name>"));
  const Read read("bomb.xml", text);
  const detail::p6::File& file = read.ok();
  ASSERT_EQ(file.projects.size(), 1U);
  EXPECT_EQ(file.projects[0].name, "&j;");
  ASSERT_EQ(read.rules(), std::vector<std::string>{"p6-pmxml-doctype"});
  EXPECT_EQ(read.diagnostics[0].line, 2U);
}

TEST(ConvertPmxml, AnObjectWithoutObjectIdIsSkippedWithAFinding) {
  const Read read("plan.xml",
                  document(project("<Activity><Id>A1</Id></Activity>"
                                   "<Activity><Id>A2</Id><ObjectId>x7</ObjectId></Activity>"
                                   "<Activity><Id>A3</Id><ObjectId>3</ObjectId><WBSObjectId>w</WBSObjectId>"
                                   "</Activity>"
                                   "<Relationship><PredecessorActivityObjectId>3</PredecessorActivityObjectId>"
                                   "</Relationship>")));
  const detail::p6::File& file = read.ok();
  ASSERT_EQ(file.projects.size(), 1U);
  ASSERT_EQ(file.projects[0].activities.size(), 1U);
  EXPECT_EQ(file.projects[0].activities[0].code, "A3");
  EXPECT_FALSE(file.projects[0].activities[0].wbs_id);
  EXPECT_TRUE(file.projects[0].relationships.empty());
  EXPECT_EQ(read.rules(), (std::vector<std::string>{"p6-pmxml-object-id", "p6-pmxml-object-id", "p6-pmxml-value",
                                                    "p6-pmxml-object-id"}));
  EXPECT_EQ(read.diagnostics[0].message,
            "activity A1 has no ObjectId; it is skipped (P6 objects refer to each other by ObjectId)");
  EXPECT_NE(read.diagnostics[1].message.find("\"x7\""), std::string::npos);
  EXPECT_EQ(read.diagnostics[2].message,
            "activity A3: WBSObjectId \"w\" is not an ObjectId (an integer); it is ignored");
}

TEST(ConvertPmxml, RepeatedAndNilFieldsAndUnreadableCalendarParts) {
  const Read read(
      "plan.xml",
      document("<Calendar><ObjectId>5</ObjectId><StandardWorkWeek>"
               "<StandardWorkHours><DayOfWeek>Funday</DayOfWeek></StandardWorkHours>"
               "<StandardWorkHours><DayOfWeek>Monday</DayOfWeek><WorkTime><Start>17:00:00</Start>"
               "<Finish>08:00:00</Finish></WorkTime></StandardWorkHours></StandardWorkWeek>"
               "<HolidayOrExceptions><HolidayOrException><Date>someday</Date></HolidayOrException>"
               "</HolidayOrExceptions></Calendar>" +
                   project("<Name>first</Name><Name>last</Name><DataDate xsi:nil=\"true\">2020-01-01T00:00:00"
                           "</DataDate><OutOfSequenceScheduleType>Whatever</OutOfSequenceScheduleType>"),
               " xmlns=\"http://xmlns.oracle.com/Primavera/P6Professional/V8.4/API/BusinessObjects\""
               " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""));
  const detail::p6::File& file = read.ok();
  ASSERT_EQ(file.projects.size(), 1U);
  EXPECT_EQ(file.projects[0].name, "last");
  EXPECT_FALSE(file.projects[0].data_date.written());
  EXPECT_TRUE(file.projects[0].retained_logic);
  EXPECT_EQ(read.rules(), std::vector<std::string>{"p6-pmxml-value"});
  ASSERT_EQ(file.calendars.size(), 1U);
  const detail::p6::Calendar& calendar = file.calendars[0];
  EXPECT_FALSE(calendar.week_read);
  EXPECT_TRUE(calendar.week[1].empty());
  EXPECT_TRUE(calendar.exceptions.empty());
  ASSERT_EQ(calendar.notes.size(), 3U);
  EXPECT_EQ(calendar.notes[0], "DayOfWeek \"Funday\" (line 1) is not a day of the week (Sunday to Saturday)");
  EXPECT_NE(calendar.notes[1].find("(Start \"17:00:00\", Finish \"08:00:00\") is not a period of a day"),
            std::string::npos);
  EXPECT_NE(calendar.notes[2].find("the Date \"someday\", not a date"), std::string::npos);
}

}  // namespace
}  // namespace ptmpl::convert_pmxml_test
