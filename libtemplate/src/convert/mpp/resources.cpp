// Resources (TBkndRsc) and assignments (TBkndAssn) of a .mpp file (plan.hpp).
//
// Layout facts (verified on the MPP9, MPP12 and MPP14 files of the corpus against their MSPDI
// twins): both tables are located through their field maps in the project Props, resources
// with the class 0x0C400000 and assignments with 0x0F400000. A resource's FixedMeta item is 37
// bytes, an assignment's 34, in every format; item +0 holds the flags (0x02: deleted). Blank
// resource rows are records too short for the fields the map places in them. Units are kept as
// hundredths of a percent (10000 = 100 %), work in thousandths of a minute. A resource's own
// calendar is the one the calendar table names for it (calendars.cpp, read before this).
#include <algorithm>
#include <cmath>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "convert/mpp/plan.hpp"

namespace ptmpl::detail::mpp {

namespace {

constexpr std::uint32_t kResourceFieldClass = 0x0C400000;
constexpr std::uint32_t kAssignmentFieldClass = 0x0F400000;
// MPP14: a resource's Fixed2Meta item, whose byte 8 & 0x10 marks a cost resource.
constexpr std::size_t kResourceMeta2Size = 50;

// Resource field ids (without the class).
enum ResourceField : std::uint32_t {
  kResourceId = 0,
  kResourceName = 1,
  kInitials = 2,
  kMaxUnits = 4,
  kStandardRate = 6,
  kOvertimeRate = 7,
  kCostPerUse = 18,
  kResourceUid = 27,
  kEmail = 35,
  kWorkGroup = 272,  // 0 for a work resource
};

// Assignment field ids (without the class).
enum AssignmentField : std::uint32_t {
  kAssignmentUid = 0,
  kTaskUid = 1,
  kAssignedResourceUid = 2,
  kUnits = 7,
  kAssignmentWork = 8,
  kAssignmentStart = 20,
  kAssignmentFinish = 21,
  kAssignmentCost = 26,
  kTimephasedWork = 49,        // var data: the work still to do, period by period
  kTimephasedActualWork = 50,  // var data: the work done
};

// Units: hundredths of a percent; work: thousandths of a minute.
constexpr double kUnitsPerWhole = 10000;
constexpr double kWorkPerMinute = 1000;

// The end of the last field the map places in the first fixed block for `field_class`: a record
// shorter than that is a blank row, not one of the table's.
std::size_t first_block_end(const FieldMap& fields, std::uint32_t field_class) {
  std::size_t end = 0;
  for (const auto& [id, place] : fields)
    if ((id & 0xFFFF0000u) == field_class && place.block == 0) end = std::max(end, place.offset + 1);
  return end;
}

// The table's streams; absent (std::nullopt) when the file has no such table.
struct Streams {
  std::string_view meta, data, var_meta, var_data;
};
Result<std::optional<Streams>> table_streams(Source& source, std::string_view table) {
  std::optional<std::string_view> parts[4];
  const char* names[4] = {"FixedMeta", "FixedData", "VarMeta", "Var2Data"};
  for (int i = 0; i < 4; ++i) {
    auto bytes = source.stream({table, names[i]}, true);
    if (!bytes.ok()) return bytes.error();
    parts[i] = bytes.value();
    if (!parts[i]) return std::optional<Streams>();
  }
  return std::optional<Streams>(Streams{*parts[0], *parts[1], *parts[2], *parts[3]});
}

// The UIDs that have var data: MS Project keeps an entry there for every live assignment.
std::unordered_set<std::int32_t> uids_of(const VarData& var) {
  std::unordered_set<std::int32_t> out;
  for (const auto& [key, bytes] : var) out.insert(key.first);
  return out;
}

Status read_resource_table(Source& source, const Properties& properties, Plan& plan) {
  auto parts = table_streams(source, "TBkndRsc");
  if (!parts.ok()) return parts.error();
  if (!parts.value() || properties.resource_fields.empty()) return Done{};
  const Streams& s = *parts.value();
  const Table table(read_rows(s.meta, s.data, source.layout().resource_meta_size), {},
                    read_var_data(s.var_meta, s.var_data, source.layout().var_entry_size), &properties.resource_fields,
                    kResourceFieldClass);
  auto meta2 = source.stream({"TBkndRsc", "Fixed2Meta"}, true);
  if (!meta2.ok()) return meta2.error();
  const std::string_view flags2 = source.layout().version == 14 && meta2.value() ? *meta2.value() : std::string_view();
  // A resource's own calendar, as the calendar table names it (calendars.cpp read it first).
  std::unordered_map<std::int32_t, std::int32_t> calendars;
  for (const Calendar& c : plan.calendars)
    if (c.resource_uid) calendars.emplace(*c.resource_uid, c.uid);
  const std::size_t record_end = first_block_end(properties.resource_fields, kResourceFieldClass);

  std::unordered_set<std::int32_t> seen;
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (table.deleted(i) || table.row(i).data.size() < record_end) continue;
    const std::optional<std::int64_t> uid = table.int32(kResourceUid, i);
    if (!uid || *uid < 0 || !seen.insert(static_cast<std::int32_t>(*uid)).second) continue;
    Resource r;
    r.uid = static_cast<std::int32_t>(*uid);
    r.row = static_cast<std::uint32_t>(i);
    r.id = static_cast<std::int32_t>(table.int32(kResourceId, i).value_or(r.uid));
    r.name = table.text(kResourceName, r.uid);
    r.type = table.int16(kWorkGroup, i).value_or(0) == 0 ? 1 : 0;
    if (const std::size_t at = 16 + i * kResourceMeta2Size + 8; fits(flags2, at, 1))
      r.cost_resource = (u8(flags2, at) & 0x10) != 0;
    r.initials = table.text(kInitials, r.uid);
    r.email = table.text(kEmail, r.uid);
    auto finite = [](std::optional<double> v) { return v && std::isfinite(*v) ? v : std::nullopt; };
    if (auto units = finite(table.real(kMaxUnits, i))) r.max_units = *units / kUnitsPerWhole;
    r.standard_rate = finite(table.real(kStandardRate, i)).value_or(0);
    r.overtime_rate = finite(table.real(kOvertimeRate, i)).value_or(0);
    r.cost_per_use = finite(table.real(kCostPerUse, i)).value_or(0);
    if (auto it = calendars.find(r.uid); it != calendars.end()) r.calendar_uid = it->second;
    plan.resources.push_back(std::move(r));
  }
  std::sort(plan.resources.begin(), plan.resources.end(),
            [](const Resource& a, const Resource& b) { return a.uid < b.uid; });
  return Done{};
}

Status read_assignment_table(Source& source, const Properties& properties, Plan& plan) {
  auto parts = table_streams(source, "TBkndAssn");
  if (!parts.ok()) return parts.error();
  if (!parts.value() || properties.assignment_fields.empty()) return Done{};
  const Streams& s = *parts.value();
  VarData var = read_var_data(s.var_meta, s.var_data, source.layout().var_entry_size);
  const std::unordered_set<std::int32_t> live = uids_of(var);
  const Table table(read_rows(s.meta, s.data, source.layout().assignment_meta_size), {}, std::move(var),
                    &properties.assignment_fields, kAssignmentFieldClass);

  std::unordered_set<std::int32_t> seen;
  for (std::size_t i = 0; i < table.size(); ++i) {
    // Any flag in the item's first byte marks a row MS Project does not show (deleted ones
    // carry 0x02).
    const Row& row = table.row(i);
    if (row.meta.empty() || u8(row.meta, 0) != 0) continue;
    const auto uid = table.int32(kAssignmentUid, i);
    const auto task = table.int32(kTaskUid, i);
    const auto resource = table.int32(kAssignedResourceUid, i);
    if (!uid || !task || !resource) continue;
    Assignment a;
    a.uid = static_cast<std::int32_t>(*uid);
    a.row = static_cast<std::uint32_t>(i);
    if (live.count(a.uid) == 0 || !seen.insert(a.uid).second) continue;
    a.task_uid = static_cast<std::int32_t>(*task);
    a.resource_uid = static_cast<std::int32_t>(*resource);
    auto finite = [](std::optional<double> v) { return v && std::isfinite(*v) ? v : std::nullopt; };
    if (auto units = finite(table.real(kUnits, i))) a.units = *units / kUnitsPerWhole;
    if (auto work = finite(table.real(kAssignmentWork, i))) a.work_minutes = *work / kWorkPerMinute;
    a.cost = finite(table.real(kAssignmentCost, i));
    a.start = table.date(kAssignmentStart, i);
    a.finish = table.date(kAssignmentFinish, i);
    if (auto item = table.var(kTimephasedWork, a.uid)) a.planned_work = read_timephased_work(*item, true);
    if (auto item = table.var(kTimephasedActualWork, a.uid)) a.actual_work = read_timephased_work(*item, false);
    plan.assignments.push_back(std::move(a));
  }
  return Done{};
}

}  // namespace

