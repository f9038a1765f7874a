// `--format csv`: a header row, then one record per story shown, CRLF line breaks, each cell
// written by detail::append_csv_cell (RFC 4180 quoting, the spreadsheet guard).
#include <array>

#include "libtemplate/core/story_fields.hpp"
#include "output/csv_cell.hpp"
#include "preview/renderers.hpp"

namespace ptmpl::preview {

namespace {

constexpr std::array<std::string_view, 13> kHeader = {
    "outline",     "temp_id",   "title",      "story_type", "start",       "due",     "duration",
    "early_start", "early_due", "late_start", "late_due",   "total_float", "critical"};

// The outline, temp_id, title and type are text (guarded against formula injection, docs/semantics.md §11);
// the rest are numbers, dates and true/false.
constexpr std::array<detail::CsvCell, 13> kKind = {
    detail::CsvCell::Text,   detail::CsvCell::Text,   detail::CsvCell::Text,   detail::CsvCell::Text,
    detail::CsvCell::Number, detail::CsvCell::Number, detail::CsvCell::Number, detail::CsvCell::Number,
    detail::CsvCell::Number, detail::CsvCell::Number, detail::CsvCell::Number, detail::CsvCell::Number,
    detail::CsvCell::Number};

void append_record(std::string& out, std::span<const std::string> fields) {
  for (std::size_t f = 0; f < fields.size(); ++f) {
    if (f > 0) out += ',';
    detail::append_csv_cell(out, fields[f], kKind[f]);
  }
  out += "\r\n";
}

}  // namespace

std::string render_csv(const Schedule& schedule, std::span<const PreviewRow> rows, const PreviewOptions& options) {
  std::string out;
  std::vector<std::string> fields(kHeader.begin(), kHeader.end());
  append_record(out, fields);
  const std::optional<Calendar>& calendar = options.calendar;
  for (const PreviewRow& row : rows) {
    const Story& story = schedule.graph().story(row.index);
    const ScheduledStory& s = schedule[row.index];
    fields = {row.outline,
              temp_id_text(story),
              std::string(story.title.value_or("")),
              std::string(to_string(story.effective_type())),
              day_text(s.early.first_day(), calendar),
              day_text(s.early.due, calendar),
              std::to_string(scheduled_duration(schedule, row.index)),
              day_text(s.early.first_day(), calendar),
              day_text(s.early.due, calendar),
              day_text(s.late.first_day(), calendar),
              day_text(s.late.due, calendar),
              std::to_string(s.total_float),
              s.critical ? "true" : "false"};
    append_record(out, fields);
  }
  return out;
}

}  // namespace ptmpl::preview
