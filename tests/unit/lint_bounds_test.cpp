// Findings stay in proportion to what can be read, not to what a file repeats: at most
// kFindingsPerRule of a rule in a file are kept, the first in the file; one more finding stands
// for the rest, and every count (summary, statistics, exit) still counts them all
// (docs/semantics.md §6, "Findings of a rule in a file").
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "libtemplate/core/config.hpp"
#include "libtemplate/core/generator.hpp"
#include "libtemplate/core/lint.hpp"
#include "libtemplate/core/report.hpp"
#include "libtemplate/core/template_file.hpp"
#include "peak_memory.hpp"

#include <unistd.h>

namespace ptmpl {
namespace {

constexpr std::size_t kBound = 1000;

// One story with `items` empty checklist items, written on one line.
std::string checklist_template(std::size_t items) {
  std::string text = R"({"project_template": {"title": "T", "raw_json": [{"story_type": "task", "title": "Big",)"
                     R"( "temp_id": 1, "checklist": [)";
  for (std::size_t i = 0; i < items; ++i) text += i == 0 ? "\"\"" : ",\"\"";
  return text + "]}]}}\n";
}

std::vector<const Diagnostic*> of_rule(const std::vector<Diagnostic>& findings, std::string_view rule) {
  std::vector<const Diagnostic*> out;
  for (const Diagnostic& d : findings)
    if (d.rule == rule) out.push_back(&d);
  return out;
}

// The column of checklist item `i` (from 0) of checklist_template(): each item is 3 bytes on.
std::uint64_t item_column(std::size_t i) {
  return checklist_template(0).find("[]") + 2 + 3 * i;
}

TEST(LintBounds, AThousandFindingsOfARuleAreKeptAndOneMoreCountsTheRest) {
  const std::vector<Diagnostic> findings = lint_text("big.json", checklist_template(3000));
  const std::vector<const Diagnostic*> items = of_rule(findings, "checklist-item-invalid");
  ASSERT_EQ(items.size(), kBound + 1);
  // The first thousand items of the file, in order, each a finding of its own.
  for (std::size_t i = 0; i < kBound; ++i) {
    EXPECT_EQ(items[i]->column, item_column(i)) << i;
    EXPECT_EQ(items[i]->message, "checklist item of story \"Big\" is empty");
    EXPECT_EQ(items[i]->count, 1U);
  }
  // Then one for the other 2,000, at the first of them.
  const Diagnostic& rest = *items[kBound];
  EXPECT_EQ(rest.severity, Severity::Error);
  EXPECT_EQ(rest.column, item_column(kBound));
  EXPECT_EQ(rest.pointer, "/0/checklist/1000");
  EXPECT_EQ(rest.count, 2000U);
  EXPECT_EQ(rest.message,
            "2000 more findings of this rule in this file, the first here, are not listed: lint lists at most 1000 "
            "findings of a rule in a file");
  EXPECT_EQ(summarize(findings).error, 3000U);

  LintRun run;
  run.files.push_back({.path = "big.json", .fingerprint = 0, .error = {}});
  run.diagnostics = findings;
  ReportOptions options;
  options.statistics = true;
  const std::string text = format_report(ReportFormat::Text, run, options);
  EXPECT_NE(text.find("  3000  checklist-item-invalid\n"), std::string::npos) << text.substr(text.size() - 300);
  EXPECT_NE(text.find("1 file checked: 3000 errors, 0 warnings, 0 info\n"), std::string::npos);
  EXPECT_NE(format_report(ReportFormat::Json, run).find("\"error\": 3000"), std::string::npos);
}

// Issue 35: empty checklist items took a kilobyte a finding (a million of them, 3 MB: 1 GB); now
// about what reading the file takes, whatever the number of findings.
TEST(LintBounds, ManyFindingsTakeTheMemoryOfTheirFile) {
  const std::string path = ::testing::TempDir() + "ptmpl-bounds-" + std::to_string(::getpid()) + ".json";
  std::ofstream(path, std::ios::binary) << checklist_template(300000);
  LintRun run;
  const std::optional<long> rise = testing::peak_rise_kib([&] { run = lint_files({path}); });
  std::filesystem::remove(path);
  ASSERT_EQ(run.linted_count(), 1U);
  EXPECT_EQ(run.diagnostics.size(), kBound + 1);
  EXPECT_EQ(summarize(run.diagnostics).error, 300000U);
  if (rise) {
    EXPECT_LT(*rise, 48 * 1024) << "KiB";
  }
}

// A finding the configuration ignores is not counted, nor does it take the place of one that
// is not ignored: the bound applies to what the report would show.
TEST(LintBounds, IgnoredFindingsTakeNoPlaceUnderTheBound) {
  auto config =
      LintConfig::parse("c.json", R"({"ignore": [{"rule": "checklist-item-invalid", "pointer": "/0/checklist/5"}]})");
  ASSERT_TRUE(config.ok()) << config.error().message;
  LintOptions options;
  options.config = &config.value();
  std::vector<Diagnostic> findings = lint_text("big.json", checklist_template(1500), options);
  const std::vector<const Diagnostic*> items = of_rule(findings, "checklist-item-invalid");
  ASSERT_EQ(items.size(), kBound + 1);
  EXPECT_EQ(items[5]->pointer, "/0/checklist/6");
  EXPECT_EQ(items[kBound - 1]->pointer, "/0/checklist/1000");
  EXPECT_EQ(items[kBound]->pointer, "/0/checklist/1001");
  EXPECT_EQ(items[kBound]->count, 1500U - 1 - kBound);
  EXPECT_EQ(summarize(findings).error, 1499U);

  // Under the bound, nothing changes: the ignored one is gone, every other one is listed.
  findings = lint_text("small.json", checklist_template(20), options);
  EXPECT_EQ(of_rule(findings, "checklist-item-invalid").size(), 19U);
}

// The kept findings are the first in the file, whatever order the checks (and the two threads
// of a large file) report them in: one thread and two give the same findings.
TEST(LintBounds, TheSameFindingsAreKeptOnOneThreadAndOnTwo) {
  GenerateOptions generate;
  generate.stories = 6000;
  generate.depth = 3;
  generate.seed = 5;
  std::string text = generate_template(generate).value();
  for (std::size_t at = text.find("\"story_type\": \"task\""); at != std::string::npos;
       at = text.find("\"story_type\": \"task\"", at))
    text.replace(at, 20, "\"story_type\": \"tsak\"");
  const TemplateFile file = TemplateFile::parse("gen.json", FileText::borrow(text));
  LintOptions two;
  two.threads = 2;
  const std::vector<Diagnostic> alone = lint(file);
  const std::vector<Diagnostic> split = lint(file, two);
  const std::vector<const Diagnostic*> typos = of_rule(alone, "story-type-invalid");
  ASSERT_EQ(typos.size(), kBound + 1);
  ASSERT_GT(typos.back()->count, 1000U);
  ASSERT_EQ(split.size(), alone.size());
  for (std::size_t i = 0; i < alone.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(split[i].rule, alone[i].rule);
    EXPECT_EQ(split[i].line, alone[i].line);
    EXPECT_EQ(split[i].column, alone[i].column);
    EXPECT_EQ(split[i].message, alone[i].message);
    EXPECT_EQ(split[i].count, alone[i].count);
  }
}

}  // namespace
}  // namespace ptmpl
