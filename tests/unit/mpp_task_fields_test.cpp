// A .mpp task's notes, cost, work, constraint, progress and flags (src/convert/mpp/task_fields.cpp):
// the stories' description, budget and time estimate, and the constraint and progress findings,
// are the ones the MSPDI twin gives; hostile records read as absent fields.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "convert/mpp/plan.hpp"
#include "libtemplate/convert/convert.hpp"
#include "test_files.hpp"

namespace ptmpl::mpp_task_fields_test {
namespace {

// The story keys read_task_fields gives, as "temp_id key: value" lines in story order.
std::vector<std::string> task_field_lines(const std::string& document) {
  std::vector<std::string> out;
  std::istringstream in(document);
  std::string line;
  std::string temp_id;
  while (std::getline(in, line)) {
    const std::size_t key = line.find_first_not_of(' ');
    if (key == std::string::npos) continue;
    std::string member = line.substr(key);
    if (member.ends_with(',')) member.pop_back();
    if (member.starts_with("\"temp_id\": ")) temp_id = member.substr(11);
    for (const char* name : {"\"description\": ", "\"budget_estimate_in_cents\": ", "\"time_estimate_in_minutes\": "})
      if (member.starts_with(name)) out.push_back(temp_id + " " + member);
  }
  return out;
}

// How many findings of the rules task fields feed, by rule.
std::map<std::string, int> task_field_findings(const Conversion& conversion) {
  std::map<std::string, int> out;
  for (const Diagnostic& d : conversion.diagnostics)
    for (const char* rule : {"mspdi-constraint", "mspdi-progress", "mspdi-inactive-task", "mspdi-summary-cost",
                             "mspdi-cost-fraction", "mspdi-cost-invalid", "mspdi-work-overflow"})
      if (d.rule == rule) ++out[d.rule];
  return out;
}

Conversion convert_file(const std::filesystem::path& path) {
  Result<Conversion> out = convert_plan(testing::slurp(path.string()), path.filename().string());
  EXPECT_TRUE(out.ok()) << path << ": " << (out.ok() ? "" : out.error().message);
  return out.ok() ? std::move(out).value() : Conversion{};
}

struct Pair {
  std::string mpp;
  std::string twin;
};

// Copies in tests/data/mpp/corpus: budgets, time estimates and progress (assignment fields,
// assignments), constraints (task links).
const Pair kPairs[] = {
    {"mpxj__mpp14assignmentfields.mpp", "mpxj__mspdiassignmentfields.xml"},
    {"mpxj__assignment-assignments-project2016-mpp14.mpp", "mpxj__assignment-assignments-project2016-mspdi.xml"},
    {"mpxj__task-links-project2010-mpp14.mpp", "mpxj__task-links-project2010-mspdi.xml"},
};

TEST(MppTaskFields, BudgetsTimeEstimatesAndFindingsAreTheTwins) {
  for (const Pair& pair : kPairs) {
    SCOPED_TRACE(pair.mpp);
    const std::string folder = testing::source_path("tests/data/mpp/corpus/");
    const Conversion mpp = convert_file(folder + pair.mpp);
    const Conversion twin = convert_file(folder + pair.twin);
    EXPECT_EQ(task_field_lines(mpp.document), task_field_lines(twin.document));
    EXPECT_EQ(task_field_findings(mpp), task_field_findings(twin));
  }
  // Not vacuous: the files hold what is compared.
  const std::string folder = testing::source_path("tests/data/mpp/corpus/");
  const Conversion fields = convert_file(folder + kPairs[0].mpp);
  EXPECT_NE(fields.document.find("\"budget_estimate_in_cents\": 505200"), std::string::npos) << fields.document;
  EXPECT_NE(fields.document.find("\"time_estimate_in_minutes\": 6180"), std::string::npos) << fields.document;
  EXPECT_EQ(task_field_findings(fields)["mspdi-progress"], 1);
}

TEST(MppTaskFields, ATasksRtfNoteIsItsStorysDescription) {
  // Project 2010 keeps "Notes Example" as {\rtf1\ansi\ansicpg1252…\pard\f0\fs16 Notes Example\par}.
  const Conversion out = convert_file(testing::source_path("tests/data/mpp/corpus/mpxj__mpp14task.mpp"));
  EXPECT_NE(out.document.find("\"description\": \"Notes Example\""), std::string::npos) << out.document;
  EXPECT_EQ(out.document.find("rtf1"), std::string::npos);
  // Its task 1 must start on a date and has progress (as MPXJ's own test of this file says).
  const std::map<std::string, int> findings = task_field_findings(out);
  EXPECT_EQ(findings, (std::map<std::string, int>{{"mspdi-constraint", 1}, {"mspdi-progress", 1}}));
  bool must_start_on = false;
  for (const Diagnostic& d : out.diagnostics)
    must_start_on |=
        d.rule == "mspdi-constraint" && d.message.find("task 1 \"Task #1\" has the constraint \"Must Start On\"") == 0;
  EXPECT_TRUE(must_start_on);
}

// A task's fields become the plan model's, in its units: minutes, cents with their spelling as
// MS Project's XML has it, dates; a constraint's date only with a constraint, no absent amount.
TEST(MppTaskFields, TheFieldsBecomeThePlanModels) {
  detail::mpp::Plan tables;
  detail::mpp::Task task;
  task.uid = 3;
  task.row = 7;
  task.name = "T";
  task.start = "2024-01-08T08:00:00";
  task.finish = "2024-01-08T17:00:00";
  task.duration_tenths = 4801;
  task.work_tenths = 9000;
  task.estimated = true;
  task.percent_complete = 50;
  task.cost = 12345.5;
  task.actual_start = task.start;
  task.actual_duration_tenths = 2400;
  task.actual_cost = 100;
  task.actual_work_tenths = 600;
  task.constraint_type = 2;
  task.constraint_date = "2024-01-09T08:00:00";
  task.calendar_uid = -1;
  task.deadline = "2024-02-01T17:00:00";
  task.notes = "a <note>";
  task.active = false;
  tables.tasks.push_back(task);
  plan::Plan model = detail::mpp::to_plan(tables);
  ASSERT_EQ(model.tasks.size(), 1u);
  const plan::Task& t = model.tasks[0];
  EXPECT_EQ(t.uid, 3);
  EXPECT_EQ(t.name, "T");
  EXPECT_FALSE(t.active);
  EXPECT_FALSE(t.manual);
  EXPECT_EQ(t.start, (plan::DateTime{*parse_date("2024-01-08"), 8 * 60}));
  EXPECT_EQ(t.finish, (plan::DateTime{*parse_date("2024-01-08"), 17 * 60}));
  EXPECT_DOUBLE_EQ(t.duration.value_or(-1), 480.1);
  EXPECT_FALSE(t.duration_format.elapsed);
  EXPECT_DOUBLE_EQ(t.work.value_or(-1), 900);
  EXPECT_EQ(t.percent_complete, 50);
  EXPECT_DOUBLE_EQ(t.cost.value_or(-1), 12345.5);
  EXPECT_EQ(t.cost_text, "12345.50");
  EXPECT_TRUE(t.actual_start_is_start);
  EXPECT_FALSE(t.actual_finish_is_finish);
  EXPECT_DOUBLE_EQ(t.actual_duration, 240);
  EXPECT_DOUBLE_EQ(t.actual_cost, 100);
  EXPECT_DOUBLE_EQ(t.actual_work, 60);
  EXPECT_EQ(t.constraint, plan::Constraint::MustStartOn);
  EXPECT_EQ(t.constraint_date, parse_date("2024-01-09"));
  EXPECT_EQ(t.calendar_uid, -1);
  EXPECT_EQ(t.notes, "a <note>");
  // Every finding on the task names its row of the task table.
  EXPECT_EQ(plan::describe(t.place(plan::TaskField::Constraint)), "the task table's row 7");
  // As soon as possible has no date; absent amounts are none.
  tables.tasks[0].constraint_type = 0;
  tables.tasks[0].cost.reset();
  model = detail::mpp::to_plan(tables);
  EXPECT_FALSE(model.tasks[0].constraint_date);
  EXPECT_FALSE(model.tasks[0].cost);
}

// A hand-built task table: the field map places cost at 0, work at 8, constraint type at 16,
// constraint date at 18, percent complete at 22; notes in var data.
class MppTaskFieldsTable : public ::testing::Test {
 protected:
  static constexpr std::uint32_t kClass = 0x0B400000;

