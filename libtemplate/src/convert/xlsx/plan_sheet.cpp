#include "convert/xlsx/plan_sheet.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <map>
#include <string_view>
#include <unordered_map>

#include "convert/csv_columns.hpp"
#include "libtemplate/core/dates.hpp"

namespace ptmpl::detail::xlsx {

namespace {

using csv::lower_trimmed;
using csv::trim;

// The one table of header names (docs/commands/convert.md, "Excel"), compared without case,
// surrounding blanks or a leading "planned " or "scheduled ". MS Project's export names its
// columns ID, Name, Duration, Start, Finish, Outline Level, Predecessors and Resource Names.
constexpr std::pair<std::string_view, Field> kSynonyms[] = {
    {"id", Field::Id},
    {"task id", Field::Id},
    {"task", Field::Name},
    {"name", Field::Name},
    {"task name", Field::Name},
    {"activity", Field::Name},
    {"activity name", Field::Name},
    {"title", Field::Name},
    {"start", Field::Start},
    {"start date", Field::Start},
    {"finish", Field::Finish},
    {"finish date", Field::Finish},
    {"end", Field::Finish},
    {"end date", Field::Finish},
    {"due", Field::Finish},
    {"due date", Field::Finish},
    {"duration", Field::Duration},
    {"days", Field::Duration},
    {"predecessors", Field::Predecessors},
    {"depends on", Field::Predecessors},
    {"dependencies", Field::Predecessors},
    {"wbs", Field::Wbs},
    {"wbs id", Field::Wbs},
    {"wbs code", Field::Wbs},
    {"outline level", Field::OutlineLevel},
    {"level", Field::OutlineLevel},
    {"cost", Field::Cost},
    {"budget", Field::Cost},
    {"work", Field::Work},
    {"effort", Field::Work},
    {"hours", Field::Work},
    {"resource", Field::Resource},
    {"resources", Field::Resource},
    {"resource names", Field::Resource},
    {"assigned to", Field::Resource},
    {"role", Field::Resource},
    {"owner", Field::Resource},
    {"notes", Field::Notes},
    {"description", Field::Notes},
    {"milestone", Field::Milestone},
    {"type", Field::Type},
};

constexpr std::size_t kHeaderRows = 20;
constexpr double kMinutesPerDay = 480;  // MS Project's default day, which the builder assumes too

std::string normalized(std::string_view header) {
  std::string name = lower_trimmed(header);
  for (std::string_view prefix : {"planned ", "scheduled "})
    if (name.starts_with(prefix)) name.erase(0, prefix.size());
  return name;
}

// `Level 2` → 2: a column per outline level.
std::optional<std::size_t> level_column(std::string_view name) {
  if (!name.starts_with("level ")) return std::nullopt;
  std::size_t level = 0;
  const std::string_view digits = name.substr(6);
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), level);
  if (error != std::errc() || end != digits.data() + digits.size() || level < 1 || level > kMaxStoryLevels)
    return std::nullopt;
  return level;
}

std::optional<double> number_of(std::string_view text) {
  text = trim(text);
  double out = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(out)) return std::nullopt;
  return out;
}

