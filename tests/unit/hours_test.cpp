// Hours by assignment (docs/semantics.md §14, `schedule --hours`): against weeks worked out by
// hand, and the command's formats, capacities and refusals.
#include "libtemplate/core/hours.hpp"

#include <gtest/gtest.h>

#include <string>

#include "cli_run.hpp"
#include "libtemplate/core/preview.hpp"
#include "libtemplate/core/template_file.hpp"

namespace ptmpl {
namespace {

using testing::CliRun;

// Day 0 is Monday 4 January 2027 (workweek): days 0-4 are W01 (4-8 Jan), 5-9 W02, 10-14 W03,
// 15-19 W04 (19 = Friday 29 Jan), 20 W05 (Monday 1 Feb).
//   A, days 0-2, 600 min, Engineer and Designer: 300 each, 100 a day: W01 300 + 300.
//   B, after A, days 3-6, 1000 min, Engineer: 250 a day: W01 500 (Thu, Fri), W02 500.
//   C, days 0-1, 61 min, no assignment: 31 + 30: W01 unassigned 61.
//   P, a parent stating 120 min for Designer, over its child D (day 5, Monday 11 Jan), whose
//      own 999 min it stands for: W02 Designer 120.
//   M, a milestone on day 10 (Monday 18 Jan), 30 min, Designer: W03 30.
//   E, days 19-20, 90 min, Engineer: 45 on Friday 29 Jan (W04, January), 45 on Monday 1 Feb
//      (W05, February).
//   F, day 0, 60 min, id 9 that no entry names: W01 #9 60.
// Weeks (Engineer, Designer, #9, unassigned): W01 800 300 60 61, W02 500 120 0 0, W03 0 30 0 0,
// W04 45 0 0 0, W05 45 0 0 0. Months: January 1345 450 60 61, February 45 0 0 0 (1961 minutes,
// the template's total). An Engineer capacity of 8h/week (480 min) is exceeded in W01 and W02.
constexpr std::string_view kTemplate = R"({"project_template": {"title": "Hours", "raw_json": [
  {"title": "A", "temp_id": 1, "duration": 3, "time_estimate_in_minutes": 600,
   "assignments": [{"assignee_id": 1}, {"assignee_id": 2}],
   "dependencies": [{"source_id": 1, "target_id": 2, "type": 2}]},
  {"title": "B", "temp_id": 2, "duration": 4, "time_estimate_in_minutes": 1000, "assignments": [{"assignee_id": 1}]},
  {"title": "C", "temp_id": 3, "duration": 2, "time_estimate_in_minutes": 61},
  {"title": "P", "temp_id": 4, "time_estimate_in_minutes": 120, "assignments": [{"assignee_id": 2}], "sub_stories": [
    {"title": "D", "temp_id": 5, "relative_start_date": 5, "duration": 1, "time_estimate_in_minutes": 999,
     "assignments": [{"assignee_id": 1}]}]},
  {"title": "M", "temp_id": 6, "story_type": "milestone", "relative_start_date": 10, "relative_due_date": 10,
   "time_estimate_in_minutes": 30, "assignments": [{"assignee_id": 2}]},
  {"title": "E", "temp_id": 7, "relative_start_date": 19, "duration": 2, "time_estimate_in_minutes": 90,
   "assignments": [{"assignee_id": 1}]},
  {"title": "F", "temp_id": 8, "duration": 1, "time_estimate_in_minutes": 60, "assignments": [{"assignee_id": 9}]}]},
 "project_template_assignments": [{"id": 1, "name": "Engineer"}, {"id": 2, "name": "Designer"}],
 "calendar": {"start": "2027-01-04"}}
)";

