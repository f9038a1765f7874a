// Tasks a schedule of the converted template puts later than the plan (docs/commands/convert.md,
// "Dates that move"): each carries a finding that says why.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "convert_support.hpp"
#include "libtemplate/core/schedule.hpp"
#include "libtemplate/core/template_file.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

using testing::expect_converted;
using testing::source_path;

std::vector<std::string> findings_of(const Conversion& conversion, std::string_view rule) {
  std::vector<std::string> out;
  for (const Diagnostic& d : conversion.diagnostics)
    if (d.rule == rule) out.push_back(std::to_string(d.line) + ": " + d.message);
  return out;
}

TEST(ConvertMovedTasks, EachTaskOffThePlansDatesSaysWhy) {
  const Conversion conversion = expect_converted(convert_plan_file(source_path("tests/data/mspdi/moved-tasks.xml")));
  // Formwork starts at 13:00 on the day Excavation (1.5 days) finishes at 12:00: a day later.
  const std::vector<std::string> not_kept = findings_of(conversion, "mspdi-link-not-kept");
  ASSERT_EQ(not_kept.size(), 2u);
  EXPECT_EQ(not_kept[0],
            std::string{
                "30: task 2 \"Formwork\" is scheduled 1 working day later than its Start in the plan (2025-03-04): its "
                "link from task 1 \"Excavation\" (FS) holds it there: the plan starts it at 13:00 on the day task 1 "
                "\"Excavation\" finishes (12:00), and a template counts whole days"});
  // Pour slab follows Formwork by as many days.
  EXPECT_EQ(findings_of(conversion, "mspdi-moved-by-task"),
            std::vector<std::string>{
                "33: task 3 \"Pour slab\" is scheduled 1 working day later than its Start in the plan (2025-03-06): "
                "moved by task 2 \"Formwork\" (FS), whose finish the schedule puts 1 working day later too"});
  // Order steel follows Survey (whose progress is its own finding) two days later, but the plan
  // breaks the link by two more: that is no move of Survey's.
  EXPECT_EQ(not_kept[1],
            "40: task 5 \"Order steel\" is scheduled 4 working days later than its Start in the plan (2025-03-04): its "
            "link from task 4 \"Survey\" (FS+2) holds it there: the plan's dates do not keep that link (task 4 "
            "\"Survey\"'s finish is itself 2 working days later than the plan has it)");
  EXPECT_EQ(findings_of(conversion, "mspdi-progress").size(), 1u);
}

// A finding that may say why the task it is about starts later: `task 12 "…"` at the start of
// its message, or a link into it; not one about its length alone, which says nothing of its start.
bool names_task(const Diagnostic& d, const std::string& uid) {
  for (const char* length :
       {"duration-span", "fractional-duration", "elapsed-duration", "split-task", "duration-invalid"})
    if (d.rule.ends_with(length)) return false;
  for (const std::string prefix : {"task ", "the lag of a link into task ", "a link into task "})
    if (d.message.starts_with(prefix + uid + " ")) return true;
  return false;
}

struct Moves {
  std::size_t plans = 0;
  std::size_t moved = 0;               // leaf stories the schedule starts off their task's Start
  std::size_t explained_by_moves = 0;  // of them, said by moved-by-task or link-not-kept
};

// The plans in `folders`: each leaf story that `ptmpl schedule` starts off its task's Start has
// a finding about that task — one of its own or a moved task's.
Moves expect_every_move_said(const std::vector<std::filesystem::path>& folders) {
  Moves moves;
  for (const std::filesystem::path& folder : folders) {
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      const std::string path = entry.path().string();
      if (entry.path().extension() != ".xml" && entry.path().extension() != ".mpp") continue;
      Result<Conversion> converted = convert_plan_file(path);
      if (!converted.ok()) continue;  // refused plans are other tests' subject
      ++moves.plans;
      const Conversion& conversion = converted.value();
      const TemplateFile file = TemplateFile::parse(path, FileText::borrow(conversion.document));
      if (file.templates().empty()) continue;
      const ScheduledTemplate scheduled(file.templates().front().model.stories);
      const Schedule& schedule = scheduled.schedule();
      if (!schedule.ok()) continue;
      for (std::size_t i = 0; i < schedule.size(); ++i) {
        const Story& story = scheduled.graph().story(i);
        if (scheduled.graph().index().is_parent(i) || !story.relative_start_date || !story.temp_id) continue;
        if (schedule[i].early.first_day() == *story.relative_start_date) continue;
        ++moves.moved;
        const std::string uid = temp_id_key(*story.temp_id);
        bool said = false;
        for (const Diagnostic& d : conversion.diagnostics) {
          if (!names_task(d, uid)) continue;
          said = true;
          if (d.rule.ends_with("moved-by-task") || d.rule.ends_with("link-not-kept")) ++moves.explained_by_moves;
        }
        EXPECT_TRUE(said) << path << ": task " << uid << " is scheduled on day " << schedule[i].early.first_day()
                          << ", its plan's Start is day " << *story.relative_start_date << ", and no finding says why";
      }
    }
  }
  std::cout << moves.plans << " plans: " << moves.moved << " stories scheduled off their plan's Start, "
            << moves.explained_by_moves << " of them said by moved-by-task or link-not-kept\n";
  return moves;
}

TEST(ConvertMovedTasks, EveryStoryScheduledOffItsPlanDatesCarriesAFinding) {
  std::vector<std::filesystem::path> folders;
  for (const char* folder : {"tests/data/mspdi", "tests/data/mspdi/corpus", "tests/data/mspdi/twins",
                             "tests/data/mspdi/mpxj", "tests/data/mpp/corpus"})
    folders.emplace_back(source_path(folder));
  const Moves moves = expect_every_move_said(folders);
  // The plans here do move tasks, and some only for a reason this check gives.
  EXPECT_GT(moves.moved, 10u);
  EXPECT_GT(moves.explained_by_moves, 0u);
}

TEST(ConvertMovedTasks, EveryStoryOfTheSharedCorpusScheduledOffItsPlanDatesCarriesAFinding) {
  const std::filesystem::path mspdi = testing::shared_folder("corpus/mspdi");
  const std::filesystem::path mpp = testing::shared_folder("corpus/mpp");
  if (mspdi.empty() || mpp.empty()) GTEST_SKIP() << "no shared corpus here";
  std::vector<std::filesystem::path> folders{mspdi, mpp};
  for (const auto& entry : std::filesystem::directory_iterator(mspdi))
    if (entry.is_directory()) folders.push_back(entry.path());
  EXPECT_GT(expect_every_move_said(folders).moved, 0u);
}

}  // namespace
}  // namespace ptmpl