// An amount as text: `$1,234.56`, `1.234,56 €`, `12,5`. Currency signs and spaces go (each a
// whole character); a comma before one or two last digits is the decimal mark (the dots before
// it then group thousands), a comma before three digits groups thousands.
std::optional<double> amount_of(std::string_view text) {
  static constexpr std::string_view kDropped[] = {"$", "\xE2\x82\xAC", "\xC2\xA3",    "\xC2\xA5",
                                                  " ", "\xC2\xA0",     "\xE2\x80\xAF"};
  std::string digits;
  while (!text.empty()) {
    const auto* dropped =
        std::find_if(std::begin(kDropped), std::end(kDropped), [&](std::string_view d) { return text.starts_with(d); });
    const std::size_t length = dropped == std::end(kDropped) ? 1 : dropped->size();
    if (dropped == std::end(kDropped)) digits += text.front();
    text.remove_prefix(length);
  }
  const std::size_t comma = digits.rfind(',');
  if (comma != std::string::npos && digits.size() - comma <= 3 && digits.size() - comma >= 2 &&
      digits.find(',') == comma &&
      std::all_of(digits.begin() + static_cast<std::ptrdiff_t>(comma) + 1, digits.end(),
                  [](char c) { return c >= '0' && c <= '9'; })) {
    std::erase(digits, '.');
    digits[digits.find(',')] = '.';
  }
  for (std::size_t at = digits.find(','); at != std::string::npos; at = digits.find(',', at)) {
    const bool thousands =
        at + 4 == digits.size() || (at + 4 < digits.size() && (digits[at + 4] == ',' || digits[at + 4] == '.'));
    if (!thousands ||
        !std::all_of(digits.begin() + static_cast<std::ptrdiff_t>(at) + 1,
                     digits.begin() + static_cast<std::ptrdiff_t>(at) + 4, [](char c) { return c >= '0' && c <= '9'; }))
      return std::nullopt;
    digits.erase(at, 1);
  }
  return number_of(digits);
}

// A length as MS Project writes it (`5 days`, `0.75d`, `6h`, `451d?`, `2 ewks`, `50%`): minutes
// (of calendar time when elapsed), or a percentage; a bare number counts `unit`s.
struct Length {
  double value = 0;
  plan::Format format;
};
std::optional<Length> length_of(std::string_view text, plan::Format::Unit unit) {
  text = trim(text);
  if (!text.empty() && text.back() == '?') text.remove_suffix(1);  // an estimate
  if (text.empty()) return std::nullopt;
  std::size_t digits = 0;
  while (digits < text.size() && (std::isdigit(static_cast<unsigned char>(text[digits])) != 0 || text[digits] == '.' ||
                                  (digits == 0 && (text[0] == '-' || text[0] == '+'))))
    ++digits;
  const std::optional<double> number =
      number_of(text.substr(text[0] == '+' ? 1 : 0, digits - (text[0] == '+' ? 1 : 0)));
  if (digits == 0 || !number) return std::nullopt;
  std::string word = lower_trimmed(text.substr(digits));
  Length out;
  out.format.unit = unit;
  if (word == "%") {
    out.format.unit = plan::Format::Unit::Percent;
    out.value = *number;
    return out;
  }
  if (word.size() > 1 && word[0] == 'e' && word != "e") {
    out.format.elapsed = true;
    word.erase(0, 1);
  }
  using Unit = plan::Format::Unit;
  static const std::pair<std::string_view, Unit> kUnits[] = {
      {"m", Unit::Minutes},       {"min", Unit::Minutes}, {"mins", Unit::Minutes}, {"minute", Unit::Minutes},
      {"minutes", Unit::Minutes}, {"h", Unit::Hours},     {"hr", Unit::Hours},     {"hrs", Unit::Hours},
      {"hour", Unit::Hours},      {"hours", Unit::Hours}, {"d", Unit::Days},       {"dy", Unit::Days},
      {"dys", Unit::Days},        {"day", Unit::Days},    {"days", Unit::Days},    {"w", Unit::Weeks},
      {"wk", Unit::Weeks},        {"wks", Unit::Weeks},   {"week", Unit::Weeks},   {"weeks", Unit::Weeks},
      {"mo", Unit::Months},       {"mon", Unit::Months},  {"mons", Unit::Months},  {"month", Unit::Months},
      {"months", Unit::Months}};
  if (!word.empty()) {
    const auto* known =
        std::find_if(std::begin(kUnits), std::end(kUnits), [&](const auto& u) { return u.first == word; });
    if (known == std::end(kUnits)) return std::nullopt;
    out.format.unit = known->second;
  } else if (out.format.elapsed) {
    return std::nullopt;
  }
  // MS Project's defaults: 8 hours a day, 5 days a week, 20 days a month; elapsed days have 24 hours.
  const double day = out.format.elapsed ? 24 * 60 : kMinutesPerDay;
  switch (out.format.unit) {
    case Unit::Minutes:
      out.value = *number;
      break;
    case Unit::Hours:
      out.value = *number * 60;
      break;
    case Unit::Days:
      out.value = *number * day;
      break;
    case Unit::Weeks:
      out.value = *number * day * (out.format.elapsed ? 7 : 5);
      break;
    case Unit::Months:
      out.value = *number * day * (out.format.elapsed ? 30 : 20);
      break;
    case Unit::Percent:
      out.value = *number;
      break;
  }
  return out;
}

