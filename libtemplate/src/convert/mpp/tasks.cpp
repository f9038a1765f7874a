// Tasks (TBkndTask) and links (TBkndCons) of a .mpp file (plan.hpp).
//
// Layout facts (verified on the MPP9, MPP12 and MPP14 files of the corpus): a task's FixedMeta
// item holds its flags (+0 & 0x02: deleted) and the milestone bit; MPP14's Fixed2Meta holds the
// manual bit; fields are located through the task field map, the same ids in every format.
// Rows are ordered by an 8-byte key at Fixed2Data+16 (MPP12, MPP14) or by ID (MPP9, which has
// no second block). A link record is 20 bytes in every format: predecessor UID at +4, successor
// UID at +8, the type at +12, then the lag and its units in an order that Project 2013 changed.
#include <algorithm>
#include <limits>
#include <unordered_set>

#include "convert/mpp/plan.hpp"

namespace ptmpl::detail::mpp {

namespace {

// Task field ids (without the task class, 0x0B400000).
enum TaskField : std::uint32_t {
  kUid = 86,
  kId = 23,
  kName = 14,
  kOutlineLevel = 249,
  kDuration = 29,  // scheduled (MPP14)
  kDurationUnits = 181,
  kStart = 35,  // scheduled (MPP14)
  kFinish = 36,
  kTaskStart = 1283,  // a manual task's own
  kTaskFinish = 1284,
  kManualDuration = 1288,
};
constexpr std::uint32_t kTaskFieldClass = 0x0B400000;
constexpr std::size_t kLinkRecordSize = 20;

// Fixed2Meta's item size is one of 92–96 bytes in MPP14: the one that divides the stream.
std::size_t fixed2_item_size(std::string_view meta) {
  if (meta.size() < 16) return 0;
  for (std::size_t size : {92, 93, 94, 95, 96})
    if ((meta.size() - 16) % size == 0) return size;
  return 0;
}

}  // namespace

Status read_tasks(Source& source, const Properties& properties, Plan& plan) {
  const Layout& layout = source.layout();
  std::string_view streams[6];
  const char* names[6] = {"FixedMeta", "FixedData", "Fixed2Meta", "Fixed2Data", "VarMeta", "Var2Data"};
  for (int i = 0; i < 6; ++i) {
    if ((i == 2 || i == 3) && !layout.second_block) continue;  // MPP9: no fields there
    auto bytes = source.stream({"TBkndTask", names[i]});
    if (!bytes.ok()) return bytes.error();
    streams[i] = *bytes.value();
  }
  const std::size_t size2 = !layout.second_block           ? 0
                            : layout.task_fixed2_size != 0 ? layout.task_fixed2_size
                                                           : fixed2_item_size(streams[2]);
  const Table table(read_rows(streams[0], streams[1], layout.task_meta_size),
                    size2 ? read_rows(streams[2], streams[3], size2) : std::vector<Row>{},
                    read_var_data(streams[4], streams[5], layout.var_entry_size), &properties.task_fields,
                    kTaskFieldClass);
  const bool late_layout = layout.written_2013_or_later;

  // From the last row to the fourth (the first three are no tasks): where a UID repeats, the
  // later row is the task.
  std::unordered_set<std::int32_t> seen;
  for (std::size_t i = table.size(); i-- > 3;) {
    // Deleted rows, and records too short to hold a task (blank rows).
    if (table.deleted(i) || table.row(i).data.size() <= layout.blank_task_size) continue;
    const std::optional<std::int64_t> uid = table.int32(kUid, i);
    if (!uid) continue;
    Task task;
    task.uid = static_cast<std::int32_t>(*uid);
    task.row = static_cast<std::uint32_t>(i);
    task.name = table.text(kName, task.uid);
    if (task.uid == 0) {  // the project summary task: its name and start are the project's
      plan.project.title = task.name;
      if (!plan.project.start) plan.project.start = table.date(kStart, i);
      continue;
    }
    // Null rows (no name and no dates) and repeated UIDs are not tasks of the plan.
    if (task.name.empty() && !table.date(kStart, i) && !table.date(kTaskStart, i)) continue;
    if (!seen.insert(task.uid).second) continue;
    task.level = table.int16(kOutlineLevel, i).value_or(1);
    const std::string_view meta = table.row(i).meta;
    task.milestone = late_layout ? (u8(meta, 10) & 0x02) != 0 : (u8(meta, 8) & 0x20) != 0;
    if (const Row row2 = table.row2(i); layout.manual_scheduling && row2.meta.size() > 8)
      task.manual = (u8(row2.meta, 8) & (late_layout ? 0x80 : 0x08)) != 0;
    task.duration_units = static_cast<std::uint16_t>(table.int16(kDurationUnits, i).value_or(7));
    // MPP14 keeps the scheduled dates and duration apart from a manual task's own.
    if (task.manual) {
      task.start = table.date(kTaskStart, i);
      task.finish = table.date(kTaskFinish, i);
      task.duration_tenths = table.int32(kManualDuration, i).value_or(0);
    }
    if (!task.start) task.start = table.date(kStart, i);
    if (!task.finish) task.finish = table.date(kFinish, i);
    if (!task.manual) task.duration_tenths = table.int32(kDuration, i).value_or(0);
    if (layout.order_by_id) {
      task.order = static_cast<std::uint32_t>(table.int32(kId, i).value_or(std::numeric_limits<std::int32_t>::max()));
    } else if (const Row row2 = table.row2(i); row2.data.size() >= 24) {
      std::memcpy(&task.order, row2.data.data() + 16, 8);
    } else {
      task.order = std::numeric_limits<std::uint64_t>::max();
    }
    read_task_fields(table, i, layout, task);
    plan.tasks.push_back(std::move(task));
  }
  // The order of the rows on screen: the ID, or a key that is a positive double, whose bits
  // sort as its value.
  std::stable_sort(plan.tasks.begin(), plan.tasks.end(),
                   [](const Task& a, const Task& b) { return a.order < b.order; });
  return Done{};
}

Status read_links(Source& source, Plan& plan) {
  auto meta = source.stream({"TBkndCons", "FixedMeta"}, true);
  if (!meta.ok()) return meta.error();
  auto data = source.stream({"TBkndCons", "FixedData"}, true);
  if (!data.ok()) return data.error();
  if (!meta.value() || !data.value()) return Done{};  // a plan without links may have no table
  const std::vector<Row> rows = read_rows(*meta.value(), *data.value(), source.layout().link_meta_size);
  const bool late_layout = source.layout().written_2013_or_later;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    if ((u8(row.meta, 0) & 0x02) != 0 || row.data.size() < kLinkRecordSize) continue;
    Link link;
    link.row = static_cast<std::uint32_t>(i);
    link.predecessor = static_cast<std::int32_t>(u32(row.data, 4));
    link.successor = static_cast<std::int32_t>(u32(row.data, 8));
    link.type = u16(row.data, 12);
    if (late_layout) {
      link.lag_tenths = static_cast<std::int32_t>(u32(row.data, 14));
      link.lag_units = u16(row.data, 18);
    } else {
      link.lag_units = u16(row.data, 14);
      link.lag_tenths = static_cast<std::int32_t>(u32(row.data, 16));
    }
    if (link.predecessor == 0 || link.successor == 0 || link.predecessor == link.successor) continue;
    plan.links.push_back(link);
  }
  return Done{};
}

}  // namespace ptmpl::detail::mpp
