// A P6 project (p6.hpp) as the plan model: WBS elements become summary tasks, activities the
// tasks below them, relationships links on their successors, assignments' costs the tasks'
// costs; what a template cannot hold as P6 says it becomes a finding `p6-*`.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "convert/p6/p6.hpp"

namespace ptmpl::detail::p6 {

namespace planning {

constexpr std::int64_t kNoResource = -65535;
constexpr double kMaxLagHours = 400.0 * 366 * 24;

plan::Constraint plan_constraint(ConstraintType type) {
  switch (type) {
    case ConstraintType::None:
      return plan::Constraint::AsSoonAsPossible;
    case ConstraintType::StartOn:
    case ConstraintType::MandatoryStart:
      return plan::Constraint::MustStartOn;
    case ConstraintType::StartOnOrAfter:
      return plan::Constraint::StartNoEarlierThan;
    case ConstraintType::StartOnOrBefore:
      return plan::Constraint::StartNoLaterThan;
    case ConstraintType::FinishOn:
    case ConstraintType::MandatoryFinish:
      return plan::Constraint::MustFinishOn;
    case ConstraintType::FinishOnOrAfter:
      return plan::Constraint::FinishNoEarlierThan;
    case ConstraintType::FinishOnOrBefore:
      return plan::Constraint::FinishNoLaterThan;
    case ConstraintType::AsLateAsPossible:
      return plan::Constraint::AsLateAsPossible;
    case ConstraintType::Unknown:
      break;
  }
  return plan::Constraint::Unknown;
}

std::optional<plan::LinkType> link_type(RelationshipType type) {
  switch (type) {
    case RelationshipType::FinishToStart:
      return plan::LinkType::FinishToStart;
    case RelationshipType::StartToStart:
      return plan::LinkType::StartToStart;
    case RelationshipType::FinishToFinish:
      return plan::LinkType::FinishToFinish;
    case RelationshipType::StartToFinish:
      return plan::LinkType::StartToFinish;
    case RelationshipType::Unknown:
      break;
  }
  return std::nullopt;
}

// A day's periods of work as one envelope (plan::DayRule): from the first period's start to the
// last one's finish. What the builder asks of it: whether a time is before or after the day's work.
plan::DayRule envelope(const std::vector<Interval>& work) {
  plan::DayRule rule;
  rule.working = !work.empty();
  if (!rule.working) return rule;
  rule.start = work.front().start;
  rule.end = work.front().finish;
  for (const Interval& period : work) {
    rule.start = std::min(rule.start, period.start);
    rule.end = std::max(rule.end, period.finish);
  }
  return rule;
}

plan::Calendar plan_calendar(const Calendar& calendar) {
  plan::Calendar out;
  out.uid = calendar.id;
  out.is_base = true;  // P6 calendars stand alone (base_clndr_id is empty in every export seen)
  out.place = calendar.place;
  if (calendar.hours_per_day) out.minutes_per_day = *calendar.hours_per_day * 60;
  if (calendar.week_read)
    for (std::size_t day = 0; day < 7; ++day)
      out.week_days.push_back({static_cast<std::int64_t>(day + 1), envelope(calendar.week[day]), {}, {}});
  for (const CalendarException& exception : calendar.exceptions) {
    plan::CalendarException& to = out.exceptions.emplace_back();
    to.from = exception.date;
    to.to = exception.date;
    to.rule = envelope(exception.work);
    to.place = exception.place;
  }
  return out;
}

class Converter {
 public:
  Converter(const File& file, const Project& project, FindingSink& findings)
      : file_(file), project_(project), findings_(findings) {}

  plan::Plan run();

 private:
  [[nodiscard]] static std::string activity_name(const Activity& activity) {
    return "activity " + std::string(activity.code) + " \"" + std::string(activity.name) + "\"";
  }
  void read_project();
  void read_calendars();
  void read_resources();
  void add_wbs_tree();
  void add_activity(const Activity& activity, std::int64_t level);
  void add_links(const Activity& activity, plan::Task& task);

