// Primavera P6's XER export (p6.hpp): tab-separated tables (`%T` name, `%F` fields, `%R` rows,
// `%E` the end) after an `ERMHDR` line, in the exporting machine's code page.
#include <charconv>
#include <cmath>
#include <unordered_map>
#include <variant>

#include "convert/p6/p6.hpp"
#include "convert/utf16.hpp"
#include "libtemplate/core/dates.hpp"
#include "libtemplate/core/diagnostic.hpp"

namespace ptmpl::detail::p6 {

namespace xer {

// Windows-1252's 80–9F (A0–FF are U+00A0–U+00FF); 81, 8D, 8F, 90 and 9D are undefined: U+FFFD.
constexpr char16_t kCp1252High[32] = {0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
                                      0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD,
                                      0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
                                      0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178};

constexpr std::string_view kBom = "\xEF\xBB\xBF";

void append_utf8(std::string& out, char32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | code >> 6);
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xE0 | code >> 12);
    out += static_cast<char>(0x80 | (code >> 6 & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

// Byte order marks stand at the start of memo fields (SP10: 181 in a file of Windows-1252): the
// marks are dropped, whatever the code page.
std::string without_boms(std::string text) {
  std::size_t kept = 0;
  for (std::size_t at = 0; at < text.size();) {
    if (text.compare(at, kBom.size(), kBom) == 0) {
      at += kBom.size();
      continue;
    }
    text[kept++] = text[at++];
  }
  text.resize(kept);
  return text;
}

std::string from_cp1252(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() + bytes.size() / 16);
  for (std::size_t at = 0; at < bytes.size(); ++at) {
    if (bytes.compare(at, kBom.size(), kBom) == 0) {  // a UTF-8 mark inside 1252 text (ï»¿)
      at += kBom.size() - 1;
      continue;
    }
    const auto byte = static_cast<unsigned char>(bytes[at]);
    if (byte < 0x80)
      out += static_cast<char>(byte);
    else
      append_utf8(out, byte < 0xA0 ? kCp1252High[byte - 0x80] : byte);
  }
  return out;
}

// A table as the file lays it out: its fields by name, and its rows' values.
struct Table {
  std::unordered_map<std::string_view, std::size_t> columns;
  std::size_t field_count = 0;
  struct Row {
    std::vector<std::string_view> values;
    std::int64_t offset = 0;
  };
  std::vector<Row> rows;
};

// One row of a table, read by field name: a field the table lacks, or the row leaves out
// (rows may be shorter than %F), is empty.
class RowView {
 public:
  RowView(const Table& table, const Table::Row& row, std::string_view text) : table_(table), row_(row), text_(text) {}

  [[nodiscard]] std::string_view operator[](std::string_view field) const {
    const auto it = table_.columns.find(field);
    if (it == table_.columns.end() || it->second >= row_.values.size()) return {};
    return row_.values[it->second];
  }
  [[nodiscard]] plan::Place place() const { return plan::Place::offset(row_.offset); }
  // Where a field's value is (the row's start for one left out).
  [[nodiscard]] plan::Place place(std::string_view field) const {
    const std::string_view value = (*this)[field];
    if (value.empty()) return place();
    return plan::Place::offset(value.data() - text_.data());
  }
  [[nodiscard]] std::optional<std::int64_t> id(std::string_view field) const {
    const std::string_view value = (*this)[field];
    std::int64_t out = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), out);
    if (ec != std::errc() || end != value.data() + value.size() || value.empty()) return std::nullopt;
    return out;
  }
  [[nodiscard]] Number number(std::string_view field) const {
    Number out{std::nullopt, (*this)[field], place(field)};
    double value = 0;
    const std::string_view text = out.text;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (!text.empty() && ec == std::errc() && end == text.data() + text.size() && std::isfinite(value))
      out.value = value;
    return out;
  }
  // `yyyy-mm-dd hh:mm`.
  [[nodiscard]] When when(std::string_view field) const {
    When out{std::nullopt, (*this)[field], place(field)};
    out.value = plan::parse_datetime(out.text);
    return out;
  }
  [[nodiscard]] bool flag(std::string_view field) const { return (*this)[field] == "Y"; }

