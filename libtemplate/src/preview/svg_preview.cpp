// `--format svg`: the chart as a self-contained SVG image (no external references): a title,
// a tick header with grid lines, one row per story (label, bar, float, diamond) and a legend.
#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "libtemplate/core/story_fields.hpp"
#include "preview/day_columns.hpp"
#include "preview/markup_text.hpp"
#include "preview/renderers.hpp"
#include "preview/ticks.hpp"
#include "text/text_width.hpp"

namespace ptmpl::preview {

namespace {

constexpr double kMargin = 16;
constexpr double kLabelWidth = 360;
constexpr double kRowsTop = 72;
constexpr double kRowHeight = 22;
constexpr double kBarHeight = 14;
constexpr double kParentBarHeight = 6;
constexpr double kDiamond = 7;          // half the diagonal of a milestone's diamond
constexpr double kMaxChartWidth = 960;  // the chart shrinks days below this
constexpr double kMaxDayWidth = 24;
constexpr double kLegendHeight = 40;
constexpr double kIndentPerLevel = 14;
constexpr std::size_t kSvgMaxIndentLevels = 8;
constexpr std::size_t kLabelChars = 50;

constexpr std::string_view kWorkColour = "#4e79a7";
constexpr std::string_view kCriticalColour = "#d62728";
constexpr std::string_view kParentColour = "#555555";
constexpr std::string_view kCriticalParentColour = "#8c1c1d";
constexpr std::string_view kFloatColour = "#c9d6e8";
constexpr std::string_view kMilestoneColour = "#333333";
constexpr std::string_view kGridColour = "#e3e3e3";
constexpr std::string_view kLinkColour = "#7a7a7a";
constexpr std::string_view kDayOffColour = "#ececec";
constexpr double kCharWidth = 7;  // a generous width of one character of 11 px text
constexpr double kLabelGap = 2;   // between a tick and its label
constexpr double kLinkStub = 6;   // how far an arrow leaves and enters a bar horizontally
constexpr double kArrowLength = 5;
constexpr double kArrowHalfWidth = 3.5;

// Where working days fall on the x axis: the columns (DayColumns), each day_width() wide.
class Axis {
 public:
  Axis(std::int64_t first, std::int64_t last, const std::optional<Calendar>& calendar)
      : columns_(first, last, calendar),
        day_width_(std::min(kMaxDayWidth, kMaxChartWidth / static_cast<double>(columns_.count()))) {}
  /// Where working day `day` begins.
  [[nodiscard]] double x(std::int64_t day) const { return column_x(columns_.start(day)); }
  /// Where working day `day` ends (on a calendar, before the days off that follow it).
  [[nodiscard]] double after(std::int64_t day) const { return column_x(columns_.after(day)); }
  /// Where an interval [start, finish) ends: after its last day, or at its start when empty.
  [[nodiscard]] double end(std::int64_t start, std::int64_t finish) const {
    return column_x(columns_.end(start, finish));
  }
  /// Where a story's first moment is drawn (DayColumns::first_moment).
  [[nodiscard]] double start_x(const Interval& early) const { return column_x(columns_.first_moment(early)); }
  [[nodiscard]] double day_width() const { return day_width_; }
  [[nodiscard]] double width() const { return static_cast<double>(columns_.count()) * day_width_; }
  [[nodiscard]] const DayColumns& columns() const { return columns_; }
  /// The x of a column boundary.
  [[nodiscard]] double column_x(double column) const { return kMargin + kLabelWidth + column * day_width_; }

