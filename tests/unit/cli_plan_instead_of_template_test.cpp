// A plan that `ptmpl convert` reads (a Microsoft Project .mpp, MS Project XML, a GanttProject
// .gan file), given to a command that reads templates: recognised by its content and refused
// with what it is and the way out (exit 2, the file named), by every command that reads a
// template; below a directory, such a file is skipped as lint and fmt skip other files.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "cli_run.hpp"
#include "libtemplate/core/foreign_plan.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

using testing::CliRun;

const std::string kMpp = "tests/data/mpp/corpus/mpxj__task-links-project2010-mpp14.mpp";
const std::string kMspdi = "tests/data/mpp/corpus/mpxj__task-links-project2010-mspdi.xml";
const std::string kGan = "tests/data/gan/corpus/blyoa__task-with-dependencies.gan";
const std::string kXer = "tests/data/p6/percent-complete-8.4.xer";
const std::string kPmxml = "tests/data/p6/mpxj__percent-complete-8.4.pmxml";
const std::string kXlsx = "tests/data/xlsx/openpyxl_generic.xlsx";

const std::string kMppMessage = kMpp +
                                ": a Microsoft Project file (MPP14), not a template: convert it first: ptmpl convert " +
                                kMpp + " -o tests/data/mpp/corpus/mpxj__task-links-project2010-mpp14.json";
const std::string kMspdiMessage =
    kMspdi + ": a Microsoft Project XML file (MSPDI), not a template: convert it first: ptmpl convert " + kMspdi +
    " -o tests/data/mpp/corpus/mpxj__task-links-project2010-mspdi.json";
const std::string kGanMessage = kGan +
                                ": a GanttProject file (.gan), not a template: convert it first: ptmpl convert " +
                                kGan + " -o tests/data/gan/corpus/blyoa__task-with-dependencies.json";

const std::string kXerMessage = kXer +
                                ": a Primavera P6 export (XER), not a template: convert it first: ptmpl convert " +
                                kXer + " -o tests/data/p6/percent-complete-8.4.json";
const std::string kPmxmlMessage = kPmxml +
                                  ": a Primavera P6 export (PMXML), not a template: convert it first: ptmpl convert " +
                                  kPmxml + " -o tests/data/p6/mpxj__percent-complete-8.4.json";
const std::string kXlsxMessage = kXlsx +
                                 ": an Excel workbook (.xlsx), not a template: convert it first: ptmpl convert " +
                                 kXlsx + " -o tests/data/xlsx/openpyxl_generic.json";

class CliPlanInsteadOfTemplate : public testing::CliScratchTest {};

TEST_F(CliPlanInsteadOfTemplate, EveryCommandThatReadsATemplateNamesThePlanAndTheWayOut) {
  for (const std::string command : {"lint", "fmt", "fmt --check", "diff", "push --dry-run"}) {
    for (const auto& [plan, message] :
         {std::pair{kMpp, kMppMessage}, std::pair{kMspdi, kMspdiMessage}, std::pair{kGan, kGanMessage},
          std::pair{kXer, kXerMessage}, std::pair{kPmxml, kPmxmlMessage}, std::pair{kXlsx, kXlsxMessage}}) {
      SCOPED_TRACE(command + " " + plan);
      // diff and push read the files before they ask the service: none is needed to see the
      // refusal.
      const CliRun r = ptmpl(command + " " + plan, "PTMPL_TOKEN=unused");
      EXPECT_EQ(r.exit, 2) << r.err;
      const std::string name = command.substr(0, command.find(' '));
      EXPECT_EQ(r.err, "ptmpl " + name + ": " + message + "\n");
      EXPECT_EQ(r.out, "");
    }
  }
}

// Issue 36: schedule and stats read a plan directly — converted as `ptmpl convert` converts it,
// with a note counting its findings — and show what the converted template shows.
TEST_F(CliPlanInsteadOfTemplate, ScheduleAndStatsReadAPlanDirectly) {
  for (const std::string& plan : {kMpp, kMspdi, kGan, kXer, kPmxml, kXlsx}) {
    SCOPED_TRACE(plan);
    const std::string converted = (dir_ / "converted.json").string();
    ASSERT_EQ(ptmpl("convert " + plan + " -o " + converted).exit, 0);
    for (const std::string command : {"schedule --format json", "stats --format json"}) {
      const CliRun direct = ptmpl(command + " " + plan);
      EXPECT_EQ(direct.exit, 0) << direct.err;
      const std::string name = command.substr(0, command.find(' '));
      expect_has(direct.err, "ptmpl " + name + ": " + plan + ": a plan, converted to a template first");
      const CliRun via_template = ptmpl(command + " " + converted);
      ASSERT_EQ(via_template.exit, 0) << via_template.err;
      EXPECT_EQ(direct.out, via_template.out);
      EXPECT_NE(direct.out.find("\"due_date\""), std::string::npos);  // the plan's own calendar
    }
  }
}

TEST_F(CliPlanInsteadOfTemplate, LintStillReportsTheOtherFilesItIsGiven) {
  const std::string good = file("good.json", R"({"project_template": {"title": "Launch", "raw_json": [
  {"title": "Plan", "temp_id": "1", "story_type": "task", "relative_start_date": 0, "relative_due_date": 1}]}})");
  const CliRun r = ptmpl("lint " + kMpp + " " + good);
  EXPECT_EQ(r.exit, 2) << r.err;
  EXPECT_EQ(r.err, "ptmpl lint: " + kMppMessage + "\n");
  expect_has(r.out, "1 file checked");
}

