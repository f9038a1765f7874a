// The terminal Gantt chart: a label column (outline and title, indented by level), then one
// character cell per column of time, with a tick header and a legend.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "libtemplate/core/story_fields.hpp"
#include "preview/renderers.hpp"
#include "preview/ticks.hpp"
#include "text/text_width.hpp"

namespace ptmpl::preview {

namespace {

constexpr std::size_t kMinWidth = 40;
constexpr std::size_t kMinLabelWidth = 12;
constexpr std::size_t kMaxLabelWidth = 60;
constexpr std::size_t kMaxIndentLevels = 8;  // deeper levels still show in the outline number
// "! " marker column before the label, " " between the label and the chart's left rule.
constexpr std::size_t kMarkerWidth = 2;

enum class Cell : std::uint8_t { Empty, Work, Parent, Float, Point };

struct Styled {
  Cell cell = Cell::Empty;
  bool critical = false;
};

std::string_view glyph(Cell cell) {
  switch (cell) {
    case Cell::Empty:
      return " ";
    case Cell::Work:
      return "█";
    case Cell::Parent:
      return "━";
    case Cell::Float:
      return "░";
    case Cell::Point:
      return "◆";
  }
  return " ";
}

// ANSI SGR sequences (ECMA-48).
constexpr std::string_view kRed = "\033[31m";
constexpr std::string_view kBoldRed = "\033[1;31m";
constexpr std::string_view kDim = "\033[2m";
constexpr std::string_view kReset = "\033[0m";

std::string_view colour_of(const Styled& s) {
  if (s.cell == Cell::Empty) return {};
  if (s.cell == Cell::Float) return kDim;
  return s.critical ? kRed : std::string_view{};
}

// Maps working days to columns of the chart: whole columns per day when the project fits,
// else days share columns (a column covers days / columns days). Day differences are taken
// unsigned: a span between dates near ±2^62 does not fit int64.
class Scale {
 public:
  Scale(std::int64_t first_day, std::int64_t last_day, std::size_t columns)
      : first_(first_day), days_(since_first(last_day) + 1), columns_(columns) {
    if (days_ <= columns_) per_day_ = columns_ / days_;
  }

  /// The column where day boundary `day` falls (0 at the first day, used() at the end).
  [[nodiscard]] std::size_t column(std::int64_t day) const {
    if (day <= first_) return 0;
    std::uint64_t offset = since_first(day);
    if (offset >= days_) return used();
    if (per_day_ > 0) return offset * per_day_;
    long double share = static_cast<long double>(offset) / static_cast<long double>(days_);
    return std::min(used(), static_cast<std::size_t>(std::floor(share * static_cast<long double>(columns_))));
  }
  /// Columns the whole project takes.
  [[nodiscard]] std::size_t used() const { return per_day_ > 0 ? per_day_ * days_ : columns_; }
  [[nodiscard]] double columns_per_day() const {
    return per_day_ > 0 ? static_cast<double>(per_day_) : static_cast<double>(columns_) / static_cast<double>(days_);
  }

 private:
  [[nodiscard]] std::uint64_t since_first(std::int64_t day) const {
    return static_cast<std::uint64_t>(day) - static_cast<std::uint64_t>(first_);
  }

