// The scheduler against an independent reference of Microsoft Project's rules for automatically
// scheduled tasks (docs/semantics.md §5), on thousands of random plans with leads and lags, all four link
// types, links into and out of summary stories, declared starts (as start-no-earlier-than and
// dropped by `asap`), milestones and zero-length tasks.
//
// The reference shares nothing with the scheduler: it works in calendar dates, not offsets,
// walking its own working-day calendar one day at a time (so it also checks Calendar::date_of
// before the project start, across holidays); it expands each link into and out of a summary
// into links between leaf tasks, as MS Project does; and it settles the dates by applying each
// task's rule over and over until nothing moves. Its rules, per leaf task B:
//   - no predecessor (none on B, none on a summary above it): B starts on its start-no-earlier-
//     than date when it has one, else on the project start;
//   - else B starts at the latest date its predecessors give, which may be before the project
//     start — FS: A's finish + lag; SS: A's start + lag; SF: A's start + lag − B's duration;
//     FF: A's finish + lag − B's duration, but never before the project start — and then no
//     earlier than its start-no-earlier-than date.
// A summary predecessor gives its rolled-up dates: the earliest start and the latest finish of
// the leaf tasks under it. A link into a summary is a predecessor of every leaf task under it.
//
// And lint's `dependency-violated`, which reads the same link ends, agrees with the scheduler:
// a plan whose every task declares its start passes it exactly when the schedule keeps every
// task on its declared start.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "libtemplate/core/calendar.hpp"
#include "libtemplate/core/lint.hpp"
#include "libtemplate/core/schedule.hpp"
#include "libtemplate/core/template_file.hpp"

namespace ptmpl {
namespace {

using std::chrono::days;

enum LinkType { kSS = 0, kSF = 1, kFS = 2, kFF = 3 };  // the service's numbering (docs/semantics.md §5)

// ---------------------------------------------------------------------------------------------
// The reference calendar: a set of working weekdays minus holidays, walked day by day.

struct RefCalendar {
  std::set<unsigned> weekdays;  // 0 = Sunday … 6 = Saturday (std::chrono::weekday::c_encoding)
  std::set<Date> holidays;

  [[nodiscard]] bool working(Date d) const {
    return weekdays.count(std::chrono::weekday(d).c_encoding()) != 0 && holidays.count(d) == 0;
  }
  [[nodiscard]] Date next_working(Date d) const {
    while (!working(d)) d += days{1};
    return d;
  }
  // `n` working days after working day `d` (before it when n < 0).
  [[nodiscard]] Date add(Date d, int n) const {
    while (n > 0) {
      d += days{1};
      if (working(d)) --n;
    }
    while (n < 0) {
      d -= days{1};
      if (working(d)) ++n;
    }
    return d;
  }
};

// ---------------------------------------------------------------------------------------------
// A random plan.

struct Plan {
  struct Task {
    int parent = -1;
    int duration = 1;  // working days; 0 for a milestone
    bool milestone = false;
    std::optional<int> declared;  // relative_start_date
  };
  struct Relation {
    int from = 0;
    int to = 0;
    int type = kFS;
    int lag = 0;
  };
  std::vector<Task> tasks;  // pre-order
  std::vector<Relation> relations;

