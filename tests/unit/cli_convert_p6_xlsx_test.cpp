// Issue 37 where users meet it: `ptmpl convert` of Primavera P6 exports and Excel workbooks —
// a P6 file of several projects (`--project`, or one template each into a folder) and a
// workbook's sheet (`--sheet`).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "cli_run.hpp"

namespace ptmpl {
namespace {

using testing::CliRun;

// Two projects, P1 (id 1) and P2 (id 2), written by hand (tests/data/p6/SOURCES-pmxml.md).
const std::string kTwoProjects = "tests/data/p6/relationships.pmxml";

class CliConvertP6Xlsx : public testing::CliScratchTest {};

TEST_F(CliConvertP6Xlsx, AnExportOfSeveralProjectsConvertsTheOneNamedOrEachIntoAFolder) {
  CliRun r = ptmpl("convert " + kTwoProjects);
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "ptmpl convert: " + kTwoProjects +
                       ": the P6 export holds 2 projects; choose one with --project: P1 (1), P2 (2)\n");

  r = ptmpl("convert " + kTwoProjects + " --project P3");
  EXPECT_EQ(r.exit, 2);
  expect_has(r.err, "the P6 export holds no project \"P3\"; it holds P1 (1), P2 (2)");

  // By ID or by object id: the same template.
  const CliRun by_id = ptmpl("convert " + kTwoProjects + " --project P2");
  const CliRun by_object_id = ptmpl("convert " + kTwoProjects + " --project 2");
  ASSERT_EQ(by_id.exit, 0) << by_id.err;
  EXPECT_EQ(by_id.out, by_object_id.out);
  expect_has(by_id.out, "\"project_template\"");

  // Into a folder: one template each, named after the file and the project.
  const std::string folder = (dir_ / "out").string();
  r = ptmpl("convert " + kTwoProjects + " tests/data/p6/percent-complete-8.4.xer -o " + folder);
  EXPECT_EQ(r.exit, 0) << r.err;
  expect_has(r.err, "3 of 3 plans written to " + folder);
  EXPECT_EQ(read_file(folder + "/relationships.P2.json"), by_id.out);
  EXPECT_TRUE(std::filesystem::exists(folder + "/relationships.P1.json"));
  EXPECT_TRUE(std::filesystem::exists(folder + "/percent-complete-8.4.json"));
  EXPECT_FALSE(std::filesystem::exists(folder + "/relationships.json"));
}

TEST_F(CliConvertP6Xlsx, AWorkbooksSheetIsChosenByName) {
  // openpyxl_grouped.xlsx (made by openpyxl): sheets "Grouped" (rows grouped by outline) and
  // "Levels" (one column per level).
  const std::string workbook = "tests/data/xlsx/openpyxl_grouped.xlsx";
  CliRun r = ptmpl("convert " + workbook + " --sheet Nope");
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(r.err, "ptmpl convert: " + workbook +
                       ": no sheet is named \"Nope\"; the workbook's sheets: \"Grouped\", "
                       "\"Levels\"\n");
  const CliRun first = ptmpl("convert " + workbook);
  const CliRun grouped = ptmpl("convert " + workbook + " --sheet Grouped");
  const CliRun levels = ptmpl("convert " + workbook + " --sheet Levels");
  ASSERT_EQ(first.exit, 0) << first.err;
  ASSERT_EQ(levels.exit, 0) << levels.err;
  EXPECT_EQ(first.out, grouped.out);  // the first sheet that holds a plan
  EXPECT_NE(levels.out, grouped.out);
  expect_has(levels.out, "\"sub_stories\"");
}

}  // namespace
}  // namespace ptmpl
