// Template → CSV (docs/semantics.md §7): one story per row, nesting by level, links as predecessors in MS
// Project's notation on the successor's row, each cell by detail::append_csv_cell (RFC 4180
// quoting, text guarded against formula injection).
#include <algorithm>
#include <array>
#include <cctype>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "convert/csv_columns.hpp"
#include "convert/findings.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/diagnostic.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/model.hpp"
#include "libtemplate/core/preview.hpp"
#include "libtemplate/core/rollup.hpp"
#include "libtemplate/core/template_file.hpp"
#include "libtemplate/core/writer.hpp"
#include "output/csv_cell.hpp"

namespace ptmpl {

namespace {

using json::Member;
using json::Value;
using namespace detail::csv;

// ---------------------------------------------------------------------------------------------
// Template → CSV.

// Text cells get the spreadsheet guard (docs/semantics.md §11); the level and amounts are numbers.
detail::CsvCell cell_kind(Column c) {
  switch (c) {
    case kLevel:
    case kStart:
    case kStartDate:
    case kDue:
    case kDueDate:
    case kDuration:
    case kBudget:
    case kMinutes:
      return detail::CsvCell::Number;
    default:
      return detail::CsvCell::Text;
  }
}

class CsvWriter {
 public:
  CsvWriter(const TemplateFile& file, const ConvertOptions& options)
      : file_(file), source_(file.templates().front()), findings_(file.text(), file.path(), options) {
    // The dates schedule shows: the calendar block's, when it has a start (a block with a
    // problem gives none; lint reports it).
    Result<std::optional<Calendar>> calendar = resolve_calendar(file, source_, CalendarFlags{});
    if (calendar.ok()) calendar_ = calendar.value();
  }

  Conversion run();

 private:
  void report(std::string_view id, const json::Value& at, std::string message, std::vector<std::string> topics = {});
  [[nodiscard]] const json::Value& in_file(const json::Value& value) const;
  void collect_links();
  void report_template_fields();
  void report_story_fields(const Story& story);
  void write_row(std::string& out, const Story& story, std::size_t depth);
  [[nodiscard]] std::string story_name(const Story& story) const;

