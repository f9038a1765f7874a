// Microsoft Project .mpp → template document (mpp.hpp).
//
// What is read today: MPP14 files (Project 2010 and later), their tasks and links. The tasks
// and links are written as an MS Project XML (MSPDI) document in memory, which the MSPDI reader
// converts: the template, its dates and durations and its findings are those of the MSPDI path
// (one builder of stories, one place that turns dates into working days). Findings point at the
// .mpp file as a whole: the places the MSPDI reader computes are in the in-memory document.
//
// Not read yet (refused, exit 2): MPP8, MPP9 and MPP12 files and password-protected files. Not
// read yet from MPP14: the calendars (the standard calendar, Monday to Friday 08:00–17:00, is
// used and reported as mpp-calendar), costs, work, notes, constraints, resources and
// assignments.
//
// Layout facts (verified on the MPP14 files of the shared corpus): a table's FixedMeta is a
// 16-byte header and items of a fixed size (47 bytes for tasks, 10 for links), whose +4 is the
// offset of the item's record in FixedData; a record runs to the next record's offset. Task
// fields are located through the field map in the project's Props (28-byte entries: offset at
// +4, field id at +12, category at +20); offsets that start again lower are in the second block
// (Fixed2Data). Var data (names) is indexed by VarMeta (24-byte header, 12-byte entries: uid,
// offset, key). Dates are 6-second units then days from 1983-12-31; durations are tenths of a
// minute with a units code that MSPDI's DurationFormat shares.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include <pugixml.hpp>

#include "convert/findings.hpp"
#include "convert/mpp.hpp"
#include "libtemplate/convert.hpp"
#include "libtemplate/diagnostic.hpp"
#include "libtemplate/json.hpp"