// A date written as text: `2025-02-17`, `2025-02-17 08:00` (or with a T), MS Project's
// `February 17, 2025 8:00` (`Feb 17, 2025`, `Mon February 17, 2025 8:00 AM`) and US numeric
// `2/17/2025` or `Mon 2/17/25`; `timed` when it gives a time of day.
struct WrittenDate {
  plan::DateTime at;
  bool timed = false;
};
std::optional<WrittenDate> date_of_text(std::string_view text) {
  text = trim(text);
  if (auto out = plan::parse_datetime(text)) return WrittenDate{*out, text.size() > 10};
  // Words and numbers, in order.
  std::vector<std::string> words;
  std::string word;
  for (const char c : std::string(text) + ' ') {
    if (c == ' ' || c == ',' || c == '/') {
      if (!word.empty()) words.push_back(lower_trimmed(word));
      word.clear();
    } else {
      word += c;
    }
  }
  static constexpr std::string_view kMonths[] = {"january", "february", "march",     "april",   "may",      "june",
                                                 "july",    "august",   "september", "october", "november", "december"};
  static constexpr std::string_view kDays[] = {"mon", "tue", "wed", "thu", "fri", "sat", "sun"};
  std::size_t i = 0;
  if (i < words.size() &&
      std::any_of(std::begin(kDays), std::end(kDays), [&](std::string_view d) { return words[i].starts_with(d); }))
    ++i;
  auto integer = [&](std::size_t at) -> std::optional<int> {
    if (at >= words.size()) return std::nullopt;
    int out = 0;
    const auto [end, error] = std::from_chars(words[at].data(), words[at].data() + words[at].size(), out);
    if (error != std::errc() || end != words[at].data() + words[at].size()) return std::nullopt;
    return out;
  };
  std::optional<int> month, day, year;
  if (i < words.size() && words[i].size() >= 3) {
    for (int m = 0; m < 12; ++m)
      if (kMonths[m].starts_with(words[i])) month = m + 1;
    if (month) {
      day = integer(i + 1);
      year = integer(i + 2);
    }
  }
  if (!month) {  // US numeric: month/day/year
    month = integer(i);
    day = integer(i + 1);
    year = integer(i + 2);
    if (year && *year < 100) *year += *year < 50 ? 2000 : 1900;
  }
  // Checked as ints first: chrono's month, day and year keep only their low bits (257/1 would be January).
  if (!month || !day || !year || *month < 1 || *month > 12 || *day < 1 || *day > 31 || *year < 1 || *year > 9999)
    return std::nullopt;
  i += 3;
  const std::chrono::year_month_day ymd{std::chrono::year{*year}, std::chrono::month{static_cast<unsigned>(*month)},
                                        std::chrono::day{static_cast<unsigned>(*day)}};
  if (!ymd.ok()) return std::nullopt;
  WrittenDate out{plan::DateTime{Date{ymd}, 0}, i < words.size()};
  if (out.timed) {
    std::string time = words[i];
    if (time.size() == 4 && time[1] == ':') time.insert(0, "0");
    const std::optional<int> minute = plan::parse_time(time);
    if (!minute) return std::nullopt;
    int& at = out.at.minute;
    at = *minute;
    ++i;
    if (i < words.size() && (words[i] == "am" || words[i] == "pm")) {
      if (at >= 13 * 60 || at < 60) return std::nullopt;
      if (words[i] == "pm" && at < 12 * 60) at += 12 * 60;
      if (words[i] == "am" && at >= 12 * 60) at -= 12 * 60;
      ++i;
    }
  }
  if (i != words.size()) return std::nullopt;
  return out;
}

