// The compound file reader (src/convert/cfb/): real .mpp files, version 4 and DIFAT chains built
// here, and hostile files (each one field broken) refused with exact messages.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

#include "cfb_builder.hpp"
#include "convert/cfb/compound_file.hpp"
#include "convert/mpp/mpp.hpp"
#include "peak_memory.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

using cfb::CompoundFile;
using testing::CfbBuilder;
using testing::CfbNode;
using testing::put16;
using testing::put32;
using testing::put64;

Result<CompoundFile> open_bytes(const std::string& bytes, const std::string& path = "t.cfb") {
  return CompoundFile::open(FileText(bytes), path);
}

std::string pattern(std::size_t size, unsigned seed) {
  std::string out(size, '\0');
  for (std::size_t i = 0; i < size; ++i)
    out[i] = static_cast<char>((i * 131 + std::size_t{seed} * 17 + i / 251) & 0xFF);
  return out;
}

std::vector<std::string> names(const CompoundFile& file, const cfb::Entry& storage) {
  std::vector<std::string> out;
  for (const cfb::Entry* e : file.children(storage)) out.push_back(e->name);
  return out;
}

std::uint32_t u32_at(std::string_view bytes, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
  return v;
}

// --- real files ---------------------------------------------------------------------------

struct RealFile {
  const char* file;
  const char* data_storage;  // "   1" + the format number
  const char* format;
  const char* application;
};

class CfbRealFile : public ::testing::TestWithParam<RealFile> {};

TEST_P(CfbRealFile, ListsItsStoragesAndReadsTheTaskTable) {
  const RealFile& real = GetParam();
  auto file = CompoundFile::read(testing::source_path(std::string("tests/data/mpp/corpus/") + real.file));
  ASSERT_TRUE(file.ok()) << file.error().message;
  const CompoundFile& cf = file.value();
  EXPECT_EQ(cf.version(), 3);
  EXPECT_EQ(cf.sector_size(), 512u);
  const std::string format = real.format;
  const std::string number = format.substr(format.find("MPP") + 3);
  // Project 98 names its storages "   1" and "   2"; later versions add the format's number.
  const std::string suffix = number == "8" ? "" : number;
  std::vector<std::string> root = names(cf, cf.root());
  std::sort(root.begin(), root.end());
  const std::string comp_obj_name = std::string(1, '\x01') + "CompObj";
  const std::string summary = std::string(1, '\x05') + "SummaryInformation";
  const std::string document_summary = std::string(1, '\x05') + "DocumentSummaryInformation";
  EXPECT_EQ(root, (std::vector<std::string>{comp_obj_name, document_summary, summary, "   1" + suffix, "   2" + suffix,
                                            "Props" + suffix}));
  const cfb::Entry* data = cf.find({real.data_storage});
  ASSERT_NE(data, nullptr);
  EXPECT_TRUE(data->is_storage());

  auto comp_obj = cfb::read_comp_obj(cf);
  ASSERT_TRUE(comp_obj.ok()) << comp_obj.error().message;
  EXPECT_EQ(comp_obj.value().format, real.format);
  EXPECT_EQ(comp_obj.value().user_type, real.application);
  EXPECT_EQ(comp_obj.value().prog_id, number == "8" ? "MSProject.Project.8" : "MSProject.Project.9");

  // Every stream reads whole, with exactly its size.
  std::size_t streams = 0;
  for (std::size_t i = 0; i < cf.entry_count(); ++i) {
    const cfb::Entry& e = cf.entry(static_cast<std::uint32_t>(i));
    if (e.is_storage()) continue;
    auto bytes = cf.read_stream(e);
    ASSERT_TRUE(bytes.ok()) << bytes.error().message;
    EXPECT_EQ(bytes.value().size(), e.size) << cf.describe(e);
    ++streams;
  }
  EXPECT_GT(streams, 20u);
  if (number == "8") return;  // Project 98 lays its tables out otherwise

  // The task table's FixedMeta starts with the magic 0xFADFADBA; its items are 47 bytes.
  const cfb::Entry* meta = cf.find({real.data_storage, "TBkndTask", "FixedMeta"});
  ASSERT_NE(meta, nullptr);
  EXPECT_EQ(cf.describe(*meta), "\"" + std::string(real.data_storage) + "\"/\"TBkndTask\"/\"FixedMeta\"");
  auto fixed_meta = cf.read_stream({real.data_storage, "TBkndTask", "FixedMeta"});
  ASSERT_TRUE(fixed_meta.ok()) << fixed_meta.error().message;
  ASSERT_EQ(fixed_meta.value().size(), 298u);  // 16 bytes of header and 6 items of 47
  EXPECT_EQ(u32_at(fixed_meta.value(), 0), 0xFADFADBAu);
  // A large stream (Props, over the 4096-byte cutoff: read through the FAT) and names compared
  // without regard to case.
  const cfb::Entry* props = cf.find({real.data_storage, "props"});
  ASSERT_NE(props, nullptr);
  EXPECT_EQ(props->name, "Props");
  EXPECT_GT(props->size, 4096u);
  auto props_bytes = cf.read_stream(*props);
  ASSERT_TRUE(props_bytes.ok()) << props_bytes.error().message;
  EXPECT_EQ(props_bytes.value().size(), props->size);

  auto missing = cf.read_stream({real.data_storage, "TBkndTask", "NoSuchStream"});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
  EXPECT_NE(missing.error().message.find("holds no stream \"" + std::string(real.data_storage) +
                                         "\"/\"TBkndTask\"/\"NoSuchStream\""),
            std::string::npos)
      << missing.error().message;
}