TEST(Hours, WeeksAndMonthsAsWorkedOutByHand) {
  const TemplateFile file = TemplateFile::parse("hours.json", FileText(std::string(kTemplate)));
  const TemplateSource& source = file.templates().at(0);
  const ScheduledTemplate planned(source.model.stories);
  const Rollup rollup(planned.index());
  auto calendar = resolve_calendar(file, source, {});
  ASSERT_TRUE(calendar.ok() && calendar.value());
  const std::vector<Capacity> capacity{{"Engineer", 480}};
  auto hours = hours_by_assignment(planned, rollup, *calendar.value(), source.model.assignments, capacity);
  ASSERT_TRUE(hours.ok()) << hours.error().message;
  const Hours& h = hours.value();
  std::vector<std::string> names;
  for (const HoursRow& row : h.rows) names.push_back(row.name);
  EXPECT_EQ(names, (std::vector<std::string>{"Engineer", "Designer", "#9", "unassigned"}));
  using Minutes = std::vector<std::int64_t>;
  ASSERT_EQ(h.weeks.size(), 5U);
  EXPECT_EQ(h.weeks[0].label, "2027-W01");
  EXPECT_EQ(format_date(h.weeks[0].first), "2027-01-04");
  EXPECT_EQ(h.weeks[0].minutes, (Minutes{800, 300, 60, 61}));
  EXPECT_EQ(h.weeks[1].minutes, (Minutes{500, 120, 0, 0}));
  EXPECT_EQ(h.weeks[2].minutes, (Minutes{0, 30, 0, 0}));
  EXPECT_EQ(h.weeks[3].minutes, (Minutes{45, 0, 0, 0}));
  EXPECT_EQ(h.weeks[4].label, "2027-W05");
  EXPECT_EQ(h.weeks[4].minutes, (Minutes{45, 0, 0, 0}));
  ASSERT_EQ(h.months.size(), 2U);
  EXPECT_EQ(h.months[0].label, "2027-01");
  EXPECT_EQ(h.months[0].minutes, (Minutes{1345, 450, 60, 61}));
  EXPECT_EQ(h.months[1].minutes, (Minutes{45, 0, 0, 0}));
  EXPECT_TRUE(h.over(h.weeks[0], 0));
  EXPECT_TRUE(h.over(h.weeks[1], 0));
  EXPECT_FALSE(h.over(h.weeks[3], 0));
  EXPECT_FALSE(h.over(h.weeks[0], 1));  // no capacity set
}

TEST(Hours, CapacityIsHoursAWeek) {
  EXPECT_EQ(parse_capacity("Engineer=40h/week").value().minutes_per_week, 2400);
  EXPECT_EQ(parse_capacity("Lead Dev=37.5h/week").value().minutes_per_week, 2250);
  EXPECT_EQ(parse_capacity("a=b=0.25h/week").value().role, "a=b");
  for (std::string_view bad : {"Engineer", "=40h/week", "Engineer=40", "Engineer=40h/day", "Engineer=-1h/week",
                               "Engineer=1.234h/week", "Engineer=169h/week", "Engineer=h/week"})
    EXPECT_FALSE(parse_capacity(bad).ok()) << bad;
  EXPECT_EQ(hours_text(2400), "40");
  EXPECT_EQ(hours_text(90), "1.5");
  EXPECT_EQ(hours_text(20), "0.33");
}

class CliHours : public testing::CliScratchTest {};

