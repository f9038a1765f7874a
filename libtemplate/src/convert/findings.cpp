#include "convert/findings.hpp"

#include <algorithm>
#include <iterator>
#include <optional>

#include "libtemplate/model.hpp"

namespace ptmpl {

namespace {

// Every finding a converter can report, alphabetical (docs/commands/convert.md lists them all).
constexpr ConversionRule kRules[] = {
    {"csv-dropped-field", Severity::Warning,
     "a story field a CSV has no column for (or of the wrong type) is not written"},
    {"csv-dropped-link", Severity::Warning,
     "a dependency without both ends, or of an invalid type or lag, is not written"},
    {"csv-dropped-story", Severity::Warning,
     "a story-list item that is not an object, or sub_stories that are not an array, is not written"},
    {"csv-template-fields", Severity::Info, "template metadata and assignments are not written (a CSV holds stories)"},
    {"csv-unknown-column", Severity::Warning, "a column ptmpl does not read is ignored"},
    {"gan-allocation-load", Severity::Info, "a resource's load on a task is not kept"},
    {"gan-baseline", Severity::Info, "a baseline is not kept"},
    {"gan-calendar", Severity::Info,
     "the plan's calendar differs from Monday to Friday or has events; a template keeps none"},
    {"gan-cost", Severity::Warning,
     "a cost that is calculated from rates, or not a whole number of cents, is not kept"},
    {"gan-custom-property", Severity::Info, "a custom task property is not kept"},
    {"gan-earliest-start", Severity::Warning, "an earliest-start constraint is kept only as the task's start"},
    {"gan-link-invalid", Severity::Warning,
     "a link to a missing task, of an unknown type, repeated or within one branch is dropped"},
    {"gan-milestone-day", Severity::Warning, "a milestone that lasts a day (older files) passes that day on as lag"},
    {"gan-off-calendar", Severity::Warning, "a task starts on a day the plan's calendar does not work"},
    {"gan-progress", Severity::Warning, "percent complete is not kept"},
    {"gan-resource-rates", Severity::Info, "resource rates are not kept (templates assign roles, not rates)"},
    {"gan-rubber-link", Severity::Info, "a Rubber link becomes a normal link"},
    {"gan-summary-cost", Severity::Warning, "a summary task's cost differs from its sub-tasks' costs; theirs are kept"},
    {"gan-task-dates", Severity::Warning, "a task without a valid start or duration keeps no dates (or no due)"},
    {"gan-task-field", Severity::Info, "a task's web link or priority is not kept"},
    {"gan-task-id", Severity::Warning, "a task without an id of its own gets no temp_id"},
    {"gan-untitled-task", Severity::Warning, "a task without a name gets one"},
    {"gan-vacation", Severity::Info, "resource vacations are not kept"},
    {"mspdi-calendar-recurrence", Severity::Warning, "a recurring calendar exception is applied to its whole range"},
    {"mspdi-constraint", Severity::Warning, "a task constraint other than as-soon-as-possible is not kept"},
    {"mspdi-cost-fraction", Severity::Warning, "a cost with a fraction of a cent is rounded"},
    {"mspdi-cost-invalid", Severity::Warning, "a negative cost, or one beyond a budget estimate's range, is dropped"},
    {"mspdi-cross-project-link", Severity::Warning, "a link to another project is dropped"},
    {"mspdi-currency", Severity::Warning, "the project's currency is not an ISO 4217 code and is dropped"},
    {"mspdi-date-invalid", Severity::Warning, "a Start or Finish that is not a date is not read"},
    {"mspdi-doctype", Severity::Info, "a document type declaration is ignored (no DTD is processed)"},
    {"mspdi-duration-invalid", Severity::Warning,
     "a duration that cannot be read, is negative or is beyond a story's range is dropped"},
    {"mspdi-duration-span", Severity::Warning,
     "a task's duration differs from the working days its start and finish span; the story lasts the span"},
    {"mspdi-elapsed-duration", Severity::Warning, "an elapsed duration: the story lasts the working days it covers"},
    {"mspdi-elapsed-lag", Severity::Warning, "an elapsed lag is counted as working days"},
    {"mspdi-export-date", Severity::Warning,
     "a story whose dates from --start leave the years 1 to 9999 gets no Start or Finish"},
    {"mspdi-export-dropped", Severity::Warning,
     "a key of the template or of a story that MS Project XML has no place for is not written"},
    {"mspdi-export-dropped-story", Severity::Warning,
     "a story-list item that is not an object, or sub_stories that are not an array, is not written"},
    {"mspdi-export-temp-id", Severity::Warning, "a temp_id that is not an MSPDI task UID is replaced by one"},
    {"mspdi-fractional-duration", Severity::Warning, "a duration that is not a whole number of days is rounded up"},
    {"mspdi-fractional-lag", Severity::Warning, "a lag that is not a whole number of days is rounded"},
    {"mspdi-inactive-task", Severity::Warning, "an inactive task is skipped"},
    {"mspdi-lag-invalid", Severity::Warning, "a LinkLag that is not a number, or beyond a lag's range, becomes 0"},
    {"mspdi-link-invalid", Severity::Warning, "a link to a missing task, or of an unknown type, is dropped"},
    {"mspdi-manual-task", Severity::Warning, "a manually scheduled task keeps its dates as declared"},
    {"mspdi-off-calendar", Severity::Warning, "a task starts or finishes on a day the project calendar does not work"},
    {"mspdi-outline-gap", Severity::Warning, "a task more than one outline level below the previous one"},
    {"mspdi-progress", Severity::Warning, "progress (actual dates, work, cost, percent complete) is not kept"},
    {"mspdi-resource-rates", Severity::Info, "resource rates are not kept (templates assign roles, not rates)"},
    {"mspdi-split-task", Severity::Warning,
     "a split task (its work has a gap) becomes one stretch of days, pause included"},
    {"mspdi-summary-cost", Severity::Warning,
     "a summary task's cost differs from its tasks' costs; the tasks' are kept"},
    {"mspdi-task-calendar", Severity::Warning, "a task calendar is ignored; the project calendar is used"},
    {"mspdi-task-uid", Severity::Warning, "a task whose UID is missing or not an integer is skipped"},
    {"mspdi-untitled-task", Severity::Warning, "a task without a name gets one"},
    {"mspdi-work-overflow", Severity::Warning, "work beyond a time estimate's range is dropped"},
};

}  // namespace

std::span<const ConversionRule> conversion_rules() {
  return kRules;
}

namespace detail {

const ConversionRule& conversion_rule(std::string_view id) {
  return *std::find_if(std::begin(kRules), std::end(kRules), [&](const ConversionRule& r) { return r.id == id; });
}

std::optional<Error> not_utf8_error(std::string_view text, const std::string& path) {
  auto bad = json::invalid_utf8_offset(text);
  if (!bad) return std::nullopt;
  const json::Position p = json::LineIndex(text).position(*bad);
  return Error::invalid(format_place(path, p.line, p.column) + ": not UTF-8 text");
}

Error too_deep_error(std::string_view place, std::string_view name, std::size_t levels) {
  return Error::invalid(std::string(place) + ": " + std::string(name) + " would be nested " + std::to_string(levels) +
                        " levels deep; a template holds at most " + std::to_string(kMaxStoryLevels) +
                        " (the nesting lint and fmt read)");
}

std::optional<Error> unexportable(const TemplateFile& file) {
  auto problem = [&](const json::Document& document,
                     const std::optional<json::Value>& in_string) -> std::optional<Error> {
    const json::ParseIssue* issue = nullptr;
    for (const json::ParseIssue& i : document.issues())
      if (i.type == json::ParseIssue::Type::Syntax || i.type == json::ParseIssue::Type::TooDeep) {
        issue = &i;
        break;
      }
    if (issue == nullptr) return std::nullopt;
    const json::Position p = document.position(issue->offset);
    std::string message = issue->message;
    if (issue->type == json::ParseIssue::Type::TooDeep) message += "; the stories below it cannot be converted";
    if (!in_string) return Error::invalid(format_place(file.path(), p.line, p.column) + ": " + message);
    const json::Position at = file.document().position(in_string->offset());
    return Error::invalid(format_place(file.path(), at.line, at.column) + ": in the raw_json string at line " +
                          std::to_string(p.line) + ", column " + std::to_string(p.column) + ": " + message);
  };
  if (auto error = problem(file.document(), std::nullopt)) return error;
  for (const TemplateSource& source : file.templates())
    if (source.raw_json_string && source.story_document != nullptr)
      if (auto error = problem(*source.story_document, source.raw_json_string)) return error;
  return std::nullopt;
}

void for_each_non_story(
    const TemplateSource& source,
    const std::function<void(const json::Value&, const std::string&, std::string_view expected)>& visit) {
  auto list = [&](const json::Value& items, const std::string& pointer) {
    if (!items.is_array()) {
      visit(items, pointer, "a list of stories (an array)");
      return;
    }
    std::size_t i = 0;
    for (const json::Value& item : items.items()) {
      if (!item.is_object()) visit(item, pointer + "/" + std::to_string(i), "a story (an object)");
      ++i;
    }
  };
  if (source.story_list == nullptr) return;
  list(*source.story_list, source.story_prefix);
  for_each_story(source.model.stories, [&](const Story& story, int) {
    if (const json::Value* children = story.origin.node.find("sub_stories"))
      list(*children, std::string(story.origin.pointer) + "/sub_stories");
  });
}

void FindingSink::report(std::string_view id, std::ptrdiff_t offset, std::string message) {
  Diagnostic d;
  d.rule = std::string(id);
  d.severity = options_.strict ? Severity::Error : conversion_rule(id).severity;
  d.message = std::move(message);
  d.path = path_;
  if (offset >= 0) {
    const json::Position p = lines_.position(static_cast<std::uint64_t>(offset));
    d.line = p.line;
    d.column = p.column;
    auto [excerpt, column] = make_excerpt(text_, static_cast<std::uint64_t>(offset));
    d.excerpt = std::move(excerpt);
    d.excerpt_column = column;
  }
  diagnostics_.push_back(std::move(d));
}

std::vector<Diagnostic> FindingSink::take() {
  std::vector<Diagnostic> out = std::move(diagnostics_);
  diagnostics_.clear();
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace detail
}  // namespace ptmpl
