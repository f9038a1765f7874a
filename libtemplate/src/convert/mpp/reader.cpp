// Microsoft Project .mpp → template document (mpp.hpp).
//
// The reader takes the plan out of the file's tables into a Plan (plan.hpp: the project's
// properties here, tasks and links in tasks.cpp), writes it as an MS Project XML (MSPDI)
// document in memory (mspdi_out.cpp), and the MSPDI reader converts that: the template, its
// dates and durations and its findings are those of the MSPDI path. Findings point at the .mpp
// file as a whole: the places the MSPDI reader computes are in the in-memory document.
//
// What is read: MPP9 (Project 2000-2003), MPP12 (Project 2007) and MPP14 (Project 2010 and
// later) files, MPP9 files protected by a password included: the project's properties, tasks
// with their fields (task_fields.cpp), links, calendars (calendars.cpp; a file whose calendars
// cannot be read is converted on the standard calendar and reported as mpp-calendar),
// resources and assignments (resources.cpp). Refused (exit 2): MPP8 (Project 98) files, and
// MPP12/MPP14 files with a read password.
#include <span>

#include "convert/findings.hpp"
#include "convert/mpp/mpp.hpp"
#include "convert/mpp/plan.hpp"
#include "convert/plan/builder.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/diagnostic.hpp"