namespace ptmpl {

namespace detail {

namespace {

// Props keys of the project's properties and of the task field map.
constexpr std::int32_t kStartDateKey = 37748738;
constexpr std::int32_t kMinutesPerDayKey = 37748765;
constexpr std::int32_t kMinutesPerWeekKey = 37748766;
constexpr std::int32_t kDaysPerMonthKey = 37753743;
constexpr std::int32_t kTaskFieldMapKeys[] = {131092, 50331668};
constexpr std::int32_t kPasswordFlagKey = 893386752;

// Task field ids (the low 16 bits of a field map entry's id; tasks carry 0x0B40 above them).
constexpr std::uint32_t kTaskFieldClass = 0x0B400000;
enum TaskFieldId : std::uint32_t {
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

constexpr std::size_t kTaskMetaSize = 47;
constexpr std::size_t kLinkMetaSize = 10;
constexpr std::size_t kLinkRecordSize = 20;
constexpr std::uint8_t kDeletedFlag = 0x02;

std::uint32_t u32(std::string_view b, std::size_t at) {
  std::uint32_t v = 0;
  std::memcpy(&v, b.data() + at, 4);
  return v;  // little-endian hosts only, like the rest of the readers of binary input
}
std::uint16_t u16(std::string_view b, std::size_t at) {
  std::uint16_t v = 0;
  std::memcpy(&v, b.data() + at, 2);
  return v;
}

// Props: a 16-byte header, then entries (int32 size, int32 key, int32 unused, the bytes, a pad
// byte after an odd size) until the stream ends. The header's count is not trusted: the entries
// are read while they fit.
std::map<std::int32_t, std::string_view> read_props(std::string_view b) {
  std::map<std::int32_t, std::string_view> out;
  std::size_t at = 16;
  while (at + 12 <= b.size()) {
    const auto size = static_cast<std::int32_t>(u32(b, at));
    const auto key = static_cast<std::int32_t>(u32(b, at + 4));
    at += 12;
    if (size < 1 || static_cast<std::size_t>(size) > b.size() - at) break;
    out.emplace(key, b.substr(at, static_cast<std::size_t>(size)));
    at += static_cast<std::size_t>(size) + (size % 2);
  }
  return out;
}

// Where a field lives: in block 0 (FixedData) or 1 (Fixed2Data) at an offset, or in var data.
struct FieldPlace {
  int block = -1;  // -1: not in fixed data
  std::size_t offset = 0;
  std::uint16_t var_key = 0;
  bool in_var = false;
};

std::unordered_map<std::uint32_t, FieldPlace> read_field_map(std::string_view b) {
  std::unordered_map<std::uint32_t, FieldPlace> out;
  std::uint16_t last = 0;
  int block = 0;
  for (std::size_t at = 0; at + 28 <= b.size(); at += 28) {
    const std::uint16_t offset = u16(b, at + 4);
    const std::uint32_t id = u32(b, at + 12);
    const std::uint16_t category = u16(b, at + 20);
    FieldPlace place;
    if (category == 0x0B || category == 0x64) {
      // A bit in the meta data: not located through the map.
    } else if (offset != 0xFFFF) {
      if (offset < last) ++block;
      last = offset;
      place.block = block;
      place.offset = offset;
    } else {
      place.in_var = true;
      place.var_key = static_cast<std::uint16_t>(id & 0xFFFF);
    }
    out.emplace(id, place);
  }
  return out;
}

// One item of a FixedMeta and its record in FixedData (empty when the offset is outside).
struct Row {
  std::string_view meta;
  std::string_view data;
};

// Items of `item_size` bytes after a 16-byte header; their count is what the stream's size
// holds. A record runs from its offset to the next higher offset of any item (or the end).
std::vector<Row> read_rows(std::string_view meta, std::string_view data, std::size_t item_size) {
  std::vector<Row> rows;
  if (meta.size() < 16) return rows;
  const std::size_t count = (meta.size() - 16) / item_size;
  std::vector<std::uint32_t> offsets;
  offsets.reserve(count);
  for (std::size_t i = 0; i < count; ++i) offsets.push_back(u32(meta, 16 + i * item_size + 4));
  std::vector<std::uint32_t> sorted = offsets;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  rows.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    Row row;
    row.meta = meta.substr(16 + i * item_size, item_size);
    const std::uint32_t from = offsets[i];
    if (from < data.size()) {
      auto next = std::upper_bound(sorted.begin(), sorted.end(), from);
      const std::size_t to = next == sorted.end() ? data.size() : std::min<std::size_t>(*next, data.size());
      row.data = data.substr(from, to - from);
    }
    rows.push_back(row);
  }
  return rows;
}

// Fixed2Meta's item size is one of 92–96 bytes in MPP14: the one that divides the stream.
std::size_t fixed2_item_size(std::string_view meta) {
  if (meta.size() < 16) return 0;
  for (std::size_t size : {92, 93, 94, 95, 96})
    if ((meta.size() - 16) % size == 0) return size;
  return 0;
}

// Var data: (uid, key) → the item's bytes.
std::map<std::pair<std::int32_t, std::uint16_t>, std::string_view> read_var_data(std::string_view meta,
                                                                                 std::string_view data) {
  std::map<std::pair<std::int32_t, std::uint16_t>, std::string_view> out;
  for (std::size_t at = 24; at + 12 <= meta.size(); at += 12) {
    const auto uid = static_cast<std::int32_t>(u32(meta, at));
    const std::uint32_t offset = u32(meta, at + 4);
    const std::uint16_t key = u16(meta, at + 8);
    if (offset > data.size() || data.size() - offset < 4) continue;
    const std::uint32_t length = u32(data, offset);
    if (length > data.size() - offset - 4) continue;
    out.emplace(std::pair{uid, key}, data.substr(offset + 4, length));
  }
  return out;
}

// UTF-16LE → UTF-8, up to the first NUL; an unpaired surrogate becomes U+FFFD, and control
// characters (which XML cannot hold) become spaces.
std::string utf16_text(std::string_view b) {
  std::string out;
  auto put = [&](std::uint32_t c) {
    if (c < 0x20 && c != '\t' && c != '\n') c = ' ';
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  };
  for (std::size_t i = 0; i + 1 < b.size(); i += 2) {
    std::uint32_t c = u16(b, i);
    if (c == 0) break;
    if (c >= 0xD800 && c < 0xDC00 && i + 3 < b.size()) {
      const std::uint32_t low = u16(b, i + 2);
      if (low >= 0xDC00 && low < 0xE000) {
        put(0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00));
        i += 2;
        continue;
      }
    }
    if (c >= 0xD800 && c < 0xE000) c = 0xFFFD;
    if (c == 0xFFFE || c == 0xFFFF) c = 0xFFFD;
    put(c);
  }
  return out;
}

// A date: uint16 time in 6-second units, then uint16 days from 1983-12-31; "none" as 0, 1 or
// 65535 days. Written as MSPDI writes one: yyyy-mm-ddThh:mm:ss.
std::optional<std::string> read_date(std::string_view b, std::size_t at) {
  if (at > b.size() || b.size() - at < 4) return std::nullopt;
  const std::uint32_t time = u16(b, at);
  const std::uint32_t days = u16(b, at + 2);
  if (days == 0 || days == 1 || days == 65535) return std::nullopt;
  const std::chrono::sys_days date = std::chrono::sys_days(std::chrono::year{1983} / 12 / 31) + std::chrono::days{days};
  const std::chrono::year_month_day ymd{date};
  const std::uint32_t seconds = std::min<std::uint32_t>(time * 6, 24 * 3600 - 1);
  char text[32];
  std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02u:%02u:%02u", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()), seconds / 3600,
                (seconds / 60) % 60, seconds % 60);
  return std::string(text);
}

// Tenths of a minute as an MSPDI duration: PT#H#M#S.
std::string duration_text(std::int64_t tenths) {
  const bool negative = tenths < 0;
  const std::int64_t magnitude = negative ? -tenths : tenths;
  const std::int64_t seconds = magnitude * 6;
  return std::string(negative ? "-" : "") + "PT" + std::to_string(seconds / 3600) + "H" +
         std::to_string((seconds / 60) % 60) + "M" + std::to_string(seconds % 60) + "S";
}

// A units code → MSPDI's DurationFormat / LagFormat (the same codes: 3 m, 5 h, 7 d, 9 w, 11 mo,
// the next even code elapsed, 19/20 percent; 0x20 estimated); 21, the project default, and
// codes ptmpl does not know become days.
std::int64_t mspdi_format(std::uint16_t units) {
  const int base = units & 0x1F;
  if ((base >= 3 && base <= 12) || base == 19 || base == 20) return base;
  return 7;
}

struct MppTask {
  std::int32_t uid = 0;
  std::string name;
  std::int64_t level = 1;
  bool milestone = false;
  bool manual = false;
  std::int64_t duration_tenths = 0;
  std::uint16_t duration_units = 7;
  std::optional<std::string> start;
  std::optional<std::string> finish;
  std::uint64_t order = 0;  // the 8-byte key at Fixed2Data+16
  std::size_t row = 0;
};

struct MppLink {
  std::int32_t predecessor = 0;
  std::int32_t successor = 0;
  std::int64_t type = 1;
  std::int32_t lag_tenths = 0;
  std::uint16_t lag_units = 7;
};

class MppReader {
 public:
  MppReader(const cfb::CompoundFile& file, const MppFormat& format, const std::string& path)
      : file_(file), format_(format), path_(path) {}

