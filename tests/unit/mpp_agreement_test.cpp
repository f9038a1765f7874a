// The .mpp reader against the MSPDI twins (issue 17, docs/commands/convert.md "Agreement with
// the MSPDI twins"): the pairs copied into tests/data/mpp/corpus always, and every pair of
// ../shared/corpus/mpp/pairs.tsv when that folder is beside the repository. Each pair's
// differences (mpp_agreement.hpp) must be exactly the true differences pinned below: a new
// difference and a difference that went away both fail, so the table in the docs stays true.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "libtemplate/convert/convert.hpp"
#include "mpp_agreement.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

namespace fs = std::filesystem;

// A difference the test allows: its kind, the files (the .mpp's name without "mpxj__" and
// ".mpp"; "*" for every pair), and whether the two files truly differ there (`true`) or ptmpl
// does not yet read the .mpp as its twin says (`false`: a known gap, docs/commands/convert.md).
struct Allowed {
  std::string kind;
  std::set<std::string> files;
  bool true_difference;
};

const std::vector<Allowed>& allowed_differences() {
  static const std::vector<Allowed> table = {
      // Each file carries the name it was saved under: the .mpp's project summary task is named
      // after the .mpp, the twin's Title after the .xml.
      {".project_template.title", {"*"}, true},
      // Project 98's format is not read (the issue allows refusing it, exit 2, naming it).
      {"(not converted)", {"task-links-project2003-mpp8"}, true},
      // The .mpp names its currency (GBP); the twin, an XML saved without CurrencyCode, has none.
      {".project_template.currency",
       {
           "mpp12assignmentcustom-from14",
           "mpp12assignmentcustom",
           "mpp12timephasedsegments-from14",
           "mpp12timephasedsegments",
           "mpp14assignmentcustom",
           "mpp14timephasedsegments",
           "mpp9assignmentcustom-from12",
           "mpp9timephasedsegments-from12",
           "mpp9timephasedsegments-from14",
       },
       true},
      // MPP9 keeps no currency code (Props 37753787 is MPP12 and later); the twin names GBP.
      {".project_template.currency",
       {
           "mpp9assignmentfields",
           "mpp9availability",
           "mpp9costratetable",
           "mpp9duration",
           "mpp9nulltasks",
           "mpp9relations",
           "mpp9resource",
           "mpp9splittask",

           "mpp9timephased",
       },
       true},
      // Manual scheduling came with Project 2010: MPP9 and MPP12 files have no task mode, and
      // Project 2010 and later save manual tasks into them as automatic ones (same dates); the
      // twin, saved as XML by the same Project, keeps them manual.
      {"finding mspdi-manual-task",
       {
           "assignment-assignments-project2010-mpp12",
           "assignment-assignments-project2010-mpp9",
           "assignment-assignments-project2016-mpp12",
           "assignment-flags-project2010-mpp12",
           "assignment-flags-project2010-mpp9",
           "assignment-flags-project2016-mpp12",
           "assignment-text-project2010-mpp12",
           "assignment-text-project2010-mpp9",
           "assignment-text-project2016-mpp12",
           "task-baselines-project2010-mpp12",
           "task-baselines-project2010-mpp9",
           "task-baselines-project2016-mpp12",
           "task-costs-project2016-mpp12",
           "task-dates-project2016-mpp12",
           "task-durations-project2016-mpp12",
           "task-finishes-project2016-mpp12",
           "task-flags-project2016-mpp12",
           "task-links-project2016-mpp12",
           "task-numbers-project2016-mpp12",
           "task-starts-project2016-mpp12",
           "task-text-project2016-mpp12",
       },
       true},
      // Saved apart: Project 2010 wrote these MPP14 files with every task manual (the task-mode
      // bit, the start, finish and duration texts only manual tasks carry) and the project's
      // "new tasks are manual" property set (Props 37753800), and their twins, in the same
      // minute with the same dates, with every task automatic and NewTasksAreManual 0. The only
      // MPP14 pairs whose project property differs (mpp_task_mode_test.cpp).
      {"finding mspdi-manual-task",
       {
           "task-durations-project2010-mpp14",
           "task-finishes-project2010-mpp14",
           "task-flags-project2010-mpp14",
           "task-links-project2010-mpp14",
           "task-numbers-project2010-mpp14",
           "task-starts-project2010-mpp14",
       },
       true},
  };
  return table;
}

