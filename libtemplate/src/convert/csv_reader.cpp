// CSV → template (docs/semantics.md §7). RFC 4180: quoted cells may hold commas, quotes ("" inside quotes)
// and line breaks; records end in CRLF, LF or CR; a UTF-8 byte order mark is skipped. Rows are
// numbered as a spreadsheet shows them: the header is row 1, whatever line breaks the cells hold.
#include <algorithm>
#include <array>
#include <cctype>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>

#include "convert/csv.hpp"
#include "convert/csv_columns.hpp"
#include "convert/csv_records.hpp"
#include "convert/findings.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/diagnostic.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/model.hpp"
#include "libtemplate/core/rollup.hpp"
#include "libtemplate/core/story_writer.hpp"
#include "libtemplate/core/template_file.hpp"
#include "output/csv_cell.hpp"

namespace ptmpl {

namespace {

using namespace detail::csv;

// ---------------------------------------------------------------------------------------------
// Reading records (RFC 4180).

class RecordReader : public RecordSource {
 public:
  RecordReader(std::string_view text, const std::string& path, const detail::CsvLayout& layout)
      : text_(text), path_(path), separator_(layout.separator), at_(layout.header_at) {}

  /// The next record into `out`; false at the end of the text. Fails on a quote out of place.
  Result<bool> next(Record& out, const std::vector<std::string>& header) override;
  [[nodiscard]] std::string where(std::size_t row, std::optional<std::size_t>, std::string_view column) const override {
    return path_ + ":row " + std::to_string(row) + (column.empty() ? "" : ", column \"" + std::string(column) + "\"");
  }
  [[nodiscard]] bool decimal_comma() const override { return separator_ == ';'; }

 private:
  /// Reads a quoted cell; on a quote out of place, the problem (the caller names the cell).
  std::optional<std::string_view> quoted_cell(Cell& cell);
  [[nodiscard]] bool at_record_end() const { return at_ >= text_.size() || text_[at_] == '\r' || text_[at_] == '\n'; }
  void skip_record_end();

  std::string_view text_;
  const std::string& path_;
  char separator_;
  std::size_t at_;
  std::size_t row_ = 0;
};

std::string cell_name(const std::vector<std::string>& header, std::size_t index) {
  return index < header.size() ? "column \"" + header[index] + "\"" : "cell " + std::to_string(index + 1);
}

void RecordReader::skip_record_end() {
  if (at_ < text_.size() && text_[at_] == '\r') ++at_;
  if (at_ < text_.size() && text_[at_] == '\n') ++at_;
}

std::optional<std::string_view> RecordReader::quoted_cell(Cell& cell) {
  for (++at_;; ++at_) {
    if (at_ >= text_.size()) return "a quoted cell is not closed";
    if (text_[at_] != '"') {
      cell.text += text_[at_];
    } else if (at_ + 1 < text_.size() && text_[at_ + 1] == '"') {
      cell.text += '"';
      ++at_;
    } else {
      ++at_;
      break;
    }
  }
  if (at_ < text_.size() && text_[at_] != separator_ && !at_record_end())
    return "text after the closing quote of a quoted cell";
  return std::nullopt;
}

Result<bool> RecordReader::next(Record& out, const std::vector<std::string>& header) {
  if (at_ >= text_.size()) return false;
  out.cells.clear();
  out.row = ++row_;
  for (;;) {
    Cell cell;
    cell.place = plan::Place::offset(static_cast<std::int64_t>(at_));
    std::optional<std::string_view> problem;
    if (at_ < text_.size() && text_[at_] == '"') {
      problem = quoted_cell(cell);
    } else {
      const char stops[] = {separator_, '\r', '\n', '\0'};
      const std::size_t end = std::min(text_.find_first_of(stops, at_), text_.size());
      cell.text = std::string(text_.substr(at_, end - at_));
      if (cell.text.find('"') != std::string::npos)
        problem = "a quote inside a cell that does not start with one (quote the whole cell and double the quote)";
      at_ = end;
    }
    if (problem)
      return Error::invalid(path_ + ":row " + std::to_string(out.row) + ", " + cell_name(header, out.cells.size()) +
                            ": " + std::string(*problem));
    out.cells.push_back(std::move(cell));
    if (at_ < text_.size() && text_[at_] == separator_) {
      ++at_;
      continue;
    }
    skip_record_end();
    return true;
  }
}

// ---------------------------------------------------------------------------------------------
// CSV → template.

struct RowLink {
  std::size_t target = 0;  // row index
  std::int64_t type = 2;
  std::int64_t lag = 0;
};

// A date column's cell (docs/commands/convert.md, "Dates").
struct DateCell {
  Date date;
  plan::Place at;  // the cell's
};

struct Row {
  std::size_t number = 0;  // the spreadsheet's row number
  plan::Place links_at;    // its predecessors cell (its first cell without one)
  std::int64_t level = 1;
  std::string parent;
  std::optional<std::string> temp_id;
  std::optional<std::string> title;
  std::optional<std::string> type;
  std::optional<std::int64_t> start, due, duration, budget_cents, minutes;
  std::string predecessors;
  std::optional<std::string> tags, description;
  std::optional<DateCell> start_date, due_date;
  std::vector<std::size_t> children;
  std::vector<RowLink> links;  // outgoing: this row is the predecessor
};

class CsvReader {
 public:
  CsvReader(RecordSource& source, const std::string& path, detail::FindingSink& findings, const RecordFindings& ids)
      : source_(source), path_(path), findings_(findings), ids_(ids), decimal_comma_(source.decimal_comma()) {}