  Result<std::string> run();  // the MSPDI document

 private:
  Result<std::string> stream(std::initializer_list<std::string_view> at) const;
  Status read_project();
  Status read_tasks();
  Status read_links();
  std::string write_mspdi() const;
  [[nodiscard]] bool written_by_2013_or_later() const;

  const cfb::CompoundFile& file_;
  const MppFormat& format_;
  const std::string& path_;
  std::string props_bytes_;
  std::map<std::int32_t, std::string_view> props_;
  std::unordered_map<std::uint32_t, FieldPlace> fields_;
  double minutes_per_day_ = 480;
  double minutes_per_week_ = 2400;
  double days_per_month_ = 20;
  std::optional<std::string> project_start_;
  std::string title_;
  std::vector<MppTask> tasks_;
  std::vector<MppLink> links_;
};

Result<std::string> MppReader::stream(std::initializer_list<std::string_view> at) const {
  Result<std::string> bytes = file_.read_stream(at);
  if (!bytes.ok() && bytes.error().code == ErrorCode::kNotFound) {
    std::string where;
    for (std::string_view step : at) where += (where.empty() ? "" : "/") + json::quoted(std::string(step));
    return Error::invalid(path_ + ": " + describe(format_) + " without the stream " + where +
                          " that every such file has; it is damaged or not written by Microsoft Project");
  }
  return bytes;
}

// "Microsoft.Project 15.0" and later: Project 2013 moved the milestone bit, the manual bit and
// the link lag.
bool MppReader::written_by_2013_or_later() const {
  const std::string& app = format_.application;
  const std::size_t space = app.rfind(' ');
  if (space == std::string::npos) return true;
  return std::atoi(app.c_str() + space + 1) >= 15;
}

Status MppReader::read_project() {
  // Password-protected files keep their tables XORed: refused, naming why.
  if (Result<std::string> root_props = file_.read_stream({"Props14"}); root_props.ok()) {
    const auto root = read_props(root_props.value());
    if (auto flag = root.find(kPasswordFlagKey); flag != root.end() && !flag->second.empty() && (flag->second[0] & 1))
      return Error::invalid(path_ + ": " + describe(format_) +
                            " is protected by a password; reading protected .mpp files is not built yet");
  }
  Result<std::string> props = stream({"   114", "Props"});
  if (!props.ok()) return props.error();
  props_bytes_ = std::move(props).value();
  props_ = read_props(props_bytes_);
  auto number = [&](std::int32_t key, double& into, std::size_t size) {
    auto it = props_.find(key);
    if (it == props_.end() || it->second.size() < size) return;
    const double value = size == 4 ? static_cast<double>(u32(it->second, 0)) : static_cast<double>(u16(it->second, 0));
    if (value > 0) into = value;
  };
  if (auto it = props_.find(kStartDateKey); it != props_.end()) project_start_ = read_date(it->second, 0);
  number(kMinutesPerDayKey, minutes_per_day_, 4);
  number(kMinutesPerWeekKey, minutes_per_week_, 4);
  number(kDaysPerMonthKey, days_per_month_, 2);
  for (std::int32_t key : kTaskFieldMapKeys) {
    if (auto it = props_.find(key); it != props_.end()) {
      fields_ = read_field_map(it->second);
      break;
    }
  }
  if (fields_.empty())
    return Error::invalid(path_ + ": " + describe(format_) +
                          " without the task field map in its project properties; reading it is not built yet");
  return Done{};
}

Status MppReader::read_tasks() {
  Result<std::string> meta = stream({"   114", "TBkndTask", "FixedMeta"});
  if (!meta.ok()) return meta.error();
  Result<std::string> data = stream({"   114", "TBkndTask", "FixedData"});
  if (!data.ok()) return data.error();
  Result<std::string> meta2 = stream({"   114", "TBkndTask", "Fixed2Meta"});
  if (!meta2.ok()) return meta2.error();
  Result<std::string> data2 = stream({"   114", "TBkndTask", "Fixed2Data"});
  if (!data2.ok()) return data2.error();
  Result<std::string> var_meta = stream({"   114", "TBkndTask", "VarMeta"});
  if (!var_meta.ok()) return var_meta.error();
  Result<std::string> var_data = stream({"   114", "TBkndTask", "Var2Data"});
  if (!var_data.ok()) return var_data.error();

  const std::vector<Row> rows = read_rows(meta.value(), data.value(), kTaskMetaSize);
  const std::size_t size2 = fixed2_item_size(meta2.value());
  const std::vector<Row> rows2 = size2 ? read_rows(meta2.value(), data2.value(), size2) : std::vector<Row>{};
  const auto var = read_var_data(var_meta.value(), var_data.value());
  const bool late_layout = written_by_2013_or_later();

  auto place = [&](std::uint32_t id) -> const FieldPlace* {
    auto it = fields_.find(kTaskFieldClass | id);
    return it == fields_.end() ? nullptr : &it->second;
  };
  auto block = [&](const FieldPlace& p, std::size_t row) -> std::string_view {
    if (p.block == 0) return rows[row].data;
    if (p.block == 1 && row < rows2.size()) return rows2[row].data;
    return {};
  };
  auto integer = [&](std::uint32_t id, std::size_t row, std::size_t width) -> std::optional<std::int64_t> {
    const FieldPlace* p = place(id);
    if (!p || p->block < 0) return std::nullopt;
    const std::string_view b = block(*p, row);
    if (p->offset > b.size() || b.size() - p->offset < width) return std::nullopt;
    return width == 4 ? static_cast<std::int64_t>(static_cast<std::int32_t>(u32(b, p->offset)))
                      : static_cast<std::int64_t>(static_cast<std::int16_t>(u16(b, p->offset)));
  };
  auto date = [&](std::uint32_t id, std::size_t row) -> std::optional<std::string> {
    const FieldPlace* p = place(id);
    if (!p || p->block < 0) return std::nullopt;
    return read_date(block(*p, row), p->offset);
  };

  std::unordered_set<std::int32_t> seen;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    // Deleted rows, and records too short to hold a task (blank rows).
    if ((static_cast<std::uint8_t>(row.meta[0]) & kDeletedFlag) != 0 || row.data.size() <= 16) continue;
    const std::optional<std::int64_t> uid = integer(kUid, i, 4);
    if (!uid) continue;
    MppTask task;
    task.uid = static_cast<std::int32_t>(*uid);
    task.row = i;
    if (const FieldPlace* p = place(kName); p && p->in_var)
      if (auto it = var.find({task.uid, p->var_key}); it != var.end()) task.name = utf16_text(it->second);
    if (task.uid == 0) {  // the project summary task: its name and start are the project's
      title_ = task.name;
      if (!project_start_) project_start_ = date(kStart, i);
      continue;
    }
    // Null rows (no name and no dates) and repeated UIDs are not tasks of the plan.
    if (task.name.empty() && !date(kStart, i) && !date(kTaskStart, i)) continue;
    if (!seen.insert(task.uid).second) continue;
    task.level = integer(kOutlineLevel, i, 2).value_or(1);
    const std::string_view meta_bits = row.meta;
    task.milestone = late_layout ? (static_cast<std::uint8_t>(meta_bits[10]) & 0x02) != 0
                                 : (static_cast<std::uint8_t>(meta_bits[8]) & 0x20) != 0;
    if (i < rows2.size() && rows2[i].meta.size() > 8)
      task.manual = (static_cast<std::uint8_t>(rows2[i].meta[8]) & (late_layout ? 0x80 : 0x08)) != 0;
    task.duration_units = static_cast<std::uint16_t>(integer(kDurationUnits, i, 2).value_or(7));
    // MPP14 keeps the scheduled dates and duration apart from a manual task's own.
    if (task.manual) {
      task.start = date(kTaskStart, i);
      task.finish = date(kTaskFinish, i);
      task.duration_tenths = integer(kManualDuration, i, 4).value_or(0);
    }
    if (!task.start) task.start = date(kStart, i);
    if (!task.finish) task.finish = date(kFinish, i);
    if (!task.manual) task.duration_tenths = integer(kDuration, i, 4).value_or(0);
    if (i < rows2.size() && rows2[i].data.size() >= 24) {
      std::memcpy(&task.order, rows2[i].data.data() + 16, 8);
    } else {
      task.order = std::numeric_limits<std::uint64_t>::max();
    }
    tasks_.push_back(std::move(task));
  }
  // The order of the rows on screen: the key is a positive double, whose bits sort as its value.
  std::stable_sort(tasks_.begin(), tasks_.end(), [](const MppTask& a, const MppTask& b) { return a.order < b.order; });
  return Done{};
}

