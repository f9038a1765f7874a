// A template as the table the CSV and workbook exports write (docs/commands/convert.md): one row
// per story in tree order, the columns of csv_columns.hpp's kExportColumns, each cell typed, and
// the findings on what the table has no column for. Private to the converters.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "convert/csv_columns.hpp"
#include "convert/findings.hpp"
#include "libtemplate/core/calendar.hpp"
#include "libtemplate/core/model.hpp"
#include "libtemplate/core/template_file.hpp"

namespace ptmpl::detail {

/// How an export names what its table cannot hold: the finding ids, and what the format holds.
struct TableFormat {
  std::string_view dropped_field;    ///< a story key without a column, or of the wrong type
  std::string_view dropped_link;     ///< a dependency without both ends, or invalid
  std::string_view dropped_story;    ///< a story-list item that is not a story
  std::string_view template_fields;  ///< the template's own keys
  std::string_view holds;            ///< "a CSV holds the stories only"
  bool keeps_assignments_and_calendar = false;
};
inline constexpr TableFormat kCsvTable{"csv-dropped-field",
                                       "csv-dropped-link",
                                       "csv-dropped-story",
                                       "csv-template-fields",
                                       "a CSV holds the stories only",
                                       false};
inline constexpr TableFormat kWorkbookTable{"xlsx-export-dropped-field",
                                            "xlsx-export-dropped-link",
                                            "xlsx-export-dropped-story",
                                            "xlsx-export-template-fields",
                                            "a workbook holds the stories, assignments and calendar",
                                            true};

/// One cell of a row, typed: what a CSV writes as text and a workbook as a number or date.
struct TableCell {
  enum class Kind : std::uint8_t { Empty, Text, Number, Cents, Date };
  Kind kind = Kind::Empty;
  std::string_view text;    ///< Text
  std::int64_t number = 0;  ///< Number; Cents: an amount in cents (`budget`)
  Date date{};              ///< Date
};

/// A story's row: the story, its level (1 at the top) and its predecessors (`3FS+2;4SS`).
struct TableRow {
  const Story& story;
  std::size_t level;
  std::string temp_id;
  std::string_view predecessors;
};

/// The table of the one template of `file` (precondition: it holds one, with a story list).
class StoryTable {
 public:
  /// Dates count from the calendar block, with `start` overriding its start; without a start
  /// the table has no date columns. Findings go to a sink with `options`.
  StoryTable(const TemplateFile& file, const TableFormat& format, const ConvertOptions& options,
             std::optional<Date> start = std::nullopt);

  /// The columns written, in order (kExportColumns; the dates only with a calendar start).
  [[nodiscard]] const std::vector<csv::Column>& columns() const { return columns_; }
  /// The calendar the date columns count on, if they are written.
  [[nodiscard]] const std::optional<Calendar>& calendar() const { return calendar_; }
  [[nodiscard]] const TemplateFile& file() const { return file_; }
  [[nodiscard]] const TemplateSource& source() const { return source_; }

  /// Calls `visit(row)` for every story in tree order, reporting what its row has no column for;
  /// reports the template's own fields and the items that are not stories first. Once.
  void for_each_row(const std::function<void(const TableRow&)>& visit);

  /// The cell of `row` in `column`. A date beyond the years 1 to 9999 is Empty.
  [[nodiscard]] TableCell cell(const TableRow& row, csv::Column column) const;

  /// `story 4 "Design"`: a story as findings name it.
  [[nodiscard]] static std::string story_name(const Story& story);

  /// A finding of rule `id` at `at`, a value of the file.
  void report(std::string_view id, const json::Value& at, std::string message, std::vector<std::string> topics = {});
  /// Where a value of the story tree is in the file: inside a raw_json string, the string.
  [[nodiscard]] const json::Value& in_file(const json::Value& value) const;
  /// The findings, sorted; the table reports no more.
  [[nodiscard]] std::vector<Diagnostic> take_findings() { return findings_.take(); }

 private:
  void collect_links();
  void report_template_fields();
  void report_story_fields(const Story& story);

  const TemplateFile& file_;
  const TemplateSource& source_;
  const TableFormat& format_;
  FindingSink findings_;
  std::optional<Calendar> calendar_;
  std::vector<csv::Column> columns_;
  std::map<std::string, std::string> predecessors_;  // by the target's temp_id
};

/// Refuses a file export_csv and export_xlsx cannot write as one table: unreadable, several
/// templates or none, or a raw_json that is not a story list. `format` names the output ("CSV
/// file").
[[nodiscard]] std::optional<Error> untabulable(const TemplateFile& file, std::string_view format);

}  // namespace ptmpl::detail
