// Replays the inputs kept under tests/data/fuzz/<target>/ (crashers the fuzzers found, and seeds
// for the request target) through the fuzz targets' own bodies, in every build: each input
// must not crash and must come out as its folder says, `accepted/` read, `refused/` refused
// with a message that names the input.
#include <gtest/gtest.h>

#include <algorithm>
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
        if (target.name != "sandbox_request")
          EXPECT_NE(outcome.message.find(target.input_name), std::string::npos) << outcome.message;
      }
    }
  }
  EXPECT_GT(count, 0u) << "no inputs under " << root;
}

INSTANTIATE_TEST_SUITE_P(Targets, FuzzRegression,
                         ::testing::Values("template_reader", "lint", "mspdi_reader", "gan_reader", "csv_reader",
                                           "sandbox_request"),
                         [](const auto& info) { return std::string(info.param); });

TEST(FuzzRegression, EveryTargetHasAFolderOfInputs) {
  for (const fuzz::Target& target : fuzz::targets())
    EXPECT_TRUE(fs::is_directory(testing::source_path("tests/data/fuzz/" + std::string(target.name))))
        << target.name;
}

}  // namespace
}  // namespace ptmpl
