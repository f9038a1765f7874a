// ptmpl convert with several plans or a folder of them (docs/commands/convert.md, "Many plans
// at once"): one template each in the folder -o names, every plan converted that can be, the
// exit code the worst of them; and the library's convert_plan_files.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "libtemplate/convert/convert.hpp"
#include "test_files.hpp"

namespace ptmpl::testing {
namespace {

namespace fs = std::filesystem;

class CliConvertMany : public CliScratchTest {};

TEST_F(CliConvertMany, PlansAndAFolderBecomeOneTemplateEachNamedAfterItsPlan) {
  const fs::path plans = dir_ / "plans";
  fs::create_directories(plans);
  fs::copy_file(source_path("tests/data/gan/features.gan"), plans / "gantt.gan");
  fs::copy_file(source_path("tests/data/csv/plan.csv"), plans / "plan.csv");
  std::ofstream(plans / "notes.txt") << "not a plan";  // no plan's extension: left alone
  const std::string out = (dir_ / "templates").string();
  const CliRun r = ptmpl(
      "convert tests/data/mpp/corpus/mpxj__calendar-calendars-project2010-mpp14.mpp "
      "tests/data/mspdi/features.xml '" +
      plans.string() + "' -o '" + out + "'");
  EXPECT_EQ(r.exit, 0) << r.err;
  expect_has(r.err, "4 of 4 plans written to " + out);
  for (const char* name :
       {"mpxj__calendar-calendars-project2010-mpp14.json", "features.json", "gantt.json", "plan.json"})
    EXPECT_TRUE(fs::is_regular_file(fs::path(out) / name)) << name;
  EXPECT_FALSE(fs::exists(fs::path(out) / "notes.json"));
  // Each template is the one a single conversion writes.
  const CliRun one = ptmpl("convert tests/data/csv/plan.csv");
  EXPECT_EQ(read_file((fs::path(out) / "plan.json").string()), one.out);
}

TEST_F(CliConvertMany, TwoPlansOfOneNameAreRefusedBeforeAnythingIsWritten) {
  const std::string out = (dir_ / "templates").string();
  const CliRun r = ptmpl("convert tests/data/mspdi/features.xml tests/data/gan/features.gan -o '" + out + "'");
  EXPECT_EQ(r.exit, 2);
  expect_has(r.err, "would both be written to");
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(CliConvertMany, APlanThatCannotBeReadLeavesTheOthersConvertedAndExits2) {
  const std::string bad = file("broken.xml", "<Project xmlns=\"http://schemas.microsoft.com/project\"><Tasks>");
  const std::string out = (dir_ / "templates").string();
  const CliRun r = ptmpl("convert '" + bad + "' tests/data/csv/plan.csv -o '" + out + "'");
  EXPECT_EQ(r.exit, 2) << r.err;
  expect_has(r.err, "broken.xml");
  expect_has(r.err, "not well-formed XML");
  EXPECT_TRUE(fs::is_regular_file(fs::path(out) / "plan.json"));
  EXPECT_FALSE(fs::exists(fs::path(out) / "broken.json"));
}

TEST_F(CliConvertMany, SeveralPlansNeedAFolder) {
  const CliRun r = ptmpl("convert tests/data/csv/plan.csv tests/data/gan/features.gan");
  EXPECT_EQ(r.exit, 2);
  expect_has(r.err, "several plans convert into a folder: name it with -o");
}

TEST_F(CliConvertMany, StrictLeavesAPlanWithErrorsUnwrittenAndExits1) {
  const std::string out = (dir_ / "templates").string();
  const CliRun r = ptmpl(
      "convert --strict tests/data/mspdi/losses.xml "
      "tests/data/mpp/corpus/mpxj__calendar-calendars-project2010-mpp14.mpp -o '" +
      out + "'");
  EXPECT_EQ(r.exit, 1) << r.err;
  EXPECT_FALSE(fs::exists(fs::path(out) / "losses.json"));
  EXPECT_TRUE(fs::is_regular_file(fs::path(out) / "mpxj__calendar-calendars-project2010-mpp14.json"));
  expect_has(r.err, "1 of 2 plans written to " + out);
}

TEST(ConvertPlanFiles, EachFileIsConvertedOnItsOwnInTheOrderGiven) {
  const std::vector<std::string> paths = {source_path("tests/data/csv/plan.csv"), source_path("no/such/file.xml"),
                                          source_path("tests/data/mspdi/features.xml")};
  for (const unsigned jobs : {1u, 3u}) {
    const std::vector<PlanFileConversion> done = convert_plan_files(paths, ConvertOptions{}, jobs);
    ASSERT_EQ(done.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(done[i].path, paths[i]);
    ASSERT_TRUE(done[0].conversion.ok());
    EXPECT_FALSE(done[1].conversion.ok());
    ASSERT_TRUE(done[2].conversion.ok());
    EXPECT_EQ(done[2].conversion.value().document, convert_plan(slurp(paths[2]), paths[2]).value().document);
  }
}

}  // namespace
}  // namespace ptmpl::testing
