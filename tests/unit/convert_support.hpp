// Shared by the converter tests: corpus listings, findings as `ptmpl convert` prints them, and
// the conversion of a test file.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "libtemplate/convert.hpp"
#include "libtemplate/lint.hpp"
#include "libtemplate/report.hpp"
#include "test_files.hpp"

namespace ptmpl::testing {

/// Names of the files with `extension` (".xml") directly in `folder` (relative to the repository), sorted.
inline std::vector<std::string> files_in(const std::string& folder, const std::string& extension) {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(source_path(folder)))
    if (entry.path().extension() == extension) out.push_back(entry.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

/// The findings as `ptmpl convert` prints them (text, no excerpt), for golden files.
inline std::string findings_text(const std::string& path, const Conversion& conversion) {
  LintRun run;
  run.paths = {path};
  run.diagnostics = conversion.diagnostics;
  return format_report(ReportFormat::Text, run);
}

/// The conversion, expected to succeed (an empty one, after a test failure, when it does not).
inline Conversion expect_converted(Result<Conversion> converted) {
  EXPECT_TRUE(converted.ok()) << (converted.ok() ? "" : converted.error().message);
  return converted.ok() ? std::move(converted).value() : Conversion{};
}

}  // namespace ptmpl::testing
