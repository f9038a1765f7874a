// GanttProject `.gan` → the plan model (gan_reader.hpp) → template document (docs/semantics.md §7).
//
// Nested `<task>` elements become tasks in outline order, with the task `id` as UID.
// GanttProject stores each task's start date and its length in working days of the file's own
// calendar, and no finish: the plan holds them so, and the builder places the task (its due is
// start + length − 1, docs/semantics.md §4). Links sit in the predecessor (`<depend>`, whose id
// names the successor); the plan keeps them on their successors, numbered in GanttProject's
// order, which the template keeps.
#include "convert/gan_reader.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "convert/gan_calendar.hpp"
#include "convert/plan/builder.hpp"
#include "convert/xml_text.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/rollup.hpp"

namespace ptmpl {

namespace gan {
namespace {

// GanttProject link types: 1 = SS, 2 = FS, 3 = FF, 4 = SF.
constexpr plan::LinkType kLinkType[5] = {plan::LinkType::FinishToStart, plan::LinkType::StartToStart,
                                         plan::LinkType::FinishToStart, plan::LinkType::FinishToFinish,
                                         plan::LinkType::StartToFinish};

// GanttProject task priorities; 1 (normal) is the default.
constexpr std::string_view kPriorityName[5] = {"low", "normal", "high", "lowest", "highest"};

// GanttProject counts lengths and lags in working days; the plan counts lags in minutes of
// working time, of a day this long.
constexpr double kMinutesPerDay = 8 * 60;

// The plan's one calendar.
constexpr std::int64_t kCalendarUid = 1;

std::string_view attr(pugi::xml_node node, const char* name) {
  return node.attribute(name).as_string();
}

std::optional<std::int64_t> attr_int(pugi::xml_node node, const char* name) {
  return json::parse_int64(attr(node, name));
}

bool attr_true(pugi::xml_node node, const char* name) {
  return attr(node, name) == "true";
}

std::string_view trimmed(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const std::size_t last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

plan::Place place_of(pugi::xml_node node) {
  return plan::Place::offset(node ? node.offset_debug() : -1);
}

// What the reader keeps of a task beside its plan::Task (same index).
struct Node {
  pugi::xml_node node;
  std::optional<std::size_t> parent;
  bool has_children = false;
  std::optional<std::int64_t> length;  // working days, as written
  bool priced = false;                 // a resource with a rate works on it
};

// A link as GanttProject keeps it: in its predecessor.
struct Depend {
  std::size_t from = 0;  // task indices
  std::size_t to = 0;
  plan::LinkType type = plan::LinkType::FinishToStart;
  std::int64_t lag = 0;  // working days
  pugi::xml_node node;
};

class Reader {
 public:
  Reader(std::string_view text, const std::string& path, detail::FindingSink& findings, PlanDocument& out)
      : text_(text), path_(path), findings_(findings), xml_(out.xml), plan_(out.plan) {}

  Status run();

 private:
  void report(std::string_view rule, pugi::xml_node at, std::string message) {
    findings_.report(rule, place_of(at), std::move(message));
  }
  [[nodiscard]] std::string task_name(std::size_t task) const;
  void read_project();
  void read_calendar();
  void read_tasks();
  void read_task(pugi::xml_node node, std::optional<std::size_t> parent, std::int64_t level);
  void read_dates(std::size_t index);
  void read_cost(std::size_t index);
  void report_task_fields(std::size_t index);
  void read_links();
  void read_link(std::size_t from, pugi::xml_node depend, std::set<std::pair<std::int64_t, std::int64_t>>& seen);
  [[nodiscard]] bool related(std::size_t a, std::size_t b) const;
  void keep_milestone_days();
  void links_on_successors();
  void read_resources();
  void read_allocations();
  void report_calculated_costs();
  void report_other_sections();

  std::string_view text_;
  const std::string& path_;
  detail::FindingSink& findings_;
  pugi::xml_document& xml_;
  plan::Plan& plan_;
  pugi::xml_node project_;

  std::vector<Node> nodes_;  // by task index
  std::vector<Depend> depends_;
  std::unordered_map<std::int64_t, std::size_t> by_id_;
  std::map<std::int64_t, std::string_view> named_;  // named resources by id (the first of an id)
  std::map<std::int64_t, bool> rated_;              // whether a resource has a rate (the last of an id)
  std::set<std::string> calculated_properties_;     // custom properties GanttProject derives
};

std::string Reader::task_name(std::size_t index) const {
  const plan::Task& task = plan_.tasks[index];
  const std::string name = trimmed(task.name).empty() ? std::string() : " \"" + std::string(task.name) + "\"";
  if (!task.has_uid) return name.empty() ? "a task without a name" : "task" + name;
  return "task " + std::to_string(task.uid) + name;
}

Status Reader::run() {
  // No DTD is processed (parse_default keeps it out of the tree) and pugixml expands no entity
  // but XML's five predefined ones.
  if (auto error = detail::load_xml(xml_, text_, path_, pugi::parse_default)) return *error;
  project_ = xml_.document_element();
  if (std::string_view(project_.name()) != "project")
    return Error::invalid(path_ + ": not a GanttProject file (its root element is <" + std::string(project_.name()) +
                          ">, not <project>)");
  plan_.source = plan::Source::gantt_project();
  read_project();
  read_tasks();
  read_links();
  keep_milestone_days();
  links_on_successors();
  read_resources();
  read_allocations();
  report_calculated_costs();
  report_other_sections();
  return Done{};
}

void Reader::read_project() {
  plan::Project& project = plan_.project;
  project.title = trimmed(attr(project_, "name"));
  project.description = trimmed(project_.child("description").text().as_string());
  project.minutes_per_day = kMinutesPerDay;
  project.place = place_of(project_.child("tasks"));  // what the builder's findings on the plan's dates point at
  read_calendar();
}

// The template's calendar block keeps the plan's calendar, but the service applies a template
// with its own (a workweek, or weekends as working days), so another week or other holidays
// move its dates there. Said once per kind of difference.
void Reader::read_calendar() {
  const pugi::xml_node calendars = project_.child("calendars");
  std::vector<std::pair<pugi::xml_node, std::string>> problems;
  const WorkCalendar calendar = WorkCalendar::read(calendars, problems);
  for (auto& [node, message] : problems) report("gan-calendar", node, std::move(message));
  plan_.calendars.push_back(calendar.plan_calendar(kCalendarUid));
  plan_.project.calendar_uid = kCalendarUid;
  plan_.project.calendars_place = place_of(calendars);

  constexpr std::string_view kDayName[7] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                            "Thursday", "Friday", "Saturday"};
  const std::array<bool, 7> week = calendar.week();
  if (calendar.weekends_work()) {
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
  const std::size_t holidays = calendar.holiday_count();
  const std::size_t extra = calendar.working_day_count();
  if (holidays + extra > 0)
    report(
        "gan-calendar", calendars.child("date"),
        "the plan's calendar has " + std::to_string(holidays) + " holiday(s) and " + std::to_string(extra) +
            " extra working day(s); offsets count around them, and the template's calendar block keeps them, but the "
            "service applies a template with its own calendar");
}

void Reader::read_tasks() {
  const pugi::xml_node tasks = project_.child("tasks");
  for (pugi::xml_node property : tasks.child("taskproperties").children("taskproperty"))
    if (property.child("simple-select")) calculated_properties_.insert(std::string(attr(property, "id")));
  // Depth first without recursion (a hand-made file may nest deeply; the builder refuses a plan
  // nested deeper than a template holds): children are pushed in reverse so they come off the
  // stack in document order.
  struct Pending {
    pugi::xml_node node;
    std::optional<std::size_t> parent;
    std::int64_t level;  // 1 = the top level
  };
  std::vector<Pending> stack;
  auto push_children = [&](pugi::xml_node parent, std::optional<std::size_t> index, std::int64_t level) {
    const std::size_t mark = stack.size();
    for (pugi::xml_node child : parent.children("task")) stack.push_back({child, index, level});
    std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(mark), stack.end());
  };
  push_children(tasks, std::nullopt, 1);
  while (!stack.empty()) {
    const Pending pending = stack.back();
    stack.pop_back();
    read_task(pending.node, pending.parent, pending.level);
    push_children(pending.node, plan_.tasks.size() - 1, pending.level + 1);
  }
}

void Reader::read_task(pugi::xml_node node, std::optional<std::size_t> parent, std::int64_t level) {
  const std::size_t index = plan_.tasks.size();
  plan::Task& task = plan_.tasks.emplace_back();
  Node& read = nodes_.emplace_back();
  read.node = node;
  read.parent = parent;
  if (parent) nodes_[*parent].has_children = true;
  task.name = attr(node, "name");
  task.level = level;
  for (plan::Place& place : task.places) place = place_of(node);
  const std::optional<std::int64_t> id = attr_int(node, "id");
  task.has_uid = id && by_id_.count(*id) == 0;
  if (task.has_uid) {
    task.uid = *id;
    by_id_.emplace(*id, index);
  } else {
    report("gan-task-id", node,
           task_name(index) + " has " +
               (id ? "the id " + std::to_string(*id) + " of an earlier task" : std::string("no valid id")) +
               "; it gets no temp_id, and its own links are dropped");
  }
  task.milestone = attr_true(node, "meeting");
  task.notes = trimmed(node.child("notes").text().as_string());
  read_dates(index);
  read_cost(index);
  report_task_fields(index);
}

void Reader::read_dates(std::size_t index) {
  const pugi::xml_node node = nodes_[index].node;
  plan::Task& task = plan_.tasks[index];
  const std::optional<Date> start = parse_date(attr(node, "start"));
  std::optional<std::int64_t>& length = nodes_[index].length;
  length = attr_int(node, "duration");
  if (length && (*length < 0 || *length > 1'000'000)) length.reset();
  if (!start) {
    report("gan-task-dates", node,
           task_name(index) + " has no valid start (\"" + std::string(attr(node, "start")) + "\"); it keeps no dates");
  } else {
    task.start = plan::DateTime{*start, 0};
    task.working_days = length;
    if (!length && !task.milestone)
      report("gan-task-dates", node,
             task_name(index) + " has no valid duration (\"" + std::string(attr(node, "duration")) +
                 "\"); it keeps only its start");
  }
  if (attr(node, "thirdDate-constraint") == "1")
    report("gan-earliest-start", node,
           task_name(index) + " has the earliest start " + std::string(attr(node, "thirdDate")) +
               "; only its start is kept (as a start-no-earlier-than)");
}

// GanttProject 3: a task's cost is either typed in (cost-manual-value, in major units) or
// calculated from its resources' rates (cost-calculated="true").
void Reader::read_cost(std::size_t index) {
  const pugi::xml_node node = nodes_[index].node;
  if (attr_true(node, "cost-calculated") || !node.attribute("cost-manual-value")) return;
  const std::string_view spelling = attr(node, "cost-manual-value");
  const BudgetCents cents = budget_to_cents(spelling);
  if (cents.status != BudgetCents::Status::Exact || cents.negative) {
    report("gan-cost", node,
           task_name(index) + " has the cost \"" + std::string(spelling) +
               "\", which is not a whole, non-negative number of cents; it is not kept");
    return;
  }
  // The builder's bound of a budget estimate (9.2·10^18 cents), which a double holds.
  if (cents.cents > 9'000'000'000'000'000'000) {
    report("gan-cost", node,
           task_name(index) + " has the cost \"" + std::string(spelling) +
               "\", more than a budget estimate holds (9·10^18 cents); it is not kept");
    return;
  }
  if (cents.cents == 0) return;
  plan::Task& task = plan_.tasks[index];
  task.cost = static_cast<double>(cents.cents);
  task.cost_text = spelling;
}

void Reader::report_task_fields(std::size_t index) {
  const pugi::xml_node node = nodes_[index].node;
  // A summary task's completion is its sub-tasks' (GanttProject computes it): reported there.
  const std::int64_t complete = attr_int(node, "complete").value_or(0);
  if (complete > 0 && !node.child("task"))
    report("gan-progress", node,
           task_name(index) + " is " + std::to_string(complete) + "% complete; a template keeps no progress");
  const std::string_view link = attr(node, "webLink");
  if (!link.empty() && link != "http://")
    report("gan-task-field", node, task_name(index) + " has the web link " + std::string(link) + ", which is not kept");
  if (const auto priority = attr_int(node, "priority"); priority && *priority != 1)
    report("gan-task-field", node,
           task_name(index) + " has the priority " +
               (*priority >= 0 && *priority < 5 ? std::string(kPriorityName[*priority]) : std::to_string(*priority)) +
               ", which is not kept");
  for (pugi::xml_node property : node.children("customproperty")) {
    const std::string id(attr(property, "taskproperty-id"));
    if (calculated_properties_.count(id) != 0) continue;
    report("gan-custom-property", property,
           task_name(index) + " has the custom property " + id + " = \"" + std::string(attr(property, "value")) +
               "\", which is not kept");
  }
}

void Reader::read_links() {
  std::set<std::pair<std::int64_t, std::int64_t>> seen;
  for (std::size_t i = 0; i < nodes_.size(); ++i)
    for (pugi::xml_node depend : nodes_[i].node.children("depend")) read_link(i, depend, seen);
}

// GanttProject: a <depend> sits in the predecessor and its id names the successor.
void Reader::read_link(std::size_t from, pugi::xml_node depend, std::set<std::pair<std::int64_t, std::int64_t>>& seen) {
  const std::string text = "a link from " + task_name(from);
  if (!plan_.tasks[from].has_uid) {
    report("gan-link-invalid", depend, text + " is dropped: the task has no temp_id");
    return;
  }
  const std::optional<std::int64_t> successor = attr_int(depend, "id");
  auto target = successor ? by_id_.find(*successor) : by_id_.end();
  if (target == by_id_.end()) {
    report("gan-link-invalid", depend,
           text + " names task " + std::string(attr(depend, "id")) + ", which is not in the plan; it is dropped");
    return;
  }
  const std::size_t to = target->second;
  const std::string link = text + " to " + task_name(to);
  const std::int64_t type = attr_int(depend, "type").value_or(2);
  if (type < 1 || type > 4) {
    report("gan-link-invalid", depend,
           link + " has the unknown type " + std::string(attr(depend, "type")) + "; it is dropped");
    return;
  }
  if (to == from || related(to, from)) {
    report("gan-link-invalid", depend, link + " joins a task and its own summary or sub-task; it is dropped");
    return;
  }
  if (!seen.insert({plan_.tasks[from].uid, *successor}).second) {
    report("gan-link-invalid", depend, link + " repeats an earlier link between them; it is dropped");
    return;
  }
  std::optional<std::int64_t> lag = attr_int(depend, "difference");
  if (!lag && depend.attribute("difference"))
    report("gan-link-invalid", depend,
           link + " has the lag \"" + std::string(attr(depend, "difference")) +
               "\", which is not a whole number of days; it is read as 0");
  // The builder's bound of a lag (10^12 working days either way), less the day a milestone may
  // pass on (keep_milestone_days).
  if (lag && (*lag >= 999'999'999'999 || *lag <= -999'999'999'999)) {
    report("gan-link-invalid", depend,
           link + " has the lag " + std::to_string(*lag) +
               ", beyond a lag's range (10^12 working days either way); it is read as 0");
    lag.reset();
  }
  if (attr(depend, "hardness") == "Rubber")
    report("gan-rubber-link", depend,
           link +
               " is Rubber (the successor may start later than the link requires); it is kept as a normal link, "
               "which is a minimum too");
  depends_.push_back(Depend{from, to, kLinkType[static_cast<std::size_t>(type)], lag.value_or(0), depend});
}

// Whether one task is an ancestor of the other.
bool Reader::related(std::size_t a, std::size_t b) const {
  auto above = [&](std::size_t low, std::size_t high) {
    for (std::optional<std::size_t> p = nodes_[low].parent; p; p = nodes_[*p].parent)
      if (*p == high) return true;
    return false;
  };
  return above(a, b) || above(b, a);
}

// Older GanttProject (no `empty-milestones` on <tasks>) gives a milestone a day of its own:
// its successors start the day after it. A template milestone has no length (docs/semantics.md §4), so its
// finish links get that day as lag.
void Reader::keep_milestone_days() {
  if (attr_true(project_.child("tasks"), "empty-milestones")) return;
  std::vector<std::size_t> moved(nodes_.size(), 0);  // by task: its finish links given the day
  for (Depend& depend : depends_) {
    const Node& from = nodes_[depend.from];
    if (!plan_.tasks[depend.from].milestone || from.length.value_or(0) == 0 || from.has_children) continue;
    // Only FS and FF start from its finish.
    if (depend.type != plan::LinkType::FinishToStart && depend.type != plan::LinkType::FinishToFinish) continue;
    ++depend.lag;
    ++moved[depend.from];
  }
  for (std::size_t i = 0; i < nodes_.size(); ++i)
    if (moved[i] > 0)
      report("gan-milestone-day", nodes_[i].node,
             task_name(i) + " is a milestone that lasts a day in this file (it has no empty-milestones setting); " +
                 std::to_string(moved[i]) + " link(s) from its finish get one more day of lag");
}

// The plan keeps links on their successors, in the order of the tasks; each keeps its place in
// GanttProject's order (plan::Link::source_order), the order of the template's dependencies.
void Reader::links_on_successors() {
  std::vector<std::size_t> order(depends_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return depends_[a].to < depends_[b].to; });
  plan_.links.reserve(order.size());
  std::size_t next = 0;
  for (std::size_t t = 0; t < plan_.tasks.size(); ++t) {
    plan::Task& task = plan_.tasks[t];
    task.first_link = plan_.links.size();
    for (; next < order.size() && depends_[order[next]].to == t; ++next) {
      const Depend& depend = depends_[order[next]];
      plan::Link& link = plan_.links.emplace_back();
      link.source_order = order[next];
      link.predecessor = plan_.tasks[depend.from].uid;
      link.type = depend.type;
      link.lag = static_cast<double>(depend.lag) * kMinutesPerDay;
      link.place = link.type_place = link.lag_place = place_of(depend.node);
    }
    task.link_count = plan_.links.size() - task.first_link;
  }
}

void Reader::read_resources() {
  for (pugi::xml_node node : project_.child("resources").children("resource")) {
    const auto id = attr_int(node, "id");
    const std::string_view name = trimmed(attr(node, "name"));
    if (!id || name.empty()) continue;
    named_.emplace(*id, name);
    bool rate = false;
    for (pugi::xml_node r : node.children("rate")) rate = rate || r.attribute("value").as_double() != 0;
    rated_[*id] = rate;
    plan::Resource& resource = plan_.resources.emplace_back();
    resource.uid = *id;
    resource.name = name;
    resource.has_rates = rate;
    resource.place = place_of(node);
  }
}

void Reader::read_allocations() {
  for (pugi::xml_node node : project_.child("allocations").children("allocation")) {
    const auto task = attr_int(node, "task-id");
    const auto resource = attr_int(node, "resource-id");
    auto t = task ? by_id_.find(*task) : by_id_.end();
    if (t == by_id_.end() || !resource || named_.count(*resource) == 0) continue;
    plan::Assignment& assignment = plan_.assignments.emplace_back();
    assignment.task_uid = *task;
    assignment.resource_uid = *resource;
    assignment.place = place_of(node);
    if (rated_[*resource]) nodes_[t->second].priced = true;
    const double load = node.attribute("load").as_double(100);
    if (load != 100)
      report("gan-allocation-load", node,
             "resource " + std::to_string(*resource) + " \"" + std::string(named_[*resource]) + "\" works on " +
                 task_name(t->second) + " at " + std::string(attr(node, "load")) +
                 "%; a template assignment has no load");
  }
}

void Reader::report_calculated_costs() {
  for (std::size_t i = 0; i < nodes_.size(); ++i)
    if (nodes_[i].priced && attr_true(nodes_[i].node, "cost-calculated"))
      report("gan-cost", nodes_[i].node,
             task_name(i) + "'s cost is calculated from its resources' rates, which a template does not keep");
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

}  // namespace

Result<std::unique_ptr<PlanDocument>> read_plan(std::string_view text, const std::string& path,
                                                detail::FindingSink& findings) {
  auto out = std::make_unique<PlanDocument>();
  if (Status read = Reader(text, path, findings, *out).run(); !read.ok()) return read.error();
  return out;
}

}  // namespace gan

Result<Conversion> convert_gan(std::string_view text, const std::string& path, const ConvertOptions& options) {
  detail::FindingSink findings(text, path, options);
  Result<std::unique_ptr<gan::PlanDocument>> read = gan::read_plan(text, path, findings);
  if (!read.ok()) return read.error();
  // A task takes more bytes in a `.gan` file than as a story: its size is room enough.
  Result<Conversion> out = plan::build_template(read.value()->plan, path, findings, text.size());
  if (!out.ok()) return out.error();
  out.value().diagnostics = findings.take();
  return out;
}

}  // namespace ptmpl
