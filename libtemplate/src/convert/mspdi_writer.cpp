// Template → Microsoft Project XML (MSPDI) that MS Project, ProjectLibre and GanttProject open.
//
// Elements are written in the order of the MSPDI schema. The project gets one calendar,
// "Standard" (Monday to Friday, 08:00–12:00 and 13:00–17:00, 480 minutes a day), whose
// working days are the template's working days from the chosen start date. A story's
// declared dates become Start (08:00) and Finish (17:00); a story that declares no start
// takes the one the scheduler gives it. What MSPDI has no place for is reported, never
// silently dropped. A story's tags, checklist, weight and a temp_id that is not its task's UID
// are custom task fields with ptmpl's aliases (mspdi_fields.hpp), so that they come back.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <set>
#include <span>

#include "convert/findings.hpp"
#include "convert/mspdi_fields.hpp"
#include "convert/xml_writer.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/dependency_graph.hpp"
#include "libtemplate/core/json_emitter.hpp"
#include "libtemplate/core/preview.hpp"
#include "libtemplate/core/rollup.hpp"
#include "libtemplate/core/schedule.hpp"
#include "libtemplate/core/template_file.hpp"

namespace ptmpl {

namespace {

constexpr int kMinutesPerDay = 480;
// The service's link types (0 = SS, 1 = SF, 2 = FS, 3 = FF) in MSPDI's numbering (0 = FF,
// 1 = FS, 2 = SF, 3 = SS): the inverse of the reader's table.
constexpr int kMspdiLinkType[4] = {3, 2, 1, 0};
constexpr std::int64_t kMaxUid = 2147483647;

class Writer {
 public:
  Writer(const TemplateFile& file, const TemplateSource& source, const ExportOptions& options, Calendar calendar)
      : file_(file), source_(source), options_(options), calendar_(std::move(calendar)) {}

  Result<Conversion> run();

 private:
  void report(std::string_view rule, const json::Value& at, std::string pointer, std::string message,
              std::vector<std::string> topics = {});
  void assign_uids();
  [[nodiscard]] std::size_t expected_size() const;
  void write_project(detail::XmlWriter& xml);
  // The values of the story `index` that MSPDI keeps as extended attributes (mspdi_fields.hpp).
  [[nodiscard]] std::vector<std::pair<detail::mspdi::StoryField, std::string>> extended_values(std::size_t index) const;
  void write_extended_fields(detail::XmlWriter& xml);
  void write_calendar(detail::XmlWriter& xml);
  void write_tasks(detail::XmlWriter& xml);
  void write_resources(detail::XmlWriter& xml);
  void report_losses();
  [[nodiscard]] std::optional<std::string> date_time(std::int64_t offset, const char* time) const;

