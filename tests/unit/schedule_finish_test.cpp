// Backward from a deadline (docs/semantics.md §14): the latest start for which a template's
// project ends on a date, checked against a search that tries every start and schedules
// forward from it, as `--start` does.
#include <gtest/gtest.h>

#include <string>

#include "libtemplate/core/preview.hpp"
#include "libtemplate/core/template_file.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

using std::chrono::days;

Date date(std::string_view text) {
  return *parse_date(text);
}

// The latest day that, given as --start, ends the project on or before `finish`: starts tried
// one by one backwards from the deadline, each scheduled forward through the calendar's dates.
std::optional<Date> latest_start_by_search(const TemplateFile& file, const TemplateSource& source,
                                           const Schedule& schedule, const Rollup& rollup, CalendarFlags flags,
                                           Date finish) {
  for (Date start = finish; start > finish - days{800}; start -= days{1}) {
    flags.start = start;
    auto calendar = resolve_calendar(file, source, flags);
    EXPECT_TRUE(calendar.ok());
    const Stats stats = compute_stats(schedule, rollup, calendar.value());
    if (stats.due_date && *stats.due_date <= finish) return start;
  }
  return std::nullopt;
}

// `text` with a calendar block added after its project_template.
std::string with_block(std::string text, std::string_view block) {
  text.erase(text.find_last_of('}'));
  return text + ",\n\"calendar\": " + std::string(block) + "}\n";
}

// Every sample, on the default week, with holidays, on every day of the week, and under a
// calendar block of its own (a Sunday-to-Wednesday week with holidays and a working Saturday):
// a deadline on a working day, on a weekend and on a holiday.
TEST(ScheduleFinish, LatestStartAgreesWithTryingEveryStart) {
  const std::string block =
      R"({"week": ["sun", "mon", "tue", "wed"], "holidays": ["2027-06-27", "2027-05-03"], "working": ["2027-06-12"]})";
  std::size_t checked = 0;
  for (const char* sample : {"software-release.json", "website-launch.json", "office-move.json",
                             "employee-onboarding.json", "agency-retainer.json", "erp-implementation.json"}) {
    const std::string text = testing::read_source(std::string("samples/") + sample);
    for (bool own_block : {false, true}) {
      const TemplateFile file = TemplateFile::parse(sample, FileText(own_block ? with_block(text, block) : text));
      const TemplateSource& source = file.templates().at(0);
      const ScheduledTemplate planned(source.model.stories);
      const Rollup rollup(planned.index());
      std::vector<CalendarFlags> calendars(3);
      calendars[1].holidays = {date("2027-06-25"), date("2027-06-04"), date("2027-05-31")};
      calendars[2].week = WorkWeek::every_day();
      if (own_block) calendars.resize(1);  // the block's week, holidays and working dates
      for (CalendarFlags flags : calendars) {
        for (std::string_view deadline : {"2027-06-30", "2027-06-26", "2027-06-25", "2027-06-27"}) {
          SCOPED_TRACE(std::string(sample) + (own_block ? " with a block" : "") + ", finish " + std::string(deadline));
          flags.finish = date(deadline);
          auto placed = resolve_calendar(file, source, flags, &planned.schedule());
          ASSERT_TRUE(placed.ok()) << placed.error().message;
          ASSERT_TRUE(placed.value().has_value());
          const std::optional<Date> searched =
              latest_start_by_search(file, source, planned.schedule(), rollup,
                                     CalendarFlags{.week = flags.week, .holidays = flags.holidays}, *flags.finish);
          ASSERT_TRUE(searched.has_value());
          EXPECT_EQ(format_date(placed.value()->day_zero()), format_date(*searched));
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 6 * (3 + 1) * 4);
}

// The block's finish places day 0 when the block has no start; a start (the block's or
// --start) wins over it, and --finish over both.
TEST(ScheduleFinish, TheBlocksFinishIsUsedWithoutAStart) {
  const std::string stories = R"({"project_template": {"title": "T", "raw_json": [
    {"title": "A", "temp_id": 1, "duration": 3,
     "dependencies": [{"source_id": 1, "target_id": 2, "type": 2}]},
    {"title": "B", "temp_id": 2, "duration": 2}]}})";
  auto day_zero = [&](std::string_view block, CalendarFlags flags = {}) {
    const TemplateFile file = TemplateFile::parse("t.json", FileText(with_block(stories, block)));
    const TemplateSource& source = file.templates().at(0);
    const ScheduledTemplate planned(source.model.stories);
    auto calendar = resolve_calendar(file, source, flags, &planned.schedule());
    EXPECT_TRUE(calendar.ok() && calendar.value());
    return format_date(calendar.value()->day_zero());
  };
  // Five working days, days 0-4, end on Wednesday 30 June 2027: day 0 is Thursday 24 June.
  EXPECT_EQ(day_zero(R"({"finish": "2027-06-30"})"), "2027-06-24");
  // A deadline on Sunday 27 June ends on Friday 25 June: day 0 is Monday 21 June.
  EXPECT_EQ(day_zero(R"({"finish": "2027-06-27"})"), "2027-06-21");
  // A holiday on Monday 28 June is skipped: day 0 moves back to Wednesday 23 June.
  EXPECT_EQ(day_zero(R"({"finish": "2027-06-30", "holidays": ["2027-06-28"]})"), "2027-06-23");
  EXPECT_EQ(day_zero(R"({"finish": "2027-06-30", "start": "2027-01-04"})"), "2027-01-04");
  EXPECT_EQ(day_zero(R"({"finish": "2027-06-30"})", {.start = date("2027-02-01")}), "2027-02-01");
  EXPECT_EQ(day_zero(R"({"start": "2027-01-04"})", {.finish = date("2027-06-30")}), "2027-06-24");
}

TEST(ScheduleFinish, StartAndFinishTogetherAreAUsageError) {
  const TemplateFile file = TemplateFile::parse("t.json", FileText(std::string(R"([{"title": "A"}])")));
  const TemplateSource& source = file.templates().at(0);
  const ScheduledTemplate planned(source.model.stories);
  auto both =
      resolve_calendar(file, source, {.start = date("2027-01-04"), .finish = date("2027-06-30")}, &planned.schedule());
  ASSERT_FALSE(both.ok());
  EXPECT_EQ(both.error().code, ErrorCode::kUsage);
  // A latest start before year 1 is refused, not wrapped.
  auto early = resolve_calendar(file, source, {.finish = date("0001-01-01")}, &planned.schedule());
  EXPECT_TRUE(early.ok());  // one day, day 0, on Monday 1 January of year 1
  const TemplateFile longer =
      TemplateFile::parse("t.json", FileText(std::string(R"([{"title": "A", "duration": 5}])")));
  const ScheduledTemplate long_plan(longer.templates().at(0).model.stories);
  auto before =
      resolve_calendar(longer, longer.templates().at(0), {.finish = date("0001-01-02")}, &long_plan.schedule());
  ASSERT_FALSE(before.ok());
  EXPECT_EQ(before.error().message, "finish 0001-01-02: the latest start would be before year 1");
}

}  // namespace
}  // namespace ptmpl