TEST_F(CliHours, TableCsvJsonHtmlAndCapacityFromTheConfiguration) {
  const std::string path = file("hours.json", std::string(kTemplate));
  CliRun table = ptmpl("schedule '" + path + "' --hours --capacity Engineer=8h/week");
  ASSERT_EQ(table.exit, 0) << table.err;
  expect_has(table.out,
             "week      from        Engineer (8)  Designer  #9  unassigned  total\n"
             "2027-W01  2027-01-04       13.33 !         5   1        1.02  20.35\n");
  expect_has(table.out, "2027-02  2027-02-01      0.75         0   0           0   0.75\n");

  CliRun csv = ptmpl("schedule '" + path + "' --hours --format csv --capacity Engineer=8h/week");
  ASSERT_EQ(csv.exit, 0) << csv.err;
  expect_has(csv.out,
             "period,label,first_day,assignment,hours,capacity,over\r\n"
             "week,2027-W01,2027-01-04,Engineer,13.33,8,true\r\n");
  expect_has(csv.out, "month,2027-01,2027-01-01,unassigned,1.02,,false\r\n");

  // The configuration nearest the file sets the capacity; --capacity replaces it.
  file(".ptmpl.json", R"({"capacity": {"Engineer": "20h/week"}})");
  CliRun json = ptmpl("schedule '" + path + "' --hours --format json");
  ASSERT_EQ(json.exit, 0) << json.err;
  expect_has(json.out, R"("name": "Engineer",
      "id": 1,
      "capacity_minutes": 1200)");
  expect_has(json.out, R"("minutes": [800,300,60,61],
      "over": [false,false,false,false])");

  CliRun html = ptmpl("schedule '" + path + "' --hours --format html --capacity Engineer=8h/week");
  ASSERT_EQ(html.exit, 0) << html.err;
  expect_has(html.out, "<h2>Hours per week</h2>\n<svg class=\"hours\"");
  expect_has(html.out, "<rect class=\"hours over\"");
  EXPECT_EQ(html.out.find("<svg class=\"hours\""), html.out.rfind("<svg class=\"hours\""));
  EXPECT_LT(html.out.find("</table>"), html.out.find("<svg class=\"hours\""));  // under the Gantt
}

TEST_F(CliHours, RefusalsExitTwoSayingWhy) {
  const std::string path = file("hours.json", std::string(kTemplate));
  const std::string undated = file("undated.json", R"([{"title": "A", "time_estimate_in_minutes": 60}])");
  CliRun no_dates = ptmpl("schedule '" + undated + "' --hours");
  EXPECT_EQ(no_dates.exit, 2);
  expect_has(no_dates.err, "--hours needs dates");
  CliRun gantt = ptmpl("schedule '" + path + "' --hours --format svg");
  EXPECT_EQ(gantt.exit, 2);
  expect_has(gantt.err, "--hours is shown as table, csv, json or html, not svg");
  CliRun bad = ptmpl("schedule '" + path + "' --hours --capacity Engineer=40");
  EXPECT_EQ(bad.exit, 2);
  expect_has(bad.err, "capacity \"Engineer=40\": expected hours a week");
  CliRun unknown = ptmpl("schedule '" + path + "' --hours --capacity Engineeer=40h/week");
  EXPECT_EQ(unknown.exit, 0);
  expect_has(unknown.err, "warning: --capacity Engineeer: no entry of project_template_assignments has that name");
  file(".ptmpl.json", R"({"capacity": {"Engineer": "40 hours"}})");
  CliRun config = ptmpl("schedule '" + path + "' --hours");
  EXPECT_EQ(config.exit, 2);
  expect_has(config.err, ".ptmpl.json");
}

TEST_F(CliHours, FinishPlacesDayZeroAndSaysWhich) {
  const std::string path = file("hours.json", std::string(kTemplate));
  // The project's 21 working days (0-20) end on Monday 1 February 2027 from 4 January; to end
  // on Friday 5 February instead, day 0 moves four working days later, to Friday 8 January.
  CliRun run = ptmpl("schedule '" + path + "' --finish 2027-02-05 --format json");
  ASSERT_EQ(run.exit, 0) << run.err;
  EXPECT_EQ(run.err,
            "ptmpl schedule: finish 2027-02-05: latest start 2027-01-08 (day 0), the project ends on 2027-02-05\n");
  expect_has(run.out, R"("finish": "2027-02-05",
    "latest_start": "2027-01-08")");
  CliRun stats = ptmpl("stats '" + path + "' --finish 2027-02-06");
  ASSERT_EQ(stats.exit, 0) << stats.err;
  expect_has(stats.out,
             "due_date                  2027-02-05\nfinish                    2027-02-06\n"
             "latest_start              2027-01-08\n");
  CliRun both = ptmpl("stats '" + path + "' --finish 2027-02-06 --start 2027-01-04");
  EXPECT_EQ(both.exit, 2);
  CliRun bad = ptmpl("schedule '" + path + "' --finish 2027-02-30");
  EXPECT_EQ(bad.exit, 2);
  expect_has(bad.err, "--finish: \"2027-02-30\" is not a date");
}

}  // namespace
}  // namespace ptmpl
