// Timephased work of .mpp assignments (convert/mpp/resources.cpp, to_plan.cpp): a split task's
// gap in its work reaches the builder, which reports it as its MSPDI twin's is reported
// (mspdi-split-task, with the same dates), not as a Duration its dates contradict, whether the
// gap is in the work's blocks, on a resource's or a task's calendar, or in the pieces MS Project
// writes; hostile timephased bytes are read without a crash or a read past them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "convert/cfb/compound_file.hpp"
#include "convert/mpp/mpp.hpp"
#include "convert/mpp/plan.hpp"
#include "libtemplate/convert/convert.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

// The pieces of timephased work of the plan model read from `tables`, one a line:
// "2011-02-08 08:00 to 2011-02-09 08:00: 480" (minutes of work).
std::string pieces(const detail::mpp::Plan& tables) {
  std::string out;
  auto moment = [](const std::optional<plan::DateTime>& at) {
    if (!at) return std::string("?");
    char clock[16];
    std::snprintf(clock, sizeof clock, "%02d:%02d", at->minute / 60, at->minute % 60);
    return format_date(at->date) + " " + clock;
  };
  for (const plan::Assignment& a : detail::mpp::to_plan(tables).assignments)
    for (const plan::WorkPeriod& p : a.periods)
      out += moment(p.from) + " to " + moment(p.to) + ": " + std::to_string(std::llround(p.work)) + "\n";
  return out;
}

// The messages of the findings of `rule`, without the row of a .mpp table they end with
// (" (the assignment table's row 2)"): a twin's findings have their line and column instead.
std::vector<std::string> findings(const Conversion& conversion, const std::string& rule) {
  static const std::regex kRow(R"( \(the [a-z]+ table's row [0-9]+\)$)");
  std::vector<std::string> out;
  for (const Diagnostic& d : conversion.diagnostics)
    if (d.rule == rule) out.push_back(std::regex_replace(d.message, kRow, ""));
  return out;
}

// The stories of a document (its raw_json onward): the project's own fields (title, currency)
// are other readers' concern.
std::string stories_of(const std::string& document) {
  const std::size_t at = document.find("\"raw_json\"");
  return at == std::string::npos ? document : document.substr(at);
}

class MppTimephased : public ::testing::TestWithParam<const char*> {};

TEST_P(MppTimephased, ASplitTaskIsReportedAsTheTwinReportsIt) {
  const std::string dir = testing::source_path("tests/data/mpp/corpus/");
  const std::string mpp = GetParam();
  Result<Conversion> got = detail::convert_mpp(testing::slurp(dir + mpp), mpp, {});
  ASSERT_TRUE(got.ok()) << got.error().message;
  Result<Conversion> want = convert_mspdi(testing::slurp(dir + "mpxj__mspdisplittask.xml"), "twin.xml", {});
  ASSERT_TRUE(want.ok()) << want.error().message;
  const std::vector<std::string> split = findings(want.value(), "mspdi-split-task");
  ASSERT_FALSE(split.empty());
  EXPECT_EQ(findings(got.value(), "mspdi-split-task"), split);
  EXPECT_EQ(findings(got.value(), "mspdi-duration-span"), findings(want.value(), "mspdi-duration-span"));
  EXPECT_EQ(stories_of(got.value().document), stories_of(want.value().document));
}

INSTANTIATE_TEST_SUITE_P(SplitTaskFiles, MppTimephased,
                         ::testing::Values("mpxj__mpp9splittask.mpp", "mpxj__mpp12splittask.mpp",
                                           "mpxj__mpp14splittask.mpp"));

// Pairs whose twins' splits come from resource calendars (*resource*: a night shift), a task's
// own calendar that ignores its resource's and a resource calendar's exceptions
// (*timephasedsegments*), and contoured work written an hour and a minute at a time (*timephased*).
struct TwinPair {
  const char* mpp;
  const char* twin;
};

class MppTimephasedTwins : public ::testing::TestWithParam<TwinPair> {};

