// `--format mermaid`: a Mermaid `gantt` block, as GitHub renders in Markdown. Mermaid needs
// real dates: without a calendar, day 0 is drawn on kDefaultStart with the workweek calendar
// (docs/commands/schedule.md).
#include <array>
#include <chrono>

#include "libtemplate/core/story_fields.hpp"
#include "preview/renderers.hpp"
#include "text/text_width.hpp"

namespace ptmpl::preview {

namespace {

// A fixed Monday, so the output does not depend on the day it is made.
constexpr std::chrono::year_month_day kDefaultStart{std::chrono::year{2000}, std::chrono::January, std::chrono::day{3}};

// Mermaid's gantt grammar ends a task's text at ':' and a statement at ';' or '#' ('%%' starts
// a comment), and its sanitizer drops what looks like an HTML tag; its entity codes (#58; …)
// print the characters instead.
std::string mermaid_text(std::string_view text) {
  std::string line = one_line(text);
  std::string out;
  for (char c : line) {
    switch (c) {
      case ':':
        out += "#58;";
        break;
      case ';':
        out += "#59;";
        break;
      case '#':
        out += "#35;";
        break;
      case '%':
        out += "#37;";
        break;
      case '<':
        out += "#60;";
        break;
      case '>':
        out += "#62;";
        break;
      default:
        out += c;
    }
  }
  std::size_t first = out.find_first_not_of(' ');
  std::size_t last = out.find_last_not_of(' ');
  return first == std::string::npos ? std::string() : out.substr(first, last - first + 1);
}

// Task ids from the outline ("1.2.3" → "s1_2_3"): unique, and only letters, digits and '_'.
std::string task_id(const PreviewRow& row) {
  std::string id = "s" + row.outline;
  for (char& c : id)
    if (c == '.') c = '_';
  return id;
}

std::string excludes_line(const Calendar& calendar) {
  std::string list;
  // Mermaid's excludes take "weekends" or full day names ("friday").
  if (calendar.week() == WorkWeek::monday_to_friday()) {
    list = "weekends";
  } else {
    static constexpr std::array<std::string_view, 7> kDays = {"monday", "tuesday",  "wednesday", "thursday",
                                                              "friday", "saturday", "sunday"};
    for (std::size_t i = 0; i < 7; ++i) {
      if (calendar.week().works(std::chrono::weekday{static_cast<unsigned>((i + 1) % 7)})) continue;
      if (!list.empty()) list += ", ";
      list += kDays[i];
    }
  }
  for (Date holiday : calendar.holidays()) {
    if (!list.empty()) list += ", ";
    list += format_date(holiday);
  }
  return list.empty() ? std::string() : "    excludes " + list + "\n";
}

// "    1.2 Title :crit, s1_2, 2027-01-04, 2027-01-06": Mermaid's end date is exclusive, so a task
// ends on the calendar day after its due date (given as a date, Mermaid does not shift it past
// excluded days). A milestone takes its day with a zero duration.
std::string task_line(const Schedule& schedule, const PreviewRow& row, const Calendar& calendar) {
  const ScheduledStory& s = schedule[row.index];
  std::string text = "    " + mermaid_text(row.outline + " " + display_title(schedule.graph().story(row.index)));
  auto start = calendar.date_of(s.early.first_day());
  auto due = calendar.date_of(s.early.due);
  if (!start || !due) return "    %% " + row.outline + ": outside the years 1–9999\n";
  std::string tags;
  if (s.critical) tags += "crit, ";
  if (drawn_as_point(s))
    return text + " :" + tags + "milestone, " + task_id(row) + ", " + format_date(*start) + ", 0d\n";
  return text + " :" + tags + task_id(row) + ", " + format_date(*start) + ", " +
         format_date(*due + std::chrono::days{1}) + "\n";
}

// True when the row after `r` lies inside row r's story.
bool has_shown_children(std::span<const PreviewRow> rows, std::size_t r) {
  return r + 1 < rows.size() && rows[r + 1].depth > rows[r].depth;
}

}  // namespace

std::string render_mermaid(const Schedule& schedule, std::span<const PreviewRow> rows, const PreviewOptions& options) {
  const Calendar calendar = options.calendar.value_or(Calendar(WorkWeek::monday_to_friday(), Date(kDefaultStart)));
  std::string out = "gantt\n";
  if (!options.calendar)
    out += "    %% no --start: day 0 is drawn on " + format_date(Date(kDefaultStart)) + " (workweek calendar)\n";
  out += "    title " + mermaid_text(chart_title(options)) + "\n";
  out += "    dateFormat YYYY-MM-DD\n    axisFormat %Y-%m-%d\n    todayMarker off\n";
  out += excludes_line(calendar);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const PreviewRow& row = rows[r];
    if (row.depth == 0) {
      out += "    section " + mermaid_text(row.outline + " " + display_title(schedule.graph().story(row.index))) + "\n";
      // A top-level story with nothing shown inside it is also the one task of its section.
      if (has_shown_children(rows, r)) continue;
    }
    out += task_line(schedule, row, calendar);
  }
  return out;
}

}  // namespace ptmpl::preview
