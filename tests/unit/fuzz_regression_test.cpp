// Replays the inputs kept under tests/data/fuzz/<target>/ (crashers the fuzzers found, and seeds
// for the request target) through the fuzz targets' own bodies, in every build: each input
// must not crash and must come out as its folder says, `accepted/` read, `refused/` refused
// with a message that names the input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_entries.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

namespace fs = std::filesystem;

class FuzzRegression : public ::testing::TestWithParam<std::string_view> {};

std::string target_name(const ::testing::TestParamInfo<std::string_view>& param) {
  return std::string(param.param);
}

std::vector<fs::path> inputs_in(const fs::path& folder) {
  std::vector<fs::path> out;
  if (!fs::is_directory(folder)) return out;
  for (const auto& entry : fs::directory_iterator(folder))
    if (entry.is_regular_file()) out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

TEST_P(FuzzRegression, EveryKeptInputComesOutAsItsFolderSays) {
  const fuzz::Target& target = fuzz::target(GetParam());
  fs::path root = testing::source_path("tests/data/fuzz/" + std::string(target.name));
  std::size_t count = 0;
  for (bool accepted : {true, false}) {
    for (const fs::path& input : inputs_in(root / (accepted ? "accepted" : "refused"))) {
      SCOPED_TRACE(input.string());
      ++count;
      std::ifstream in(input, std::ios::binary);
      std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      fuzz::Outcome outcome = target.run(data);
      EXPECT_EQ(outcome.accepted, accepted) << outcome.message;
      if (!accepted) {
        EXPECT_FALSE(outcome.message.empty());
        if (target.name != "sandbox_request") {
          EXPECT_NE(outcome.message.find(target.input_name), std::string::npos) << outcome.message;
        }
      }
    }
  }
  EXPECT_GT(count, 0u) << "no inputs under " << root;
}

INSTANTIATE_TEST_SUITE_P(Targets, FuzzRegression,
                         ::testing::Values("template_reader", "lint", "mspdi_reader", "gan_reader", "csv_reader",
                                           "sandbox_request", "cfb_reader", "mpp_reader", "ignore_rules", "xer_reader",
                                           "pmxml_reader", "xlsx_reader"),
                         target_name);

// The mpp_reader target's seeds are archives of the streams of .mpp files of the repository's
// corpus, one per format; they are derived, so they are checked against the files they come
// from (PTMPL_UPDATE_GOLDEN=1 writes them again).
TEST(FuzzRegression, TheMppReaderSeedsAreArchivesOfTheCorpusFiles) {
  const bool update = std::getenv("PTMPL_UPDATE_GOLDEN") != nullptr;
  for (const char* name :
       {"mpxj__task-links-project2003-mpp9", "mpxj__bothpassword9", "mpxj__task-links-project2007-mpp12",
        "mpxj__task-links-project2010-mpp14", "mpxj__task-links-project2016-mpp14"}) {
    SCOPED_TRACE(name);
    const std::string archive = fuzz::mpp_stream_archive(
        testing::slurp(testing::source_path("tests/data/mpp/corpus/" + std::string(name) + ".mpp")));
    ASSERT_FALSE(archive.empty());
    const std::string seed =
        testing::source_path("tests/data/fuzz/mpp_reader/accepted/" + std::string(name) + ".streams");
    if (update) std::ofstream(seed, std::ios::binary) << archive;
    EXPECT_TRUE(testing::slurp(seed) == archive) << seed << " is not the archive of its .mpp";
    EXPECT_TRUE(fuzz::read_mpp_streams(archive).accepted);
  }
}

// The xlsx_reader target's seeds are archives of the parts of the repository's test workbooks
// (openpyxl's, LibreOffice's, and the corpus workbook), derived and checked as the mpp_reader's.
TEST(FuzzRegression, TheWorkbookReaderSeedsAreArchivesOfTheTestWorkbooks) {
  const bool update = std::getenv("PTMPL_UPDATE_GOLDEN") != nullptr;
  for (const char* name : {"openpyxl_export", "openpyxl_task_table", "openpyxl_grouped", "libreoffice_1904",
                           "corpus_hybrid_project_plan"}) {
    SCOPED_TRACE(name);
    const std::string archive = fuzz::workbook_part_archive(
        testing::slurp(testing::source_path("tests/data/xlsx/" + std::string(name) + ".xlsx")));
    ASSERT_FALSE(archive.empty());
    const std::string seed =
        testing::source_path("tests/data/fuzz/xlsx_reader/accepted/" + std::string(name) + ".parts");
    if (update) std::ofstream(seed, std::ios::binary) << archive;
    EXPECT_TRUE(testing::slurp(seed) == archive) << seed << " is not the archive of its workbook";
    EXPECT_TRUE(fuzz::convert_workbook_parts(archive).accepted);
  }
}

TEST(FuzzRegression, EveryTargetHasAFolderOfInputs) {
  for (const fuzz::Target& target : fuzz::targets())
    EXPECT_TRUE(fs::is_directory(testing::source_path("tests/data/fuzz/" + std::string(target.name)))) << target.name;
}

// The sandbox_request target overflowed the stack on a body nested 200,000 levels deep: RapidJSON's
// parser recursed once per level, so one request could kill the sandbox. A million levels here.
TEST(FuzzRegression, SandboxBodiesNestedAMillionLevelsDeepAreReadWithoutRecursion) {
  constexpr std::size_t kLevels = 1'000'000;
  const std::string deep = std::string(kLevels, '[') + std::string(kLevels, ']');
  fuzz::Outcome body =
      fuzz::sandbox_request("POST /api/v1/project_templates.json\n{\"project_template\":" + deep + "}");
  EXPECT_FALSE(body.accepted);
  EXPECT_EQ(body.message, "422 project_template is missing or not an object;");

  // raw_json holds JSON text; a million levels of it is stored and its stories counted.
  std::string stories;
  for (std::size_t i = 0; i < kLevels / 2; ++i) stories += R"([{\"title\":\"x\",\"sub_stories\":)";
  stories += "[]";
  for (std::size_t i = 0; i < kLevels / 2; ++i) stories += "}]";
  fuzz::Outcome raw = fuzz::sandbox_request(R"(POST /api/v1/project_templates.json
{"project_template":{"title":"Deep","raw_json":")" +
                                            stories + "\"}}");
  EXPECT_TRUE(raw.accepted) << raw.message;
}

}  // namespace
}  // namespace ptmpl
