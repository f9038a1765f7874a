// Template → Microsoft Project XML (MSPDI) that MS Project, ProjectLibre and GanttProject open.
//
// Elements are written in the order of the MSPDI schema. The project gets one calendar,
// "Standard" (Monday to Friday, 08:00–12:00 and 13:00–17:00, 480 minutes a day), whose
// working days are the template's working days from the chosen start date. A story's
// declared dates become Start (08:00) and Finish (17:00); a story that declares no start
// takes the one the scheduler gives it. What MSPDI has no place for is reported, never
// silently dropped.
#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

#include <pugixml.hpp>

#include "libtemplate/convert.hpp"
#include "libtemplate/dependency_graph.hpp"
#include "libtemplate/rollup.hpp"
#include "libtemplate/schedule.hpp"
#include "libtemplate/template_file.hpp"

namespace ptmpl {

namespace {

constexpr int kMinutesPerDay = 480;
// The service's link types (0 = SS, 1 = SF, 2 = FS, 3 = FF) in MSPDI's numbering (0 = FF,
// 1 = FS, 2 = SF, 3 = SS): the inverse of the reader's table.
constexpr int kMspdiLinkType[4] = {3, 2, 1, 0};
constexpr std::int64_t kMaxUid = 2147483647;

class Writer {
 public:
  Writer(const TemplateFile& file, const TemplateSource& source, const ExportOptions& options)
      : file_(file), source_(source), options_(options), calendar_(Calendar::Week::Workweek, options.start) {}

  Result<Conversion> run();

 private:
  void report(std::string_view rule, const json::Value& at, std::string pointer, std::string message);
  void assign_uids();
  void write_project(pugi::xml_node project);
  void write_calendar(pugi::xml_node calendars);
  void write_tasks(pugi::xml_node tasks);
  void write_resources(pugi::xml_node resources, pugi::xml_node assignments);
  void report_losses();
  [[nodiscard]] std::optional<std::string> date_time(std::int64_t offset, const char* time) const;

