// `--format json` (SPEC §9): {"project", "stories", "critical_path"}, pretty-printed with
// two-space indentation like the canonical form, stories in tree order.
#include "libtemplate/json.hpp"
#include "preview/renderers.hpp"
#include "preview/story_fields.hpp"

namespace ptmpl::preview {

namespace {

// A JSON object written member by member at one indentation level.
class ObjectWriter {
 public:
  ObjectWriter(std::string& out, std::size_t indent) : out_(out), indent_(indent) { out_ += "{"; }

  ObjectWriter& key(std::string_view name) {
    out_ += first_ ? "\n" : ",\n";
    first_ = false;
    out_.append(indent_ + 2, ' ');
    json::append_quoted(out_, name);
    out_ += ": ";
    return *this;
  }
  ObjectWriter& number(std::string_view name, std::int64_t value) {
    key(name);
    out_ += std::to_string(value);
    return *this;
  }
  ObjectWriter& string(std::string_view name, std::string_view value) {
    key(name);
    json::append_quoted(out_, value);
    return *this;
  }
  ObjectWriter& raw(std::string_view name, std::string_view text) {
    key(name);
    out_ += text;
    return *this;
  }
  void close() {
    if (!first_) {
      out_ += "\n";
      out_.append(indent_, ' ');
    }
    out_ += "}";
  }

 private:
  std::string& out_;
  std::size_t indent_;
  bool first_ = true;
};

// A temp_id as written: an integer, a string, or null.
std::string temp_id_json(const Story& story) {
  if (!story.temp_id) return "null";
  if (const auto* number = std::get_if<std::int64_t>(&*story.temp_id)) return std::to_string(*number);
  std::string out;
  json::append_quoted(out, std::get<std::string_view>(*story.temp_id));
  return out;
}

std::string date_json(std::int64_t offset, const Calendar& calendar) {
  auto date = calendar.date_of(offset);
  if (!date) return "null";
  return "\"" + format_date(*date) + "\"";
}

void write_project(std::string& out, const Schedule& schedule, const PreviewOptions& options) {
  ObjectWriter project(out, 2);
  const std::optional<Interval>& span = schedule.project();
  project.raw("start", span ? std::to_string(span->start) : "null")
      .raw("due", span ? std::to_string(span->due) : "null")
      .number("duration", schedule.project_duration());
  if (options.calendar) {
    project.raw("start_date", span ? date_json(span->start, *options.calendar) : "null")
        .raw("due_date", span ? date_json(span->due, *options.calendar) : "null")
        .string("calendar", week_name(options.calendar->week()));
  }
  project.close();
}

void write_story(std::string& out, const Schedule& schedule, const PreviewRow& row, const PreviewOptions& options) {
  const Story& story = schedule.graph().story(row.index);
  const ScheduledStory& s = schedule[row.index];
  ObjectWriter object(out, 4);
  object.raw("temp_id", temp_id_json(story)).string("outline", row.outline);
  if (story.title)
    object.string("title", *story.title);
  else
    object.raw("title", "null");
  object.string("story_type", to_string(story.effective_type()))
      .number("start", s.early.start)
      .number("due", s.early.due)
      .number("duration", scheduled_duration(schedule, row.index))
      .number("early_start", s.early.start)
      .number("early_due", s.early.due)
      .number("late_start", s.late.start)
      .number("late_due", s.late.due)
      .number("total_float", s.total_float)
      .raw("critical", s.critical ? "true" : "false");
  if (options.calendar) {
    object.raw("start_date", date_json(s.early.start, *options.calendar))
        .raw("due_date", date_json(s.early.due, *options.calendar));
  }
  object.close();
}

void write_critical_path(std::string& out, const Schedule& schedule) {
  std::span<const std::vector<std::size_t>> chains = schedule.critical_chains();
  if (chains.empty()) {
    out += "[]";
    return;
  }
  out += "[";
  for (std::size_t c = 0; c < chains.size(); ++c) {
    out += c == 0 ? "\n    [" : ",\n    [";
    for (std::size_t k = 0; k < chains[c].size(); ++k) {
      if (k > 0) out += ", ";
      out += temp_id_json(schedule.graph().story(chains[c][k]));
    }
    out += "]";
  }
  out += "\n  ]";
}

}  // namespace

std::string render_json(const Schedule& schedule, std::span<const PreviewRow> rows, const PreviewOptions& options) {
  std::string out;
  ObjectWriter root(out, 0);
  root.key("project");
  write_project(out, schedule, options);
  root.key("stories");
  if (rows.empty()) {
    out += "[]";
  } else {
    out += "[";
    for (std::size_t r = 0; r < rows.size(); ++r) {
      out += r == 0 ? "\n    " : ",\n    ";
      write_story(out, schedule, rows[r], options);
    }
    out += "\n  ]";
  }
  root.key("critical_path");
  write_critical_path(out, schedule);
  root.close();
  return out + "\n";
}

}  // namespace ptmpl::preview
