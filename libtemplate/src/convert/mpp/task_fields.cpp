// A task's notes, amounts, constraint, progress, deadline and flags (plan.hpp, read_task_fields).
//
// Field ids (without the task class) are the same in MPP9, MPP12 and MPP14 for everything read
// here; only the active flag differs: it is a bit of the Fixed2Meta item that MPP14 alone has
// (byte 8: 0x04 as Project 2010 writes it, 0x40 from Project 2013 on; set = active).
#include <cmath>

#include "convert/mpp/plan.hpp"
#include "convert/mpp/rtf.hpp"

namespace ptmpl::detail::mpp {

namespace {

enum TaskDetailField : std::uint32_t {
  kTaskWork = 0,  // double, thousandths of a minute
  kActualWork = 2,
  kCost = 5,  // double, hundredths of the currency unit
  kActualCost = 7,
  kNotes = 15,  // var data: 8-bit RTF
  kConstraintType = 17,
  kConstraintDate = 18,
  kActualDuration = 28,  // int32, tenths of a minute
  kPercentComplete = 32,
  kPercentWorkComplete = 33,
  kActualStart = 41,
  kActualFinish = 42,
  kDetailDurationUnits = 181,  // its 0x20 bit: the duration is estimated
  kCalendarUid = 401,
  kDeadline = 437,
};

constexpr std::uint8_t kEstimatedUnitsBit = 0x20;

// An amount within a thousandth of its unit of zero is rounding noise, which MS Project shows as
// zero; one that is not finite is no amount.
std::optional<double> amount(const Table& table, std::uint32_t id, std::size_t row) {
  const std::optional<double> value = table.real(id, row);
  if (!value || !std::isfinite(*value) || std::fabs(*value) < 1e-3) return std::nullopt;
  return value;
}

// Thousandths of a minute → tenths of a minute (MSPDI's durations are written from tenths).
std::optional<std::int64_t> work_tenths(const Table& table, std::uint32_t id, std::size_t row) {
  const std::optional<double> value = amount(table, id, row);
  if (!value || std::fabs(*value) > 9e18) return std::nullopt;
  return static_cast<std::int64_t>(std::llround(*value / 100.0));
}

std::string notes_text(std::string_view bytes) {
  bytes = bytes.substr(0, bytes.find('\0'));
  // An 8-bit RTF document; some writers store the note as plain text, read as RTF once its
  // braces and backslashes are escaped and its line breaks made paragraph marks.
  if (bytes.starts_with("{\\rtf")) return rtf_text(bytes);
  std::string escaped;
  for (char c : bytes) {
    if (c == '\\' || c == '{' || c == '}') escaped += '\\';
    escaped += c == '\n' ? std::string("\\par ") : std::string(1, c);
  }
  return rtf_text(escaped);
}

bool active_flag(const Table& table, std::size_t row, const Layout& layout) {
  if (layout.version != 14) return true;  // older formats have no inactive tasks
  const Row row2 = table.row2(row);
  if (row2.meta.size() <= 8) return true;
  return (u8(row2.meta, 8) & (layout.written_2013_or_later ? 0x40 : 0x04)) != 0;
}

// "Ignore resource calendars": a bit of the task's FixedMeta item, byte 10 & 0x02 (MPP9, MPP12,
// and MPP14 as Project 2010 writes it), byte 17 & 0x20 from Project 2013 on.
bool ignores_resource_calendars(const Table& table, std::size_t row, const Layout& layout) {
  const std::string_view meta = table.row(row).meta;
  const bool late = layout.version == 14 && layout.written_2013_or_later;
  const std::size_t at = late ? 17 : 10;
  return fits(meta, at, 1) && (u8(meta, at) & (late ? 0x20 : 0x02)) != 0;
}

}  // namespace

void read_task_fields(const Table& table, std::size_t row, const Layout& layout, Task& task) {
  if (const std::optional<std::string_view> notes = table.var(kNotes, task.uid)) task.notes = notes_text(*notes);
  task.cost = amount(table, kCost, row);
  task.actual_cost = amount(table, kActualCost, row);
  task.work_tenths = work_tenths(table, kTaskWork, row);
  task.actual_work_tenths = work_tenths(table, kActualWork, row);
  task.actual_duration_tenths = table.int32(kActualDuration, row);
  task.constraint_type = table.int16(kConstraintType, row).value_or(0);
  task.constraint_date = table.date(kConstraintDate, row);
  task.percent_complete = table.int16(kPercentComplete, row).value_or(0);
  task.percent_work_complete = table.int16(kPercentWorkComplete, row).value_or(0);
  task.actual_start = table.date(kActualStart, row);
  task.actual_finish = table.date(kActualFinish, row);
  task.deadline = table.date(kDeadline, row);
  task.calendar_uid = table.int32(kCalendarUid, row);
  task.ignore_resource_calendar = ignores_resource_calendars(table, row, layout);
  task.estimated = (table.int16(kDetailDurationUnits, row).value_or(0) & kEstimatedUnitsBit) != 0;
  task.active = active_flag(table, row, layout);
}

}  // namespace ptmpl::detail::mpp