 private:
  const Table& table_;
  const Table::Row& row_;
  std::string_view text_;
};

// clndr_data: nodes `(0||NAME(PARAMS)(CHILDREN))`, PARAMS `key|value` pairs joined by `|`;
// spaces, and runs of DEL (0x7F) where P6 had line breaks, may stand between nodes.
// Read without recursion (a hostile file nests as deep as it likes) into a flat list of nodes.
struct CalendarNode {
  std::string_view name;
  std::string_view params;
  std::size_t parent = 0;  // index + 1 in the list; 0: top level
};

// The nodes of `data`, or the reason it cannot be read.
std::variant<std::vector<CalendarNode>, std::string> parse_calendar_data(std::string_view data) {
  std::vector<CalendarNode> nodes;
  std::vector<std::size_t> open;  // the nodes whose children are being read (index + 1)
  std::size_t at = 0;
  auto fail = [&](const std::string& what) { return what + " at character " + std::to_string(at + 1); };
  auto skip_spaces = [&] {
    while (at < data.size() && (data[at] == ' ' || data[at] == '\x7F')) ++at;
  };
  bool any = false;
  while (true) {
    skip_spaces();
    if (at == data.size()) {
      if (!open.empty() || !any) return fail("the data ends before its parentheses close");
      return nodes;
    }
    if (data[at] == ')') {  // the end of a node's children, then of the node
      if (open.empty()) return fail("a parenthesis closes nothing");
      ++at;
      skip_spaces();
      if (at == data.size() || data[at] != ')') return fail("a node does not close after its children");
      ++at;
      open.pop_back();
      continue;
    }
    if (data[at] != '(' || (any && open.empty())) return fail("unexpected \"" + std::string(1, data[at]) + "\"");
    if (data.compare(at, 4, "(0||") != 0) return fail("a node does not begin with (0||");
    at += 4;
    const std::size_t name_end = data.find('(', at);
    if (name_end == std::string_view::npos) return fail("a node has no parameters");
    const std::size_t params_end = data.find(')', name_end);
    if (params_end == std::string_view::npos) return fail("a node's parameters do not close");
    CalendarNode node{data.substr(at, name_end - at), data.substr(name_end + 1, params_end - name_end - 1),
                      open.empty() ? 0 : open.back()};
    if (node.name.find_first_of("()") != std::string_view::npos || node.params.find('(') != std::string_view::npos)
      return fail("a node's name or parameters hold a parenthesis");
    at = params_end + 1;
    if (at == data.size() || data[at] != '(') return fail("a node has no list of children");
    ++at;
    nodes.push_back(node);
    open.push_back(nodes.size());
    any = true;
  }
}

// The value of `key` in `k1|v1|k2|v2`.
std::string_view param(std::string_view params, std::string_view key) {
  std::size_t at = 0;
  while (at <= params.size()) {
    const std::size_t key_end = params.find('|', at);
    if (key_end == std::string_view::npos) return {};
    const std::size_t value_end = std::min(params.find('|', key_end + 1), params.size());
    if (params.substr(at, key_end - at) == key) return params.substr(key_end + 1, value_end - key_end - 1);
    at = value_end + 1;
  }
  return {};
}

// Day serials count from 1899-12-30 (serial 0), as Windows' OLE dates do.
constexpr Date kSerialZero = std::chrono::sys_days{std::chrono::year{1899} / 12 / 30};