std::string format_name(const ::testing::TestParamInfo<RealFile>& param) {
  const std::string format = param.param.format;
  return format.substr(format.find("MPP"));
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, CfbRealFile,
    ::testing::Values(RealFile{"mpxj__mpp9splittask.mpp", "   19", "MSProject.MPP9", "Microsoft Project 9.0"},
                      RealFile{"mpxj__mpp12splittask.mpp", "   112", "MSProject.MPP12", "Microsoft Project 12.0"},
                      RealFile{"mpxj__mpp14splittask.mpp", "   114", "MSProject.MPP14", "Microsoft.Project 14.0"},
                      RealFile{"mpxj__task-dates-project98-mpp8.mpp", "   1", "MSProject.MPP8",
                               "Microsoft Project 8.0"}),
    format_name);

TEST(Cfb, AnMppIsIdentifiedByItsCompObj) {
  auto file = CompoundFile::read(testing::source_path("tests/data/mpp/corpus/mpxj__mpp14splittask.mpp"));
  ASSERT_TRUE(file.ok()) << file.error().message;
  auto format = detail::identify_mpp(file.value());
  ASSERT_TRUE(format.ok()) << format.error().message;
  EXPECT_EQ(format.value().version, 14);
  EXPECT_EQ(detail::describe(format.value()), "Microsoft Project .mpp (MPP14, written by Microsoft.Project 14.0)");
  const std::string bytes = testing::read_source("tests/data/mpp/corpus/mpxj__mpp9splittask.mpp");
  EXPECT_EQ(detect_plan_format(bytes), PlanFormat::Mpp);
}

// --- files built here ---------------------------------------------------------------------

std::vector<CfbNode> sample_tree() {
  return {CfbNode::stream("Big", pattern(10000, 1)),
          CfbNode::folder("Data", {CfbNode::stream("Small", pattern(100, 2)), CfbNode::stream("Empty", ""),
                                   CfbNode::folder("Inner", {CfbNode::stream("Exact", pattern(4096, 3))}),
                                   CfbNode::stream("Plan \xC3\xA9t\xC3\xA9", pattern(63, 4))}),
          CfbNode::stream("Tiny", pattern(1, 5))};
}

void expect_sample(const CompoundFile& cf) {
  EXPECT_EQ(names(cf, cf.root()), (std::vector<std::string>{"Big", "Data", "Tiny"}));
  const cfb::Entry* data = cf.find({"Data"});
  ASSERT_NE(data, nullptr);
  EXPECT_EQ(names(cf, *data), (std::vector<std::string>{"Empty", "Inner", "Small", "Plan \xC3\xA9t\xC3\xA9"}));
  struct Expect {
    std::vector<std::string_view> path;
    std::string bytes;
  };
  for (const Expect& e :
       {Expect{{"Big"}, pattern(10000, 1)}, Expect{{"Data", "Small"}, pattern(100, 2)}, Expect{{"Data", "Empty"}, ""},
        Expect{{"data", "inner", "EXACT"}, pattern(4096, 3)},
        Expect{{"Data", "Plan \xC3\xA9t\xC3\xA9"}, pattern(63, 4)}, Expect{{"Tiny"}, pattern(1, 5)}}) {
    const cfb::Entry* entry = cf.find(e.path);
    ASSERT_NE(entry, nullptr) << e.path.back();
    auto bytes = cf.read_stream(*entry);
    ASSERT_TRUE(bytes.ok()) << bytes.error().message;
    EXPECT_EQ(bytes.value(), e.bytes) << e.path.back();
  }
  EXPECT_EQ(cf.find({"Data", "Nope"}), nullptr);
  EXPECT_EQ(cf.find({"Big", "Inside"}), nullptr);  // a stream has no children
  auto storage = cf.read_stream(*data);
  ASSERT_FALSE(storage.ok());
  EXPECT_EQ(storage.error().message, "t.cfb: storage \"Data\" is a storage, not a stream");
}

