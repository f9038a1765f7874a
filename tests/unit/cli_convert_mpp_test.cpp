// `ptmpl convert` on compound files: a Microsoft Project .mpp is recognised by its content (the
// compound file signature and the format `\1CompObj` names); MPP14 is read (its template is the
// one its MSPDI twin gives; MPP9 and MPP12 in mpp_versions_test.cpp), MPP8 is refused with format
// and writer named; a broken compound file or one holding another format is refused with what is
// wrong (exit 2, nothing written).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

#include "cfb_builder.hpp"
#include "cli_run.hpp"
#include "libtemplate/convert/convert.hpp"
#include "peak_memory.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

using testing::CfbBuilder;
using testing::CfbNode;
using testing::CliRun;

class CliConvertMpp : public testing::CliScratchTest {};

TEST_F(CliConvertMpp, AFormatNotReadYetIsRecognisedByContentAndRefusedWithItsFormatNamed) {
  // Named without the .mpp extension: detection is by content.
  std::filesystem::copy_file(testing::source_path("tests/data/mpp/corpus/mpxj__task-dates-project98-mpp8.mpp"),
                             dir_ / "plan.bin", std::filesystem::copy_options::overwrite_existing);
  const std::string plan = (dir_ / "plan.bin").string();
  CliRun r = ptmpl("convert " + plan + " -o " + (dir_ / "out.json").string());
  EXPECT_EQ(r.exit, 2) << r.err;
  EXPECT_EQ(r.err, "ptmpl convert: " + plan +
                       ": Microsoft Project .mpp (MPP8, written by Microsoft Project 8.0): reading this .mpp format is "
                       "not built (ptmpl reads MPP9, MPP12 and MPP14: Project 2000 and later); save the plan from "
                       "Microsoft Project as XML (MSPDI) and convert that\n");
  EXPECT_FALSE(std::filesystem::exists(dir_ / "out.json"));
}

// The template of an MPP14 file is the one its MSPDI twin (saved by the same Project version)
// gives: stories, hierarchy, temp_ids, dates, durations, links with type and lag, day 0 and the
// calendar block. Only the title (the twin has none: its file name) and the currency (not read
// from .mpp yet) differ. Project 2010 and 2016 lay links and flags out differently.
TEST_F(CliConvertMpp, AnMpp14FileGivesTheTemplateOfItsMspdiTwin) {
  for (const std::string version : {"2010", "2016"}) {
    const std::string base = "tests/data/mpp/corpus/mpxj__task-links-project" + version;
    std::filesystem::copy_file(testing::source_path(base + "-mpp14.mpp"), dir_ / "plan.bin",
                               std::filesystem::copy_options::overwrite_existing);
    CliRun mpp = ptmpl("convert " + (dir_ / "plan.bin").string() + " -o " + (dir_ / "mpp.json").string());
    ASSERT_EQ(mpp.exit, 0) << mpp.err;
    EXPECT_EQ(mpp.err.find("[mpp-calendar]"), std::string::npos) << mpp.err;  // its calendars are read
    CliRun twin =
        ptmpl("convert " + testing::source_path(base + "-mspdi.xml") + " -o " + (dir_ / "twin.json").string());
    ASSERT_EQ(twin.exit, 0) << twin.err;
    auto without_title = [](std::string text) {
      for (const std::string key : {"\"title\": ", "\"currency\": "}) {
        const std::size_t at = text.find(key);
        if (at == std::string::npos) continue;
        const std::size_t line = text.rfind('\n', at) + 1;
        text.erase(line, text.find('\n', at) - line + 1);
      }
      return text;
    };
    const std::string from_mpp = read_file((dir_ / "mpp.json").string());
    const std::string from_twin = read_file((dir_ / "twin.json").string());
    EXPECT_NE(from_mpp.find("\"title\": \"task-links-project" + version + "-mpp14\""), std::string::npos);
    EXPECT_NE(from_mpp.find("\"dependencies\""), std::string::npos);
    EXPECT_EQ(without_title(from_mpp), without_title(from_twin)) << version;
  }
}

