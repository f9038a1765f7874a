#include "convert/xlsx/workbook.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <iterator>
#include <utility>

#include <pugixml.hpp>

#include "convert/cfb/little_endian.hpp"
#include "convert/xml_pull.hpp"
#include "convert/xml_text.hpp"

namespace ptmpl::detail::xlsx {

namespace {

constexpr std::size_t kMaxRows = 1'048'576;
constexpr std::size_t kMaxColumns = 16'384;
// Whitespace alone in a `<t>` is text (xml:space="preserve").
constexpr unsigned kXmlOptions = pugi::parse_default | pugi::parse_ws_pcdata_single;

// Parts may use a prefix for SpreadsheetML's namespace (`x:row`) and Strict OOXML another
// namespace: elements are matched by their local names (local_name, xml_text.hpp).
pugi::xml_node child(pugi::xml_node node, std::string_view name) {
  for (pugi::xml_node c = node.first_child(); c; c = c.next_sibling())
    if (c.type() == pugi::node_element && local_name(c) == name) return c;
  return {};
}

// An attribute by its local name (`r:id` is `id`).
pugi::xml_attribute attribute(pugi::xml_node node, std::string_view name) {
  for (pugi::xml_attribute a = node.first_attribute(); a; a = a.next_attribute()) {
    std::string_view n = a.name();
    if (const std::size_t colon = n.find(':'); colon != std::string_view::npos) n = n.substr(colon + 1);
    if (n == name) return a;
  }
  return {};
}

std::optional<std::int64_t> to_integer(std::string_view text) {
  std::int64_t out = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return out;
}

std::optional<double> to_number(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '+')) text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  double out = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(out)) return std::nullopt;
  return out;
}