  std::int64_t first_;
  std::uint64_t days_;
  std::size_t columns_;
  std::size_t per_day_ = 0;
};

std::string label_of(const Schedule& schedule, const PreviewRow& row) {
  std::string label(2 * std::min(row.depth, kMaxIndentLevels), ' ');
  return label + row.outline + " " + display_title(schedule.graph().story(row.index));
}

void fill(std::vector<Styled>& cells, std::size_t from, std::size_t to, Styled style) {
  for (std::size_t c = from; c < to && c < cells.size(); ++c) cells[c] = style;
}

std::vector<Styled> bar_cells(const Schedule& schedule, const PreviewRow& row, const Scale& scale) {
  const ScheduledStory& s = schedule[row.index];
  std::vector<Styled> cells(scale.used());
  const bool parent = schedule.graph().story(row.index).is_parent();
  std::size_t from = scale.column(s.early.first_day());
  if (drawn_as_point(s)) {
    cells[std::min(from, cells.size() - 1)] = {Cell::Point, s.critical};
    return cells;
  }
  std::size_t to = std::max(scale.column(s.early.finish), from + 1);  // never invisible
  if (!parent && s.total_float > 0) fill(cells, to, scale.column(s.late.finish), {Cell::Float, false});
  fill(cells, from, to, {parent ? Cell::Parent : Cell::Work, s.critical});
  return cells;
}

// The cells as text, trailing blanks dropped, colour runs wrapped in SGR sequences.
std::string draw(const std::vector<Styled>& cells, bool colour) {
  std::size_t end = cells.size();
  while (end > 0 && cells[end - 1].cell == Cell::Empty) --end;
  std::string out;
  std::string_view open;
  for (std::size_t c = 0; c < end; ++c) {
    std::string_view want = colour ? colour_of(cells[c]) : std::string_view{};
    if (want != open) {
      if (!open.empty()) out += kReset;
      out += want;
      open = want;
    }
    out += glyph(cells[c].cell);
  }
  if (!open.empty()) out += kReset;
  return out;
}

// The tick labels line and the axis line under it.
// Labels may run past the project's last column up to `columns`, the chart's whole width.
std::string header(const Schedule& schedule, const Scale& scale, std::size_t indent, std::size_t columns,
                   const PreviewOptions& options) {
  const Interval& project = *schedule.project();
  TickLabels labels(options.calendar, project.first_day(), project.due);
  std::vector<std::int64_t> ticks =
      tick_days(project.first_day(), project.due, scale.columns_per_day(), static_cast<double>(labels.width() + 1));
  std::string text(indent, ' ');
  std::string axis(indent - 1, ' ');
  axis += "┌";
  std::vector<bool> tick_at(scale.used() + 1, false);
  std::size_t used = 0;  // columns of the labels line written so far
  for (std::int64_t day : ticks) {
    std::size_t column = scale.column(day);
    std::string label = labels(day);
    tick_at[column] = true;
    if (column < used || column + label.size() > columns) continue;  // would collide or not fit
    text.append(column - used, ' ');
    text += label;
    used = column + label.size();
  }
  for (std::size_t c = 0; c < scale.used(); ++c) axis += tick_at[c] ? "┬" : "─";
  return text + "\n" + axis + "\n";
}

std::string legend(const Scale& scale, const PreviewOptions& options) {
  std::string out = "█ work  ━ parent  ░ float  ◆ milestone  ! critical";
  if (options.color) out += " (red)";
  char scale_text[64];
  double per_day = scale.columns_per_day();
  if (per_day >= 1.0 && std::floor(per_day) == per_day) {
    std::snprintf(scale_text, sizeof scale_text, "   1 working day = %.0f column%s", per_day,
                  per_day == 1.0 ? "" : "s");
  } else {
    std::snprintf(scale_text, sizeof scale_text, "   1 column = %.1f working days", 1.0 / per_day);
  }
  out += scale_text;
  if (options.calendar) {
    out += " (";
    out += options.calendar->week().describe();
    std::size_t holidays = options.calendar->holidays().size();
    if (holidays > 0) out += ", " + std::to_string(holidays) + (holidays == 1 ? " holiday" : " holidays");
    out += ")";
  }
  return out + "\n";
}

}  // namespace

std::string render_gantt(const Schedule& schedule, std::span<const PreviewRow> rows, const PreviewOptions& options) {
  std::string out = chart_title(options) + ": " + project_summary(schedule, options) + "\n";
  if (!schedule.project()) return out;
  const std::size_t width = std::max(options.width, kMinWidth);
  std::vector<std::string> labels;
  std::size_t widest = 0;
  for (const PreviewRow& row : rows) {
    labels.push_back(label_of(schedule, row));
    widest = std::max(widest, display_width(labels.back()));
  }
  const std::size_t label_width = std::clamp(widest, kMinLabelWidth, std::min(kMaxLabelWidth, width * 2 / 5));
  const std::size_t indent = kMarkerWidth + label_width + 2;  // label, a space, the left rule
  const Interval& project = *schedule.project();
  Scale scale(project.first_day(), project.due, width - indent);
  out += header(schedule, scale, indent, width - indent, options);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const bool critical = schedule[rows[r].index].critical;
    std::string marker = critical ? "!" : " ";
    if (critical && options.color) marker = std::string(kBoldRed) + "!" + std::string(kReset);
    out += marker + " " + pad_right(truncate_to_width(labels[r], label_width), label_width) + " │";
    out += draw(bar_cells(schedule, rows[r], scale), options.color) + "\n";
  }
  return out + legend(scale, options);
}

}  // namespace ptmpl::preview
