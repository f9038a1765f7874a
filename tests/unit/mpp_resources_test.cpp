// Resources and assignments of .mpp files (convert/mpp/resources.cpp): read from MPP9, MPP12
// and MPP14 files, they are the ones the files' MSPDI twins hold; an MPP14 file's template gets
// the twin's project_template_assignments and assignee_ids; broken tables are read without a
// crash or a read past their bytes.
#include <gtest/gtest.h>

#include <pugixml.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cfb_builder.hpp"
#include "convert/cfb/compound_file.hpp"
#include "convert/mpp/mpp.hpp"
#include "convert/mpp/plan.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/json.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

using testing::CfbBuilder;
using testing::CfbNode;

// Named resources as (UID, name, MSPDI type) and assignments as (UID, task UID, resource UID).
using Resources = std::set<std::tuple<long long, std::string, long long>>;
using Assignments = std::set<std::tuple<long long, long long, long long>>;

struct Read {
  Resources resources;
  Assignments assignments;
  std::string error;
};

// The file's resources and assignments, read directly (whatever formats convert_mpp reads).
Read read_mpp(const std::string& bytes, const std::string& path) {
  Read out;
  Result<detail::mpp::ReadPlan> read = detail::mpp::read_plan(bytes, path);
  if (!read.ok()) return {{}, {}, read.error().message};
  const detail::mpp::Plan& plan = read.value().plan;
  for (const auto& r : plan.resources)
    if (!r.name.empty()) out.resources.emplace(r.uid, r.name, r.type);
  for (const auto& a : plan.assignments) out.assignments.emplace(a.uid, a.task_uid, a.resource_uid);
  return out;
}

Read read_twin(const std::string& path) {
  Read out;
  pugi::xml_document doc;
  if (!doc.load_file(path.c_str())) return {{}, {}, "cannot parse " + path};
  const pugi::xml_node project = doc.child("Project");
  for (pugi::xml_node r : project.child("Resources").children("Resource"))
    if (!r.child("Name").text().empty())
      out.resources.emplace(r.child("UID").text().as_llong(), r.child_value("Name"), r.child("Type").text().as_llong());
  for (pugi::xml_node a : project.child("Assignments").children("Assignment"))
    out.assignments.emplace(a.child("UID").text().as_llong(), a.child("TaskUID").text().as_llong(),
                            a.child("ResourceUID").text().as_llong());
  return out;
}

constexpr const char* kPairs[][2] = {
    {"mpxj__assignment-assignments-project2016-mpp14.mpp", "mpxj__assignment-assignments-project2016-mspdi.xml"},
    {"mpxj__assignment-assignments-project2007-mpp12.mpp", "mpxj__assignment-assignments-project2007-mspdi.xml"},
    {"mpxj__assignment-assignments-project2003-mpp9.mpp", "mpxj__assignment-assignments-project2003-mspdi.xml"},
};

TEST(MppResources, EachFormatGivesTheResourcesAndAssignmentsOfItsTwin) {
  for (const auto& [mpp, twin] : kPairs) {
    SCOPED_TRACE(mpp);
    const std::string dir = testing::source_path("tests/data/mpp/corpus/");
    const Read got = read_mpp(testing::slurp(dir + mpp), mpp);
    ASSERT_EQ(got.error, "");
    const Read want = read_twin(dir + twin);
    ASSERT_EQ(want.error, "");
    EXPECT_FALSE(want.resources.empty());
    EXPECT_FALSE(want.assignments.empty());
    EXPECT_EQ(got.resources, want.resources);
    EXPECT_EQ(got.assignments, want.assignments);
  }
}

// The keys a template takes from resources: its assignee list and each story's assignee_ids.
std::string assignee_keys(const std::string& document) {
  std::string out;
  for (const std::string key : {"\"project_template_assignments\"", "\"assignee_id\""}) {
    for (std::size_t at = document.find(key); at != std::string::npos; at = document.find(key, at + 1))
      out += document.substr(at, document.find_first_of("]}", at) - at) + "\n";
  }
  return out;
}

TEST(MppResources, AnMpp14TemplateAssignsTheTwinsResources) {
  const std::string dir = testing::source_path("tests/data/mpp/corpus/");
  const auto& [mpp, twin] = kPairs[0];
  const std::string bytes = testing::slurp(dir + mpp);
  Result<Conversion> got = detail::convert_mpp(bytes, mpp, {});
  ASSERT_TRUE(got.ok()) << got.error().message;
  Result<Conversion> want = convert_mspdi(testing::slurp(dir + twin), twin, {});
  ASSERT_TRUE(want.ok()) << want.error().message;
  EXPECT_NE(assignee_keys(want.value().document).find("assignee_id"), std::string::npos);
  EXPECT_EQ(assignee_keys(got.value().document), assignee_keys(want.value().document));
}