// ECMA-376 §22.9.2.19 (ST_Xstring): `_xHHHH_` is the UTF-16 code unit HHHH (`_x000D_` a carriage
// return; a literal `_x` before four hex digits is written `_x005F_x…`). Surrogates and NUL stay
// as written: a text cannot hold them.
std::string unescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    std::uint32_t unit = 0;
    if (text[i] == '_' && i + 6 < text.size() && text[i + 1] == 'x' && text[i + 6] == '_') {
      const auto [end, error] = std::from_chars(text.data() + i + 2, text.data() + i + 6, unit, 16);
      if (error == std::errc() && end == text.data() + i + 6 && unit != 0 && (unit < 0xD800 || unit > 0xDFFF)) {
        cfb::append_utf8(out, unit);
        i += 6;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

// `B17` → column 1 (A is 0); nullopt unless letters come first, within 16,384 columns.
std::optional<std::size_t> column_of(std::string_view reference) {
  std::size_t column = 0;
  std::size_t letters = 0;
  for (; letters < reference.size() && letters < 4; ++letters) {
    const char c = reference[letters];
    if (c < 'A' || c > 'Z') break;
    column = column * 26 + static_cast<std::size_t>(c - 'A' + 1);
  }
  if (letters == 0 || column > kMaxColumns) return std::nullopt;
  return column - 1;
}

// A relationship's target as a part name: absolute (`/xl/worksheets/sheet1.xml`, as openpyxl
// writes it) or relative to the folder of the part that names it (`worksheets/sheet1.xml`).
// Only a key to look the part up by, never a path on disk.
std::string resolve(std::string_view folder, std::string_view target) {
  std::vector<std::string_view> parts;
  auto add = [&](std::string_view text) {
    while (!text.empty()) {
      const std::size_t slash = std::min(text.find('/'), text.size());
      const std::string_view part = text.substr(0, slash);
      if (part == "..") {
        if (!parts.empty()) parts.pop_back();
      } else if (!part.empty() && part != ".") {
        parts.push_back(part);
      }
      text.remove_prefix(std::min(slash + 1, text.size()));
    }
  };
  if (target.empty() || target.front() != '/') add(folder);
  add(target);
  std::string out;
  for (const std::string_view part : parts) out.append(out.empty() ? "" : "/").append(part);
  return out;
}

std::string folder_of(std::string_view part) {
  const std::size_t slash = part.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(part.substr(0, slash));
}

std::string rels_of(std::string_view part) {
  const std::size_t slash = part.rfind('/');
  const std::string folder = slash == std::string_view::npos ? "" : std::string(part.substr(0, slash + 1));
  return folder + "_rels/" + std::string(part.substr(slash == std::string_view::npos ? 0 : slash + 1)) + ".rels";
}

bool ends_with(std::string_view text, std::string_view end) {
  return text.size() >= end.size() && text.substr(text.size() - end.size()) == end;
}

}  // namespace

std::optional<plan::DateTime> date_of_serial(double serial, bool date1904) {
  using namespace std::chrono;
  // 2,958,465 is 9999-12-31 in the 1900 system; 1,462 days separate the systems.
  const double last = date1904 ? 2958465.0 - 1462 : 2958465.0;
  if (!std::isfinite(serial) || serial < (date1904 ? 0.0 : 1.0) || serial >= last + 1) return std::nullopt;
  auto day = static_cast<std::int64_t>(std::floor(serial));
  if (!date1904 && day == 60) return std::nullopt;
  int minute = static_cast<int>(std::lround((serial - static_cast<double>(day)) * 1440.0));
  if (minute == 1440) {  // rounded up to the next midnight
    ++day;
    minute = 0;
    if (static_cast<double>(day) > last) return std::nullopt;
  }
  // 1900: serials 1–59 count from 1899-12-31; from 61 on, from 1899-12-30 (serial 60, the day
  // Lotus 1-2-3 added, is skipped).
  const sys_days origin = date1904   ? sys_days{1904y / January / 1}
                          : day < 60 ? sys_days{1899y / December / 31}
                                     : sys_days{1899y / December / 30};
  return plan::DateTime{Date{year_month_day{origin + days{day}}}, minute};
}

bool is_date_format(std::int64_t id, std::string_view code) {
  if ((id >= 14 && id <= 22) || (id >= 27 && id <= 36) || (id >= 45 && id <= 47) || (id >= 50 && id <= 58)) return true;
  if (id < 164) return false;
  bool quoted = false;
  for (std::size_t i = 0; i < code.size(); ++i) {
    const char c = code[i];
    if (quoted) {
      quoted = c != '"';
    } else if (c == '"') {
      quoted = true;
    } else if (c == '\\' || c == '_' || c == '*') {
      ++i;  // an escaped character, a space as wide as one, a fill
    } else if (c == ';') {
      return false;  // only the first section counts
    } else if (c == '[') {
      const std::size_t end = code.find(']', i);
      if (end == std::string_view::npos) return false;
      const std::string_view inside = code.substr(i + 1, end - i - 1);
      if (!inside.empty() && inside.find_first_not_of("hHmMsS") == std::string_view::npos) return false;  // elapsed
      i = end;
    } else if (std::strchr("yYmMdDhHsS", c) != nullptr) {
      return true;
    }
  }
  return false;
}

std::string cell_text(const Cell& cell, bool date1904) {
  switch (cell.kind) {
    case Cell::Kind::Text:
      return cell.text;
    case Cell::Kind::Boolean:
      return cell.number != 0 ? "TRUE" : "FALSE";
    case Cell::Kind::Number:
      break;
  }
  if (cell.date)
    if (const auto date = date_of_serial(cell.number, date1904)) return format_date(date->date);
  char digits[32];
  if (std::abs(cell.number) < 1e15 && cell.number == std::floor(cell.number))
    return std::to_string(static_cast<std::int64_t>(cell.number));
  return std::string(digits, std::to_chars(digits, digits + sizeof digits, cell.number).ptr);
}

const Cell* Row::at(std::size_t column) const {
  const auto it = std::lower_bound(cells.begin(), cells.end(), column,
                                   [](const Cell& cell, std::size_t c) { return cell.column < c; });
  return it != cells.end() && it->column == column ? &*it : nullptr;
}

Result<Workbook> Workbook::open(std::string_view bytes, const std::string& path) {
  Result<ZipArchive> zip = ZipArchive::open(bytes, path);
  if (!zip.ok()) return zip.error();
  Workbook workbook(std::move(zip.value()), path);
  if (Status read = workbook.read_parts(); !read.ok()) return read.error();
  return workbook;
}

namespace {

// The part `name` of `zip`, parsed; an error names the workbook and the part.
Status load_part(const ZipArchive& zip, const std::string& path, const std::string& name, pugi::xml_document& xml) {
  Result<std::string> bytes = zip.read(name);
  if (!bytes.ok()) return bytes.error();
  // pugixml parses in place from its own copy; the messages name the part inside the workbook.
  if (auto error = load_xml(xml, bytes.value(), path + " (" + name + ")", kXmlOptions)) return *error;
  return Done{};
}

// Id → {Type, part name} of the relationships part `rels` of the part in `folder`.
struct Relationship {
  std::string type;
  std::string target;
};
Result<std::vector<std::pair<std::string, Relationship>>> relationships(const ZipArchive& zip, const std::string& path,
                                                                        const std::string& rels,
                                                                        std::string_view folder) {
  std::vector<std::pair<std::string, Relationship>> out;
  if (!zip.contains(rels)) return out;
  pugi::xml_document xml;
  if (Status s = load_part(zip, path, rels, xml); !s.ok()) return s.error();
  for_each_child(xml.document_element(), "Relationship", [&](pugi::xml_node r) {
    if (std::string_view(r.attribute("TargetMode").value()) == "External") return;
    out.push_back(
        {r.attribute("Id").value(), {r.attribute("Type").value(), resolve(folder, r.attribute("Target").value())}});
  });
  return out;
}

}  // namespace

// Named, not anonymous: SheetRows::State, declared in the header, holds them.
namespace sheet_xml {

// Where an element of a sheet or of the shared strings is, as far as cells and strings go: a
// sheet's root (`Sheet`), its sheetData, a row, a cell, the cell's value, formula or inline
// string; the shared strings' root (`Strings`) and a string of theirs; the text of a string (its
// `<t>` or its runs' `<r><t>`, not its phonetic guides' `<rPh><t>`). The root's is the part's.
enum class In : std::uint8_t { Other, Sheet, SheetData, Row, Cell, Value, Formula, Strings, String, Run, Text };

In inside(In parent, std::string_view name) {
  switch (parent) {
    case In::Sheet:
      return same_name(name, "sheetData") ? In::SheetData : In::Other;
    case In::SheetData:
      return same_name(name, "row") ? In::Row : In::Other;
    case In::Row:
      return same_name(name, "c") ? In::Cell : In::Other;
    case In::Cell:
      return same_name(name, "v")    ? In::Value
             : same_name(name, "f")  ? In::Formula
             : same_name(name, "is") ? In::String
                                     : In::Other;
    case In::Strings:
      return same_name(name, "si") ? In::String : In::Other;
    case In::String:
      return same_name(name, "t") ? In::Text : same_name(name, "r") ? In::Run : In::Other;
    case In::Run:
      return same_name(name, "t") ? In::Text : In::Other;
    default:
      return In::Other;
  }
}

// A cell as its element gives it, until the element closes.
struct CellElement {
  std::size_t column = 0;
  std::string type;
  std::int64_t style = 0;
  std::string value;  // its `<v>`
  bool formula = false;
  std::string text;  // its inline string's
};

// The part `name` of `zip` as UTF-8 XML for XmlPull; its messages name `part`, the workbook
// and the part.
Result<std::string> utf8_part(const ZipArchive& zip, const std::string& name, const std::string& part) {
  Result<std::string> bytes = zip.read(name);
  if (!bytes.ok()) return bytes.error();
  return as_utf8_xml(std::move(bytes.value()), part);
}

}  // namespace sheet_xml

// The shared strings part, a token at a time: a workbook may hold millions of them.
Status Workbook::read_shared_strings(const std::string& name) {
  const std::string part = path_ + " (" + name + ")";
  Result<std::string> text = sheet_xml::utf8_part(zip_, name, part);
  if (!text.ok()) return text.error();
  XmlPull xml(text.value());
  using sheet_xml::In;
  std::vector<In> open;
  std::string item;
  for (;;) {
    switch (xml.next()) {
      case XmlPull::Token::Open:
        open.push_back(open.empty() ? In::Strings : sheet_xml::inside(open.back(), xml.name()));
        if (open.back() == In::String) item.clear();
        break;
      case XmlPull::Token::Close:
        if (open.back() == In::String) strings_.push_back(item.find("_x") == std::string::npos ? item : unescape(item));
        open.pop_back();
        break;
      case XmlPull::Token::Text:
        if (open.back() == In::Text) item += xml.text();
        break;
      case XmlPull::Token::Error: {
        const auto [at, what] = xml.error();
        return xml_error(text.value(), at, part, "not well-formed XML: " + what);
      }
      case XmlPull::Token::End:
        return Done{};
    }
  }
}

Status Workbook::read_parts() {
  std::string workbook_part = "xl/workbook.xml";
  Result<std::vector<std::pair<std::string, Relationship>>> package = relationships(zip_, path_, "_rels/.rels", "");
  if (!package.ok()) return package.error();
  for (const auto& [id, r] : package.value())
    if (ends_with(r.type, "/officeDocument")) workbook_part = r.target;
  pugi::xml_document xml;
  if (Status s = load_part(zip_, path_, workbook_part, xml); !s.ok()) return s;
  const pugi::xml_node root = xml.document_element();
  const std::string_view date1904 = attribute(child(root, "workbookPr"), "date1904").value();
  date1904_ = date1904 == "1" || date1904 == "true";
  Result<std::vector<std::pair<std::string, Relationship>>> links =
      relationships(zip_, path_, rels_of(workbook_part), folder_of(workbook_part));
  if (!links.ok()) return links.error();
  auto target = [&](std::string_view id) -> const Relationship* {
    for (const auto& [rid, r] : links.value())
      if (rid == id) return &r;
    return nullptr;
  };
  for_each_child(child(root, "sheets"), "sheet", [&](pugi::xml_node sheet) {
    const Relationship* r = target(attribute(sheet, "id").value());
    if (r == nullptr || !ends_with(r->type, "/worksheet")) return;  // a chart sheet, a dialog sheet
    names_.emplace_back(sheet.attribute("name").value());
    parts_.push_back(r->target);
  });
  for (const auto& [id, r] : links.value()) {
    if (ends_with(r.type, "/sharedStrings")) {
      if (Status s = read_shared_strings(r.target); !s.ok()) return s;
    } else if (ends_with(r.type, "/styles")) {
      pugi::xml_document styles;
      if (Status s = load_part(zip_, path_, r.target, styles); !s.ok()) return s;
      const pugi::xml_node sheet = styles.document_element();
      std::vector<std::pair<std::int64_t, std::string>> codes;
      for_each_child(child(sheet, "numFmts"), "numFmt", [&](pugi::xml_node f) {
        codes.emplace_back(f.attribute("numFmtId").as_llong(-1), f.attribute("formatCode").value());
      });
      for_each_child(child(sheet, "cellXfs"), "xf", [&](pugi::xml_node xf) {
        const std::int64_t format = xf.attribute("numFmtId").as_llong(0);
        std::string_view code;
        for (const auto& [known, text] : codes)
          if (known == format) code = text;
        date_styles_.push_back(is_date_format(format, code));
      });
    }
  }
  return Done{};
}

std::string Workbook::place(std::string_view sheet, std::size_t row, std::size_t column) const {
  return path_ + " (sheet " + std::string(sheet) + ", cell " + plan::cell_reference(row, column) + ")";
}

// The sheet part is read a token at a time (XmlPull): its tree would take ten times its size,
// and its rows are handed out one at a time.
struct SheetRows::State {
  using In = sheet_xml::In;
  using CellElement = sheet_xml::CellElement;

  State(const Workbook& book, std::string sheet_name, std::string part_name, std::string part_text)
      : workbook(book),
        name(std::move(sheet_name)),
        part(std::move(part_name)),
        text(std::move(part_text)),
        xml(text) {}

  Result<bool> next(Row& row);
  Status open_row(Row& row);
  void close_row(Row& row);
  Status open_cell();
  void close_cell(Row& row);
  [[nodiscard]] std::string where() const {
    return workbook.path_ + " (sheet " + name + ", row " + std::to_string(row_number) + ")";
  }

  const Workbook& workbook;
  std::string name;
  std::string part;  // `book.xlsx (xl/worksheets/sheet1.xml)`, for messages
  std::string text;  // the part, read by xml (it holds a view of it: the State does not move)
  XmlPull xml;
  std::vector<In> open;
  std::size_t row_number = 0;
  std::size_t used = 0;  // cells of the row read so far; those past them are buffers to reuse
  bool first_cell = true;
  bool sorted = true;
  CellElement cell;
  std::vector<CellProblem> problems;
};

Status SheetRows::State::open_row(Row& row) {
  // `r` may be left out, on rows and on cells: then it is the next one.
  const std::optional<std::string_view> r = xml.attribute("r");
  const std::optional<std::int64_t> number = r ? to_integer(*r) : std::int64_t(row_number + 1);
  if (!number || *number < 1 || static_cast<std::size_t>(*number) > kMaxRows)
    return Error::invalid(workbook.path_ + " (sheet " + name + "): the row number \"" +
                          (r ? std::string(*r) : std::to_string(row_number + 1)) +
                          "\" is not one of a sheet's rows (1 to 1,048,576)");
  row_number = static_cast<std::size_t>(*number);
  row.number = row_number;
  row.outline = std::clamp<std::int64_t>(to_integer(xml.attribute("outlineLevel").value_or("0")).value_or(0), 0, 7);
  const std::string_view hidden = xml.attribute("hidden").value_or("");
  row.hidden = hidden == "1" || hidden == "true";
  used = 0;
  first_cell = true;
  sorted = true;
  return Done{};
}

void SheetRows::State::close_row(Row& row) {
  row.cells.resize(used);
  if (sorted) return;
  // Out of order or repeated: put in column order, the later one winning.
  std::stable_sort(row.cells.begin(), row.cells.end(),
                   [](const Cell& a, const Cell& b) { return a.column < b.column; });
  const auto last = std::unique(row.cells.rbegin(), row.cells.rend(),
                                [](const Cell& a, const Cell& b) { return a.column == b.column; });
  row.cells.erase(row.cells.begin(), last.base());
}

Status SheetRows::State::open_cell() {
  const std::optional<std::string_view> ref = xml.attribute("r");
  const std::optional<std::size_t> at = ref ? column_of(*ref) : std::optional(first_cell ? 0 : cell.column + 1);
  if (!at || *at >= kMaxColumns)  // a cell without `r` past XFD: none of a sheet's
    return Error::invalid(where() + ": the cell " +
                          (ref ? "reference \"" + std::string(*ref) + "\""
                               : std::string("after column XFD (a cell without a reference)")) +
                          " is not one of a sheet's cells");
  first_cell = false;
  cell.column = *at;
  cell.type = xml.attribute("t").value_or("");
  cell.style = to_integer(xml.attribute("s").value_or("0")).value_or(0);
  cell.value.clear();
  cell.formula = false;
  cell.text.clear();
  return Done{};
}

void SheetRows::State::close_cell(Row& row) {
  auto problem = [&](std::string message) { problems.push_back({row_number, cell.column, std::move(message)}); };
  const std::string_view type = cell.type;
  const std::string_view v = cell.value;
  if (used == row.cells.size()) row.cells.emplace_back();
  Cell& read = row.cells[used];  // taken only when the cell has a value
  read.column = cell.column;
  read.kind = Cell::Kind::Text;
  read.number = 0;
  read.date = false;
  if (same_name(type, "inlineStr")) {
    if (cell.text.find("_x") == std::string::npos) {
      read.text.swap(cell.text);
    } else {
      read.text = unescape(cell.text);
    }
  } else if (v.empty()) {  // openpyxl writes a formula's value as `<v></v>`, or none
    if (cell.formula) problem("holds a formula without a value (its writer did not calculate it)");
    return;  // an empty cell with a style
  } else if (same_name(type, "s")) {
    const std::vector<std::string>& strings = workbook.strings_;
    const std::optional<std::int64_t> i = to_integer(v);
    if (!i || *i < 0 || static_cast<std::size_t>(*i) >= strings.size())
      return problem("names the shared string " + std::string(v) + ", but the workbook has " +
                     std::to_string(strings.size()));
    read.text = strings[static_cast<std::size_t>(*i)];
  } else if (same_name(type, "str")) {
    if (v.find("_x") == std::string_view::npos) {
      read.text.assign(v);
    } else {
      read.text = unescape(v);
    }
  } else if (same_name(type, "e")) {
    return problem("holds the error " + std::string(v));
  } else if (same_name(type, "b")) {
    read.kind = Cell::Kind::Boolean;
    read.number = v == "1" || v == "true" ? 1 : 0;
  } else if (same_name(type, "d")) {  // an ISO 8601 date, written as text by a few programs
    const std::optional<plan::DateTime> date = plan::parse_datetime(v.substr(0, std::min<std::size_t>(v.size(), 16)));
    if (!date) return problem("holds the date \"" + std::string(v) + "\", which is not one");
    read.text = format_date(date->date);
  } else {
    const std::optional<double> n = to_number(v);
    if (!n) return problem("holds the number \"" + std::string(v) + "\", which is not one");
    const std::vector<bool>& dates = workbook.date_styles_;
    read.kind = Cell::Kind::Number;
    read.number = *n;
    read.date = cell.style >= 0 && static_cast<std::size_t>(cell.style) < dates.size() &&
                dates[static_cast<std::size_t>(cell.style)];
  }
  if (read.kind == Cell::Kind::Text && read.text.empty()) return;
  if (read.kind != Cell::Kind::Text) read.text.clear();
  sorted = sorted && (used == 0 || row.cells[used - 1].column < read.column);
  ++used;
}

Result<bool> SheetRows::State::next(Row& row) {
  for (;;) {
    switch (xml.next()) {
      case XmlPull::Token::Open: {
        const In in = open.empty() ? In::Sheet : sheet_xml::inside(open.back(), xml.name());
        open.push_back(in);
        Status s = in == In::Row ? open_row(row) : in == In::Cell ? open_cell() : Status(Done{});
        if (!s.ok()) return s.error();
        if (in == In::Formula) cell.formula = true;
        break;
      }
      case XmlPull::Token::Close: {
        const In in = open.back();
        open.pop_back();
        if (in == In::Cell) close_cell(row);
        if (in != In::Row) break;
        close_row(row);
        if (!row.cells.empty() || row.outline > 0) return true;  // an empty row only when grouped
        break;
      }
      case XmlPull::Token::Text:
        if (open.back() == In::Value) cell.value += xml.text();
        if (open.back() == In::Text) cell.text += xml.text();
        break;
      case XmlPull::Token::Error: {
        const auto [at, what] = xml.error();
        return xml_error(text, at, part, "not well-formed XML: " + what);
      }
      case XmlPull::Token::End:
        return false;
    }
  }
}

SheetRows::SheetRows(std::unique_ptr<State> state) : state_(std::move(state)) {}
SheetRows::SheetRows(SheetRows&&) noexcept = default;
SheetRows& SheetRows::operator=(SheetRows&&) noexcept = default;
SheetRows::~SheetRows() = default;

Result<bool> SheetRows::next(Row& row) {
  return state_->next(row);
}

std::vector<CellProblem> SheetRows::take_problems() {
  return std::exchange(state_->problems, {});
}

Status SheetRows::read_into(Sheet& sheet, std::size_t last) {
  while (sheet.rows.empty() || sheet.rows.back().number <= last) {
    Row row;
    Result<bool> more = next(row);
    if (!more.ok()) return more.error();
    if (!more.value()) break;
    sheet.rows.push_back(std::move(row));
  }
  std::vector<CellProblem> problems = take_problems();
  sheet.problems.insert(sheet.problems.end(), std::make_move_iterator(problems.begin()),
                        std::make_move_iterator(problems.end()));
  return Done{};
}

Result<SheetRows> Workbook::rows(std::size_t index) const {
  std::string part = path_ + " (" + parts_.at(index) + ")";
  Result<std::string> text = sheet_xml::utf8_part(zip_, parts_[index], part);
  if (!text.ok()) return text.error();
  return SheetRows(std::make_unique<SheetRows::State>(*this, names_[index], std::move(part), std::move(text.value())));
}

Result<Sheet> Workbook::sheet(std::size_t index) const {
  Result<SheetRows> rows = this->rows(index);
  if (!rows.ok()) return rows.error();
  Sheet out;
  out.name = names_[index];
  if (Status read = rows.value().read_into(out); !read.ok()) return read.error();
  return out;
}

}  // namespace ptmpl::detail::xlsx
