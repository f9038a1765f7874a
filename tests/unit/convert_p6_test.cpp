// Primavera P6 XER exports (convert/p6): decoding, the tables, calendars, the plan a project
// becomes, hostile files, and the agreement of ptmpl's schedule with the dates P6 stored.
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <map>
#include <string>

#include "convert/p6/p6.hpp"
#include "convert_support.hpp"
#include "libtemplate/core/preview.hpp"
#include "libtemplate/core/schedule.hpp"
#include "libtemplate/core/template_file.hpp"
#include "test_files.hpp"

namespace ptmpl::convert_p6_test {
namespace {

using detail::p6::File;
using testing::read_source;

Date date(int y, unsigned m, unsigned d) {
  return std::chrono::sys_days{std::chrono::year{y} / std::chrono::month{m} / std::chrono::day{d}};
}

// A read export, with the text its views point into.
struct Read {
  std::string text;
  std::unique_ptr<detail::FindingSink> findings;
  Result<File> file = Error::internal("not read");
};

Read read(const std::string& bytes, const std::string& path = "test.xer") {
  static const ConvertOptions options;
  Read out;
  Result<std::string> text = detail::p6::decode_xer(bytes, path);
  EXPECT_TRUE(text.ok());
  out.text = text.ok() ? text.value() : std::string();
  out.findings = std::make_unique<detail::FindingSink>(out.text, path, options);
  out.file = detail::p6::read_xer(out.text, path, *out.findings);
  return out;
}

Conversion convert(const std::string& bytes, const std::string& path = "test.xer", const ConvertOptions& options = {}) {
  return testing::expect_converted(detail::convert_xer(bytes, path, options));
}

// `id line`s of the findings, in order.
std::vector<std::string> findings_of(const Conversion& conversion, std::string_view prefix = "") {
  std::vector<std::string> out;
  for (const Diagnostic& d : conversion.diagnostics)
    if (d.rule.starts_with(prefix)) out.push_back(d.rule + " " + std::to_string(d.line));
  return out;
}

bool has_finding(const Conversion& conversion, std::string_view rule) {
  for (const Diagnostic& d : conversion.diagnostics)
    if (d.rule == rule) return true;
  return false;
}

// A small XER: one project, a 5-day 08–16 calendar, the tables given after it.
std::string xer(const std::string& tables, const std::string& calendar_data = "") {
  const std::string data =
      calendar_data.empty()
          ? "(0||CalendarData()((0||DaysOfWeek()((0||1()())(0||2()((0||0(s|08:00|f|16:00)())))(0||3()((0||0(s|08:00|f|"
            "16:00)())))(0||4()((0||0(s|08:00|f|16:00)())))(0||5()((0||0(s|08:00|f|16:00)())))(0||6()((0||0(s|08:00|f|"
            "16:00)())))(0||7()())))(0||Exceptions()((0||0(d|45658)())))))"
          : calendar_data;
  return "ERMHDR\t8.1\t2017-09-27\tProject\tadmin\tAdmin\tdbxDatabaseNoName\tProject Management\tGBP\n"
         "%T\tPROJECT\n%F\tproj_id\tproj_short_name\tclndr_id\tlast_recalc_date\tplan_start_date\n"
         "%R\t7\tDEMO\t1\t2025-01-06 08:00\t2025-01-06 08:00\n"
         "%T\tCALENDAR\n%F\tclndr_id\tclndr_name\tday_hr_cnt\tclndr_data\n"
         "%R\t1\tFive\t8\t" +
         data +
         "\n"
         "%R\t2\tRound the clock\t24\t(0||CalendarData()((0||DaysOfWeek()((0||1()((0||0(s|00:00|f|00:00)())))"
         "(0||2()((0||0(s|00:00|f|00:00)())))(0||3()((0||0(s|00:00|f|00:00)())))(0||4()((0||0(s|00:00|f|00:00)())))"
         "(0||5()((0||0(s|00:00|f|00:00)())))(0||6()((0||0(s|00:00|f|00:00)())))(0||7()((0||0(s|00:00|f|00:00)())))))"
         "(0||Exceptions()())))\n"
         "%T\tPROJWBS\n%F\twbs_id\tproj_id\tseq_num\tproj_node_flag\twbs_short_name\twbs_name\tparent_wbs_id\n"
         "%R\t10\t7\t0\tY\tDEMO\tDemo project\t1\n"
         "%R\t11\t7\t2\tN\tB\tSecond\t10\n"
         "%R\t12\t7\t1\tN\tA\tFirst\t10\n" +
         tables + "%E\n";
}

const std::string kTaskFields =
    "%T\tTASK\n%F\ttask_id\tproj_id\twbs_id\tclndr_id\ttask_code\ttask_name\ttask_type\tstatus_code\ttarget_drtn_hr_"
    "cnt\trestart_date\treend_date\n";

// --- Decoding -------------------------------------------------------------------------------

TEST(P6Xer, DecodesWindows1252AndDropsByteOrderMarks) {
  const std::string bytes = read_source("tests/data/p6/SP10-COST-LOADED.xer");
  const Result<std::string> text = detail::p6::decode_xer(bytes, "SP10.xer");
  ASSERT_TRUE(text.ok());
  // CURRTYPE: £ (A3) and € (80, which Latin-1 would not give).
  EXPECT_NE(text.value().find("%R\t1\t2\t\xC2\xA3\t.\t,"), std::string::npos);
  EXPECT_NE(text.value().find("%R\t17\t2\t\xE2\x82\xAC\t.\t,"), std::string::npos);
  EXPECT_EQ(text.value().find("\xEF\xBB\xBF"), std::string::npos) << "no byte order mark is left";
  EXPECT_EQ(text.value().find("\xC3\xAF\xC2\xBB\xC2\xBF"), std::string::npos) << "nor one decoded as 1252";
}

TEST(P6Xer, DecodesUtf16AndUtf8WithMarks) {
  const std::string plain = xer(kTaskFields + "%R\t100\t7\t12\t1\tA1\tCaf\xC3\xA9\tTT_Task\tTK_NotStart\t8\t\t\n");
  std::string utf16 = "\xFF\xFE";
  for (std::size_t i = 0; i < plain.size(); ++i) {
    // The text is ASCII but for é (U+00E9).
    if (plain.compare(i, 2, "\xC3\xA9") == 0) {
      utf16 += std::string("\xE9\0", 2);
      ++i;
      continue;
    }
    utf16 += plain[i];
    utf16 += '\0';
  }
  for (const std::string& bytes : {utf16, "\xEF\xBB\xBF" + plain, plain}) {
    const Read r = read(bytes);
    ASSERT_TRUE(r.file.ok()) << r.file.error().message;
    ASSERT_EQ(r.file.value().projects.size(), 1u);
    EXPECT_EQ(r.file.value().projects[0].activities.at(0).name, "Caf\xC3\xA9");
  }
}

// --- Tables and calendars --------------------------------------------------------------------

TEST(P6Xer, ReadsTheLagCalendarFilesCalendarExactly) {
  const Read r = read(read_source("tests/data/p6/PredecessorCalendar.xer"));
  ASSERT_TRUE(r.file.ok());
  const File& file = r.file.value();
  ASSERT_EQ(file.projects.size(), 1u);
  const detail::p6::Project& project = file.projects[0];
  EXPECT_EQ(project.id, 34738);
  EXPECT_EQ(project.short_name, "TEST PROJECT");
  EXPECT_EQ(project.name, "TEST PROJECT");
  EXPECT_EQ(project.calendar_id, 44739);
  EXPECT_EQ(project.currency, "USD");
  EXPECT_EQ(project.lag_calendar, detail::p6::LagCalendar::Predecessor);
  ASSERT_EQ(file.calendars.size(), 1u);
  const detail::p6::Calendar& calendar = file.calendars[0];
  EXPECT_EQ(calendar.name, "5 Day");
  EXPECT_EQ(calendar.hours_per_day, 8.0);
  ASSERT_TRUE(calendar.week_read);
  const std::vector<detail::p6::Interval> day = {{8 * 60, 12 * 60}, {13 * 60, 17 * 60}};
  EXPECT_TRUE(calendar.week[0].empty());  // Sunday
  for (std::size_t d = 1; d <= 5; ++d) EXPECT_EQ(calendar.week[d], day) << d;
  EXPECT_TRUE(calendar.week[6].empty());
  ASSERT_EQ(calendar.exceptions.size(), 14u);
  EXPECT_EQ(calendar.exceptions[0].date, date(2019, 7, 4));  // serial 43650
  EXPECT_TRUE(calendar.exceptions[0].work.empty());
  EXPECT_EQ(calendar.exceptions[13].date, date(2020, 12, 25));  // 44190
  ASSERT_EQ(project.activities.size(), 1u);
  const detail::p6::Activity& a = project.activities[0];
  EXPECT_EQ(a.code, "A1000");
  EXPECT_EQ(a.status, detail::p6::Status::Completed);
  EXPECT_EQ(a.planned_hours.value, 24.0);
  EXPECT_EQ(a.primary.type, detail::p6::ConstraintType::StartOnOrAfter);
  EXPECT_EQ(a.actual_start.value, (plan::DateTime{date(2019, 6, 10), 8 * 60}));
  EXPECT_EQ(a.actual_finish.value, (plan::DateTime{date(2019, 6, 12), 17 * 60}));
}

// SP10's calendars put DEL runs (where P6 had line breaks) and spaces between their nodes.
TEST(P6Xer, ReadsCalendarDataWithDelRunsBetweenNodes) {
  const Read r = read(read_source("tests/data/p6/SP10-COST-LOADED.xer"));
  ASSERT_TRUE(r.file.ok());
  ASSERT_EQ(r.file.value().calendars.size(), 6u);
  for (const detail::p6::Calendar& calendar : r.file.value().calendars) {
    EXPECT_TRUE(calendar.week_read) << calendar.id;
    EXPECT_EQ(calendar.notes, std::vector<std::string>{}) << calendar.id;
  }
  const detail::p6::Calendar& five = r.file.value().calendars[2];  // 640: 08–12, 13–17
  EXPECT_EQ(five.id, 640);
  EXPECT_TRUE(five.week[0].empty());
  EXPECT_EQ(five.week[3], (std::vector<detail::p6::Interval>{{8 * 60, 12 * 60}, {13 * 60, 17 * 60}}));
  const detail::p6::Calendar& bank = r.file.value().calendars[1];  // 639: bank holidays
  EXPECT_EQ(bank.id, 639);
  ASSERT_GE(bank.exceptions.size(), 3u);
  EXPECT_EQ(bank.exceptions[0].date, date(2013, 1, 1));             // 41275
  EXPECT_EQ(bank.exceptions[1].date, date(2013, 3, 29));            // 41362, Good Friday
  const detail::p6::Calendar& round = r.file.value().calendars[0];  // 638: an exception with work
  EXPECT_EQ(round.exceptions.at(0).date, date(2013, 7, 7));
  EXPECT_EQ(round.exceptions.at(0).work, (std::vector<detail::p6::Interval>{{7 * 60 + 30, 15 * 60 + 30}}));
}

TEST(P6Xer, LagCalendarOtherThanPredecessorIsAFinding) {
  const std::map<std::string, bool> files = {{"PredecessorCalendar", false},
                                             {"SuccessorCalendar", true},
                                             {"ProjectDefaultCalendar", true},
                                             {"TwentyFourHourCalendar", false}};
  for (const auto& [name, finding] : files) {
    const std::string path = "tests/data/p6/" + name + ".xer";
    const Conversion c = convert(read_source(path), path);
    EXPECT_EQ(has_finding(c, "p6-lag-calendar"), finding) << name;
    // The completed activity: progress; its constraint (start on or after its own start) is
    // what a story's start means, no finding.
    EXPECT_TRUE(has_finding(c, "p6-progress")) << name;
    EXPECT_FALSE(has_finding(c, "p6-constraint")) << name;
  }
  const Conversion c = convert(read_source("tests/data/p6/SuccessorCalendar.xer"), "SuccessorCalendar.xer");
  // The SCHEDOPTIONS row is line 33 of the file.
  EXPECT_EQ(findings_of(c, "p6-lag-calendar"), std::vector<std::string>{"p6-lag-calendar 33"});
}

TEST(P6Xer, CutShortCalendarDataIsAFindingOnItsLine) {
  const std::string path = "tests/data/p6/invalid-8.4.xer";
  const Conversion c = convert(read_source(path), path);
  EXPECT_EQ(findings_of(c, "p6-calendar-data"), std::vector<std::string>{"p6-calendar-data 33"});
  for (const Diagnostic& d : c.diagnostics) {
    if (d.rule != "p6-calendar-data") continue;
    EXPECT_NE(d.message.find("calendar 180 \"Test - Invalid\": its clndr_data cannot be read"), std::string::npos)
        << d.message;
  }
}

TEST(P6Xer, WbsTreeActivitiesLinksAndCosts) {
  const std::string tasks =
      kTaskFields +
      "%R\t100\t7\t12\t1\tA100\tDig\tTT_Task\tTK_NotStart\t16\t2025-01-06 08:00\t2025-01-07 16:00\n"
      "%R\t101\t7\t11\t1\tA110\tPour\tTT_Task\tTK_NotStart\t24\t2025-01-08 08:00\t2025-01-10 16:00\n"
      "%R\t102\t7\t11\t1\tM120\tDone\tTT_FinMile\tTK_NotStart\t0\t\t2025-01-10 16:00\n"
      "%T\tTASKPRED\n%F\ttask_pred_id\ttask_id\tpred_task_id\tproj_id\tpred_proj_id\tpred_type\tlag_hr_cnt\n"
      "%R\t1\t101\t100\t7\t7\tPR_FS\t0\n"
      "%R\t2\t102\t101\t7\t7\tPR_FF\t-8\n"
      "%T\tRSRC\n%F\trsrc_id\trsrc_name\trsrc_short_name\n%R\t500\tCrane operator\tCO\n"
      "%T\tTASKRSRC\n%F\ttaskrsrc_id\ttask_id\tproj_id\trsrc_id\ttarget_qty\ttarget_cost\n"
      "%R\t1\t100\t7\t500\t16\t1234.50\n%R\t2\t100\t7\t\t8\t100\n";
  const Conversion c = convert(xer(tasks));
  const TemplateFile file = TemplateFile::parse("t.json", FileText(c.document));
  ASSERT_EQ(file.templates().size(), 1u);
  const auto& stories = file.templates()[0].model.stories;
  // First (seq 1) before Second (seq 2); the project node is no story.
  ASSERT_EQ(stories.size(), 2u);
  EXPECT_EQ(stories[0].title, "First");
  EXPECT_EQ(stories[1].title, "Second");
  ASSERT_EQ(stories[0].sub_stories.size(), 1u);
  const Story& dig = stories[0].sub_stories[0];
  EXPECT_EQ(dig.temp_id, TempId(std::string_view("A100")));
  EXPECT_EQ(dig.relative_start_date, 0);
  EXPECT_EQ(dig.relative_due_date, 1);
  EXPECT_EQ(dig.duration, 2);
  EXPECT_EQ(dig.budget_estimate_in_cents, 133450);  // 1,234.50 + 100.00
  EXPECT_EQ(dig.time_estimate_in_minutes, 24 * 60);
  ASSERT_TRUE(dig.assignments.has_value());
  ASSERT_EQ(dig.assignments->size(), 1u);
  EXPECT_EQ((*dig.assignments)[0], 500);
  ASSERT_EQ(dig.dependencies.size(), 1u);
  EXPECT_EQ(dig.dependencies[0].target_id, TempId(std::string_view("A110")));
  EXPECT_EQ(dig.dependencies[0].type, 2);  // finish to start
  const Story& pour = stories[1].sub_stories[0];
  EXPECT_EQ(pour.relative_start_date, 2);
  EXPECT_EQ(pour.relative_due_date, 4);
  ASSERT_EQ(pour.dependencies.size(), 1u);
  EXPECT_EQ(pour.dependencies[0].type, 3);  // finish to finish
  EXPECT_EQ(pour.dependencies[0].lag, -1);  // -8 h: a day of the predecessor's calendar
  const Story& done = stories[1].sub_stories[1];
  EXPECT_EQ(done.story_type, StoryType::Milestone);
  EXPECT_EQ(done.relative_start_date, 4);
  // 2025-01-01 (serial 45658) is a holiday; day 0 is the data date.
  ASSERT_TRUE(c.day_zero);
  EXPECT_EQ(*c.day_zero, date(2025, 1, 6));
  EXPECT_NE(c.document.find("\"2025-01-01\""), std::string::npos);
  EXPECT_NE(c.document.find("\"currency\": \"GBP\""), std::string::npos);
}

// A time estimate is people's time: the units of a nonlabor (equipment) or material resource —
// in a cost-loaded plan often money or tonnes — are not counted in it (SP10's equipment units
// added up to 214 million "hours"), and a finding says so; their cost still counts.
TEST(P6Xer, NonlaborAndMaterialUnitsAreNoTimeEstimate) {
  const std::string tasks =
      kTaskFields + "%R\t100\t7\t12\t1\tA100\tDig\tTT_Task\tTK_NotStart\t16\t2025-01-06 08:00\t2025-01-07 16:00\n" +
      "%T\tRSRC\n%F\trsrc_id\trsrc_name\trsrc_short_name\trsrc_type\n%R\t500\tCrane operator\tCO\tRT_Labor\n"
      "%R\t501\tCrane\tCR\tRT_Equip\n%R\t502\tConcrete\tCC\tRT_Mat\n"
      "%T\tTASKRSRC\n%F\ttaskrsrc_id\ttask_id\tproj_id\trsrc_id\ttarget_qty\ttarget_cost\n"
      "%R\t1\t100\t7\t500\t16\t100\n%R\t2\t100\t7\t501\t36170000\t200\n%R\t3\t100\t7\t502\t40\t300\n";
  const Conversion c = convert(xer(tasks));
  const TemplateFile file = TemplateFile::parse("t.json", FileText(c.document));
  const Story& dig = file.templates()[0].model.stories[0].sub_stories[0];
  EXPECT_EQ(dig.time_estimate_in_minutes, 16 * 60);  // the crane operator's hours alone
  EXPECT_EQ(dig.budget_estimate_in_cents, 60000);    // every cost
  EXPECT_EQ(findings_of(c, "p6-nonlabor"),
            (std::vector<std::string>{"p6-nonlabor-units 25", "p6-nonlabor-units 26"}));  // the TASKRSRC rows
}

// P6 counts an activity's hours in days of its own calendar: 48 hours on a 24-hour calendar
// are 2 days, not 6.
TEST(P6Xer, HoursAreDaysOfTheActivitysCalendar) {
  const std::string tasks = kTaskFields + "%R\t100\t7\t12\t2\tR1\tCure\tTT_Task\tTK_NotStart\t48\t\t\n";
  const Conversion c = convert(xer(tasks));
  const TemplateFile file = TemplateFile::parse("t.json", FileText(c.document));
  ASSERT_EQ(file.templates().size(), 1u);
  const Story& cure = file.templates()[0].model.stories[0].sub_stories[0];
  EXPECT_EQ(cure.duration, 2);
  EXPECT_EQ(findings_of(c, "p6-fractional"), std::vector<std::string>{});
  EXPECT_EQ(findings_of(c, "p6-task-calendar"), std::vector<std::string>{"p6-task-calendar 16"});
}

// The first working day of each story with a temp_id, as `ptmpl schedule` places it.
std::map<std::string, std::int64_t> scheduled_starts(const Conversion& c) {
  const TemplateFile file = TemplateFile::parse("t.json", FileText(c.document));
  std::map<std::string, std::int64_t> out;
  if (file.templates().size() != 1u) return out;
  const ScheduledTemplate scheduled(file.templates()[0].model.stories, ScheduleOptions{});
  const StoryIndex& index = scheduled.index();
  for (std::size_t i = 0; i < index.size(); ++i)
    if (const std::optional<TempId> id = index.story(i).temp_id)
      if (const auto* code = std::get_if<std::string_view>(&*id))
        out[std::string(*code)] = scheduled.schedule()[i].early.first_day();
  return out;
}

// P6 starts a successor at the moment its predecessor finishes: at noon of the day A finishes
// (half a day's work), B starts that afternoon. The template counts whole days, so the link
// that lets B start on A's last day is FS with a lag of -1 day, said by a finding.
TEST(P6Xer, ALinkWithinADayIsALagOfWholeDays) {
  const std::string tasks =
      kTaskFields +
      "%R\t100\t7\t12\t1\tA\tHalf a day\tTT_Task\tTK_NotStart\t4\t2025-01-06 08:00\t2025-01-06 12:00\n"
      "%R\t101\t7\t12\t1\tB\tAfter it\tTT_Task\tTK_NotStart\t8\t2025-01-06 12:00\t2025-01-07 12:00\n"
      "%R\t102\t7\t12\t1\tC\tNext day\tTT_Task\tTK_NotStart\t8\t2025-01-07 12:00\t2025-01-08 12:00\n"
      "%T\tTASKPRED\n%F\ttask_pred_id\ttask_id\tpred_task_id\tproj_id\tpred_proj_id\tpred_type\tlag_hr_cnt\n"
      "%R\t1\t101\t100\t7\t7\tPR_FS\t0\n"
      "%R\t2\t102\t100\t7\t7\tPR_FS\t8\n";
  const Conversion c = convert(xer(tasks));
  const auto starts = scheduled_starts(c);
  EXPECT_EQ(starts.at("A"), 0);
  EXPECT_EQ(starts.at("B"), 0);  // not the next day
  EXPECT_EQ(starts.at("C"), 1);  // a day of lag from A's noon: noon of the next day
  EXPECT_EQ(findings_of(c, "p6-link"), (std::vector<std::string>{"p6-link-lag 21", "p6-link-lag 22"}));
  EXPECT_EQ(findings_of(c, "p6-moved-by-task"), std::vector<std::string>{});
}

// Out-of-sequence progress: B finished before A, its FS predecessor, began. P6 keeps actual
// dates where the logic does not reach them; the template keeps B's dates with a lead that
// lets the link hold them, said by a finding. A completed task whose actual dates span no
// time (C) lasts no day, whatever its planned hours: D, which follows it, keeps its start.
TEST(P6Xer, ProgressBeforeItsLinkAllowsKeepsItsDates) {
  const std::string tasks =
      "%T\tTASK\n%F\ttask_id\tproj_id\twbs_id\tclndr_id\ttask_code\ttask_name\ttask_type\tstatus_code\t"
      "target_drtn_hr_cnt\trestart_date\treend_date\tact_start_date\tact_end_date\n"
      "%R\t100\t7\t12\t1\tA\tLater\tTT_Task\tTK_NotStart\t16\t2025-01-08 08:00\t2025-01-09 16:00\t\t\n"
      "%R\t101\t7\t12\t1\tB\tDone early\tTT_Task\tTK_Complete\t16\t\t\t2025-01-06 08:00\t2025-01-07 16:00\n"
      "%R\t102\t7\t12\t1\tC\tNo time\tTT_Task\tTK_Complete\t80\t\t\t2025-01-06 08:00\t2025-01-06 08:00\n"
      "%R\t103\t7\t12\t1\tD\tAfter C\tTT_Task\tTK_NotStart\t8\t2025-01-06 08:00\t2025-01-06 16:00\t\t\n"
      "%T\tTASKPRED\n%F\ttask_pred_id\ttask_id\tpred_task_id\tproj_id\tpred_proj_id\tpred_type\tlag_hr_cnt\n"
      "%R\t1\t101\t100\t7\t7\tPR_FS\t0\n"
      "%R\t2\t103\t102\t7\t7\tPR_FS\t0\n";
  const Conversion c = convert(xer(tasks));
  const auto starts = scheduled_starts(c);
  EXPECT_EQ(starts.at("A"), 2);
  EXPECT_EQ(starts.at("B"), 0);
  EXPECT_EQ(starts.at("D"), 0);
  EXPECT_EQ(findings_of(c, "p6-link-lag"), std::vector<std::string>{"p6-link-lag 22"});
  EXPECT_TRUE(has_finding(c, "p6-duration-span"));
  EXPECT_EQ(findings_of(c, "p6-moved-by-task"), std::vector<std::string>{});
}

// --- Errors and hostile files ----------------------------------------------------------------

TEST(P6Xer, NotAnXerIsInvalidWithItsPlace) {
  const auto converted = detail::convert_xer("<xml/>\n", "plan.xer", {});
  ASSERT_FALSE(converted.ok());
  EXPECT_EQ(converted.error().code, ErrorCode::kInvalid);
  EXPECT_EQ(converted.error().message, "plan.xer:1:1: not a Primavera P6 XER file (its first line is not ERMHDR)");
  EXPECT_FALSE(detail::convert_xer("", "empty.xer", {}).ok());
}

TEST(P6Xer, SeveralProjectsNeedAChoice) {
  std::string two = xer(kTaskFields + "%R\t100\t7\t12\t1\tA1\tOne\tTT_Task\tTK_NotStart\t8\t\t\n");
  two.insert(two.find("%T\tCALENDAR"), "%R\t8\tOTHER\t1\t2025-01-06 08:00\t\n");
  const auto converted = detail::convert_xer(two, "two.xer", {});
  ASSERT_FALSE(converted.ok());
  EXPECT_EQ(converted.error().code, ErrorCode::kUsage);
  EXPECT_EQ(converted.error().message,
            "two.xer: the P6 export holds 2 projects; choose one with --project: DEMO (7), OTHER (8)");
  for (const std::string choice : {"DEMO", "7"}) {
    const Conversion c = convert(two, "two.xer", ConvertOptions{.project = choice});
    EXPECT_NE(c.document.find("\"A1\""), std::string::npos) << choice;
  }
  const auto missing = detail::convert_xer(two, "two.xer", ConvertOptions{.project = "X"});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kUsage);
}

TEST(P6Xer, RowWithMoreFieldsThanItsTableIsAFinding) {
  const Conversion c =
      convert(xer(kTaskFields + "%R\t100\t7\t12\t1\tA1\tOne\tTT_Task\tTK_NotStart\t8\t\t\textra\tmore\n"));
  EXPECT_EQ(findings_of(c, "p6-row-fields"), std::vector<std::string>{"p6-row-fields 16"});
  EXPECT_NE(c.document.find("\"A1\""), std::string::npos);
}

TEST(P6Xer, DeeplyNestedCalendarDataIsAFinding) {
  std::string deep;
  for (int i = 0; i < 100'000; ++i) deep += "(0||x()(";
  for (int i = 0; i < 100'000; ++i) deep += "))";
  const Conversion c = convert(xer(kTaskFields, deep));
  // Read to the end (it balances) without a stack of calls; a week it does not hold.
  ASSERT_FALSE(c.document.empty());
  const Read r = read(xer("", deep));
  ASSERT_TRUE(r.file.ok());
  EXPECT_FALSE(r.file.value().calendars[0].week_read);
  // Cut short 100,000 deep: a finding, not a crash.
  const Conversion cut = convert(xer(kTaskFields, deep.substr(0, 800'000)));
  EXPECT_EQ(findings_of(cut, "p6-calendar-data"), std::vector<std::string>{"p6-calendar-data 7"});
}

TEST(P6Xer, HugeLagAndTruncatedFileConvertWithFindings) {
  const std::string tasks =
      kTaskFields +
      "%R\t100\t7\t12\t1\tA1\tOne\tTT_Task\tTK_NotStart\t8\t2025-01-06 08:00\t2025-01-06 16:00\n"
      "%R\t101\t7\t12\t1\tA2\tTwo\tTT_Task\tTK_NotStart\t8\t2025-01-07 08:00\t2025-01-07 16:00\n"
      "%T\tTASKPRED\n%F\ttask_pred_id\ttask_id\tpred_task_id\tproj_id\tpred_proj_id\tpred_type\tlag_hr_cnt\n"
      "%R\t1\t101\t100\t7\t7\tPR_FS\t1000000000000\n";
  const Conversion c = convert(xer(tasks));
  EXPECT_EQ(findings_of(c, "p6-lag-invalid"), std::vector<std::string>{"p6-lag-invalid 20"});
  EXPECT_NE(c.document.find("\"lag\": 0"), std::string::npos) << c.document;
  // A file cut in the middle of a row, of a table, of the header.
  const std::string whole = read_source("tests/data/p6/percent-complete-8.4.xer");
  for (const std::size_t size : {whole.size() / 3, whole.size() / 2, whole.size() - 7, std::size_t{10}}) {
    const auto cut = detail::convert_xer(whole.substr(0, size), "cut.xer", {});
    EXPECT_TRUE(cut.ok() || cut.error().code == ErrorCode::kInvalid) << size;
  }
}

std::string message_of(const Conversion& conversion, std::string_view rule) {
  for (const Diagnostic& d : conversion.diagnostics)
    if (d.rule == rule) return d.message;
  return "";
}

// A started start milestone with no finish written, its FF link out of sequence: the message
// names no finish date it does not have.
TEST(P6Xer, OutOfSequenceLinkIntoAMilestoneWithoutFinish) {
  const std::string tasks =
      "%T\tTASK\n%F\ttask_id\tproj_id\twbs_id\tclndr_id\ttask_code\ttask_name\ttask_type\tstatus_code\t"
      "target_drtn_hr_cnt\trestart_date\treend_date\tact_start_date\tact_end_date\n"
      "%R\t100\t7\t12\t1\tA\tLater\tTT_Task\tTK_NotStart\t16\t2025-01-08 08:00\t2025-01-09 16:00\t\t\n"
      "%R\t101\t7\t12\t1\tM\tStarted\tTT_Mile\tTK_Active\t0\t\t\t2025-01-06 08:00\t\n"
      "%T\tTASKPRED\n%F\ttask_pred_id\ttask_id\tpred_task_id\tproj_id\tpred_proj_id\tpred_type\tlag_hr_cnt\n"
      "%R\t1\t101\t100\t7\t7\tPR_FF\t0\n";
  const Conversion c = convert(xer(tasks));
  EXPECT_NE(message_of(c, "p6-link-lag").find("has progress and finishes before the link allows"), std::string::npos)
      << message_of(c, "p6-link-lag");
}

// A lag on a calendar that never works walks no further than the days counted: a finding,
// and the lag as written.
TEST(P6Xer, LagOnACalendarThatNeverWorksIsAFinding) {
  std::string text = xer(kTaskFields +
                         "%R\t100\t7\t12\t3\tA\tNever\tTT_Task\tTK_NotStart\t8\t2025-01-06 08:00\t2025-01-06 16:00\n"
                         "%R\t101\t7\t12\t1\tB\tAfter\tTT_Task\tTK_NotStart\t8\t2025-01-08 08:00\t2025-01-08 16:00\n"
                         "%T\tTASKPRED\n%F\ttask_pred_id\ttask_id\tpred_task_id\tproj_id\tpred_proj_id\tpred_type\t"
                         "lag_hr_cnt\n%R\t1\t101\t100\t7\t7\tPR_FS\t16\n");
  text.insert(text.find("%T\tPROJWBS"),
              "%R\t3\tNever\t8\t(0||CalendarData()((0||DaysOfWeek()((0||1()())(0||2()())(0||3()())(0||4()())"
              "(0||5()())(0||6()())(0||7()())))(0||Exceptions()())))\n");
  const Conversion c = convert(text);
  EXPECT_NE(message_of(c, "p6-link-lag").find("past the days its calendars are counted over"), std::string::npos)
      << message_of(c, "p6-link-lag");
  EXPECT_NE(c.document.find("\"lag\": 2"), std::string::npos) << c.document;
}

// Folder mode: each project by its place in the file, a file name part that is safe, and the
// reading's findings once.
TEST(P6Xer, EachProjectOfAFileConvertsOnceWithASafeName) {
  std::string two = xer(kTaskFields + "%R\t100\t7\t12\t1\tA1\tOne\tTT_Task\tTK_NotStart\t8\t\t\textra\n");
  two.insert(two.find("%T\tCALENDAR"), "%R\t8\tDEMO\t1\t2025-01-06 08:00\t\n");
  const auto same = detail::convert_p6_projects(two, "two.xer", {});
  ASSERT_EQ(same.size(), 2u);
  EXPECT_EQ(same[0].first, "7");
  EXPECT_EQ(same[1].first, "8");
  ASSERT_TRUE(same[0].second.ok() && same[1].second.ok());
  EXPECT_NE(same[0].second.value().document.find("\"A1\""), std::string::npos);
  EXPECT_EQ(same[1].second.value().document.find("\"A1\""), std::string::npos);
  EXPECT_EQ(findings_of(same[0].second.value(), "p6-row-fields"), std::vector<std::string>{"p6-row-fields 17"});
  EXPECT_EQ(findings_of(same[1].second.value(), "p6-row-fields"), std::vector<std::string>{});
  std::string named = two;
  named.replace(named.find("%R\t8\tDEMO"), 9, "%R\t8\t../x");
  const auto safe = detail::convert_p6_projects(named, "two.xer", {});
  ASSERT_EQ(safe.size(), 2u);
  EXPECT_EQ(safe[0].first, "DEMO");
  EXPECT_EQ(safe[1].first, ".._x");
  named.replace(named.find("%R\t8\t../x"), 9, "%R\t8\t..");
  EXPECT_EQ(detail::convert_p6_projects(named, "two.xer", {})[1].first, "8");
}

TEST(P6Xer, WorkPeriodsThatAreNotOfADayAreNoted) {
  std::string data =
      "(0||CalendarData()((0||DaysOfWeek()((0||1()())(0||2()((0||0(s|17:00|f|08:00)())))(0||3()((0||0(s|08:00|f|"
      "24:30)())))(0||4()((0||0(s|08:00|f|16:00)())))(0||5()((0||0(s|08:00|f|16:00)())))(0||6()((0||0(s|08:00|f|"
      "16:00)())))(0||7()())))(0||Exceptions()())))";
  const Read r = read(xer("", data));
  ASSERT_TRUE(r.file.ok());
  const auto& calendars = r.file.value().calendars;
  EXPECT_EQ(calendars[0].notes.size(), 2u);
  EXPECT_EQ(calendars[1].notes.size(), 0u);  // s|00:00|f|00:00: the whole day
}

TEST(P6Xer, ATableBegunTwiceKeepsEachRowWithItsColumns) {
  const Conversion c =
      convert(xer(kTaskFields + "%R\t100\t7\t12\t1\tA1\tOne\tTT_Task\tTK_NotStart\t8\t\t\n"
                                "%T\tTASK\n%F\ttask_code\ttask_id\tproj_id\twbs_id\tclndr_id\ttask_name\n"
                                "%R\tB1\t101\t7\t12\t1\tTwo\n"));
  EXPECT_NE(c.document.find("\"A1\""), std::string::npos) << c.document;
  EXPECT_NE(c.document.find("\"B1\""), std::string::npos) << c.document;
  EXPECT_EQ(findings_of(c, "p6-row-fields"), std::vector<std::string>{"p6-row-fields 17"});
}

TEST(P6Xer, AFractionOfACentIsSpelledAsHundredths) {
  const Conversion c =
      convert(xer(kTaskFields + "%R\t100\t7\t12\t1\tA1\tOne\tTT_Task\tTK_NotStart\t8\t\t\n"
                                "%T\tTASKRSRC\n%F\ttaskrsrc_id\ttask_id\tproj_id\trsrc_id\ttarget_qty\ttarget_cost\n"
                                "%R\t1\t100\t7\t\t8\t1234.567\n"));
  EXPECT_NE(message_of(c, "p6-cost-fraction").find("costs 123456.7 hundredths"), std::string::npos)
      << message_of(c, "p6-cost-fraction");
}

TEST(P6Xer, DateTimesWithASpaceAreReadByThePlansParser) {
  const auto at = plan::parse_datetime("2025-01-06 08:30");
  ASSERT_TRUE(at.has_value());
  EXPECT_EQ(at->minute, 8 * 60 + 30);
  EXPECT_FALSE(plan::parse_datetime("2025-01-06x08:30").has_value());
}

// --- The agreement with P6 --------------------------------------------------------------------

// For every activity P6 has not started, its remaining early dates (restart/reend), as working
// days of the template's calendar (a start at or after the end of the project calendar's
// working day, or on a day off, is the next working day; a finish at or before its beginning,
// or on a day off, the previous one; a milestone is on its start's day), against ptmpl's
// schedule of the converted template.
TEST(P6Agreement, Sp10NotStartedActivitiesKeepP6sDates) {
  const std::string path = "tests/data/p6/SP10-COST-LOADED.xer";
  const std::string bytes = read_source(path);
  const Conversion c = convert(bytes, path);
  const Read r = read(bytes, path);
  ASSERT_TRUE(r.file.ok());
  const detail::p6::Project& project = r.file.value().projects.at(0);
  const detail::p6::Calendar* p6_calendar = nullptr;
  for (const auto& calendar : r.file.value().calendars)
    if (calendar.id == project.calendar_id) p6_calendar = &calendar;
  ASSERT_NE(p6_calendar, nullptr);

  const TemplateFile file = TemplateFile::parse(path + ".json", FileText(c.document));
  ASSERT_EQ(file.templates().size(), 1u);
  const TemplateSource& source = file.templates()[0];
  auto resolved = resolve_calendar(file, source, CalendarFlags{});
  ASSERT_TRUE(resolved.ok() && resolved.value());
  const Calendar& calendar = *resolved.value();
  const ScheduledTemplate plain(source.model.stories, ScheduleOptions{});
  ASSERT_TRUE(plain.schedule().ok());
  std::map<std::string_view, std::size_t> by_code;
  const StoryIndex& index = plain.index();
  for (std::size_t i = 0; i < index.size(); ++i)
    if (index.story(i).temp_id) {
      const TempId id = *index.story(i).temp_id;
      if (const auto* code = std::get_if<std::string_view>(&id)) by_code[*code] = i;
    }

  auto next = [&](Date d) {
    do d += std::chrono::days{1};
    while (!calendar.is_working_day(d));
    return d;
  };
  auto previous = [&](Date d) {
    do d -= std::chrono::days{1};
    while (!calendar.is_working_day(d));
    return d;
  };
  auto hours = [&](Date d) {  // the project calendar's working day (Sunday = 0)
    const auto& work = p6_calendar->week[std::chrono::weekday(d).c_encoding()];
    return work.empty() ? std::pair(8 * 60, 16 * 60) : std::pair(work.front().start, work.back().finish);
  };
  std::size_t compared = 0, agree = 0;
  std::map<std::string, std::size_t> why;
  std::vector<std::string> differences;
  for (const detail::p6::Activity& a : project.activities) {
    if (a.status != detail::p6::Status::NotStarted) continue;
    const auto found = by_code.find(a.code);
    ASSERT_NE(found, by_code.end()) << a.code;
    const bool milestone =
        a.type == detail::p6::ActivityType::StartMilestone || a.type == detail::p6::ActivityType::FinishMilestone;
    const auto s = a.start.value ? a.start.value : a.finish.value;
    const auto f = a.finish.value ? a.finish.value : a.start.value;
    ASSERT_TRUE(s && f) << a.code;
    ++compared;
    const Date first = (s->minute >= hours(s->date).second && !milestone) || !calendar.is_working_day(s->date)
                           ? next(s->date)
                           : s->date;
    const Date last = milestone                                                                ? first
                      : f->minute <= hours(f->date).first || !calendar.is_working_day(f->date) ? previous(f->date)
                                                                                               : f->date;
    const Interval& early = plain.schedule()[found->second].early;
    const std::optional<Date> got_first = calendar.date_of(early.first_day());
    const std::optional<Date> got_last = calendar.date_of(early.due);
    if (got_first == first && got_last == last) {
      ++agree;
      continue;
    }
    ++why["calendar " + std::to_string(a.calendar_id.value_or(0))];
    differences.push_back(std::string(a.code) + ": P6 " + format_date(first) + ".." + format_date(last) +
                          ", scheduled " + (got_first ? format_date(*got_first) : "?") + ".." +
                          (got_last ? format_date(*got_last) : "?"));
  }
  std::cout << "SP10: " << agree << " / " << compared << " not-started activities on P6's dates\n";
  for (const auto& [what, n] : why) std::cout << "  differing on " << what << ": " << n << "\n";
  for (std::size_t i = 0; i < differences.size() && i < 10; ++i) std::cout << "  " << differences[i] << "\n";
  EXPECT_EQ(compared, 3301u);
  // Every one (docs/commands/convert.md, "Agreement with P6"): a regression is a failure.
  EXPECT_EQ(agree, compared);
}

}  // namespace
}  // namespace ptmpl::convert_p6_test