class SheetReader {
 public:
  SheetReader(const Sheet& sheet, const PlanHeader& header, bool date1904, plan::Plan& plan, FindingSink& findings)
      : sheet_(sheet), header_(header), date1904_(date1904), plan_(plan), findings_(findings) {}

  void run();

 private:
  [[nodiscard]] const Cell* cell(const Row& row, Field field) const {
    const auto column = header_.column(field);
    return column ? row.at(*column) : nullptr;
  }
  [[nodiscard]] std::string text(const Row& row, Field field) const {
    const Cell* c = cell(row, field);
    return c != nullptr ? cell_text(*c, date1904_) : std::string();
  }
  [[nodiscard]] std::string column_name(std::size_t column) const {
    const Cell* c = sheet_.rows[header_.row].at(column);
    return c != nullptr ? cell_text(*c, date1904_) : std::string();
  }
  // An unreadable cell in `field`'s column of `row`.
  void invalid(const Row& row, Field field, std::string problem) {
    const std::size_t column = *header_.column(field);
    findings_.report("xlsx-cell-invalid", plan::Place::cell(row.number, column),
                     "the column \"" + column_name(column) + "\" holds " + std::move(problem));
  }
  void read_task(const Row& row, std::size_t ordinal);
  void read_date(const Row& row, Field field, plan::Task& task);
  void read_hierarchy();
  void read_links();

  const Sheet& sheet_;
  const PlanHeader& header_;
  bool date1904_;
  plan::Plan& plan_;
  FindingSink& findings_;
  std::vector<const Row*> rows_;                        // each task's row
  std::vector<std::int64_t> wbs_levels_;                // each task's WBS code's depth (0: none)
  std::vector<std::int64_t> grouping_;                  // each task's row outline level + 1
  std::vector<std::string> predecessors_;               // each task's, as written
  std::unordered_map<std::string, std::int64_t> keys_;  // what predecessors name → UID
  std::map<std::string, std::int64_t, std::less<>> resources_;
};

void SheetReader::run() {
  plan_.source = plan::Source::excel();
  for (const std::size_t column : header_.unmapped) {
    const std::string header = column_name(column);
    findings_.report(
        "xlsx-column-unmapped", plan::Place::cell(sheet_.rows[header_.row].number, column),
        "the column \"" + header + "\" is not one ptmpl maps (docs/commands/convert.md, \"Excel\"); it is ignored",
        {"\"" + header + "\""});
  }
  std::size_t ordinal = 0;
  for (std::size_t r = header_.row + 1; r < sheet_.rows.size(); ++r) {
    const Row& row = sheet_.rows[r];
    if (row.cells.empty()) continue;
    read_task(row, ++ordinal);
  }
  read_hierarchy();
  read_links();
}

