// The toolkit (toolkit.hpp) gives what the command line prints with --format json, for the same
// input, read from a path or given as bytes; it fails with the kinds of the command line's exit
// codes; and calls on several threads at once give what they give one at a time.
#include "libtemplate/toolkit/toolkit.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "cli_run.hpp"
#include "test_files.hpp"

namespace ptmpl::toolkit_test {
namespace {

using testing::read_source;
using testing::run_ptmpl;
using toolkit::Input;

// Templates in each shape and state: clean, with findings of every severity, large enough that
// its bytes are let go after parsing (erp-implementation.json, 126 KiB), a calendar block.
const std::vector<std::string> kTemplates = {"samples/software-release.json", "samples/lint-demo-broken.json",
                                             "samples/erp-implementation.json", "tests/data/schedule/small.json",
                                             "tests/data/schedule/skipped-links.json"};

// One plan of each format convert reads.
const std::vector<std::string> kPlans = {"tests/data/mspdi/features.xml", "tests/data/mspdi/losses.xml",
                                         "tests/data/gan/features.gan", "tests/data/csv/plan.csv",
                                         "tests/data/mpp/corpus/mpxj__task-links-project2016-mpp14.mpp"};

template <class T>
const T& value_of(const Result<T>& result) {
  EXPECT_TRUE(result.ok()) << result.error().message;
  return result.value();
}

TEST(Toolkit, LintGivesWhatLintPrintsAsJson) {
  for (const std::string& path : kTemplates) {
    const testing::CliRun cli = run_ptmpl("lint '" + path + "' --format json");
    auto from_path = toolkit::lint(Input::file(path));
    ASSERT_TRUE(from_path.ok()) << from_path.error().message;
    EXPECT_EQ(from_path.value().json, cli.out) << path;
    const std::string text = read_source(path);
    auto from_text = toolkit::lint(Input::text(text, path));
    ASSERT_TRUE(from_text.ok()) << from_text.error().message;
    EXPECT_EQ(from_text.value().json, cli.out) << path;
    ASSERT_EQ(from_path.value().findings.size(), from_text.value().findings.size()) << path;
  }
  auto broken = toolkit::lint(Input::file("samples/lint-demo-broken.json"));
  ASSERT_TRUE(broken.ok());
  ASSERT_FALSE(broken.value().findings.empty());
  const toolkit::Finding& first = broken.value().findings.front();
  EXPECT_NE(broken.value().json.find("\"rule\": \"" + first.rule + "\""), std::string::npos);
  EXPECT_EQ(first.path, "samples/lint-demo-broken.json");
  EXPECT_GT(first.line, 0U);
}

// Paths are taken as the command line takes them: a missing one fails with its message, a
// folder's templates are linted together.
TEST(Toolkit, LintTakesPathsAsLintDoes) {
  const testing::CliRun missing = run_ptmpl("lint tests/data/no-such-file.json --format json");
  auto linted = toolkit::lint(Input::file("tests/data/no-such-file.json"));
  ASSERT_FALSE(linted.ok());
  EXPECT_EQ(linted.error().code, ErrorCode::kNotFound);
  EXPECT_EQ("ptmpl lint: " + linted.error().message + "\n", missing.err);

  const testing::CliRun folder = run_ptmpl("lint samples --format json");
  auto samples = toolkit::lint(Input::file("samples"));
  ASSERT_TRUE(samples.ok()) << samples.error().message;
  EXPECT_EQ(samples.value().json, folder.out);
}

TEST(Toolkit, LintTakesAConfigurationAndASelection) {
  const std::string path = "samples/lint-demo-broken.json";
  const testing::CliRun cli =
      run_ptmpl("lint '" + path + "' --format json --config tests/data/config/project/.ptmpl.json");
  auto by_path = toolkit::lint(Input::file(path), {.config_path = "tests/data/config/project/.ptmpl.json"});
  ASSERT_TRUE(by_path.ok()) << by_path.error().message;
  EXPECT_EQ(by_path.value().json, cli.out);

  const std::string config = R"({"rules": {"title-missing": "off"}, "ignore": [{"rule": "temp-id-duplicate"}]})";
  auto by_text = toolkit::lint(Input::file(path), {.config_text = config});
  ASSERT_TRUE(by_text.ok()) << by_text.error().message;
  for (const toolkit::Finding& f : by_text.value().findings) {
    EXPECT_NE(f.rule, "title-missing");
    EXPECT_NE(f.rule, "temp-id-duplicate");
  }

  auto all = toolkit::lint(Input::file(path));
  ASSERT_TRUE(all.ok());
  // The configuration's text turned off title-missing (2 findings) and ignores temp-id-duplicate (1).
  EXPECT_EQ(by_text.value().findings.size(), all.value().findings.size() - 3);
  const std::string rule = all.value().findings.front().rule;
  auto selected = toolkit::lint(Input::file(path), {.select = {rule}});
  ASSERT_TRUE(selected.ok());
  ASSERT_FALSE(selected.value().findings.empty());
  for (const toolkit::Finding& f : selected.value().findings) EXPECT_EQ(f.rule, rule);
  EXPECT_LT(selected.value().findings.size(), all.value().findings.size());
}

TEST(Toolkit, HealthGivesWhatHealthPrintsAsJson) {
  for (const std::string& path : {std::string("samples/office-move.json"), kPlans.front()}) {
    const testing::CliRun cli = run_ptmpl("health '" + path + "' --format json");
    auto by_path = toolkit::health(Input::file(path));
    ASSERT_TRUE(by_path.ok()) << by_path.error().message;
    EXPECT_EQ(by_path.value().json, cli.out) << path;
  }
  const std::string text = read_source("samples/office-move.json");
  auto by_bytes = toolkit::health(Input::text(text, "samples/office-move.json"));
  ASSERT_TRUE(by_bytes.ok());
  EXPECT_EQ(by_bytes.value().json, read_source("tests/golden/health/office-move.json"));
  // The group's name selects its rules, which are off otherwise.
  auto linted = toolkit::lint(Input::file("samples/office-move.json"), {.select = {"schedule-health"}});
  ASSERT_TRUE(linted.ok());
  ASSERT_FALSE(linted.value().findings.empty());
  for (const toolkit::Finding& f : linted.value().findings) EXPECT_TRUE(f.rule.starts_with("health-")) << f.rule;
}

TEST(Toolkit, FormatGivesWhatFmtPrints) {
  for (const std::string& path : kTemplates) {
    const testing::CliRun cli = run_ptmpl("fmt '" + path + "'");
    EXPECT_EQ(value_of(toolkit::format(read_source(path), path)), cli.out) << path;
  }
}

TEST(Toolkit, ConvertGivesWhatConvertPrints) {
  for (const std::string& path : kPlans) {
    const testing::CliRun cli = run_ptmpl("convert '" + path + "' --format json");
    auto converted = toolkit::convert(Input::file(path));
    ASSERT_TRUE(converted.ok()) << converted.error().message;
    EXPECT_EQ(converted.value().document, cli.out) << path;
    EXPECT_EQ(converted.value().json, cli.err) << path;
    const std::string bytes = read_source(path);
    auto from_bytes = toolkit::convert(Input::text(bytes, path));
    ASSERT_TRUE(from_bytes.ok()) << from_bytes.error().message;
    EXPECT_EQ(from_bytes.value().document, cli.out) << path;
    EXPECT_EQ(from_bytes.value().json, cli.err) << path;
  }
}

TEST(Toolkit, ConvertWritesTemplatesAsMspdiAndCsv) {
  const std::string path = "samples/software-release.json";
  const testing::CliRun xml = run_ptmpl("convert '" + path + "' --to mspdi --start 2027-01-04 --format json");
  auto mspdi = toolkit::convert(Input::file(path), {.to = "mspdi", .start = "2027-01-04"});
  ASSERT_TRUE(mspdi.ok()) << mspdi.error().message;
  EXPECT_EQ(mspdi.value().document, xml.out);
  EXPECT_EQ(mspdi.value().json, xml.err);
  const testing::CliRun csv = run_ptmpl("convert '" + path + "' --to csv --format json");
  auto table = toolkit::convert(Input::file(path), {.to = "csv"});
  ASSERT_TRUE(table.ok()) << table.error().message;
  EXPECT_EQ(table.value().document, csv.out);
  EXPECT_EQ(table.value().json, csv.err);
}

// A workbook's bytes carry the time it was made: the findings are compared, and the workbook by
// what it converts back into.
TEST(Toolkit, ConvertWritesTemplatesAsXlsx) {
  const std::string path = "samples/software-release.json";
  const testing::CliRun cli = run_ptmpl("convert '" + path + "' --to xlsx --start 2027-01-04 --format json");
  auto workbook = toolkit::convert(Input::file(path), {.to = "xlsx", .start = "2027-01-04"});
  ASSERT_TRUE(workbook.ok()) << workbook.error().message;
  EXPECT_EQ(workbook.value().json, cli.err);
  ASSERT_EQ(workbook.value().document.rfind("PK\x03\x04", 0), 0U);
  auto back = toolkit::convert(Input::text(workbook.value().document, "software-release.xlsx"));
  auto cli_back = toolkit::convert(Input::text(cli.out, "software-release.xlsx"));
  ASSERT_TRUE(back.ok() && cli_back.ok());
  EXPECT_EQ(back.value().document, cli_back.value().document);
  EXPECT_NE(back.value().document, "");
}

TEST(Toolkit, StrictConversionFailsButForTheFindingsAllowed) {
  const std::string path = "tests/data/mspdi/losses.xml";
  const testing::CliRun cli = run_ptmpl("convert '" + path + "' --strict --format json");
  ASSERT_EQ(cli.exit, 1);
  auto strict = toolkit::convert(Input::file(path), {.strict = true});
  ASSERT_TRUE(strict.ok()) << strict.error().message;
  EXPECT_TRUE(strict.value().failed);
  EXPECT_EQ(strict.value().document, "");
  EXPECT_EQ(strict.value().json, cli.err);

  auto lenient = toolkit::convert(Input::file(path));
  ASSERT_TRUE(lenient.ok());
  std::vector<std::string> every_id;
  for (const toolkit::Finding& f : lenient.value().findings) every_id.push_back(f.rule);
  auto allowed = toolkit::convert(Input::file(path), {.strict = true, .allow = every_id});
  ASSERT_TRUE(allowed.ok()) << allowed.error().message;
  EXPECT_FALSE(allowed.value().failed);
  EXPECT_EQ(allowed.value().document, lenient.value().document);
  EXPECT_EQ(allowed.value().json, lenient.value().json);
}

TEST(Toolkit, ScheduleAndStatsGiveWhatTheyPrintAsJson) {
  for (const std::string& path : kTemplates) {
    if (path == "samples/lint-demo-broken.json") continue;  // a cycle: tested below
    for (const std::string& options : {std::string(), std::string(" --start 2027-03-01 --asap")}) {
      toolkit::ScheduleRequest request;
      if (!options.empty()) request = {.start = "2027-03-01", .asap = true};
      const testing::CliRun planned = run_ptmpl("schedule '" + path + "' --format json" + options);
      auto schedule = toolkit::schedule(Input::file(path), request);
      ASSERT_TRUE(schedule.ok()) << schedule.error().message;
      EXPECT_EQ(schedule.value().json, planned.out) << path << options;
      const testing::CliRun totals = run_ptmpl("stats '" + path + "' --format json" + options);
      auto stats = toolkit::stats(Input::text(read_source(path), path), request);
      ASSERT_TRUE(stats.ok()) << stats.error().message;
      EXPECT_EQ(stats.value().json, totals.out) << path << options;
      for (const std::string& warning : schedule.value().warnings)
        EXPECT_NE(planned.err.find(warning), std::string::npos) << warning;
    }
  }
  auto skipped = toolkit::schedule(Input::file("tests/data/schedule/skipped-links.json"));
  ASSERT_TRUE(skipped.ok());
  EXPECT_EQ(skipped.value().warnings.size(), 1U);
}

// The library warns about the values it reads as absent as the commands do, and refuses them
// with `strict` as `--strict` does (both call schedule_value_warnings).
// A plan file is scheduled as `ptmpl schedule` schedules it: converted first, the same JSON,
// and the command's note first among the warnings (the one read_template_or_plan of both).
TEST(Toolkit, ScheduleAndStatsReadAPlanFileAsTheCommandsDo) {
  const std::string plan = "tests/data/mpp/corpus/mpxj__task-links-project2010-mpp14.mpp";
  for (const bool totals : {false, true}) {
    auto got = totals ? toolkit::stats(Input::file(plan)) : toolkit::schedule(Input::file(plan));
    ASSERT_TRUE(got.ok()) << got.error().message;
    const auto cli = run_ptmpl(std::string(totals ? "stats" : "schedule") + " --format json " + plan);
    ASSERT_EQ(cli.exit, 0) << cli.err;
    EXPECT_EQ(got.value().json, cli.out);
    ASSERT_FALSE(got.value().warnings.empty());
    EXPECT_TRUE(got.value().warnings.front().starts_with(plan + ": a plan, converted to a template first"))
        << got.value().warnings.front();
  }
}

TEST(Toolkit, ScheduleAndStatsWarnOfValuesTheSchedulerCannotTakeAsTheCommandsDo) {
  const std::string text =
      R"([{"title": "A", "temp_id": 1, "duration": "5"}, {"title": "B", "temp_id": 2, "duration": 1.5, )"
      R"("relative_start_date": "2"}])";
  const Input input = Input::text(text, "values.json");
  for (const bool totals : {false, true}) {
    auto lenient = totals ? toolkit::stats(input) : toolkit::schedule(input);
    ASSERT_TRUE(lenient.ok()) << lenient.error().message;
    const std::vector<std::string>& warnings = lenient.value().warnings;
    ASSERT_EQ(warnings.size(), 3U) << totals;
    EXPECT_NE(warnings[0].find("values.json:1:43: warning: story 1 \"A\": duration is a string, \"5\""),
              std::string::npos)
        << warnings[0];
    auto strict = totals ? toolkit::stats(input, {.strict = true}) : toolkit::schedule(input, {.strict = true});
    ASSERT_FALSE(strict.ok());
    EXPECT_EQ(strict.error().code, ErrorCode::kInvalid);
    EXPECT_NE(strict.error().message.find("values.json:1:43: error: story 1 \"A\": duration is a string, \"5\""),
              std::string::npos)
        << strict.error().message;
  }
}

TEST(Toolkit, SchemasAndRulesAreTheCommandsOwn) {
  for (const char* name : {"raw_json", "template", "config"})
    EXPECT_EQ(value_of(toolkit::schema(name)), run_ptmpl(std::string("schema ") + name).out) << name;
  const testing::CliRun listed = run_ptmpl("rules");
  const std::vector<toolkit::Rule> rules = toolkit::rules();
  ASSERT_FALSE(rules.empty());
  std::string ids;
  for (const toolkit::Rule& rule : rules) {
    EXPECT_NE(listed.out.find(rule.id + " "), std::string::npos) << rule.id;
    const std::string off = rule.group.empty() ? "" : " [off by default: " + rule.group + "]";
    EXPECT_NE(listed.out.find(rule.summary + off + "\n"), std::string::npos) << rule.id;
  }
  EXPECT_EQ(static_cast<std::size_t>(std::count(listed.out.begin(), listed.out.end(), '\n')), rules.size());
}

TEST(Toolkit, FailuresHaveTheKindsOfTheExitCodes) {
  const Input missing = Input::file("tests/data/no-such-file.json");
  EXPECT_EQ(toolkit::lint(missing).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(toolkit::convert(missing).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(toolkit::schedule(missing).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(toolkit::stats(missing).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(
      toolkit::lint(Input::file("samples/software-release.json"), {.config_path = "no-such.ptmpl.json"}).error().code,
      ErrorCode::kNotFound);

  const std::string broken = R"({"title": "x", "raw_json": [)";
  auto formatted = toolkit::format(broken, "broken.json");
  ASSERT_FALSE(formatted.ok());
  EXPECT_EQ(formatted.error().code, ErrorCode::kInvalid);
  EXPECT_EQ(formatted.error().message.rfind("broken.json:1:", 0), 0U) << formatted.error().message;
  EXPECT_EQ(toolkit::schedule(Input::text(broken, "broken.json")).error().code, ErrorCode::kInvalid);
  EXPECT_EQ(toolkit::stats(Input::text(broken)).error().code, ErrorCode::kInvalid);
  EXPECT_EQ(toolkit::convert(Input::text(broken), {.to = "mspdi"}).error().code, ErrorCode::kInvalid);
  EXPECT_EQ(toolkit::lint(Input::text("x", "config.json"), {.config_text = "{"}).error().code, ErrorCode::kInvalid);
  // Text that is no JSON is a finding of lint, as the command line reports it.
  auto linted = toolkit::lint(Input::text(broken));
  ASSERT_TRUE(linted.ok());
  EXPECT_EQ(linted.value().findings.front().rule, "json-syntax");

  // A cycle: each one a line, as the command line's notes.
  const testing::CliRun cycle = run_ptmpl("schedule tests/data/schedule/cycle.json --format json");
  auto cyclic = toolkit::schedule(Input::file("tests/data/schedule/cycle.json"));
  ASSERT_FALSE(cyclic.ok());
  EXPECT_EQ(cyclic.error().code, ErrorCode::kInvalid);
  EXPECT_EQ("ptmpl schedule: " + cyclic.error().message + "\n", cycle.err);

  // A plan where a template is read, and a template where a plan is.
  EXPECT_EQ(toolkit::lint(Input::file("tests/data/mspdi/features.xml")).error().code, ErrorCode::kInvalid);
  EXPECT_EQ(toolkit::schedule(Input::text(read_source("tests/data/mspdi/features.xml"), "plan.xml")).error().code,
            ErrorCode::kInvalid);
  EXPECT_FALSE(toolkit::convert(Input::file("samples/software-release.json")).ok());

  EXPECT_EQ(toolkit::schema("nope").error().code, ErrorCode::kUsage);
  EXPECT_EQ(toolkit::lint(Input::text("[]"), {.select = {"no-such-rule"}}).error().code, ErrorCode::kUsage);
  EXPECT_EQ(toolkit::convert(Input::text("[]"), {.to = "pdf"}).error().code, ErrorCode::kUsage);
  EXPECT_EQ(toolkit::convert(Input::text("[]"), {.strict = true, .allow = {"no-such-id"}}).error().code,
            ErrorCode::kUsage);
  EXPECT_EQ(toolkit::schedule(Input::text("[]"), {.start = "2027-13-01"}).error().code, ErrorCode::kUsage);
}

TEST(Toolkit, CallsOnSeveralThreadsGiveWhatOneGives) {
  const std::vector<std::string> inputs = {"samples/lint-demo-broken.json", "samples/erp-implementation.json",
                                           "tests/data/mspdi/losses.xml", "tests/data/gan/features.gan"};
  std::vector<std::string> expected;
  for (const std::string& path : inputs) {
    const bool plan = !path.ends_with(".json");
    expected.push_back(plan ? toolkit::convert(Input::file(path)).value().json +
                                  toolkit::convert(Input::file(path)).value().document
                            : toolkit::lint(Input::file(path)).value().json);
  }
  constexpr std::size_t kThreads = 8;
  constexpr std::size_t kRounds = 3;
  std::vector<std::vector<std::string>> got(kThreads);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (std::size_t round = 0; round < kRounds; ++round)
        for (std::size_t i = 0; i < inputs.size(); ++i) {
          const std::string& path = inputs[(i + t) % inputs.size()];
          if (!path.ends_with(".json")) {
            auto converted = toolkit::convert(Input::file(path));
            got[t].push_back(converted.ok() ? converted.value().json + converted.value().document : "failed");
          } else {
            auto linted = toolkit::lint(Input::file(path));
            got[t].push_back(linted.ok() ? linted.value().json : "failed");
          }
        }
    });
  for (std::thread& thread : threads) thread.join();
  for (std::size_t t = 0; t < kThreads; ++t)
    for (std::size_t k = 0; k < got[t].size(); ++k)
      EXPECT_EQ(got[t][k], expected[(k % inputs.size() + t) % inputs.size()]) << "thread " << t << ", call " << k;
}

}  // namespace
}  // namespace ptmpl::toolkit_test