Status MppReader::read_links() {
  Result<std::string> meta = file_.read_stream({"   114", "TBkndCons", "FixedMeta"});
  Result<std::string> data = file_.read_stream({"   114", "TBkndCons", "FixedData"});
  if (!meta.ok() || !data.ok()) {  // a plan without links may have no table
    const Error& error = meta.ok() ? data.error() : meta.error();
    if (error.code == ErrorCode::kNotFound) return Done{};
    return error;
  }
  const std::vector<Row> rows = read_rows(meta.value(), data.value(), kLinkMetaSize);
  const bool late_layout = written_by_2013_or_later();
  for (const Row& row : rows) {
    if ((static_cast<std::uint8_t>(row.meta[0]) & kDeletedFlag) != 0 || row.data.size() < kLinkRecordSize) continue;
    MppLink link;
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
    links_.push_back(link);
  }
  return Done{};
}

// The MSPDI document: the project's figures, a standard calendar, the tasks with the links into
// them.
std::string MppReader::write_mspdi() const {
  pugi::xml_document doc;
  pugi::xml_node project = doc.append_child("Project");
  project.append_attribute("xmlns") = "http://schemas.microsoft.com/project";
  auto text = [](pugi::xml_node parent, const char* name, const std::string& value) {
    parent.append_child(name).text().set(value.c_str());
  };
  if (!title_.empty()) text(project, "Title", title_);
  if (project_start_) text(project, "StartDate", *project_start_);
  text(project, "MinutesPerDay", std::to_string(static_cast<long long>(std::llround(minutes_per_day_))));
  text(project, "MinutesPerWeek", std::to_string(static_cast<long long>(std::llround(minutes_per_week_))));
  text(project, "DaysPerMonth", std::to_string(static_cast<long long>(std::llround(days_per_month_))));
  text(project, "CalendarUID", "1");
  pugi::xml_node calendar = project.append_child("Calendars").append_child("Calendar");
  text(calendar, "UID", "1");
  text(calendar, "Name", "Standard");
  text(calendar, "IsBaseCalendar", "1");
  pugi::xml_node week = calendar.append_child("WeekDays");
  for (int day = 1; day <= 7; ++day) {
    pugi::xml_node weekday = week.append_child("WeekDay");
    text(weekday, "DayType", std::to_string(day));
    const bool working = day >= 2 && day <= 6;
    text(weekday, "DayWorking", working ? "1" : "0");
    if (!working) continue;
    pugi::xml_node times = weekday.append_child("WorkingTimes");
    for (auto [from, to] : {std::pair{"08:00:00", "12:00:00"}, std::pair{"13:00:00", "17:00:00"}}) {
      pugi::xml_node time = times.append_child("WorkingTime");
      text(time, "FromTime", from);
      text(time, "ToTime", to);
    }
  }
  std::unordered_map<std::int32_t, std::vector<const MppLink*>> into;
  for (const MppLink& link : links_) into[link.successor].push_back(&link);
  pugi::xml_node tasks = project.append_child("Tasks");
  std::int64_t id = 1;
  for (const MppTask& task : tasks_) {
    pugi::xml_node node = tasks.append_child("Task");
    text(node, "UID", std::to_string(task.uid));
    text(node, "ID", std::to_string(id++));
    text(node, "Name", task.name);
    text(node, "OutlineLevel", std::to_string(task.level));
    text(node, "Manual", task.manual ? "1" : "0");
    text(node, "Milestone", task.milestone ? "1" : "0");
    if (task.start) text(node, "Start", *task.start);
    if (task.finish) text(node, "Finish", *task.finish);
    text(node, "Duration", duration_text(task.duration_tenths));
    text(node, "DurationFormat", std::to_string(mspdi_format(task.duration_units)));
    if (auto it = into.find(task.uid); it != into.end()) {
      for (const MppLink* link : it->second) {
        pugi::xml_node l = node.append_child("PredecessorLink");
        text(l, "PredecessorUID", std::to_string(link->predecessor));
        text(l, "Type", std::to_string(link->type));
        text(l, "LinkLag", std::to_string(link->lag_tenths));
        text(l, "LagFormat", std::to_string(mspdi_format(link->lag_units)));
      }
    }
  }
  std::ostringstream out;
  doc.save(out, "", pugi::format_raw | pugi::format_no_declaration, pugi::encoding_utf8);
  return out.str();
}

