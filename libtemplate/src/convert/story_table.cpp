#include "convert/story_table.hpp"

#include <set>

#include "libtemplate/core/diagnostic.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/preview.hpp"
#include "libtemplate/core/rollup.hpp"

namespace ptmpl::detail {

using namespace csv;

StoryTable::StoryTable(const TemplateFile& file, const TableFormat& format, const ConvertOptions& options,
                       std::optional<Date> start)
    : file_(file), source_(file.templates().front()), format_(format), findings_(file.text(), file.path(), options) {
  // The dates schedule shows: the calendar block's, when it has a start (a block with a
  // problem gives none; lint reports it).
  CalendarFlags flags;
  flags.start = start;
  Result<std::optional<Calendar>> calendar = resolve_calendar(file, source_, flags);
  if (calendar.ok()) calendar_ = calendar.value();
  for (Column c : kExportColumns)
    if (!is_date_column(c) || calendar_) columns_.push_back(c);
}

void StoryTable::report(std::string_view id, const json::Value& at, std::string message,
                        std::vector<std::string> topics) {
  findings_.report(id, static_cast<std::ptrdiff_t>(at.offset()), std::move(message), std::move(topics));
}

const json::Value& StoryTable::in_file(const json::Value& value) const {
  return source_.raw_json_string ? *source_.raw_json_string : value;
}

std::string StoryTable::story_name(const Story& story) {
  std::string name = "story";
  if (story.temp_id) name += " " + temp_id_key(*story.temp_id);
  if (story.title) name += " \"" + std::string(*story.title) + "\"";
  return name;
}

void StoryTable::for_each_row(const std::function<void(const TableRow&)>& visit) {
  report_template_fields();
  for_each_non_story(source_, [&](const json::Value& item, const std::string& pointer, std::string_view expected) {
    report(format_.dropped_story, in_file(item),
           pointer + " is " + std::string(json::kind_name(item)) + ", not " + std::string(expected) +
               "; it is not written");
  });
  collect_links();
  for_each_story(source_.model.stories, [&](const Story& story, int depth) {
    report_story_fields(story);
    std::string id = story.temp_id ? temp_id_key(*story.temp_id) : std::string();
    const auto links = story.temp_id ? predecessors_.find(id) : predecessors_.end();
    const TableRow row{story, static_cast<std::size_t>(depth) + 1, std::move(id),
                       links != predecessors_.end() ? std::string_view(links->second) : std::string_view()};
    visit(row);
  });
}

TableCell StoryTable::cell(const TableRow& row, Column column) const {
  const Story& story = row.story;
  auto text = [](std::optional<std::string_view> value) {
    return value ? TableCell{.kind = TableCell::Kind::Text, .text = *value} : TableCell{};
  };
  auto number = [](std::optional<std::int64_t> value, TableCell::Kind kind = TableCell::Kind::Number) {
    return value ? TableCell{.kind = kind, .text = {}, .number = *value} : TableCell{};
  };
  auto date = [this](std::optional<std::int64_t> day) {
    const std::optional<Date> d = day ? calendar_->date_of(*day) : std::nullopt;  // none beyond the years 1–9999
    return d ? TableCell{.kind = TableCell::Kind::Date, .text = {}, .number = 0, .date = *d} : TableCell{};
  };
  switch (column) {
    case kLevel:
      return number(static_cast<std::int64_t>(row.level));
    case kTempId:
      return text(row.temp_id.empty() ? std::nullopt : std::optional<std::string_view>(row.temp_id));
    case kTitle:
      return text(story.title);
    case kType:
      return text(story.story_type ? std::optional(to_string(*story.story_type)) : std::nullopt);
    case kStart:
      return number(story.relative_start_date);
    case kStartDate:
      return date(story.relative_start_date);
    case kDue:
      return number(story.relative_due_date);
    case kDueDate:
      return date(story.relative_due_date);
    case kDuration:
      return number(story.duration);
    case kPredecessors:
      return text(row.predecessors.empty() ? std::nullopt : std::optional(row.predecessors));
    case kBudget:
      return number(story.budget_estimate_in_cents, TableCell::Kind::Cents);
    case kMinutes:
      return number(story.time_estimate_in_minutes);
    case kTags:
      return text(story.tag_list);
    case kDescription:
      return text(story.description);
    default:
      return {};
  }
}

// Links move to their target's row, in MS Project's notation, each with its type.
void StoryTable::collect_links() {
  std::set<std::string> ids;
  for_each_story(source_.model.stories, [&](const Story& story, int) {
    if (story.temp_id) ids.insert(temp_id_key(*story.temp_id));
  });
  for_each_story(source_.model.stories, [&](const Story& story, int) {
    for (const Dependency& d : story.dependencies) {
      const std::optional<TempId>& source = story.temp_id;
      std::string problem;
      if (!source)
        problem = "its story has no temp_id";
      else if (!d.target_id || ids.count(temp_id_key(*d.target_id)) == 0)
        problem = "its target is not in the template";
      else if (!d.type || *d.type < 0 || *d.type > 3)
        problem = "its type is not 0–3";
      else if (d.lag.has_value() != (d.node.find("lag") != nullptr))
        problem = "its lag is not a whole number";
      if (!problem.empty()) {
        report(format_.dropped_link, in_file(d.node),
               "a dependency of " + story_name(story) + " is not written: " + problem);
        continue;
      }
      std::string& cell = predecessors_[temp_id_key(*d.target_id)];
      if (!cell.empty()) cell += ";";
      cell += temp_id_key(*source) + std::string(kLinkLetters[*d.type]);
      if (d.lag.value_or(0) != 0) cell += (*d.lag > 0 ? "+" : "") + std::to_string(*d.lag);
    }
  });
}

void StoryTable::report_template_fields() {
  const json::Value* pt = source_.template_pointer.empty()
                              ? nullptr
                              : json::resolve_pointer(file_.document().root(), source_.template_pointer);
  std::vector<std::string> dropped;
  if (pt != nullptr)
    for (const json::Member& m : pt->members()) {
      const std::string_view key = m.key.text();
      const bool kept = key == "raw_json" || key == "item_count" || key == "duration" || key == "budget" ||
                        key == "is_budgeted" ||
                        (format_.keeps_assignments_and_calendar && key == "project_template_assignments");
      if (!kept) dropped.emplace_back(key);
    }
  if (!format_.keeps_assignments_and_calendar) {
    if (!source_.model.assignments.empty()) dropped.emplace_back("project_template_assignments");
    if (source_.model.calendar) dropped.emplace_back("calendar");  // docs/semantics.md §7: nothing dropped silently
  }
  if (dropped.empty()) return;
  std::string list;
  for (const std::string& key : dropped) list += (list.empty() ? "" : ", ") + key;
  report(format_.template_fields, pt != nullptr ? *pt : file_.document().root(),
         "the template's " + list + " are not written: " + std::string(format_.holds));
}

// What a row has no column for, and values of the wrong type (the model leaves those out).
void StoryTable::report_story_fields(const Story& story) {
  std::vector<std::string> dropped;
  for (const json::Member& m : story.origin.node.members()) {
    const std::string_view key = m.key.text();
    bool kept = key == "sub_stories" || key == "dependencies";
    if (key == "story_type")
      kept = story.story_type.has_value();
    else if (key == "title")
      kept = story.title.has_value();
    else if (key == "temp_id")
      kept = story.temp_id.has_value();
    else if (key == "relative_start_date")
      kept = story.relative_start_date.has_value();
    else if (key == "relative_due_date")
      kept = story.relative_due_date.has_value();
    else if (key == "duration")
      kept = story.duration.has_value();
    else if (key == "budget_estimate_in_cents")
      kept = story.budget_estimate_in_cents.has_value();
    else if (key == "time_estimate_in_minutes")
      kept = story.time_estimate_in_minutes.has_value();
    else if (key == "tag_list")
      kept = story.tag_list.has_value();
    else if (key == "description")
      kept = story.description.has_value();
    else if (key == "assignments" && format_.keeps_assignments_and_calendar)
      kept = story.assignments.has_value();
    if (!kept) dropped.emplace_back(key);
  }
  if (dropped.empty()) return;
  std::string list;
  for (const std::string& key : dropped) list += (list.empty() ? "" : ", ") + key;
  report(format_.dropped_field, in_file(story.origin.node),
         story_name(story) + ": " + list + " not written (no column for it, or a value of the wrong type)",
         std::move(dropped));
}

std::optional<Error> untabulable(const TemplateFile& file, std::string_view format) {
  if (auto error = unexportable(file)) return error;
  if (file.templates().size() != 1)
    return Error::invalid(file.path() + ": not one template (" + std::to_string(file.templates().size()) +
                          " found); ptmpl writes one template per " + std::string(format));
  if (file.templates().front().story_list == nullptr)
    return Error::invalid(file.path() + ": the template's raw_json is not a story list");
  return std::nullopt;
}

}  // namespace ptmpl::detail