  Result<Conversion> run();

 private:
  [[nodiscard]] Error cell_error(const Row& row, Column column, std::string_view problem) const {
    return Error::invalid(source_.where(row.number, index_[column], kColumnName[column]) + ": " + std::string(problem));
  }
  Status read_header(const Record& record);
  Status read_row(const Record& record);
  [[nodiscard]] std::optional<std::string_view> cell(const Record& record, Column column) const;
  Status read_integers(const Record& record, Row& row);
  Status read_dates(const Record& record, Row& row);
  void check_dates();
  Status nest();
  Status link();
  Status link_token(std::size_t target, std::string_view token);
  [[nodiscard]] bool links_may_close_a_cycle() const;
  [[nodiscard]] Story story_of(std::size_t i, std::vector<Dependency>& dependencies) const;
  // The template, and in `written` the rows in the order their stories are written.
  [[nodiscard]] std::string write_document(std::vector<std::size_t>& written) const;

  RecordSource& source_;
  const std::string& path_;
  detail::FindingSink& findings_;
  RecordFindings ids_;
  std::size_t header_row_ = 1;
  std::vector<std::string> header_;
  std::array<std::optional<std::size_t>, kColumnCount> index_{};  // column → cell index
  std::deque<Row> rows_;  // a deque: rows are large, and are not moved as it grows
  std::vector<std::size_t> roots_;
  std::vector<std::size_t> top_;                             // row → the top-level row of its tree
  std::unordered_map<std::string, std::size_t> by_temp_id_;  // first row with it
  bool decimal_comma_ = false;                               // amounts may use a comma as decimal mark
};

Result<Conversion> CsvReader::run() {
  Record record;
  for (bool header = true;; header = false) {
    Result<bool> more = source_.next(record, header_);
    if (!more.ok()) return more.error();
    if (!more.value()) {
      if (header) return Error::invalid(path_ + ": empty: a CSV plan needs a header row (at least a \"title\" column)");
      break;
    }
    const Status read = header ? read_header(record) : read_row(record);
    if (!read.ok()) return read.error();
  }
  check_dates();
  if (Status s = nest(); !s.ok()) return s.error();
  if (Status s = link(); !s.ok()) return s.error();
  Conversion out;
  std::vector<std::size_t> written;
  out.document = write_document(written);
  if (links_may_close_a_cycle())
    detail::report_cycles(
        out.document, path_, ids_.dependency_cycle,
        [&](std::size_t, std::size_t, std::size_t successor) {  // on the successor's row
          return rows_[written[successor]].links_at;
        },
        findings_);
  out.diagnostics = findings_.take();
  return out;
}

Status CsvReader::read_header(const Record& record) {
  header_row_ = record.row;
  for (std::size_t i = 0; i < record.cells.size(); ++i) {
    const std::string name = lower_trimmed(record.cells[i].text);
    header_.push_back(name);
    const auto* known = std::find(kColumnName.begin(), kColumnName.end(), name);
    if (known == kColumnName.end()) {
      findings_.report(ids_.unknown_column, record.cells[i].place,
                       "the column \"" + record.cells[i].text + "\" is not one ptmpl reads; it is ignored",
                       {"\"" + record.cells[i].text + "\""});
      continue;
    }
    std::optional<std::size_t>& slot = index_[static_cast<std::size_t>(known - kColumnName.begin())];
    if (slot)
      return Error::invalid(source_.where(header_row_, std::nullopt, "") + ": the column \"" + name +
                            "\" appears twice (cells " + std::to_string(*slot + 1) + " and " + std::to_string(i + 1) +
                            ")");
    slot = i;
  }
  if (!index_[kTitle])
    return Error::invalid(source_.where(header_row_, std::nullopt, "") +
                          ": no \"title\" column; the header names the columns (docs/commands/convert.md lists them)");
  if (index_[kLevel] && index_[kParent])
    return Error::invalid(source_.where(header_row_, std::nullopt, "") +
                          ": both \"level\" and \"parent\" columns; nest the rows with one of them");
  return Done{};
}

std::optional<std::string_view> CsvReader::cell(const Record& record, Column column) const {
  const std::optional<std::size_t> i = index_[column];
  if (!i || *i >= record.cells.size() || record.cells[*i].text.empty()) return std::nullopt;
  return detail::csv_unguarded(record.cells[*i].text);
}

Status CsvReader::read_row(const Record& record) {
  if (std::all_of(record.cells.begin(), record.cells.end(), [](const Cell& c) { return trim(c.text).empty(); }))
    return Done{};  // spreadsheets leave empty rows (",,,,") behind
  for (std::size_t i = header_.size(); i < record.cells.size(); ++i)
    if (!record.cells[i].text.empty())
      return Error::invalid(source_.where(record.row, std::nullopt, "") + ": " + std::to_string(record.cells.size()) +
                            " cells, but the header names " + std::to_string(header_.size()) + " columns");
  Row row;
  row.number = record.row;
  auto text = [&](Column c) -> std::optional<std::string> {
    const auto v = cell(record, c);
    return v ? std::optional<std::string>(*v) : std::nullopt;
  };
  if (const auto id = cell(record, kTempId); id && !trim(*id).empty()) row.temp_id = std::string(trim(*id));
  row.title = text(kTitle);
  row.tags = text(kTags);
  row.description = text(kDescription);
  row.parent = std::string(trim(cell(record, kParent).value_or("")));
  row.predecessors = std::string(cell(record, kPredecessors).value_or(""));
  const std::size_t links_cell = index_[kPredecessors].value_or(0);
  if (links_cell < record.cells.size()) row.links_at = record.cells[links_cell].place;
  if (auto type = cell(record, kType)) {
    const std::string t = lower_trimmed(*type);
    if (t != "task" && t != "deliverable" && t != "milestone")
      return cell_error(row, kType,
                        "\"" + std::string(*type) + "\" is not a story type (task, deliverable or milestone)");
    row.type = t;
  }
  if (Status s = read_integers(record, row); !s.ok()) return s;
  if (Status s = read_dates(record, row); !s.ok()) return s;
  rows_.push_back(std::move(row));
  return Done{};
}

Status CsvReader::read_integers(const Record& record, Row& row) {
  auto whole = [&](Column column, std::optional<std::int64_t>& out) -> Status {
    const std::optional<std::string_view> text = cell(record, column);
    if (!text) return Done{};
    out = json::parse_int64(trim(*text));
    if (!out) return cell_error(row, column, "\"" + std::string(*text) + "\" is not a whole number");
    return Done{};
  };
  for (auto [column, slot] : {std::pair{kStart, &row.start}, std::pair{kDue, &row.due},
                              std::pair{kDuration, &row.duration}, std::pair{kMinutes, &row.minutes}})
    if (Status s = whole(column, *slot); !s.ok()) return s;
  std::optional<std::int64_t> level;
  if (Status s = whole(kLevel, level); !s.ok()) return s;
  if (level && *level < 1)
    return cell_error(row, kLevel, "\"" + std::to_string(*level) + "\" is not a level (1 is the top)");
  row.level = level.value_or(index_[kLevel] ? 0 : 1);
  if (row.level == 0) return cell_error(row, kLevel, "empty: every row needs its outline level (1 is the top)");
  if (auto budget = cell(record, kBudget)) {
    // Where cells are separated by semicolons, the comma is the decimal mark: 1500,50.
    std::string amount(trim(*budget));
    if (decimal_comma_ && amount.find('.') == std::string::npos) std::replace(amount.begin(), amount.end(), ',', '.');
    const BudgetCents cents = budget_to_cents(amount);
    if (cents.status == BudgetCents::Status::FractionOfCent)
      return cell_error(row, kBudget, "\"" + std::string(*budget) + "\" has a fraction of a cent");
    if (cents.status != BudgetCents::Status::Exact)
      return cell_error(row, kBudget,
                        "\"" + std::string(*budget) + "\" is not an amount (major units, a " +
                            (decimal_comma_ ? "comma" : "dot") +
                            " before at most two decimals: " + (decimal_comma_ ? "1500,50" : "1500.50") + ")");
    row.budget_cents = cents.cents;
  }
  return Done{};
}

Status CsvReader::read_dates(const Record& record, Row& row) {
  for (auto [column, slot] : {std::pair{kStartDate, &row.start_date}, std::pair{kDueDate, &row.due_date}}) {
    const std::optional<std::string_view> text = cell(record, column);
    if (!text) continue;
    const std::optional<Date> date = parse_date(trim(*text));
    if (!date) return cell_error(row, column, "\"" + std::string(*text) + "\" is not a date (YYYY-MM-DD)");
    *slot = DateCell{*date, record.cells[*index_[column]].place};
  }
  return Done{};
}

// The offsets are the template's; a CSV holds no calendar to turn a date into one, so the date
// columns are checked against each other: one offset has one date, and offsets n working days
// apart have dates at least n days apart (every working day is a date of its own).
void CsvReader::check_dates() {
  struct Given {
    Date date;
    std::size_t row = 0;
    Column column = kStartDate;
    plan::Place at;
  };
  auto report = [&](const Given& at, std::string problem) {
    findings_.report(ids_.date_column, at.at,
                     "row " + std::to_string(at.row) + ", column \"" + std::string(kColumnName[at.column]) +
                         "\": " + std::move(problem));
  };
  auto day = [](std::int64_t offset, Date date) {
    return "day " + std::to_string(offset) + " cannot be " + format_date(date);
  };
  std::map<std::int64_t, Given> by_day;  // the first date given to each offset
  for (const Row& row : rows_)
    for (auto [column, offset, cell] :
         {std::tuple{kStartDate, row.start, &row.start_date}, std::tuple{kDueDate, row.due, &row.due_date}}) {
      if (!*cell) continue;
      const Given given{(*cell)->date, row.number, column, (*cell)->at};
      if (!offset) {
        report(given, format_date(given.date) + " has no offset beside it (column \"" +
                          std::string(kColumnName[column == kStartDate ? kStart : kDue]) + "\"); it is ignored");
        continue;
      }
      const auto [first, added] = by_day.try_emplace(*offset, given);
      if (!added && first->second.date != given.date)
        report(given, day(*offset, given.date) + " when row " + std::to_string(first->second.row) + " gives it as " +
                          format_date(first->second.date) + "; the offset is kept");
    }
  for (auto it = by_day.begin(); it != by_day.end() && std::next(it) != by_day.end(); ++it) {
    const auto& [offset, given] = *std::next(it);
    // Offsets more than 2^63 days apart are further apart than any two dates.
    std::int64_t days_apart = 0;
    if (__builtin_sub_overflow(offset, it->first, &days_apart) || (given.date - it->second.date).count() < days_apart)
      report(given, day(offset, given.date) + " when row " + std::to_string(it->second.row) + " gives day " +
                        std::to_string(it->first) + " as " + format_date(it->second.date) + "; the offset is kept");
  }
}

// Each row becomes a child of the nearest row above it with a lower level, or of its parent.
Status CsvReader::nest() {
  std::vector<std::size_t> open;                    // the chain of rows above the current one
  std::vector<std::size_t> depth(rows_.size(), 1);  // 1 = the top level
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    Row& row = rows_[i];
    if (row.temp_id) by_temp_id_.emplace(*row.temp_id, i);
    std::optional<std::size_t> parent;
    if (index_[kParent]) {
      if (!row.parent.empty()) {
        auto p = by_temp_id_.find(row.parent);
        if (p == by_temp_id_.end() || p->second == i)
          return cell_error(row, kParent, "no row above has the temp_id \"" + row.parent + "\"");
        parent = p->second;
      }
    } else {
      while (!open.empty() && rows_[open.back()].level >= row.level) open.pop_back();
      const std::int64_t above = open.empty() ? 0 : rows_[open.back()].level;
      if (row.level > above + 1)
        return cell_error(row, kLevel,
                          std::to_string(row.level) + " is more than one level below the row above (" +
                              (above == 0 ? std::string("none") : "level " + std::to_string(above)) + ")");
      if (!open.empty()) parent = open.back();
      open.push_back(i);
    }
    if (parent) {
      depth[i] = depth[*parent] + 1;
      if (depth[i] > detail::kMaxStoryLevels) {
        const Column column = index_[kParent] ? kParent : kLevel;
        return detail::too_deep_error(source_.where(row.number, index_[column], kColumnName[column]),
                                      "row " + std::to_string(row.number) + " \"" + row.title.value_or("") + "\"",
                                      depth[i]);
      }
      rows_[*parent].children.push_back(i);
      top_.push_back(top_[*parent]);
    } else {
      roots_.push_back(i);
      top_.push_back(i);
    }
  }
  return Done{};
}

Status CsvReader::link() {
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    std::string_view list = rows_[i].predecessors;
    while (!list.empty()) {
      const std::size_t end = std::min(list.find_first_of(",;"), list.size());
      const std::string_view token = trim(list.substr(0, end));
      list.remove_prefix(std::min(end + 1, list.size()));
      if (token.empty()) continue;
      if (Status s = link_token(i, token); !s.ok()) return s;
    }
  }
  return Done{};
}

