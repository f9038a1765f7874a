// The scheduler (libtemplate/core/schedule.hpp): the critical path method of docs/semantics.md §5 — every link
// type with positive, zero and negative lag, links into and out of parents, milestones,
// declared gaps, `asap`, float and critical chains, cycles, overflow — and a randomized
// property test against a brute-force fixpoint on thousands of generated DAGs.
#include "libtemplate/core/schedule.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "libtemplate/core/template_file.hpp"

namespace ptmpl {
namespace {

/// A parsed story list with its dependency graph and schedule.
struct Scheduled {
  TemplateFile file;
  DependencyGraph graph;
  Schedule schedule;

  explicit Scheduled(std::string text, ScheduleOptions options = {})
      : file(TemplateFile::parse("test.json", FileText(std::move(text)))), graph(stories()), schedule(graph, options) {}

  [[nodiscard]] std::span<const Story> stories() const {
    return file.templates().empty() ? std::span<const Story>() : file.templates()[0].model.stories;
  }
  /// The story with temp_id `id` (which must exist).
  [[nodiscard]] const ScheduledStory& at(std::int64_t id) const {
    const std::size_t index = graph.find(TempId(id));
    EXPECT_NE(index, DependencyGraph::npos) << "no story " << id;
    return schedule[index];
  }
  /// The critical chains as temp_ids: "1 2 3 | 7".
  [[nodiscard]] std::string chains() const {
    std::string out;
    for (const auto& chain : schedule.critical_chains()) {
      if (!out.empty()) out += " | ";
      for (std::size_t i = 0; i < chain.size(); ++i)
        out += (i ? " " : "") + temp_id_key(*graph.story(chain[i]).temp_id);
    }
    return out;
  }
};

/// A task with temp_id `id`, `duration` days, optional declared start and links.
std::string task(int id, int duration, std::string extra = "") {
  return R"({"title": "t)" + std::to_string(id) + R"(", "temp_id": )" + std::to_string(id) + R"(, "duration": )" +
         std::to_string(duration) + (extra.empty() ? "" : ", " + extra) + "}";
}

std::string link(int from, int to, int type, int lag) {
  return R"({"source_id": )" + std::to_string(from) + R"(, "target_id": )" + std::to_string(to) + R"(, "type": )" +
         std::to_string(type) + R"(, "lag": )" + std::to_string(lag) + "}";
}

std::string links(std::initializer_list<std::string> list) {
  std::string out = R"("dependencies": [)";
  bool first = true;
  for (const std::string& l : list) {
    out += (first ? "" : ", ") + l;
    first = false;
  }
  return out + "]";
}

constexpr int SS = 0;
constexpr int SF = 1;
constexpr int FS = 2;
constexpr int FF = 3;

// A (3 days, from day 0) → B (2 days) with `type` and `lag`; returns B's early interval.
Interval successor_of_three_day_task(int type, int lag, std::string b_extra = "") {
  Scheduled s("[" + task(1, 3, links({link(1, 2, type, lag)})) + ", " + task(2, 2, std::move(b_extra)) + "]");
  EXPECT_TRUE(s.schedule.ok());
  return s.at(2).early;
}

TEST(Schedule, FinishToStart) {
  EXPECT_EQ(successor_of_three_day_task(FS, 0), (Interval{3, 5, 4}));
  EXPECT_EQ(successor_of_three_day_task(FS, 2), (Interval{5, 7, 6}));
  EXPECT_EQ(successor_of_three_day_task(FS, -1), (Interval{2, 4, 3}));  // a lead: overlap by a day
}

TEST(Schedule, StartToStart) {
  EXPECT_EQ(successor_of_three_day_task(SS, 0), (Interval{0, 2, 1}));
  EXPECT_EQ(successor_of_three_day_task(SS, 2), (Interval{2, 4, 3}));
  // A lead pulls a linked story before day 0 (MS Project's rule, docs/semantics.md §5); before, it stayed on
  // day 0 unless it declared an earlier start.
  EXPECT_EQ(successor_of_three_day_task(SS, -2), (Interval{-2, 0, -1}));
  EXPECT_EQ(successor_of_three_day_task(SS, -2, R"("relative_start_date": -5)"), (Interval{-2, 0, -1}));
  // A declared start is a start-no-earlier-than: it holds the story back from the lead.
  EXPECT_EQ(successor_of_three_day_task(SS, -2, R"("relative_start_date": -1)"), (Interval{-1, 1, 0}));
  EXPECT_EQ(successor_of_three_day_task(FS, -5), (Interval{-2, 0, -1}));
}

TEST(Schedule, FinishToFinish) {
  // F_B ≥ F_A + lag: B (2 days) finishes with A at 3, so starts at 1.
  EXPECT_EQ(successor_of_three_day_task(FF, 0), (Interval{1, 3, 2}));
  EXPECT_EQ(successor_of_three_day_task(FF, 4), (Interval{5, 7, 6}));
  EXPECT_EQ(successor_of_three_day_task(FF, -1), (Interval{0, 2, 1}));
  // A finish-to-finish link never places a story before day 0 (F_B ≥ 1 would start it on -1),
  // not even one that declares an earlier start, nor with another link pulling it earlier.
  EXPECT_EQ(successor_of_three_day_task(FF, -2), (Interval{0, 2, 1}));
  EXPECT_EQ(successor_of_three_day_task(FF, -2, R"("relative_start_date": -4)"), (Interval{0, 2, 1}));
  Scheduled both("[" + task(1, 3, links({link(1, 2, FF, -2), link(1, 2, SS, -3)})) + ", " + task(2, 4) + "]");
  EXPECT_EQ(both.at(2).early, (Interval{0, 4, 3}));
  EXPECT_EQ(both.chains(), "2");  // day 0 is its own start, not a link's
  // Into a parent: every story under it.
  Scheduled parent("[" + task(1, 1, links({link(1, 10, FF, 0)})) + R"(, {"title": "p", "temp_id": 10,)" +
                   R"( "sub_stories": [)" + task(11, 4) + "]}]");
  EXPECT_EQ(parent.at(11).early, (Interval{0, 4, 3}));
}

TEST(Schedule, StartToFinish) {
  // F_B ≥ S_A + lag with A starting on day 0: B finishes by day 0, so it runs before day 0
  // (MS Project's rule; before, day 0 bounded it).
  EXPECT_EQ(successor_of_three_day_task(SF, 0), (Interval{-2, 0, -1}));
  EXPECT_EQ(successor_of_three_day_task(SF, 5), (Interval{3, 5, 4}));
  EXPECT_EQ(successor_of_three_day_task(SF, -1), (Interval{-3, -1, -2}));
  EXPECT_EQ(successor_of_three_day_task(SF, -1, R"("relative_start_date": 0)"), (Interval{0, 2, 1}));
  Scheduled s("[" + task(1, 3, R"("relative_start_date": 6, )" + links({link(1, 2, SF, -1)})) + ", " + task(2, 2) +
              "]");
  EXPECT_EQ(s.at(2).early, (Interval{3, 5, 4}));  // F_B ≥ 6 − 1 = 5
}

TEST(Schedule, LeafLengths) {
  Scheduled s(R"([
    {"title": "dated", "temp_id": 1, "relative_start_date": 2, "relative_due_date": 5},
    {"title": "duration wins", "temp_id": 2, "relative_start_date": 0, "relative_due_date": 5, "duration": 2},
    {"title": "one day", "temp_id": 3},
    {"story_type": "milestone", "title": "m", "temp_id": 4, "relative_start_date": 7, "duration": 3},
    {"story_type": "deliverable", "title": "zero", "temp_id": 5, "duration": 0}
  ])");
  EXPECT_EQ(s.at(1).early, (Interval{2, 6, 5}));
  EXPECT_EQ(s.at(2).early, (Interval{0, 2, 1}));
  EXPECT_EQ(s.at(3).early, (Interval{0, 1, 0}));
  EXPECT_EQ(s.at(4).early, (Interval{7, 7, 7}));
  EXPECT_EQ(s.at(5).early, (Interval{0, 0, 0}));
}

TEST(Schedule, DeclaredStartIsANoEarlierThanAndAsapDropsIt) {
  const std::string text =
      "[" + task(1, 2, links({link(1, 2, FS, 0)})) + ", " + task(2, 3, R"("relative_start_date": 5)") + "]";
  Scheduled gap(text);
  EXPECT_EQ(gap.at(2).early, (Interval{5, 8, 7}));  // the intended gap survives
  EXPECT_EQ(gap.at(1).total_float, 3);              // A could slip until day 5
  EXPECT_FALSE(gap.at(1).critical);
  EXPECT_TRUE(gap.at(2).critical);
  EXPECT_EQ(gap.chains(), "2");

  Scheduled asap(text, ScheduleOptions{.asap = true});
  EXPECT_EQ(asap.at(2).early, (Interval{2, 5, 4}));
  EXPECT_EQ(asap.chains(), "1 2");
  // A link pushes a story past its declared start.
  Scheduled pushed("[" + task(1, 9, links({link(1, 2, FS, 0)})) + ", " + task(2, 1, R"("relative_start_date": 5)") +
                   "]");
  EXPECT_EQ(pushed.at(2).early, (Interval{9, 10, 9}));
}

TEST(Schedule, LinkIntoAParentBoundsItsWholeSubtree) {
  Scheduled s("[" + task(1, 4, links({link(1, 10, FS, 1)})) + R"(,
    {"title": "phase", "temp_id": 10, "sub_stories": [)" +
              task(11, 2) + ", " + task(12, 3, R"("relative_start_date": 7)") + R"(,
      {"title": "nested", "temp_id": 13, "sub_stories": [)" +
              task(14, 1) + R"(]}]}])");
  ASSERT_TRUE(s.schedule.ok());
  EXPECT_EQ(s.at(11).early, (Interval{5, 7, 6}));
  EXPECT_EQ(s.at(12).early, (Interval{7, 10, 9}));  // its own later start stands
  EXPECT_EQ(s.at(14).early, (Interval{5, 6, 5}));   // two levels down
  EXPECT_EQ(s.at(13).early, (Interval{5, 6, 5}));
  EXPECT_EQ(s.at(10).early, (Interval{5, 10, 9}));  // rolled up: min start, max finish
  // Finish-to-finish into a parent bounds every finish inside it.
  Scheduled ff("[" + task(1, 6, links({link(1, 10, FF, 0)})) + R"(,
    {"title": "phase", "temp_id": 10, "sub_stories": [)" +
               task(11, 2) + ", " + task(12, 4) + "]}]");
  EXPECT_EQ(ff.at(11).early, (Interval{4, 6, 5}));
  EXPECT_EQ(ff.at(12).early, (Interval{2, 6, 5}));
}

TEST(Schedule, LinkOutOfAParentUsesItsRolledUpInterval) {
  const std::string phase = R"({"title": "phase", "temp_id": 10, "sub_stories": [)" + task(11, 2) + ", " +
                            task(12, 3, R"("relative_start_date": 4)") + "], ";
  Scheduled fs("[" + phase + links({link(10, 20, FS, 0)}) + "}, " + task(20, 1) + "]");
  EXPECT_EQ(fs.at(20).early, (Interval{7, 8, 7}));  // after the last child
  Scheduled ss("[" + phase + links({link(10, 20, SS, 1)}) + "}, " + task(20, 1) + "]");
  EXPECT_EQ(ss.at(20).early, (Interval{1, 2, 1}));  // after the first child's start
  // A chain through two parents: phase → phase 2 → task.
  Scheduled chain("[" + phase + links({link(10, 30, FS, 0)}) + R"(}, {"title": "phase 2", "temp_id": 30, )" +
                  links({link(30, 20, FS, 2)}) + R"(, "sub_stories": [)" + task(31, 5) + "]}, " + task(20, 1) + "]");
  ASSERT_TRUE(chain.schedule.ok());
  EXPECT_EQ(chain.at(31).early, (Interval{7, 12, 11}));
  EXPECT_EQ(chain.at(20).early, (Interval{14, 15, 14}));
  EXPECT_EQ(chain.schedule.project_duration(), 15);
  EXPECT_EQ(chain.chains(), "12 10 30 31 30 20");
}

TEST(Schedule, MilestonesAtTheStartAndTheEnd) {
  Scheduled s(R"([{"story_type": "milestone", "title": "kick-off", "temp_id": 1, )" + links({link(1, 2, FS, 0)}) +
              "}, " + task(2, 3, links({link(2, 3, FS, 0)})) +
              R"(, {"story_type": "milestone", "title": "done", "temp_id": 3}])");
  ASSERT_TRUE(s.schedule.ok());
  EXPECT_EQ(s.at(1).early, (Interval{0, 0, 0}));
  EXPECT_EQ(s.at(2).early, (Interval{0, 3, 2}));
  // A moment at the end of the task's last day (docs/semantics.md §4), not the day after it.
  EXPECT_EQ(s.at(3).early, (Interval{3, 3, 2, true}));
  EXPECT_EQ(s.at(3).early.first_day(), 2);
  ASSERT_TRUE(s.schedule.project());
  EXPECT_EQ(*s.schedule.project(), (Interval{0, 3, 2}));
  EXPECT_EQ(s.schedule.project_duration(), 3);
  EXPECT_EQ(s.chains(), "1 2 3");
  EXPECT_EQ(s.schedule.critical_count(), 3u);
}

// docs/scheduling.md, "Milestones": each row of the table of cases. A milestone's side is that of
// the constraint that places it; successors read its boundary.
TEST(Schedule, AMilestoneSitsOnTheSideOfTheConstraintThatPlacesIt) {
  const std::string m = R"("story_type": "milestone", "duration": 0)";
  auto milestone = [&](int id, std::string extra = "") {
    return R"({"title": "m)" + std::to_string(id) + R"(", "temp_id": )" + std::to_string(id) + ", " + m +
           (extra.empty() ? "" : ", " + extra) + "}";
  };
  // Task 1 works days 0–2 (boundaries [0, 3)).
  auto after = [&](int type, int lag, std::string extra = "") {
    return Scheduled("[" + task(1, 3, links({link(1, 2, type, lag)})) + ", " + milestone(2, std::move(extra)) + "]");
  };
  EXPECT_EQ(after(FS, 0).at(2).early, (Interval{3, 3, 2, true}));  // FS: the end of day 2
  EXPECT_EQ(after(FF, 0).at(2).early, (Interval{3, 3, 2, true}));  // FF: the same
  EXPECT_EQ(after(FS, 2).at(2).early, (Interval{5, 5, 4, true}));  // a lag keeps the side
  EXPECT_EQ(after(FS, -1).at(2).early, (Interval{2, 2, 1, true}));
  EXPECT_EQ(after(SS, 1).at(2).early, (Interval{1, 1, 1, false}));  // SS: the start of day 1
  EXPECT_EQ(after(SF, 2).at(2).early, (Interval{2, 2, 2, false}));  // SF: the start of day 2
  // Its declared day is a start-no-earlier-than at the start of that day; on the same boundary
  // as a finish, the start side wins (it is later on the clock).
  EXPECT_EQ(after(FS, 0, R"("relative_start_date": 3)").at(2).early, (Interval{3, 3, 3, false}));
  EXPECT_EQ(after(FS, 0, R"("relative_start_date": 2)").at(2).early, (Interval{3, 3, 2, true}));
  EXPECT_EQ(after(FS, 0, R"("relative_start_date": 5)").at(2).early, (Interval{5, 5, 5, false}));
  EXPECT_EQ(Scheduled("[" + milestone(2) + "]").at(2).early, (Interval{0, 0, 0, false}));  // day 0: its start

  // A milestone after a milestone takes its side; a task after an end-side milestone starts the
  // next working day, the same day after a start-side one.
  Scheduled chain("[" + task(1, 3, links({link(1, 2, FS, 0)})) + ", " + milestone(2, links({link(2, 3, FS, 0)})) +
                  ", " + milestone(3, links({link(3, 4, FS, 0)})) + ", " + task(4, 2) + "]");
  EXPECT_EQ(chain.at(3).early, (Interval{3, 3, 2, true}));
  EXPECT_EQ(chain.at(4).early, (Interval{3, 5, 4}));
  Scheduled start_side("[" + milestone(2, R"("relative_start_date": 3, )" + links({link(2, 4, FS, 0)})) + ", " +
                       task(4, 2) + "]");
  EXPECT_EQ(start_side.at(4).early, (Interval{3, 5, 4}));

  // Roll-ups use the day: four working days and a closing milestone make a four-day phase, and
  // the phase after it starts the next day.
  Scheduled phases(R"([{"title": "Planning", "temp_id": 10, )" + links({link(10, 20, FS, 0)}) +
                   R"(, "sub_stories": [)" + task(1, 4, links({link(1, 2, FS, 0)})) + ", " + milestone(2) +
                   R"(]}, {"title": "Development", "temp_id": 20, "sub_stories": [)" + task(3, 5) + "]}]");
  ASSERT_TRUE(phases.schedule.ok());
  EXPECT_EQ(phases.at(10).early, (Interval{0, 4, 3}));
  EXPECT_EQ(phases.at(10).early.days(), 4);
  EXPECT_EQ(phases.at(20).early, (Interval{4, 9, 8}));
  // A phase that opens with an end-side milestone starts on that milestone's day.
  Scheduled opens("[" + task(1, 3, links({link(1, 10, FS, 0)})) +
                  R"(, {"title": "P", "temp_id": 10, "sub_stories": [)" + milestone(2) + ", " +
                  task(3, 2, R"("relative_start_date": 3)") + "]}]");
  EXPECT_EQ(opens.at(10).early.first_day(), 2);
  EXPECT_EQ(opens.at(10).early.due, 4);
  EXPECT_EQ(opens.at(10).early.days(), 3);
}

TEST(Schedule, FloatAndLateDates) {
  // 1 (5 days) and 2 (2 days) both feed 3; 2 has 3 days of float.
  Scheduled s("[" + task(1, 5, links({link(1, 3, FS, 0)})) + ", " + task(2, 2, links({link(2, 3, FS, 0)})) + ", " +
              task(3, 1) + ", " + task(4, 1) + "]");
  EXPECT_EQ(s.at(2).late, (Interval{3, 5, 4}));
  EXPECT_EQ(s.at(2).total_float, 3);
  EXPECT_EQ(s.at(4).total_float, 5);  // unlinked: floats to the project finish
  EXPECT_EQ(s.at(1).total_float, 0);
  EXPECT_EQ(s.at(3).late, (Interval{5, 6, 5}));
  EXPECT_EQ(s.chains(), "1 3");
  EXPECT_EQ(s.schedule.critical_count(), 2u);
}

TEST(Schedule, ParentRollsUpLateDatesAndFloat) {
  Scheduled s(R"([{"title": "phase", "temp_id": 10, "sub_stories": [)" + task(11, 4) + ", " + task(12, 1) + "]}, " +
              task(20, 2) + "]");
  EXPECT_EQ(s.at(10).early, (Interval{0, 4, 3}));
  EXPECT_EQ(s.at(10).late, (Interval{0, 4, 3}));
  EXPECT_EQ(s.at(12).total_float, 3);
  EXPECT_EQ(s.at(10).total_float, 0);  // it contains a critical story
  EXPECT_TRUE(s.at(10).critical);
  EXPECT_FALSE(s.at(20).critical);
}

TEST(Schedule, InvalidAndNestedLinksDoNotConstrain) {
  Scheduled s(R"([{"title": "phase", "temp_id": 10, )" + links({link(10, 11, FS, 0)}) + R"(, "sub_stories": [)" +
              task(11, 2) + "]}, " + task(1, 3, links({link(1, 2, 7, 0), link(1, 1, FS, 0)})) + ", " + task(2, 1) +
              "]");
  ASSERT_TRUE(s.schedule.ok());
  EXPECT_EQ(s.schedule.skipped_links(), 3u);
  EXPECT_EQ(s.at(11).early.start, 0);
  EXPECT_EQ(s.at(2).early.start, 0);
}

// Before, a lag that is not an integer was read as 0, and 2 started after 1 (on day 3).
TEST(Schedule, ALinkWhoseLagIsNotAnIntegerIsSkippedNotReadAsZero) {
  const std::string dependencies = R"("dependencies": [{"source_id": 1, "target_id": 2, "type": 2, "lag": 1.5},)"
                                   R"( {"source_id": 1, "target_id": 3, "type": 2, "lag": "2"}, )" +
                                   link(1, 4, FS, 1) + "]";
  Scheduled s("[" + task(1, 3, dependencies) + ", " + task(2, 1) + ", " + task(3, 1) + ", " + task(4, 1) + "]");
  ASSERT_TRUE(s.schedule.ok());
  EXPECT_EQ(s.schedule.skipped_links(), 2u);
  EXPECT_EQ(s.schedule.skipped_for_lag(), 2u);
  EXPECT_EQ(s.at(2).early.start, 0);
  EXPECT_EQ(s.at(3).early.start, 0);
  EXPECT_EQ(s.at(4).early.start, 4);  // the valid link holds
  EXPECT_EQ(s.chains(), "1 4");
}

TEST(Schedule, SkippedLinksCountEachLinkOnce) {
  // A self-link with a fractional lag is skipped once, and counted among the lags.
  Scheduled s("[" + task(1, 1, R"("dependencies": [{"source_id": 1, "target_id": 1, "type": 2, "lag": 0.5}])") + "]");
  EXPECT_EQ(s.schedule.skipped_links(), 1u);
  EXPECT_EQ(s.schedule.skipped_for_lag(), 1u);
}

// A leaf lasts its story_length(), whose span may be absurd: before, a span beyond 2^62 days
// silently became 1 day; now it leaves the range the scheduler computes in.
TEST(Schedule, ASpanBeyondTheRangeIsOutOfRange) {
  Scheduled s(R"([{"title": "t", "temp_id": 1, "relative_start_date": 0, "relative_due_date": 4611686018427387904}])");
  EXPECT_FALSE(s.schedule.ok());
  EXPECT_TRUE(s.schedule.out_of_range());
  Scheduled beyond(R"([{"title": "t", "temp_id": 1, "relative_start_date": -9223372036854775808,)"
                   R"( "relative_due_date": 9223372036854775807}])");
  EXPECT_TRUE(beyond.schedule.out_of_range());
}

TEST(ScheduledTemplate, IsTheIndexTheGraphAndTheScheduleTogether) {
  const std::string text = "[" + task(1, 2, links({link(1, 2, FS, 1)})) + R"(, {"title": "p", "temp_id": 9,)" +
                           R"( "sub_stories": [)" + task(2, 3) + "]}]";
  const Scheduled separate(text, {.asap = true});
  const ScheduledTemplate together(separate.stories(), {.asap = true});
  EXPECT_EQ(&together.graph().index(), &together.index());
  EXPECT_EQ(&together.schedule().graph(), &together.graph());
  ASSERT_EQ(together.schedule().size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(&together.index().story(i), &separate.graph.story(i));
    EXPECT_EQ(together.schedule()[i].early, separate.schedule[i].early);
    EXPECT_EQ(together.schedule()[i].late, separate.schedule[i].late);
    EXPECT_EQ(together.schedule().depth(i), separate.schedule.depth(i));
  }
  EXPECT_EQ(together.schedule().depth(2), 1u);
  EXPECT_EQ(together.schedule()[2].early, (Interval{3, 6, 5}));
}

TEST(Schedule, CycleHasNoScheduleAndNamesItsChain) {
  Scheduled s("[" + task(1, 1, links({link(1, 2, FS, 0)})) + ", " + task(2, 1, links({link(2, 3, FS, 0)})) + ", " +
              task(3, 1, links({link(3, 1, SS, 0)})) + "]");
  EXPECT_FALSE(s.schedule.ok());
  ASSERT_EQ(s.schedule.cycles().size(), 1u);
  std::string chain;
  for (std::size_t story : s.schedule.cycles()[0].stories) chain += temp_id_key(*s.graph.story(story).temp_id) + " ";
  EXPECT_EQ(chain, "1 2 3 1 ");
  EXPECT_FALSE(s.schedule.project());
}

TEST(Schedule, CycleThroughAParent) {
  // 11 is inside 10; 11 → 20 → 10 closes a loop through the parent's subtree.
  Scheduled s(R"([{"title": "phase", "temp_id": 10, "sub_stories": [)" + task(11, 1, links({link(11, 20, FS, 0)})) +
              "]}, " + task(20, 1, links({link(20, 10, FS, 0)})) + "]");
  EXPECT_FALSE(s.schedule.ok());
  EXPECT_EQ(s.schedule.cycles().size(), 1u);
}

TEST(Schedule, AbsurdLagsAreOutOfRangeNotUndefined) {
  Scheduled s(
      "[" + task(1, 1, R"("dependencies": [{"source_id": 1, "target_id": 2, "type": 2, "lag": 9223372036854775807}])") +
      ", " +
      task(2, 1, R"("dependencies": [{"source_id": 2, "target_id": 3, "type": 2, "lag": 9223372036854775807}])") +
      ", " + task(3, 1) + "]");
  EXPECT_FALSE(s.schedule.ok());
  EXPECT_TRUE(s.schedule.out_of_range());
  EXPECT_TRUE(s.schedule.cycles().empty());
}

TEST(Schedule, EmptyTemplate) {
  Scheduled s("[]");
  EXPECT_TRUE(s.schedule.ok());
  EXPECT_EQ(s.schedule.size(), 0u);
  EXPECT_FALSE(s.schedule.project());
  EXPECT_EQ(s.schedule.project_duration(), 0);
}

TEST(Schedule, LongChainNeedsNoRecursion) {
  std::string text = "[";
  constexpr int kCount = 200000;
  for (int i = 1; i <= kCount; ++i) {
    if (i > 1) text += ",";
    text += task(i, 1, i < kCount ? links({link(i, i + 1, FS, 0)}) : "");
  }
  Scheduled s(text + "]");
  ASSERT_TRUE(s.schedule.ok());
  EXPECT_EQ(s.at(kCount).early.start, kCount - 1);
  EXPECT_EQ(s.schedule.critical_chains().size(), 1u);
  EXPECT_EQ(s.schedule.critical_chains()[0].size(), static_cast<std::size_t>(kCount));
}

// ---------------------------------------------------------------------------------------------
// Property test: random trees with random links (acyclic by construction), checked against the
// definition rather than against the implementation.

struct RandomTemplate {
  struct Node {
    int parent = -1;
    int length = 1;
    bool milestone = false;
    std::optional<int> declared_start;
    std::vector<std::array<int, 3>> links;  // target, type, lag
  };
  std::vector<Node> nodes;  // pre-order: a parent precedes its subtree
  std::vector<int> end;     // one past the subtree

  [[nodiscard]] bool related(int a, int b) const { return (a <= b && b < end[a]) || (b <= a && a < end[b]); }

  static RandomTemplate make(std::mt19937& rng) {
    RandomTemplate t;
    const int count = std::uniform_int_distribution<int>(1, 24)(rng);
    // Pre-order with a random parent among the open ancestors of the previous node.
    std::vector<int> open;
    for (int i = 0; i < count; ++i) {
      Node node;
      if (!open.empty()) {
        const int keep = std::uniform_int_distribution<int>(0, static_cast<int>(open.size()))(rng);
        open.resize(static_cast<std::size_t>(keep));
        node.parent = open.empty() ? -1 : open.back();
      }
      node.milestone = std::uniform_int_distribution<int>(0, 7)(rng) == 0;
      node.length = node.milestone ? 0 : std::uniform_int_distribution<int>(0, 6)(rng);
      if (std::uniform_int_distribution<int>(0, 3)(rng) == 0)
        node.declared_start = std::uniform_int_distribution<int>(-3, 12)(rng);
      t.nodes.push_back(node);
      open.push_back(i);
    }
    t.end.assign(t.nodes.size(), 0);
    for (int i = count; i-- > 0;) {
      t.end[i] = std::max(t.end[i], i + 1);
      if (t.nodes[i].parent >= 0) t.end[t.nodes[i].parent] = std::max(t.end[t.nodes[i].parent], t.end[i]);
    }
    // Links only forward in pre-order between unrelated stories: acyclic (see the scheduler).
    const int link_count = std::uniform_int_distribution<int>(0, count * 2)(rng);
    for (int k = 0; k < link_count; ++k) {
      const int a = std::uniform_int_distribution<int>(0, count - 1)(rng);
      const int b = std::uniform_int_distribution<int>(0, count - 1)(rng);
      if (a >= b || t.related(a, b)) continue;
      t.nodes[a].links.push_back(
          {b, std::uniform_int_distribution<int>(0, 3)(rng), std::uniform_int_distribution<int>(-6, 4)(rng)});
    }
    return t;
  }

  [[nodiscard]] bool is_parent(int i) const { return end[i] > i + 1; }

  [[nodiscard]] std::string json() const {
    std::string out = "[";
    std::vector<int> stack;
    for (int i = 0; i < static_cast<int>(nodes.size()); ++i) {
      while (!stack.empty() && stack.back() != nodes[i].parent) {
        out += "]}";
        stack.pop_back();
      }
      if (out.back() != '[') out += ",";
      const Node& n = nodes[i];
      out += R"({"title": "s", "temp_id": )" + std::to_string(i + 1);
      if (n.milestone) out += R"(, "story_type": "milestone")";
      out += R"(, "duration": )" + std::to_string(n.length);
      if (n.declared_start) out += R"(, "relative_start_date": )" + std::to_string(*n.declared_start);
      if (!n.links.empty()) {
        out += R"(, "dependencies": [)";
        for (std::size_t k = 0; k < n.links.size(); ++k)
          out += (k ? ", " : "") + link(i + 1, n.links[k][0] + 1, n.links[k][1], n.links[k][2]);
        out += "]";
      }
      if (is_parent(i)) {
        out += R"(, "sub_stories": [)";
        stack.push_back(i);
      } else {
        out += "}";
      }
    }
    while (!stack.empty()) {
      out += "]}";
      stack.pop_back();
    }
    return out + "]";
  }

  // The rolled-up [start, finish) of story i under leaf starts `start`.
  [[nodiscard]] std::pair<int, int> span(int i, const std::vector<int>& start) const {
    if (!is_parent(i)) return {start[i], start[i] + nodes[i].length};
    int s = std::numeric_limits<int>::max();
    int f = std::numeric_limits<int>::min();
    for (int d = i + 1; d < end[i]; ++d)
      if (!is_parent(d)) {
        s = std::min(s, start[d]);
        f = std::max(f, start[d] + nodes[d].length);
      }
    return {s, f};
  }

  // The start of leaf `d` under `start` (docs/semantics.md §5): without a link into it (or into an ancestor),
  // its declared start or day 0; with links, the least start they allow (before day 0 too), no
  // earlier than its declared start, and no earlier than day 0 when one is finish-to-finish.
  // Without `with_base`, only the links count (for late dates, which have no start bound).
  [[nodiscard]] int bound(int d, const std::vector<int>& start, bool asap, bool with_base = true) const {
    int least = std::numeric_limits<int>::min();
    bool linked = false;
    bool finish_to_finish = false;
    for (int a = 0; a < static_cast<int>(nodes.size()); ++a)
      for (const auto& [b, type, lag] : nodes[a].links) {
        if (!(b == d || (b < d && d < end[b]))) continue;
        linked = true;
        finish_to_finish = finish_to_finish || type == FF;
        const auto [sa, fa] = span(a, start);
        const bool from_finish = type == FS || type == FF;
        const bool to_finish = type == SF || type == FF;
        const int value = (from_finish ? fa : sa) + lag;
        least = std::max(least, to_finish ? value - nodes[d].length : value);
      }
    if (!with_base) return least;
    const std::optional<int> declared = asap ? std::nullopt : nodes[d].declared_start;
    if (!linked) return declared.value_or(0);
    if (declared) least = std::max(least, *declared);
    if (finish_to_finish) least = std::max(least, 0);
    return least;
  }

  // Early starts by fixpoint iteration from below: the least fixpoint of bound().
  [[nodiscard]] std::vector<int> early_starts(bool asap) const {
    std::vector<int> start(nodes.size(), -1000);
    for (bool changed = true; changed;) {
      changed = false;
      for (int d = 0; d < static_cast<int>(nodes.size()); ++d) {
        if (is_parent(d)) continue;
        const int b = bound(d, start, asap);
        if (b != start[d]) {
          start[d] = b;
          changed = true;
        }
      }
    }
    return start;
  }
};

TEST(ScheduleProperty, ThousandsOfRandomDagsMeetEveryConstraintAsEarlyAsPossible) {
  std::mt19937 rng(20261122);
  int checked = 0;
  for (int round = 0; round < 3000; ++round) {
    const RandomTemplate t = RandomTemplate::make(rng);
    const bool asap = round % 3 == 0;
    Scheduled s(t.json(), ScheduleOptions{.asap = asap});
    ASSERT_TRUE(s.schedule.ok()) << t.json();
    ASSERT_EQ(s.schedule.size(), t.nodes.size());
    const std::vector<int> expected = t.early_starts(asap);
    std::vector<int> early(t.nodes.size());
    std::vector<int> late(t.nodes.size());
    int project_finish = std::numeric_limits<int>::min();
    for (std::size_t i = 0; i < t.nodes.size(); ++i) {
      early[i] = static_cast<int>(s.schedule[i].early.start);
      late[i] = static_cast<int>(s.schedule[i].late.start);
      if (!t.is_parent(static_cast<int>(i))) project_finish = std::max(project_finish, early[i] + t.nodes[i].length);
    }
    for (int d = 0; d < static_cast<int>(t.nodes.size()); ++d) {
      if (t.is_parent(d)) {
        // A parent's interval is its leaves' span.
        const auto [sp, fp] = t.span(d, early);
        EXPECT_EQ(s.schedule[d].early.start, sp);
        EXPECT_EQ(s.schedule[d].early.finish, fp);
        continue;
      }
      // Every constraint holds, and each leaf starts where bound() puts it.
      EXPECT_EQ(early[d], expected[d]) << "story " << d + 1 << " in " << t.json();
      EXPECT_GE(early[d], t.bound(d, early, asap));
      // The late schedule is feasible too, within the project finish, and never before the early one.
      EXPECT_GE(late[d], t.bound(d, late, asap, false))
          << "late dates break a link, story " << d + 1 << " in " << t.json();
      EXPECT_LE(late[d] + t.nodes[d].length, project_finish);
      EXPECT_GE(s.schedule[d].total_float, 0);
      EXPECT_EQ(s.schedule[d].total_float, late[d] - early[d]);
      EXPECT_EQ(s.schedule[d].critical, late[d] == early[d]);
    }
    // Every critical leaf is in exactly one chain; consecutive chain stories are linked or nested.
    std::vector<int> in_chains(t.nodes.size(), 0);
    for (const auto& chain : s.schedule.critical_chains())
      for (std::size_t k = 0; k < chain.size(); ++k) {
        ++in_chains[chain[k]];
        EXPECT_TRUE(s.schedule[chain[k]].critical);
      }
    for (std::size_t i = 0; i < t.nodes.size(); ++i)
      if (!t.is_parent(static_cast<int>(i)) && s.schedule[i].critical) {
        EXPECT_GE(in_chains[i], 1) << t.json();
      }
    ++checked;
  }
  EXPECT_EQ(checked, 3000);
}

}  // namespace
}  // namespace ptmpl