void SheetReader::read_task(const Row& row, std::size_t ordinal) {
  plan::Task& task = plan_.tasks.emplace_back();
  rows_.push_back(&row);
  const std::size_t first = header_.level_columns.empty() ? 0 : header_.level_columns.front();
  task.place(plan::TaskField::Task) = plan::Place::cell(row.number, header_.column(Field::Name).value_or(first));
  task.uid = static_cast<std::int64_t>(ordinal);
  if (const Cell* id = cell(row, Field::Id)) {
    const std::optional<double> n = id->kind == Cell::Kind::Number ? id->number : number_of(id->text);
    if (n && *n >= 0 && *n < 1e15 && *n == std::floor(*n))
      task.uid = static_cast<std::int64_t>(*n);
    else
      invalid(row, Field::Id,
              "\"" + cell_text(*id, date1904_) + "\", not a whole number; the task is numbered " +
                  std::to_string(ordinal) + " by its row");
  }
  std::string name = text(row, Field::Name);
  for (std::size_t level = 0; level < header_.level_columns.size(); ++level)
    if (const Cell* c = row.at(header_.level_columns[level])) {
      task.level = static_cast<std::int64_t>(level) + 1;
      if (name.empty()) name = cell_text(*c, date1904_);
      break;
    }
  task.name = plan_.keep(std::move(name));
  const std::string key = header_.column(Field::Id)    ? text(row, Field::Id)
                          : header_.column(Field::Wbs) ? text(row, Field::Wbs)
                                                       : std::to_string(ordinal);
  if (!key.empty()) keys_.emplace(key, task.uid);
  if (header_.column(Field::OutlineLevel)) {
    if (const Cell* c = cell(row, Field::OutlineLevel)) {
      const std::optional<double> n = c->kind == Cell::Kind::Number ? c->number : number_of(c->text);
      if (n && *n >= 1 && *n <= 1e6 && *n == std::floor(*n))
        task.level = static_cast<std::int64_t>(*n);
      else
        invalid(row, Field::OutlineLevel, "\"" + cell_text(*c, date1904_) + "\", not an outline level (1 at the top)");
    }
    task.place(plan::TaskField::OutlineLevel) = plan::Place::cell(row.number, *header_.column(Field::OutlineLevel));
  }
  // A WBS code `1.2.3` is three levels deep.
  const std::string wbs(trim(text(row, Field::Wbs)));
  const bool dotted = !wbs.empty() && wbs.find_first_not_of("0123456789.") == std::string::npos;
  wbs_levels_.push_back(
      dotted ? static_cast<std::int64_t>(std::count(wbs.begin(), wbs.end(), '.') + 1 - (wbs.back() == '.' ? 1 : 0))
             : 0);
  grouping_.push_back(row.outline + 1);
  for (const Field field : {Field::Start, Field::Finish}) read_date(row, field, task);
  if (const Cell* c = cell(row, Field::Duration)) {
    task.place(plan::TaskField::Duration) = plan::Place::cell(row.number, *header_.column(Field::Duration));
    const std::string written = cell_text(*c, date1904_);
    const auto length = c->kind == Cell::Kind::Number && !c->date
                            ? std::optional<Length>(Length{c->number * kMinutesPerDay, {}})
                            : length_of(written, plan::Format::Unit::Days);
    if (length && !length->format.percent()) {
      task.duration = length->value;
      task.duration_format = length->format;
      task.duration_text = plan_.keep(written);
    } else {
      invalid(row, Field::Duration,
              "\"" + written +
                  "\", not a duration (a number of days, or as `5 days`, `0.75d`, `6h`, `2w`); the task has none");
    }
  }
  if (const Cell* c = cell(row, Field::Work)) {
    const std::string written = cell_text(*c, date1904_);
    const auto length = c->kind == Cell::Kind::Number ? std::optional<Length>(Length{c->number * 60, {}})
                                                      : length_of(written, plan::Format::Unit::Hours);
    task.place(plan::TaskField::Work) = plan::Place::cell(row.number, *header_.column(Field::Work));
    if (length && !length->format.percent() && length->value >= 0)
      task.work = length->value;
    else
      invalid(row, Field::Work, "\"" + written + "\", not an amount of work (a number of hours, or as `40h`, `5d`)");
  }
  if (const Cell* c = cell(row, Field::Cost)) {
    std::string written = cell_text(*c, date1904_);
    task.place(plan::TaskField::Cost) = plan::Place::cell(row.number, *header_.column(Field::Cost));
    const std::optional<double> amount = c->kind == Cell::Kind::Number ? c->number : amount_of(written);
    if (amount) {
      task.cost = *amount * 100;
      task.cost_text = plan_.keep(std::move(written));
    } else {
      invalid(row, Field::Cost, "\"" + written + "\", not an amount");
    }
  }
  task.notes = plan_.keep(text(row, Field::Notes));
  const std::string milestone = lower_trimmed(text(row, Field::Milestone));
  task.milestone = milestone == "yes" || milestone == "true" || milestone == "1" || milestone == "x" ||
                   lower_trimmed(text(row, Field::Type)) == "milestone";
  predecessors_.push_back(text(row, Field::Predecessors));
  std::string_view names = plan_.keep(text(row, Field::Resource));
  while (!names.empty()) {
    const std::size_t end = std::min(names.find_first_of(",;"), names.size());
    std::string_view resource = trim(names.substr(0, end).substr(0, names.substr(0, end).find('[')));  // `Ann[50%]`
    names.remove_prefix(std::min(end + 1, names.size()));
    if (resource.empty()) continue;
    const auto [at, added] =
        resources_.try_emplace(std::string(resource), static_cast<std::int64_t>(resources_.size() + 1));
    if (added) plan_.resources.push_back({at->second, plan_.keep(std::string(resource)), false, std::nullopt, {}, {}});
    plan_.assignments.push_back(
        {task.uid, at->second, {}, plan::Place::cell(row.number, *header_.column(Field::Resource))});
  }
}

