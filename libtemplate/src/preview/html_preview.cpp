// `--format html`: one self-contained page — the SVG chart inline and the table — that fetches
// nothing (no scripts, fonts, stylesheets or images; a Content-Security-Policy forbids it).
#include <array>

#include "libtemplate/core/story_fields.hpp"
#include "preview/markup_text.hpp"
#include "preview/renderers.hpp"

namespace ptmpl::preview {

namespace {

constexpr std::string_view kStyle = R"(body { font-family: sans-serif; margin: 24px; color: #222222; }
h1 { font-size: 20px; margin: 0 0 4px 0; }
p.summary { color: #555555; margin: 0 0 16px 0; }
div.chart { margin-bottom: 24px; }
div.chart svg { display: block; }
div.chart-header { position: sticky; top: 0; z-index: 1; }
table { border-collapse: collapse; font-size: 13px; }
th, td { padding: 3px 10px; border-bottom: 1px solid #e3e3e3; text-align: left; white-space: nowrap; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
tr.critical td { color: #b01e1f; }
)";

constexpr std::array<std::string_view, 8> kHeadings = {"Outline", "temp_id",  "Title", "Start",
                                                       "Due",     "Duration", "Float", "Critical"};

std::string cell(std::string_view content, bool number = false) {
  return std::string(number ? "<td class=\"number\">" : "<td>") + markup_escape(content) + "</td>";
}

std::string table(const Schedule& schedule, std::span<const PreviewRow> rows, const PreviewOptions& options) {
  std::string out = "<table>\n<thead><tr>";
  for (std::string_view heading : kHeadings) out += "<th>" + std::string(heading) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (const PreviewRow& row : rows) {
    const Story& story = schedule.graph().story(row.index);
    const ScheduledStory& s = schedule[row.index];
    out += s.critical ? "<tr class=\"critical\">" : "<tr>";
    std::string indent;
    for (std::size_t level = 0; level < row.depth && level < 8; ++level) indent += "\u00A0\u00A0\u00A0";
    out += cell(row.outline) + cell(temp_id_text(story)) + cell(indent + display_title(story)) +
           cell(day_text(s.early.first_day(), options.calendar), true) +
           cell(day_text(s.early.due, options.calendar), true) +
           cell(std::to_string(scheduled_duration(schedule, row.index)), true) +
           cell(std::to_string(s.total_float), true) + cell(s.critical ? "yes" : "no");
    out += "</tr>\n";
  }
  return out + "</tbody>\n</table>\n";
}

}  // namespace

std::string render_html(const Schedule& schedule, std::span<const PreviewRow> rows, const PreviewOptions& options) {
  const std::string title = markup_escape(chart_title(options));
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
      title + "</title>\n<style>\n" + std::string(kStyle) + "</style>\n</head>\n<body>\n";
  out += "<h1>" + title + "</h1>\n<p class=\"summary\">" + markup_escape(project_summary(schedule, options)) + "</p>\n";
  out += render_chart_for_page(schedule, rows, options);
  out += table(schedule, rows, options);
  return out + "</body>\n</html>\n";
}

}  // namespace ptmpl::preview
