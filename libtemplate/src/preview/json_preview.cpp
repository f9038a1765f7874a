// `--format json` (docs/semantics.md §9): {"project", "stories", "critical_path"}, pretty-printed with
// two-space indentation like the canonical form, stories in tree order.
#include "libtemplate/core/json_emitter.hpp"
#include "libtemplate/core/story_fields.hpp"
#include "preview/renderers.hpp"

namespace ptmpl::preview {

namespace {

// A temp_id as written: an integer, a string, or null.
void write_temp_id(JsonEmitter& json, const Story& story) {
  if (!story.temp_id) return json.null();
  const TempId id = *story.temp_id;
  if (const auto* number = std::get_if<std::int64_t>(&id)) return json.integer(*number);
  json.string(std::get<std::string_view>(id));
}

// `"key": day` as an offset, or as a date with a calendar (null when there is no such day).
void write_day(JsonEmitter& json, std::string_view key, std::optional<std::int64_t> offset,
               const Calendar* calendar = nullptr) {
  json.key(key);
  if (!offset) return json.null();
  if (calendar == nullptr) return json.integer(*offset);
  const auto date = calendar->date_of(*offset);
  if (date)
    json.string(format_date(*date));
  else
    json.null();
}

void write_project(JsonEmitter& json, const Schedule& schedule, const PreviewOptions& options) {
  json.key("project");
  json.begin_object();
  const std::optional<Interval>& span = schedule.project();
  std::optional<std::int64_t> start;
  std::optional<std::int64_t> due;
  if (span) {
    start = span->first_day();
    due = span->due;
  }
  write_day(json, "start", start);
  write_day(json, "due", due);
  json.member("duration", schedule.project_duration());
  if (options.calendar) {
    write_day(json, "start_date", start, &*options.calendar);
    write_day(json, "due_date", due, &*options.calendar);
    json.member("calendar", week_name(options.calendar->week()));
    if (options.finish) {
      json.member("finish", format_date(*options.finish));
      json.member("latest_start", format_date(options.calendar->day_zero()));
    }
  }
  json.end_object();
}

void write_story(JsonEmitter& json, const Schedule& schedule, const PreviewRow& row, const PreviewOptions& options) {
  const Story& story = schedule.graph().story(row.index);
  const ScheduledStory& s = schedule[row.index];
  json.begin_object();
  json.key("temp_id");
  write_temp_id(json, story);
  json.member("outline", row.outline);
  json.key("title");
  if (story.title)
    json.string(*story.title);
  else
    json.null();
  json.member("story_type", to_string(story.effective_type()));
  json.member("start", s.early.first_day());
  json.member("due", s.early.due);
  json.member("duration", scheduled_duration(schedule, row.index));
  json.member("early_start", s.early.first_day());
  json.member("early_due", s.early.due);
  json.member("late_start", s.late.first_day());
  json.member("late_due", s.late.due);
  json.member("total_float", s.total_float);
  json.key("critical");
  json.boolean(s.critical);
  // A milestone is a moment at the end or the start of its day (docs/semantics.md §4).
  if (!story.is_parent() && s.early.length() == 0) json.member("side", s.early.end_side ? "end" : "start");
  if (options.calendar) {
    write_day(json, "start_date", s.early.first_day(), &*options.calendar);
    write_day(json, "due_date", s.early.due, &*options.calendar);
  }
  json.end_object();
}

// Each chain on one line: `[1, 2, "go"]`.
void write_critical_path(JsonEmitter& json, const Schedule& schedule) {
  json.key("critical_path");
  json.begin_array();
  for (const std::vector<std::size_t>& chain : schedule.critical_chains()) {
    json.begin_array(JsonLayout::Line);
    for (std::size_t index : chain) write_temp_id(json, schedule.graph().story(index));
    json.end_array();
  }
  json.end_array();
}

}  // namespace

namespace {

void write_preview(JsonEmitter& json, const Schedule& schedule, std::span<const PreviewRow> rows,
                   const PreviewOptions& options) {
  json.begin_object();
  write_project(json, schedule, options);
  json.key("stories");
  json.begin_array();
  for (const PreviewRow& row : rows) write_story(json, schedule, row, options);
  json.end_array();
  write_critical_path(json, schedule);
  json.end_object();
}

}  // namespace

std::string render_json(const Schedule& schedule, std::span<const PreviewRow> rows, const PreviewOptions& options) {
  JsonEmitter json;
  write_preview(json, schedule, rows, options);
  return json.finish();
}

void render_json_to(const Schedule& schedule, std::span<const PreviewRow> rows, const PreviewOptions& options,
                    const std::function<void(std::string_view)>& out) {
  JsonEmitter json;
  json.drain_into(out);
  write_preview(json, schedule, rows, options);
  (void)json.finish();
}

}  // namespace ptmpl::preview