Result<std::string> MppReader::run() {
  if (Status s = read_project(); !s.ok()) return s.error();
  if (Status s = read_tasks(); !s.ok()) return s.error();
  if (Status s = read_links(); !s.ok()) return s.error();
  return write_mspdi();
}

}  // namespace

Result<Conversion> convert_mpp(std::string_view bytes, const std::string& path, const ConvertOptions& options) {
  Result<cfb::CompoundFile> file = cfb::CompoundFile::open(FileText::borrow(bytes), path);
  if (!file.ok()) return file.error();
  Result<MppFormat> format = identify_mpp(file.value());
  if (!format.ok()) return format.error();
  if (format.value().version != 14)
    return Error::invalid(path + ": " + describe(format.value()) +
                          ": reading this .mpp format is not built yet (ptmpl reads MPP14, written by Project 2010 "
                          "and later); save the plan from Microsoft Project as XML (MSPDI) and convert that");
  Result<std::string> mspdi = MppReader(file.value(), format.value(), path).run();
  if (!mspdi.ok()) return mspdi.error();
  Result<Conversion> converted = convert_mspdi(mspdi.value(), path, options);
  if (!converted.ok()) return converted.error();
  Conversion out = std::move(converted).value();
  // The MSPDI reader's places are lines of the in-memory document: the findings concern the
  // .mpp file, and name their task in the message.
  for (Diagnostic& d : out.diagnostics) {
    d.line = 0;
    d.column = 0;
    d.excerpt.clear();
    d.excerpt_column = 0;
  }
  Diagnostic calendar;
  const ConversionRule& rule = conversion_rule("mpp-calendar");
  calendar.rule = rule.id;
  calendar.severity = options.strict ? Severity::Error : rule.severity;
  calendar.path = path;
  calendar.message =
      "the plan's calendars are not read from .mpp files yet; its dates are counted on the standard calendar "
      "(Monday to Friday, 08:00-12:00 and 13:00-17:00)";
  out.diagnostics.insert(out.diagnostics.begin(), std::move(calendar));
  return out;
}

}  // namespace detail

}  // namespace ptmpl