// Finding a cycle and wording it reads the written template back (report_cycles), which costs
// as much as the rest of the reading; it is done only when the links could close one. A cycle
// of links and parent–child steps, seen between top-level trees, is a cycle of the links
// between the trees they join, or a link within one tree: when neither is there (Kahn's
// algorithm over the trees), and every temp_id is one row's, there is no cycle.
bool CsvReader::links_may_close_a_cycle() const {
  // A temp_id written twice: the template's links go to its first story, which may not be the
  // row a link was read for here; only reading the template back tells.
  const auto with_id = std::count_if(rows_.begin(), rows_.end(), [](const Row& row) { return row.temp_id; });
  if (static_cast<std::size_t>(with_id) != by_temp_id_.size()) return true;
  std::vector<std::pair<std::size_t, std::size_t>> between;  // top-level row → top-level row
  for (std::size_t i = 0; i < rows_.size(); ++i)
    for (const RowLink& link : rows_[i].links) {
      if (top_[i] == top_[link.target]) return true;
      between.emplace_back(top_[i], top_[link.target]);
    }
  std::sort(between.begin(), between.end());
  std::vector<std::size_t> waiting(rows_.size(), 0);  // links into each tree not yet taken
  for (const auto& [from, to] : between) ++waiting[to];
  std::vector<std::size_t> ready;
  for (std::size_t r : roots_)
    if (waiting[r] == 0) ready.push_back(r);
  std::size_t taken = 0;
  while (!ready.empty()) {
    const std::size_t r = ready.back();
    ready.pop_back();
    ++taken;
    auto out = std::lower_bound(between.begin(), between.end(), std::pair{r, std::size_t{0}});
    for (; out != between.end() && out->first == r; ++out)
      if (--waiting[out->second] == 0) ready.push_back(out->second);
  }
  return taken != roots_.size();
}

