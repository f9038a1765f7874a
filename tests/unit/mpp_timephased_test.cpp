// Timephased work of .mpp assignments (convert/mpp/resources.cpp, mspdi_out.cpp): a split task's
// gap in its work reaches the MSPDI reader, which reports it as its MSPDI twin's is reported
// (mspdi-split-task, with the same dates), not as a Duration its dates contradict; hostile
// timephased bytes are read without a crash or a read past them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "convert/mpp/mpp.hpp"
#include "convert/mpp/plan.hpp"
#include "libtemplate/convert.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

// The messages of the findings of `rule`.
std::vector<std::string> findings(const Conversion& conversion, const std::string& rule) {
  std::vector<std::string> out;
  for (const Diagnostic& d : conversion.diagnostics)
    if (d.rule == rule) out.push_back(d.message);
  return out;
}

// The stories of a document (its raw_json onward): the project's own fields (title, currency)
// are other readers' concern.
std::string stories_of(const std::string& document) {
  const std::size_t at = document.find("\"raw_json\"");
  return at == std::string::npos ? document : document.substr(at);
}

class MppTimephased : public ::testing::TestWithParam<const char*> {};

TEST_P(MppTimephased, ASplitTaskIsReportedAsTheTwinReportsIt) {
  const std::string dir = testing::source_path("tests/data/mpp/corpus/");
  const std::string mpp = GetParam();
  Result<Conversion> got = detail::convert_mpp(testing::slurp(dir + mpp), mpp, {});
  ASSERT_TRUE(got.ok()) << got.error().message;
  Result<Conversion> want = convert_mspdi(testing::slurp(dir + "mpxj__mspdisplittask.xml"), "twin.xml", {});
  ASSERT_TRUE(want.ok()) << want.error().message;
  const std::vector<std::string> split = findings(want.value(), "mspdi-split-task");
  ASSERT_FALSE(split.empty());
  EXPECT_EQ(findings(got.value(), "mspdi-split-task"), split);
  EXPECT_EQ(findings(got.value(), "mspdi-duration-span"), findings(want.value(), "mspdi-duration-span"));
  EXPECT_EQ(stories_of(got.value().document), stories_of(want.value().document));
}

INSTANTIATE_TEST_SUITE_P(SplitTaskFiles, MppTimephased,
                         ::testing::Values("mpxj__mpp9splittask.mpp", "mpxj__mpp12splittask.mpp",
                                           "mpxj__mpp14splittask.mpp"));

// Little-endian bytes of an item: a 16-byte header counting `count` periods, a summary block,
// then blocks of (cumulative work in thousandths of a minute, cumulative time in 80ths).
std::string planned_item(std::uint16_t count, const std::vector<std::pair<double, std::int32_t>>& blocks) {
  std::string out(16 + 28, '\0');
  std::memcpy(out.data(), &count, 2);
  for (const auto& [work, time] : blocks) {
    std::string block(28, '\0');
    std::memcpy(block.data(), &work, 8);
    std::memcpy(block.data() + 24, &time, 4);
    out += block;
  }
  return out;
}

TEST(MppTimephasedBytes, PeriodsAreTheDifferencesOfTheCumulativeBlocks) {
  // 8 hours over 8 working hours, none over 16, 8 over 8.
  const std::string item = planned_item(3, {{480000, 480 * 80}, {480000, 1440 * 80}, {960000, 1920 * 80}});
  const auto periods = detail::mpp::read_timephased_work(item, true);
  ASSERT_EQ(periods.size(), 3u);
  EXPECT_DOUBLE_EQ(periods[0].work_minutes, 480);
  EXPECT_DOUBLE_EQ(periods[0].working_minutes, 480);
  EXPECT_DOUBLE_EQ(periods[1].work_minutes, 0);
  EXPECT_DOUBLE_EQ(periods[1].working_minutes, 960);
  EXPECT_DOUBLE_EQ(periods[2].work_minutes, 480);
}

TEST(MppTimephasedBytes, HostileItemsAreReadWithinTheirBytes) {
  // A count far past the blocks present, cut-short blocks, NaN and backwards values.
  const std::string many = planned_item(65535, {{480000, 480 * 80}, {960000, 960 * 80}});
  EXPECT_EQ(detail::mpp::read_timephased_work(many, true).size(), 2u);
  EXPECT_EQ(detail::mpp::read_timephased_work(many.substr(0, many.size() - 1), true).size(), 1u);
  EXPECT_TRUE(detail::mpp::read_timephased_work(std::string(10, '\xff'), true).empty());
  EXPECT_TRUE(detail::mpp::read_timephased_work("", false).empty());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(detail::mpp::read_timephased_work(planned_item(1, {{nan, 80}}), true).empty());
  EXPECT_EQ(detail::mpp::read_timephased_work(planned_item(2, {{960000, 80}, {480000, 160}}), true).size(), 1u);
  // A huge count of real blocks is capped.
  std::vector<std::pair<double, std::int32_t>> blocks;
  for (int i = 1; i <= 200; ++i) blocks.emplace_back(i * 1000.0, i * 80);
  EXPECT_EQ(detail::mpp::read_timephased_work(planned_item(200, blocks), true, 50).size(), 50u);
  // Every prefix and every byte flipped of a real-looking item: no crash.
  const std::string item = planned_item(3, {{480000, 480 * 80}, {480000, 1440 * 80}, {960000, 1920 * 80}});
  for (std::size_t n = 0; n <= item.size(); ++n) {
    (void)detail::mpp::read_timephased_work(item.substr(0, n), true);
    (void)detail::mpp::read_timephased_work(item.substr(0, n), false);
  }
  for (std::size_t i = 0; i < item.size(); ++i) {
    std::string bad = item;
    bad[i] = static_cast<char>(~bad[i]);
    for (const auto& p : detail::mpp::read_timephased_work(bad, true)) {
      EXPECT_TRUE(std::isfinite(p.work_minutes));
      EXPECT_GE(p.working_minutes, 0);
    }
  }
}

// A plan whose timephased work runs for centuries of working time is written without a hang.
TEST(MppTimephasedBytes, HugePeriodsAreWrittenInBoundedTime) {
  detail::mpp::Plan plan;
  detail::mpp::Task task;
  task.uid = 1;
  task.name = "T";
  task.start = "2020-01-01T08:00:00";
  task.finish = "2020-01-02T17:00:00";
  plan.tasks.push_back(task);
  detail::mpp::Assignment a;
  a.uid = 1;
  a.task_uid = 1;
  a.resource_uid = -65535;
  a.start = "2020-01-01T08:00:00";
  for (int i = 0; i < 1000; ++i) a.planned_work.push_back({i % 2 ? 0.0 : 480.0, 1.0e9});
  plan.assignments.push_back(a);
  const std::string xml = detail::mpp::write_mspdi(plan);
  EXPECT_NE(xml.find("<TimephasedData>"), std::string::npos);
}

}  // namespace
}  // namespace ptmpl
