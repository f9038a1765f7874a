// GanttProject `.gan` → template document (docs/semantics.md §7).
//
// Nested `<task>` elements become stories and sub_stories, with the task `id` as temp_id.
// GanttProject stores each task's start date and its duration in working days; the start
// becomes a working-day offset from day 0 (the earliest task start, moved to a working day)
// through the file's own calendar, and the due is start + duration − 1 (docs/semantics.md §4). Parents span
// their children. Links sit in the predecessor (`<depend>`), which is where a template keeps
// them too; only the type numbering changes.
#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>

#include <pugixml.hpp>

#include "convert/day_counter.hpp"
#include "convert/findings.hpp"
#include "convert/gan_calendar.hpp"
#include "convert/xml_text.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/diagnostic.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/rollup.hpp"
#include "libtemplate/core/story_writer.hpp"
#include "libtemplate/core/template_file.hpp"

namespace ptmpl {

// Named, so that the reader's names (Reader, Task, Link) stay apart from the other readers' in a
// unity build of the library.
namespace gan {
namespace {

// GanttProject link types (1 = SS, 2 = FS, 3 = FF, 4 = SF) in the service's numbering (docs/semantics.md §5).
constexpr std::int64_t kServiceLinkType[5] = {-1, 0, 2, 3, 1};

// GanttProject task priorities; 1 (normal) is the default.
constexpr std::string_view kPriorityName[5] = {"low", "normal", "high", "lowest", "highest"};

std::string_view attr(pugi::xml_node node, const char* name) {
  return node.attribute(name).as_string();
}

std::optional<std::int64_t> attr_int(pugi::xml_node node, const char* name) {
  return json::parse_int64(attr(node, name));
}

bool attr_true(pugi::xml_node node, const char* name) {
  return attr(node, name) == "true";
}

std::string trimmed(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const std::size_t last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

std::int64_t add_cents(std::int64_t a, std::int64_t b) {
  std::int64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? std::numeric_limits<std::int64_t>::max() : sum;
}

struct Link {
  std::int64_t successor = 0;
  std::int64_t type = 2;  // service numbering
  std::int64_t lag = 0;   // working days
};

struct Task {
  std::int64_t id = 0;
  bool has_id = true;  // false for a second task with the same id: it gets no temp_id
  std::string title;
  pugi::xml_node node;
  std::optional<std::size_t> parent;
  std::vector<std::size_t> children;
  bool milestone = false;
  std::optional<Date> start_date;
  std::optional<std::int64_t> length;  // GanttProject's duration, working days
  std::optional<std::int64_t> start;
  std::optional<std::int64_t> due;
  std::optional<std::int64_t> duration;
  std::string notes;
  std::optional<std::int64_t> cost_cents;
  std::vector<std::int64_t> resources;
  std::vector<Link> links;
};

class Reader {
 public:
  Reader(std::string_view text, const std::string& path, const ConvertOptions& options)
      : text_(text), path_(path), lines_(text), findings_(text, path, options) {}

  Result<Conversion> run();

 private:
  void report(std::string_view rule, pugi::xml_node at, std::string message) {
    findings_.report(rule, at ? at.offset_debug() : -1, std::move(message));
  }
  [[nodiscard]] std::string task_name(const Task& task) const;
  void read_calendar();
  void report_calendar();
  Status read_tasks();
  std::size_t read_task(pugi::xml_node node, std::optional<std::size_t> parent);
  void read_dates(Task& task);
  void read_cost(Task& task);
  void report_task_fields(const Task& task);
  void read_links();
  void read_link(Task& task, pugi::xml_node depend, std::set<std::pair<std::int64_t, std::int64_t>>& seen);
  [[nodiscard]] bool related(std::size_t a, std::size_t b) const;
  void keep_milestone_days();
  void read_resources();
  void read_allocations();
  void report_calculated_costs();
  void report_other_sections();
  void place_tasks();
  void roll_up();
  [[nodiscard]] Story story_of(const Task& task, std::vector<Dependency>& dependencies) const;
  [[nodiscard]] std::string write_document() const;

  std::string_view text_;
  const std::string& path_;
  json::LineIndex lines_;
  detail::FindingSink findings_;
  pugi::xml_document xml_;
  pugi::xml_node project_;

  gan::WorkCalendar calendar_;
  std::optional<CalendarBlock> calendar_block_;  // what the template records of the calendar
  std::vector<Task> tasks_;
  std::unordered_map<std::int64_t, std::size_t> by_id_;
  std::vector<std::size_t> roots_;
  std::map<std::int64_t, std::string> resources_;  // by id, named resources only
  std::map<std::int64_t, bool> resource_has_rate_;
  std::set<std::string> calculated_properties_;  // custom properties GanttProject derives
};

std::string Reader::task_name(const Task& task) const {
  return "task " + (task.has_id ? std::to_string(task.id) + " " : std::string()) + "\"" + task.title + "\"";
}

Result<Conversion> Reader::run() {
  // No DTD is processed (parse_default keeps it out of the tree) and pugixml expands no entity
  // but XML's five predefined ones.
  const pugi::xml_parse_result parsed =
      xml_.load_buffer(text_.data(), text_.size(), pugi::parse_default, pugi::encoding_auto);
  if (!parsed) {
    const json::Position p = lines_.position(static_cast<std::uint64_t>(std::max<std::ptrdiff_t>(parsed.offset, 0)));
    return Error::invalid(format_place(path_, p.line, p.column) + ": not well-formed XML: " + parsed.description());
  }
  if (auto error = detail::check_xml_text(xml_, parsed, text_, path_)) return *error;
  project_ = xml_.document_element();
  if (std::string_view(project_.name()) != "project")
    return Error::invalid(path_ + ": not a GanttProject file (its root element is <" + std::string(project_.name()) +
                          ">, not <project>)");
  read_calendar();
  if (Status read = read_tasks(); !read.ok()) return read.error();
  read_links();
  keep_milestone_days();
  read_resources();
  read_allocations();
  report_calculated_costs();
  report_other_sections();
  place_tasks();
  roll_up();
  Conversion out;
  out.document = write_document();
  if (calendar_block_) {
    out.day_zero = calendar_block_->start;
    out.day_zero_source = "the earliest task's start";
  }
  out.diagnostics = findings_.take();
  return out;
}

void Reader::read_calendar() {
  const pugi::xml_node calendars = project_.child("calendars");
  std::vector<std::pair<pugi::xml_node, std::string>> problems;
  calendar_ = gan::WorkCalendar::read(calendars, problems);
  for (auto& [node, message] : problems) report("gan-calendar", node, std::move(message));
  report_calendar();
}

// The template's calendar block keeps the plan's calendar, but the service applies a template
// with its own (a workweek, or weekends as working days), so another week or other holidays
// move its dates there. Said once per kind of difference.
void Reader::report_calendar() {
  const pugi::xml_node calendars = project_.child("calendars");
  constexpr std::string_view kDayName[7] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                            "Thursday", "Friday", "Saturday"};
  const std::array<bool, 7> week = calendar_.week();
  if (calendar_.weekends_work()) {
    report("gan-calendar", calendars,
           "tasks run on weekends in this plan, so every day of the week is a working day; apply the template "
           "with weekends as working days (a 7-day week)");
  } else if (week != std::array<bool, 7>{false, true, true, true, true, true, false}) {
    std::string days;
    for (std::size_t d = 1; d <= 7; ++d)
      if (week[d % 7]) days += (days.empty() ? "" : ", ") + std::string(kDayName[d % 7]);
    report("gan-calendar", calendars,
           "the plan's working week is " + (days.empty() ? std::string("empty") : days) +
               ", not Monday to Friday; offsets count its working days");
  }
  const std::size_t holidays = calendar_.holiday_count();
  const std::size_t extra = calendar_.working_day_count();
  if (holidays + extra > 0)
    report(
        "gan-calendar", calendars.child("date"),
        "the plan's calendar has " + std::to_string(holidays) + " holiday(s) and " + std::to_string(extra) +
            " extra working day(s); offsets count around them, and the template's calendar block keeps them, but the "
            "service applies a template with its own calendar");
}

Status Reader::read_tasks() {
  const pugi::xml_node tasks = project_.child("tasks");
  for (pugi::xml_node property : tasks.child("taskproperties").children("taskproperty"))
    if (property.child("simple-select")) calculated_properties_.insert(std::string(attr(property, "id")));
  // Depth first without recursion (a hand-made file may nest deeply): children are pushed in
  // reverse so they come off the stack in document order.
  struct Pending {
    pugi::xml_node node;
    std::optional<std::size_t> parent;
    std::size_t depth;  // 1 = the top level
  };
  std::vector<Pending> stack;
  auto push_children = [&](pugi::xml_node parent, std::optional<std::size_t> index, std::size_t depth) {
    const std::size_t mark = stack.size();
    for (pugi::xml_node child : parent.children("task")) stack.push_back({child, index, depth});
    std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(mark), stack.end());
  };
  push_children(tasks, std::nullopt, 1);
  while (!stack.empty()) {
    const Pending pending = stack.back();
    stack.pop_back();
    if (pending.depth > detail::kMaxStoryLevels) {
      const json::Position p =
          lines_.position(static_cast<std::uint64_t>(std::max<std::ptrdiff_t>(pending.node.offset_debug(), 0)));
      const std::optional<std::int64_t> id = attr_int(pending.node, "id");
      return detail::too_deep_error(format_place(path_, p.line, p.column),
                                    "task " + (id ? std::to_string(*id) + " " : std::string()) + "\"" +
                                        std::string(attr(pending.node, "name")) + "\"",
                                    pending.depth);
    }
    push_children(pending.node, read_task(pending.node, pending.parent), pending.depth + 1);
  }
  return Done{};
}

std::size_t Reader::read_task(pugi::xml_node node, std::optional<std::size_t> parent) {
  Task task;
  task.node = node;
  task.parent = parent;
  task.title = std::string(attr(node, "name"));
  const std::optional<std::int64_t> id = attr_int(node, "id");
  task.has_id = id && by_id_.count(*id) == 0;
  if (task.has_id) task.id = *id;
  if (trimmed(task.title).empty()) {
    task.title = id ? "Task " + std::to_string(*id) : "Untitled task";
    report("gan-untitled-task", node, "a task has no name; it is called \"" + task.title + "\"");
  }
  if (!task.has_id)
    report("gan-task-id", node,
           "task \"" + task.title + "\" has " +
               (id ? "the id " + std::to_string(*id) + " of an earlier task" : std::string("no valid id")) +
               "; it gets no temp_id, and its own links are dropped");
  task.milestone = attr_true(node, "meeting");
  task.notes = trimmed(node.child("notes").text().as_string());
  read_dates(task);
  read_cost(task);
  report_task_fields(task);
  const std::size_t index = tasks_.size();
  if (task.has_id) by_id_.emplace(task.id, index);
  if (parent)
    tasks_[*parent].children.push_back(index);
  else
    roots_.push_back(index);
  tasks_.push_back(std::move(task));
  return index;
}

void Reader::read_dates(Task& task) {
  const pugi::xml_node node = task.node;
  task.start_date = parse_date(attr(node, "start"));
  if (!task.start_date)
    report("gan-task-dates", node,
           task_name(task) + " has no valid start (\"" + std::string(attr(node, "start")) + "\"); it keeps no dates");
  task.length = attr_int(node, "duration");
  if (task.length && (*task.length < 0 || *task.length > 1'000'000)) task.length.reset();
  if (task.start_date && !task.length && !task.milestone)
    report("gan-task-dates", node,
           task_name(task) + " has no valid duration (\"" + std::string(attr(node, "duration")) +
               "\"); it keeps only its start");
  if (attr(node, "thirdDate-constraint") == "1")
    report("gan-earliest-start", node,
           task_name(task) + " has the earliest start " + std::string(attr(node, "thirdDate")) +
               "; only its start is kept (as a start-no-earlier-than)");
}

// GanttProject 3: a task's cost is either typed in (cost-manual-value, in major units) or
// calculated from its resources' rates (cost-calculated="true").
void Reader::read_cost(Task& task) {
  const pugi::xml_node node = task.node;
  if (attr_true(node, "cost-calculated") || !node.attribute("cost-manual-value")) return;
  const std::string_view spelling = attr(node, "cost-manual-value");
  const BudgetCents cents = budget_to_cents(spelling);
  if (cents.status == BudgetCents::Status::Exact && !cents.negative) {
    if (cents.cents != 0) task.cost_cents = cents.cents;
    return;
  }
  report("gan-cost", node,
         task_name(task) + " has the cost \"" + std::string(spelling) +
             "\", which is not a whole, non-negative number of cents; it is not kept");
}

void Reader::report_task_fields(const Task& task) {
  const pugi::xml_node node = task.node;
  // A summary task's completion is its sub-tasks' (GanttProject computes it): reported there.
  const std::int64_t complete = attr_int(node, "complete").value_or(0);
  if (complete > 0 && !node.child("task"))
    report("gan-progress", node,
           task_name(task) + " is " + std::to_string(complete) + "% complete; a template keeps no progress");
  const std::string_view link = attr(node, "webLink");
  if (!link.empty() && link != "http://")
    report("gan-task-field", node, task_name(task) + " has the web link " + std::string(link) + ", which is not kept");
  if (const auto priority = attr_int(node, "priority"); priority && *priority != 1)
    report("gan-task-field", node,
           task_name(task) + " has the priority " +
               (*priority >= 0 && *priority < 5 ? std::string(kPriorityName[*priority]) : std::to_string(*priority)) +
               ", which is not kept");
  for (pugi::xml_node property : node.children("customproperty")) {
    const std::string id(attr(property, "taskproperty-id"));
    if (calculated_properties_.count(id) != 0) continue;
    report("gan-custom-property", property,
           task_name(task) + " has the custom property " + id + " = \"" + std::string(attr(property, "value")) +
               "\", which is not kept");
  }
}

void Reader::read_links() {
  std::set<std::pair<std::int64_t, std::int64_t>> seen;
  for (Task& task : tasks_)
    for (pugi::xml_node depend : task.node.children("depend")) read_link(task, depend, seen);
}

// GanttProject: a <depend> sits in the predecessor and its id names the successor.
void Reader::read_link(Task& task, pugi::xml_node depend, std::set<std::pair<std::int64_t, std::int64_t>>& seen) {
  const std::string from = "a link from " + task_name(task);
  if (!task.has_id) {
    report("gan-link-invalid", depend, from + " is dropped: the task has no temp_id");
    return;
  }
  const std::optional<std::int64_t> successor = attr_int(depend, "id");
  auto target = successor ? by_id_.find(*successor) : by_id_.end();
  if (target == by_id_.end()) {
    report("gan-link-invalid", depend,
           from + " names task " + std::string(attr(depend, "id")) + ", which is not in the plan; it is dropped");
    return;
  }
  const std::string link = from + " to " + task_name(tasks_[target->second]);
  const std::int64_t type = attr_int(depend, "type").value_or(2);
  if (type < 1 || type > 4) {
    report("gan-link-invalid", depend,
           link + " has the unknown type " + std::string(attr(depend, "type")) + "; it is dropped");
    return;
  }
  if (&tasks_[target->second] == &task || related(target->second, static_cast<std::size_t>(&task - tasks_.data()))) {
    report("gan-link-invalid", depend, link + " joins a task and its own summary or sub-task; it is dropped");
    return;
  }
  if (!seen.insert({task.id, *successor}).second) {
    report("gan-link-invalid", depend, link + " repeats an earlier link between them; it is dropped");
    return;
  }
  const std::optional<std::int64_t> lag = attr_int(depend, "difference");
  if (!lag && depend.attribute("difference"))
    report("gan-link-invalid", depend,
           link + " has the lag \"" + std::string(attr(depend, "difference")) +
               "\", which is not a whole number of days; it is read as 0");
  if (attr(depend, "hardness") == "Rubber")
    report("gan-rubber-link", depend,
           link +
               " is Rubber (the successor may start later than the link requires); it is kept as a normal link, "
               "which is a minimum too");
  task.links.push_back(Link{*successor, kServiceLinkType[type], lag.value_or(0)});
}

// Older GanttProject (no `empty-milestones` on <tasks>) gives a milestone a day of its own:
// its successors start the day after it. A template milestone has no length (docs/semantics.md §4), so its
// finish links get that day as lag.
void Reader::keep_milestone_days() {
  if (attr_true(project_.child("tasks"), "empty-milestones")) return;
  for (Task& task : tasks_) {
    if (!task.milestone || task.length.value_or(0) == 0 || !task.children.empty()) continue;
    std::size_t moved = 0;
    for (Link& link : task.links) {
      if (link.type != 2 && link.type != 3) continue;  // only FS and FF start from its finish
      ++link.lag;
      ++moved;
    }
    if (moved > 0)
      report("gan-milestone-day", task.node,
             task_name(task) + " is a milestone that lasts a day in this file (it has no empty-milestones setting); " +
                 std::to_string(moved) + " link(s) from its finish get one more day of lag");
  }
}

// Whether one task is an ancestor of the other.
bool Reader::related(std::size_t a, std::size_t b) const {
  auto above = [&](std::size_t low, std::size_t high) {
    for (std::optional<std::size_t> p = tasks_[low].parent; p; p = tasks_[*p].parent)
      if (*p == high) return true;
    return false;
  };
  return above(a, b) || above(b, a);
}

void Reader::read_resources() {
  for (pugi::xml_node node : project_.child("resources").children("resource")) {
    const auto id = attr_int(node, "id");
    const std::string name = trimmed(attr(node, "name"));
    if (!id || name.empty()) continue;
    resources_.emplace(*id, name);
    bool rate = false;
    for (pugi::xml_node r : node.children("rate")) rate = rate || r.attribute("value").as_double() != 0;
    resource_has_rate_[*id] = rate;
    if (rate)
      report("gan-resource-rates", node,
             "resource " + std::to_string(*id) + " \"" + name + "\" has a rate, which a template does not keep");
  }
}

void Reader::read_allocations() {
  for (pugi::xml_node node : project_.child("allocations").children("allocation")) {
    const auto task = attr_int(node, "task-id");
    const auto resource = attr_int(node, "resource-id");
    auto t = task ? by_id_.find(*task) : by_id_.end();
    if (t == by_id_.end() || !resource || resources_.count(*resource) == 0) continue;
    std::vector<std::int64_t>& list = tasks_[t->second].resources;
    if (std::find(list.begin(), list.end(), *resource) == list.end()) list.push_back(*resource);
    const double load = node.attribute("load").as_double(100);
    if (load != 100)
      report("gan-allocation-load", node,
             "resource " + std::to_string(*resource) + " \"" + resources_[*resource] + "\" works on " +
                 task_name(tasks_[t->second]) + " at " + std::string(attr(node, "load")) +
                 "%; a template assignment has no load");
  }
}

void Reader::report_calculated_costs() {
  for (const Task& task : tasks_) {
    if (!attr_true(task.node, "cost-calculated")) continue;
    const bool priced = std::any_of(task.resources.begin(), task.resources.end(),
                                    [&](std::int64_t r) { return resource_has_rate_[r]; });
    if (priced)
      report("gan-cost", task.node,
             task_name(task) + "'s cost is calculated from its resources' rates, which a template does not keep");
  }
}

void Reader::report_other_sections() {
  const std::size_t vacations =
      static_cast<std::size_t>(std::distance(project_.child("vacations").children("vacation").begin(),
                                             project_.child("vacations").children("vacation").end()));
  if (vacations > 0)
    report("gan-vacation", project_.child("vacations"),
           std::to_string(vacations) + " resource vacation(s) are not kept (template assignments are roles)");
  for (pugi::xml_node baseline : project_.child("previous").children("previous-tasks"))
    report("gan-baseline", baseline, "the baseline \"" + std::string(attr(baseline, "name")) + "\" is not kept");
}

// Start dates → working-day offsets from day 0 (the earliest start, moved to a working day).
void Reader::place_tasks() {
  std::optional<Date> first;
  std::optional<Date> last;
  for (const Task& task : tasks_) {
    if (!task.start_date) continue;
    first = first ? std::min(*first, *task.start_date) : *task.start_date;
    last = last ? std::max(*last, *task.start_date) : *task.start_date;
  }
  if (!first) return;
  if ((*last - *first).count() > 366 * 400) {
    report("gan-task-dates", project_.child("tasks"),
           "the plan's dates span more than 400 years; dates are not converted");
    return;
  }
  const detail::DayCounter counter([this](Date d) { return calendar_.working(d); }, *first, *first, *last);
  // docs/semantics.md §7: the template keeps the plan's day 0 (its first task's start), week and events.
  WorkWeek week = calendar_.weekends_work() ? WorkWeek::every_day() : WorkWeek();
  const std::array<bool, 7> days = calendar_.week();
  for (unsigned d = 0; d < 7; ++d)
    if (days[d]) week.add(std::chrono::weekday{d});
  if (!week.empty()) calendar_block_ = counter.calendar_block(counter.day_zero(), week);
  for (Task& task : tasks_) {
    if (!task.start_date) continue;
    if (!counter.working(*task.start_date))
      report("gan-off-calendar", task.node,
             task_name(task) + " starts on " + format_date(*task.start_date) +
                 ", not a working day of the plan's calendar; it starts on the next working day");
    task.start = counter.offset_on_or_after(*task.start_date);
    if (task.milestone) {
      task.due = task.start;
      task.duration = 0;
    } else if (task.length) {
      task.duration = *task.length;
      if (*task.length > 0) task.due = *task.start + *task.length - 1;
    }
  }
}

// A parent's dates are its children's span (docs/semantics.md §5 rolls parents up, as GanttProject does);
// its cost is its children's when they have any.
void Reader::roll_up() {
  std::vector<std::int64_t> subtree_cents(tasks_.size(), 0);
  for (std::size_t i = tasks_.size(); i-- > 0;) {
    Task& task = tasks_[i];
    if (task.children.empty()) {
      subtree_cents[i] = task.cost_cents.value_or(0);
      continue;
    }
    for (std::size_t c : task.children) subtree_cents[i] = add_cents(subtree_cents[i], subtree_cents[c]);
    if (task.cost_cents && *task.cost_cents != subtree_cents[i])
      report("gan-summary-cost", task.node,
             task_name(task) + " costs " + std::to_string(*task.cost_cents) + " cents, its sub-tasks " +
                 std::to_string(subtree_cents[i]) + "; the template keeps its sub-tasks' costs (and rolls them up)");
    task.cost_cents.reset();
    task.milestone = false;
    task.start.reset();
    task.due.reset();
    task.duration.reset();
    for (std::size_t c : task.children) {
      const Task& child = tasks_[c];
      if (!child.start) continue;
      const std::int64_t due = child.due.value_or(*child.start);  // a zero-length task holds its day
      task.start = task.start ? std::min(*task.start, *child.start) : *child.start;
      task.due = task.due ? std::max(*task.due, due) : due;
    }
    if (task.start) task.duration = *task.due - *task.start + 1;
  }
}

// A task as a story, but for its sub_stories and dependencies (`dependencies` holds them).
Story Reader::story_of(const Task& task, std::vector<Dependency>& dependencies) const {
  Story story;
  if (task.milestone) story.story_type = StoryType::Milestone;
  story.title = task.title;
  if (task.has_id) story.temp_id = task.id;
  if (task.start) story.relative_start_date = *task.start;
  if (task.due) story.relative_due_date = *task.due;
  if (task.duration) story.duration = *task.duration;
  if (!task.notes.empty()) story.description = task.notes;
  if (task.cost_cents) story.budget_estimate_in_cents = *task.cost_cents;
  if (!task.resources.empty()) story.assignments = std::span<const std::int64_t>(task.resources);
  dependencies.clear();
  for (const Link& link : task.links) {
    Dependency& dependency = dependencies.emplace_back();
    dependency.source_id = task.id;
    dependency.target_id = link.successor;
    dependency.type = link.type;
    dependency.lag = link.lag;
  }
  story.dependencies = dependencies;
  return story;
}

std::string Reader::write_document() const {
  json::Arena arena;
  Template head;
  std::optional<std::int64_t> min_start;
  std::optional<std::int64_t> max_due;
  std::int64_t total_cents = 0;
  bool any_cost = false;
  for (const Task& task : tasks_) {
    if (task.cost_cents) {
      total_cents = add_cents(total_cents, *task.cost_cents);
      any_cost = true;
    }
    if (!task.children.empty() || !task.start) continue;
    min_start = min_start ? std::min(*min_start, *task.start) : *task.start;
    const std::int64_t due = task.due.value_or(*task.start);
    max_due = max_due ? std::max(*max_due, due) : due;
  }
  std::string title = trimmed(attr(project_, "name"));
  if (title.empty()) {
    title = path_.substr(path_.find_last_of('/') + 1);
    title = title.substr(0, title.find_last_of('.'));
  }
  head.title = title;
  const std::string description = trimmed(project_.child("description").text().as_string());
  if (!description.empty()) head.description = description;
  if (any_cost) {
    head.is_budgeted = true;
    head.budget = json::Builder(arena).number_spelled(arena.copy(cents_to_budget(total_cents)));
  }
  if (min_start && max_due) head.duration = *max_due - *min_start + 1;
  head.item_count = static_cast<std::int64_t>(tasks_.size());
  for (const auto& [id, name] : resources_) head.assignments.push_back({id, name});
  head.calendar = calendar_block_;

  JsonEmitter json(JsonLayout::Pretty, text_.size());
  StoryWriter out(json);
  out.begin_template(head);
  std::vector<Dependency> dependencies;
  out.outline(
      roots_, [&](std::size_t i) -> const std::vector<std::size_t>& { return tasks_[i].children; },
      [&](std::size_t i) { return story_of(tasks_[i], dependencies); });
  out.end_template(head);
  return json.finish();
}

}  // namespace
}  // namespace gan

Result<Conversion> convert_gan(std::string_view text, const std::string& path, const ConvertOptions& options) {
  return gan::Reader(text, path, options).run();
}

}  // namespace ptmpl