TEST(Cfb, ReadsAVersion3FileBuiltHere) {
  CfbBuilder builder;
  auto file = open_bytes(builder.build(sample_tree(), 3));
  ASSERT_TRUE(file.ok()) << file.error().message;
  EXPECT_EQ(file.value().version(), 3);
  expect_sample(file.value());
}

TEST(Cfb, ReadsAVersion4FileWith4096ByteSectors) {
  CfbBuilder builder;
  const std::string bytes = builder.build(sample_tree(), 4);
  EXPECT_EQ(bytes.size() % 4096, 0u);
  auto file = open_bytes(bytes);
  ASSERT_TRUE(file.ok()) << file.error().message;
  EXPECT_EQ(file.value().version(), 4);
  EXPECT_EQ(file.value().sector_size(), 4096u);
  expect_sample(file.value());
  // Version 4 reads all 64 bits of a size; version 3 only the low 32 (its high half may hold
  // anything, [MS-CFB] 2.6.3).
  std::string large = bytes;
  put32(large, builder.layout().entry(builder.id_of({"Big"})) + 124, 1);
  auto refused = open_bytes(large);
  ASSERT_TRUE(refused.ok()) << refused.error().message;
  auto big = refused.value().read_stream({"Big"});
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().message, "t.cfb: stream \"Big\" is said to hold 4294977296 bytes, more than the whole file (" +
                                     std::to_string(bytes.size()) + " bytes)");
  std::string v3 = builder.build(sample_tree(), 3);
  put32(v3, builder.layout().entry(builder.id_of({"Big"})) + 124, 1);
  auto ignored = open_bytes(v3);
  ASSERT_TRUE(ignored.ok()) << ignored.error().message;
  EXPECT_EQ(ignored.value().read_stream({"Big"}).value(), pattern(10000, 1));
}

TEST(Cfb, ReadsTheFatThroughAChainOfDifatSectors) {
  // More than 109 FAT sectors (a version 3 file over 7 MB): the rest are listed in DIFAT sectors.
  CfbBuilder builder;
  const std::string huge = pattern(7'400'000, 6);
  const std::string bytes = builder.build({CfbNode::stream("Huge", huge), CfbNode::stream("Small", "abc")}, 3);
  ASSERT_GT(builder.layout().fat_sectors, 109u);
  ASSERT_EQ(builder.layout().difat_sectors, 1u);
  auto file = open_bytes(bytes);
  ASSERT_TRUE(file.ok()) << file.error().message;
  auto read = file.value().read_stream({"Huge"});
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_TRUE(read.value() == huge);
  EXPECT_EQ(file.value().read_stream({"Small"}).value(), "abc");
}

// --- hostile files: one field broken each ---------------------------------------------------

class CfbHostile : public ::testing::Test {
 protected:
  void SetUp() override { good_ = builder_.build(sample_tree(), 3); }

  // The message of opening `bytes`, or of reading `stream` from it when it opens.
  std::string refusal(const std::string& bytes, std::initializer_list<std::string_view> stream = {}) {
    auto file = open_bytes(bytes);
    if (!file.ok()) {
      EXPECT_EQ(file.error().code, ErrorCode::kInvalid);
      return file.error().message;
    }
    if (stream.size() == 0) return "(opened)";
    auto read = file.value().read_stream(stream);
    if (read.ok()) return "(read)";
    EXPECT_EQ(read.error().code, ErrorCode::kInvalid);
    return read.error().message;
  }
  std::size_t entry(const std::vector<std::string>& path) const {
    return builder_.layout().entry(builder_.id_of(path));
  }
  std::uint32_t start_of(const std::vector<std::string>& path) const { return u32_at(good_, entry(path) + 116); }
  std::uint32_t sectors() const { return static_cast<std::uint32_t>(good_.size() / 512 - 1); }

