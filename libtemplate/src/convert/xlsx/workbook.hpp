// An `.xlsx` workbook read (ECMA-376 SpreadsheetML): its sheets by name, its date system, its
// shared strings and which cell styles are dates, and a sheet's rows of cells. Values only:
// formulas count by the values their writer cached, formatting is not read. Private to the
// converters.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "convert/plan/plan.hpp"
#include "convert/xlsx/zip_archive.hpp"
#include "libtemplate/core/result.hpp"

namespace ptmpl::detail::xlsx {

/// The date and time of the serial number `serial` in a workbook's date system: 1900 (serial 1
/// is 1900-01-01; serial 60 is 1900-02-29, a day that never was, kept for Lotus 1-2-3) or 1904
/// (serial 0 is 1904-01-01); the fraction is the time of day. nullopt for serial 60, for a
/// serial before the system's first day or after 9999-12-31.
[[nodiscard]] std::optional<plan::DateTime> date_of_serial(double serial, bool date1904);

/// Whether a number format shows a date or a time: a built-in id (14–22, 45–47; 27–36 and 50–58
/// in East Asian locales) or a format code whose first section has y, m, d, h or s outside
/// quotes, escapes and brackets (`[h]` and the other elapsed times are durations, not dates).
[[nodiscard]] bool is_date_format(std::int64_t id, std::string_view code);

struct Cell {
  enum class Kind : std::uint8_t { Number, Text, Boolean };
  std::size_t column = 0;  ///< 0 for A
  Kind kind = Kind::Text;
  double number = 0;  ///< Number; Boolean: 0 or 1
  std::string text;   ///< Text
  bool date = false;  ///< a Number in a date or time style
};

/// A cell as text: a number in its shortest form (`3`, not `3.0`), a date cell `yyyy-mm-dd`, a
/// boolean TRUE or FALSE.
[[nodiscard]] std::string cell_text(const Cell& cell, bool date1904);

struct Row {
  std::size_t number = 0;    ///< 1 at the top
  std::int64_t outline = 0;  ///< its outline level (0: not grouped)
  bool hidden = false;
  std::vector<Cell> cells;  ///< by column, without empty cells

  /// The cell in `column`, or nullptr for an empty one.
  [[nodiscard]] const Cell* at(std::size_t column) const;
};

/// A cell that cannot be read (an error value, a shared string that does not exist, a formula
/// with no cached value, a number that is not one): left out of its row.
struct CellProblem {
  std::size_t row = 0;
  std::size_t column = 0;
  std::string message;  ///< "holds the error #N/A", without the cell's reference
};

struct Sheet {
  std::string name;
  std::vector<Row> rows;  ///< in the order written, empty rows left out unless grouped
  std::vector<CellProblem> problems;
};

class Workbook;

/// A sheet's rows read one at a time from its part, which it holds as text: nothing else of
/// the sheet is kept, so a sheet of a million rows takes its part's size. Reads from the
/// workbook that made it, which must outlive it.
class SheetRows {
 public:
  SheetRows(SheetRows&&) noexcept;
  SheetRows& operator=(SheetRows&&) noexcept;
  ~SheetRows();

  /// The next row that has a cell or is grouped, into `row` (its cells' buffers are reused);
  /// false after the last. Fails (kInvalid) where the part is not well-formed XML, or a row or
  /// cell reference is beyond a sheet's 1,048,576 rows and 16,384 columns.
  [[nodiscard]] Result<bool> next(Row& row);
  /// The cells that could not be read in the rows read since the last call.
  [[nodiscard]] std::vector<CellProblem> take_problems();
  /// Appends the next rows, and their problems, to `sheet`: up to and including the first
  /// numbered past `last` (every row by default). Fails as next() does.
  [[nodiscard]] Status read_into(Sheet& sheet, std::size_t last = SIZE_MAX);

 private:
  friend class Workbook;
  struct State;
  explicit SheetRows(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

class Workbook {
 public:
  /// The workbook in `bytes` (which must outlive it), named `path` in messages. Fails (kInvalid)
  /// when the bytes are not a zip archive, or its workbook part, relationships, shared strings or
  /// styles are missing where named, or are not well-formed XML.
  [[nodiscard]] static Result<Workbook> open(std::string_view bytes, const std::string& path);

  /// The sheets' names, in the workbook's order.
  [[nodiscard]] const std::vector<std::string>& sheet_names() const { return names_; }
  [[nodiscard]] bool date1904() const { return date1904_; }

  /// The rows of the sheet `index` (of sheet_names()), one at a time. Fails (kInvalid) when its
  /// part is missing, too large, or not in an encoding XML allows.
  [[nodiscard]] Result<SheetRows> rows(std::size_t index) const;
  /// The sheet `index` whole: its rows, and its problems. Fails as rows() and SheetRows::next.
  [[nodiscard]] Result<Sheet> sheet(std::size_t index) const;

  /// `path (sheet NAME, cell B17)`.
  [[nodiscard]] std::string place(std::string_view sheet, std::size_t row, std::size_t column) const;
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  friend class SheetRows;
  Workbook(ZipArchive zip, std::string path) : zip_(std::move(zip)), path_(std::move(path)) {}
  Status read_parts();
  Status read_shared_strings(const std::string& part);

  ZipArchive zip_;
  std::string path_;
  std::vector<std::string> names_;
  std::vector<std::string> parts_;  ///< each sheet's part name
  std::vector<std::string> strings_;
  std::vector<bool> date_styles_;  ///< by cell style index
  bool date1904_ = false;
};

}  // namespace ptmpl::detail::xlsx