void read_calendar_data(std::string_view data, Calendar& calendar) {
  auto parsed = parse_calendar_data(data);
  if (const auto* why = std::get_if<std::string>(&parsed)) {
    calendar.notes.push_back("its clndr_data cannot be read: " + *why);
    return;
  }
  const std::vector<CalendarNode>& nodes = std::get<std::vector<CalendarNode>>(parsed);
  auto name_of = [&](std::size_t parent) { return parent == 0 ? std::string_view() : nodes[parent - 1].name; };
  // Each day of the week, and each exception, by node index + 1.
  std::unordered_map<std::size_t, std::size_t> days;        // node → week index
  std::unordered_map<std::size_t, std::size_t> exceptions;  // node → calendar.exceptions index
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const CalendarNode& node = nodes[i];
    const std::string_view parent = name_of(node.parent);
    if (parent == "DaysOfWeek") {
      const int day = node.name.size() == 1 ? node.name[0] - '0' : 0;
      if (day < 1 || day > 7) {
        calendar.notes.push_back("its clndr_data names the week day \"" + std::string(node.name) +
                                 "\" (days are 1, Sunday, to 7); it is not read");
        continue;
      }
      days[i + 1] = static_cast<std::size_t>(day - 1);
      calendar.week_read = true;
    } else if (parent == "Exceptions") {
      const std::string_view serial = param(node.params, "d");
      std::int64_t n = 0;
      const auto [end, ec] = std::from_chars(serial.data(), serial.data() + serial.size(), n);
      if (ec != std::errc() || end != serial.data() + serial.size() || n < 0 || n > 3'000'000) {
        calendar.notes.push_back("its clndr_data has an exception on \"" + std::string(serial) +
                                 "\", which is not a day number; it is not read");
        continue;
      }
      exceptions[i + 1] = calendar.exceptions.size();
      calendar.exceptions.push_back({kSerialZero + std::chrono::days{n}, {}, calendar.place});
    } else if (days.count(node.parent) != 0 || exceptions.count(node.parent) != 0) {
      const std::optional<int> start = plan::parse_time(param(node.params, "s"));
      std::optional<int> finish = plan::parse_time(param(node.params, "f"));
      if (!start || !finish) {
        calendar.notes.push_back("its clndr_data has the working time \"" + std::string(node.params) +
                                 "\", which is not s|hh:mm|f|hh:mm; it is not read");
        continue;
      }
      if (*finish == 0) finish = 24 * 60;  // f|00:00 ends the day (s|00:00|f|00:00: the whole day)
      if (*start >= *finish || *finish > 24 * 60) {
        calendar.notes.push_back("its clndr_data has the working time \"" + std::string(node.params) +
                                 "\", which is not a period of a day; it is ignored");
        continue;
      }
      const Interval interval{*start, *finish};
      if (const auto day = days.find(node.parent); day != days.end())
        calendar.week[day->second].push_back(interval);
      else
        calendar.exceptions[exceptions.at(node.parent)].work.push_back(interval);
    }
  }
}

LagCalendar lag_calendar(std::string_view text) {
  if (text == "rcal_Predecessor" || text.empty()) return LagCalendar::Predecessor;
  if (text == "rcal_Successor") return LagCalendar::Successor;
  if (text == "rcal_24Hour") return LagCalendar::TwentyFourHour;
  if (text == "rcal_ProjDefault") return LagCalendar::ProjectDefault;
  return LagCalendar::Unknown;
}

ActivityType activity_type(std::string_view text) {
  if (text == "TT_Task" || text.empty()) return ActivityType::TaskDependent;
  if (text == "TT_Rsrc") return ActivityType::ResourceDependent;
  if (text == "TT_LOE") return ActivityType::LevelOfEffort;
  if (text == "TT_Mile") return ActivityType::StartMilestone;
  if (text == "TT_FinMile") return ActivityType::FinishMilestone;
  if (text == "TT_WBS") return ActivityType::WbsSummary;
  return ActivityType::Unknown;
}

Status status(std::string_view text) {
  if (text == "TK_NotStart" || text.empty()) return Status::NotStarted;
  if (text == "TK_Active") return Status::InProgress;
  if (text == "TK_Complete") return Status::Completed;
  return Status::Unknown;
}

