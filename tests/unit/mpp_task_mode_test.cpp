// The task mode of MPP14 files (src/convert/mpp/tasks.cpp, reader.cpp): each task's manual bit
// and the project's "new tasks are manually scheduled" property, against the MSPDI twins saved
// by the same Project. Six Project 2010 files and their twins truly differ here (docs/commands/
// convert.md, "Agreement with the MSPDI twins"): the .mpp holds every task manual and the
// property set, the twin every task automatic and the property clear. This test pins that the
// two disagree in those six pairs only, and that everywhere else the bit and the property read
// as the twin says.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <pugixml.hpp>

#include "convert/cfb/compound_file.hpp"
#include "convert/mpp/mpp.hpp"
#include "convert/mpp/plan.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

namespace fs = std::filesystem;
using detail::mpp::Plan;

// The project's properties and tasks of an .mpp file.
Result<Plan> read_tasks_of(const std::string& bytes, const std::string& path) {
  Result<detail::mpp::ReadPlan> read = detail::mpp::read_plan(bytes, path);
  if (!read.ok()) return read.error();
  return std::move(read).value().plan;
}

// What an MSPDI document says of the task mode: NewTasksAreManual ("" when absent) and each
// task's Manual by UID (the project summary task, UID 0, left out).
struct TaskModes {
  std::string new_tasks_manual;
  std::map<std::int64_t, bool> manual;
};

TaskModes modes_of(const pugi::xml_node project) {
  TaskModes out;
  if (pugi::xml_node n = project.child("NewTasksAreManual")) out.new_tasks_manual = n.text().get();
  for (pugi::xml_node task : project.child("Tasks").children("Task"))
    if (const std::int64_t uid = task.child("UID").text().as_llong(); uid != 0)
      out.manual[uid] = task.child("Manual").text().as_int() != 0;
  return out;
}

// The .mpp's task modes, as its tables and the plan model read from them hold them.
TaskModes modes_of_mpp(const fs::path& mpp) {
  const std::string bytes = testing::slurp(mpp.string());
  Result<Plan> plan = read_tasks_of(bytes, mpp.filename().string());
  EXPECT_TRUE(plan.ok()) << (plan.ok() ? "" : plan.error().message);
  if (!plan.ok()) return {};
  TaskModes out;
  if (const auto manual = plan.value().project.new_tasks_manual) out.new_tasks_manual = *manual ? "1" : "0";
  for (const plan::Task& task : detail::mpp::to_plan(plan.value()).tasks) out.manual[task.uid] = task.manual;
  return out;
}

TaskModes modes_of_twin(const fs::path& xml) {
  pugi::xml_document doc;
  EXPECT_TRUE(doc.load_file(xml.c_str())) << xml;
  return modes_of(doc.child("Project"));
}

// The tasks both documents hold (by UID), and those of them whose mode differs.
struct Compared {
  std::size_t common = 0;
  std::size_t differ = 0;
};

Compared compare(const TaskModes& a, const TaskModes& b) {
  Compared out;
  for (const auto& [uid, manual] : a.manual) {
    auto it = b.manual.find(uid);
    if (it == b.manual.end()) continue;
    ++out.common;
    if (it->second != manual) ++out.differ;
  }
  return out;
}

// The six pairs whose files truly differ (the names without "mpxj__" and ".mpp").
const std::set<std::string> kSavedApart = {
    "task-durations-project2010-mpp14", "task-finishes-project2010-mpp14", "task-flags-project2010-mpp14",
    "task-links-project2010-mpp14",     "task-numbers-project2010-mpp14",  "task-starts-project2010-mpp14",
};

std::string short_name(const std::string& mpp) {
  std::string name = mpp;
  if (name.starts_with("mpxj__")) name = name.substr(6);
  if (name.ends_with(".mpp")) name.resize(name.size() - 4);
  return name;
}