TEST_F(CliPlanInsteadOfTemplate, StandardInputIsRecognisedToo) {
  const CliRun lint = ptmpl("lint --stdin-filename plan.xml - < " + kMspdi);
  EXPECT_EQ(lint.exit, 2) << lint.err;
  EXPECT_EQ(lint.err,
            "ptmpl lint: plan.xml: a Microsoft Project XML file (MSPDI), not a template: convert it first: ptmpl "
            "convert plan.xml -o plan.json\n");
  const CliRun fmt = ptmpl("fmt --stdin-filename plan.mpp - < " + kMpp);
  EXPECT_EQ(fmt.exit, 2) << fmt.err;
  EXPECT_EQ(fmt.err,
            "ptmpl fmt: plan.mpp: a Microsoft Project file (MPP14), not a template: convert it first: ptmpl convert "
            "plan.mpp -o plan.json\n");
  const CliRun schedule = ptmpl("schedule - < " + kGan);
  EXPECT_EQ(schedule.exit, 2) << schedule.err;
  EXPECT_EQ(schedule.err,
            "ptmpl schedule: -: a GanttProject file (.gan), not a template: convert it first: ptmpl convert - -o "
            "plan.json\n");
}

TEST_F(CliPlanInsteadOfTemplate, BelowADirectoryAPlanIsSkippedAsAFileOfAnotherKind) {
  // lint and fmt take the *.json files below a directory: a .mpp or .xml is not looked at, and a
  // .json file that holds a plan is counted among the files that are not templates.
  std::filesystem::copy_file(testing::source_path(kMpp), dir_ / "plan.mpp");
  std::filesystem::copy_file(testing::source_path(kMspdi), dir_ / "plan.xml");
  std::filesystem::copy_file(testing::source_path(kMspdi), dir_ / "exported.json");
  std::filesystem::copy_file(testing::source_path(kMpp), dir_ / "binary.json");
  file("good.json", R"({"project_template": {"title": "Launch", "raw_json": []}})");
  const CliRun lint = ptmpl("lint --verbose " + dir_.string());
  EXPECT_EQ(lint.exit, 0) << lint.err;
  EXPECT_EQ(lint.err, "");
  expect_has(lint.out, "1 file checked");
  expect_has(lint.out, "exported.json");
  expect_has(lint.out, "binary.json");
  expect_lacks(lint.out, "plan.mpp");
  const CliRun fmt = ptmpl("fmt --check --verbose " + dir_.string());
  EXPECT_EQ(fmt.exit, 1) << fmt.err;  // good.json is not in canonical form
  expect_has(fmt.err, "ptmpl fmt: 2 JSON files are not templates:");
  expect_lacks(fmt.err, "not a template:");
  // Named, the same .json file is refused.
  const CliRun named = ptmpl("lint " + (dir_ / "exported.json").string());
  EXPECT_EQ(named.exit, 2);
  expect_has(named.err,
             "exported.json: a Microsoft Project XML file (MSPDI), not a template: convert it first: ptmpl "
             "convert " +
                 (dir_ / "exported.json").string() + " -o " + (dir_ / "exported.template.json").string());
}

TEST(PlanInsteadOfTemplate, RecognisesPlansByTheirFirstBytesOnly) {
  EXPECT_EQ(recognise_plan("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1rest"), ForeignPlan::CompoundFile);
  EXPECT_EQ(recognise_plan("\xEF\xBB\xBF\n<?xml version=\"1.0\"?>\n<!-- saved -->\n<Project xmlns=\"x\">"),
            ForeignPlan::Mspdi);
  EXPECT_EQ(recognise_plan("<?xml version=\"1.0\"?><project name=\"p\">"), ForeignPlan::Gan);
  EXPECT_EQ(recognise_plan("<Projects>"), ForeignPlan::None);
  EXPECT_EQ(recognise_plan("<html><Project>"), ForeignPlan::None);
  EXPECT_EQ(recognise_plan("{\"project_template\": {}}"), ForeignPlan::None);
  EXPECT_EQ(recognise_plan("[]"), ForeignPlan::None);
  EXPECT_EQ(recognise_plan(""), ForeignPlan::None);
  EXPECT_EQ(recognise_plan("\xD0\xCF\x11"), ForeignPlan::None);  // too short for the signature
  EXPECT_EQ(recognise_plan("title,duration\nA,1\n"), ForeignPlan::None);
  EXPECT_FALSE(plan_instead_of_template("[]", "a.json"));
}

TEST(PlanInsteadOfTemplate, TheMessageNamesWhatItCanAndGivesACommandAShellTakes) {
  // A compound file whose CompObj format string cannot be seen among its bytes: said so.
  std::optional<Error> other = plan_instead_of_template(std::string("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", 8), "x.doc");
  ASSERT_TRUE(other);
  EXPECT_EQ(other->code, ErrorCode::kInvalid);
  EXPECT_EQ(other->message,
            "x.doc: a compound file (the container of Microsoft Project's .mpp files and of Office 97-2003 "
            "documents), not a template: if it is a Microsoft Project plan, convert it first: ptmpl convert x.doc -o "
            "x.json");
  std::optional<Error> named =
      plan_instead_of_template(std::string("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", 8) + "..MSProject.MPP9\0", "my plan");
  ASSERT_TRUE(named);
  EXPECT_EQ(named->message,
            "my plan: a Microsoft Project file (MPP9), not a template: convert it first: ptmpl convert 'my plan' -o "
            "'my plan.json'");
  std::optional<Error> json = plan_instead_of_template("<Project>", "dir.v2/it's.json");
  ASSERT_TRUE(json);
  EXPECT_EQ(json->message,
            "dir.v2/it's.json: a Microsoft Project XML file (MSPDI), not a template: convert it first: ptmpl convert "
            "'dir.v2/it'\\''s.json' -o 'dir.v2/it'\\''s.template.json'");
}

}  // namespace
}  // namespace ptmpl