// The entry that allows `kind` for `mpp` (its file name), or nullptr.
const Allowed* allowed(const std::string& kind, const std::string& mpp) {
  std::string name = mpp;
  if (name.starts_with("mpxj__")) name = name.substr(6);
  if (name.ends_with(".mpp")) name.resize(name.size() - 4);
  for (const Allowed& a : allowed_differences())
    if (a.kind == kind && (a.files.contains("*") || a.files.contains(name))) return &a;
  return nullptr;
}

struct Measured {
  std::size_t pairs = 0;
  std::size_t agree = 0;                                    // no difference beyond the true ones
  std::map<std::string, std::set<std::string>> unexpected;  // kind → "file: first difference"
  std::set<const Allowed*> seen;                            // the allowed entries some pair shows
};

Measured measure(const fs::path& folder, const std::vector<std::pair<std::string, std::string>>& pairs) {
  Measured out;
  for (const auto& [mpp, twin] : pairs) {
    ++out.pairs;
    const Result<Conversion> a = convert_plan(testing::slurp((folder / mpp).string()), mpp);
    const Result<Conversion> b = convert_plan(testing::slurp((folder / twin).string()), twin);
    if (!b.ok()) {
      ADD_FAILURE() << twin << ": " << b.error().message;
      continue;
    }
    testing::MppAgreement agreement;
    if (!a.ok()) {
      agreement.differences.emplace("(not converted)", a.error().message);
    } else {
      agreement = testing::compare_mpp_with_twin(a.value(), b.value());
    }
    bool only_true = true;
    for (const auto& [kind, first] : agreement.differences) {
      if (const Allowed* entry = allowed(kind, mpp)) {
        out.seen.insert(entry);
        only_true = only_true && entry->true_difference && kind != "(not converted)";
        continue;
      }
      only_true = false;
      out.unexpected[kind].insert(mpp + ": " + first);
    }
    if (only_true) ++out.agree;
  }
  return out;
}

std::string report(const Measured& m) {
  std::string out;
  for (const auto& [kind, files] : m.unexpected) {
    out += "\n" + kind + " (" + std::to_string(files.size()) + " files):";
    std::size_t shown = 0;
    const bool all = std::getenv("PTMPL_MPP_AGREEMENT_ALL") != nullptr;
    for (const std::string& f : files) {
      if (++shown > 5 && !all) break;
      out += "\n    " + f;
    }
  }
  return out;
}

// An allowed difference that no pair of the whole corpus shows any more is stale.
void expect_no_stale_entries(const Measured& m) {
  for (const Allowed& a : allowed_differences())
    EXPECT_TRUE(m.seen.contains(&a)) << a.kind << " is allowed for " << *a.files.begin() << " and "
                                     << a.files.size() - 1 << " more, but no pair differs so";
}

TEST(MppAgreement, TheRepositorysPairsGiveTheSameTemplateAsTheirTwins) {
  const fs::path folder = testing::source_path("tests/data/mpp/corpus");
  const auto pairs = testing::mpp_pairs(folder / "pairs.tsv");
  ASSERT_GE(pairs.size(), 2u);
  const Measured m = measure(folder, pairs);
  EXPECT_TRUE(m.unexpected.empty()) << report(m);
}

TEST(MppAgreement, EveryPairOfTheSharedCorpusGivesTheSameTemplateAsItsTwin) {
  const fs::path folder = testing::shared_folder("corpus/mpp");
  if (folder.empty()) GTEST_SKIP() << "no ../shared/corpus/mpp beside the repository";
  const auto pairs = testing::mpp_pairs(folder / "pairs.tsv");
  EXPECT_EQ(pairs.size(), 221u);
  const Measured m = measure(folder, pairs);
  std::cout << "[ measured ] " << m.agree << " of " << m.pairs << " pairs agree\n";
  EXPECT_TRUE(m.unexpected.empty()) << report(m);
  expect_no_stale_entries(m);
  // Measured: 221 pairs; the MPP8 pair is refused, every other pair gives the same template,
  // findings and schedule as its twin but for true differences.
  EXPECT_EQ(m.agree, 220u);
}

}  // namespace
}  // namespace ptmpl