  CfbBuilder builder_;
  std::string good_;
};

TEST_F(CfbHostile, TheBuiltFileIsGood) {
  EXPECT_EQ(refusal(good_, {"Big"}), "(read)");
}

TEST_F(CfbHostile, HeadersThatAreCutOffOrWrong) {
  EXPECT_EQ(refusal(good_.substr(0, 100)), "t.cfb: compound file cut off: 100 bytes, fewer than the 512 of its header");
  EXPECT_EQ(refusal("PK\x03\x04 a zip file"),
            "t.cfb: not a compound file: it does not start with the signature D0 CF 11 E0 A1 B1 1A E1");
  std::string bad = good_;
  put16(bad, 26, 5);
  EXPECT_EQ(refusal(bad),
            "t.cfb: compound file header: major version 5; ptmpl reads versions 3 and 4 (the only ones "
            "[MS-CFB] defines)");
  bad = good_;
  put16(bad, 28, 0xFEFF);
  EXPECT_EQ(refusal(bad), "t.cfb: compound file header: byte order mark 0xFEFF, not 0xFFFE (little-endian)");
  bad = good_;
  put16(bad, 30, 12);
  EXPECT_EQ(refusal(bad), "t.cfb: compound file header: sector shift 12; version 3 has 9 (512-byte sectors)");
  bad = good_;
  put16(bad, 32, 7);
  EXPECT_EQ(refusal(bad), "t.cfb: compound file header: mini sector shift 7, not 6 (64-byte mini sectors)");
  bad = good_;
  put32(bad, 56, 512);
  EXPECT_EQ(refusal(bad), "t.cfb: compound file header: mini stream cutoff 512, not 4096");
  // Version 4 says 4096-byte sectors, so its header alone takes 4096 bytes.
  bad = good_.substr(0, 2048);
  put16(bad, 26, 4);
  put16(bad, 30, 12);
  EXPECT_EQ(refusal(bad), "t.cfb: compound file cut off: 2048 bytes, fewer than the 4096 of a version 4 header");
}

TEST_F(CfbHostile, AbsurdCounts) {
  std::string bad = good_;
  put32(bad, 44, 0x7FFFFFFF);
  EXPECT_EQ(refusal(bad), "t.cfb: compound file header: 2147483647 FAT sectors, more than the " +
                              std::to_string(sectors()) + " sectors the file holds");
  bad = good_;
  put32(bad, 76, 0xFFFFFF00);  // the first FAT sector
  EXPECT_EQ(refusal(bad), "t.cfb: FAT sector 0 is sector 4294967040, beyond the " + std::to_string(sectors()) +
                              " sectors the file holds");
  // More FAT sectors than the header lists, and no DIFAT chain.
  bad = good_;
  put32(bad, 44, 110);
  bad.append(std::size_t{110} * 512, '\0');
  EXPECT_EQ(refusal(bad),
            "t.cfb: the DIFAT lists 109 of the header's 110 FAT sectors: its chain ends after 0 DIFAT sectors");
  // A directory entry whose name says it is longer than 64 bytes.
  bad = good_;
  put16(bad, entry({"Data"}) + 64, 200);
  EXPECT_EQ(refusal(bad), "t.cfb: directory entry " + std::to_string(builder_.id_of({"Data"})) +
                              " has a name 200 bytes long; a name takes at most 64 bytes, an even number");
}

// Each FAT sector is read once: a header or DIFAT naming one sector again and again would
// otherwise make a FAT 128 times the size of the list that names it.
TEST_F(CfbHostile, AFatSectorNamedTwiceIsRefused) {
  std::string bad = good_;
  const std::uint32_t fat_sectors = u32_at(good_, 44);
  put32(bad, 44, fat_sectors + 1);
  put32(bad, 76 + std::size_t{fat_sectors} * 4, u32_at(good_, 76));
  EXPECT_EQ(refusal(bad), "t.cfb: the DIFAT names sector " + std::to_string(u32_at(good_, 76)) + " as FAT sector " +
                              std::to_string(fat_sectors) + ", but it is already an earlier FAT sector");
}