// `ID`, `IDFS`, `IDFS+2`, `IDSS-1`: a temp_id, then an optional type (FS by default), then an
// optional signed lag in working days, only after a type (so an id like "build-2" stays whole;
// an id that ends in type letters needs its type written, as export_csv always does).
Status CsvReader::link_token(std::size_t target, std::string_view token) {
  const Row& row = rows_[target];
  auto type_of = [](std::string_view text) -> std::optional<std::int64_t> {
    if (text.size() < 3) return std::nullopt;  // a type needs an id before it
    for (std::int64_t t = 0; t < 4; ++t)
      if (text.substr(text.size() - 2) == kLinkLetters[t]) return t;
    return std::nullopt;
  };
  RowLink link{target, 2, 0};
  std::string_view id = token;
  const std::size_t sign = token.find_last_of("+-");
  if (sign != std::string_view::npos && type_of(token.substr(0, sign))) {
    const std::string_view digits = token.substr(sign + 1);
    const auto lag = json::parse_int64(token.substr(token[sign] == '+' ? sign + 1 : sign));
    if (!digits.empty() && digits.find_first_not_of("0123456789") == std::string_view::npos) {
      if (!lag)
        return cell_error(row, kPredecessors,
                          "the lag in \"" + std::string(token) + "\" does not fit in a 64-bit integer (at most " +
                              std::to_string(std::numeric_limits<std::int64_t>::max()) + " working days)");
      link.lag = *lag;
      id = token.substr(0, sign);
    }
  }
  if (const auto type = type_of(id)) {
    link.type = *type;
    id.remove_suffix(2);
  }
  auto source = by_temp_id_.find(std::string(id));
  if (source == by_temp_id_.end())
    return cell_error(row, kPredecessors,
                      "no row has the temp_id \"" + std::string(id) + "\" (in \"" + std::string(token) +
                          "\"; a predecessor is a temp_id, then SS, SF, FS or FF, then a lag like +2)");
  if (!row.temp_id) return cell_error(row, kPredecessors, "this row has no temp_id, so a link cannot point to it");
  rows_[source->second].links.push_back(link);
  return Done{};
}

