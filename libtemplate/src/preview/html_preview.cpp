// `--format html`: one self-contained page for a planner. A grid of the stories (outline and
// title, start, finish, working days, assignees) beside their bars, as in a desktop planner;
// the time scale zoomed by day, week or month; parents that collapse. It fetches nothing: its
// Content-Security-Policy allows inline styles and the one inline script, by its hash.
#include <algorithm>
#include <array>

#include "libtemplate/core/hours.hpp"
#include "libtemplate/core/story_fields.hpp"
#include "preview/day_columns.hpp"
#include "preview/markup_text.hpp"
#include "preview/renderers.hpp"
#include "preview/ticks.hpp"

namespace ptmpl::preview {

namespace {

// How wide a column (a working day, or a calendar day with a calendar) is drawn at each zoom.
struct Zoom {
  std::string_view name;  // the button's value, the table's data-zoom
  std::string_view label;
  double column_width;  // px
};
constexpr std::array<Zoom, 3> kZooms = {{{"day", "Day", 40}, {"week", "Week", 8}, {"month", "Month", 2}}};

constexpr double kMaxTimelineWidth = 60000;  // px: a longer span draws its columns narrower at every zoom
constexpr double kFitWidth = 1000;           // the page opens at the first zoom whose timeline is this narrow
constexpr double kTickCharWidth = 6.5;       // a generous width of one character of the 11 px tick labels
constexpr double kTickLabelGap = 7;          // the least room between two tick labels
constexpr double kGridIndentPerLevel = 14;   // px
constexpr std::size_t kGridMaxIndentLevels = 8;

constexpr std::string_view kStyle = R"(body { font-family: sans-serif; margin: 24px; color: #222222; }
h1 { font-size: 20px; margin: 0 0 4px 0; }
p.summary { color: #555555; margin: 0 0 12px 0; }
div.toolbar { margin-bottom: 8px; font-size: 13px; }
button.zoom { font: inherit; padding: 2px 10px; }
button.zoom[aria-pressed="true"] { font-weight: bold; }
table.plan { --task: 300px; --date: 96px; --days: 52px; --assigned: 150px;
  border-collapse: collapse; table-layout: fixed; width: 1px; font-size: 13px; }
table.plan th, table.plan td { height: 22px; padding: 0 6px; box-sizing: border-box; white-space: nowrap;
  overflow: hidden; text-overflow: ellipsis; text-align: left; }
table.plan thead th { position: sticky; top: 0; z-index: 2; background: #ffffff; border-bottom: 1px solid #cccccc; }
table.plan th:not(.scale), table.plan td:not(.lane) { position: sticky; z-index: 1; background: #ffffff;
  border-right: 1px solid #e3e3e3; }
table.plan thead th:not(.scale) { z-index: 3; }
.task { width: var(--task); left: 0; }
.start { width: var(--date); left: var(--task); }
.finish { width: var(--date); left: calc(var(--task) + var(--date)); }
.days { width: var(--days); left: calc(var(--task) + 2 * var(--date)); }
.assigned { width: var(--assigned); left: calc(var(--task) + 2 * var(--date) + var(--days)); }
table.plan .days { text-align: right; }
td.start, td.finish, td.days { font-variant-numeric: tabular-nums; }
th.scale, td.lane { width: calc(var(--columns) * var(--day) + 80px); padding: 0; position: relative; }
tr.parent td.task { font-weight: bold; }
tr.critical td:not(.lane) { color: #b01e1f; }
button.toggle { width: 16px; padding: 0; border: 0; background: none; font: inherit; cursor: pointer; }
button.toggle::before { content: "\25BE"; }
button.toggle[aria-expanded="false"]::before { content: "\25B8"; }
span.leaf { display: inline-block; width: 16px; }
span.outline { color: #555555; margin-right: 4px; }
div.ticks { display: none; position: absolute; inset: 0; font-size: 11px; font-weight: normal; color: #555555; }
div.ticks > span { position: absolute; left: calc(var(--at) * var(--day)); top: 3px; padding-left: 2px;
  border-left: 1px solid #cccccc; }
td.lane > div { position: absolute; left: calc(var(--from) * var(--day));
  width: max(1px, calc((var(--to) - var(--from)) * var(--day))); }
div.bar, div.float { top: 4px; height: 14px; background: #4e79a7; }
div.bar.critical { background: #d62728; }
div.float { background: #c9d6e8; }
div.parent { top: 8px; height: 6px; background: #555555; }
div.parent.critical { background: #8c1c1d; }
td.lane > div.milestone { left: calc(var(--from) * var(--day) - 5px); top: 6px; width: 10px; height: 10px;
  transform: rotate(45deg); }
div.milestone { background: #333333; }
div.milestone.critical { background: #d62728; }
)";

// Runs once the page is read: the zoom buttons set the table's data-zoom (the style sheet
// gives each zoom its column width and ticks); a parent's toggle hides the rows below it.
constexpr std::string_view kScript = R"(
const plan = document.querySelector('table.plan');
const zooms = document.querySelectorAll('button.zoom');
for (const button of zooms) {
  button.addEventListener('click', () => {
    plan.dataset.zoom = button.value;
    for (const other of zooms) other.setAttribute('aria-pressed', String(other === button));
  });
}
// A row is shown unless a parent above it is collapsed.
function showOutline() {
  let collapsedDepth = Infinity;
  for (const row of plan.tBodies[0].rows) {
    const depth = Number(row.dataset.depth);
    if (depth <= collapsedDepth) collapsedDepth = Infinity;
    row.hidden = depth > collapsedDepth;
    const toggle = row.querySelector('button.toggle');
    if (!row.hidden && toggle && toggle.getAttribute('aria-expanded') === 'false') collapsedDepth = depth;
  }
}
for (const toggle of plan.querySelectorAll('button.toggle')) {
  toggle.addEventListener('click', () => {
    toggle.setAttribute('aria-expanded', String(toggle.getAttribute('aria-expanded') !== 'true'));
    showOutline();
  });
}
)";
// The Content-Security-Policy's hash of kScript: base64 of its SHA-256. A test recomputes it
// (CliSchedule.HtmlPageAllowsItsScriptByHash); Chromium's console names the right one too.
constexpr std::string_view kScriptHash = "sha256-6VdQAC0AtsU/V0DsRZ9PNopwsYC1e71H4h0z+Pdq5k8=";

// How wide a column is drawn at `zoom`: narrower when the whole span would be too wide.
double column_width(const Zoom& zoom, const DayColumns& columns) {
  return std::min(zoom.column_width, kMaxTimelineWidth / static_cast<double>(columns.count()));
}

std::string column_var(std::string_view name, double column) {
  return "--" + std::string(name) + ":" + svg_number(column);
}

// The calendar days that do not work, as a gradient of the lanes' background, in columns.
std::string days_off_gradient(const DayColumns& columns) {
  std::string stops;
  auto stop = [](std::string_view colour, std::uint64_t column) {
    return ", " + std::string(colour) + " calc(" + std::to_string(column) + " * var(--day))";
  };
  for (auto [column, count] : columns.days_off())
    stops += stop("transparent", column) + stop("#ececec", column) + stop("#ececec", column + count) +
             stop("transparent", column + count);
  return stops.empty() ? stops : "linear-gradient(to right" + stops + ")";
}

// The page's own rules: the columns, each zoom's column width, its ticks and whether its days
// off are shaded.
std::string zoom_style(const DayColumns& columns) {
  // The shading has a stop per run of days off: only for a span the day zoom draws in full.
  const bool full_width = static_cast<double>(columns.count()) * kZooms[0].column_width <= kMaxTimelineWidth;
  const std::string days_off = full_width ? days_off_gradient(columns) : "";
  std::string out = "table.plan { --columns: " + std::to_string(columns.count()) + ";" +
                    (days_off.empty() ? "" : " --days-off: " + days_off + ";") + " }\n";
  for (const Zoom& zoom : kZooms) {
    const std::string selector = "table.plan[data-zoom=\"" + std::string(zoom.name) + "\"]";
    const double width = column_width(zoom, columns);
    out += selector + " { --day: " + svg_number(width) + "px; }\n";
    out += selector + " div.ticks[data-zoom=\"" + std::string(zoom.name) + "\"] { display: block; }\n";
    if (!days_off.empty() && width >= kMinShadedColumnWidth)
      out += selector + " td.lane { background: var(--days-off); }\n";
  }
  return out;
}

// The time scale at each zoom: the tick_days() steps (1, 2, 5, 10, … working days) whose
// labels lie apart at that zoom's column width; only the current zoom's are shown.
std::string time_scale(const Interval& project, const DayColumns& columns, const PreviewOptions& options) {
  const TickLabels labels(options.calendar, project.first_day(), project.due);
  const double min_gap = static_cast<double>(labels.width()) * kTickCharWidth + kTickLabelGap;
  std::string out = "<th class=\"scale\">";
  for (const Zoom& zoom : kZooms) {
    out += "<div class=\"ticks\" data-zoom=\"" + std::string(zoom.name) + "\">";
    for (std::int64_t day : tick_days(project.first_day(), project.due, column_width(zoom, columns), min_gap))
      out += "<span style=\"" + column_var("at", columns.start(day)) + "\">" + markup_escape(labels(day)) + "</span>";
    out += "</div>";
  }
  return out + "</th>";
}

std::string bar(std::string_view css_class, double from, double to, const std::string& tooltip = "") {
  return "<div class=\"" + std::string(css_class) + "\" style=\"" + column_var("from", from) + ";" +
         column_var("to", to) + "\"" + (tooltip.empty() ? "" : " title=\"" + markup_escape(tooltip) + "\"") + "></div>";
}

// The lane of a story: its bar, a parent's thin bar or a milestone's diamond, and a leaf's float.
std::string lane(const Schedule& schedule, const PreviewRow& row, const DayColumns& columns,
                 const PreviewOptions& options) {
  const ScheduledStory& s = schedule[row.index];
  const std::string tooltip = story_line(schedule, row, options);
  const std::string critical = s.critical ? " critical" : "";
  const double from = columns.first_moment(s.early);
  if (drawn_as_point(s)) return bar("milestone" + critical, from, from, tooltip);
  const double to = columns.end(s.early.start, s.early.finish);
  if (schedule.graph().story(row.index).is_parent()) return bar("parent" + critical, from, to, tooltip);
  std::string out;
  if (!s.critical && s.total_float > 0) {
    const double float_end = columns.end(s.early.start, s.late.finish);
    if (float_end > to) out += bar("float", to, float_end);
  }
  return out + bar("bar" + critical, from, to, tooltip);
}

std::string grid_cell(std::string_view css_class, std::string_view content) {
  return "<td class=\"" + std::string(css_class) + "\">" + markup_escape(content) + "</td>";
}

// A story's row: the grid (a parent with its children shown has a toggle) and its lane. A
// milestone has one date, its start.
std::string story_row(const Schedule& schedule, std::span<const PreviewRow> rows, std::size_t r,
                      const DayColumns& columns, const PreviewOptions& options) {
  const PreviewRow& row = rows[r];
  const Story& story = schedule.graph().story(row.index);
  const ScheduledStory& s = schedule[row.index];
  const bool has_children = r + 1 < rows.size() && rows[r + 1].depth > row.depth;
  std::string classes = story.is_parent() ? "parent" : "";
  if (s.critical) classes += classes.empty() ? "critical" : " critical";
  std::string out = "<tr data-depth=\"" + std::to_string(row.depth) + "\"" +
                    (classes.empty() ? "" : " class=\"" + classes + "\"") + ">";
  const double indent = 6 + kGridIndentPerLevel * static_cast<double>(std::min(row.depth, kGridMaxIndentLevels));
  const std::string name = markup_escape(row.outline + " " + display_title(story));
  out += "<td class=\"task\" style=\"padding-left:" + svg_number(indent) + "px\" title=\"" + name + "\">";
  out += has_children ? "<button type=\"button\" class=\"toggle\" aria-expanded=\"true\" aria-label=\"" + name + "\">" +
                            "</button>"
                      : "<span class=\"leaf\"></span>";
  out += "<span class=\"outline\">" + markup_escape(row.outline) + "</span>" + markup_escape(display_title(story)) +
         "</td>";
  out += grid_cell("start", day_text(s.early.first_day(), options.calendar));
  out += grid_cell("finish", drawn_as_point(s) ? "" : day_text(s.early.due, options.calendar));
  out += grid_cell("days", std::to_string(scheduled_duration(schedule, row.index)));
  out += grid_cell("assigned", assignee_names(story, options.assignments));
  out += "<td class=\"lane\">" + lane(schedule, row, columns, options) + "</td></tr>\n";
  return out;
}

std::string toolbar(const Zoom& shown) {
  std::string out = "<div class=\"toolbar\" role=\"group\" aria-label=\"Zoom\">Zoom:";
  for (const Zoom& zoom : kZooms)
    out += " <button type=\"button\" class=\"zoom\" value=\"" + std::string(zoom.name) + "\" aria-pressed=\"" +
           (&zoom == &shown ? "true" : "false") + "\">" + std::string(zoom.label) + "</button>";
  return out + "</div>\n";
}

}  // namespace

std::string render_html(const Schedule& schedule, std::span<const PreviewRow> rows, const PreviewOptions& options) {
  const std::string title = markup_escape(chart_title(options));
  const std::optional<Interval>& project = schedule.project();
  std::optional<DayColumns> columns;
  if (project) columns.emplace(project->first_day(), project->due, options.calendar);
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
      "script-src '" +
      std::string(kScriptHash) +
      "'\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
      title + "</title>\n<style>\n" + std::string(kStyle) + (columns ? zoom_style(*columns) : "") +
      "</style>\n</head>\n<body>\n";
  out += "<h1>" + title + "</h1>\n<p class=\"summary\">" + markup_escape(project_summary(schedule, options)) + "</p>\n";
  if (!columns) return out + "</body>\n</html>\n";
  // The page opens at the first zoom whose timeline fits beside the grid.
  const Zoom* shown = &kZooms.back();
  for (const Zoom& zoom : kZooms) {
    if (static_cast<double>(columns->count()) * column_width(zoom, *columns) <= kFitWidth) {
      shown = &zoom;
      break;
    }
  }
  out += toolbar(*shown);
  out += "<table class=\"plan\" data-zoom=\"" + std::string(shown->name) + "\">\n<thead><tr>" +
         "<th class=\"task\">Task</th><th class=\"start\">Start</th><th class=\"finish\">Finish</th>" +
         "<th class=\"days\">Days</th><th class=\"assigned\">Assigned</th>" + time_scale(*project, *columns, options) +
         "</tr></thead>\n<tbody>\n";
  for (std::size_t r = 0; r < rows.size(); ++r) out += story_row(schedule, rows, r, *columns, options);
  out += "</tbody>\n</table>\n";
  if (options.hours != nullptr && !options.hours->weeks.empty())
    out += "<h2>Hours per week</h2>\n" + render_hours_svg(*options.hours);
  out += "<script>" + std::string(kScript) + "</script>\n";
  return out + "</body>\n</html>\n";
}

}  // namespace ptmpl::preview