// Sizes the header and the directory declare allocate nothing until the sectors that would hold
// them are found: a version 4 file padded (sparsely) to 5 GiB, whose stream says it holds 4 GiB,
// is refused by its chain, in the memory of its tables.
TEST_F(CfbHostile, DeclaredSizesOfAPaddedFileAllocateNothingBeforeTheirSectorsAreFound) {
  std::string bytes = builder_.build(sample_tree(), 4);
  put64(bytes, builder_.layout().entry(builder_.id_of({"Big"})) + 120, std::uint64_t{4} << 30);
  const std::filesystem::path path =
      std::filesystem::path(::testing::TempDir()) / ("ptmpl-cfb-padded-" + std::to_string(::getpid()) + ".cfb");
  std::ofstream(path, std::ios::binary) << bytes;
  std::filesystem::resize_file(path, std::uintmax_t{5} << 30);
  const std::optional<long> rise = testing::peak_rise_kib([&] {
    Result<CompoundFile> file = CompoundFile::read(path.string());
    ASSERT_TRUE(file.ok()) << file.error().message;
    const cfb::Entry* big = file.value().find({"Big"});
    ASSERT_NE(big, nullptr);
    Result<std::string> read = file.value().read_stream(*big);
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.error().message,
              path.string() +
                  ": stream \"Big\" is said to hold 4294967296 bytes, but its FAT chain has only 3 sectors (12288 "
                  "bytes)");
    Result<std::string> data = file.value().read_stream({"Data", "Small"});
    ASSERT_TRUE(data.ok()) << data.error().message;
  });
  std::filesystem::remove(path);
  if (rise) {
    EXPECT_LT(*rise, 16 * 1024) << "KiB";
  }
}

TEST_F(CfbHostile, ADifatChainThatLoops) {
  // 240 FAT sectors claimed: 109 in the header, 127 in the first DIFAT sector, and that sector
  // names itself as the next one.
  std::string bytes = builder_.build({CfbNode::stream("Big", pattern(130000, 7))}, 3);
  const std::uint32_t start = u32_at(bytes, builder_.layout().entry(builder_.id_of({"Big"})) + 116);
  put32(bytes, 44, 240);
  put32(bytes, 68, start);
  put32(bytes, builder_.layout().sector(start) + std::size_t{127} * 4, start);
  EXPECT_EQ(refusal(bytes),
            "t.cfb: the DIFAT's chain loops: DIFAT sector 1 is sector " + std::to_string(start) + " again");
}

TEST_F(CfbHostile, SectorChainsThatLoopOrLeaveTheFile) {
  const std::uint32_t big = start_of({"Big"});
  std::string bad = good_;
  put32(bad, builder_.layout().fat_entry(big + 5), big + 2);
  EXPECT_EQ(refusal(bad, {"Big"}), "t.cfb: stream \"Big\"'s chain loops: sector " + std::to_string(big + 5) +
                                       " leads back to sector " + std::to_string(big + 2));
  bad = good_;
  put32(bad, builder_.layout().fat_entry(big), 5000);
  EXPECT_EQ(refusal(bad, {"Big"}), "t.cfb: stream \"Big\"'s chain goes from sector " + std::to_string(big) +
                                       " to sector 5000, beyond the " + std::to_string(sectors()) +
                                       " sectors the file holds");
  bad = good_;
  put32(bad, builder_.layout().fat_entry(big), 0xFFFFFFFF);
  EXPECT_EQ(refusal(bad, {"Big"}), "t.cfb: stream \"Big\"'s FAT chain goes from sector " + std::to_string(big) +
                                       " to a free sector (0xFFFFFFFF) instead of a sector or the end of the chain");
  // A sector the file holds but the FAT does not cover (the FAT's one sector covers 128).
  bad = good_;
  bad.append(std::size_t{200} * 512, '\0');
  put32(bad, builder_.layout().fat_entry(big), 150);
  EXPECT_EQ(refusal(bad, {"Big"}), "t.cfb: stream \"Big\"'s chain goes from sector " + std::to_string(big) +
                                       " to sector 150, which the FAT (128 entries) does not cover");
  // The directory's own chain loops back on itself.
  bad = good_;
  const std::uint32_t dir = builder_.layout().directory_start;
  put32(bad, builder_.layout().fat_entry(dir), dir);
  EXPECT_EQ(refusal(bad), "t.cfb: the directory's chain loops: sector " + std::to_string(dir) +
                              " leads back to sector " + std::to_string(dir));
  // A mini stream chain that leaves the mini stream.
  bad = good_;
  const std::uint32_t small = start_of({"Data", "Small"});
  put32(bad, builder_.layout().sector(u32_at(good_, 60)) + std::size_t{small} * 4, 9999);
  EXPECT_EQ(refusal(bad, {"Data", "Small"}), "t.cfb: stream \"Data\"/\"Small\"'s chain goes from mini sector " +
                                                 std::to_string(small) + " to mini sector 9999, beyond the " +
                                                 std::to_string(u32_at(good_, 512 * (dir + 1) + 120) / 64) +
                                                 " mini sectors of the mini stream");
}

