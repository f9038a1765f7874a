#include "libtemplate/core/story_fields.hpp"

#include <algorithm>

#include "text/text_width.hpp"

namespace ptmpl::preview {

std::string temp_id_text(const Story& story) {
  return story.temp_id ? temp_id_key(*story.temp_id) : std::string();
}

std::string display_title(const Story& story) {
  std::string title = one_line(story.title.value_or(""));
  if (title.find_first_not_of(' ') == std::string::npos) return "(untitled)";
  return title;
}

bool drawn_as_point(const ScheduledStory& dates) {
  return dates.early.length() == 0;
}

std::int64_t scheduled_duration(const Schedule& schedule, std::size_t index) {
  return schedule[index].early.days();
}

std::string day_text(std::int64_t offset, const std::optional<Calendar>& calendar) {
  if (calendar)
    if (auto date = calendar->date_of(offset)) return format_date(*date);
  return std::to_string(offset);
}

std::string story_line(const Schedule& schedule, const PreviewRow& row, const PreviewOptions& options) {
  const ScheduledStory& s = schedule[row.index];
  auto day = [&](std::int64_t offset) {
    return options.calendar ? day_text(offset, options.calendar) : "day " + std::to_string(offset);
  };
  std::string out = row.outline + " " + display_title(schedule.graph().story(row.index)) + ": ";
  if (drawn_as_point(s)) {
    out += day(s.early.first_day()) + ", milestone";
  } else {
    const std::int64_t days = s.early.days();
    out += day(s.early.first_day()) + " to " + day(s.early.due) + ", " + std::to_string(days) +
           (days == 1 ? " working day" : " working days");
  }
  out += ", total float " + std::to_string(s.total_float);
  return s.critical ? out + ", critical" : out;
}

std::string assignee_names(const Story& story, std::span<const TemplateAssignment> assignments) {
  std::string out;
  for (const std::int64_t id : story.assignments.value_or(std::span<const std::int64_t>())) {
    auto named =
        std::find_if(assignments.begin(), assignments.end(), [&](const TemplateAssignment& a) { return a.id == id; });
    if (!out.empty()) out += ", ";
    out += named != assignments.end() ? one_line(named->name) : "#" + std::to_string(id);
  }
  return out;
}

std::string week_name(WorkWeek week) {
  if (week == WorkWeek::monday_to_friday()) return "workweek";
  if (week == WorkWeek::every_day()) return "7day";
  std::string names;
  for (std::string_view day : week.names()) names += (names.empty() ? "" : ",") + std::string(day);
  return names;
}

std::string chart_title(const PreviewOptions& options) {
  return options.title.empty() ? std::string("Schedule") : one_line(options.title);
}

std::string project_summary(const Schedule& schedule, const PreviewOptions& options) {
  const std::optional<Interval>& project = schedule.project();
  if (!project) return "no stories";
  std::int64_t days = schedule.project_duration();
  std::string out = std::to_string(days) + (days == 1 ? " working day, " : " working days, ");
  if (options.calendar) {
    out += day_text(project->first_day(), options.calendar) + " to " + day_text(project->due, options.calendar);
  } else {
    out += "day " + std::to_string(project->first_day()) + " to day " + std::to_string(project->due);
  }
  out += ", " + std::to_string(schedule.critical_count()) + " of " + std::to_string(schedule.size()) +
         (schedule.size() == 1 ? " story critical" : " stories critical");
  return out;
}

}  // namespace ptmpl::preview