  const TemplateFile& file_;
  const TemplateSource& source_;
  ExportOptions options_;
  Calendar calendar_;
  std::vector<Diagnostic> diagnostics_;
  std::unique_ptr<const ScheduledTemplate> planned_;
  std::unique_ptr<const Rollup> rollup_;
  std::vector<std::int64_t> uid_;     // per story, pre-order
  std::vector<bool> uid_is_temp_id_;  // per story: its temp_id is its task's UID
};

void Writer::report(std::string_view rule, const json::Value& at, std::string pointer, std::string message,
                    std::vector<std::string> topics) {
  const ConversionRule* info = nullptr;
  for (const ConversionRule& r : conversion_rules())
    if (r.id == rule) info = &r;
  Diagnostic d;
  d.rule = std::string(rule);
  d.severity = conversion_severity(*info, options_.strict, options_.allow);
  d.message = std::move(message);
  d.path = file_.path();
  d.pointer = std::move(pointer);
  d.topics = std::move(topics);
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

// Room for the whole document, so that it is written without being moved: generous bounds of
// each part's lines at their indentation (a task's fixed elements are under 800 bytes with
// seven-digit numbers), plus the texts copied into it.
std::size_t Writer::expected_size() const {
  std::size_t size = 4096;  // the declaration, project header and calendar: about 2.5 KB
  for (const TemplateAssignment& a : source_.model.assignments) size += 160 + a.name.size();
  for (std::size_t i = 0; i < planned_->graph().size(); ++i) {
    const Story& story = planned_->graph().story(i);
    size += 800 + story.title.value_or("").size() + story.description.value_or("").size();
    if (story.assignments) size += 160 * story.assignments->size();
    if (story.tag_list) size += 100 + story.tag_list->size();
    if (story.checklist)
      for (std::string_view item : *story.checklist) size += 8 + item.size();
  }
  return size + 256 * planned_->graph().links().size();
}

// Integer temp_ids in MSPDI's UID range keep their value (so a plan converted back keeps its
// temp_ids); the others get fresh UIDs above the largest one kept.
void Writer::assign_uids() {
  const std::size_t n = planned_->graph().size();
  uid_.assign(n, 0);
  std::set<std::int64_t> taken;
  for (std::size_t i = 0; i < n; ++i) {
    const Story& story = planned_->graph().story(i);
    const std::optional<TempId> temp_id = story.temp_id;
    const auto* id = temp_id ? std::get_if<std::int64_t>(&*temp_id) : nullptr;
    if (id != nullptr && *id >= 1 && *id <= kMaxUid && taken.insert(*id).second) uid_[i] = *id;
  }
  uid_is_temp_id_.assign(n, false);
  for (std::size_t i = 0; i < n; ++i) uid_is_temp_id_[i] = uid_[i] != 0;
  std::int64_t next = taken.empty() ? 1 : *taken.rbegin() + 1;
  for (std::size_t i = 0; i < n; ++i) {
    if (uid_[i] != 0) continue;
    while (taken.count(next) != 0) ++next;
    uid_[i] = next;
    taken.insert(next);
    const Story& story = planned_->graph().story(i);
    const std::string why =
        story.temp_id ? " (MSPDI task UIDs are integers from 1 to 2147483647, unique); its "
                        "temp_id is kept as \"" +
                            std::string(detail::mspdi::extended_field(detail::mspdi::StoryField::TempId).alias) + "\""
                      : " (it has no temp_id)";
    report("mspdi-export-temp-id", story.origin.node, story.pointer(),
           "story " + (story.temp_id ? temp_id_key(*story.temp_id) + " " : std::string()) + "\"" +
               std::string(story.title.value_or("")) + "\" becomes task UID " + std::to_string(next) + why);
  }
}

void Writer::write_project(detail::XmlWriter& xml) {
  const Template& model = source_.model;
  const std::string title(model.title.value_or("Template"));
  xml.element("SaveVersion", 14);
  xml.element("Name", title + ".xml");
  xml.element("Title", title);
  xml.element("ScheduleFromStart", 1);
  xml.element("StartDate", format_date(calendar_.day_zero()) + "T08:00:00");
  if (model.currency) xml.element("CurrencyCode", *model.currency);
  xml.element("CalendarUID", 1);
  xml.element("DefaultStartTime", "08:00:00");
  xml.element("DefaultFinishTime", "17:00:00");
  xml.element("MinutesPerDay", kMinutesPerDay);
  xml.element("MinutesPerWeek", kMinutesPerDay * calendar_.week().size());
  xml.element("DaysPerMonth", 20);
  xml.element("DurationFormat", 7);
  xml.element("WorkFormat", 2);
  xml.element("NewTasksEstimated", 0);
  write_extended_fields(xml);
}

std::vector<std::pair<detail::mspdi::StoryField, std::string>> Writer::extended_values(std::size_t index) const {
  using detail::mspdi::StoryField;
  const Story& story = planned_->graph().story(index);
  std::vector<std::pair<StoryField, std::string>> values;
  // A value of the wrong type is not the model's (report_losses() reports it).
  if (story.tag_list && !story.irregular(StoryKey::TagList)) values.emplace_back(StoryField::Tags, *story.tag_list);
  if (story.checklist && !story.irregular(StoryKey::Checklist)) {
    JsonEmitter list(JsonLayout::Compact);
    list.begin_array();
    for (std::string_view item : *story.checklist) list.string(item);
    list.end_array();
    values.emplace_back(StoryField::Checklist, list.finish());
  }
  if (story.weight && !story.irregular(StoryKey::Weight))
    values.emplace_back(StoryField::Weight, std::to_string(*story.weight));
  if (story.temp_id && !uid_is_temp_id_[index]) values.emplace_back(StoryField::TempId, temp_id_key(*story.temp_id));
  return values;
}

// The custom fields the stories use, declared once with their aliases.
void Writer::write_extended_fields(detail::XmlWriter& xml) {
  bool used[std::size(detail::mspdi::kExtendedFields)] = {};
  bool any = false;
  for (std::size_t i = 0; i < planned_->graph().size(); ++i)
    for (const auto& [field, value] : extended_values(i)) any = used[static_cast<std::size_t>(field)] = true;
  if (!any) return;
  xml.start_element("ExtendedAttributes");
  for (const detail::mspdi::ExtendedField& f : detail::mspdi::kExtendedFields) {
    if (!used[static_cast<std::size_t>(f.field)]) continue;
    xml.start_element("ExtendedAttribute");
    xml.element("FieldID", f.field_id);
    xml.element("FieldName", f.field_name);
    xml.element("Alias", f.alias);
    xml.end_element();
  }
  xml.end_element();
}

void Writer::write_calendar(detail::XmlWriter& xml) {
  xml.start_element("Calendars");
  xml.start_element("Calendar");
  xml.element("UID", 1);
  xml.element("Name", "Standard");
  xml.element("IsBaseCalendar", 1);
  xml.element("BaseCalendarUID", -1);
  xml.start_element("WeekDays");
  auto working_times = [&xml] {
    xml.start_element("WorkingTimes");
    for (const auto& [from, to] : {std::pair{"08:00:00", "12:00:00"}, std::pair{"13:00:00", "17:00:00"}}) {
      xml.start_element("WorkingTime");
      xml.element("FromTime", from);
      xml.element("ToTime", to);
      xml.end_element();
    }
    xml.end_element();
  };
  for (unsigned day = 1; day <= 7; ++day) {  // MSPDI: DayType 1–7 = Sunday–Saturday
    xml.start_element("WeekDay");
    xml.element("DayType", static_cast<int>(day));
    const bool working = calendar_.week().works(std::chrono::weekday{day - 1});
    xml.element("DayWorking", working ? 1 : 0);
    if (working) working_times();
    xml.end_element();
  }
  xml.end_element();  // WeekDays
  // The block's holidays and working dates as exceptions (Project 2007 and later), a run of
  // consecutive dates as one.
  if (!calendar_.holidays().empty() || !calendar_.working_dates().empty()) {
    xml.start_element("Exceptions");
    for (const bool working : {false, true}) {
      const std::span<const Date> dates = working ? calendar_.working_dates() : calendar_.holidays();
      for (std::size_t i = 0; i < dates.size();) {
        std::size_t j = i + 1;
        while (j < dates.size() && dates[j] == dates[j - 1] + std::chrono::days{1}) ++j;
        xml.start_element("Exception");
        xml.element("EnteredByOccurrences", 0);
        xml.start_element("TimePeriod");
        xml.element("FromDate", format_date(dates[i]) + "T00:00:00");
        xml.element("ToDate", format_date(dates[j - 1]) + "T23:59:00");
        xml.end_element();
        xml.element("Occurrences", 1);
        xml.element("Name", working ? "Working" : "Holiday");
        xml.element("Type", 1);
        xml.element("DayWorking", working ? 1 : 0);
        if (working) working_times();
        xml.end_element();
        i = j;
      }
    }
    xml.end_element();  // Exceptions
  }
  xml.end_element();  // Calendar
  xml.end_element();  // Calendars
}

std::string hours(std::int64_t minutes) {
  return "PT" + std::to_string(minutes / 60) + "H" + std::to_string(minutes % 60) + "M0S";
}

void Writer::write_tasks(detail::XmlWriter& xml) {
  xml.start_element("Tasks");
  const DependencyGraph& graph = planned_->graph();
  const Schedule& schedule = planned_->schedule();
  // Incoming links by target, in tree order of their sources.
  std::vector<std::vector<const Link*>> incoming(graph.size());
  for (const Link& link : graph.links())
    if (link.schedulable()) incoming[link.target].push_back(&link);

  std::vector<std::string> outline(graph.size());
  std::vector<int> children(graph.size() + 1, 0);  // last slot: the top level
  for (std::size_t i = 0; i < graph.size(); ++i) {
    const std::size_t parent = graph.parent(i);
    const int number = ++children[parent == DependencyGraph::npos ? graph.size() : parent];
    outline[i] = (parent == DependencyGraph::npos ? "" : outline[parent] + ".") + std::to_string(number);

    const Story& story = graph.story(i);
    const ScheduledStory& scheduled = schedule[i];
    const bool parent_story = story.is_parent();
    const bool milestone = !parent_story && story.effective_type() == StoryType::Milestone;
    // Declared dates where the story has them (a leaf), else the schedule's (parents roll up).
    // A leaf's scheduled length is its story_length().
    // A milestone at the end of its day (docs/semantics.md §4) is written at the day's finish.
    std::int64_t start = scheduled.early.first_day();
    std::int64_t due = scheduled.early.due;
    std::int64_t length = scheduled.early.length();
    if (!parent_story && story.relative_start_date) {
      start = *story.relative_start_date;
      due = milestone || length == 0 ? start : start + length - 1;
    }
    const bool end_side = !parent_story && length == 0 && scheduled.early.end_side && start == scheduled.early.due;
    if (parent_story) length = scheduled.early.days();

    xml.start_element("Task");
    xml.element("UID", static_cast<std::int64_t>(uid_[i]));
    xml.element("ID", static_cast<std::int64_t>(i + 1));
    xml.element("Name", story.title.value_or(""));
    xml.element("Type", 1);  // fixed duration
    xml.element("IsNull", 0);
    xml.element("OutlineNumber", outline[i]);
    xml.element("OutlineLevel", static_cast<std::int64_t>(schedule.depth(i) + 1));
    const auto day_start_text = date_time(start, "08:00:00");
    const auto start_text = end_side ? date_time(start, "17:00:00") : day_start_text;
    const auto finish_text = milestone || length == 0 ? start_text : date_time(due, "17:00:00");
    if (start_text && finish_text) {
      xml.element("Start", *start_text);
      xml.element("Finish", *finish_text);
    } else {
      report("mspdi-export-date", story.origin.node, story.pointer(),
             "story \"" + std::string(story.title.value_or("")) + "\": its working days " + std::to_string(start) +
                 " to " + std::to_string(due) + " from " + format_date(calendar_.day_zero()) +
                 " do not all fall within the years 1 to 9999; the task is written without Start and Finish");
    }
    const std::string duration = hours(length * kMinutesPerDay);
    xml.element("Duration", duration);
    xml.element("DurationFormat", 7);
    const Amount& work_amount = rollup_->effective(i, Estimate::TimeInMinutes);
    const std::optional<std::string> work =
        work_amount.known() && work_amount.value >= 0 ? std::optional(hours(work_amount.value)) : std::nullopt;
    if (work) xml.element("Work", *work);
    xml.element("Estimated", 0);
    xml.element("Milestone", milestone ? 1 : 0);
    xml.element("Summary", parent_story ? 1 : 0);
    // A task not yet started, as MS Project writes one: no progress, no actuals, everything
    // still to do (schedulers that read MSPDI expect the actual and remaining values).
    xml.element("PercentComplete", 0);
    xml.element("PercentWorkComplete", 0);
    const Amount& cost_amount = rollup_->effective(i, Estimate::BudgetInCents);
    const bool has_cost = cost_amount.known() && cost_amount.value >= 0;
    const auto cost = has_cost ? static_cast<std::int64_t>(cost_amount.value) : std::int64_t{0};
    if (has_cost) xml.element("Cost", cost);
    xml.element("OvertimeCost", 0);
    xml.element("OvertimeWork", "PT0H0M0S");
    xml.element("ActualDuration", "PT0H0M0S");
    xml.element("ActualCost", 0);
    xml.element("ActualOvertimeCost", 0);
    xml.element("ActualWork", "PT0H0M0S");
    xml.element("ActualOvertimeWork", "PT0H0M0S");
    if (work) xml.element("RegularWork", *work);
    xml.element("RemainingDuration", duration);
    if (has_cost) xml.element("RemainingCost", cost);
    if (work) xml.element("RemainingWork", *work);
    xml.element("RemainingOvertimeCost", 0);
    xml.element("RemainingOvertimeWork", "PT0H0M0S");
    // A declared start is a start-no-earlier-than (docs/semantics.md §5): MSPDI constraint type 4.
    if (!parent_story && story.relative_start_date && start_text) {
      xml.element("ConstraintType", 4);
      xml.element("ConstraintDate", *day_start_text);
    } else {
      xml.element("ConstraintType", 0);
    }
    if (story.description && !story.description->empty()) xml.element("Notes", *story.description);
    for (const Link* link : incoming[i]) {
      xml.start_element("PredecessorLink");
      xml.element("PredecessorUID", static_cast<std::int64_t>(uid_[link->source]));
      xml.element("Type", kMspdiLinkType[static_cast<int>(*link->type)]);
      xml.element("CrossProject", 0);
      xml.element("LinkLag", static_cast<std::int64_t>(link->lag * kMinutesPerDay * 10));
      xml.element("LagFormat", 7);
      xml.end_element();
    }
    for (const auto& [field, value] : extended_values(i)) {
      xml.start_element("ExtendedAttribute");
      xml.element("FieldID", detail::mspdi::extended_field(field).field_id);
      xml.element("Value", value);
      xml.end_element();
    }
    xml.end_element();
  }
  xml.end_element();
}

void Writer::write_resources(detail::XmlWriter& xml) {
  xml.start_element("Resources");
  std::set<std::int64_t> known;
  std::size_t id = 0;
  for (const TemplateAssignment& a : source_.model.assignments) {
    if (a.id < 1 || a.id > kMaxUid || !known.insert(a.id).second) continue;
    xml.start_element("Resource");
    xml.element("UID", static_cast<std::int64_t>(a.id));
    xml.element("ID", static_cast<std::int64_t>(++id));
    xml.element("Name", a.name);
    xml.element("Type", 1);
    xml.element("IsNull", 0);
    xml.end_element();
  }
  xml.end_element();
  xml.start_element("Assignments");
  std::int64_t uid = 0;
  for (std::size_t i = 0; i < planned_->graph().size(); ++i) {
    const Story& story = planned_->graph().story(i);
    if (!story.assignments) continue;
    for (std::int64_t assignee : *story.assignments) {
      if (known.count(assignee) == 0) continue;  // lint's assignment-unknown
      xml.start_element("Assignment");
      xml.element("UID", ++uid);
      xml.element("TaskUID", static_cast<std::int64_t>(uid_[i]));
      xml.element("ResourceUID", static_cast<std::int64_t>(assignee));
      xml.element("Units", 1);
      xml.end_element();
    }
  }
  xml.end_element();
}

// What MSPDI has no place for: one finding per key, of the template and of each story.
void Writer::report_losses() {
  // The template's own keys: its title and currency are the project's; item_count, duration
  // and the budget are computed again when the file is read; the rest (description, shared,
  // id, unknown keys) has no place (a project's Subject is a short label, not a description).
  if (const json::Value* pt = source_.template_pointer.empty()
                                  ? nullptr
                                  : json::resolve_pointer(file_.document().root(), source_.template_pointer)) {
    for (const json::Member& m : pt->members()) {
      const std::string_view key = m.key.text();
      if (key == "raw_json" || key == "title" || key == "currency" || key == "item_count" || key == "duration" ||
          key == "budget" || key == "is_budgeted" || key == "project_template_assignments")
        continue;
      report("mspdi-export-dropped", m.value, source_.template_pointer + "/" + std::string(key),
             "the template's " + std::string(key) + " has no place in MS Project XML");
    }
  }

  for (std::size_t i = 0; i < planned_->graph().size(); ++i) {
    const Story& story = planned_->graph().story(i);
    auto lost = [&](std::string_view key, std::string why) {
      const json::Value* value = story.origin.node.find(key);
      if (value == nullptr) return;
      report("mspdi-export-dropped", *value, story.pointer() + "/" + std::string(key),
             "story \"" + std::string(story.title.value_or("")) + "\": " + std::string(key) + " " + why,
             {std::string(key)});
    };
    if (story.story_type == StoryType::Deliverable && !story.is_parent())
      lost("story_type", "\"deliverable\" has no place in MS Project XML: the task is a plain task");
    // Tags, checklists and weights of the right type are extended attributes (extended_values()).
    const std::string_view wrong_type = "is not written: its value is not one a template holds (`ptmpl lint` says why)";
    if (story.irregular(StoryKey::TagList)) lost("tag_list", std::string(wrong_type));
    if (story.irregular(StoryKey::Checklist)) lost("checklist", std::string(wrong_type));
    if (story.irregular(StoryKey::Weight)) lost("weight", std::string(wrong_type));
    lost("billable", "has no place in MS Project XML");
    if (story.is_parent()) {
      lost("budget_estimate_in_cents", "of a parent: MS Project rolls a summary's cost up from its tasks");
      lost("time_estimate_in_minutes", "of a parent: MS Project rolls a summary's work up from its tasks");
    }
    for (const json::Member& extra : story.extra)
      report("mspdi-export-dropped", extra.value, story.pointer() + "/" + std::string(extra.key.text()),
             "story \"" + std::string(story.title.value_or("")) + "\": unknown key \"" + std::string(extra.key.text()) +
                 "\" has no place in MS Project XML",
             {std::string(extra.key.text())});
  }
}

Result<Conversion> Writer::run() {
  planned_ = std::make_unique<const ScheduledTemplate>(source_.model.stories);
  const Schedule& schedule = planned_->schedule();
  if (!schedule.ok())
    return Error::invalid(
        file_.path() + ": the template has no schedule (" +
        (schedule.cycles().empty() ? std::string("dates out of range") : std::string("a dependency cycle")) +
        "); `ptmpl lint` shows where");
  rollup_ = std::make_unique<const Rollup>(planned_->index());
  assign_uids();
  detail::for_each_non_story(source_,
                             [&](const json::Value& item, const std::string& pointer, std::string_view expected) {
                               report("mspdi-export-dropped-story", item, pointer,
                                      pointer + " is " + std::string(json::kind_name(item)) + ", not " +
                                          std::string(expected) + "; it is not written");
                             });

  detail::XmlWriter xml(expected_size());
  xml.declaration();
  xml.attribute("version", "1.0");
  xml.attribute("encoding", "UTF-8");
  xml.attribute("standalone", "yes");
  xml.start_element("Project");
  xml.attribute("xmlns", "http://schemas.microsoft.com/project");
  write_project(xml);
  write_calendar(xml);
  write_tasks(xml);
  write_resources(xml);
  xml.end_element();
  report_losses();
  for (const Link& link : planned_->graph().links())
    if (!link.schedulable())
      report("mspdi-export-dropped", link.dependency->node,
             planned_->graph().story(link.source).dependency_pointer(*link.dependency),
             "a dependency that is invalid (see `ptmpl lint`) has no place in MS Project XML",
             {"invalid dependencies"});

  Conversion conversion;
  conversion.document = xml.finish();
  std::sort(diagnostics_.begin(), diagnostics_.end());
  conversion.diagnostics = std::move(diagnostics_);
  return conversion;
}

}  // namespace

Result<Conversion> export_mspdi(const TemplateFile& file, const ExportOptions& options) {
  if (auto error = detail::unexportable(file)) return *error;
  if (!file.document().ok() || file.templates().empty())
    return Error::invalid(file.path() + ": not a template ptmpl can read (run `ptmpl lint` on it)");
  if (file.templates().size() > 1)
    return Error::invalid(file.path() + ": holds " + std::to_string(file.templates().size()) +
                          " templates; MS Project XML holds one project");
  // The calendar block, with the start given overriding its own (docs/semantics.md §4).
  CalendarFlags flags;
  flags.start = options.start;
  auto calendar = resolve_calendar(file, file.templates()[0], flags);
  if (!calendar.ok()) return calendar.error();
  Calendar chosen = calendar.value().value_or(Calendar(WorkWeek::monday_to_friday(), options.default_start));
  if (!calendar.value() && file.templates()[0].model.calendar)
    chosen = calendar_of(*file.templates()[0].model.calendar, options.default_start);
  return Writer(file, file.templates()[0], options, std::move(chosen)).run();
}

Result<Conversion> export_mspdi(std::string_view text, const std::string& path, const ExportOptions& options) {
  if (detect_plan_format(text) != PlanFormat::Template)
    return Error::usage(path + ": --to mspdi writes a template as MS Project XML; this is not a template (JSON)");
  const TemplateFile file = TemplateFile::parse(path, FileText::borrow(text));
  if (!file.document().ok()) {
    const json::ParseIssue& issue = file.document().issues().front();
    const json::Position p = file.document().position(issue.offset);
    return Error::invalid(format_place(path, p.line, p.column) + ": " + issue.message);
  }
  return export_mspdi(file, options);
}

}  // namespace ptmpl