void SheetReader::read_date(const Row& row, Field field, plan::Task& task) {
  const Cell* c = cell(row, field);
  if (c == nullptr) return;
  const bool start = field == Field::Start;
  task.place(start ? plan::TaskField::Start : plan::TaskField::Finish) =
      plan::Place::cell(row.number, *header_.column(field));
  std::optional<plan::DateTime> date;
  bool timed = false;  // a time of day written, midnight included
  if (c->kind == Cell::Kind::Number && c->date) {
    date = date_of_serial(c->number, date1904_);
    timed = c->number != std::floor(c->number);
    if (!date && !date1904_ && std::floor(c->number) == 60)
      return invalid(row, field,
                     "the serial number 60: 1900-02-29, a day that never was (the 1900 date system counts it, as "
                     "Lotus 1-2-3 did); it is not read");
    if (!date)
      return invalid(row, field,
                     "the serial number " + cell_text(*c, date1904_) + ", which is no date; it is not read");
  } else if (c->kind == Cell::Kind::Text) {
    const std::optional<WrittenDate> written = date_of_text(c->text);
    if (written) {
      date = written->at;
      timed = written->timed;
    }
    if (!date)
      return invalid(row, field,
                     "\"" + c->text +
                         "\", not a date (a date cell, or text as 2025-02-17, 2025-02-17 08:00, February 17, 2025 "
                         "8:00 or 2/17/2025); it is not read");
  } else {
    return invalid(row, field,
                   "the number " + cell_text(*c, date1904_) + " in a cell not formatted as a date; it is not read");
  }
  // A finish given as a day alone (a date cell without a time, text without one) is that day's
  // end: spreadsheets give a task's last day. A time written, 00:00 included, is kept.
  if (!start && !timed) date->minute = 24 * 60;
  (start ? task.start : task.finish) = date;
}

// The levels: an outline level column, else one column per level, else dotted WBS codes, else the
// rows' own outline grouping; else the plan is flat.
void SheetReader::read_hierarchy() {
  if (header_.column(Field::OutlineLevel) || !header_.level_columns.empty()) return;
  const bool wbs = std::any_of(wbs_levels_.begin(), wbs_levels_.end(), [](std::int64_t l) { return l > 1; });
  const bool grouped = std::any_of(grouping_.begin(), grouping_.end(), [](std::int64_t l) { return l > 1; });
  for (std::size_t i = 0; i < plan_.tasks.size(); ++i) {
    if (wbs && wbs_levels_[i] > 0) {
      plan_.tasks[i].level = wbs_levels_[i];
      plan_.tasks[i].place(plan::TaskField::OutlineLevel) =
          plan::Place::cell(rows_[i]->number, *header_.column(Field::Wbs));
    } else if (!wbs && grouped) {
      plan_.tasks[i].level = grouping_[i];
      plan_.tasks[i].place(plan::TaskField::OutlineLevel) = plan_.tasks[i].place(plan::TaskField::Task);
    }
  }
}