// Timephased work: a 16-byte header whose uint16 at +0 counts the periods, a summary block (its
// double at +0: the assignment's work, in thousandths of a minute), then one block per period
// holding the work done since the assignment's start (a double, in thousandths of a minute, at
// +0) and the working time of the assignment's calendar elapsed since it (an int32, in 80ths of
// a minute): work still to do has 28-byte blocks, the time at +24; work done has 20-byte
// blocks, the time at +16, and its summary's int32 at +24 bounds the time. A flat assignment's
// item of work still to do counts no period (mpp*timephasedsegments: Task One, 40 hours).
std::vector<WorkPeriod> read_timephased_work(std::string_view item, bool planned, std::size_t limit) {
  std::vector<WorkPeriod> out;
  const std::size_t block = planned ? 28 : 20;
  const std::size_t time_at = planned ? 24 : 16;
  if (planned && fits(item, 0, 24) && u16(item, 0) == 0) {
    // A flat assignment: its total work, spread over its working time to its finish.
    const double total = f64(item, 16) / kWorkPerMinute;
    if (std::isfinite(total) && total > 0) out.push_back({total, 0, true});
    return out;
  }
  if (!fits(item, 0, 16 + block)) return out;
  const std::size_t count = std::min<std::size_t>({u16(item, 0), limit, (item.size() - 16 - block) / block});
  std::optional<std::int64_t> bound;
  if (!planned && fits(item, 24, 4)) bound = static_cast<std::int32_t>(u32(item, 24));
  double work = 0;
  double time = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t at = 16 + block * (i + 1);
    const double w = f64(item, at) / kWorkPerMinute;
    std::int64_t t80 = static_cast<std::int32_t>(u32(item, at + time_at));
    if (t80 < 0 || (bound && t80 > *bound)) t80 = 0;
    const double t = static_cast<double>(t80) / 80;
    if (!std::isfinite(w) || w < work - 1e-6 || t < time) break;
    out.push_back({w - work, t - time});
    work = w;
    time = t;
  }
  return out;
}

Status read_resources(Source& source, const Properties& properties, Plan& plan) {
  if (Status s = read_resource_table(source, properties, plan); !s.ok()) return s.error();
  return read_assignment_table(source, properties, plan);
}

}  // namespace ptmpl::detail::mpp
