// The .mpp reader against the MSPDI twins of the shared corpus (../shared/corpus/mpp, when it is
// beside the repository): every MPP9, MPP12 and MPP14 file converts, every MPP8 is refused
// with a reason, and the story lists of the MPP14 files and their twins are compared.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "libtemplate/convert/convert.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The document's story list (pretty-printed: from `"raw_json": [` to its closing bracket at the
// same indentation; "[]" when it is empty).
std::string story_list(const std::string& document) {
  const std::size_t from = document.find("\n    \"raw_json\": [");
  if (from == std::string::npos) return {};
  const std::size_t line_end = document.find('\n', from + 1);
  if (document.compare(from, line_end - from, "\n    \"raw_json\": []") == 0) return "[]";  // no stories
  const std::size_t to = document.find("\n    ]", from);
  return document.substr(from, to == std::string::npos ? std::string::npos : to - from);
}

TEST(MppSweep, Mpp14FilesConvertAndAgreeWithTheirMspdiTwins) {
  namespace fs = std::filesystem;
  const fs::path folder = testing::shared_folder("corpus/mpp");
  if (folder.empty()) GTEST_SKIP() << "no ../shared/corpus/mpp beside the repository";
  std::size_t converted = 0;
  std::size_t refused = 0;
  for (const auto& item : fs::directory_iterator(folder)) {
    if (item.path().extension() != ".mpp") continue;
    const std::string path = item.path().string();
    Result<Conversion> out = convert_plan(slurp(item.path()), path);
    if (out.ok()) {
      ++converted;
    } else {
      ++refused;
      EXPECT_TRUE(out.error().message.starts_with(path + ": ")) << out.error().message;
    }
  }
  // Measured: the 118 MPP14, 131 MPP12 and 213 MPP9 files convert; the 29 MPP8 files are
  // refused.
  EXPECT_EQ(converted, 462u);
  EXPECT_EQ(refused, 29u);

  std::size_t compared = 0;
  std::size_t agree = 0;
  std::string differ;
  for (const auto& [mpp, twin] : testing::mpp_pairs(folder / "pairs.tsv")) {
    if (mpp.find("mpp14") == std::string::npos) continue;
    ++compared;
    Result<Conversion> a = convert_plan(slurp(folder / mpp), mpp);
    Result<Conversion> b = convert_plan(slurp(folder / twin), twin);
    ASSERT_TRUE(a.ok()) << a.error().message;
    ASSERT_TRUE(b.ok()) << b.error().message;
    if (story_list(a.value().document) == story_list(b.value().document))
      ++agree;
    else
      differ += " " + mpp;
  }
  // Measured: all 49 MPP14 pairs give the same story list byte for byte (38 did while costs,
  // work, notes and assignments were not read). The whole documents of every format are
  // compared in mpp_agreement_test.cpp.
  EXPECT_EQ(compared, 49u);
  EXPECT_EQ(agree, 49u) << "differ:" << differ;
}

}  // namespace
}  // namespace ptmpl