  void SetUp() override {
    auto fixed = [&](std::uint32_t id, std::size_t offset) {
      detail::mpp::FieldPlace p;
      p.block = 0;
      p.offset = offset;
      fields_[kClass | id] = p;
    };
    fixed(5, 0);    // cost
    fixed(0, 8);    // work
    fixed(17, 16);  // constraint type
    fixed(18, 18);  // constraint date
    fixed(32, 22);  // percent complete
    detail::mpp::FieldPlace notes;
    notes.in_var = true;
    notes.var_key = 15;
    fields_[kClass | 15] = notes;
    layout_.version = 14;
  }

  detail::mpp::Task read(std::string_view record, detail::mpp::VarData var = {}) {
    meta_ = std::string(47, '\0');
    std::vector<detail::mpp::Row> rows{{meta_, record}};
    const detail::mpp::Table table(rows, {}, std::move(var), &fields_, kClass);
    detail::mpp::Task task;
    task.uid = 7;
    detail::mpp::read_task_fields(table, 0, layout_, task);
    return task;
  }

  detail::mpp::FieldMap fields_;
  detail::mpp::Layout layout_;
  std::string meta_;
};

TEST_F(MppTaskFieldsTable, FieldsAreReadFromTheirPlaces) {
  std::string record(24, '\0');
  const double cost = 12345;   // hundredths: 123.45
  const double work = 480000;  // thousandths of a minute: 8 hours
  std::memcpy(record.data(), &cost, 8);
  std::memcpy(record.data() + 8, &work, 8);
  record[16] = 4;                              // start no earlier than
  const std::uint16_t date[2] = {600, 11000};  // 01:00 on day 11000
  std::memcpy(record.data() + 18, date, 4);
  record[22] = 50;
  const std::string note = "{\\rtf1\\ansi caf\\'e9\\par}";
  detail::mpp::VarData var{{{7, 15}, note}};
  const detail::mpp::Task task = read(record, var);
  EXPECT_EQ(task.cost, 12345.0);
  EXPECT_EQ(task.work_tenths, 4800);
  EXPECT_EQ(task.constraint_type, 4);
  EXPECT_EQ(task.constraint_date, "2014-02-11T01:00:00");
  EXPECT_EQ(task.percent_complete, 50);
  EXPECT_EQ(task.notes, "caf\u00E9");
  EXPECT_TRUE(task.active);  // no Fixed2Meta item: nothing says inactive
}

TEST_F(MppTaskFieldsTable, ATruncatedRecordReadsAsAbsentFields) {
  // 20 bytes: cost, work and the constraint type are there; the date and percent are cut off.
  std::string record(20, '\0');
  const double cost = 100;
  std::memcpy(record.data(), &cost, 8);
  record[16] = 2;
  const detail::mpp::Task task = read(record);
  EXPECT_EQ(task.cost, 100.0);
  EXPECT_EQ(task.work_tenths, std::nullopt);  // zero work is none
  EXPECT_EQ(task.constraint_type, 2);
  EXPECT_EQ(task.constraint_date, std::nullopt);
  EXPECT_EQ(task.percent_complete, 0);
  EXPECT_EQ(read("").cost, std::nullopt);
}

TEST_F(MppTaskFieldsTable, HostileValuesAreNotCarriedOver) {
  std::string record(24, '\0');
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double huge = 1e300;
  std::memcpy(record.data(), &nan, 8);
  std::memcpy(record.data() + 8, &huge, 8);
  // A note that is not RTF is plain text; one cut off inside an escape keeps what came before.
  detail::mpp::VarData var{{{7, 15}, std::string_view("plain {text}\\ here\nnext\0junk", 28)}};
  detail::mpp::Task task = read(record, var);
  EXPECT_EQ(task.cost, std::nullopt);
  EXPECT_EQ(task.work_tenths, std::nullopt);
  EXPECT_EQ(task.notes, "plain {text}\\ here\nnext");
  var = {{{7, 15}, "{\\rtf1 cut\\'"}};
  EXPECT_EQ(read(record, var).notes, "cut");
}

// The active flag (Project 2010's bit in the second meta block): MPXJ's flag test file names its
// tasks after the flag they carry.
TEST(MppTaskFieldsSweep, TasksNamedInactiveAreTheInactiveOnes) {
  const std::filesystem::path folder = testing::shared_folder("corpus/mpp");
  if (folder.empty()) GTEST_SKIP() << "no ../shared/corpus/mpp beside the repository";
  const Conversion out = convert_file(folder / "mpxj__taskFlags-mpp14Project2010.mpp");
  std::vector<std::string> inactive;
  for (const Diagnostic& d : out.diagnostics)
    if (d.rule == "mspdi-inactive-task") inactive.push_back(d.message);
  // Each names its row of the task table.
  EXPECT_EQ(inactive,
            (std::vector<std::string>{"task 64 \"Active: Off\" is inactive and is skipped (the task table's row 67)",
                                      "task 66 \"Active: Off\" is inactive and is skipped (the task table's row 69)"}));
  std::size_t on = 0;
  for (std::size_t at = 0; (at = out.document.find("\"title\": \"Active: On\"", at)) != std::string::npos; ++at) ++on;
  EXPECT_EQ(on, 2u);
}

// The sweep the task measures: of the MPP14 pairs of the shared corpus, how many give their twin's
// descriptions, budgets, time estimates and task-field findings.
TEST(MppTaskFieldsSweep, Mpp14PairsAgreeWithTheirTwinsOnTaskFields) {
  namespace fs = std::filesystem;
  const fs::path folder = testing::shared_folder("corpus/mpp");
  if (folder.empty()) GTEST_SKIP() << "no ../shared/corpus/mpp beside the repository";
  std::size_t compared = 0;
  std::size_t fields_agree = 0;
  std::size_t findings_agree = 0;
  std::string differ;
  for (const auto& [mpp, twin] : testing::mpp_pairs(folder / "pairs.tsv")) {
    if (mpp.find("mpp14") == std::string::npos) continue;
    ++compared;
    const Conversion a = convert_file(folder / mpp);
    const Conversion b = convert_file(folder / twin);
    const bool fields = task_field_lines(a.document) == task_field_lines(b.document);
    const bool findings = task_field_findings(a) == task_field_findings(b);
    fields_agree += fields ? 1 : 0;
    findings_agree += findings ? 1 : 0;
    if (!fields || !findings) differ += " " + mpp;
  }
  EXPECT_EQ(compared, 49u);
  // Measured: all 49 (before task fields were read: 38 and 43).
  EXPECT_EQ(fields_agree, 49u) << "differ:" << differ;
  EXPECT_EQ(findings_agree, 49u) << "differ:" << differ;
}

}  // namespace
}  // namespace ptmpl::mpp_task_fields_test