  [[nodiscard]] bool summary(int i) const {
    return i + 1 < static_cast<int>(tasks.size()) && tasks[static_cast<std::size_t>(i) + 1].parent == i;
  }
  [[nodiscard]] bool under(int i, int ancestor) const {  // i is ancestor or inside it
    for (int k = i; k >= 0; k = tasks[static_cast<std::size_t>(k)].parent)
      if (k == ancestor) return true;
    return false;
  }
  [[nodiscard]] std::vector<int> leaves_under(int i) const {
    std::vector<int> out;
    for (int k = 0; k < static_cast<int>(tasks.size()); ++k)
      if (!summary(k) && under(k, i)) out.push_back(k);
    return out;
  }
};

Plan random_plan(std::mt19937& rng) {
  auto roll = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Plan plan;
  const int count = roll(1, 30);
  std::vector<int> open;  // the ancestors the next task may hang under
  for (int i = 0; i < count; ++i) {
    Plan::Task task;
    open.resize(static_cast<std::size_t>(roll(0, static_cast<int>(open.size()))));
    task.parent = open.empty() ? -1 : open.back();
    task.milestone = roll(0, 6) == 0;
    task.duration = task.milestone ? 0 : roll(0, 7);
    if (roll(0, 2) == 0) task.declared = roll(-6, 10);
    plan.tasks.push_back(task);
    open.push_back(i);
  }
  // Relations between unrelated tasks, earlier to later in the outline: no loop, in MS Project's
  // expansion to leaf tasks as in ptmpl's graph.
  const int relations = roll(0, count * 2);
  for (int k = 0; k < relations; ++k) {
    const int a = roll(0, count - 1);
    const int b = roll(0, count - 1);
    if (a >= b || plan.under(b, a)) continue;
    plan.relations.push_back({a, b, roll(0, 3), roll(-9, 5)});
  }
  return plan;
}

// The plan as a template document: the JSON ptmpl reads.
std::string template_json(const Plan& plan) {
  std::string out = "[";
  std::vector<int> stack;
  for (int i = 0; i < static_cast<int>(plan.tasks.size()); ++i) {
    const Plan::Task& task = plan.tasks[static_cast<std::size_t>(i)];
    while (!stack.empty() && stack.back() != task.parent) {
      out += "]}";
      stack.pop_back();
    }
    if (out.back() != '[') out += ", ";
    out += R"({"title": "task )" + std::to_string(i + 1) + R"(", "temp_id": )" + std::to_string(i + 1);
    if (task.milestone && !plan.summary(i)) out += R"(, "story_type": "milestone")";
    if (!plan.summary(i)) out += R"(, "duration": )" + std::to_string(task.duration);
    if (task.declared) out += R"(, "relative_start_date": )" + std::to_string(*task.declared);
    std::string dependencies;
    for (const Plan::Relation& r : plan.relations)
      if (r.from == i)
        dependencies += std::string(dependencies.empty() ? "" : ", ") + R"({"source_id": )" +
                        std::to_string(r.from + 1) + R"(, "target_id": )" + std::to_string(r.to + 1) + R"(, "type": )" +
                        std::to_string(r.type) + R"(, "lag": )" + std::to_string(r.lag) + "}";
    if (!dependencies.empty()) out += R"(, "dependencies": [)" + dependencies + "]";
    if (plan.summary(i)) {
      out += R"(, "sub_stories": [)";
      stack.push_back(i);
    } else {
      out += "}";
    }
  }
  for (; !stack.empty(); stack.pop_back()) out += "]}";
  return out + "]";
}

// ---------------------------------------------------------------------------------------------
// The reference: MS Project's forward pass on the clock, to a fixed point.
//
// A moment is a working day and a side of it: its start (08:00) or its end (17:00). Work of n
// days started at a moment runs from the start of that day (the next working day's, when it
// is started at a day's end) to the end of its n-th day; a milestone stays at its moment. Lags
// move a moment by working days and keep its side. Of two moments the later on the clock
// wins: the end of day d is before the start of day d + 1.

struct Moment {
  Date day;
  bool end = false;  // 17:00 rather than 08:00
  friend auto operator<=>(const Moment&, const Moment&) = default;
};

struct RefDates {
  std::vector<Moment> start;  // by task; a summary's rolled up
  std::vector<Moment> finish;
  std::vector<Date> first;  // the first day shown (a milestone's own day); a summary's rolled up
  std::vector<Date> last;   // the last day shown
};

RefDates reference_schedule(const Plan& plan, const RefCalendar& calendar, Date project_start, bool asap) {
  const int n = static_cast<int>(plan.tasks.size());
  // Each leaf task's predecessors: its own relations and those into any summary above it.
  std::vector<std::vector<Plan::Relation>> predecessors(static_cast<std::size_t>(n));
  for (const Plan::Relation& r : plan.relations)
    for (const int leaf : plan.leaves_under(r.to)) predecessors[static_cast<std::size_t>(leaf)].push_back(r);

  const Moment day_zero{project_start, false};
  auto shift = [&](Moment m, int lag) { return Moment{calendar.add(m.day, lag), m.end}; };
  // Work of `length` days placed to start at `m`, or (`to_finish`) to finish at `m`.
  auto place = [&](Moment m, int length, bool to_finish) -> std::pair<Moment, Moment> {
    if (length == 0) return {m, m};
    if (to_finish) {
      // The end of day d, or the start of day d — the end of the working day before it.
      const Moment finish = m.end ? m : Moment{calendar.add(m.day, -1), true};
      return {Moment{calendar.add(finish.day, 1 - length), false}, finish};
    }
    const Moment start = m.end ? Moment{calendar.add(m.day, 1), false} : m;
    return {start, Moment{calendar.add(start.day, length - 1), true}};
  };

  RefDates dates{std::vector<Moment>(static_cast<std::size_t>(n), day_zero),
                 std::vector<Moment>(static_cast<std::size_t>(n), day_zero),
                 {},
                 {}};
  auto roll_up = [&](int i) {
    if (!plan.summary(i)) return;
    const std::vector<int> leaves = plan.leaves_under(i);
    Moment s = dates.start[static_cast<std::size_t>(leaves[0])];
    Moment f = dates.finish[static_cast<std::size_t>(leaves[0])];
    for (const int leaf : leaves) {
      s = std::min(s, dates.start[static_cast<std::size_t>(leaf)]);
      f = std::max(f, dates.finish[static_cast<std::size_t>(leaf)]);
    }
    dates.start[static_cast<std::size_t>(i)] = s;
    dates.finish[static_cast<std::size_t>(i)] = f;
  };

  for (int round = 0;; ++round) {
    if (round > n + 2) {
      ADD_FAILURE() << "the reference did not settle";
      return dates;
    }
    bool moved = false;
    for (int i = 0; i < n; ++i) roll_up(i);
    for (int b = 0; b < n; ++b) {
      if (plan.summary(b)) continue;
      const Plan::Task& task = plan.tasks[static_cast<std::size_t>(b)];
      std::optional<Moment> no_earlier_than;
      if (task.declared && !asap) no_earlier_than = Moment{calendar.add(project_start, *task.declared), false};
      Moment start = no_earlier_than.value_or(day_zero);
      const auto& preds = predecessors[static_cast<std::size_t>(b)];
      if (!preds.empty()) {
        std::optional<Moment> latest;
        for (const Plan::Relation& r : preds) {
          const Moment a_start = dates.start[static_cast<std::size_t>(r.from)];
          const Moment a_finish = dates.finish[static_cast<std::size_t>(r.from)];
          Moment s;
          switch (r.type) {
            case kFS:
              s = place(shift(a_finish, r.lag), task.duration, false).first;
              break;
            case kSS:
              s = place(shift(a_start, r.lag), task.duration, false).first;
              break;
            case kSF:
              s = place(shift(a_start, r.lag), task.duration, true).first;
              break;
            default:
              s = std::max(day_zero, place(shift(a_finish, r.lag), task.duration, true).first);
              break;
          }
          latest = latest ? std::max(*latest, s) : s;
        }
        start = no_earlier_than ? std::max(*latest, *no_earlier_than) : *latest;
      }
      const auto [placed_start, finish] = place(start, task.duration, false);
      if (placed_start != dates.start[static_cast<std::size_t>(b)] ||
          finish != dates.finish[static_cast<std::size_t>(b)]) {
        dates.start[static_cast<std::size_t>(b)] = placed_start;
        dates.finish[static_cast<std::size_t>(b)] = finish;
        moved = true;
      }
    }
    if (!moved) break;
  }
  for (int i = n; i-- > 0;) roll_up(i);
  dates.first.assign(static_cast<std::size_t>(n), project_start);
  dates.last.assign(static_cast<std::size_t>(n), project_start);
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    const std::vector<int> leaves = plan.summary(i) ? plan.leaves_under(i) : std::vector<int>{i};
    for (std::size_t at = 0; at < leaves.size(); ++at) {
      const auto l = static_cast<std::size_t>(leaves[at]);
      dates.first[k] = at == 0 ? dates.start[l].day : std::min(dates.first[k], dates.start[l].day);
      dates.last[k] = at == 0 ? dates.finish[l].day : std::max(dates.last[k], dates.finish[l].day);
    }
  }
  return dates;
}

// ---------------------------------------------------------------------------------------------

RefCalendar random_calendar(std::mt19937& rng, Date start, WorkWeek& week, std::vector<Date>& holidays) {
  auto roll = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  RefCalendar calendar;
  const int kind = roll(0, 3);
  const std::vector<unsigned> days_of_week = kind == 0   ? std::vector<unsigned>{0, 1, 2, 3, 4, 5, 6}
                                             : kind == 1 ? std::vector<unsigned>{0, 1, 2, 3, 4}  // Sun–Thu
                                                         : std::vector<unsigned>{1, 2, 3, 4, 5};
  for (const unsigned d : days_of_week) {
    calendar.weekdays.insert(d);
    week.add(std::chrono::weekday(d));
  }
  // Holidays on both sides of the start, so dates before day 0 cross them too.
  for (int k = roll(0, 12); k > 0; --k) {
    const Date d = start + days{roll(-40, 60)};
    calendar.holidays.insert(d);
    holidays.push_back(d);
  }
  return calendar;
}

TEST(ScheduleReference, AgreesWithMsProjectRulesOnRandomPlansWithLeadsAllLinkTypesAndSummaryLinks) {
  std::mt19937 rng(16'2027);
  int before_day_zero = 0;  // plans where the rules put a task before the project start
  int floored = 0;          // plans where a finish-to-finish link's floor held a task on the start
  int into_summary = 0;
  int out_of_summary = 0;
  int end_side = 0;  // milestones at the end of their day
  constexpr int kRounds = 2500;
  for (int round = 0; round < kRounds; ++round) {
    const Plan plan = random_plan(rng);
    const bool asap = round % 2 == 1;
    const Date start_date =
        *parse_date("2027-12-01") + days{std::uniform_int_distribution<int>(0, 60)(rng)};  // any weekday
    WorkWeek week;
    std::vector<Date> holidays;
    const RefCalendar ref_calendar = random_calendar(rng, start_date, week, holidays);
    const Date project_start = ref_calendar.next_working(start_date);
    const RefDates want = reference_schedule(plan, ref_calendar, project_start, asap);

    const std::string json = template_json(plan);
    const TemplateFile file = TemplateFile::parse("plan.json", FileText(json));
    ASSERT_EQ(file.templates().size(), 1u) << json;
    const ScheduledTemplate planned(file.templates()[0].model.stories, ScheduleOptions{.asap = asap});
    const Schedule& schedule = planned.schedule();
    ASSERT_TRUE(schedule.ok()) << json;
    ASSERT_EQ(schedule.size(), plan.tasks.size());
    const Calendar calendar(week, start_date, holidays);
    ASSERT_EQ(calendar.day_zero(), project_start);

    for (std::size_t i = 0; i < plan.tasks.size(); ++i) {
      const Interval& early = schedule[i].early;
      // MS Project's Start and Finish: the first and the last working day (a milestone's own day).
      const Date want_start = want.first[i];
      const Date want_last = want.last[i];
      const std::optional<Date> start = calendar.date_of(early.first_day());
      const std::optional<Date> last = calendar.date_of(early.due);
      ASSERT_TRUE(start && last);
      EXPECT_EQ(format_date(*start), format_date(want_start))
          << "start of task " << i + 1 << (asap ? " (asap)" : "") << ", day 0 " << format_date(project_start) << ", in "
          << json;
      EXPECT_EQ(format_date(*last), format_date(want_last))
          << "finish of task " << i + 1 << (asap ? " (asap)" : "") << " in " << json;
      if (!plan.summary(static_cast<int>(i)) && want_start < project_start) ++before_day_zero;
      if (!plan.summary(static_cast<int>(i)) && plan.tasks[i].duration == 0 && want.start[i].end) ++end_side;
    }
    for (const Plan::Relation& r : plan.relations) {
      if (plan.summary(r.to)) ++into_summary;
      if (plan.summary(r.from)) ++out_of_summary;
      if (r.type == kFF && !plan.summary(r.to) && want.first[static_cast<std::size_t>(r.to)] == project_start)
        ++floored;
    }
    if (HasFailure()) break;  // one plan's story is enough to read
  }
  // The random plans reach every case the rules distinguish.
  EXPECT_GT(before_day_zero, 1000);
  EXPECT_GT(floored, 100);
  EXPECT_GT(into_summary, 1000);
  EXPECT_GT(out_of_summary, 1000);
  EXPECT_GT(end_side, 500);
}

// ---------------------------------------------------------------------------------------------
// dependency-violated agrees with the schedule.

TEST(ScheduleReference, DependencyViolatedIsSilentExactlyWhenTheScheduleKeepsTheDeclaredStarts) {
  std::mt19937 rng(16'0016);
  auto roll = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int clean = 0;
  int moved = 0;
  int ff_floor_findings = 0;
  for (int round = 0; round < 1500; ++round) {
    Plan plan = random_plan(rng);
    for (Plan::Task& task : plan.tasks) task.declared = roll(-6, 10);
    // Half the plans take the schedule's own starts (the links then hold), and some of those move
    // one task a day or two earlier: both answers come up often.
    if (round % 2 == 0) {
      const std::string json = template_json(plan);
      const TemplateFile file = TemplateFile::parse("plan.json", FileText(json));
      const ScheduledTemplate planned(file.templates()[0].model.stories, ScheduleOptions{.asap = round % 4 == 0});
      ASSERT_TRUE(planned.schedule().ok()) << json;
      for (std::size_t i = 0; i < plan.tasks.size(); ++i)
        plan.tasks[i].declared = static_cast<int>(planned.schedule()[i].early.first_day());
      if (roll(0, 1) == 0) {
        const auto i = static_cast<std::size_t>(roll(0, static_cast<int>(plan.tasks.size()) - 1));
        *plan.tasks[i].declared -= roll(1, 2);
      }
    }
    const std::string json = template_json(plan);
    const TemplateFile file = TemplateFile::parse("plan.json", FileText(json));
    const ScheduledTemplate planned(file.templates()[0].model.stories);
    ASSERT_TRUE(planned.schedule().ok()) << json;
    bool kept = true;
    for (std::size_t i = 0; i < plan.tasks.size(); ++i)
      if (!plan.summary(static_cast<int>(i)) && planned.schedule()[i].early.first_day() != *plan.tasks[i].declared)
        kept = false;
    std::size_t findings = 0;
    for (const Diagnostic& d : lint_text("plan.json", json))
      if (d.rule == "dependency-violated") {
        ++findings;
        if (d.message.find("never places a story before day 0") != std::string::npos) ++ff_floor_findings;
      }
    EXPECT_EQ(findings == 0, kept) << findings << " findings, the schedule " << (kept ? "keeps" : "moves")
                                   << " the declared starts, in " << json;
    ++(kept ? clean : moved);
    if (HasFailure()) break;
  }
  EXPECT_GT(clean, 300);
  EXPECT_GT(moved, 300);
  EXPECT_GT(ff_floor_findings, 20);
}

}  // namespace
}  // namespace ptmpl