  const TemplateFile& file_;
  const TemplateSource& source_;
  ExportOptions options_;
  Calendar calendar_;
  std::vector<Diagnostic> diagnostics_;
  std::unique_ptr<DependencyGraph> graph_;
  std::unique_ptr<Schedule> schedule_;
  std::unique_ptr<Rollup> rollup_;
  std::vector<std::int64_t> uid_;  // per story, pre-order
};

void Writer::report(std::string_view rule, const json::Value& at, std::string pointer, std::string message) {
  const ConversionRule* info = nullptr;
  for (const ConversionRule& r : conversion_rules())
    if (r.id == rule) info = &r;
  Diagnostic d;
  d.rule = std::string(rule);
  d.severity = options_.strict ? Severity::Error : info->severity;
  d.message = std::move(message);
  d.path = file_.path();
  d.pointer = std::move(pointer);
  const json::Position p = file_.position_of(source_, at);
  d.line = p.line;
  d.column = p.column;
  diagnostics_.push_back(std::move(d));
}

std::optional<std::string> Writer::date_time(std::int64_t offset, const char* time) const {
  const std::optional<Date> date = calendar_.date_of(offset);
  if (!date) return std::nullopt;
  return format_date(*date) + "T" + time;
}

// Integer temp_ids in MSPDI's UID range keep their value (so a plan converted back keeps its
// temp_ids); the others get fresh UIDs above the largest one kept.
void Writer::assign_uids() {
  const std::size_t n = graph_->size();
  uid_.assign(n, 0);
  std::set<std::int64_t> taken;
  for (std::size_t i = 0; i < n; ++i) {
    const Story& story = graph_->story(i);
    const auto* id = story.temp_id ? std::get_if<std::int64_t>(&*story.temp_id) : nullptr;
    if (id != nullptr && *id >= 1 && *id <= kMaxUid && taken.insert(*id).second) uid_[i] = *id;
  }
  std::int64_t next = taken.empty() ? 1 : *taken.rbegin() + 1;
  for (std::size_t i = 0; i < n; ++i) {
    if (uid_[i] != 0) continue;
    while (taken.count(next) != 0) ++next;
    uid_[i] = next;
    taken.insert(next);
    const Story& story = graph_->story(i);
    report(
        "mspdi-export-temp-id", story.origin.node, std::string(story.origin.pointer),
        "story " + (story.temp_id ? temp_id_key(*story.temp_id) + " " : std::string()) + "\"" +
            std::string(story.title.value_or("")) + "\" becomes task UID " + std::to_string(next) +
            (story.temp_id ? " (MSPDI task UIDs are integers from 1 to 2147483647, unique)" : " (it has no temp_id)"));
  }
}

void Writer::write_project(pugi::xml_node project) {
  const Template& model = source_.model;
  const std::string title(model.title.value_or("Template"));
  project.append_child("SaveVersion").text().set(14);
  project.append_child("Name").text().set((title + ".xml").c_str());
  project.append_child("Title").text().set(title.c_str());
  project.append_child("ScheduleFromStart").text().set(1);
  project.append_child("StartDate").text().set((format_date(calendar_.day_zero()) + "T08:00:00").c_str());
  if (model.currency) project.append_child("CurrencyCode").text().set(std::string(*model.currency).c_str());
  project.append_child("CalendarUID").text().set(1);
  project.append_child("DefaultStartTime").text().set("08:00:00");
  project.append_child("DefaultFinishTime").text().set("17:00:00");
  project.append_child("MinutesPerDay").text().set(kMinutesPerDay);
  project.append_child("MinutesPerWeek").text().set(kMinutesPerDay * 5);
  project.append_child("DaysPerMonth").text().set(20);
  project.append_child("DurationFormat").text().set(7);
  project.append_child("WorkFormat").text().set(2);
  project.append_child("NewTasksEstimated").text().set(0);
}

void Writer::write_calendar(pugi::xml_node calendars) {
  pugi::xml_node calendar = calendars.append_child("Calendar");
  calendar.append_child("UID").text().set(1);
  calendar.append_child("Name").text().set("Standard");
  calendar.append_child("IsBaseCalendar").text().set(1);
  calendar.append_child("BaseCalendarUID").text().set(-1);
  pugi::xml_node week = calendar.append_child("WeekDays");
  for (int day = 1; day <= 7; ++day) {
    pugi::xml_node weekday = week.append_child("WeekDay");
    weekday.append_child("DayType").text().set(day);
    const bool working = day >= 2 && day <= 6;
    weekday.append_child("DayWorking").text().set(working ? 1 : 0);
    if (!working) continue;
    pugi::xml_node times = weekday.append_child("WorkingTimes");
    for (const auto& [from, to] : {std::pair{"08:00:00", "12:00:00"}, std::pair{"13:00:00", "17:00:00"}}) {
      pugi::xml_node time = times.append_child("WorkingTime");
      time.append_child("FromTime").text().set(from);
      time.append_child("ToTime").text().set(to);
    }
  }
}

std::string hours(std::int64_t minutes) {
  return "PT" + std::to_string(minutes / 60) + "H" + std::to_string(minutes % 60) + "M0S";
}

void Writer::write_tasks(pugi::xml_node tasks) {
  const DependencyGraph& graph = *graph_;
  // Incoming links by target, in tree order of their sources.
  std::vector<std::vector<const Link*>> incoming(graph.size());
  for (const Link& link : graph.links())
    if (link.type && link.nesting == LinkNesting::Unrelated) incoming[link.target].push_back(&link);

  std::vector<std::string> outline(graph.size());
  std::vector<int> children(graph.size() + 1, 0);  // last slot: the top level
  for (std::size_t i = 0; i < graph.size(); ++i) {
    const std::size_t parent = graph.parent(i);
    const int number = ++children[parent == DependencyGraph::npos ? graph.size() : parent];
    outline[i] = (parent == DependencyGraph::npos ? "" : outline[parent] + ".") + std::to_string(number);

    const Story& story = graph.story(i);
    const ScheduledStory& scheduled = (*schedule_)[i];
    const bool parent_story = story.is_parent();
    const bool milestone = !parent_story && story.effective_type() == StoryType::Milestone;
    // Declared dates where the story has them (a leaf), else the schedule's (parents roll up).
    std::int64_t start = scheduled.early.start;
    std::int64_t due = scheduled.early.due;
    std::int64_t length = scheduled.early.finish - scheduled.early.start;
    if (!parent_story && story.relative_start_date) {
      start = *story.relative_start_date;
      length = leaf_length(story);
      due = milestone || length == 0 ? start : start + length - 1;
    }
    if (parent_story) length = due - start + 1;

    pugi::xml_node task = tasks.append_child("Task");
    task.append_child("UID").text().set(static_cast<long long>(uid_[i]));
    task.append_child("ID").text().set(static_cast<unsigned long long>(i + 1));
    task.append_child("Name").text().set(std::string(story.title.value_or("")).c_str());
    task.append_child("Type").text().set(1);  // fixed duration
    task.append_child("IsNull").text().set(0);
    task.append_child("OutlineNumber").text().set(outline[i].c_str());
    task.append_child("OutlineLevel").text().set(static_cast<unsigned long long>(schedule_->depth(i) + 1));
    const auto start_text = date_time(start, "08:00:00");
    const auto finish_text = milestone || length == 0 ? start_text : date_time(due, "17:00:00");
    if (start_text && finish_text) {
      task.append_child("Start").text().set(start_text->c_str());
      task.append_child("Finish").text().set(finish_text->c_str());
    }
    task.append_child("Duration").text().set(hours(length * kMinutesPerDay).c_str());
    task.append_child("DurationFormat").text().set(7);
    const Amount& work = rollup_->effective(i, Estimate::TimeInMinutes);
    if (work.known() && work.value >= 0) task.append_child("Work").text().set(hours(work.value).c_str());
    task.append_child("Estimated").text().set(0);
    task.append_child("Milestone").text().set(milestone ? 1 : 0);
    task.append_child("Summary").text().set(parent_story ? 1 : 0);
    const Amount& cost = rollup_->effective(i, Estimate::BudgetInCents);
    if (cost.known() && cost.value >= 0) task.append_child("Cost").text().set(static_cast<long long>(cost.value));
    // A declared start is a start-no-earlier-than (SPEC §5): MSPDI constraint type 4.
    if (!parent_story && story.relative_start_date && start_text) {
      task.append_child("ConstraintType").text().set(4);
      task.append_child("ConstraintDate").text().set(start_text->c_str());
    } else {
      task.append_child("ConstraintType").text().set(0);
    }
    if (story.description && !story.description->empty())
      task.append_child("Notes").text().set(std::string(*story.description).c_str());
    for (const Link* link : incoming[i]) {
      pugi::xml_node predecessor = task.append_child("PredecessorLink");
      predecessor.append_child("PredecessorUID").text().set(static_cast<long long>(uid_[link->source]));
      predecessor.append_child("Type").text().set(kMspdiLinkType[static_cast<int>(*link->type)]);
      predecessor.append_child("CrossProject").text().set(0);
      predecessor.append_child("LinkLag").text().set(static_cast<long long>(link->lag * kMinutesPerDay * 10));
      predecessor.append_child("LagFormat").text().set(7);
    }
  }
}

void Writer::write_resources(pugi::xml_node resources, pugi::xml_node assignments) {
  std::set<std::int64_t> known;
  std::size_t id = 0;
  for (const TemplateAssignment& a : source_.model.assignments) {
    if (a.id < 1 || a.id > kMaxUid || !known.insert(a.id).second) continue;
    pugi::xml_node resource = resources.append_child("Resource");
    resource.append_child("UID").text().set(static_cast<long long>(a.id));
    resource.append_child("ID").text().set(static_cast<unsigned long long>(++id));
    resource.append_child("Name").text().set(std::string(a.name).c_str());
    resource.append_child("Type").text().set(1);
    resource.append_child("IsNull").text().set(0);
  }
  long long uid = 0;
  for (std::size_t i = 0; i < graph_->size(); ++i) {
    const Story& story = graph_->story(i);
    if (!story.assignments) continue;
    for (std::int64_t assignee : *story.assignments) {
      if (known.count(assignee) == 0) continue;  // lint's assignment-unknown
      pugi::xml_node assignment = assignments.append_child("Assignment");
      assignment.append_child("UID").text().set(++uid);
      assignment.append_child("TaskUID").text().set(static_cast<long long>(uid_[i]));
      assignment.append_child("ResourceUID").text().set(static_cast<long long>(assignee));
      assignment.append_child("Units").text().set(1);
    }
  }
}

// What MSPDI has no place for: one finding per story and key.
void Writer::report_losses() {
  for (std::size_t i = 0; i < graph_->size(); ++i) {
    const Story& story = graph_->story(i);
    auto lost = [&](std::string_view key, std::string why) {
      const json::Value* value = story.origin.node.find(key);
      if (value == nullptr) return;
      report("mspdi-export-dropped", *value, std::string(story.origin.pointer) + "/" + std::string(key),
             "story \"" + std::string(story.title.value_or("")) + "\": " + std::string(key) + " " + why);
    };
    if (story.story_type == StoryType::Deliverable && !story.is_parent())
      lost("story_type", "\"deliverable\" has no place in MS Project XML: the task is a plain task");
    lost("tag_list", "has no place in MS Project XML");
    lost("checklist", "has no place in MS Project XML");
    lost("billable", "has no place in MS Project XML");
    lost("weight", "has no place in MS Project XML");
    if (story.is_parent()) {
      lost("budget_estimate_in_cents", "of a parent: MS Project rolls a summary's cost up from its tasks");
      lost("time_estimate_in_minutes", "of a parent: MS Project rolls a summary's work up from its tasks");
    }
    for (const json::Member& extra : story.extra)
      report("mspdi-export-dropped", extra.value,
             std::string(story.origin.pointer) + "/" + std::string(extra.key.text()),
             "story \"" + std::string(story.title.value_or("")) + "\": unknown key \"" + std::string(extra.key.text()) +
                 "\" has no place in MS Project XML");
  }
}

Result<Conversion> Writer::run() {
  graph_ = std::make_unique<DependencyGraph>(source_.model.stories);
  schedule_ = std::make_unique<Schedule>(*graph_);
  if (!schedule_->ok())
    return Error{file_.path() + ": the template has no schedule (" +
                 (schedule_->cycles().empty() ? std::string("dates out of range") : std::string("a dependency cycle")) +
                 "); `ptmpl lint` shows where"};
  rollup_ = std::make_unique<Rollup>(source_.model.stories);
  assign_uids();

  pugi::xml_document xml;
  pugi::xml_node declaration = xml.append_child(pugi::node_declaration);
  declaration.append_attribute("version") = "1.0";
  declaration.append_attribute("encoding") = "UTF-8";
  declaration.append_attribute("standalone") = "yes";
  pugi::xml_node project = xml.append_child("Project");
  project.append_attribute("xmlns") = "http://schemas.microsoft.com/project";
  write_project(project);
  write_calendar(project.append_child("Calendars"));
  write_tasks(project.append_child("Tasks"));
  pugi::xml_node resources = project.append_child("Resources");
  pugi::xml_node assignments = project.append_child("Assignments");
  write_resources(resources, assignments);
  report_losses();
  for (const Link& link : graph_->links())
    if (!link.type || link.nesting != LinkNesting::Unrelated)
      report("mspdi-export-dropped", link.dependency->node,
             graph_->story(link.source).dependency_pointer(*link.dependency),
             "a dependency that is invalid (see `ptmpl lint`) has no place in MS Project XML");

  std::ostringstream out;
  xml.save(out, "  ", pugi::format_indent, pugi::encoding_utf8);
  Conversion conversion;
  conversion.document = out.str();
  std::sort(diagnostics_.begin(), diagnostics_.end());
  conversion.diagnostics = std::move(diagnostics_);
  return conversion;
}

}  // namespace

Result<Conversion> export_mspdi(const TemplateFile& file, const ExportOptions& options) {
  if (!file.document().ok() || file.templates().empty())
    return Error{file.path() + ": not a template ptmpl can read (run `ptmpl lint` on it)"};
  if (file.templates().size() > 1)
    return Error{file.path() + ": holds " + std::to_string(file.templates().size()) +
                 " templates; MS Project XML holds one project"};
  return Writer(file, file.templates()[0], options).run();
}

}  // namespace ptmpl