TEST_F(CfbHostile, StreamSizesThatLie) {
  std::string bad = good_;
  put32(bad, entry({"Big"}) + 120, 15000);
  EXPECT_EQ(refusal(bad, {"Big"}),
            "t.cfb: stream \"Big\" is said to hold 15000 bytes, but its FAT chain has only 20 sectors (10240 bytes)");
  bad = good_;
  put32(bad, entry({"Big"}) + 120, 0xFFFFFFF0);
  EXPECT_EQ(refusal(bad, {"Big"}),
            "t.cfb: stream \"Big\" is said to hold 4294967280 bytes, more than the whole file (" +
                std::to_string(good_.size()) + " bytes)");
  bad = good_;
  put32(bad, entry({"Data", "Small"}) + 120, 3000);
  EXPECT_EQ(refusal(bad, {"Data", "Small"}),
            "t.cfb: stream \"Data\"/\"Small\" is said to hold 3000 bytes, but its mini "
            "FAT chain has only 2 mini sectors (128 bytes)");
  // The mini stream (the root's) said to be larger than its chain.
  bad = good_;
  put32(bad, builder_.layout().entry(0) + 120, 4000);
  EXPECT_EQ(refusal(bad),
            "t.cfb: the mini stream is said to hold 4000 bytes, but its chain has only 1 sectors (512 bytes)");
  // A file cut off in the middle of a stream's last sector.
  const std::uint32_t big = start_of({"Big"});
  const std::string cut = good_.substr(0, builder_.layout().sector(big + 19) + 100);
  EXPECT_EQ(refusal(cut, {"Big"}),
            "t.cfb: stream \"Big\" is cut off by the end of the file (in sector " + std::to_string(big + 19) + ")");
}

TEST_F(CfbHostile, DirectoryTreesWithCyclesOrBadIds) {
  const std::uint32_t data = builder_.id_of({"Data"});
  const std::uint32_t big = builder_.id_of({"Big"});
  std::string bad = good_;
  put32(bad, entry({"Data"}) + 68, 99);  // left sibling
  EXPECT_EQ(refusal(bad), "t.cfb: directory entry " + std::to_string(data) +
                              " names entry 99 as its left sibling, but the directory has " +
                              std::to_string(4 * ((builder_.layout().entries * 128 + 511) / 512)) + " entries");
  // A storage whose child is its own parent's sibling tree: Data's child is Big.
  bad = good_;
  put32(bad, entry({"Data"}) + 76, big);
  EXPECT_EQ(refusal(bad), "t.cfb: directory entry " + std::to_string(data) + " names entry " + std::to_string(big) +
                              " as its child, which is already in the tree: the directory has a cycle");
  // A storage that holds itself.
  bad = good_;
  put32(bad, entry({"Data"}) + 76, data);
  EXPECT_EQ(refusal(bad), "t.cfb: directory entry " + std::to_string(data) + " names entry " + std::to_string(data) +
                              " as its child, which is already in the tree: the directory has a cycle");
  // A sibling that points back to the root, and one to an unused entry.
  bad = good_;
  put32(bad, entry({"Big"}) + 72, 0);
  EXPECT_EQ(refusal(bad), "t.cfb: directory entry " + std::to_string(big) +
                              " names entry 0 as its right sibling, which is already in the tree: the directory has a "
                              "cycle");
  bad = good_;
  put32(bad, entry({"Big"}) + 72, builder_.layout().entries);
  EXPECT_EQ(refusal(bad), "t.cfb: directory entry " + std::to_string(big) + " names entry " +
                              std::to_string(builder_.layout().entries) + " as its right sibling, which is unused");
  bad = good_;
  bad[builder_.layout().entry(0) + 66] = 1;
  EXPECT_EQ(refusal(bad), "t.cfb: directory entry 0 is not the root storage (its type is 1, not 5)");
}

// --- CompObj ---------------------------------------------------------------------------------

