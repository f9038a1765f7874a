// `--format svg`: the chart as a self-contained SVG image (no external references): a title,
// a tick header with grid lines, one row per story (label, bar, float, diamond) and a legend.
#include <algorithm>

#include "preview/markup_text.hpp"
#include "preview/renderers.hpp"
#include "preview/story_fields.hpp"
#include "preview/text_width.hpp"
#include "preview/ticks.hpp"

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
constexpr std::size_t kMaxIndentLevels = 8;
constexpr std::size_t kLabelChars = 50;

constexpr std::string_view kWorkColour = "#4e79a7";
constexpr std::string_view kCriticalColour = "#d62728";
constexpr std::string_view kParentColour = "#555555";
constexpr std::string_view kCriticalParentColour = "#8c1c1d";
constexpr std::string_view kFloatColour = "#c9d6e8";
constexpr std::string_view kMilestoneColour = "#333333";
constexpr std::string_view kGridColour = "#e3e3e3";

// Where working days fall on the x axis.
class Axis {
 public:
  Axis(std::int64_t first, std::int64_t last)
      : first_(first), days_(static_cast<std::uint64_t>(last) - static_cast<std::uint64_t>(first) + 1) {
    day_width_ = std::min(kMaxDayWidth, kMaxChartWidth / static_cast<double>(days_));
  }
  [[nodiscard]] double x(std::int64_t day) const {
    if (day <= first_) return kMargin + kLabelWidth;
    auto offset = static_cast<double>(static_cast<std::uint64_t>(day) - static_cast<std::uint64_t>(first_));
    return kMargin + kLabelWidth + std::min(offset, static_cast<double>(days_)) * day_width_;
  }
  [[nodiscard]] double day_width() const { return day_width_; }
  [[nodiscard]] double width() const { return static_cast<double>(days_) * day_width_; }

 private:
  std::int64_t first_;
  std::uint64_t days_;
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

std::string tooltip_of(const Schedule& schedule, const PreviewRow& row, const PreviewOptions& options) {
  const ScheduledStory& s = schedule[row.index];
  auto day = [&](std::int64_t offset) {
    return options.calendar ? day_text(offset, options.calendar) : "day " + std::to_string(offset);
  };
  std::string out = row.outline + " " + display_title(schedule.graph().story(row.index)) + ": ";
  if (drawn_as_point(s)) {
    out += day(s.early.start) + ", milestone";
  } else {
    const std::int64_t days = s.early.length();
    out += day(s.early.start) + " to " + day(s.early.due) + ", " + std::to_string(days) +
           (days == 1 ? " working day" : " working days");
  }
  out += ", total float " + std::to_string(s.total_float);
  return s.critical ? out + ", critical" : out;
}

std::string ticks(const Schedule& schedule, const Axis& axis, double bottom, const PreviewOptions& options) {
  const Interval& project = *schedule.project();
  TickLabels labels(options.calendar, project.start, project.due);
  const double min_gap = static_cast<double>(labels.width()) * 7.0 + 12.0;
  std::string out = "<g class=\"ticks\" font-size=\"11\" fill=\"#555555\">\n";
  for (std::int64_t day : tick_days(project.start, project.due, axis.day_width(), min_gap)) {
    double x = axis.x(day);
    out += "<line class=\"tick\"" + attr("x1", x) + attr("y1", kRowsTop - 6) + attr("x2", x) + attr("y2", bottom) +
           " stroke=\"" + std::string(kGridColour) + "\"/>\n";
    out += text(x + 2, kRowsTop - 10, labels(day));
  }
  return out + "</g>\n";
}

std::string row_shapes(const Schedule& schedule, const PreviewRow& row, double y, const Axis& axis,
                       const PreviewOptions& options) {
  const ScheduledStory& s = schedule[row.index];
  const Story& story = schedule.graph().story(row.index);
  const double middle = y + kRowHeight / 2;
  const double indent = kIndentPerLevel * static_cast<double>(std::min(row.depth, kMaxIndentLevels));
  std::string label = truncate_to_width(row.outline + " " + display_title(story),
                                        kLabelChars - 2 * std::min(row.depth, kMaxIndentLevels));
  std::string out = text(kMargin + indent, middle + 4, label, story.is_parent() ? "font-weight=\"bold\"" : "");
  std::string tooltip = tooltip_of(schedule, row, options);
  if (drawn_as_point(s))
    return out + diamond(axis.x(s.early.start), middle, s.critical ? kCriticalColour : kMilestoneColour, tooltip);
  const double x = axis.x(s.early.start);
  const double width = std::max(1.0, axis.x(s.early.finish) - x);
  if (story.is_parent()) {
    return out + rect(s.critical ? "parent critical" : "parent", x, middle - kParentBarHeight / 2, width,
                      kParentBarHeight, s.critical ? kCriticalParentColour : kParentColour, tooltip);
  }
  if (!s.critical && s.total_float > 0) {
    const double float_x = axis.x(s.early.finish);
    out += rect("float", float_x, middle - kBarHeight / 2, axis.x(s.late.finish) - float_x, kBarHeight, kFloatColour);
  }
  return out + rect(s.critical ? "bar critical" : "bar", x, middle - kBarHeight / 2, width, kBarHeight,
                    s.critical ? kCriticalColour : kWorkColour, tooltip);
}

std::string legend(double y) {
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
  return out + "</g>\n";
}

}  // namespace

std::string render_svg_element(const Schedule& schedule, std::span<const PreviewRow> rows,
                               const PreviewOptions& options) {
  const std::string title = chart_title(options);
  const std::string summary = project_summary(schedule, options);
  if (!schedule.project()) {
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"400\" height=\"60\" viewBox=\"0 0 400 60\" "
           "font-family=\"sans-serif\" font-size=\"12\">\n<title>" +
           markup_escape(title) + "</title>\n" + text(kMargin, 24, title, "font-size=\"16\" font-weight=\"bold\"") +
           text(kMargin, 44, summary) + "</svg>\n";
  }
  const Interval& project = *schedule.project();
  Axis axis(project.start, project.due);
  const double rows_bottom = kRowsTop + kRowHeight * static_cast<double>(rows.size());
  const double width = kMargin * 2 + kLabelWidth + axis.width();
  const double height = rows_bottom + kLegendHeight;
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\"" + attr("width", width) + attr("height", height) +
                    " viewBox=\"0 0 " + svg_number(width) + " " + svg_number(height) +
                    "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  out += "<title>" + markup_escape(title) + "</title>\n";
  out += rect("background", 0, 0, width, height, "#ffffff");
  out += text(kMargin, 24, title, "font-size=\"16\" font-weight=\"bold\"");
  out += text(kMargin, 44, summary, "fill=\"#555555\"");
  for (std::size_t r = 1; r < rows.size(); r += 2)
    out += rect("stripe", kMargin, kRowsTop + kRowHeight * static_cast<double>(r), width - 2 * kMargin, kRowHeight,
                "#f6f6f6");
  out += ticks(schedule, axis, rows_bottom, options);
  out += "<g class=\"rows\">\n";
  for (std::size_t r = 0; r < rows.size(); ++r)
    out += row_shapes(schedule, rows[r], kRowsTop + kRowHeight * static_cast<double>(r), axis, options);
  out += "</g>\n";
  out += legend(rows_bottom + kLegendHeight / 2);
  return out + "</svg>\n";
}

std::string render_svg(const Schedule& schedule, std::span<const PreviewRow> rows, const PreviewOptions& options) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + render_svg_element(schedule, rows, options);
}

}  // namespace ptmpl::preview