TEST_P(MppTimephasedTwins, SplitsAndSpansAreTheTwins) {
  const std::string dir = testing::source_path("tests/data/mpp/corpus/");
  const TwinPair pair = GetParam();
  Result<Conversion> got = detail::convert_mpp(testing::slurp(dir + pair.mpp), pair.mpp, {});
  ASSERT_TRUE(got.ok()) << got.error().message;
  Result<Conversion> want = convert_mspdi(testing::slurp(dir + pair.twin), "twin.xml", {});
  ASSERT_TRUE(want.ok()) << want.error().message;
  ASSERT_FALSE(findings(want.value(), "mspdi-split-task").empty());
  EXPECT_EQ(findings(got.value(), "mspdi-split-task"), findings(want.value(), "mspdi-split-task"));
  EXPECT_EQ(findings(got.value(), "mspdi-duration-span"), findings(want.value(), "mspdi-duration-span"));
}

INSTANTIATE_TEST_SUITE_P(
    Twins, MppTimephasedTwins,
    ::testing::Values(TwinPair{"mpxj__mpp9resource.mpp", "mpxj__mspdiresource.xml"},
                      TwinPair{"mpxj__mpp9timephasedsegments.mpp", "mpxj__mspditimephasedsegments.xml"},
                      TwinPair{"mpxj__mpp12timephasedsegments.mpp", "mpxj__mspditimephasedsegments.xml"},
                      TwinPair{"mpxj__mpp14timephasedsegments.mpp", "mpxj__mspditimephasedsegments.xml"},
                      TwinPair{"mpxj__mpp12timephased.mpp", "mpxj__mspditimephased.xml"}));

// The plan of a corpus file, its tasks and assignments read as convert_mpp reads them.
detail::mpp::Plan read_plan(const std::string& bytes, const std::string& path) {
  Result<detail::mpp::ReadPlan> read = detail::mpp::read_plan(bytes, path);
  EXPECT_TRUE(read.ok()) << (read.ok() ? "" : read.error().message);
  if (!read.ok()) return {};
  EXPECT_FALSE(read.value().calendars_unread);
  return std::move(read).value().plan;
}

// mspditimephasedsegments.xml: Task Eight (UID 9) alone has IgnoreResourceCalendar 1, and its
// own calendar (UID 6); Task One's assignment (UID 3) is flat, 40 hours.
TEST(MppTimephasedFields, TheIgnoreResourceCalendarsBitAndFlatWorkAreTheTwins) {
  const std::string dir = testing::source_path("tests/data/mpp/corpus/");
  for (const char* name :
       {"mpxj__mpp9timephasedsegments.mpp", "mpxj__mpp12timephasedsegments.mpp", "mpxj__mpp14timephasedsegments.mpp"}) {
    SCOPED_TRACE(name);
    const std::string bytes = testing::slurp(dir + name);
    const detail::mpp::Plan plan = read_plan(bytes, name);
    std::vector<std::int32_t> ignoring;
    for (const detail::mpp::Task& t : plan.tasks)
      if (t.ignore_resource_calendar) ignoring.push_back(t.uid);
    EXPECT_EQ(ignoring, std::vector<std::int32_t>{9});
    for (const detail::mpp::Task& t : plan.tasks)
      if (t.uid == 9) {
        EXPECT_EQ(t.calendar_uid, 6);
      }
    const auto flat = std::find_if(plan.assignments.begin(), plan.assignments.end(),
                                   [](const detail::mpp::Assignment& a) { return a.uid == 3; });
    ASSERT_NE(flat, plan.assignments.end());
    ASSERT_EQ(flat->planned_work.size(), 1u);
    EXPECT_TRUE(flat->planned_work[0].until_finish);
    EXPECT_DOUBLE_EQ(flat->planned_work[0].work_minutes, 40 * 60);
  }
}