// A row as a story, but for its sub_stories (its dependencies go to `dependencies`).
Story CsvReader::story_of(std::size_t i, std::vector<Dependency>& dependencies) const {
  const Row& row = rows_[i];
  Story story;
  if (row.type) story.story_type = parse_story_type(*row.type);
  if (row.title) story.title = std::string_view(*row.title);
  if (row.temp_id) story.temp_id = temp_id_from_text(*row.temp_id);
  if (row.start) story.relative_start_date = *row.start;
  if (row.due) story.relative_due_date = *row.due;
  if (row.duration) story.duration = *row.duration;
  if (row.description) story.description = std::string_view(*row.description);
  if (row.budget_cents) story.budget_estimate_in_cents = *row.budget_cents;
  if (row.minutes) story.time_estimate_in_minutes = *row.minutes;
  if (row.tags) story.tag_list = std::string_view(*row.tags);
  dependencies.clear();
  for (const RowLink& link : row.links) {
    Dependency& dependency = dependencies.emplace_back();
    dependency.source_id = temp_id_from_text(*row.temp_id);
    dependency.target_id = temp_id_from_text(*rows_[link.target].temp_id);
    dependency.type = link.type;
    dependency.lag = link.lag;
  }
  story.dependencies = dependencies;
  return story;
}

