// schedule-out-of-range beyond its hand-counted findings (tests/data/rules/schedule-out-of-range/):
// lint and the scheduler agree on which templates can be scheduled. For templates built from
// extreme day numbers (declared starts, durations, due dates, lags), a template without lint
// errors is one the scheduler schedules, as declared and with --asap, and a template the
// scheduler refuses has a schedule-out-of-range finding.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/core/lint.hpp"
#include "libtemplate/core/schedule.hpp"
#include "libtemplate/core/template_file.hpp"

namespace ptmpl {
namespace {

constexpr std::int64_t kLimit = Schedule::kDayLimit;

// Day numbers around every edge the scheduler has: 0, the bound ±2^62, half of it (two of
// them add up to the bound), and the ends of int64.
constexpr std::array<std::int64_t, 11> kExtremes = {
    0, 1, -1, kLimit / 2, kLimit / 2 + 1, kLimit - 1, kLimit, kLimit + 1, -kLimit, -kLimit - 1, INT64_MAX,
};

struct Verdicts {
  bool lint_errors = false;
  bool lint_out_of_range = false;
  bool schedules = false;       // as declared
  bool schedules_asap = false;  // --asap
};

Verdicts judge(const std::string& text) {
  Verdicts v;
  for (const Diagnostic& d : lint_text("t.json", text)) {
    if (d.severity == Severity::Error) v.lint_errors = true;
    if (d.rule == "schedule-out-of-range") v.lint_out_of_range = true;
  }
  TemplateFile file = TemplateFile::parse("t.json", FileText(std::string(text)));
  EXPECT_EQ(file.templates().size(), 1u) << text;
  if (file.templates().size() != 1) return v;
  const auto stories = file.templates()[0].model.stories;
  v.schedules = ScheduledTemplate(stories).schedule().ok();
  v.schedules_asap = ScheduledTemplate(stories, {.asap = true}).schedule().ok();
  return v;
}

void expect_agreement(const std::string& text) {
  const Verdicts v = judge(text);
  if (!v.lint_errors) {
    EXPECT_TRUE(v.schedules) << "lint is clean, but schedule refuses:\n" << text;
    EXPECT_TRUE(v.schedules_asap) << "lint is clean, but schedule --asap refuses:\n" << text;
  }
  if (!v.schedules || !v.schedules_asap) {
    EXPECT_TRUE(v.lint_out_of_range) << "no schedule-out-of-range for:\n" << text;
  }
}

std::string task(int id, std::string_view keys, std::string_view links = "") {
  std::string out = R"({"title": "s)" + std::to_string(id) + R"(", "temp_id": )" + std::to_string(id);
  if (!keys.empty()) out += ", " + std::string(keys);
  if (!links.empty()) out += R"(, "dependencies": [)" + std::string(links) + "]";
  return out + "}";
}

std::string link(int from, int to, int type, std::int64_t lag) {
  return R"({"source_id": )" + std::to_string(from) + R"(, "target_id": )" + std::to_string(to) + R"(, "type": )" +
         std::to_string(type) + R"(, "lag": )" + std::to_string(lag) + "}";
}

TEST(ScheduleOutOfRange, OneStoryWithExtremeDates) {
  for (std::int64_t start : kExtremes)
    for (std::int64_t other : kExtremes) {
      const std::string s = std::to_string(start);
      const std::string o = std::to_string(other);
      // A duration must be ≥ 0 and a due date not before the start (other rules' errors), so
      // both signs are tried and lint's other findings decide.
      expect_agreement("[" + task(1, R"("relative_start_date": )" + s + R"(, "duration": )" + o) + "]");
      expect_agreement("[" + task(1, R"("relative_start_date": )" + s + R"(, "relative_due_date": )" + o) + "]");
      expect_agreement("[" + task(1, R"("story_type": "milestone", "relative_start_date": )" + s) + "," +
                       task(2, R"("relative_start_date": )" + o) + "]");
    }
}

TEST(ScheduleOutOfRange, ChainsOfLinksWithExtremeLags) {
  for (std::int64_t start : kExtremes)
    for (std::int64_t lag : kExtremes)
      for (int type = 0; type < 4; ++type) {
        const std::string s = std::to_string(start);
        // Two links in a row: each lag alone may be fine while their sum is not; one also runs
        // backwards (-lag) from a story with a declared start.
        const std::string text =
            "[" + task(1, R"("relative_start_date": )" + s + R"(, "duration": 1)", link(1, 2, type, lag)) + "," +
            task(2, R"("duration": 1)", link(2, 3, 2, lag)) + "," +
            task(3, R"("relative_start_date": 0, "duration": 1)", link(3, 4, type, lag == INT64_MAX ? 0 : -lag)) + "," +
            task(4, "") + "]";
        expect_agreement(text);
      }
}

TEST(ScheduleOutOfRange, ParentsAndTheirSubStories) {
  for (std::int64_t start : kExtremes)
    for (std::int64_t lag : kExtremes) {
      // A parent's own dates are not scheduled; a link into it binds every story inside.
      const std::string text =
          "[" + task(1, R"("duration": 2)", link(1, 9, 2, lag)) + R"(, {"title": "p", "temp_id": 9, )" +
          R"("relative_start_date": )" + std::to_string(start) + R"(, "sub_stories": [)" +
          task(10, R"("relative_start_date": )" + std::to_string(start) + R"(, "duration": 3)") + "]}]";
      expect_agreement(text);
    }
}

TEST(ScheduleOutOfRange, TheIssueExampleIsAnError) {
  const std::vector<Diagnostic> found =
      lint_text("t.json", R"([{"title": "a", "temp_id": 1, "relative_start_date": 4611686018427387904}])");
  const auto it =
      std::find_if(found.begin(), found.end(), [](const Diagnostic& d) { return d.rule == "schedule-out-of-range"; });
  ASSERT_NE(it, found.end());
  EXPECT_EQ(it->severity, Severity::Error);
  EXPECT_EQ(it->pointer, "/0/relative_start_date");
}

TEST(ScheduleOutOfRange, ADeclaredStartBeyondTheRangeIsRefusedNotMovedToItsEdge) {
  // A milestone has no length to push it over: the start alone must be refused.
  const std::string text =
      R"([{"title": "m", "temp_id": 1, "story_type": "milestone", "relative_start_date": 9223372036854775807}])";
  const Verdicts v = judge(text);
  EXPECT_FALSE(v.schedules);
  EXPECT_TRUE(v.schedules_asap);  // --asap ignores the start
  EXPECT_TRUE(v.lint_out_of_range);
}

}  // namespace
}  // namespace ptmpl