TEST_F(CliConvertMpp, ABrokenCompoundFileOrAnotherFormatIsRefusedWithTheReason) {
  CfbBuilder builder;
  std::string broken = builder.build({CfbNode::stream("Data", std::string(5000, 'x'))});
  const std::uint32_t dir = builder.layout().directory_start;
  testing::put32(broken, builder.layout().fat_entry(dir), dir);  // the directory's chain loops
  const std::string loops = file("loops.mpp", broken);
  CliRun r = ptmpl("convert " + loops);
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(r.err, "ptmpl convert: " + loops + ": the directory's chain loops: sector " + std::to_string(dir) +
                       " leads back to sector " + std::to_string(dir) + "\n");
  EXPECT_EQ(r.out, "");

  const std::string cut = file("cut.mpp", broken.substr(0, 300));
  r = ptmpl("convert " + cut);
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(r.err, "ptmpl convert: " + cut + ": compound file cut off: 300 bytes, fewer than the 512 of its header\n");

  std::string comp_obj(28, '\0');
  for (const std::string text : {"Microsoft Excel 97-2003 Worksheet", "Biff8", "Excel.Sheet.8"}) {
    std::string length(4, '\0');
    testing::put32(length, 0, static_cast<std::uint32_t>(text.size() + 1));
    comp_obj += length + text + '\0';
  }
  const std::string sheet = file("sheet.xls", builder.build({CfbNode::stream("\x01"
                                                                             "CompObj",
                                                                             comp_obj)}));
  r = ptmpl("convert " + sheet);
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(r.err, "ptmpl convert: " + sheet +
                       ": a compound file (the container of Microsoft Project .mpp and Office 97-2003 files) holding "
                       "\"Biff8\" (\"Microsoft Excel 97-2003 Worksheet\"), not a Microsoft Project plan; not a plan "
                       "ptmpl reads\n");
}

// Issue 35: a .mpp of 290 KB padded with zeros to 3 GiB (sparse: no disk) was read whole (3 GB,
// 11 s); only the sectors its tables name are read, so it converts as the file itself does, in
// the memory and time of the plan.
TEST_F(CliConvertMpp, APlanPaddedToGigabytesConvertsAsItselfReadingOnlyItsSectors) {
  const std::filesystem::path plan = dir_ / "plan.mpp";
  const std::filesystem::path padded = dir_ / "padded.mpp";
  std::filesystem::copy_file(testing::source_path("tests/data/mpp/corpus/mpxj__mpp14assignmentfields.mpp"), plan);
  std::filesystem::copy_file(plan, padded);
  std::filesystem::resize_file(padded, std::uintmax_t{3} << 30);
  const CliRun itself = ptmpl("convert " + plan.string());
  ASSERT_EQ(itself.exit, 0) << itself.err;
  const auto started = std::chrono::steady_clock::now();
  const CliRun run = ptmpl("convert " + padded.string());
  EXPECT_EQ(run.exit, 0) << run.err;
  EXPECT_EQ(run.out, itself.out);
  // Where a template is read, its first MiB names it (it was read whole to say so).
  for (const std::string command : {"lint", "fmt --check"}) {
    const CliRun refused = ptmpl(command + " " + padded.string());
    EXPECT_EQ(refused.exit, 2) << command;
    EXPECT_NE(refused.err.find("padded.mpp: a Microsoft Project file (MPP14), not a template: convert it first"),
              std::string::npos)
        << refused.err;
  }
  // schedule converts it first (issue 36), reading it as convert does.
  EXPECT_EQ(ptmpl("schedule " + padded.string()).exit, 0);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(4));

  const std::optional<long> rise = testing::peak_rise_kib([&] {
    Result<Conversion> converted = convert_plan_file(padded.string());
    ASSERT_TRUE(converted.ok()) << converted.error().message;
  });
  if (rise) {
    EXPECT_LT(*rise, 32 * 1024) << "KiB";
  }
}

}  // namespace
}  // namespace ptmpl