std::string CsvReader::write_document(std::vector<std::size_t>& written) const {
  std::int64_t total_cents = 0;
  bool any_budget = false;
  for (std::size_t r : roots_) {
    // docs/semantics.md §5: a story's effective budget is its own, else the sum of its children's.
    std::vector<std::size_t> stack{r};
    while (!stack.empty()) {
      const Row& row = rows_[stack.back()];
      stack.pop_back();
      if (row.budget_cents) {
        any_budget = true;
        if (__builtin_add_overflow(total_cents, *row.budget_cents, &total_cents))
          total_cents = std::numeric_limits<std::int64_t>::max();
        continue;
      }
      stack.insert(stack.end(), row.children.begin(), row.children.end());
    }
  }
  json::Arena arena;
  Template head;
  std::string title = path_.substr(path_.find_last_of('/') + 1);
  title = title.substr(0, title.find_last_of('.'));
  head.title = title.empty() ? std::string_view("Imported plan") : std::string_view(title);
  if (any_budget) {
    head.is_budgeted = true;
    head.budget = json::Builder(arena).number_spelled(arena.copy(cents_to_budget(total_cents)));
  }
  head.item_count = static_cast<std::int64_t>(rows_.size());

  JsonEmitter json(JsonLayout::Pretty, rows_.size() * 512);
  StoryWriter out(json);
  out.begin_template(head);
  std::vector<Dependency> dependencies;
  out.outline(
      roots_, [&](std::size_t i) -> const std::vector<std::size_t>& { return rows_[i].children; },
      [&](std::size_t i) {
        written.push_back(i);
        return story_of(i, dependencies);
      });
  out.end_template(head);
  return json.finish();
}
}  // namespace

