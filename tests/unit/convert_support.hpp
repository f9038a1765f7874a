// Shared by the converter tests: corpus listings, findings as `ptmpl convert` prints them, and
// the conversion of a test file.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/lint.hpp"
#include "libtemplate/core/report.hpp"
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

/// The findings as `ptmpl convert` prints them (text, no excerpt), and what it says of day 0,
/// for golden files.
inline std::string findings_text(const std::string& path, const Conversion& conversion) {
  LintRun run;
  run.files = {{.path = path, .error = {}}};
  run.diagnostics = conversion.diagnostics;
  std::string out =
      format_report(ReportFormat::Text, run, conversion_report_options(summarize(run.diagnostics).error == 0));
  if (conversion.day_zero) out += "ptmpl convert: " + day_zero_note(conversion) + "\n";
  return out;
}

/// The conversion, expected to succeed (an empty one, after a test failure, when it does not).
inline Conversion expect_converted(Result<Conversion> converted) {
  EXPECT_TRUE(converted.ok()) << (converted.ok() ? "" : converted.error().message);
  return converted.ok() ? std::move(converted).value() : Conversion{};
}

/// The story with integer temp_id `id` anywhere in a story list (sub_stories included), or nullptr.
inline const json::Value* find_story(const json::Value& list, std::int64_t id) {
  for (const json::Value& story : list.items()) {
    const json::Value* temp_id = story.find("temp_id");
    if (temp_id != nullptr && temp_id->as_int64() == id) return &story;
    if (const json::Value* subs = story.find("sub_stories"))
      if (const json::Value* found = find_story(*subs, id)) return found;
  }
  return nullptr;
}

/// The integer `key` of `object`; a test failure (and -999) when either is missing.
inline std::int64_t int_of(const json::Value* object, std::string_view key) {
  EXPECT_NE(object, nullptr);
  const json::Value* value = object != nullptr ? object->find(key) : nullptr;
  EXPECT_NE(value, nullptr) << key;
  return value != nullptr && value->as_int64() ? *value->as_int64() : -999;
}

}  // namespace ptmpl::testing
