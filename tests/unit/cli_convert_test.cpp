// `ptmpl convert` end to end: output to stdout or a file (atomically), findings on stderr in
// the lint formats, exit codes, --strict writing nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "cli_run.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/json_emitter.hpp"
#include "libtemplate/core/writer.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

using testing::read_source;
using testing::run_ptmpl;
using testing::run_ptmpl_on_terminal;

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
  // No template is written, so none records a day 0.
  EXPECT_EQ(r.err.find("day 0 is"), std::string::npos) << r.err;
}

// .ptmpl.json's "convert" object: found upward from the plan, the command line over it.
TEST(CliConvert, SettingsComeFromTheNearestConfigurationAndTheCommandLineWins) {
  namespace fs = std::filesystem;
  const std::string dir = ::testing::TempDir() + "convert-settings/";
  fs::remove_all(dir);
  fs::create_directories(dir + "plans");
  fs::copy_file(testing::source_path("tests/data/mspdi/features.xml"), dir + "plans/features.xml");
  auto configure = [&](const std::string& text) { std::ofstream(dir + ".ptmpl.json") << text; };
  const std::string plan = "'" + dir + "plans/features.xml'";
  const std::string out = dir + "features.json";

  configure(R"({"convert": {"strict": true, "allow": ["mspdi-resource-rates"]}})");
  auto r = run_ptmpl("convert " + plan + " -o '" + out + "'", "NO_COLOR=1");
  EXPECT_EQ(r.exit, 1) << r.err;  // strict from the file: nothing written
  EXPECT_FALSE(fs::exists(out));
  EXPECT_NE(r.err.find(": error: task 11 \"Constrained\" has the constraint"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(": info: resource 1 \"Designer\" has rates"), std::string::npos) << r.err;  // allowed
  // --allow adds to the file's list.
  r = run_ptmpl("convert " + plan + " --allow mspdi-task-calendar", "NO_COLOR=1");
  EXPECT_NE(r.err.find(": warning: task 13 \"Own calendar\" has its own calendar"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(": info: resource 1 \"Designer\" has rates"), std::string::npos) << r.err;
  // --no-strict and --no-config win over the file.
  for (const char* flag : {"--no-strict", "--no-config"}) {
    r = run_ptmpl("convert " + plan + " " + flag + " -o '" + out + "'", "NO_COLOR=1");
    EXPECT_EQ(r.exit, 0) << flag << r.err;
    EXPECT_TRUE(fs::exists(out)) << flag;
    fs::remove(out);
  }
  // --config names another file.
  std::ofstream(dir + "lenient.json") << R"({"convert": {"strict": false}})";
  EXPECT_EQ(run_ptmpl("convert " + plan + " --config '" + dir + "lenient.json'").exit, 0);
  // Many plans: each with the settings nearest to it.
  r = run_ptmpl("convert '" + dir + "plans' -o '" + dir + "templates'", "NO_COLOR=1");
  EXPECT_EQ(r.exit, 1) << r.err;
  EXPECT_NE(r.err.find("0 of 1 plan written"), std::string::npos) << r.err;

  // An id that names no finding, at its place, with the one it was meant to be.
  configure("{\"convert\": {\"allow\": [\"mspdi-task-calendar\",\n  \"mspdi-resource-rate\"]}}");
  r = run_ptmpl("convert " + plan);
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find(dir + ".ptmpl.json:2:3: convert.allow: no conversion finding is called \"mspdi-resource-rate\" "
                             "(did you mean \"mspdi-resource-rates\"?)"),
            std::string::npos)
      << r.err;
  // A misspelt key is the configuration's error, as for lint.
  configure(R"({"convert": {"strcit": true}})");
  r = run_ptmpl("convert " + plan);
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find("strcit"), std::string::npos) << r.err;
}

// What MSPDI has room for comes back: tags, checklists, weights and string temp_ids travel as
// MS Project custom fields (docs/commands/convert.md).
TEST(CliConvert, ATemplateComesBackFromMsProjectXmlWithItsTagsChecklistsWeightsAndTempIds) {
  const std::string dir = ::testing::TempDir();
  const std::string xml = dir + "round-trip.xml";
  const std::string back = dir + "round-trip.json";
  ASSERT_EQ(run_ptmpl("convert tests/data/mspdi/extended-attributes.json -o '" + xml + "' --start 2027-01-04").exit, 0);
  ASSERT_EQ(run_ptmpl("convert '" + xml + "' -o '" + back + "'").exit, 0);
  const std::string before_text = read_source("tests/data/mspdi/extended-attributes.json");
  const std::string after_text = testing::slurp(back);
  const json::Document before = json::Document::parse(before_text);
  const json::Document after = json::Document::parse(after_text);
  const auto& stories = before.root().find("project_template")->find("raw_json")->items();
  const auto& returned = after.root().find("project_template")->find("raw_json")->items();
  ASSERT_EQ(returned.size(), stories.size());
  auto spelled = [](const json::Value& value) {
    JsonEmitter out(JsonLayout::Line);
    write_value(out, value);
    return out.finish();
  };
  for (std::size_t i = 0; i < stories.size(); ++i) {
    for (const char* key : {"temp_id", "tag_list", "checklist", "weight"}) {
      const json::Value* was = stories[i].find(key);
      const json::Value* is = returned[i].find(key);
      if (was == nullptr || (key == std::string_view("tag_list") && was->text().empty()) ||
          (key == std::string_view("checklist") && was->items().empty())) {
        continue;  // an empty list is no value to carry
      }
      ASSERT_NE(is, nullptr) << "story " << i << " lost its " << key;
      EXPECT_EQ(spelled(*is), spelled(*was)) << "story " << i << ": " << key;
    }
  }
}

