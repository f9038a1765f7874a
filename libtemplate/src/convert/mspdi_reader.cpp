// Microsoft Project XML (MSPDI) → template document (SPEC §7).
//
// Tasks become stories in outline order (OutlineLevel; summary tasks become parents), with
// their task UID as temp_id. Start and Finish become working-day offsets through the project
// calendar: a start at or after the end of a working day (a milestone at 17:00) moves to the
// next working day, a finish at or before its beginning to the previous one — SPEC §4's
// half-open days. Links move from the successor (MSPDI) to the predecessor (template), with
// the type translated and the lag turned into working days.
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <unordered_map>

#include <pugixml.hpp>

#include "convert/day_counter.hpp"
#include "convert/findings.hpp"
#include "convert/mspdi_calendar.hpp"
#include "convert/xml_text.hpp"
#include "libtemplate/convert.hpp"
#include "libtemplate/json.hpp"
#include "libtemplate/lint.hpp"
#include "libtemplate/model.hpp"
#include "libtemplate/rollup.hpp"
#include "libtemplate/template_file.hpp"
#include "libtemplate/writer.hpp"

namespace ptmpl {

namespace {

using mspdi::DateTime;

// MSPDI link types (0 = FF, 1 = FS, 2 = SF, 3 = SS) in the service's numbering (SPEC §5).
constexpr std::int64_t kServiceLinkType[4] = {3, 2, 1, 0};
constexpr std::string_view kMspdiLinkName[4] = {"FF", "FS", "SF", "SS"};
constexpr std::int64_t kNoResource = -65535;
// Levels of sub_stories a converted template may have: each level is two levels of JSON (the
// story and its sub_stories array), and the template document adds four, within the nesting
// bound lint and fmt read by default (256).
constexpr std::size_t kMaxOutlineDepth = 100;

std::string_view child_text(pugi::xml_node node, const char* name) {
  return node.child(name).text().as_string();
}

// Sums of costs never wrap: a plan whose costs leave int64 saturates (lint reports the budget).
std::int64_t add_cents(std::int64_t a, std::int64_t b) {
  std::int64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? std::numeric_limits<std::int64_t>::max() : sum;
}

std::optional<std::int64_t> to_int(std::string_view text) {
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<std::int64_t> child_int(pugi::xml_node node, const char* name) {
  return to_int(child_text(node, name));
}

std::optional<double> to_number(std::string_view text) {
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

std::optional<double> child_number(pugi::xml_node node, const char* name) {
  return to_number(child_text(node, name));
}

bool child_flag(pugi::xml_node node, const char* name) {
  return child_int(node, name).value_or(0) == 1;
}

// An xsd:duration as MSPDI writes it (`PT8H0M0S`, `-PT4H`, `P1DT2H`; a day is 24 hours) in minutes.
std::optional<double> duration_minutes(std::string_view text) {
  bool negative = false;
  if (!text.empty() && text.front() == '-') {
    negative = true;
    text.remove_prefix(1);
  }
  if (text.empty() || text.front() != 'P') return std::nullopt;
  text.remove_prefix(1);
  double minutes = 0;
  bool in_time = false;
  bool any = false;
  while (!text.empty()) {
    if (text.front() == 'T') {
      in_time = true;
      text.remove_prefix(1);
      continue;
    }
    double value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end == text.data() + text.size()) return std::nullopt;
    const char unit = *end;
    text.remove_prefix(static_cast<std::size_t>(end - text.data()) + 1);
    any = true;
    if (!in_time && unit == 'D')
      minutes += value * 24 * 60;
    else if (in_time && unit == 'H')
      minutes += value * 60;
    else if (in_time && unit == 'M')
      minutes += value;
    else if (in_time && unit == 'S')
      minutes += value / 60;
    else
      return std::nullopt;  // years and months have no fixed length
  }
  if (!any || !std::isfinite(minutes)) return std::nullopt;
  return negative ? -minutes : minutes;
}

// The children of a <Task> the reader looks at, found in one pass over them: a task written by
// MS Project has about a hundred children, and looking each one up by name would compare names
// thousands of times per task.
enum class Field : std::uint8_t {
  UID,
  Name,
  Cost,
  Work,
  Start,
  Notes,
  Active,
  IsNull,
  Finish,
  Manual,
  Duration,
  Milestone,
  ActualCost,
  ActualWork,
  CalendarUID,
  OutlineLevel,
  ConstraintType,
  ConstraintDate,
  ActualDuration,
  DurationFormat,
  PercentComplete,
  PercentWorkComplete,
  Count
};

constexpr std::array<std::string_view, static_cast<std::size_t>(Field::Count)> kFieldNames = {"UID",
                                                                                              "Name",
                                                                                              "Cost",
                                                                                              "Work",
                                                                                              "Start",
                                                                                              "Notes",
                                                                                              "Active",
                                                                                              "IsNull",
                                                                                              "Finish",
                                                                                              "Manual",
                                                                                              "Duration",
                                                                                              "Milestone",
                                                                                              "ActualCost",
                                                                                              "ActualWork",
                                                                                              "CalendarUID",
                                                                                              "OutlineLevel",
                                                                                              "ConstraintType",
                                                                                              "ConstraintDate",
                                                                                              "ActualDuration",
                                                                                              "DurationFormat",
                                                                                              "PercentComplete",
                                                                                              "PercentWorkComplete"};

class TaskFields {
 public:
  TaskFields() = default;
  explicit TaskFields(pugi::xml_node task) {
    for (pugi::xml_node child : task.children()) {
      const std::string_view name = child.name();
      if (name == "PredecessorLink") {
        links_.push_back(child);
        continue;
      }
      for (std::size_t f = 0; f < kFieldNames.size(); ++f)
        if (kFieldNames[f].size() == name.size() && kFieldNames[f] == name) {
          if (!nodes_[f]) nodes_[f] = child;  // the first one, as pugixml's child() finds it
          break;
        }
    }
  }

  [[nodiscard]] pugi::xml_node node(Field f) const { return nodes_[static_cast<std::size_t>(f)]; }
  [[nodiscard]] std::string_view text(Field f) const { return node(f).text().as_string(); }
  [[nodiscard]] std::optional<std::int64_t> integer(Field f) const { return to_int(text(f)); }
  [[nodiscard]] std::optional<double> number(Field f) const { return to_number(text(f)); }
  [[nodiscard]] bool flag(Field f) const { return integer(f).value_or(0) == 1; }
  [[nodiscard]] const std::vector<pugi::xml_node>& links() const { return links_; }

 private:
  std::array<pugi::xml_node, static_cast<std::size_t>(Field::Count)> nodes_{};
  std::vector<pugi::xml_node> links_;
};

// DurationFormat / LagFormat codes: the estimated variants (35–53) are the plain ones + 32.
int base_format(std::int64_t code) {
  return static_cast<int>(code >= 35 ? code - 32 : code);
}
bool is_elapsed(int format) {
  return format == 4 || format == 6 || format == 8 || format == 10 || format == 12 || format == 20;
}
bool is_percent(int format) {
  return format == 19 || format == 20;
}

std::string_view constraint_name(std::int64_t type) {
  static constexpr std::string_view kNames[] = {
      "As Soon As Possible",   "As Late As Possible", "Must Start On",          "Must Finish On",
      "Start No Earlier Than", "Start No Later Than", "Finish No Earlier Than", "Finish No Later Than"};
  return type >= 0 && type < 8 ? kNames[type] : "an unknown constraint";
}

struct LinkIn {
  std::int64_t predecessor = 0;
  std::int64_t type = 1;  // MSPDI numbering
  double lag_tenths = 0;  // LinkLag: tenths of a minute, or of a percent
  std::int64_t lag_format = 7;
  std::int64_t lag_days = 0;
  pugi::xml_node node;
};

struct Task {
  std::int64_t uid = 0;
  std::string_view title;  // into the XML document, or into Reader::names_
  pugi::xml_node node;
  // The elements later findings point at (the task's other children are read at once).
  pugi::xml_node start_node;
  pugi::xml_node finish_node;
  pugi::xml_node level_node;
  pugi::xml_node cost_node;
  std::int64_t level = 1;
  bool milestone = false;
  std::optional<std::int64_t> start;
  std::optional<std::int64_t> due;
  std::optional<std::int64_t> duration;
  std::optional<std::int64_t> cost_cents;
  std::optional<std::int64_t> work_minutes;
  std::string_view notes;  // into the XML document
  std::vector<LinkIn> links;
  std::vector<std::int64_t> resources;
  std::vector<std::size_t> children;  // indices in the task list
  bool has_parent = false;
  double duration_days = 0;  // for percentage lags
  // Start and Finish, read with the rest of the task while its nodes are in the cache.
  std::optional<DateTime> start_at;
  std::optional<DateTime> finish_at;
};

class Reader {
 public:
  Reader(std::string_view text, const std::string& path, const ConvertOptions& options)
      : text_(text), path_(path), lines_(text), findings_(text, path, options) {}

  Result<Conversion> run();

 private:
  void report(std::string_view rule, pugi::xml_node at, std::string message);
  [[nodiscard]] std::string task_name(const Task& task) const;
  void read_project();
  void read_tasks();
  void read_task(pugi::xml_node node);
  void read_resources();
  void read_assignments();
  void place_tasks();
  [[nodiscard]] Status nest_tasks();
  std::string write_document();
  void write_story_head(JsonEmitter& json, const Task& task);
  void write_story_tail(JsonEmitter& json, const Task& task,
                        const std::vector<std::pair<std::int64_t, const LinkIn*>>& successors);

  std::string_view text_;
  const std::string& path_;
  json::LineIndex lines_;
  detail::FindingSink findings_;
  pugi::xml_document xml_;
  pugi::xml_node project_;

  double minutes_per_day_ = 480;
  std::optional<DateTime> project_start_;
  mspdi::WorkCalendar calendar_;
  std::vector<Task> tasks_;
  std::deque<std::string> names_;  // titles made up for tasks without a name
  std::unordered_map<std::int64_t, std::size_t> by_uid_;
  std::map<std::int64_t, std::string> resources_;  // by UID, named resources only
  std::vector<std::size_t> roots_;
};

void Reader::report(std::string_view rule, pugi::xml_node at, std::string message) {
  findings_.report(rule, at ? at.offset_debug() : -1, std::move(message));
}

std::string Reader::task_name(const Task& task) const {
  return "task " + std::to_string(task.uid) + " \"" + std::string(task.title) + "\"";
}

Result<Conversion> Reader::run() {
  const pugi::xml_parse_result parsed =
      xml_.load_buffer(text_.data(), text_.size(), pugi::parse_default | pugi::parse_doctype, pugi::encoding_auto);
  if (!parsed) {
    const json::Position p = lines_.position(static_cast<std::uint64_t>(std::max<std::ptrdiff_t>(parsed.offset, 0)));
    return Error{path_ + ":" + std::to_string(p.line) + ":" + std::to_string(p.column) +
                 ": not well-formed XML: " + parsed.description()};
  }
  if (auto error = detail::check_xml_text(xml_, parsed, text_, path_)) return *error;
  project_ = xml_.document_element();
  if (std::string_view(project_.name()) != "Project" ||
      std::string_view(project_.attribute("xmlns").as_string()) != "http://schemas.microsoft.com/project") {
    return Error{path_ + ": not a Microsoft Project XML file (its root element is <" + std::string(project_.name()) +
                 ">, not <Project xmlns=\"http://schemas.microsoft.com/project\">)"};
  }
  for (pugi::xml_node node : xml_.children())
    if (node.type() == pugi::node_doctype)
      report("mspdi-doctype", node, "the document type declaration is ignored: no DTD or entity is processed");

  read_project();
  read_tasks();
  read_resources();
  read_assignments();
  place_tasks();
  if (Status nested = nest_tasks(); !nested.ok()) return nested.error();
  Conversion out;
  out.document = write_document();
  out.diagnostics = findings_.take();
  return out;
}

void Reader::read_project() {
  if (auto mpd = child_number(project_, "MinutesPerDay"); mpd && *mpd > 0) minutes_per_day_ = *mpd;
  project_start_ = mspdi::parse_datetime(child_text(project_, "StartDate"));
  std::vector<std::string> notes;
  if (auto uid = child_int(project_, "CalendarUID"))
    calendar_ = mspdi::WorkCalendar::read(project_.child("Calendars"), *uid, notes);
  for (std::string& note : notes) report("mspdi-calendar-recurrence", project_.child("Calendars"), std::move(note));
}

void Reader::read_tasks() {
  const pugi::xml_node tasks = project_.child("Tasks");
  tasks_.reserve(static_cast<std::size_t>(std::distance(tasks.begin(), tasks.end())));
  for (pugi::xml_node node : tasks.children("Task")) read_task(node);
}

void Reader::read_task(pugi::xml_node node) {
  TaskFields f(node);
  const std::optional<std::int64_t> uid = f.integer(Field::UID);
  if (!uid || f.flag(Field::IsNull)) return;
  const std::int64_t level = f.integer(Field::OutlineLevel).value_or(1);
  if (*uid == 0 || level == 0) return;  // the project summary task
  Task task;
  task.uid = *uid;
  task.node = node;
  task.level = std::max<std::int64_t>(level, 1);
  task.title = f.text(Field::Name);
  if (f.node(Field::Active) && !f.flag(Field::Active)) {
    report("mspdi-inactive-task", node, task_name(task) + " is inactive and is skipped");
    return;
  }
  if (by_uid_.count(task.uid) != 0) {
    report("mspdi-link-invalid", node, "a second task with UID " + std::to_string(task.uid) + " is skipped");
    return;
  }
  if (task.title.find_first_not_of(" \t\r\n") == std::string::npos) {
    task.title = names_.emplace_back("Task " + std::to_string(task.uid));
    report("mspdi-untitled-task", node,
           "task " + std::to_string(task.uid) + " has no name; it is called \"" + std::string(task.title) + "\"");
  }
  // MS Project shows any task of zero duration as a milestone, whatever its Milestone flag.
  task.milestone = f.flag(Field::Milestone) || duration_minutes(f.text(Field::Duration)) == 0.0;
  task.notes = f.text(Field::Notes);

  // Start No Earlier Than on the task's own start is what a declared start means (SPEC §5).
  const std::int64_t constraint = f.integer(Field::ConstraintType).value_or(0);
  const bool start_no_earlier_than_start =
      constraint == 4 && f.text(Field::ConstraintDate).substr(0, 10) == f.text(Field::Start).substr(0, 10);
  if (constraint != 0 && !start_no_earlier_than_start)
    report("mspdi-constraint", f.node(Field::ConstraintType),
           task_name(task) + " has the constraint \"" + std::string(constraint_name(constraint)) +
               "\"; only its start is kept (as a start-no-earlier-than)");
  if (f.flag(Field::Manual))
    report("mspdi-manual-task", f.node(Field::Manual),
           task_name(task) + " is manually scheduled; its dates are kept as declared");
  // Some writers fill ActualStart with a placeholder date on untouched tasks: progress is a
  // percentage, or actual duration, work or cost.
  if (f.integer(Field::PercentComplete).value_or(0) > 0 || f.integer(Field::PercentWorkComplete).value_or(0) > 0 ||
      duration_minutes(f.text(Field::ActualDuration)).value_or(0) > 0 ||
      duration_minutes(f.text(Field::ActualWork)).value_or(0) > 0 || f.number(Field::ActualCost).value_or(0) != 0)
    report("mspdi-progress", node,
           task_name(task) + " has progress (actual dates, cost or percent complete), which a template does not keep");
  if (const auto calendar = f.integer(Field::CalendarUID); calendar && *calendar >= 0)
    report("mspdi-task-calendar", f.node(Field::CalendarUID),
           task_name(task) + " has its own calendar (UID " + std::to_string(*calendar) +
               "); the project calendar is used");

  // Duration in working days.
  if (auto minutes = duration_minutes(f.text(Field::Duration))) {
    const int format = base_format(f.integer(Field::DurationFormat).value_or(7));
    double days = *minutes / minutes_per_day_;
    if (is_elapsed(format)) {
      days = *minutes / (24 * 60);
      report("mspdi-elapsed-duration", f.node(Field::Duration),
             task_name(task) + " has an elapsed duration; its " +
                 std::to_string(static_cast<long long>(std::ceil(days))) +
                 " calendar days are counted as working days");
    }
    task.duration_days = days;
    if (!task.milestone) {
      const double whole = std::ceil(days - 1e-9);
      if (std::fabs(whole - days) > 1e-9)
        report("mspdi-fractional-duration", f.node(Field::Duration),
               task_name(task) + " lasts " + std::to_string(days).substr(0, std::to_string(days).find('.') + 3) +
                   " working days; it is rounded up to " + std::to_string(static_cast<long long>(whole)));
      if (whole >= 0 && whole < 1e12) task.duration = static_cast<std::int64_t>(whole);
    }
  }

  // Cost (hundredths of the currency unit: cents) and work.
  if (auto cost = f.number(Field::Cost)) {
    const double rounded = std::round(*cost);
    if (std::fabs(rounded - *cost) > 1e-6)
      report("mspdi-cost-fraction", f.node(Field::Cost),
             task_name(task) + " costs " + std::string(f.text(Field::Cost)) + " hundredths; rounded to a whole cent");
    if (rounded > 0 && rounded < 9.2e18) task.cost_cents = static_cast<std::int64_t>(rounded);
  }
  if (auto work = duration_minutes(f.text(Field::Work)); work && *work > 0) {
    const double minutes = std::round(*work);
    if (minutes <= 2147483647.0)
      task.work_minutes = static_cast<std::int64_t>(minutes);
    else
      report("mspdi-work-overflow", f.node(Field::Work), task_name(task) + " has more work than a time estimate holds");
  }

  for (pugi::xml_node link : f.links()) {
    LinkIn in;
    in.node = link;
    const auto predecessor = child_int(link, "PredecessorUID");
    if (!predecessor) {
      report("mspdi-link-invalid", link, "a link into " + task_name(task) + " names no predecessor; it is dropped");
      continue;
    }
    in.predecessor = *predecessor;
    in.type = child_int(link, "Type").value_or(1);
    if (in.type < 0 || in.type > 3) {
      report("mspdi-link-invalid", link.child("Type"),
             "a link into " + task_name(task) + " has the unknown type " + std::to_string(in.type) + "; it is dropped");
      continue;
    }
    if (child_flag(link, "CrossProject")) {
      report("mspdi-cross-project-link", link,
             "a link into " + task_name(task) + " comes from another project (" +
                 std::string(child_text(link, "CrossProjectName")) + "); it is dropped");
      continue;
    }
    in.lag_tenths = child_number(link, "LinkLag").value_or(0);
    in.lag_format = child_int(link, "LagFormat").value_or(7);
    task.links.push_back(in);
  }
  task.start_at = mspdi::parse_datetime(f.text(Field::Start));
  task.finish_at = mspdi::parse_datetime(f.text(Field::Finish));
  task.start_node = f.node(Field::Start);
  task.finish_node = f.node(Field::Finish);
  task.level_node = f.node(Field::OutlineLevel);
  task.cost_node = f.node(Field::Cost);
  by_uid_.emplace(task.uid, tasks_.size());
  tasks_.push_back(std::move(task));
}

void Reader::read_resources() {
  for (pugi::xml_node node : project_.child("Resources").children("Resource")) {
    const auto uid = child_int(node, "UID");
    const std::string_view name = child_text(node, "Name");
    if (!uid || *uid < 0 || child_flag(node, "IsNull") || name.empty()) continue;
    resources_.emplace(*uid, std::string(name));
    if (child_number(node, "StandardRate").value_or(0) != 0 || child_number(node, "OvertimeRate").value_or(0) != 0 ||
        child_number(node, "CostPerUse").value_or(0) != 0)
      report("mspdi-resource-rates", node,
             "resource " + std::to_string(*uid) + " \"" + std::string(name) +
                 "\" has rates, which a template does not keep");
  }
}

void Reader::read_assignments() {
  for (pugi::xml_node node : project_.child("Assignments").children("Assignment")) {
    const auto task = child_int(node, "TaskUID");
    const auto resource = child_int(node, "ResourceUID");
    if (!task || !resource || *resource == kNoResource) continue;
    auto t = by_uid_.find(*task);
    if (t == by_uid_.end() || resources_.count(*resource) == 0) continue;
    std::vector<std::int64_t>& list = tasks_[t->second].resources;
    if (std::find(list.begin(), list.end(), *resource) == list.end()) list.push_back(*resource);
  }
}

// Start and Finish → working-day offsets; lags → working days.
void Reader::place_tasks() {
  std::optional<Date> first;
  std::optional<Date> last;
  auto widen = [&](const std::optional<DateTime>& d) {
    if (!d) return;
    first = first ? std::min(*first, d->date) : d->date;
    last = last ? std::max(*last, d->date) : d->date;
  };
  for (const Task& task : tasks_) {
    widen(task.start_at);
    widen(task.finish_at);
  }
  const Date start = project_start_ ? project_start_->date : first.value_or(Date{});
  // Day 0: the project start, moved to the next working day when it is not one (or when the
  // project starts after the end of its first day's working time).
  Date zero = start;
  if (project_start_ && project_start_->minute >= calendar_.day(zero).end) zero += std::chrono::days{1};
  const Date lo = first ? std::min(*first, zero) : zero;
  const Date hi = last ? std::max(*last, zero) : zero;
  if ((hi - lo).count() > 366 * 400) {
    report("mspdi-task-calendar", project_, "the plan's dates span more than 400 years; dates are not converted");
    return;
  }
  const detail::DayCounter counter([this](Date d) { return calendar_.working(d); }, zero, lo, hi);

  for (std::size_t i = 0; i < tasks_.size(); ++i) {
    Task& task = tasks_[i];
    const std::optional<DateTime>& s = task.start_at;
    const std::optional<DateTime>& f = task.finish_at;
    if (!s) continue;
    const mspdi::DayRule day = calendar_.day(s->date);
    const bool after_hours = !day.working || s->minute >= day.end;
    if (!day.working)
      report("mspdi-off-calendar", task.start_node,
             task_name(task) + " starts on " + format_date(s->date) +
                 ", not a working day of the project calendar; it starts on the next working day");
    task.start = after_hours ? counter.offset_on_or_after(s->date + std::chrono::days{day.working ? 1 : 0})
                             : counter.offset_on_or_after(s->date);
    if (task.milestone) {
      task.due = task.start;
      continue;
    }
    if (!f) continue;
    const mspdi::DayRule finish_day = calendar_.day(f->date);
    const bool before_hours = !finish_day.working || f->minute <= finish_day.start;
    if (!finish_day.working)
      report("mspdi-off-calendar", task.finish_node,
             task_name(task) + " finishes on " + format_date(f->date) +
                 ", not a working day of the project calendar; it finishes on the previous working day");
    std::int64_t due = before_hours
                           ? counter.offset_on_or_before(f->date - std::chrono::days{finish_day.working ? 1 : 0})
                           : counter.offset_on_or_before(f->date);
    if (due < *task.start) {  // zero-length task: no day of its own
      task.duration = task.duration.value_or(0);
      continue;
    }
    task.due = due;
  }

  // Lags in working days (percentages against the predecessor's duration).
  for (Task& task : tasks_) {
    for (LinkIn& link : task.links) {
      const double tenths = link.lag_tenths;
      const int format = base_format(link.lag_format);
      double days = tenths / 10 / minutes_per_day_;
      if (is_percent(format)) {
        auto predecessor = by_uid_.find(link.predecessor);
        const double pct = tenths / 10;
        days = predecessor == by_uid_.end() ? 0 : pct / 100 * tasks_[predecessor->second].duration_days;
      } else if (is_elapsed(format)) {
        days = tenths / 10 / (24 * 60);
        if (tenths != 0)
          report("mspdi-elapsed-lag", link.node.child("LinkLag"),
                 "the lag of a link into " + task_name(task) +
                     " is elapsed time; its calendar days count as working days");
      }
      const double whole = std::round(days);
      if (std::fabs(whole - days) > 1e-9)
        report("mspdi-fractional-lag", link.node.child("LinkLag"),
               "the lag of a link into " + task_name(task) + " is not a whole number of days; it is rounded to " +
                   std::to_string(static_cast<long long>(whole)));
      link.lag_days = std::fabs(whole) < 1e12 ? static_cast<std::int64_t>(whole) : 0;
    }
  }
}

// The outline: each task becomes a child of the nearest task above it with a lower level.
Status Reader::nest_tasks() {
  std::vector<std::size_t> open;  // the chain of parents above the current task
  for (std::size_t i = 0; i < tasks_.size(); ++i) {
    Task& task = tasks_[i];
    while (!open.empty() && tasks_[open.back()].level >= task.level) open.pop_back();
    if (open.size() >= kMaxOutlineDepth) {
      const pugi::xml_node at = task.level_node ? task.level_node : task.node;
      const json::Position p =
          lines_.position(static_cast<std::uint64_t>(std::max<std::ptrdiff_t>(at.offset_debug(), 0)));
      return Error{path_ + ":" + std::to_string(p.line) + ":" + std::to_string(p.column) + ": " + task_name(task) +
                   " would be nested " + std::to_string(open.size() + 1) + " levels deep; a template holds at most " +
                   std::to_string(kMaxOutlineDepth) + " (the nesting lint and fmt read)"};
    }
    if (!open.empty() && task.level > tasks_[open.back()].level + 1)
      report("mspdi-outline-gap", task.level_node,
             task_name(task) + " is at outline level " + std::to_string(task.level) + ", more than one below " +
                 task_name(tasks_[open.back()]) + "; it becomes its sub-story");
    else if (open.empty() && task.level > 1)
      report("mspdi-outline-gap", task.level_node,
             task_name(task) + " is at outline level " + std::to_string(task.level) +
                 " with no task above it; it becomes a top-level story");
    if (open.empty()) {
      roots_.push_back(i);
    } else {
      tasks_[open.back()].children.push_back(i);
      task.has_parent = true;
    }
    open.push_back(i);
  }
  // Links, with the names of their ends known.
  for (Task& task : tasks_)
    for (const LinkIn& link : task.links)
      if (by_uid_.count(link.predecessor) == 0)
        report("mspdi-link-invalid", link.node,
               "a link into " + task_name(task) + " names task " + std::to_string(link.predecessor) +
                   ", which is not in the plan; it is dropped");
  return Done{};
}

std::string Reader::write_document() {
  // Outgoing links by predecessor, in the order the successors come.
  std::vector<std::vector<std::pair<std::int64_t, const LinkIn*>>> out(tasks_.size());
  for (const Task& task : tasks_)
    for (const LinkIn& link : task.links)
      if (auto p = by_uid_.find(link.predecessor); p != by_uid_.end()) out[p->second].emplace_back(task.uid, &link);

  // A parent's dates are its children's span (SPEC §5 rolls parents up; a milestone that ends
  // a phase at 17:00 sits on the next working day, so the phase's own Finish may be a day short).
  std::vector<std::int64_t> subtree_cents(tasks_.size(), 0);
  for (std::size_t i = tasks_.size(); i-- > 0;) {
    Task& task = tasks_[i];
    if (task.children.empty()) {
      subtree_cents[i] = task.cost_cents.value_or(0);
      continue;
    }
    for (std::size_t c : task.children) subtree_cents[i] = add_cents(subtree_cents[i], subtree_cents[c]);
    if (task.cost_cents.value_or(0) != subtree_cents[i])
      report("mspdi-summary-cost", task.cost_node,
             task_name(task) + " costs " + std::to_string(task.cost_cents.value_or(0)) + " cents, its tasks " +
                 std::to_string(subtree_cents[i]) + "; the template keeps its tasks' costs (and rolls them up)");
    task.start.reset();
    task.due.reset();
    for (std::size_t c : task.children) {
      const Task& child = tasks_[c];
      if (!child.start) continue;
      // A zero-length task occupies its start day, like a milestone (SPEC §4).
      const std::int64_t due = child.due.value_or(*child.start);
      task.start = task.start ? std::min(*task.start, *child.start) : *child.start;
      task.due = task.due ? std::max(*task.due, due) : due;
    }
  }

  // The template's figures come before raw_json in canonical order: add them up first.
  std::optional<std::int64_t> min_start;
  std::optional<std::int64_t> max_due;
  std::int64_t total_cents = 0;
  bool any_cost = false;
  for (const Task& task : tasks_) {
    if (!task.children.empty()) continue;
    if (task.cost_cents) {
      total_cents = add_cents(total_cents, *task.cost_cents);
      any_cost = true;
    }
    if (!task.start) continue;
    const std::int64_t due = task.due.value_or(*task.start);
    min_start = min_start ? std::min(*min_start, *task.start) : *task.start;
    max_due = max_due ? std::max(*max_due, due) : due;
  }

  std::string text;
  text.reserve(tasks_.size() * 400);
  JsonEmitter json(text);
  json.begin_object();
  json.key("project_template");
  json.begin_object();
  std::string_view title = child_text(project_, "Title");
  if (title.empty()) title = child_text(project_, "Name");
  std::string file_title;
  if (title.empty()) {
    file_title = path_.substr(path_.find_last_of('/') + 1);
    title = file_title = file_title.substr(0, file_title.find_last_of('.'));
  }
  json.member("title", title);
  if (any_cost) {
    json.key("is_budgeted");
    json.boolean(true);
    json.key("budget");
    json.number(cents_to_budget(total_cents));
  }
  const std::string_view currency = child_text(project_, "CurrencyCode");
  if (!currency.empty()) {
    if (is_currency_code(currency))
      json.member("currency", currency);
    else
      report("mspdi-currency", project_.child("CurrencyCode"),
             "the project's currency \"" + std::string(currency) + "\" is not an ISO 4217 code; the template has none");
  }
  if (min_start && max_due) json.member("duration", *max_due - *min_start + 1);
  json.member("item_count", static_cast<std::int64_t>(tasks_.size()));
  json.key("raw_json");
  json.begin_array();
  // Pre-order with an explicit stack (outline levels can be as deep as a file makes them): a
  // story's keys up to sub_stories, its children, then the keys after sub_stories.
  struct Open {
    std::size_t task;
    std::size_t next_child = 0;
  };
  std::vector<Open> path;
  for (std::size_t r = 0; r < roots_.size(); ++r) {
    path.push_back({roots_[r]});
    write_story_head(json, tasks_[roots_[r]]);
    while (!path.empty()) {
      Open& top = path.back();
      const Task& task = tasks_[top.task];
      if (top.next_child < task.children.size()) {
        const std::size_t child = task.children[top.next_child++];
        path.push_back({child});
        write_story_head(json, tasks_[child]);
        continue;
      }
      write_story_tail(json, task, out[top.task]);
      path.pop_back();
    }
  }
  json.end_array();
  json.end_object();
  if (!resources_.empty()) {
    json.key("project_template_assignments");
    json.begin_array();
    for (const auto& [uid, name] : resources_) {
      json.begin_object();
      json.member("id", uid);
      json.member("name", name);
      json.end_object();
    }
    json.end_array();
  }
  json.end_object();
  json.finish();
  return text;
}

// A story's keys before its sub-stories, and the opening of sub_stories when it has some.
void Reader::write_story_head(JsonEmitter& json, const Task& task) {
  const bool parent = !task.children.empty();
  json.begin_object();
  if (task.milestone && !parent) json.member("story_type", "milestone");
  json.member("title", task.title);
  json.member("temp_id", task.uid);
  if (task.start) json.member("relative_start_date", *task.start);
  if (task.due) json.member("relative_due_date", *task.due);
  std::optional<std::int64_t> duration = task.milestone ? std::optional<std::int64_t>(0) : task.duration;
  if (parent && task.start && task.due) duration = *task.due - *task.start + 1;
  if (duration) json.member("duration", *duration);
  if (!task.notes.empty()) json.member("description", task.notes);
  if (!parent && task.cost_cents) json.member("budget_estimate_in_cents", *task.cost_cents);
  if (!parent && task.work_minutes) json.member("time_estimate_in_minutes", *task.work_minutes);
  if (parent) {
    json.key("sub_stories");
    json.begin_array();
  }
}

// The keys after sub_stories (assignments, dependencies), and the story's end.
void Reader::write_story_tail(JsonEmitter& json, const Task& task,
                              const std::vector<std::pair<std::int64_t, const LinkIn*>>& successors) {
  if (!task.children.empty()) json.end_array();
  if (!task.resources.empty()) {
    json.key("assignments");
    json.begin_array();
    for (std::int64_t r : task.resources) {
      json.begin_object();
      json.member("assignee_id", r);
      json.end_object();
    }
    json.end_array();
  }
  if (!successors.empty()) {
    json.key("dependencies");
    json.begin_array();
    for (const auto& [successor, link] : successors) {
      json.begin_object();
      json.member("source_id", task.uid);
      json.member("target_id", successor);
      json.member("type", kServiceLinkType[link->type]);
      json.member("lag", link->lag_days);
      json.end_object();
    }
    json.end_array();
  }
  json.end_object();
}

}  // namespace

Result<Conversion> convert_mspdi(std::string_view text, const std::string& path, const ConvertOptions& options) {
  return Reader(text, path, options).run();
}

}  // namespace ptmpl
