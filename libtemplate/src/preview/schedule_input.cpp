// What keeps a file from being scheduled, phrased for the user with the file and the place.
#include "libtemplate/core/diagnostic.hpp"
#include "libtemplate/core/preview.hpp"

namespace ptmpl {

namespace {

std::string place(const TemplateFile& file, std::uint64_t offset) {
  json::Position p = file.document().position(offset);
  return format_place(file.path(), p.line, p.column);
}

const json::ParseIssue* first_issue(const json::Document& document, json::ParseIssue::Type type) {
  for (const json::ParseIssue& issue : document.issues())
    if (issue.type == type) return &issue;
  return nullptr;
}

// A syntax error or too deep a nesting inside a raw_json string, at the string.
std::optional<Error> raw_json_problem(const TemplateFile& file, const TemplateSource& source) {
  const json::Document& inner = *source.story_document;
  const json::ParseIssue* issue = !inner.ok()         ? &inner.issues().front()
                                  : inner.truncated() ? first_issue(inner, json::ParseIssue::Type::TooDeep)
                                                      : nullptr;
  if (issue == nullptr) return std::nullopt;
  json::Position p = inner.position(issue->offset);
  return Error::invalid(place(file, source.raw_json_string->offset()) + ": in the raw_json string at line " +
                        std::to_string(p.line) + ", column " + std::to_string(p.column) + ": " + issue->message);
}

}  // namespace

Status check_schedulable(const TemplateFile& file) {
  const json::Document& document = file.document();
  if (!document.ok()) {
    const json::ParseIssue& issue = document.issues().front();
    return Error::invalid(place(file, issue.offset) + ": " + issue.message);
  }
  if (document.truncated()) {
    const json::ParseIssue* deep = first_issue(document, json::ParseIssue::Type::TooDeep);
    return Error::invalid(place(file, deep->offset) + ": " + deep->message +
                          "; the stories below it cannot be scheduled");
  }
  if (file.shape() == Shape::Unknown)
    return Error::invalid(file.path() +
                          ": not a template: expected a story list, a template document or an API response");
  if (file.templates().empty()) return Error::invalid(file.path() + ": holds no template");
  for (const TemplateSource& source : file.templates()) {
    if (source.raw_json_string)
      if (auto problem = raw_json_problem(file, source)) return *problem;
    if (source.story_list == nullptr) {
      const json::Value* object = json::resolve_pointer(document.root(), source.template_pointer);
      return Error::invalid(place(file, object != nullptr ? object->offset() : 0) +
                            ": the template has no story list (raw_json should be an array of stories, or a string "
                            "holding one)");
    }
  }
  return Done{};
}

Result<const TemplateSource*> schedulable_template(const TemplateFile& file, std::size_t number) {
  if (Status usable = check_schedulable(file); !usable.ok()) return usable.error();
  const std::size_t count = file.templates().size();
  if (number == 0 && count > 1)
    return Error::usage(file.path() + " holds " + std::to_string(count) +
                        " templates; choose one with --template N (1 to " + std::to_string(count) + ")");
  if (number > count)
    return Error::usage(file.path() + " holds " + std::to_string(count) + (count == 1 ? " template" : " templates") +
                        "; there is no template " + std::to_string(number));
  return &file.templates()[number == 0 ? 0 : number - 1];
}

std::vector<std::string> schedule_errors(const TemplateFile& file, const TemplateSource& source,
                                         const Schedule& schedule) {
  std::vector<std::string> errors;
  const DependencyGraph& graph = schedule.graph();
  for (const Cycle& cycle : schedule.cycles()) {
    const Link& closing = graph.links()[cycle.closing_link];
    json::Position p = file.position_of(source, closing.dependency->node);
    std::string message =
        format_place(file.path(), p.line, p.column) + ": dependency cycle: " + describe_cycle(graph, cycle);
    errors.push_back(std::move(message));
  }
  if (schedule.out_of_range())
    errors.push_back(file.path() +
                     ": the schedule leaves the range of ±2^62 working days (absurd dates or lags; `ptmpl lint` "
                     "names each as schedule-out-of-range)");
  return errors;
}

std::vector<std::string> stats_errors(const TemplateFile& file, const TemplateSource& source, const Rollup& rollup) {
  std::vector<std::string> errors;
  for (Estimate estimate : {Estimate::BudgetInCents, Estimate::TimeInMinutes}) {
    const std::optional<std::size_t> term = rollup.invalid_term(estimate);
    if (!term) continue;
    const std::string_view key =
        estimate == Estimate::BudgetInCents ? "budget_estimate_in_cents" : "time_estimate_in_minutes";
    const Story& story = rollup.story(*term);
    const json::Value* value = story.origin.node.find(key);
    const json::Position p = file.position_of(source, value != nullptr ? *value : story.origin.node);
    const std::string written = value != nullptr && value->is_number()   ? std::string(value->text())
                                : value != nullptr && value->is_string() ? "a string, " + json::quoted(value->text())
                                                                         : "not a number";
    errors.push_back(format_place(file.path(), p.line, p.column) + ": " + std::string(key) + " of story " +
                     story_reference(story) + " is " + written +
                     ", not an amount; stats adds up no invalid value (`ptmpl lint` reports it)");
  }
  return errors;
}

std::optional<std::string> schedule_warning(const TemplateFile& file, const Schedule& schedule) {
  const std::size_t ignored = schedule.skipped_links() + schedule.graph().dangling().size();
  if (ignored == 0) return std::nullopt;
  std::string message = file.path() + ": warning: " + std::to_string(ignored) +
                        (ignored == 1 ? " dependency does" : " dependencies do") +
                        " not constrain the schedule (a missing target, a self-link, a link to a parent or sub-story, ";
  if (const std::size_t lags = schedule.skipped_for_lag(); lags > 0)
    message += "an invalid type, or a lag that is not an integer: " + std::to_string(lags) +
               (lags == 1 ? " has such a lag, which is" : " have such a lag, which is") + " not read as 0)";
  else
    message += "or an invalid type)";
  return message + "; run ptmpl lint " + file.path();
}

namespace {

// A key the scheduler reads, and how it reads a story whose value it cannot take.
struct ScheduledKey {
  StoryKey key;
  std::string_view name;
  std::string_view expected;
  std::string_view read_as;
};

constexpr ScheduledKey kScheduledKeys[] = {
    {StoryKey::Duration, "duration", "a whole number of days, 0 or more",
     "scheduled as if it had none (its dates' span, else 1 day)"},
    {StoryKey::RelativeStartDate, "relative_start_date", "a whole day number", "placed by its dependencies alone"},
    {StoryKey::RelativeDueDate, "relative_due_date", "a whole day number", "its due date is not read"},
};

std::string written_value(const json::Value& value) {
  if (value.is_string()) return "a string, " + json::quoted(value.text());
  if (value.is_number()) return std::string(value.text());
  if (value.is_bool()) return value.kind() == json::Kind::True ? "true" : "false";
  if (value.is_null()) return "null";
  return value.is_array() ? "an array" : "an object";
}

}  // namespace

std::vector<std::string> schedule_value_warnings(const TemplateFile& file, const TemplateSource& source,
                                                 std::string_view severity, std::size_t limit) {
  std::vector<std::string> warnings;
  std::size_t more = 0;
  // Depth first in the file's order, without recursion (a template may nest deeply).
  std::vector<std::span<const Story>> pending{source.model.stories};
  while (!pending.empty()) {
    std::span<const Story>& rest = pending.back();
    if (rest.empty()) {
      pending.pop_back();
      continue;
    }
    const Story& story = rest.front();
    rest = rest.subspan(1);
    for (const ScheduledKey& scheduled : kScheduledKeys) {
      if (!story.irregular(scheduled.key)) continue;
      const json::Value* value = story.origin.node.find(scheduled.name);
      if (value == nullptr) continue;
      if (warnings.size() == limit) {
        ++more;
        continue;
      }
      const json::Position p = file.position_of(source, *value);
      warnings.push_back(format_place(file.path(), p.line, p.column) + ": " + std::string(severity) + ": story " +
                         story_reference(story) + ": " + std::string(scheduled.name) + " is " + written_value(*value) +
                         ", not " + std::string(scheduled.expected) + "; " +
                         (severity == "error" ? "--strict refuses it" : std::string(scheduled.read_as)));
    }
    if (!story.sub_stories.empty()) pending.push_back(story.sub_stories);
  }
  if (more > 0)
    warnings.push_back(file.path() + ": " + std::string(severity) + ": " + std::to_string(more) + " more such value" +
                       (more == 1 ? "" : "s") + " (ptmpl lint " + file.path() + " lists each)");
  return warnings;
}

std::optional<Date> deadline_of(const TemplateSource& source, const CalendarFlags& flags) {
  if (flags.finish) return flags.finish;
  if (flags.start || !source.model.calendar || source.model.calendar->start) return std::nullopt;
  return source.model.calendar->finish;
}

Result<std::optional<Calendar>> resolve_calendar(const TemplateFile& file, const TemplateSource& source,
                                                 const CalendarFlags& flags, const Schedule* schedule) {
  if (flags.start && flags.finish) return Error::usage("--start and --finish exclude each other: give one");
  CalendarBlock block;
  if (file.shape() == Shape::TemplateDocument)
    if (const json::Value* written = file.document().root().find("calendar")) {
      std::vector<CalendarProblem> problems = calendar_block_problems(*written);
      if (!problems.empty())
        return Error::invalid(place(file, problems.front().at.offset()) + ": calendar: " + problems.front().message +
                              " (ptmpl lint " + file.path() + " lists every problem)");
      if (source.model.calendar) block = *source.model.calendar;
    }
  if (flags.start) block.start = flags.start;
  if (flags.week) block.week = flags.week;
  if (flags.holidays) block.holidays = *flags.holidays;
  const std::optional<Date> deadline = deadline_of(source, flags);
  if (deadline && schedule != nullptr && schedule->ok()) {
    const std::int64_t due = schedule->project() ? schedule->project()->due : 0;
    std::optional<Calendar> placed = calendar_of(block, *deadline).ending_on(due, *deadline);
    if (!placed)
      return Error::invalid("finish " + format_date(*deadline) + ": the latest start would be before year 1");
    return std::optional<Calendar>(std::move(placed));
  }
  if (!block.start) {
    if ((flags.week || flags.holidays) && !deadline)
      return Error::usage(
          "--calendar and --holidays need a start date: --start, --finish, or \"start\" in the file's calendar "
          "block");
    return std::optional<Calendar>();
  }
  return std::optional<Calendar>(calendar_of(block, *block.start));
}

std::string deadline_note(Date finish, const Calendar& calendar, const Schedule& schedule) {
  const std::int64_t due = schedule.project() ? schedule.project()->due : 0;
  // The calendar ends the project on or before `finish`, after day 0: its due has a date.
  std::string note = "finish " + format_date(finish) + ": latest start " + format_date(calendar.day_zero()) +
                     " (day 0), the project ends on " + format_date(calendar.date_of(due).value_or(finish));
  if (!calendar.is_working_day(finish)) note += ", the last working day before " + format_date(finish);
  return note;
}

}  // namespace ptmpl
