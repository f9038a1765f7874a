// Shared by the unit tests: the repository's files.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace ptmpl::testing {

inline std::string source_path(const std::string& relative) {
  return std::string(PTMPL_SOURCE_DIR) + "/" + relative;
}

/// The bytes of the file at `path` ("" when it cannot be read).
inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

inline std::string read_source(const std::string& relative) {
  std::ifstream in(source_path(relative), std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

/// The shared folder `relative` (e.g. "corpus/mpp") beside the repository (../shared) or beside
/// the folder of worktrees (../../shared); empty when neither exists, so a sweep over it can
/// skip itself.
inline std::filesystem::path shared_folder(const std::string& relative) {
  for (const char* root : {"../shared/", "../../shared/"})
    if (std::filesystem::is_directory(source_path(root + relative))) return source_path(root + relative);
  return {};
}

/// Relative paths of the *.json files directly in `folder` (relative to the repository), sorted.
inline std::vector<std::string> json_files(const std::string& folder) {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(source_path(folder)))
    if (entry.path().extension() == ".json") out.push_back(folder + "/" + entry.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

/// Compares `actual` with the golden file `relative`. With PTMPL_UPDATE_GOLDEN=1 set, writes it
/// first (then read every change before committing it).
inline void expect_golden(const std::string& relative, const std::string& actual) {
  if (std::getenv("PTMPL_UPDATE_GOLDEN") != nullptr) {
    std::filesystem::create_directories(std::filesystem::path(source_path(relative)).parent_path());
    std::ofstream(source_path(relative), std::ios::binary) << actual;
  }
  EXPECT_EQ(read_source(relative), actual) << relative;
}

/// The pairs of a `pairs.tsv` (tests/data/mpp/corpus, ../shared/corpus/mpp): each .mpp with
/// the MSPDI twin the same Project version saved, in the file's order; rows without a twin and
/// the header are left out.
inline std::vector<std::pair<std::string, std::string>> mpp_pairs(const std::filesystem::path& tsv) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream lines(slurp(tsv.string()));
  std::string line;
  std::getline(lines, line);  // the header
  while (std::getline(lines, line)) {
    const std::size_t tab = line.find('\t');
    if (tab == std::string::npos) continue;
    std::string twin = line.substr(tab + 1, line.find('\t', tab + 1) - tab - 1);
    if (!twin.empty()) out.emplace_back(line.substr(0, tab), std::move(twin));
  }
  return out;
}

}  // namespace ptmpl::testing