// A template whose calendar block has a start: its CSV carries the dates beside the offsets.
TEST(CliConvert, CsvCarriesCalendarDatesBesideTheOffsets) {
  const std::string json = ::testing::TempDir() + "features-for-csv.json";
  ASSERT_EQ(run_ptmpl("convert tests/data/mspdi/features.xml -o '" + json + "'").exit, 0);
  const auto r = run_ptmpl("convert '" + json + "' --to csv");
  EXPECT_EQ(r.exit, 0) << r.err;
  EXPECT_NE(r.out.find("level,temp_id,title,type,start,start_date,due,due_date,duration,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n2,2,Design & specify,,0,2027-01-04,3,2027-01-08,4,"), std::string::npos) << r.out;
}

TEST(CliConvert, InputErrorsExitTwo) {
  auto r = run_ptmpl("convert tests/data/mspdi/missing.xml");
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find("tests/data/mspdi/missing.xml"), std::string::npos) << r.err;
  r = run_ptmpl("convert samples/office-move.json");
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find("already a template (JSON); see `ptmpl fmt`, or `--to mspdi`, `--to csv` or `--to xlsx`"),
            std::string::npos)
      << r.err;
  r = run_ptmpl("convert samples/office-move.json --to mspdi --start 2027-02-30");
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find("--start 2027-02-30: not a date"), std::string::npos);
  r = run_ptmpl("convert README.md");
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find("not a plan ptmpl reads (expected Microsoft Project XML or .mpp, a GanttProject .gan file, an "
                       "Excel workbook, "
                       "a Primavera P6 XER or PMXML export, or CSV"),
            std::string::npos);
}

TEST(CliConvert, ReadsGanttProject) {
  const auto r = run_ptmpl("convert tests/data/gan/features.gan", "NO_COLOR=1");
  EXPECT_EQ(r.exit, 0);
  EXPECT_EQ(r.out, read_source("tests/golden/convert/gan/features.json"));
  EXPECT_EQ(r.err, read_source("tests/golden/convert/gan/features.txt"));
  const auto strict = run_ptmpl("convert --strict tests/data/gan/features.gan", "NO_COLOR=1");
  EXPECT_EQ(strict.exit, 1);
  EXPECT_TRUE(strict.out.empty());
}

TEST(CliConvert, ReadsCsv) {
  const auto r = run_ptmpl("convert tests/data/csv/plan.csv", "NO_COLOR=1");
  EXPECT_EQ(r.exit, 0);
  EXPECT_NE(r.out.find("\"budget_estimate_in_cents\": 150050"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"title\": \"plan\""), std::string::npos) << r.out;
  EXPECT_EQ(r.err,
            "tests/data/csv/plan.csv:1:104: warning: the column \"owner\" is not one ptmpl reads; it is ignored "
            "[csv-unknown-column]\n1 plan converted: 0 errors, 1 warning, 0 info\n");
}

TEST(CliConvert, ReadsSemicolonCsvAsSpreadsheetsWriteItWhereTheCommaIsTheDecimalMark) {
  // plan.csv as a spreadsheet saves it in much of Europe: `sep=;`, semicolons, 1500,50.
  const auto r = run_ptmpl("convert tests/data/csv/plan-semicolon.csv", "NO_COLOR=1");
  EXPECT_EQ(r.exit, 0) << r.err;
  EXPECT_NE(r.out.find("\"budget_estimate_in_cents\": 150050"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"description\": \"Spec; v1\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"title\": \"plan-semicolon\""), std::string::npos) << r.out;
  const auto comma = run_ptmpl("convert tests/data/csv/plan.csv", "NO_COLOR=1");
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), std::count(comma.out.begin(), comma.out.end(), '\n'));
  EXPECT_EQ(r.err,
            "tests/data/csv/plan-semicolon.csv:2:104: warning: the column \"owner\" is not one ptmpl reads; it is "
            "ignored [csv-unknown-column]\n1 plan converted: 0 errors, 1 warning, 0 info\n");
}