  const File& file_;
  const Project& project_;
  FindingSink& findings_;
  plan::Plan plan_;
  std::unordered_map<std::int64_t, std::vector<const Relationship*>> links_in_;  // by successor
  struct Amounts {
    double cost = 0;
    double work = 0;
    bool any_cost = false;
  };
  std::unordered_map<std::int64_t, Amounts> amounts_;  // by activity
};

plan::Plan Converter::run() {
  plan_.source = plan::Source::primavera();
  read_project();
  read_calendars();
  read_resources();
  for (const Relationship& relationship : project_.relationships)
    links_in_[relationship.successor_id].push_back(&relationship);
  std::unordered_map<std::int64_t, const Resource*> resources;
  for (const Resource& resource : file_.resources) resources.emplace(resource.id, &resource);
  for (const Assignment& assignment : project_.assignments) {
    Amounts& amounts = amounts_[assignment.activity_id];
    if (assignment.planned_cost.value) {
      amounts.cost += *assignment.planned_cost.value;
      amounts.any_cost = true;
    }
    // A time estimate is people's time: the units of nonlabor and material resources are not.
    const auto resource = assignment.resource_id ? resources.find(*assignment.resource_id) : resources.end();
    if (resource != resources.end() && !resource->second->labor) {
      if (assignment.planned_units.value.value_or(0) != 0)
        findings_.report("p6-nonlabor-units", assignment.place,
                         "an assignment of the nonlabor or material resource \"" + std::string(resource->second->name) +
                             "\" (" + std::string(assignment.planned_units.text) +
                             " units) is not counted in its story's time estimate, which is people's time",
                         {std::string(resource->second->name)});
      continue;
    }
    amounts.work += assignment.planned_units.value.value_or(0);
  }
  add_wbs_tree();
  return std::move(plan_);
}

void Converter::read_project() {
  plan::Project& out = plan_.project;
  out.title = project_.name.empty() ? project_.short_name : project_.name;
  out.place = project_.place;
  out.calendars_place = project_.place;
  // Day 0: the project's planned start, or the data date, or an activity's date before them
  // (actual dates precede the data date): a schedule places no story before day 0.
  for (const When* when : {&project_.planned_start, &project_.data_date})
    if (when->value && (!out.start || when->value->date < out.start->date)) out.start = when->value;
  for (const Activity& activity : project_.activities)
    for (const When* when : {&activity.actual_start, &activity.start, &activity.finish})
      if (when->value && out.start && when->value->date < out.start->date)
        out.start = plan::DateTime{when->value->date, 0};
  out.calendar_uid = project_.calendar_id;
  out.currency = project_.currency;
  out.currency_place = project_.place;
  const std::string_view lag_calendar[] = {"", "successor", "24-hour", "project default", "unknown"};
  if (project_.lag_calendar == LagCalendar::Successor || project_.lag_calendar == LagCalendar::ProjectDefault ||
      project_.lag_calendar == LagCalendar::Unknown)
    findings_.report("p6-lag-calendar", project_.lag_calendar_place,
                     "the scheduling options count lags on the " +
                         std::string(lag_calendar[static_cast<std::size_t>(project_.lag_calendar)]) + " calendar (" +
                         std::string(project_.lag_calendar_text) +
                         "); a template counts them on its predecessor's days");
  if (project_.progress_override || !project_.retained_logic)
    findings_.report("p6-retained-logic", project_.logic_place,
                     std::string("the scheduling options schedule out-of-sequence progress with ") +
                         (project_.progress_override ? "progress override" : "actual dates") +
                         ", not retained logic; a template keeps no progress");
}

void Converter::read_calendars() {
  // Of a file of several projects, notes only on the calendars this project uses (each
  // project's conversion reports its own).
  std::unordered_set<std::int64_t> used;
  if (project_.calendar_id) used.insert(*project_.calendar_id);
  for (const Activity& activity : project_.activities)
    if (activity.calendar_id) used.insert(*activity.calendar_id);
  for (const Calendar& calendar : file_.calendars) {
    if (file_.projects.size() == 1 || used.count(calendar.id) != 0)
      for (const std::string& note : calendar.notes)
        findings_.report("p6-calendar-data", calendar.place,
                         "calendar " + std::to_string(calendar.id) + " \"" + std::string(calendar.name) + "\": " +
                             note + (calendar.week_read ? "" : "; its week is read as Monday to Friday, 08:00–17:00"));
    plan_.calendars.push_back(plan_calendar(calendar));
    if (project_.calendar_id == calendar.id && calendar.hours_per_day)
      plan_.project.minutes_per_day = *calendar.hours_per_day * 60;
  }
}

// Resources, and the roles of assignments that name no resource (by the role's id, when no
// resource has it: a template assignment is one id and a name).
void Converter::read_resources() {
  std::unordered_map<std::int64_t, bool> used;  // resource ids the project's assignments name
  for (const Assignment& assignment : project_.assignments) {
    if (assignment.resource_id)
      used[*assignment.resource_id] = true;
    else if (assignment.role_id)
      used[*assignment.role_id] = false;
  }
  for (const Resource& resource : file_.resources) {
    const auto found = used.find(resource.id);
    if (found == used.end() || !found->second) continue;
    plan::Resource& out = plan_.resources.emplace_back();
    out.uid = resource.id;
    out.name = resource.name.empty() ? resource.short_name : resource.name;
    out.place = resource.place;
  }
  for (const Role& role : file_.roles) {
    const auto found = used.find(role.id);
    if (found == used.end() || found->second) continue;
    plan::Resource& out = plan_.resources.emplace_back();
    out.uid = role.id;
    out.name = role.name.empty() ? role.short_name : role.name;
    out.place = role.place;
  }
  for (const Assignment& assignment : project_.assignments) {
    plan::Assignment& out = plan_.assignments.emplace_back();
    out.task_uid = assignment.activity_id;
    out.resource_uid = assignment.resource_id.value_or(assignment.role_id.value_or(kNoResource));
    out.place = assignment.place;
  }
}

// The WBS tree in depth-first order, siblings by seq_num: each element a summary task, its
// activities (in the file's order) before its child elements. An element whose parent is not
// in the project (the project node's parent is an EPS node) is at the top; the project node is
// not a task of its own. Elements in a cycle of parents are placed at the top too.
void Converter::add_wbs_tree() {
  std::unordered_map<std::int64_t, std::size_t> by_id;
  for (std::size_t i = 0; i < project_.wbs.size(); ++i) by_id.emplace(project_.wbs[i].id, i);
  std::vector<std::vector<std::size_t>> children(project_.wbs.size());
  std::vector<std::size_t> roots;
  for (std::size_t i = 0; i < project_.wbs.size(); ++i) {
    const Wbs& wbs = project_.wbs[i];
    const auto parent = wbs.parent_id ? by_id.find(*wbs.parent_id) : by_id.end();
    (parent == by_id.end() || wbs.project_node ? roots : children[parent->second]).push_back(i);
  }
  std::unordered_map<std::int64_t, std::vector<const Activity*>> activities;  // by WBS id
  std::vector<const Activity*> top;
  for (const Activity& activity : project_.activities) {
    const auto found = activity.wbs_id ? by_id.find(*activity.wbs_id) : by_id.end();
    if (found == by_id.end())
      top.push_back(&activity);
    else
      activities[project_.wbs[found->second].id].push_back(&activity);
  }
  auto by_sequence = [&](std::size_t a, std::size_t b) {
    return std::pair(project_.wbs[a].sequence, project_.wbs[a].id) <
           std::pair(project_.wbs[b].sequence, project_.wbs[b].id);
  };
  for (auto& list : children) std::stable_sort(list.begin(), list.end(), by_sequence);
  std::stable_sort(roots.begin(), roots.end(), by_sequence);
  for (const Activity* activity : top) add_activity(*activity, 1);

  std::vector<bool> visited(project_.wbs.size(), false);
  // Depth-first without recursion: (element, its level); the project node's level is 0.
  std::vector<std::pair<std::size_t, std::int64_t>> stack;
  auto visit_from = [&](std::size_t root) {
    stack.emplace_back(root, project_.wbs[root].project_node ? 0 : 1);
    while (!stack.empty()) {
      const auto [i, level] = stack.back();
      stack.pop_back();
      if (visited[i]) continue;
      visited[i] = true;
      const Wbs& wbs = project_.wbs[i];
      if (!wbs.project_node) {
        plan::Task& task = plan_.tasks.emplace_back();
        task.has_uid = false;
        task.name = wbs.name.empty() ? wbs.code : wbs.name;
        task.level = level;
        task.place(plan::TaskField::Task) = wbs.place;
      }
      for (const Activity* activity : activities[wbs.id]) add_activity(*activity, level + 1);
      for (auto child = children[i].rbegin(); child != children[i].rend(); ++child)
        stack.emplace_back(*child, level + 1);
    }
  };
  for (const std::size_t root : roots) visit_from(root);
  for (std::size_t i = 0; i < project_.wbs.size(); ++i)
    if (!visited[i]) visit_from(i);
}

void Converter::add_activity(const Activity& activity, std::int64_t level) {
  plan::Task& task = plan_.tasks.emplace_back();
  task.uid = activity.id;
  task.name = activity.name;
  task.level = std::max<std::int64_t>(level, 1);
  if (!activity.code.empty()) task.temp_id = TempId(activity.code);
  task.place(plan::TaskField::Task) = activity.place;
  task.place(plan::TaskField::TempId) = activity.place;
  task.milestone = activity.type == ActivityType::StartMilestone || activity.type == ActivityType::FinishMilestone;
  if (activity.type == ActivityType::LevelOfEffort || activity.type == ActivityType::WbsSummary ||
      activity.type == ActivityType::Unknown)
    findings_.report("p6-level-of-effort", activity.place,
                     activity_name(activity) + " is of type " + std::string(activity.type_text) +
                         ", which P6 stretches over the activities it spans; the story keeps its dates as they are");
  // Hours → minutes: the builder counts them in days of the activity's calendar.
  const Number& hours = activity.planned_hours;
  if (hours.value) task.duration = *hours.value * 60;
  task.duration_format.unit = plan::Format::Unit::Hours;
  task.duration_text = hours.text;
  task.place(plan::TaskField::Duration) = hours.place;
  // Where the work happened, else where P6 scheduled what remains.
  const When& start = activity.actual_start.value ? activity.actual_start : activity.start;
  const When& finish = activity.actual_finish.value ? activity.actual_finish : activity.finish;
  task.start = start.value;
  task.finish = finish.value;
  if (task.milestone && !task.start) task.start = task.finish;  // a finish milestone has only a finish
  if (!start.value) task.start_text = start.text;
  if (!finish.value) task.finish_text = finish.text;
  task.place(plan::TaskField::Start) = start.place;
  task.place(plan::TaskField::Finish) = finish.place;
  task.calendar_uid = activity.calendar_id;
  task.place(plan::TaskField::Calendar) = activity.place;
  // Constraints: the primary as the plan's; a secondary one a template cannot hold at all.
  task.constraint = plan_constraint(activity.primary.type);
  if (activity.primary.date.value) task.constraint_date = activity.primary.date.value->date;
  task.place(plan::TaskField::Constraint) = activity.primary.place;
  if (activity.secondary.type != ConstraintType::None)
    findings_.report("p6-secondary-constraint", activity.secondary.place,
                     activity_name(activity) + " has the secondary constraint " + std::string(activity.secondary.text) +
                         ", which a template does not keep");
  if (activity.status != Status::NotStarted) {
    task.percent_complete = std::max<std::int64_t>(1, std::llround(activity.percent_complete));
    task.actual_start_is_start = true;
  }
  if (const auto found = amounts_.find(activity.id); found != amounts_.end()) {
    if (found->second.any_cost) {
      task.cost = found->second.cost * 100;  // the currency's hundredths
      // Its shortest spelling (123456.7 hundredths), for the builder's messages.
      char digits[32];
      task.cost_text = plan_.keep(std::string(digits, std::to_chars(digits, digits + sizeof digits, *task.cost).ptr));
    }
    if (found->second.work > 0) task.work = found->second.work * 60;
  }
  add_links(activity, task);
}

void Converter::add_links(const Activity& activity, plan::Task& task) {
  task.first_link = plan_.links.size();
  const auto found = links_in_.find(activity.id);
  if (found == links_in_.end()) return;
  for (const Relationship* relationship : found->second) {
    plan::Link& link = plan_.links.emplace_back();
    link.predecessor = relationship->predecessor_id;
    link.type = link_type(relationship->type);
    link.type_text = relationship->type_text;
    link.cross_project = relationship->cross_project;
    link.cross_project_name = "another P6 project";
    const Number& lag = relationship->lag_hours;
    link.lag = lag.value ? std::optional<double>(*lag.value * 60) : std::nullopt;
    if (!lag.written()) link.lag = 0.0;
    // A lag longer than the 400 years a plan may span (in hours of any calendar) places no date.
    if (lag.value && std::fabs(*lag.value) > kMaxLagHours) {
      findings_.report("p6-lag-invalid", lag.place,
                       "a link into " + activity_name(activity) + " has a lag of " + std::string(lag.text) +
                           " hours, more than the 400 years a plan spans; the link is written with lag 0");
      link.lag = 0.0;
    }
    link.lag_format.unit = plan::Format::Unit::Minutes;
    // On the 24-hour calendar a lag runs through nights and days off: elapsed time.
    link.lag_format.elapsed = project_.lag_calendar == LagCalendar::TwentyFourHour;
    link.lag_text = lag.text;
    link.place = relationship->place;
    link.type_place = relationship->place;
    link.lag_place = lag.place;
    ++task.link_count;
  }
}

}  // namespace planning

plan::Plan to_plan(const File& file, std::size_t project, FindingSink& findings) {
  return planning::Converter(file, file.projects.at(project), findings).run();
}

}  // namespace ptmpl::detail::p6
