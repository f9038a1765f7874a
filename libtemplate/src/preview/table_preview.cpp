// The table: one aligned line per story shown (outline, temp_id, title, start, due, duration,
// total float, critical), dates as working-day offsets or, with a calendar, YYYY-MM-DD.
#include <algorithm>
#include <array>

#include "libtemplate/core/story_fields.hpp"
#include "preview/renderers.hpp"
#include "text/text_width.hpp"

namespace ptmpl::preview {

namespace {

constexpr std::size_t kTableMaxIndentLevels = 8;
constexpr std::size_t kColumns = 8;
constexpr std::array<std::string_view, kColumns> kTableHeadings = {"outline", "temp_id",  "title", "start",
                                                                   "due",     "duration", "float", "critical"};
// Numbers (and dates) are right-aligned; text is left-aligned.
constexpr std::array<bool, kColumns> kRightAligned = {false, false, false, true, true, true, true, false};

using Line = std::array<std::string, kColumns>;

Line line_of(const Schedule& schedule, const PreviewRow& row, const PreviewOptions& options) {
  const Story& story = schedule.graph().story(row.index);
  const ScheduledStory& s = schedule[row.index];
  std::string title(2 * std::min(row.depth, kTableMaxIndentLevels), ' ');
  title += display_title(story);
  return {row.outline,
          one_line(temp_id_text(story)),
          std::move(title),
          day_text(s.early.first_day(), options.calendar),
          day_text(s.early.due, options.calendar),
          std::to_string(scheduled_duration(schedule, row.index)),
          std::to_string(s.total_float),
          s.critical ? "yes" : "no"};
}

}  // namespace

std::string render_table(const Schedule& schedule, std::span<const PreviewRow> rows, const PreviewOptions& options) {
  std::vector<Line> lines;
  lines.reserve(rows.size() + 1);
  Line heading;
  std::copy(kTableHeadings.begin(), kTableHeadings.end(), heading.begin());
  lines.push_back(heading);
  for (const PreviewRow& row : rows) lines.push_back(line_of(schedule, row, options));
  std::array<std::size_t, kColumns> width{};
  for (const Line& line : lines)
    for (std::size_t c = 0; c < kColumns; ++c) width[c] = std::max(width[c], display_width(line[c]));
  std::string out;
  for (std::size_t l = 0; l < lines.size(); ++l) {
    for (std::size_t c = 0; c + 1 < kColumns; ++c) {
      out += kRightAligned[c] ? pad_left(lines[l][c], width[c]) : pad_right(lines[l][c], width[c]);
      out += "  ";
    }
    const bool critical_cell = l > 0 && options.color && schedule[rows[l - 1].index].critical;
    out += critical_cell ? "\033[31m" + lines[l].back() + "\033[0m" : lines[l].back();
    out += '\n';
  }
  return out;
}

}  // namespace ptmpl::preview