ConstraintType constraint_type(std::string_view text) {
  static constexpr std::pair<std::string_view, ConstraintType> kTypes[] = {
      {"CS_MSO", ConstraintType::StartOn},
      {"CS_MSOA", ConstraintType::StartOnOrAfter},
      {"CS_MSOB", ConstraintType::StartOnOrBefore},
      {"CS_MEO", ConstraintType::FinishOn},
      {"CS_MEOA", ConstraintType::FinishOnOrAfter},
      {"CS_MEOB", ConstraintType::FinishOnOrBefore},
      {"CS_ALAP", ConstraintType::AsLateAsPossible},
      {"CS_MANDSTART", ConstraintType::MandatoryStart},
      {"CS_MANDFIN", ConstraintType::MandatoryFinish}};
  if (text.empty()) return ConstraintType::None;
  for (const auto& [name, type] : kTypes)
    if (name == text) return type;
  return ConstraintType::Unknown;
}

RelationshipType relationship_type(std::string_view text) {
  if (text == "PR_FS") return RelationshipType::FinishToStart;
  if (text == "PR_SS") return RelationshipType::StartToStart;
  if (text == "PR_FF") return RelationshipType::FinishToFinish;
  if (text == "PR_SF") return RelationshipType::StartToFinish;
  return RelationshipType::Unknown;
}

// The tables of `text`, and the ERMHDR line's fields.
struct Tables {
  std::unordered_map<std::string_view, std::vector<Table>> by_name;  // a table named twice: two
  std::vector<std::string_view> header;
};

std::vector<std::string_view> split_tabs(std::string_view line) {
  std::vector<std::string_view> out;
  for (std::size_t at = 0;;) {
    const std::size_t tab = line.find('\t', at);
    out.push_back(line.substr(at, tab == std::string_view::npos ? std::string_view::npos : tab - at));
    if (tab == std::string_view::npos) return out;
    at = tab + 1;
  }
}

Result<Tables> split_tables(std::string_view text, const std::string& path, FindingSink& findings) {
  Tables out;
  Table* table = nullptr;
  std::string_view table_name;
  std::size_t line_number = 0;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, end - at);
    const std::size_t offset = at;
    at = end + 1;
    ++line_number;
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (line_number == 1) {
      if (!line.starts_with("ERMHDR"))
        return Error::invalid(format_place(path, 1, 1) +
                              ": not a Primavera P6 XER file (its first line is not ERMHDR)");
      out.header = split_tabs(line);
      continue;
    }
    if (line.starts_with("%E")) break;
    std::vector<std::string_view> values = split_tabs(line);
    const std::string_view kind = values.front();
    values.erase(values.begin());
    if (kind == "%T") {
      table_name = values.empty() ? std::string_view() : values.front();
      std::vector<Table>& named = out.by_name[table_name];
      if (!named.empty())
        findings.report(
            "p6-row-fields", plan::Place::offset(static_cast<std::int64_t>(offset)),
            "table " + std::string(table_name) + " begins a second time; its rows are read under their own %F line");
      table = &named.emplace_back();
    } else if (kind == "%F" && table != nullptr) {
      table->field_count = values.size();
      for (std::size_t i = 0; i < values.size(); ++i) table->columns.emplace(values[i], i);
    } else if (kind == "%R" && table != nullptr) {
      if (values.size() > table->field_count) {
        findings.report("p6-row-fields", plan::Place::offset(static_cast<std::int64_t>(offset)),
                        "a row of table " + std::string(table_name) + " has " + std::to_string(values.size()) +
                            " fields, its %F line " + std::to_string(table->field_count) +
                            "; the fields beyond are ignored");
        values.resize(table->field_count);
      }
      table->rows.push_back({std::move(values), static_cast<std::int64_t>(offset)});
    }
  }
  if (line_number == 0) return Error::invalid(format_place(path, 1, 1) + ": not a Primavera P6 XER file (it is empty)");
  return out;
}

template <typename Visit>
void for_each_row(const Tables& tables, std::string_view name, std::string_view text, Visit visit) {
  const auto found = tables.by_name.find(name);
  if (found == tables.by_name.end()) return;
  for (const Table& table : found->second)
    for (const Table::Row& row : table.rows) visit(RowView(table, row, text));
}

}  // namespace xer

