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

std::string story_label(const Story& story) {
  if (story.temp_id) return temp_id_key(*story.temp_id);
  std::string out;
  json::append_quoted(out, story.title.value_or(""));
  return out;
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
    std::string message = format_place(file.path(), p.line, p.column) + ": dependency cycle";
    if (cycle.stories.empty()) {
      message += " closed by this dependency (its chain is not listed: too many cycles)";
    } else {
      message += ": ";
      for (std::size_t k = 0; k < cycle.stories.size(); ++k)
        message += (k > 0 ? " → " : "") + story_label(graph.story(cycle.stories[k]));
    }
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
                     (story.temp_id ? temp_id_key(*story.temp_id) + " " + json::quoted(story.title.value_or(""))
                                    : story_label(story)) +
                     " is " + written + ", not an amount; stats adds up no invalid value (`ptmpl lint` reports it)");
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

Result<std::optional<Calendar>> resolve_calendar(const TemplateFile& file, const TemplateSource& source,
                                                 const CalendarFlags& flags) {
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
  if (!block.start) {
    if (flags.week || flags.holidays)
      return Error::usage(
          "--calendar and --holidays need a start date: --start, or \"start\" in the file's calendar "
          "block");
    return std::optional<Calendar>();
  }
  return std::optional<Calendar>(calendar_of(block, *block.start));
}

}  // namespace ptmpl