// Every pair of the shared corpus: read directly, the twin's named resources and types; when the
// .mpp converts, the same assignee list and assignee_ids as the twin.
TEST(MppResources, TheSharedCorpusPairsThatConvertAgreeOnAssignees) {
  const std::filesystem::path folder = testing::shared_folder("corpus/mpp");
  if (folder.empty()) GTEST_SKIP() << "no shared corpus";
  int compared = 0;
  int read_directly = 0;
  for (const auto& [mpp, twin] : testing::mpp_pairs(folder / "pairs.tsv")) {
    const std::string bytes = testing::slurp((folder / mpp).string());
    // Read directly, whatever the format: the twin's named resources and their types.
    const Read read = read_mpp(bytes, mpp);
    if (read.error.empty()) {
      ++read_directly;
      EXPECT_EQ(read.resources, read_twin((folder / twin).string()).resources) << mpp;
    }
    Result<Conversion> got = detail::convert_mpp(bytes, mpp, {});
    if (!got.ok()) continue;  // a format or file not read yet
    Result<Conversion> want = convert_mspdi(testing::slurp((folder / twin).string()), twin, {});
    if (!want.ok()) continue;
    ++compared;
    EXPECT_EQ(assignee_keys(got.value().document), assignee_keys(want.value().document)) << mpp;
  }
  // Measured: every pair but the MPP8 one (not read) converts and is compared.
  EXPECT_EQ(compared, 220);
  EXPECT_EQ(read_directly, compared);
}

// The file's tree, to rebuild with some streams changed.
std::vector<CfbNode> tree(const cfb::CompoundFile& file, const cfb::Entry& storage) {
  std::vector<CfbNode> out;
  for (const cfb::Entry* e : file.children(storage)) {
    if (e->is_storage()) {
      out.push_back(CfbNode::folder(e->name, tree(file, *e)));
    } else {
      Result<std::string> bytes = file.read_stream(*e);
      out.push_back(CfbNode::stream(e->name, bytes.ok() ? bytes.value() : std::string()));
    }
  }
  return out;
}

CfbNode* find(std::vector<CfbNode>& nodes, std::initializer_list<std::string> path) {
  std::vector<CfbNode>* level = &nodes;
  CfbNode* found = nullptr;
  for (const std::string& step : path) {
    auto it = std::find_if(level->begin(), level->end(), [&](const CfbNode& n) { return n.name == step; });
    if (it == level->end()) return nullptr;
    found = &*it;
    level = &it->children;
  }
  return found;
}

// Cut, scrambled and pointing-outside tables: read without a crash (the sanitizer builds watch
// the bounds), each a file that still converts.
TEST(MppResources, BrokenTablesAreReadWithinTheirBytes) {
  const std::string bytes = testing::slurp(testing::source_path("tests/data/mpp/corpus/") + kPairs[0][0]);
  Result<cfb::CompoundFile> file = cfb::CompoundFile::open(FileText::borrow(bytes), "t.mpp");
  ASSERT_TRUE(file.ok());
  const std::vector<CfbNode> original = tree(file.value(), file.value().root());
  for (const std::string table : {"TBkndRsc", "TBkndAssn", "TBkndCal"}) {
    for (const std::string stream : {"FixedMeta", "FixedData", "VarMeta", "Var2Data"}) {
      for (int damage = 0; damage < 4; ++damage) {
        SCOPED_TRACE(table + "/" + stream + " damage " + std::to_string(damage));
        std::vector<CfbNode> nodes = original;
        CfbNode* node = find(nodes, {"   114", table, stream});
        if (node == nullptr) continue;
        std::string& data = node->data;
        if (damage == 0) data.resize(data.size() / 2);
        if (damage == 1) data.resize(std::min<std::size_t>(data.size(), 17));
        if (damage == 2)
          for (std::size_t i = 16; i < data.size(); i += 7) data[i] = static_cast<char>(0xFF);
        if (damage == 3) data.clear();
        const std::string broken = CfbBuilder().build(nodes);
        const Read read = read_mpp(broken, "t.mpp");
        EXPECT_EQ(read.error, "");
        Result<Conversion> converted = detail::convert_mpp(broken, "t.mpp", {});
        EXPECT_TRUE(converted.ok()) << converted.error().message;
      }
    }
  }
}

}  // namespace
}  // namespace ptmpl