 private:
  DayColumns columns_;
  double day_width_;
};

std::string attr(std::string_view name, double value) {
  return " " + std::string(name) + "=\"" + svg_number(value) + "\"";
}

std::string rect(std::string_view css_class, double x, double y, double width, double height, std::string_view fill,
                 const std::string& tooltip = "") {
  std::string out = "<rect class=\"" + std::string(css_class) + "\"" + attr("x", x) + attr("y", y) +
                    attr("width", width) + attr("height", height) + " fill=\"" + std::string(fill) + "\"";
  if (tooltip.empty()) return out + "/>\n";
  return out + "><title>" + markup_escape(tooltip) + "</title></rect>\n";
}

std::string diamond(double cx, double cy, std::string_view fill, const std::string& tooltip) {
  std::string points = svg_number(cx) + "," + svg_number(cy - kDiamond) + " " + svg_number(cx + kDiamond) + "," +
                       svg_number(cy) + " " + svg_number(cx) + "," + svg_number(cy + kDiamond) + " " +
                       svg_number(cx - kDiamond) + "," + svg_number(cy);
  std::string out = "<polygon class=\"milestone\" points=\"" + points + "\" fill=\"" + std::string(fill) + "\"";
  if (tooltip.empty()) return out + "/>\n";
  return out + "><title>" + markup_escape(tooltip) + "</title></polygon>\n";
}

std::string text(double x, double y, std::string_view content, std::string_view extra = "") {
  return "<text" + attr("x", x) + attr("y", y) + (extra.empty() ? "" : " " + std::string(extra)) + ">" +
         markup_escape(content) + "</text>\n";
}

// The ticks: their days and labels, and how far right the last label reaches.
struct Ticks {
  std::vector<std::int64_t> days;
  std::vector<std::string> labels;
  double right = 0;  // where the rightmost label ends
};

Ticks make_ticks(const Schedule& schedule, const Axis& axis, const PreviewOptions& options) {
  const Interval& project = *schedule.project();
  TickLabels labels(options.calendar, project.first_day(), project.due);
  const double min_gap = static_cast<double>(labels.width()) * kCharWidth + 12.0;
  Ticks out;
  // With calendar columns two working days lie at least one column apart.
  out.days = tick_days(project.first_day(), project.due, axis.day_width(), min_gap);
  for (std::int64_t day : out.days) {
    out.labels.push_back(labels(day));
    out.right = std::max(out.right,
                         axis.x(day) + kLabelGap + kCharWidth * static_cast<double>(display_width(out.labels.back())));
  }
  return out;
}

std::string tick_labels(const Ticks& ticks, const Axis& axis, double y) {
  std::string out = "<g class=\"tick-labels\" font-size=\"11\" fill=\"#555555\">\n";
  for (std::size_t i = 0; i < ticks.days.size(); ++i)
    out += text(axis.x(ticks.days[i]) + kLabelGap, y, ticks.labels[i]);
  return out + "</g>\n";
}

std::string tick_lines(const Ticks& ticks, const Axis& axis, double top, double bottom) {
  std::string out = "<g class=\"ticks\">\n";
  for (std::int64_t day : ticks.days) {
    double x = axis.x(day);
    out += "<line class=\"tick\"" + attr("x1", x) + attr("y1", top) + attr("x2", x) + attr("y2", bottom) +
           " stroke=\"" + std::string(kGridColour) + "\"/>\n";
  }
  return out + "</g>\n";
}

// Columns of calendar days that do not work, when a column is wide enough to read as a day.
std::string days_off(const Axis& axis, double top, double bottom) {
  if (axis.day_width() < kMinShadedColumnWidth) return {};
  std::string out;
  for (auto [column, count] : axis.columns().days_off())
    out += rect("day-off", axis.column_x(static_cast<double>(column)), top,
                static_cast<double>(count) * axis.day_width(), bottom - top, kDayOffColour);
  return out.empty() ? out : "<g class=\"days-off\">\n" + out + "</g>\n";
}

// Where a story is drawn: its left and right ends (a diamond's corners for a point).
struct Extent {
  double left = 0;
  double right = 0;
};

Extent extent_of(const ScheduledStory& s, const Axis& axis) {
  const double x = axis.start_x(s.early);
  if (drawn_as_point(s)) return {x - kDiamond, x + kDiamond};
  return {x, x + std::max(1.0, axis.end(s.early.start, s.early.finish) - x)};
}

std::string row_shapes(const Schedule& schedule, const PreviewRow& row, double y, const Axis& axis,
                       const PreviewOptions& options) {
  const ScheduledStory& s = schedule[row.index];
  const Story& story = schedule.graph().story(row.index);
  const double middle = y + kRowHeight / 2;
  const double indent = kIndentPerLevel * static_cast<double>(std::min(row.depth, kSvgMaxIndentLevels));
  std::string label = truncate_to_width(row.outline + " " + display_title(story),
                                        kLabelChars - 2 * std::min(row.depth, kSvgMaxIndentLevels));
  std::string out = text(kMargin + indent, middle + 4, label, story.is_parent() ? "font-weight=\"bold\"" : "");
  std::string tooltip = story_line(schedule, row, options);
  if (drawn_as_point(s))
    return out + diamond(axis.start_x(s.early), middle, s.critical ? kCriticalColour : kMilestoneColour, tooltip);
  const Extent bar = extent_of(s, axis);
  if (story.is_parent()) {
    return out + rect(s.critical ? "parent critical" : "parent", bar.left, middle - kParentBarHeight / 2,
                      bar.right - bar.left, kParentBarHeight, s.critical ? kCriticalParentColour : kParentColour,
                      tooltip);
  }
  if (!s.critical && s.total_float > 0) {
    const double float_x = bar.right;
    const double float_end = axis.end(s.early.start, s.late.finish);
    if (float_end > float_x)
      out += rect("float", float_x, middle - kBarHeight / 2, float_end - float_x, kBarHeight, kFloatColour);
  }
  return out + rect(s.critical ? "bar critical" : "bar", bar.left, middle - kBarHeight / 2, bar.right - bar.left,
                    kBarHeight, s.critical ? kCriticalColour : kWorkColour, tooltip);
}

// One dependency arrow, from the end of the predecessor its type names to the end of the
// successor, in horizontal and vertical segments: out of the predecessor (rightwards from its
// finish, leftwards from its start), into the successor from the side of the end it reaches.
std::string link_arrow(const Link& link, const Extent& from, double from_y, const Extent& to, double to_y,
                       const std::string& tooltip) {
  const LinkEnds& ends = link_ends(*link.type);
  const double x1 = ends.from_finish ? from.right : from.left;
  const double out_dir = ends.from_finish ? 1 : -1;
  const double x2 = ends.to_finish ? to.right : to.left;
  const double in_side = ends.to_finish ? 1 : -1;  // the side the arrow comes in from
  const double b = x2 + in_side * kLinkStub;
  std::vector<std::pair<double, double>> points{{x1, from_y}};
  if (out_dir * (b - x1) >= kLinkStub) {
    // Straight out along the predecessor's row, then down (or up) to the successor's.
    points.insert(points.end(), {{b, from_y}, {b, to_y}});
  } else {
    // Out a step, to the edge of the successor's row, across, and in.
    const double a = x1 + out_dir * kLinkStub;
    const double between = to_y + (to_y > from_y ? -kRowHeight / 2 : kRowHeight / 2);
    points.insert(points.end(), {{a, from_y}, {a, between}, {b, between}, {b, to_y}});
  }
  points.emplace_back(x2, to_y);
  std::string line;
  for (auto [x, y] : points) line += (line.empty() ? "" : " ") + svg_number(x) + "," + svg_number(y);
  const double base = x2 + in_side * kArrowLength;
  std::string head = svg_number(x2) + "," + svg_number(to_y) + " " + svg_number(base) + "," +
                     svg_number(to_y - kArrowHalfWidth) + " " + svg_number(base) + "," +
                     svg_number(to_y + kArrowHalfWidth);
  return "<g class=\"link\"><title>" + markup_escape(tooltip) + "</title><polyline points=\"" + line +
         "\" fill=\"none\"/><polygon points=\"" + head + "\"/></g>\n";
}

// The arrows of the links whose two stories are both shown, drawn beneath the bars.
std::string links(const Schedule& schedule, std::span<const PreviewRow> rows, const Axis& axis, double rows_top) {
  std::vector<std::size_t> row_of(schedule.size(), Schedule::npos);
  for (std::size_t r = 0; r < rows.size(); ++r) row_of[rows[r].index] = r;
  std::string out;
  for (const Link& link : schedule.graph().links()) {
    if (!link.schedulable() || row_of[link.source] == Schedule::npos || row_of[link.target] == Schedule::npos) continue;
    const std::size_t from_row = row_of[link.source];
    const std::size_t to_row = row_of[link.target];
    const LinkEnds& ends = link_ends(*link.type);
    std::string tooltip = rows[from_row].outline + " \u2192 " + rows[to_row].outline + ": " + std::string(ends.name);
    if (link.lag != 0) tooltip += ", lag " + std::to_string(link.lag);
    out += link_arrow(
        link, extent_of(schedule[link.source], axis), rows_top + kRowHeight * (static_cast<double>(from_row) + 0.5),
        extent_of(schedule[link.target], axis), rows_top + kRowHeight * (static_cast<double>(to_row) + 0.5), tooltip);
  }
  if (out.empty()) return out;
  return "<g class=\"links\" stroke=\"" + std::string(kLinkColour) + "\" fill=\"" + std::string(kLinkColour) +
         "\" stroke-width=\"1\">\n" + out + "</g>\n";
}

// The legend along the bottom; `right` is set to where it ends.
std::string legend(double y, bool show_days_off, double& right) {
  double x = kMargin;
  std::string out = "<g class=\"legend\" font-size=\"11\">\n";
  auto entry = [&](const std::string& swatch, std::string_view label) {
    out += swatch + text(x + 18, y + 4, label);
    x += 18 + 7.0 * static_cast<double>(display_width(label)) + 20;
  };
  entry(rect("legend", x, y - 5, 14, 10, kWorkColour), "work");
  entry(rect("legend", x, y - 5, 14, 10, kCriticalColour), "critical");
  entry(rect("legend", x, y - 3, 14, 6, kParentColour), "parent (rolled up)");
  entry(rect("legend", x, y - 5, 14, 10, kFloatColour), "total float");
  entry("<polygon class=\"legend\" points=\"" + svg_number(x + 7) + "," + svg_number(y - 6) + " " + svg_number(x + 13) +
            "," + svg_number(y) + " " + svg_number(x + 7) + "," + svg_number(y + 6) + " " + svg_number(x + 1) + "," +
            svg_number(y) + "\" fill=\"" + std::string(kMilestoneColour) + "\"/>\n",
        "milestone");
  entry("<polyline class=\"legend\" points=\"" + svg_number(x) + "," + svg_number(y) + " " + svg_number(x + 10) + "," +
            svg_number(y) + "\" stroke=\"" + std::string(kLinkColour) +
            "\" fill=\"none\"/><polygon class=\"legend\" points=\"" + svg_number(x + 14) + "," + svg_number(y) + " " +
            svg_number(x + 9) + "," + svg_number(y - 3.5) + " " + svg_number(x + 9) + "," + svg_number(y + 3.5) +
            "\" fill=\"" + std::string(kLinkColour) + "\"/>\n",
        "dependency");
  if (show_days_off) entry(rect("legend", x, y - 5, 14, 10, kDayOffColour), "day off");
  right = x - 20;
  return out + "</g>\n";
}

std::string svg_open(double width, double height) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\"" + attr("width", width) + attr("height", height) +
         " viewBox=\"0 0 " + svg_number(width) + " " + svg_number(height) +
         "\" font-family=\"sans-serif\" font-size=\"12\">\n";
}

std::string chart(const Schedule& schedule, std::span<const PreviewRow> rows, const PreviewOptions& options) {
  const std::string title = chart_title(options);
  const std::string summary = project_summary(schedule, options);
  if (!schedule.project()) {
    return svg_open(400, 60) + "<title>" + markup_escape(title) + "</title>\n" +
           text(kMargin, 24, title, "font-size=\"16\" font-weight=\"bold\"") + text(kMargin, 44, summary) + "</svg>\n";
  }
  const Interval& project = *schedule.project();
  const Axis axis(project.first_day(), project.due, options.calendar);
  const Ticks ticks = make_ticks(schedule, axis, options);
  const double rows_bottom = kRowsTop + kRowHeight * static_cast<double>(rows.size());
  const bool shaded = axis.day_width() >= kMinShadedColumnWidth && !axis.columns().days_off().empty();
  double legend_right = 0;
  const std::string key = legend(rows_bottom + kLegendHeight / 2, shaded, legend_right);
  // Wide enough for the last tick label and the legend as well as the last day.
  const double width = std::max(
      {kMargin * 2 + kLabelWidth + axis.width(), std::ceil(ticks.right) + kMargin, std::ceil(legend_right) + kMargin});
  const double height = rows_bottom + kLegendHeight;
  std::string body = svg_open(width, height);
  body += "<title>" + markup_escape(title) + "</title>\n";
  body += rect("background", 0, 0, width, height, "#ffffff");
  body += text(kMargin, 24, title, "font-size=\"16\" font-weight=\"bold\"");
  body += text(kMargin, 44, summary, "fill=\"#555555\"");
  for (std::size_t r = 1; r < rows.size(); r += 2)
    body += rect("stripe", kMargin, kRowsTop + kRowHeight * static_cast<double>(r), width - 2 * kMargin, kRowHeight,
                 "#f6f6f6");
  body += days_off(axis, kRowsTop, rows_bottom);
  body += tick_lines(ticks, axis, kRowsTop - 6, rows_bottom);
  body += tick_labels(ticks, axis, kRowsTop - 10);
  body += links(schedule, rows, axis, kRowsTop);
  body += "<g class=\"rows\">\n";
  for (std::size_t r = 0; r < rows.size(); ++r)
    body += row_shapes(schedule, rows[r], kRowsTop + kRowHeight * static_cast<double>(r), axis, options);
  body += "</g>\n";
  body += key;
  body += "</svg>\n";
  return body;
}

}  // namespace

std::string render_svg(const Schedule& schedule, std::span<const PreviewRow> rows, const PreviewOptions& options) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + chart(schedule, rows, options);
}

}  // namespace ptmpl::preview