// A plan of one flat assignment of 24 hours on the standard calendar, 2011-02-07 to 02-09 (Monday to
// Wednesday), whose resource's calendar does not work on Tuesday.
detail::mpp::Plan resource_off_on_tuesday() {
  detail::mpp::Plan plan;
  detail::mpp::Calendar standard;
  standard.uid = 1;
  standard.name = "Standard";
  for (int d = 1; d <= 5; ++d) standard.days[static_cast<std::size_t>(d)].times = {{4800, 7200}, {7800, 10200}};
  detail::mpp::Calendar own;
  own.uid = 2;
  own.base_uid = 1;
  own.resource_uid = 1;
  for (auto& day : own.days) day.inherited = true;
  own.exceptions.push_back({"2011-02-08", "2011-02-08", "off", 1, 1, 1, 0, 1, 0, 0, 0, {}});
  plan.calendars = {standard, own};
  plan.project.calendar_uid = 1;
  detail::mpp::Task task;
  task.uid = 1;
  task.name = "T";
  task.start = "2011-02-07T08:00:00";
  task.finish = "2011-02-09T17:00:00";
  plan.tasks.push_back(task);
  detail::mpp::Resource resource;
  resource.uid = 1;
  resource.name = "R";
  resource.calendar_uid = 2;
  plan.resources.push_back(resource);
  detail::mpp::Assignment a;
  a.uid = 1;
  a.task_uid = 1;
  a.resource_uid = 1;
  a.start = task.start;
  a.finish = task.finish;
  a.planned_work.push_back({24 * 60, 0, true});
  plan.assignments.push_back(a);
  return plan;
}

TEST(MppTimephasedCalendars, WorkFollowsTheResourcesCalendarUnlessTheTaskIgnoresIt) {
  const std::string tuesday = "2011-02-08 08:00 to 2011-02-09 08:00: ";
  detail::mpp::Plan plan = resource_off_on_tuesday();
  std::string got = pieces(plan);
  // A day at a time from 08:00; the rest (Wednesday 08:00-17:00) in one piece.
  EXPECT_NE(got.find(tuesday + "0\n"), std::string::npos) << got;
  EXPECT_NE(got.find("2011-02-09 08:00 to 2011-02-09 17:00: "), std::string::npos) << got;
  // A task calendar as well: the time both work.
  plan.tasks[0].calendar_uid = 1;
  got = pieces(plan);
  EXPECT_NE(got.find(tuesday + "0\n"), std::string::npos) << got;
  // The task's calendar alone when it ignores its resource's: it works on Tuesday.
  plan.tasks[0].ignore_resource_calendar = true;
  got = pieces(plan);
  EXPECT_NE(got.find(tuesday + "480\n"), std::string::npos) << got;
  // The project's calendar when the task has none and ignores its resource's.
  plan.tasks[0].calendar_uid.reset();
  got = pieces(plan);
  EXPECT_NE(got.find(tuesday + "480\n"), std::string::npos) << got;
}

// Little-endian bytes of an item: a 16-byte header counting `count` periods, a summary block,
// then blocks of (cumulative work in thousandths of a minute, cumulative time in 80ths).
std::string planned_item(std::uint16_t count, const std::vector<std::pair<double, std::int32_t>>& blocks) {
  std::string out(16 + 28, '\0');
  std::memcpy(out.data(), &count, 2);
  for (const auto& [work, time] : blocks) {
    std::string block(28, '\0');
    std::memcpy(block.data(), &work, 8);
    std::memcpy(block.data() + 24, &time, 4);
    out += block;
  }
  return out;
}

TEST(MppTimephasedBytes, PeriodsAreTheDifferencesOfTheCumulativeBlocks) {
  // 8 hours over 8 working hours, none over 16, 8 over 8.
  const std::string item = planned_item(3, {{480000, 480 * 80}, {480000, 1440 * 80}, {960000, 1920 * 80}});
  const auto periods = detail::mpp::read_timephased_work(item, true);
  ASSERT_EQ(periods.size(), 3u);
  EXPECT_DOUBLE_EQ(periods[0].work_minutes, 480);
  EXPECT_DOUBLE_EQ(periods[0].working_minutes, 480);
  EXPECT_DOUBLE_EQ(periods[1].work_minutes, 0);
  EXPECT_DOUBLE_EQ(periods[1].working_minutes, 960);
  EXPECT_DOUBLE_EQ(periods[2].work_minutes, 480);
}