// `3FS+2 days;4`: a task's key (its ID, else its WBS code, else its row's number among the
// tasks), then a type (FS by default), then a lag (`+2 days`, `-1d`, `+50%`; days by default).
void SheetReader::read_links() {
  auto type_of = [](std::string_view text) -> std::optional<plan::LinkType> {
    if (text.size() < 3) return std::nullopt;  // a type needs a key before it
    const std::string end = lower_trimmed(text.substr(text.size() - 2));
    if (end == "fs") return plan::LinkType::FinishToStart;
    if (end == "ss") return plan::LinkType::StartToStart;
    if (end == "ff") return plan::LinkType::FinishToFinish;
    if (end == "sf") return plan::LinkType::StartToFinish;
    return std::nullopt;
  };
  for (std::size_t i = 0; i < plan_.tasks.size(); ++i) {
    plan::Task& task = plan_.tasks[i];
    task.first_link = plan_.links.size();
    std::string_view list = predecessors_[i];
    while (!list.empty()) {
      const std::size_t end = std::min(list.find_first_of(",;"), list.size());
      const std::string_view token = trim(list.substr(0, end));
      list.remove_prefix(std::min(end + 1, list.size()));
      if (token.empty()) continue;
      std::string_view key = token;
      plan::Link link;
      link.place = plan::Place::cell(rows_[i]->number, *header_.column(Field::Predecessors));
      link.type_place = link.lag_place = link.place;
      const std::size_t sign = token.find_first_of("+-", 1);
      if (sign != std::string_view::npos && type_of(token.substr(0, sign))) {
        const auto lag = length_of(token.substr(sign), plan::Format::Unit::Days);
        if (!lag) {
          invalid(*rows_[i], Field::Predecessors,
                  "\"" + std::string(token) +
                      "\", whose lag is not a length (+2 days, -1d, +4h, +50%); the link is dropped");
          continue;
        }
        link.lag = lag->value;
        link.lag_format = lag->format;
        link.lag_text = plan_.keep(std::string(token.substr(sign)));
        key = token.substr(0, sign);
      }
      if (const auto type = type_of(key); type && keys_.count(std::string(trim(key))) == 0) {
        link.type = *type;
        key.remove_suffix(2);
      }
      const auto found = keys_.find(std::string(trim(key)));
      if (found == keys_.end()) {
        invalid(*rows_[i], Field::Predecessors,
                "\"" + std::string(token) + "\", which names no task of the sheet (by its " +
                    (header_.column(Field::Id)    ? "ID"
                     : header_.column(Field::Wbs) ? "WBS code"
                                                  : "row's number among the tasks") +
                    "); the link is dropped");
        continue;
      }
      link.predecessor = found->second;
      plan_.links.push_back(link);
    }
    task.link_count = plan_.links.size() - task.first_link;
  }
}

}  // namespace

std::optional<PlanHeader> find_plan_header(const Sheet& sheet) {
  for (std::size_t r = 0; r < sheet.rows.size() && sheet.rows[r].number <= kHeaderRows; ++r) {
    PlanHeader header;
    header.row = r;
    std::size_t mapped = 0;
    for (const Cell& cell : sheet.rows[r].cells) {
      if (cell.kind != Cell::Kind::Text) {
        header.unmapped.push_back(cell.column);
        continue;
      }
      const std::string name = normalized(cell.text);
      const auto* known =
          std::find_if(std::begin(kSynonyms), std::end(kSynonyms), [&](const auto& s) { return s.first == name; });
      if (const auto level = level_column(name); level && *level == header.level_columns.size() + 1) {
        header.level_columns.push_back(cell.column);
        ++mapped;
      } else if (known != std::end(kSynonyms) && !header.columns[static_cast<std::size_t>(known->second)]) {
        header.columns[static_cast<std::size_t>(known->second)] = cell.column;
        ++mapped;
      } else {
        header.unmapped.push_back(cell.column);
      }
    }
    if ((header.column(Field::Name) || !header.level_columns.empty()) && mapped >= 2) return header;
  }
  return std::nullopt;
}

void read_plan_sheet(const Sheet& sheet, const PlanHeader& header, bool date1904, plan::Plan& plan,
                     FindingSink& findings) {
  SheetReader(sheet, header, date1904, plan, findings).run();
}

}  // namespace ptmpl::detail::xlsx