namespace ptmpl {

namespace detail {

namespace mpp {

namespace {

// Props keys of the project's properties and of the task field map.
constexpr std::int32_t kStartDateKey = 37748738;
constexpr std::int32_t kMinutesPerDayKey = 37748765;
constexpr std::int32_t kMinutesPerWeekKey = 37748766;
constexpr std::int32_t kDaysPerMonthKey = 37753743;
constexpr std::int32_t kCurrencyCodeKey = 37753787;    // UTF-16, MPP12 and later
constexpr std::int32_t kNewTasksManualKey = 37753800;  // MPP14; a 16-bit flag
constexpr std::int32_t kTaskFieldMapKeys[] = {131092, 50331668};
constexpr std::int32_t kResourceFieldMapKeys[] = {131093, 50331669};
constexpr std::int32_t kAssignmentFieldMapKeys[] = {131095, 50331671};

}  // namespace

Result<Properties> read_properties(Source& source, Project& project) {
  auto bytes = source.stream({"Props"});
  if (!bytes.ok()) return bytes.error();
  Properties out;
  out.props = read_props(*bytes.value());
  auto number = [&](std::int32_t key, double& into, std::size_t size) {
    auto it = out.props.find(key);
    if (it == out.props.end() || it->second.size() < size) return;
    const double value = size == 4 ? static_cast<double>(u32(it->second, 0)) : static_cast<double>(u16(it->second, 0));
    if (value > 0) into = value;
  };
  if (auto it = out.props.find(kStartDateKey); it != out.props.end()) project.start = read_date(it->second, 0);
  number(kMinutesPerDayKey, project.minutes_per_day, 4);
  if (auto it = out.props.find(kCurrencyCodeKey); it != out.props.end()) project.currency = utf16_text(it->second);
  number(kMinutesPerWeekKey, project.minutes_per_week, 4);
  if (auto it = out.props.find(kNewTasksManualKey);
      it != out.props.end() && it->second.size() >= 2 && source.layout().manual_scheduling)
    project.new_tasks_manual = u16(it->second, 0) != 0;
  number(kDaysPerMonthKey, project.days_per_month, 2);
  for (std::int32_t key : kTaskFieldMapKeys) {
    if (auto it = out.props.find(key); it != out.props.end()) {
      out.task_fields = read_field_map(it->second, source.layout().var_key_in_field_map);
      break;
    }
  }
  // The first of a table's keys that the Props hold names its map; a file without resources
  // may have none.
  auto field_map = [&](std::span<const std::int32_t> keys) {
    for (std::int32_t key : keys)
      if (auto it = out.props.find(key); it != out.props.end())
        return read_field_map(it->second, source.layout().var_key_in_field_map);
    return FieldMap{};
  };
  out.resource_fields = field_map(kResourceFieldMapKeys);
  out.assignment_fields = field_map(kAssignmentFieldMapKeys);
  if (out.task_fields.empty())
    return source.invalid("without the task field map in its project properties; reading it is not built yet");
  return out;
}

}  // namespace mpp

Result<std::string> CompoundFileStreams::read(std::span<const std::string_view> path) const {
  const cfb::Entry* entry = file_.find(path);
  if (entry == nullptr || entry->is_storage()) return Error::not_found(file_.path() + ": no such stream");
  return file_.read_stream(*entry);
}

Result<std::string> StreamMap::read(std::span<const std::string_view> path) const {
  std::string key;
  for (std::string_view step : path) key += (key.empty() ? "" : "/") + std::string(step);
  auto it = streams.find(key);
  if (it == streams.end()) return Error::not_found(key + ": no such stream");
  return it->second;
}

namespace {

Result<Conversion> convert_compound_file(const Result<cfb::CompoundFile>& file, const std::string& path,
                                         const ConvertOptions& options) {
  if (!file.ok()) return file.error();
  Result<MppFormat> format = identify_mpp(file.value());
  if (!format.ok()) return format.error();
  return convert_mpp_streams(CompoundFileStreams(file.value()), format.value(), path, options);
}

}  // namespace

Result<Conversion> convert_mpp(std::string_view bytes, const std::string& path, const ConvertOptions& options) {
  return convert_compound_file(cfb::CompoundFile::open(FileText::borrow(bytes), path), path, options);
}

Result<Conversion> convert_mpp(RandomAccessFile file, const std::string& path, const ConvertOptions& options) {
  return convert_compound_file(cfb::CompoundFile::open(std::move(file), path), path, options);
}

Result<mpp::ReadPlan> mpp::read_plan(const MppStreams& streams, const MppFormat& format, const std::string& path) {
  Result<Layout> layout = layout_of(format, path);
  if (!layout.ok()) return layout.error();
  if (Status s = read_protection(streams, format, layout.value(), path); !s.ok()) return s.error();
  Source source(streams, format, layout.value(), path);
  ReadPlan out;
  Plan& plan = out.plan;
  Result<Properties> properties = read_properties(source, plan.project);
  if (!properties.ok()) return properties.error();
  if (Status s = read_tasks(source, properties.value(), plan); !s.ok()) return s.error();
  if (Status s = read_links(source, plan); !s.ok()) return s.error();
  // A plan whose calendars cannot be read is still converted, on the standard calendar.
  if (Status s = read_calendars(source, properties.value(), plan); !s.ok()) {
    out.calendars_unread = s.error().message;
    plan.calendars.clear();
    plan.project.calendar_uid.reset();
  }
  if (Status s = read_resources(source, properties.value(), plan); !s.ok()) return s.error();
  return out;
}

Result<mpp::ReadPlan> mpp::read_plan(std::string_view bytes, const std::string& path) {
  Result<cfb::CompoundFile> file = cfb::CompoundFile::open(FileText::borrow(bytes), path);
  if (!file.ok()) return file.error();
  Result<MppFormat> format = identify_mpp(file.value());
  if (!format.ok()) return format.error();
  return read_plan(CompoundFileStreams(file.value()), format.value(), path);
}

Result<Conversion> convert_mpp_streams(const MppStreams& streams, const MppFormat& format, const std::string& path,
                                       const ConvertOptions& options) {
  Result<mpp::ReadPlan> read = mpp::read_plan(streams, format, path);
  if (!read.ok()) return read.error();
  const mpp::Plan& tables = read.value().plan;
  const std::optional<std::string>& calendars_unread = read.value().calendars_unread;
  const plan::Plan plan = mpp::to_plan(tables);
  FindingSink findings("", path, options);
  Result<Conversion> converted = plan::build_template(plan, path, findings, 256 * plan.tasks.size() + 4096);
  if (!converted.ok()) return converted.error();
  Conversion out = std::move(converted).value();
  out.diagnostics = findings.take();
  if (calendars_unread) {
    Diagnostic calendar;
    const ConversionRule& rule = conversion_rule("mpp-calendar");
    calendar.rule = rule.id;
    calendar.severity = conversion_severity(rule, options.strict, options.allow);
    calendar.path = path;
    calendar.message = "the plan's calendars cannot be read (" + *calendars_unread +
                       "); its dates are counted on the standard calendar (Monday to Friday, 08:00-12:00 and "
                       "13:00-17:00)";
    out.diagnostics.insert(out.diagnostics.begin(), std::move(calendar));
  }
  return out;
}

}  // namespace detail

}  // namespace ptmpl