std::string comp_obj(const std::string& user_type, const std::string& format) {
  std::string out(28, '\0');
  auto text = [&](const std::string& s) {
    std::string length(4, '\0');
    put32(length, 0, static_cast<std::uint32_t>(s.size() + 1));
    out += length + s + '\0';
  };
  text(user_type);
  text(format);
  text("Prog.Id.1");
  return out;
}

TEST(CfbCompObj, NamesTheFormatAndRefusesWhatIsNoPlan) {
  CfbBuilder builder;
  auto word =
      open_bytes(builder.build({CfbNode::stream("\x01"
                                                "CompObj",
                                                comp_obj("Microsoft Word 97-2003 Document", "Word.Document.8"))}),
                 "letter.doc");
  ASSERT_TRUE(word.ok()) << word.error().message;
  auto refused = detail::identify_mpp(word.value());
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message,
            "letter.doc: a compound file (the container of Microsoft Project .mpp and Office 97-2003 files) holding "
            "\"Word.Document.8\" (\"Microsoft Word 97-2003 Document\"), not a Microsoft Project plan; not a plan ptmpl "
            "reads");
  auto bare = open_bytes(builder.build({CfbNode::stream("Other", "x")}), "bare.cfb");
  ASSERT_TRUE(bare.ok());
  EXPECT_EQ(detail::identify_mpp(bare.value()).error().message,
            "bare.cfb: a compound file (the container of Microsoft Project .mpp and Office 97-2003 files) without the "
            "\"\\u0001CompObj\" stream that names its format; not a plan ptmpl reads");
  std::string cut = comp_obj("Microsoft.Project 16.0", "MSProject.MPP14");
  cut.resize(40);
  auto truncated =
      open_bytes(builder.build({CfbNode::stream("\x01"
                                                "CompObj",
                                                cut)}));
  ASSERT_TRUE(truncated.ok());
  EXPECT_EQ(detail::identify_mpp(truncated.value()).error().message,
            "t.cfb: the compound file's \"\\u0001CompObj\" stream (40 bytes) is cut off in its user type");
  auto project =
      open_bytes(builder.build({CfbNode::stream("\x01"
                                                "CompObj",
                                                comp_obj("Microsoft.Project 16.0", "MSProject.MPP14"))}));
  ASSERT_TRUE(project.ok());
  auto format = detail::identify_mpp(project.value());
  ASSERT_TRUE(format.ok()) << format.error().message;
  EXPECT_EQ(detail::describe(format.value()), "Microsoft Project .mpp (MPP14, written by Microsoft.Project 16.0)");
}

// --- the shared corpus, when present ---------------------------------------------------------

// Every .mpp of ../shared/corpus/mpp opens, and every stream in it reads, or is refused with a
// message naming the file; none crashes or hangs (the test completes).
TEST(CfbSweep, EveryFileOfTheSharedCorpusOpensOrIsRefusedWithAReason) {
  namespace fs = std::filesystem;
  const fs::path folder = testing::shared_folder("corpus/mpp");
  if (folder.empty()) GTEST_SKIP() << "no ../shared/corpus/mpp beside the repository";
  std::size_t opened = 0;
  std::size_t refused = 0;
  std::size_t mpp = 0;
  for (const auto& item : fs::directory_iterator(folder)) {
    if (item.path().extension() != ".mpp") continue;
    const std::string path = item.path().string();
    auto file = CompoundFile::read(path);
    if (!file.ok()) {
      ++refused;
      EXPECT_TRUE(file.error().message.starts_with(path + ": ")) << file.error().message;
      continue;
    }
    ++opened;
    for (std::size_t i = 0; i < file.value().entry_count(); ++i) {
      const cfb::Entry& e = file.value().entry(static_cast<std::uint32_t>(i));
      if (e.is_storage()) continue;
      auto bytes = file.value().read_stream(e);
      if (bytes.ok()) {
        EXPECT_EQ(bytes.value().size(), e.size);
      } else {
        EXPECT_TRUE(bytes.error().message.starts_with(path + ": ")) << bytes.error().message;
        ADD_FAILURE() << bytes.error().message;  // none of the corpus's files is broken
      }
    }
    if (detail::identify_mpp(file.value()).ok()) ++mpp;
  }
  EXPECT_GT(opened, 400u);
  EXPECT_EQ(refused, 0u);
  EXPECT_EQ(mpp, opened);
}

}  // namespace
}  // namespace ptmpl
