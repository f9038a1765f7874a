// `ptmpl convert` end to end: output to stdout or a file (atomically), findings on stderr in
// the lint formats, exit codes, --strict writing nothing.
#include <gtest/gtest.h>

#include <filesystem>

#include "cli_run.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

using testing::read_source;
using testing::run_ptmpl;

TEST(CliConvert, PrintsTheTemplateAndItsFindings) {
  const auto r = run_ptmpl("convert tests/data/mspdi/features.xml", "NO_COLOR=1");
  EXPECT_EQ(r.exit, 0);
  EXPECT_EQ(r.out, read_source("tests/golden/convert/features.json"));
  EXPECT_EQ(r.err, read_source("tests/golden/convert/features.txt"));
}

TEST(CliConvert, WritesTheOutputFile) {
  const std::string out = ::testing::TempDir() + "converted-new-product.json";
  std::filesystem::remove(out);
  const auto r = run_ptmpl("convert tests/data/mspdi/corpus/claur__New_Product.xml -o '" + out + "' --format json");
  EXPECT_EQ(r.exit, 0);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("\"rule\": \"mspdi-resource-rates\""), std::string::npos) << r.err;
  std::ifstream in(out, std::ios::binary);
  const std::string written((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(written, read_source("tests/golden/convert/claur__New_Product.json"));
}

TEST(CliConvert, StrictFailsAndWritesNothing) {
  const std::string out = ::testing::TempDir() + "converted-strict.json";
  std::filesystem::remove(out);
  const auto r = run_ptmpl("convert --strict tests/data/mspdi/features.xml -o '" + out + "'", "NO_COLOR=1");
  EXPECT_EQ(r.exit, 1);
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_NE(r.err.find(": error: task 11 \"Constrained\" has the constraint"), std::string::npos) << r.err;
}

TEST(CliConvert, InputErrorsExitTwo) {
  auto r = run_ptmpl("convert tests/data/mspdi/missing.xml");
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find("tests/data/mspdi/missing.xml"), std::string::npos) << r.err;
  r = run_ptmpl("convert samples/office-move.json");
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find("already a template (JSON); to export it, say --to mspdi"), std::string::npos);
  r = run_ptmpl("convert samples/office-move.json --to mspdi --start 2027-02-30");
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find("--start 2027-02-30: not a date"), std::string::npos);
  r = run_ptmpl("convert README.md");
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find("not a plan ptmpl reads"), std::string::npos);
}

TEST(CliConvert, ExportsATemplateToMsProjectXmlAndBack) {
  const std::string xml = ::testing::TempDir() + "website-launch.xml";
  const std::string back = ::testing::TempDir() + "website-launch-back.json";
  auto r = run_ptmpl("convert samples/website-launch.json -o '" + xml + "' --start 2027-01-04");
  EXPECT_EQ(r.exit, 0) << r.err;
  std::ifstream in(xml, std::ios::binary);
  const std::string written((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(written, read_source("tests/golden/convert/website-launch.xml"));
  r = run_ptmpl("convert '" + xml + "' -o '" + back + "'");
  EXPECT_EQ(r.exit, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

}  // namespace
}  // namespace ptmpl