TEST(CliConvert, BadCsvCellExitsTwoAndWritesNothing) {
  const std::string out = ::testing::TempDir() + "converted-bad.json";
  std::filesystem::remove(out);
  const auto r = run_ptmpl("convert tests/data/csv/bad-cell.csv -o '" + out + "'");
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(r.err,
            "ptmpl convert: tests/data/csv/bad-cell.csv:row 3, column \"start\": \"12x\" is not a whole number\n");
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(CliConvert, WritesCsvFromATemplate) {
  const std::string out = ::testing::TempDir() + "converted.csv";
  std::filesystem::remove(out);
  const auto r = run_ptmpl("convert --to csv samples/software-release.json -o '" + out + "' --format json");
  EXPECT_EQ(r.exit, 0);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("\"rule\": \"csv-dropped-field\""), std::string::npos) << r.err;
  std::ifstream in(out, std::ios::binary);
  const std::string written((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(written.substr(0, 9), "\xEF\xBB\xBFlevel,");
  EXPECT_NE(written.find("\r\n2,3,Capacity planning per team,task,2,2,1,2FS,630,360,planning,\r\n"), std::string::npos);
  // And back: the CSV is a plan ptmpl reads.
  const auto back = run_ptmpl("convert '" + out + "'");
  EXPECT_EQ(back.exit, 0);
  EXPECT_NE(back.out.find("\"title\": \"Capacity planning per team\""), std::string::npos);
}

// Issue 36: --strict failed on nearly every real plan, for findings its user expects (rates,
// progress): --allow keeps the ids named at their own severity, in one file, many, and exports.
TEST(CliConvert, AllowKeepsTheNamedFindingsWhatTheyAreUnderStrict) {
  const std::string plan = "tests/data/mpp/corpus/mpxj__mpp14assignmentfields.mpp";
  auto strict = run_ptmpl("convert --strict " + plan);
  EXPECT_EQ(strict.exit, 1);
  EXPECT_EQ(strict.out, "");
  EXPECT_NE(strict.err.find("error: resource 1 \"Resource One\" has rates"), std::string::npos) << strict.err;
  auto some = run_ptmpl("convert --strict --allow mspdi-resource-rates,mspdi-progress " + plan);
  EXPECT_EQ(some.exit, 1);  // the fractional duration is still an error
  EXPECT_NE(some.err.find("info: resource 1 \"Resource One\" has rates"), std::string::npos) << some.err;
  EXPECT_NE(some.err.find("error: task 1 \"Task One\" lasts 8.87 working days"), std::string::npos) << some.err;
  auto all = run_ptmpl(
      "convert --strict --allow mspdi-resource-rates,mspdi-progress --allow mspdi-fractional-duration " + plan);
  EXPECT_EQ(all.exit, 0) << all.err;
  EXPECT_NE(all.out.find("\"project_template\""), std::string::npos);
  // An id that names nothing is a usage error, with the one meant.
  auto typo = run_ptmpl("convert --strict --allow mspdi-resource-rate " + plan);
  EXPECT_EQ(typo.exit, 2);
  EXPECT_EQ(typo.err,
            "ptmpl convert: allow: no conversion finding is called \"mspdi-resource-rate\" (did you mean "
            "\"mspdi-resource-rates\"?); docs/commands/convert.md lists them\n");
}

TEST(CliConvert, ToCsvNeedsATemplate) {
  const auto r = run_ptmpl("convert --to csv tests/data/gan/features.gan");
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find("tests/data/gan/features.gan:1:1"), std::string::npos) << r.err;
  const auto bad = run_ptmpl("convert --to mspdi tests/data/gan/features.gan");
  EXPECT_EQ(bad.exit, 2);
  EXPECT_NE(bad.err.find("--to mspdi writes a template as MS Project XML; this is not a template"), std::string::npos)
      << bad.err;
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
  // No finding; only which date day 0 is.
  EXPECT_EQ(r.err,
            "ptmpl convert: day 0 is 2027-01-04 (the plan's start), recorded in the template's calendar block\n");
}

}  // namespace
// Colour follows no-color.org everywhere: NO_COLOR set to a non-empty value turns it off, an
// empty one does not (convert once treated an empty NO_COLOR as set, unlike lint and schedule).
TEST(CliConvert, ColourFollowsTheSameRuleAsEveryCommand) {
  const std::string args = "convert --to csv samples/office-move.json -o /dev/null";
  const std::string coloured = run_ptmpl_on_terminal(args, "NO_COLOR=");
  EXPECT_NE(coloured.find("\x1b["), std::string::npos) << coloured;
  EXPECT_NE(run_ptmpl_on_terminal("lint samples/lint-demo-broken.json", "NO_COLOR=").find("\x1b["), std::string::npos);
  const std::string plain = run_ptmpl_on_terminal(args, "NO_COLOR=1");
  EXPECT_EQ(plain.find("\x1b["), std::string::npos) << plain;
  EXPECT_NE(plain.find("[csv-dropped-field]"), std::string::npos) << plain;
}

}  // namespace ptmpl