TEST(MppTimephasedBytes, HostileItemsAreReadWithinTheirBytes) {
  // A count far past the blocks present, cut-short blocks, NaN and backwards values.
  const std::string many = planned_item(65535, {{480000, 480 * 80}, {960000, 960 * 80}});
  EXPECT_EQ(detail::mpp::read_timephased_work(many, true).size(), 2u);
  EXPECT_EQ(detail::mpp::read_timephased_work(many.substr(0, many.size() - 1), true).size(), 1u);
  EXPECT_TRUE(detail::mpp::read_timephased_work(std::string(10, '\xff'), true).empty());
  EXPECT_TRUE(detail::mpp::read_timephased_work("", false).empty());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(detail::mpp::read_timephased_work(planned_item(1, {{nan, 80}}), true).empty());
  EXPECT_EQ(detail::mpp::read_timephased_work(planned_item(2, {{960000, 80}, {480000, 160}}), true).size(), 1u);
  // A huge count of real blocks is capped.
  std::vector<std::pair<double, std::int32_t>> blocks;
  for (int i = 1; i <= 200; ++i) blocks.emplace_back(i * 1000.0, i * 80);
  EXPECT_EQ(detail::mpp::read_timephased_work(planned_item(200, blocks), true, 50).size(), 50u);
  // Every prefix and every byte flipped of a real-looking item: no crash.
  const std::string item = planned_item(3, {{480000, 480 * 80}, {480000, 1440 * 80}, {960000, 1920 * 80}});
  for (std::size_t n = 0; n <= item.size(); ++n) {
    (void)detail::mpp::read_timephased_work(item.substr(0, n), true);
    (void)detail::mpp::read_timephased_work(item.substr(0, n), false);
  }
  for (std::size_t i = 0; i < item.size(); ++i) {
    std::string bad = item;
    bad[i] = static_cast<char>(~bad[i]);
    for (const auto& p : detail::mpp::read_timephased_work(bad, true)) {
      EXPECT_TRUE(std::isfinite(p.work_minutes));
      EXPECT_GE(p.working_minutes, 0);
    }
  }
}

// A plan whose timephased work runs for centuries of working time is placed without a hang.
TEST(MppTimephasedBytes, HugePeriodsAreWrittenInBoundedTime) {
  detail::mpp::Plan plan;
  detail::mpp::Task task;
  task.uid = 1;
  task.name = "T";
  task.start = "2020-01-01T08:00:00";
  task.finish = "2020-01-02T17:00:00";
  plan.tasks.push_back(task);
  detail::mpp::Assignment a;
  a.uid = 1;
  a.task_uid = 1;
  a.resource_uid = -65535;
  a.start = "2020-01-01T08:00:00";
  for (int i = 0; i < 1000; ++i) a.planned_work.push_back({i % 2 ? 0.0 : 480.0, 1.0e9});
  plan.assignments.push_back(a);
  EXPECT_FALSE(pieces(plan).empty());
  // 200 flat assignments over seven millennia: a bounded number of pieces each.
  plan.assignments.clear();
  for (int i = 0; i < 200; ++i) {
    a.uid = i + 1;
    a.finish = "9000-12-31T17:00:00";
    a.planned_work = {{1.0e9, 0, true}};
    plan.assignments.push_back(a);
  }
  std::size_t count = 0;
  for (const plan::Assignment& assignment : detail::mpp::to_plan(plan).assignments) count += assignment.periods.size();
  EXPECT_GT(count, 200u);
  EXPECT_LE(count, 200000u + 200);
}

}  // namespace
}  // namespace ptmpl