Result<std::string> decode_xer(std::string_view bytes, const std::string& path) {
  if (bytes.starts_with("\xFF\xFE")) {
    Result<std::string> text = utf16_to_utf8(bytes, Utf16::LittleEndian, path);
    if (!text.ok()) return text.error();
    return xer::without_boms(std::move(text.value()));
  }
  if (!not_utf8_error(bytes, path)) return xer::without_boms(std::string(bytes));
  return xer::from_cp1252(bytes);
}

Result<File> read_xer(std::string_view text, const std::string& path, FindingSink& findings) {
  Result<xer::Tables> split = xer::split_tables(text, path, findings);
  if (!split.ok()) return split.error();
  const xer::Tables& tables = split.value();
  File file;
  std::unordered_map<std::int64_t, std::size_t> projects;  // proj_id → index
  auto project_of = [&](const xer::RowView& row) -> Project* {
    const auto id = row.id("proj_id");
    const auto found = id ? projects.find(*id) : projects.end();
    return found == projects.end() ? nullptr : &file.projects[found->second];
  };
  const std::string_view currency = tables.header.size() > 8 ? tables.header[8] : std::string_view();

  xer::for_each_row(tables, "PROJECT", text, [&](const xer::RowView& row) {
    const auto id = row.id("proj_id");
    if (!id || projects.count(*id) != 0) return;
    projects.emplace(*id, file.projects.size());
    Project& project = file.projects.emplace_back();
    project.id = *id;
    project.short_name = row["proj_short_name"];
    project.calendar_id = row.id("clndr_id");
    project.data_date = row.when("last_recalc_date");
    project.planned_start = row.when("plan_start_date");
    project.currency = currency;
    project.place = row.place();
  });
  xer::for_each_row(tables, "CALENDAR", text, [&](const xer::RowView& row) {
    Calendar& calendar = file.calendars.emplace_back();
    calendar.id = row.id("clndr_id").value_or(0);
    calendar.name = row["clndr_name"];
    calendar.base_id = row.id("base_clndr_id");
    calendar.hours_per_day = row.number("day_hr_cnt").value;
    calendar.place = row.place("clndr_data");
    xer::read_calendar_data(row["clndr_data"], calendar);
  });
  xer::for_each_row(tables, "SCHEDOPTIONS", text, [&](const xer::RowView& row) {
    Project* project = project_of(row);
    if (project == nullptr) return;
    project->lag_calendar_text = row["sched_calendar_on_relationship_lag"];
    project->lag_calendar = xer::lag_calendar(project->lag_calendar_text);
    project->lag_calendar_place = row.place("sched_calendar_on_relationship_lag");
    project->retained_logic = row["sched_retained_logic"] != "N";
    project->progress_override = row.flag("sched_progress_override");
    project->logic_place = row.place("sched_retained_logic");
  });
  xer::for_each_row(tables, "PROJWBS", text, [&](const xer::RowView& row) {
    Project* project = project_of(row);
    const auto id = row.id("wbs_id");
    if (project == nullptr || !id) return;
    Wbs& wbs = project->wbs.emplace_back();
    wbs.id = *id;
    wbs.parent_id = row.id("parent_wbs_id");
    wbs.code = row["wbs_short_name"];
    wbs.name = row["wbs_name"];
    wbs.sequence = row.id("seq_num").value_or(0);
    wbs.project_node = row.flag("proj_node_flag");
    wbs.place = row.place();
    if (wbs.project_node && project->name.empty()) project->name = wbs.name;
  });
  xer::for_each_row(tables, "TASK", text, [&](const xer::RowView& row) {
    Project* project = project_of(row);
    const auto id = row.id("task_id");
    if (project == nullptr || !id) return;
    Activity& activity = project->activities.emplace_back();
    activity.id = *id;
    activity.code = row["task_code"];
    activity.name = row["task_name"];
    activity.wbs_id = row.id("wbs_id");
    activity.calendar_id = row.id("clndr_id");
    activity.type_text = row["task_type"];
    activity.type = xer::activity_type(activity.type_text);
    activity.status_text = row["status_code"];
    activity.status = xer::status(activity.status_text);
    activity.planned_hours = row.number("target_drtn_hr_cnt");
    activity.remaining_hours = row.number("remain_drtn_hr_cnt");
    // The remaining work's dates, else the early ones (percent-complete-8.4 leaves early_* empty).
    activity.start = row.when("restart_date");
    if (!activity.start.written()) activity.start = row.when("early_start_date");
    activity.finish = row.when("reend_date");
    if (!activity.finish.written()) activity.finish = row.when("early_end_date");
    activity.planned_start = row.when("target_start_date");
    activity.planned_finish = row.when("target_end_date");
    activity.actual_start = row.when("act_start_date");
    activity.actual_finish = row.when("act_end_date");
    for (const bool primary : {true, false}) {
      Constraint& constraint = primary ? activity.primary : activity.secondary;
      const std::string_view type = primary ? "cstr_type" : "cstr_type2";
      constraint.text = row[type];
      constraint.type = xer::constraint_type(constraint.text);
      constraint.date = row.when(primary ? "cstr_date" : "cstr_date2");
      constraint.place = row.place(type);
    }
    activity.percent_complete = row.number("phys_complete_pct").value.value_or(0);
    activity.place = row.place();
  });
  std::unordered_map<std::int64_t, std::int64_t> activity_project;  // task_id → proj_id
  for (const Project& project : file.projects)
    for (const Activity& activity : project.activities) activity_project.emplace(activity.id, project.id);
  xer::for_each_row(tables, "TASKPRED", text, [&](const xer::RowView& row) {
    Project* project = project_of(row);
    const auto successor = row.id("task_id");
    const auto predecessor = row.id("pred_task_id");
    if (project == nullptr || !successor || !predecessor) return;
    Relationship& relationship = project->relationships.emplace_back();
    relationship.successor_id = *successor;
    relationship.predecessor_id = *predecessor;
    const auto pred_project = row.id("pred_proj_id");
    const auto found = activity_project.find(*predecessor);
    relationship.cross_project = (pred_project && *pred_project != project->id) ||
                                 (found != activity_project.end() && found->second != project->id);
    relationship.type_text = row["pred_type"];
    relationship.type = xer::relationship_type(relationship.type_text);
    relationship.lag_hours = row.number("lag_hr_cnt");
    relationship.place = row.place();
  });
  xer::for_each_row(tables, "RSRC", text, [&](const xer::RowView& row) {
    Resource& resource = file.resources.emplace_back();
    resource.id = row.id("rsrc_id").value_or(0);
    resource.name = row["rsrc_name"];
    resource.short_name = row["rsrc_short_name"];
    resource.calendar_id = row.id("clndr_id");
    const std::string_view type = row["rsrc_type"];
    resource.labor = type.empty() || type == "RT_Labor";
    resource.place = row.place();
  });
  xer::for_each_row(tables, "ROLES", text, [&](const xer::RowView& row) {
    Role& role = file.roles.emplace_back();
    role.id = row.id("role_id").value_or(0);
    role.name = row["role_name"];
    role.short_name = row["role_short_name"];
    role.place = row.place();
  });
  xer::for_each_row(tables, "TASKRSRC", text, [&](const xer::RowView& row) {
    Project* project = project_of(row);
    const auto activity = row.id("task_id");
    if (project == nullptr || !activity) return;
    Assignment& assignment = project->assignments.emplace_back();
    assignment.activity_id = *activity;
    assignment.resource_id = row.id("rsrc_id");
    assignment.role_id = row.id("role_id");
    assignment.planned_units = row.number("target_qty");
    assignment.planned_cost = row.number("target_cost");
    assignment.actual_units = row.number("act_reg_qty");
    assignment.place = row.place();
  });
  return file;
}

}  // namespace ptmpl::detail::p6