  const TemplateFile& file_;
  const TemplateSource& source_;
  detail::FindingSink findings_;
  std::map<std::string, std::string> predecessors_;  // by the target's temp_id
  std::optional<Calendar> calendar_;                 // the date columns' calendar, if any
};

void CsvWriter::report(std::string_view id, const json::Value& at, std::string message,
                       std::vector<std::string> topics) {
  findings_.report(id, static_cast<std::ptrdiff_t>(at.offset()), std::move(message), std::move(topics));
}

// Where a value of the story tree is in the file: inside a raw_json string, the string.
const json::Value& CsvWriter::in_file(const json::Value& value) const {
  return source_.raw_json_string ? *source_.raw_json_string : value;
}

std::string CsvWriter::story_name(const Story& story) const {
  std::string name = "story";
  if (story.temp_id) name += " " + temp_id_key(*story.temp_id);
  if (story.title) name += " \"" + std::string(*story.title) + "\"";
  return name;
}

Conversion CsvWriter::run() {
  report_template_fields();
  detail::for_each_non_story(source_,
                             [&](const json::Value& item, const std::string& pointer, std::string_view expected) {
                               report("csv-dropped-story", in_file(item),
                                      pointer + " is " + std::string(json::kind_name(item)) + ", not " +
                                          std::string(expected) + "; it is not written");
                             });
  collect_links();
  std::string out = "\xEF\xBB\xBF";  // spreadsheets read UTF-8 only after a byte order mark
  for (Column c : kExportColumns) {
    if (is_date_column(c) && !calendar_) continue;
    if (c != kLevel) out += ',';
    out += kColumnName[c];
  }
  out += "\r\n";
  for_each_story(source_.model.stories, [&](const Story& story, int depth) {
    report_story_fields(story);
    write_row(out, story, static_cast<std::size_t>(depth));
  });
  Conversion conversion;
  conversion.document = std::move(out);
  conversion.diagnostics = findings_.take();
  return conversion;
}

// Links move to their target's row, in MS Project's notation, each with its type.
void CsvWriter::collect_links() {
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
        report("csv-dropped-link", in_file(d.node),
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

void CsvWriter::report_template_fields() {
  const json::Value* pt = source_.template_pointer.empty()
                              ? nullptr
                              : json::resolve_pointer(file_.document().root(), source_.template_pointer);
  std::vector<std::string> dropped;
  if (pt != nullptr)
    for (const json::Member& m : pt->members()) {
      const std::string_view key = m.key.text();
      if (key != "raw_json" && key != "item_count" && key != "duration" && key != "budget" && key != "is_budgeted")
        dropped.emplace_back(key);
    }
  if (!source_.model.assignments.empty()) dropped.emplace_back("project_template_assignments");
  if (source_.model.calendar) dropped.emplace_back("calendar");  // docs/semantics.md §7: nothing dropped silently
  if (dropped.empty()) return;
  std::string list;
  for (const std::string& key : dropped) list += (list.empty() ? "" : ", ") + key;
  report("csv-template-fields", pt != nullptr ? *pt : file_.document().root(),
         "the template's " + list + " are not written: a CSV holds the stories only");
}

// What a row has no column for, and values of the wrong type (the model leaves those out).
void CsvWriter::report_story_fields(const Story& story) {
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
    if (!kept) dropped.emplace_back(key);
  }
  if (dropped.empty()) return;
  std::string list;
  for (const std::string& key : dropped) list += (list.empty() ? "" : ", ") + key;
  report("csv-dropped-field", in_file(story.origin.node),
         story_name(story) + ": " + list + " not written (no column for it, or a value of the wrong type)",
         std::move(dropped));
}

void CsvWriter::write_row(std::string& out, const Story& story, std::size_t depth) {
  auto number = [](const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : std::string(); };
  auto date = [this](const std::optional<std::int64_t>& day) {
    const std::optional<Date> d = day ? calendar_->date_of(*day) : std::nullopt;  // none beyond the years 1–9999
    return d ? format_date(*d) : std::string();
  };
  const std::string id = story.temp_id ? temp_id_key(*story.temp_id) : std::string();
  const auto links = predecessors_.find(id);
  for (Column c : kExportColumns) {
    if (is_date_column(c) && !calendar_) continue;
    if (c != kLevel) out += ',';
    std::string text;
    switch (c) {
      case kLevel:
        text = std::to_string(depth + 1);
        break;
      case kTempId:
        text = id;
        break;
      case kTitle:
        text = std::string(story.title.value_or(""));
        break;
      case kType:
        text = story.story_type ? std::string(to_string(*story.story_type)) : std::string();
        break;
      case kStart:
        text = number(story.relative_start_date);
        break;
      case kStartDate:
        text = date(story.relative_start_date);
        break;
      case kDue:
        text = number(story.relative_due_date);
        break;
      case kDueDate:
        text = date(story.relative_due_date);
        break;
      case kDuration:
        text = number(story.duration);
        break;
      case kPredecessors:
        text = story.temp_id && links != predecessors_.end() ? links->second : std::string();
        break;
      case kBudget:
        text = story.budget_estimate_in_cents ? cents_to_budget(*story.budget_estimate_in_cents) : "";
        break;
      case kMinutes:
        text = number(story.time_estimate_in_minutes);
        break;
      case kTags:
        text = std::string(story.tag_list.value_or(""));
        break;
      case kDescription:
        text = std::string(story.description.value_or(""));
        break;
      default:
        break;
    }
    detail::append_csv_cell(out, text, cell_kind(c));
  }
  out += "\r\n";
}

}  // namespace

Result<Conversion> export_csv(std::string_view text, const std::string& path, const ConvertOptions& options) {
  const TemplateFile file = TemplateFile::parse(path, FileText(std::string(text)));
  if (auto error = detail::unexportable(file)) return *error;
  if (file.templates().size() != 1)
    return Error::invalid(path + ": not one template (" + std::to_string(file.templates().size()) +
                          " found); ptmpl writes one template per CSV file");
  if (file.templates().front().story_list == nullptr)
    return Error::invalid(path + ": the template's raw_json is not a story list");
  return CsvWriter(file, options).run();
}

}  // namespace ptmpl