namespace {

/// How many of `line`'s cells, split at `separator`, name a column the converter reads; 0
/// unless one of them is `title`.
std::size_t known_columns(std::string_view line, char separator) {
  bool title = false;
  std::size_t known = 0;
  while (true) {
    const std::size_t end = std::min(line.find(separator), line.size());
    std::string name = lower_trimmed(line.substr(0, end));
    if (name.size() >= 2 && name.front() == '"' && name.back() == '"') name = name.substr(1, name.size() - 2);
    if (std::find(kColumnName.begin(), kColumnName.end(), name) != kColumnName.end()) {
      ++known;
      title = title || name == "title";
    }
    if (end == line.size()) break;
    line.remove_prefix(end + 1);
  }
  return title ? known : 0;
}

}  // namespace

std::optional<detail::CsvLayout> detail::csv_layout(std::string_view text) {
  CsvLayout layout;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") layout.header_at = 3;
  auto line_at = [&](std::size_t at) {
    const std::string_view rest = text.substr(at);
    return rest.substr(0, rest.find_first_of("\r\n"));
  };
  std::string_view line = line_at(layout.header_at);
  std::optional<char> named;
  if ((line == "sep=;" || line == "sep=,") && layout.header_at + line.size() < text.size()) {
    named = line.back();
    layout.header_at += line.size();
    if (text[layout.header_at] == '\r') ++layout.header_at;
    if (layout.header_at < text.size() && text[layout.header_at] == '\n') ++layout.header_at;
    line = line_at(layout.header_at);
  }
  const std::size_t commas = named == ';' ? 0 : known_columns(line, ',');
  const std::size_t semicolons = named == ',' ? 0 : known_columns(line, ';');
  if (std::max(commas, semicolons) == 0) return std::nullopt;  // no "title" cell
  layout.separator = semicolons > commas ? ';' : ',';
  return layout;
}

Result<Conversion> detail::csv::read_records(RecordSource& source, const std::string& path, FindingSink& findings,
                                             const RecordFindings& ids) {
  return CsvReader(source, path, findings, ids).run();
}

Result<Conversion> convert_csv(std::string_view text, const std::string& path, const ConvertOptions& options) {
  if (auto error = detail::not_utf8_error(text, path)) return *error;
  if (auto error = detail::nul_byte_error(text, path, "not a CSV plan")) return *error;
  RecordReader reader(text, path, detail::csv_layout(text).value_or(detail::CsvLayout{}));
  detail::FindingSink findings(text, path, options);
  return detail::csv::read_records(reader, path, findings,
                                   {"csv-unknown-column", "csv-date-column", "csv-dependency-cycle"});
}

}  // namespace ptmpl