// Every MPP14 pair of `pairs`: the property and every task's mode as the twin says, but in the
// six pairs saved apart, where the .mpp says manual throughout and the twin automatic. Returns
// the number of MPP14 pairs seen.
std::size_t check_mpp14_pairs(const fs::path& folder, const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::size_t seen = 0;
  for (const auto& [mpp, twin] : pairs) {
    const std::string bytes = testing::slurp((folder / mpp).string());
    Result<cfb::CompoundFile> file = cfb::CompoundFile::open(FileText::borrow(bytes), mpp);
    if (!file.ok()) continue;
    Result<detail::MppFormat> format = detail::identify_mpp(file.value());
    if (!format.ok() || format.value().version != 14) continue;
    ++seen;
    const TaskModes ours = modes_of_mpp(folder / mpp);
    const TaskModes theirs = modes_of_twin(folder / twin);
    SCOPED_TRACE(mpp);  // a file of calendars or resources may hold no task
    if (kSavedApart.contains(short_name(mpp))) {
      EXPECT_EQ(ours.new_tasks_manual, "1");
      EXPECT_EQ(theirs.new_tasks_manual, "0");
      for (const auto& [uid, manual] : ours.manual) EXPECT_TRUE(manual) << "task " << uid;
      for (const auto& [uid, manual] : theirs.manual) EXPECT_FALSE(manual) << "twin's task " << uid;
      continue;
    }
    if (!theirs.new_tasks_manual.empty()) {
      EXPECT_EQ(ours.new_tasks_manual, theirs.new_tasks_manual);
    }
    const Compared c = compare(ours, theirs);
    EXPECT_EQ(c.differ, 0u);
    EXPECT_GE(c.common, ours.manual.size() * 9 / 10);
  }
  return seen;
}

TEST(MppTaskMode, TheRepositorysMpp14FilesReadTheTaskModeOfTheirTwins) {
  const fs::path folder = testing::source_path("tests/data/mpp/corpus");
  EXPECT_GE(check_mpp14_pairs(folder, testing::mpp_pairs(folder / "pairs.tsv")), 5u);
}

TEST(MppTaskMode, AProject2010FileSavedApartFromItsTwinSaysManualThroughout) {
  // task-links-project2010: Project 2010 wrote the .mpp with every task manual and new tasks
  // manual, the twin with every task automatic and new tasks automatic (the same minute, the
  // same dates). Both files keep the project property, so the difference is in the files.
  const fs::path folder = testing::source_path("tests/data/mpp/corpus");
  const TaskModes ours = modes_of_mpp(folder / "mpxj__task-links-project2010-mpp14.mpp");
  const TaskModes theirs = modes_of_twin(folder / "mpxj__task-links-project2010-mspdi.xml");
  EXPECT_EQ(ours.new_tasks_manual, "1");
  EXPECT_EQ(theirs.new_tasks_manual, "0");
  EXPECT_EQ(ours.manual.size(), 16u);
  EXPECT_EQ(compare(ours, theirs).common, 16u);
  EXPECT_EQ(compare(ours, theirs).differ, 16u);
  // The same project saved by Project 2016 agrees task by task, property included.
  const TaskModes ours16 = modes_of_mpp(folder / "mpxj__task-links-project2016-mpp14.mpp");
  const TaskModes theirs16 = modes_of_twin(folder / "mpxj__task-links-project2016-mspdi.xml");
  EXPECT_EQ(ours16.new_tasks_manual, "1");
  EXPECT_EQ(theirs16.new_tasks_manual, "1");
  EXPECT_EQ(compare(ours16, theirs16).common, 16u);
  EXPECT_EQ(compare(ours16, theirs16).differ, 0u);
}

TEST(MppTaskMode, EveryMpp14PairOfTheSharedCorpusReadsTheTaskModeOfItsTwin) {
  const fs::path folder = testing::shared_folder("corpus/mpp");
  if (folder.empty()) GTEST_SKIP() << "no ../shared/corpus/mpp beside the repository";
  // Measured: 49 MPP14 files have a twin; the property agrees in all but the six saved apart
  // (10 twins do not write it), and so does every task's mode.
  EXPECT_EQ(check_mpp14_pairs(folder, testing::mpp_pairs(folder / "pairs.tsv")), 49u);
}

}  // namespace
}  // namespace ptmpl
