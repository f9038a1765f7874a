// Microsoft Project XML (MSPDI) → template document (SPEC §7).
//
// Tasks become stories in outline order (OutlineLevel; summary tasks become parents), with
// their task UID as temp_id. Start and Finish become working-day offsets through the project
// calendar: a start at or after the end of a working day (a milestone at 17:00) moves to the
// next working day, a finish at or before its beginning to the previous one — SPEC §4's
// half-open days. Links move from the successor (MSPDI) to the predecessor (template), with
// the type translated and the lag turned into working days.
#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <span>
#include <unordered_map>

#include <pugixml.hpp>

#include "convert/day_counter.hpp"
#include "convert/findings.hpp"
#include "convert/mspdi_calendar.hpp"
#include "convert/xml_text.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/diagnostic.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/lint.hpp"
#include "libtemplate/core/model.hpp"
#include "libtemplate/core/rollup.hpp"
#include "libtemplate/core/template_file.hpp"
#include "libtemplate/core/writer.hpp"

namespace ptmpl {

namespace {

using mspdi::DateTime;

// MSPDI link types (0 = FF, 1 = FS, 2 = SF, 3 = SS) in the service's numbering (SPEC §5).
constexpr std::int64_t kServiceLinkType[4] = {3, 2, 1, 0};
constexpr std::string_view kMspdiLinkName[4] = {"FF", "FS", "SF", "SS"};
constexpr std::int64_t kNoResource = -65535;

std::string_view child_text(pugi::xml_node node, const char* name) {
  return node.child(name).text().as_string();
}

// Sums of costs never wrap: a plan whose costs leave int64 saturates (lint reports the budget).
std::int64_t add_cents(std::int64_t a, std::int64_t b) {
  std::int64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? std::numeric_limits<std::int64_t>::max() : sum;
}

std::optional<std::int64_t> to_int(std::string_view text) {
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// The same for the text of an element, read in place: a short run of digits, what MSPDI
// writes, is read here; anything else (a sign, overflow, junk) as above.
std::optional<std::int64_t> to_int(const char* text) {
  const char* p = text;
  std::int64_t value = 0;
  for (int digits = 0; *p >= '0' && *p <= '9' && digits < 18; ++p, ++digits) value = value * 10 + (*p - '0');
  if (p != text && *p == '\0') return value;
  return to_int(std::string_view(text));
}

std::optional<std::int64_t> child_int(pugi::xml_node node, const char* name) {
  return to_int(child_text(node, name));
}

std::optional<double> to_number(std::string_view text) {
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

// A run of at most 15 digits is a double exactly: read in place, anything else as above.
std::optional<double> to_number(const char* text) {
  const char* p = text;
  std::int64_t value = 0;
  for (int digits = 0; *p >= '0' && *p <= '9' && digits < 15; ++p, ++digits) value = value * 10 + (*p - '0');
  if (p != text && *p == '\0') return static_cast<double>(value);
  return to_number(std::string_view(text));
}

std::optional<double> child_number(pugi::xml_node node, const char* name) {
  return to_number(child_text(node, name));
}

bool child_flag(pugi::xml_node node, const char* name) {
  return child_int(node, name).value_or(0) == 1;
}

// The number at the start of `text` as std::from_chars reads a double, and where it ends. MSPDI
// writes whole numbers (`PT64H0M0S`): a run of at most 15 digits followed by something that
// cannot continue a number is one exactly.
std::from_chars_result leading_number(std::string_view text, double& value) {
  std::size_t i = 0;
  std::int64_t whole = 0;
  for (; i < text.size() && i < 15 && text[i] >= '0' && text[i] <= '9'; ++i) whole = whole * 10 + (text[i] - '0');
  if (i > 0 && i < text.size() && !(text[i] >= '0' && text[i] <= '9') && text[i] != '.' && text[i] != 'e' &&
      text[i] != 'E') {
    value = static_cast<double>(whole);
    return {text.data() + i, std::errc()};
  }
  return std::from_chars(text.data(), text.data() + text.size(), value);
}

// An xsd:duration as MSPDI writes it (`PT8H0M0S`, `-PT4H`, `P1DT2H`; a day is 24 hours) in minutes.
std::optional<double> duration_minutes(std::string_view text) {
  bool negative = false;
  if (!text.empty() && text.front() == '-') {
    negative = true;
    text.remove_prefix(1);
  }
  if (text.empty() || text.front() != 'P') return std::nullopt;
  text.remove_prefix(1);
  double minutes = 0;
  bool in_time = false;
  bool any = false;
  while (!text.empty()) {
    if (text.front() == 'T') {
      in_time = true;
      text.remove_prefix(1);
      continue;
    }
    double value = 0;
    auto [end, ec] = leading_number(text, value);
    if (ec != std::errc() || end == text.data() + text.size()) return std::nullopt;
    const char unit = *end;
    text.remove_prefix(static_cast<std::size_t>(end - text.data()) + 1);
    any = true;
    if (!in_time && unit == 'D')
      minutes += value * 24 * 60;
    else if (in_time && unit == 'H')
      minutes += value * 60;
    else if (in_time && unit == 'M')
      minutes += value;
    else if (in_time && unit == 'S')
      minutes += value / 60;
    else
      return std::nullopt;  // years and months have no fixed length
  }
  if (!any || !std::isfinite(minutes)) return std::nullopt;
  return negative ? -minutes : minutes;
}

// The text of an element as pugixml's text() gives it. The document is parsed with
// parse_embed_pcdata, so character data that opens an element is the element's own value: one
// call and no second node to visit; text() still finds CDATA, or character data after a child.
const char* element_text(pugi::xml_node element) {
  const char* value = element.value();
  return *value != '\0' ? value : element.text().as_string();
}

// The names of a fixed set of elements, indexed by `Key` (an enum class whose last member is
// Count; at most 32), looked up without measuring a name first: by its initial, then compared
// up to its terminating NUL with the few names of that initial.
template <typename Key>
class ElementNames {
 public:
  static constexpr std::size_t kCount = static_cast<std::size_t>(Key::Count);
  static_assert(kCount <= 32);

  consteval explicit ElementNames(const std::array<std::string_view, kCount>& names) : names_(names) {
    for (std::size_t i = 0; i < kCount; ++i)
      by_initial_[static_cast<unsigned char>(names[i][0]) & 0x7F] |= std::uint32_t{1} << i;
  }

  /// The element `name` is, or Key::Count.
  [[nodiscard]] Key find(const char* name) const {
    const auto initial = static_cast<unsigned char>(name[0]);
    if (initial >= 0x80) return Key::Count;
    for (std::uint32_t candidates = by_initial_[initial]; candidates != 0; candidates &= candidates - 1) {
      const auto i = static_cast<std::size_t>(std::countr_zero(candidates));
      if (equals(name, names_[i])) return static_cast<Key>(i);
    }
    return Key::Count;
  }

 private:
  static bool equals(const char* name, std::string_view expected) {
    for (char c : expected)
      if (*name++ != c) return false;  // a shorter name stops here, at its NUL
    return *name == '\0';
  }

  std::array<std::string_view, kCount> names_;
  std::array<std::uint32_t, 128> by_initial_{};
};

// The first child element of each name of a set, and its text, found in one pass over the
// children: a task written by MS Project has about a hundred children, and looking each one up
// by name would compare names thousands of times per task. The children named `every` (if
// any) are all kept, in order, in `repeated`.
template <typename Key>
class FirstChildren {
 public:
  FirstChildren(pugi::xml_node parent, const ElementNames<Key>& names, Key every = Key::Count,
                std::vector<pugi::xml_node>* repeated = nullptr) {
    for (pugi::xml_node child = parent.first_child(); child; child = child.next_sibling()) {
      const Key key = names.find(child.name());
      const auto i = static_cast<std::size_t>(key);
      if (key == Key::Count) continue;
      if (key == every) {
        repeated->push_back(child);
      } else if (texts_[i] == nullptr) {  // the first one, as pugixml's child() finds it
        nodes_[i].emplace(child);
        texts_[i] = element_text(child);
      }
    }
  }

  /// The element; a null node when there is none.
  [[nodiscard]] pugi::xml_node node(Key k) const {
    return nodes_[static_cast<std::size_t>(k)].value_or(pugi::xml_node());
  }
  /// The element's text; "" when there is no such element.
  [[nodiscard]] const char* text(Key k) const {
    const char* text = texts_[static_cast<std::size_t>(k)];
    return text != nullptr ? text : "";
  }
  [[nodiscard]] std::optional<std::int64_t> integer(Key k) const { return to_int(text(k)); }
  [[nodiscard]] std::optional<double> number(Key k) const { return to_number(text(k)); }
  [[nodiscard]] bool flag(Key k) const { return integer(k).value_or(0) == 1; }

 private:
  // Optional: an xml_node is built by a call into pugixml, one per name on every element read.
  std::array<std::optional<pugi::xml_node>, ElementNames<Key>::kCount> nodes_{};
  std::array<const char*, ElementNames<Key>::kCount> texts_{};
};

// The children of a <Task> the reader looks at.
enum class Field : std::uint8_t {
  UID,
  Name,
  Cost,
  Work,
  Start,
  Notes,
  Active,
  IsNull,
  Finish,
  Manual,
  Duration,
  Milestone,
  ActualCost,
  ActualWork,
  ActualStart,
  CalendarUID,
  OutlineLevel,
  ConstraintType,
  ConstraintDate,
  ActualDuration,
  DurationFormat,
  PercentComplete,
  PercentWorkComplete,
  ActualFinish,
  PredecessorLink,  // every one is kept
  Count
};

constexpr ElementNames<Field> kTaskFields({"UID",
                                           "Name",
                                           "Cost",
                                           "Work",
                                           "Start",
                                           "Notes",
                                           "Active",
                                           "IsNull",
                                           "Finish",
                                           "Manual",
                                           "Duration",
                                           "Milestone",
                                           "ActualCost",
                                           "ActualWork",
                                           "ActualStart",
                                           "CalendarUID",
                                           "OutlineLevel",
                                           "ConstraintType",
                                           "ConstraintDate",
                                           "ActualDuration",
                                           "DurationFormat",
                                           "PercentComplete",
                                           "PercentWorkComplete",
                                           "ActualFinish",
                                           "PredecessorLink"});

// The children of a <PredecessorLink>.
enum class LinkField : std::uint8_t { PredecessorUID, Type, CrossProject, CrossProjectName, LinkLag, LagFormat, Count };

constexpr ElementNames<LinkField> kLinkFields({"PredecessorUID", "Type", "CrossProject", "CrossProjectName", "LinkLag",
                                               "LagFormat"});

// The children of an <Assignment>.
enum class AssignmentField : std::uint8_t { TaskUID, ResourceUID, Count };

constexpr ElementNames<AssignmentField> kAssignmentFields({"TaskUID", "ResourceUID"});

// DurationFormat / LagFormat codes: the estimated variants (35–53) are the plain ones + 32.
int base_format(std::int64_t code) {
  return static_cast<int>(code >= 35 ? code - 32 : code);
}
bool is_elapsed(int format) {
  return format == 4 || format == 6 || format == 8 || format == 10 || format == 12 || format == 20;
}
bool is_percent(int format) {
  return format == 19 || format == 20;
}

std::string_view constraint_name(std::int64_t type) {
  static constexpr std::string_view kNames[] = {
      "As Soon As Possible",   "As Late As Possible", "Must Start On",          "Must Finish On",
      "Start No Earlier Than", "Start No Later Than", "Finish No Earlier Than", "Finish No Later Than"};
  return type >= 0 && type < 8 ? kNames[type] : "an unknown constraint";
}

constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

struct LinkIn {
  std::int64_t predecessor = 0;
  std::int64_t successor = 0;  // the UID of the task the link leads into
  std::size_t from = kNone;    // the predecessor's index in the task list, once known
  std::int64_t type = 1;       // MSPDI numbering
  double lag_tenths = 0;       // LinkLag: tenths of a minute, or of a percent
  std::int64_t lag_format = 7;
  std::int64_t lag_days = 0;
  pugi::xml_node node;
};

struct Task {
  std::int64_t uid = 0;
  std::string_view title;  // into the XML document, or into Reader::names_
  pugi::xml_node node;     // its children are read at once; later findings look up the one they name
  std::int64_t level = 1;
  bool milestone = false;
  bool has_children = false;
  bool elapsed = false;        // its Duration is elapsed time (reported apart)
  double elapsed_days = 0;     // that time in 24-hour days (a leaf's, not a milestone's)
  bool split = false;          // its work has a gap (reported apart)
  std::size_t parent = kNone;  // index in the task list
  std::optional<std::int64_t> start;
  std::optional<std::int64_t> due;
  std::optional<std::int64_t> duration;
  std::optional<std::int64_t> cost_cents;
  std::optional<std::int64_t> work_minutes;
  std::string_view notes;  // into the XML document
  std::vector<std::int64_t> resources;
  double duration_days = 0;  // for percentage lags
  // Start and Finish, read with the rest of the task while its nodes are in the cache.
  std::optional<DateTime> start_at;
  std::optional<DateTime> finish_at;
};

// Task UIDs → indices in the task list. MS Project numbers tasks 1, 2, 3…: a table indexed by
// UID holds those; a UID that is negative or far beyond the tasks read so far goes to a map
// (so a hostile UID costs no memory).
class UidIndex {
 public:
  [[nodiscard]] std::size_t find(std::int64_t uid) const {
    if (uid >= 0 && static_cast<std::uint64_t>(uid) < table_.size()) return table_[static_cast<std::size_t>(uid)];
    auto it = others_.find(uid);
    return it == others_.end() ? kNone : it->second;
  }
  [[nodiscard]] bool contains(std::int64_t uid) const { return find(uid) != kNone; }
  /// Precondition: `uid` is not in the index yet.
  void insert(std::int64_t uid, std::size_t index) {
    const std::uint64_t bound = 2 * (static_cast<std::uint64_t>(count_) + 1024);
    ++count_;
    if (uid >= 0 && static_cast<std::uint64_t>(uid) < bound) {
      // Grown to at least twice the size, so growing costs each UID a constant time.
      if (static_cast<std::uint64_t>(uid) >= table_.size())
        grow(std::max<std::size_t>(static_cast<std::size_t>(uid) + 1, 2 * table_.size()));
      table_[static_cast<std::size_t>(uid)] = index;
      return;
    }
    others_.emplace(uid, index);
  }

 private:
  void grow(std::size_t size) {
    table_.resize(size, kNone);
    // UIDs the map held that the table covers now move to it, so each UID has one home.
    for (auto it = others_.begin(); it != others_.end();) {
      if (it->first >= 0 && static_cast<std::uint64_t>(it->first) < table_.size()) {
        table_[static_cast<std::size_t>(it->first)] = it->second;
        it = others_.erase(it);
      } else {
        ++it;
      }
    }
  }

  std::vector<std::size_t> table_;
  std::unordered_map<std::int64_t, std::size_t> others_;
  std::size_t count_ = 0;
};

class Reader {
 public:
  Reader(std::string_view text, const std::string& path, const ConvertOptions& options)
      : text_(text), path_(path), lines_(text), findings_(text, path, options) {}

  Result<Conversion> run();

 private:
  void report(std::string_view rule, pugi::xml_node at, std::string message);
  [[nodiscard]] std::string task_name(const Task& task) const;
  void read_project();
  void read_tasks();
  void read_task(pugi::xml_node node);
  // The parts of read_task: what a template does not keep of a task, said as findings; its
  // duration in working days; its cost and work; the links into it.
  void report_scheduling_losses(const FirstChildren<Field>& f, pugi::xml_node node, const Task& task,
                                std::string_view start_text);
  void read_duration(const FirstChildren<Field>& f, Task& task, std::optional<double> duration_in_minutes);
  void read_amounts(const FirstChildren<Field>& f, Task& task);
  void read_links(const Task& task);
  void read_resources();
  void read_assignments();
  // The project calendar's recurring exceptions, over the dates the calendar block records.
  void expand_calendar();
  // An assigned resource whose calendar works other days or hours than the project's, over
  // the dates of its tasks.
  void report_resource_calendars();
  void report_calendar_notes(std::vector<mspdi::CalendarNote>& notes);
  // A gap in the work of an assignment (a split task) is reported on its task, once.
  void report_split(Task& task, pugi::xml_node assignment);
  void place_tasks();
  // A leaf whose Duration differs from the working days its Start and Finish span.
  void report_duration_spans();
  void report_elapsed(const Task& task, double days, std::optional<std::int64_t> span = std::nullopt);
  void place_elapsed(Task& task);
  [[nodiscard]] Status nest_tasks();
  // Writing the template: the links out of each task; the parents' dates and the template's
  // figures, rolled up from the tasks; then the document in its canonical order.
  struct Successors {
    std::vector<std::size_t> first;  // by task: where its links start in `links`; one more at the end
    std::vector<std::size_t> links;  // indices in links_, grouped by predecessor
  };
  struct Totals {
    std::optional<std::int64_t> min_start;
    std::optional<std::int64_t> max_due;
    std::int64_t cents = 0;
    bool any_cost = false;
  };
  [[nodiscard]] Successors successors_by_task() const;
  [[nodiscard]] Totals roll_up_parents();
  std::string write_document();
  void write_template_figures(JsonEmitter& json, const Totals& totals);
  void write_stories(JsonEmitter& json, const Successors& successors);
  void write_assignments(JsonEmitter& json) const;
  // The task a link leads into (for messages: it is looked up).
  [[nodiscard]] const Task& successor_of(const LinkIn& link) const { return tasks_[by_uid_.find(link.successor)]; }
  void write_story_head(JsonEmitter& json, std::size_t index);
  void write_story_tail(JsonEmitter& json, std::size_t index, std::span<const std::size_t> successors);

  std::string_view text_;
  const std::string& path_;
  json::LineIndex lines_;
  detail::FindingSink findings_;
  pugi::xml_document xml_;
  pugi::xml_node project_;

  double minutes_per_day_ = 480;
  std::optional<DateTime> project_start_;
  std::optional<Date> first_date_;  // the span of the tasks' starts and finishes
  std::optional<Date> last_date_;
  std::optional<std::int64_t> calendar_uid_;  // the project calendar's
  mspdi::WorkCalendar calendar_;
  std::optional<CalendarBlock> calendar_block_;  // what the template records of the calendar
  std::vector<Task> tasks_;
  std::vector<LinkIn> links_;                  // every task's, in the order of the tasks
  std::vector<pugi::xml_node> link_elements_;  // the <PredecessorLink> elements of the task being read
  std::deque<std::string> names_;              // titles made up for tasks without a name
  UidIndex by_uid_;
  std::map<std::int64_t, std::string> resources_;              // by UID, named resources only
  std::map<std::int64_t, pugi::xml_node> resource_calendars_;  // by resource UID: a <CalendarUID> not the project's
};

void Reader::report(std::string_view rule, pugi::xml_node at, std::string message) {
  findings_.report(rule, at ? at.offset_debug() : -1, std::move(message));
}

std::string Reader::task_name(const Task& task) const {
  return "task " + std::to_string(task.uid) + " \"" + std::string(task.title) + "\"";
}

Result<Conversion> Reader::run() {
  // pugixml's defaults (entities and character references decoded, CDATA kept, line ends
  // normalised) with the document type declaration kept to report it, and each element's
  // leading character data stored in the element itself: half the nodes to build and to visit.
  const pugi::xml_parse_result parsed =
      xml_.load_buffer(text_.data(), text_.size(), pugi::parse_default | pugi::parse_doctype | pugi::parse_embed_pcdata,
                       pugi::encoding_auto);
  if (!parsed) {
    const json::Position p = lines_.position(static_cast<std::uint64_t>(std::max<std::ptrdiff_t>(parsed.offset, 0)));
    return Error::invalid(format_place(path_, p.line, p.column) + ": not well-formed XML: " + parsed.description());
  }
  if (auto error = detail::check_xml_text(xml_, parsed, text_, path_)) return *error;
  project_ = xml_.document_element();
  if (std::string_view(project_.name()) != "Project" ||
      std::string_view(project_.attribute("xmlns").as_string()) != "http://schemas.microsoft.com/project") {
    return Error::invalid(path_ + ": not a Microsoft Project XML file (its root element is <" +
                          std::string(project_.name()) +
                          ">, not <Project xmlns=\"http://schemas.microsoft.com/project\">)");
  }
  for (pugi::xml_node node : xml_.children())
    if (node.type() == pugi::node_doctype)
      report("mspdi-doctype", node, "the document type declaration is ignored: no DTD or entity is processed");

  read_project();
  read_tasks();
  expand_calendar();
  read_resources();
  read_assignments();
  report_resource_calendars();
  place_tasks();
  if (Status nested = nest_tasks(); !nested.ok()) return nested.error();
  report_duration_spans();
  Conversion out;
  out.document = write_document();
  out.diagnostics = findings_.take();
  if (calendar_block_) {
    out.day_zero = calendar_block_->start;
    out.day_zero_source = project_start_ ? "the plan's start" : "the earliest task's start; the file has no StartDate";
  }
  return out;
}

void Reader::read_project() {
  if (auto mpd = child_number(project_, "MinutesPerDay"); mpd && *mpd > 0) minutes_per_day_ = *mpd;
  project_start_ = mspdi::parse_datetime(child_text(project_, "StartDate"));
  std::vector<mspdi::CalendarNote> notes;
  calendar_uid_ = child_int(project_, "CalendarUID");
  if (calendar_uid_) calendar_ = mspdi::WorkCalendar::read(project_.child("Calendars"), *calendar_uid_, notes);
  report_calendar_notes(notes);
}

void Reader::report_calendar_notes(std::vector<mspdi::CalendarNote>& notes) {
  for (mspdi::CalendarNote& note : notes)
    report("mspdi-calendar-recurrence", note.at ? note.at : project_.child("Calendars"), std::move(note.message));
  notes.clear();
}

void Reader::expand_calendar() {
  // The days DayCounter's table covers (place_tasks), one more on each side: day 0 may be the
  // day after the project start.
  const std::optional<Date> start = project_start_ ? std::optional<Date>(project_start_->date) : first_date_;
  if (!start) return;
  const std::chrono::days margin{detail::DayCounter::kMarginDays + 1};
  std::vector<mspdi::CalendarNote> notes;
  calendar_.expand(std::min(first_date_.value_or(*start), *start) - margin,
                   std::max(last_date_.value_or(*start), *start) + margin, notes);
  report_calendar_notes(notes);
}

void Reader::read_tasks() {
  const pugi::xml_node tasks = project_.child("Tasks");
  // A task is a few hundred bytes here: growing the list as it fills costs more than making
  // room at once. Counting the tasks would visit each one more (a cache miss each); the last
  // task's ID, its row number, says how many there are. Only a guess: the list grows past it,
  // and a file's bytes bound it.
  const std::int64_t last_id = to_int(element_text(tasks.last_child().child("ID"))).value_or(0);
  const auto room = std::clamp<std::int64_t>(last_id + 1, 0, static_cast<std::int64_t>(text_.size() / 128));
  tasks_.reserve(static_cast<std::size_t>(room));
  links_.reserve(static_cast<std::size_t>(room));
  for (pugi::xml_node node : tasks.children("Task")) read_task(node);
}

void Reader::read_task(pugi::xml_node node) {
  link_elements_.clear();
  const FirstChildren<Field> f(node, kTaskFields, Field::PredecessorLink, &link_elements_);
  if (f.flag(Field::IsNull)) return;
  const std::optional<std::int64_t> uid = f.integer(Field::UID);
  if (!uid) {
    const std::string_view text = f.text(Field::UID);
    report("mspdi-task-uid", f.node(Field::UID) ? f.node(Field::UID) : node,
           "task \"" + std::string(f.text(Field::Name)) + "\" has " +
               (f.node(Field::UID) ? "the UID \"" + std::string(text) + "\", not an integer" : std::string("no UID")) +
               "; it is skipped (a story's temp_id is its task's UID)");
    return;
  }
  const std::int64_t level = f.integer(Field::OutlineLevel).value_or(1);
  if (*uid == 0 || level == 0) return;  // the project summary task
  Task task;
  task.uid = *uid;
  task.node = node;
  task.level = std::max<std::int64_t>(level, 1);
  task.title = f.text(Field::Name);
  if (f.node(Field::Active) && !f.flag(Field::Active)) {
    report("mspdi-inactive-task", node, task_name(task) + " is inactive and is skipped");
    return;
  }
  if (by_uid_.contains(task.uid)) {
    report("mspdi-link-invalid", node, "a second task with UID " + std::to_string(task.uid) + " is skipped");
    return;
  }
  if (task.title.find_first_not_of(" \t\r\n") == std::string::npos) {
    task.title = names_.emplace_back("Task " + std::to_string(task.uid));
    report("mspdi-untitled-task", node,
           "task " + std::to_string(task.uid) + " has no name; it is called \"" + std::string(task.title) + "\"");
  }
  const std::string_view duration_text = f.text(Field::Duration);
  const std::optional<double> duration_in_minutes = duration_minutes(duration_text);
  // MS Project shows any task of zero duration as a milestone, whatever its Milestone flag.
  task.milestone = f.flag(Field::Milestone) || duration_in_minutes == 0.0;
  task.notes = f.text(Field::Notes);

  const std::string_view start_text = f.text(Field::Start);
  report_scheduling_losses(f, node, task, start_text);
  read_duration(f, task, duration_in_minutes);
  read_amounts(f, task);
  read_links(task);
  task.start_at = mspdi::parse_datetime(start_text);
  task.finish_at = mspdi::parse_datetime(f.text(Field::Finish));
  for (auto [field, date] : {std::pair{Field::Start, &task.start_at}, std::pair{Field::Finish, &task.finish_at}}) {
    const std::string_view text = f.text(field);
    if (*date || text.find_first_not_of(" \t\r\n") == std::string_view::npos) continue;
    report("mspdi-date-invalid", f.node(field),
           task_name(task) + " has the " + (field == Field::Start ? "Start" : "Finish") + " \"" + std::string(text) +
               "\", which is not a date and time (yyyy-mm-ddThh:mm:ss); it is not read");
  }
  for (const std::optional<DateTime>& d : {task.start_at, task.finish_at}) {
    if (!d) continue;
    first_date_ = first_date_ ? std::min(*first_date_, d->date) : d->date;
    last_date_ = last_date_ ? std::max(*last_date_, d->date) : d->date;
  }
  by_uid_.insert(task.uid, tasks_.size());
  tasks_.push_back(std::move(task));
}

void Reader::report_scheduling_losses(const FirstChildren<Field>& f, pugi::xml_node node, const Task& task,
                                      std::string_view start_text) {
  // Start No Earlier Than on the task's own start is what a declared start means (SPEC §5).
  const std::int64_t constraint = f.integer(Field::ConstraintType).value_or(0);
  const bool start_no_earlier_than_start =
      constraint == 4 && std::string_view(f.text(Field::ConstraintDate)).substr(0, 10) == start_text.substr(0, 10);
  if (constraint != 0 && !start_no_earlier_than_start)
    report("mspdi-constraint", f.node(Field::ConstraintType),
           task_name(task) + " has the constraint \"" + std::string(constraint_name(constraint)) +
               "\"; only its start is kept (as a start-no-earlier-than)");
  if (f.flag(Field::Manual))
    report("mspdi-manual-task", f.node(Field::Manual),
           task_name(task) + " is manually scheduled; its dates are kept as declared");
  // Progress is a percentage, actual duration, work or cost, or an actual date. Some writers
  // fill ActualStart and ActualFinish with a placeholder (2000-01-01T00:00:00) on untouched
  // tasks; MS Project moves a task's Start to its actual start (and its Finish to its actual
  // finish), so an actual date is progress when it is the task's own Start or Finish.
  auto actual_date = [&](Field actual, Field scheduled) {
    const std::string_view text = f.text(actual);
    return !text.empty() && text == std::string_view(f.text(scheduled));
  };
  if (f.integer(Field::PercentComplete).value_or(0) > 0 || f.integer(Field::PercentWorkComplete).value_or(0) > 0 ||
      duration_minutes(f.text(Field::ActualDuration)).value_or(0) > 0 ||
      duration_minutes(f.text(Field::ActualWork)).value_or(0) > 0 || f.number(Field::ActualCost).value_or(0) != 0 ||
      actual_date(Field::ActualStart, Field::Start) || actual_date(Field::ActualFinish, Field::Finish))
    report("mspdi-progress", node,
           task_name(task) + " has progress (actual dates, cost or percent complete), which a template does not keep");
  if (const auto calendar = f.integer(Field::CalendarUID); calendar && *calendar >= 0 && calendar != calendar_uid_)
    report("mspdi-task-calendar", f.node(Field::CalendarUID),
           task_name(task) + " has its own calendar (UID " + std::to_string(*calendar) +
               "); the project calendar is used");
}

void Reader::read_duration(const FirstChildren<Field>& f, Task& task, std::optional<double> duration_in_minutes) {
  const std::string_view text = f.text(Field::Duration);
  auto invalid = [&](std::string_view why) {
    report("mspdi-duration-invalid", f.node(Field::Duration),
           task_name(task) + " has the duration \"" + std::string(text) + "\", " + std::string(why) +
               "; the story has no duration");
  };
  if (!duration_in_minutes) {
    // Years and months have no fixed length; an infinite number is none either.
    if (!text.empty()) invalid("which is not a duration ptmpl reads (PT…H…M…S or P…D, finite)");
    return;
  }
  const int format = base_format(f.integer(Field::DurationFormat).value_or(7));
  const bool elapsed = is_elapsed(format);
  task.elapsed = elapsed;
  const double days = *duration_in_minutes / (elapsed ? 24 * 60 : minutes_per_day_);
  const double whole = std::ceil(days - 1e-9);
  const bool in_range = days >= 0 && whole < 1e12;
  if (task.milestone) {
    if (elapsed && in_range) report_elapsed(task, days);
    task.duration_days = days;
    return;
  }
  if (!in_range) {
    invalid("which no story can hold (0 to 10^12 working days)");
    return;
  }
  task.duration_days = days;
  // An elapsed duration is reported once the task is placed (place_tasks): its Start and
  // Finish say how many working days it covers.
  if (elapsed) {
    task.elapsed_days = days;
    task.duration = static_cast<std::int64_t>(whole);
    return;
  }
  if (std::fabs(whole - days) > 1e-9)
    report("mspdi-fractional-duration", f.node(Field::Duration),
           task_name(task) + " lasts " + std::to_string(days).substr(0, std::to_string(days).find('.') + 3) +
               " working days; it is rounded up to " + std::to_string(static_cast<long long>(whole)));
  task.duration = static_cast<std::int64_t>(whole);
}

// Cost (hundredths of the currency unit: cents) and work.
void Reader::read_amounts(const FirstChildren<Field>& f, Task& task) {
  if (auto cost = f.number(Field::Cost)) {
    const double rounded = std::round(*cost);
    if (std::fabs(rounded - *cost) > 1e-6)
      report("mspdi-cost-fraction", f.node(Field::Cost),
             task_name(task) + " costs " + std::string(f.text(Field::Cost)) + " hundredths; rounded to a whole cent");
    if (rounded > 0 && rounded < 9.2e18)
      task.cost_cents = static_cast<std::int64_t>(rounded);
    else if (rounded != 0)  // also NaN
      report("mspdi-cost-invalid", f.node(Field::Cost),
             task_name(task) + " costs " + std::string(f.text(Field::Cost)) +
                 " hundredths, which a budget estimate cannot hold (0 to 9.2·10^18 cents); the story has no budget");
  }
  if (auto work = duration_minutes(f.text(Field::Work)); work && *work > 0) {
    const double minutes = std::round(*work);
    if (minutes <= 2147483647.0)
      task.work_minutes = static_cast<std::int64_t>(minutes);
    else
      report("mspdi-work-overflow", f.node(Field::Work), task_name(task) + " has more work than a time estimate holds");
  }
}

void Reader::read_links(const Task& task) {
  for (pugi::xml_node link : link_elements_) {
    const FirstChildren<LinkField> l(link, kLinkFields);
    LinkIn in;
    in.node = link;
    const auto predecessor = l.integer(LinkField::PredecessorUID);
    if (!predecessor) {
      report("mspdi-link-invalid", link, "a link into " + task_name(task) + " names no predecessor; it is dropped");
      continue;
    }
    in.predecessor = *predecessor;
    in.successor = task.uid;
    in.type = l.integer(LinkField::Type).value_or(1);
    if (in.type < 0 || in.type > 3) {
      report("mspdi-link-invalid", l.node(LinkField::Type),
             "a link into " + task_name(task) + " has the unknown type " + std::to_string(in.type) + "; it is dropped");
      continue;
    }
    if (l.flag(LinkField::CrossProject)) {
      report("mspdi-cross-project-link", link,
             "a link into " + task_name(task) + " comes from another project (" +
                 std::string(l.text(LinkField::CrossProjectName)) + "); it is dropped");
      continue;
    }
    const std::optional<double> lag = l.number(LinkField::LinkLag);
    const std::string_view lag_text = l.text(LinkField::LinkLag);
    if (!lag && !lag_text.empty())
      report("mspdi-lag-invalid", l.node(LinkField::LinkLag),
             "a link into " + task_name(task) + " has the LinkLag \"" + std::string(lag_text) +
                 "\", which is not a finite number; the link is written with lag 0");
    in.lag_tenths = lag.value_or(0);
    in.lag_format = l.integer(LinkField::LagFormat).value_or(7);
    links_.push_back(in);
  }
}

void Reader::read_resources() {
  for (pugi::xml_node node : project_.child("Resources").children("Resource")) {
    const auto uid = child_int(node, "UID");
    const std::string_view name = child_text(node, "Name");
    if (!uid || *uid < 0 || child_flag(node, "IsNull") || name.empty()) continue;
    resources_.emplace(*uid, std::string(name));
    if (const auto calendar = child_int(node, "CalendarUID"); calendar && *calendar >= 0 && calendar != calendar_uid_)
      resource_calendars_.emplace(*uid, node.child("CalendarUID"));
    if (child_number(node, "StandardRate").value_or(0) != 0 || child_number(node, "OvertimeRate").value_or(0) != 0 ||
        child_number(node, "CostPerUse").value_or(0) != 0)
      report("mspdi-resource-rates", node,
             "resource " + std::to_string(*uid) + " \"" + std::string(name) +
                 "\" has rates, which a template does not keep");
  }
}

void Reader::read_assignments() {
  for (pugi::xml_node node : project_.child("Assignments").children("Assignment")) {
    const FirstChildren<AssignmentField> a(node, kAssignmentFields);
    const auto task = a.integer(AssignmentField::TaskUID);
    const auto resource = a.integer(AssignmentField::ResourceUID);
    if (!task || !resource) continue;
    const std::size_t t = by_uid_.find(*task);
    if (t != kNone && !tasks_[t].split) report_split(tasks_[t], node);
    if (t == kNone || *resource == kNoResource || resources_.count(*resource) == 0) continue;
    std::vector<std::int64_t>& list = tasks_[t].resources;
    if (std::find(list.begin(), list.end(), *resource) == list.end()) list.push_back(*resource);
  }
}

void Reader::report_resource_calendars() {
  if (resource_calendars_.empty()) return;
  // The dates of each resource's tasks.
  std::map<std::int64_t, std::pair<Date, Date>> spans;
  for (const Task& task : tasks_) {
    if (!task.start_at) continue;
    const Date from = task.start_at->date;
    const Date to = task.finish_at ? std::max(task.finish_at->date, from) : from;
    for (const std::int64_t resource : task.resources) {
      if (resource_calendars_.count(resource) == 0) continue;
      auto [it, added] = spans.try_emplace(resource, from, to);
      if (!added) it->second = {std::min(it->second.first, from), std::max(it->second.second, to)};
    }
  }
  const pugi::xml_node calendars = project_.child("Calendars");
  auto hours = [](const mspdi::DayRule& day) {
    if (!day.working) return std::string("does not work");
    auto clock = [](int minute) {
      const std::string h = std::to_string(minute / 60);
      const std::string m = std::to_string(minute % 60);
      return (h.size() < 2 ? "0" + h : h) + ":" + (m.size() < 2 ? "0" + m : m);
    };
    return "works between " + clock(day.start) + " and " + clock(day.end);
  };
  // Each day compared costs a look at both calendars: a file of many resources over centuries
  // is compared up to a bound, then said to differ by its definition alone.
  std::int64_t budget = 4'000'000;
  for (const auto& [resource, span] : spans) {
    const pugi::xml_node at = resource_calendars_.at(resource);
    const std::int64_t uid = at.text().as_llong();
    if (calendar_uid_ && mspdi::WorkCalendar::plain_child_of(calendars, uid, *calendar_uid_)) continue;
    const std::string who = "resource " + std::to_string(resource) + " \"" + resources_.at(resource) +
                            "\" works on a calendar of its own (UID " + std::to_string(uid) + ")";
    const std::string kept = "; the tasks it works on keep their dates as working days of the project calendar";
    const std::int64_t length = (span.second - span.first).count() + 1;
    if ((budget -= length) < 0) {
      report("mspdi-resource-calendar", at,
             who + ", not compared day by day with the project calendar (too many days of resource calendars)" + kept);
      continue;
    }
    std::vector<mspdi::CalendarNote> ignored;  // its own recurrences' notes: the finding covers them
    mspdi::WorkCalendar own = mspdi::WorkCalendar::read(calendars, uid, ignored);
    own.expand(span.first, span.second, ignored);
    std::optional<Date> first_difference;
    std::int64_t differences = 0;
    for (Date d = span.first; d <= span.second; d += std::chrono::days{1}) {
      const mspdi::DayRule mine = own.day(d);
      const mspdi::DayRule project = calendar_.day(d);
      const bool same = mine.working == project.working &&
                        (!mine.working || (mine.start == project.start && mine.end == project.end));
      if (same) continue;
      if (!first_difference) first_difference = d;
      ++differences;
    }
    if (!first_difference) continue;
    report("mspdi-resource-calendar", at,
           who + ", which differs from the project calendar over its tasks' dates (" + format_date(span.first) +
               " to " + format_date(span.second) + "): on " + format_date(*first_difference) + " the resource " +
               hours(own.day(*first_difference)) + " and the project " + hours(calendar_.day(*first_difference)) +
               (differences > 1 ? " (" + std::to_string(differences) + " days differ)" : std::string()) + kept);
  }
}

// MS Project keeps a split task's pieces in its assignments' timephased work (Type 1, work
// still to do; Type 2, work done): a period without work, on working time of the project
// calendar, between periods with work, is a gap the task's one stretch of days cannot hold.
void Reader::report_split(Task& task, pugi::xml_node assignment) {
  // Whether [from, to) holds working time of the project calendar; a period longer than
  // 400 days is taken to (it is no gap MS Project writes, and walking it would cost).
  auto working_time = [&](const DateTime& from, const DateTime& to) {
    if ((to.date - from.date).count() > 400) return true;
    for (Date d = from.date; d <= to.date; d += std::chrono::days{1}) {
      const mspdi::DayRule day = calendar_.day(d);
      const int lo = d == from.date ? from.minute : 0;
      const int hi = d == to.date ? to.minute : 24 * 60;
      if (day.working && std::max(lo, day.start) < std::min(hi, day.end)) return true;
    }
    return false;
  };
  // The day a period's working time is on: its own, or the next when it begins at or after
  // the end of the day's work (MS Project's periods run from 17:00 to 17:00).
  auto first_working = [&](DateTime at) {
    if (const mspdi::DayRule day = calendar_.day(at.date); day.working && at.minute < day.end) return at;
    for (int i = 0; i < 400; ++i)  // a week, unless exceptions close more days
      if (calendar_.working(at.date += std::chrono::days{1})) break;
    at.minute = 0;
    return at;
  };
  for (const std::int64_t type : {1, 2}) {
    bool worked = false;               // a period with work came before
    std::optional<DateTime> gap_from;  // the first idle working time since
    pugi::xml_node gap_at;
    for (pugi::xml_node period : assignment.children("TimephasedData")) {
      if (child_int(period, "Type") != type) continue;
      const auto from = mspdi::parse_datetime(child_text(period, "Start"));
      const auto to = mspdi::parse_datetime(child_text(period, "Finish"));
      if (!from || !to || to->date < from->date) continue;
      if (duration_minutes(child_text(period, "Value")).value_or(0) > 0) {
        if (worked && gap_from) {
          task.split = true;
          report("mspdi-split-task", gap_at,
                 task_name(task) + " is split: it does no work from " + format_date(gap_from->date) +
                     " and resumes on " + format_date(first_working(*from).date) +
                     "; a story is one stretch of working days: it keeps its Start and Finish and lasts "
                     "their span, pause included");
          return;
        }
        worked = true;
      } else if (worked && !gap_from && working_time(*from, *to)) {
        gap_from = first_working(*from);
        gap_at = period;
      }
    }
  }
}

// An elapsed duration runs through nights, weekends and holidays: the working days it covers
// depend on where it lies. Placed by MS Project, its Start and Finish say which: the story lasts
// that span, so that it keeps its dates (mspdiduration.xml: 7 elapsed days from a Wednesday
// cover 5 working days). Without both dates, its calendar days count as working days.
void Reader::place_elapsed(Task& task) {
  const bool placed = task.start && task.due;
  if (placed) task.duration = *task.due - *task.start + 1;
  report_elapsed(task, task.elapsed_days, placed ? task.duration : std::nullopt);
  if (!placed && std::fabs(static_cast<double>(*task.duration) - task.elapsed_days) > 1e-9)
    report("mspdi-fractional-duration", task.node.child("Duration"),
           task_name(task) + " lasts " +
               std::to_string(task.elapsed_days).substr(0, std::to_string(task.elapsed_days).find('.') + 3) +
               " days; it is rounded up to " + std::to_string(*task.duration));
}

void Reader::report_elapsed(const Task& task, double days, std::optional<std::int64_t> span) {
  const std::string calendar_days = std::to_string(static_cast<long long>(std::ceil(days - 1e-9)));
  report("mspdi-elapsed-duration", task.node.child("Duration"),
         task_name(task) + " has an elapsed duration (" + calendar_days + " calendar day" +
             (calendar_days == "1" ? "" : "s") + "); " +
             (span ? "the story lasts the " + std::to_string(*span) + " working day" + (*span == 1 ? "" : "s") +
                         " its Start and Finish span"
                   : "its calendar days are counted as working days"));
}

// A leaf keeps MS Project's Start and Finish: its `duration` is the working days they span, so
// that a schedule reproduces them (SPEC §5 takes the duration). When its Duration says
// otherwise (MPXJ's `sample.xml` "Second Task": 100 days over 50; a resource calendar or
// assignment units stretch or squeeze the task; a fraction of a day rounded up), the span wins
// and the finding names the Duration it replaces. Split tasks and elapsed durations have
// findings of their own; a milestone has no length.
void Reader::report_duration_spans() {
  for (Task& task : tasks_) {
    if (task.has_children || task.milestone || task.elapsed) continue;
    if (!task.start || !task.due || !task.duration) continue;
    const std::int64_t span = *task.due - *task.start + 1;
    if (span == *task.duration) continue;
    const std::int64_t duration = *task.duration;
    task.duration = span;
    if (task.split) continue;
    const pugi::xml_node node = task.node.child("Duration");
    report("mspdi-duration-span", node ? node : task.node,
           task_name(task) + " lasts " + std::to_string(duration) + " working day" + (duration == 1 ? "" : "s") +
               " (its Duration), but its Start and Finish (" + format_date(task.start_at->date) + " to " +
               format_date(task.finish_at->date) + ") span " + std::to_string(span) +
               "; the story keeps the dates and lasts " + std::to_string(span));
  }
}

// Start and Finish → working-day offsets; lags → working days.
void Reader::place_tasks() {
  const std::optional<Date>& first = first_date_;
  const std::optional<Date>& last = last_date_;
  const Date start = project_start_ ? project_start_->date : first.value_or(Date{});
  // Day 0: the project start, moved to the next working day when it is not one (or when the
  // project starts after the end of its first day's working time).
  Date zero = start;
  if (project_start_ && project_start_->minute >= calendar_.day(zero).end) zero += std::chrono::days{1};
  const Date lo = first ? std::min(*first, zero) : zero;
  const Date hi = last ? std::max(*last, zero) : zero;
  if ((hi - lo).count() > 366 * 400) {
    report("mspdi-task-calendar", project_, "the plan's dates span more than 400 years; dates are not converted");
    return;
  }
  const detail::DayCounter counter([this](Date d) { return calendar_.working(d); }, zero, lo, hi);
  // SPEC §7: the template keeps the plan's day 0, week and exceptions (over the dates counted).
  // A file with neither a StartDate nor a dated task has no day 0 to record.
  if ((project_start_ || first) && !calendar_.week().empty())
    calendar_block_ = counter.calendar_block(counter.day_zero(), calendar_.week());

  for (std::size_t i = 0; i < tasks_.size(); ++i) {
    Task& task = tasks_[i];
    const std::optional<DateTime>& s = task.start_at;
    const std::optional<DateTime>& f = task.finish_at;
    if (!s) continue;
    const mspdi::DayRule day = calendar_.day(s->date);
    const bool after_hours = !day.working || s->minute >= day.end;
    if (!day.working)
      report("mspdi-off-calendar", task.node.child("Start"),
             task_name(task) + " starts on " + format_date(s->date) +
                 ", not a working day of the project calendar; it starts on the next working day");
    task.start = after_hours ? counter.offset_on_or_after(s->date + std::chrono::days{day.working ? 1 : 0})
                             : counter.offset_on_or_after(s->date);
    if (task.milestone) {
      task.due = task.start;
      continue;
    }
    if (!f) continue;
    const mspdi::DayRule finish_day = calendar_.day(f->date);
    const bool before_hours = !finish_day.working || f->minute <= finish_day.start;
    if (!finish_day.working)
      report("mspdi-off-calendar", task.node.child("Finish"),
             task_name(task) + " finishes on " + format_date(f->date) +
                 ", not a working day of the project calendar; it finishes on the previous working day");
    std::int64_t due = before_hours
                           ? counter.offset_on_or_before(f->date - std::chrono::days{finish_day.working ? 1 : 0})
                           : counter.offset_on_or_before(f->date);
    if (due < *task.start) {  // zero-length task: no day of its own
      task.duration = task.duration.value_or(0);
      continue;
    }
    task.due = due;
  }
  for (Task& task : tasks_)
    if (task.elapsed && !task.milestone && task.duration) place_elapsed(task);

  // Lags in working days (percentages against the predecessor's duration).
  for (LinkIn& link : links_) {
    const double tenths = link.lag_tenths;
    const int format = base_format(link.lag_format);
    double days = tenths / 10 / minutes_per_day_;
    if (is_percent(format)) {
      const std::size_t predecessor = by_uid_.find(link.predecessor);
      const double pct = tenths / 10;
      days = predecessor == kNone ? 0 : pct / 100 * tasks_[predecessor].duration_days;
    } else if (is_elapsed(format)) {
      days = tenths / 10 / (24 * 60);
      if (tenths != 0)
        report("mspdi-elapsed-lag", link.node.child("LinkLag"),
               "the lag of a link into " + task_name(successor_of(link)) +
                   " is elapsed time; its calendar days count as working days");
    }
    const double whole = std::round(days);
    if (!(std::fabs(whole) < 1e12)) {
      report("mspdi-lag-invalid", link.node.child("LinkLag"),
             "the lag of a link into " + task_name(successor_of(link)) + " (LinkLag " +
                 std::string(element_text(link.node.child("LinkLag"))) +
                 ") is beyond a lag's range (10^12 working days either way); the link is written with lag 0");
      link.lag_days = 0;
      continue;
    }
    if (std::fabs(whole - days) > 1e-9)
      report("mspdi-fractional-lag", link.node.child("LinkLag"),
             "the lag of a link into " + task_name(successor_of(link)) +
                 " is not a whole number of days; it is rounded to " + std::to_string(static_cast<long long>(whole)));
    link.lag_days = static_cast<std::int64_t>(whole);
  }
}

// The outline: each task becomes a child of the nearest task above it with a lower level.
Status Reader::nest_tasks() {
  std::vector<std::size_t> open;  // the chain of parents above the current task
  for (std::size_t i = 0; i < tasks_.size(); ++i) {
    Task& task = tasks_[i];
    while (!open.empty() && tasks_[open.back()].level >= task.level) open.pop_back();
    if (open.size() >= detail::kMaxStoryLevels) {
      const pugi::xml_node level = task.node.child("OutlineLevel");
      const pugi::xml_node at = level ? level : task.node;
      const json::Position p =
          lines_.position(static_cast<std::uint64_t>(std::max<std::ptrdiff_t>(at.offset_debug(), 0)));
      return detail::too_deep_error(format_place(path_, p.line, p.column), task_name(task), open.size() + 1);
    }
    if (!open.empty() && task.level > tasks_[open.back()].level + 1)
      report("mspdi-outline-gap", task.node.child("OutlineLevel"),
             task_name(task) + " is at outline level " + std::to_string(task.level) + ", more than one below " +
                 task_name(tasks_[open.back()]) + "; it becomes its sub-story");
    else if (open.empty() && task.level > 1)
      report("mspdi-outline-gap", task.node.child("OutlineLevel"),
             task_name(task) + " is at outline level " + std::to_string(task.level) +
                 " with no task above it; it becomes a top-level story");
    if (!open.empty()) {
      task.parent = open.back();
      // A parent's dates become its children's span (see write_document()).
      Task& parent = tasks_[open.back()];
      parent.has_children = true;
      parent.start.reset();
      parent.due.reset();
    }
    open.push_back(i);
  }
  // Links, with the names of their ends known.
  for (LinkIn& link : links_) {
    link.from = by_uid_.find(link.predecessor);
    if (link.from == kNone)
      report("mspdi-link-invalid", link.node,
             "a link into " + task_name(successor_of(link)) + " names task " + std::to_string(link.predecessor) +
                 ", which is not in the plan; it is dropped");
  }
  return Done{};
}

// Outgoing links by predecessor, in the order the successors come: counted, then placed.
Reader::Successors Reader::successors_by_task() const {
  Successors out;
  out.first.assign(tasks_.size() + 1, 0);
  for (const LinkIn& link : links_)
    if (link.from != kNone) ++out.first[link.from + 1];
  for (std::size_t i = 0; i < tasks_.size(); ++i) out.first[i + 1] += out.first[i];
  out.links.resize(out.first.back());
  std::vector<std::size_t> next(out.first.begin(), out.first.end() - 1);
  for (std::size_t l = 0; l < links_.size(); ++l)
    if (links_[l].from != kNone) out.links[next[links_[l].from]++] = l;
  return out;
}

// A parent's dates are its children's span (SPEC §5 rolls parents up; a milestone that ends
// a phase at 17:00 sits on the next working day, so the phase's own Finish may be a day short;
// nest_tasks() cleared them). Tasks are in outline order, children after their parent: going
// backwards, a task is complete when it is reached, and adds itself to its parent. The
// template's figures, which come before raw_json in canonical order, are added up on the way.
// Costs are positive: their saturating sums do not depend on the order of the terms.
Reader::Totals Reader::roll_up_parents() {
  Totals totals;
  std::vector<std::int64_t> subtree_cents(tasks_.size(), 0);
  for (std::size_t i = tasks_.size(); i-- > 0;) {
    const Task& task = tasks_[i];
    if (task.has_children) {
      if (task.cost_cents.value_or(0) != subtree_cents[i])
        report("mspdi-summary-cost", task.node.child("Cost"),
               task_name(task) + " costs " + std::to_string(task.cost_cents.value_or(0)) + " cents, its tasks " +
                   std::to_string(subtree_cents[i]) + "; the template keeps its tasks' costs (and rolls them up)");
    } else {
      subtree_cents[i] = task.cost_cents.value_or(0);
      if (task.cost_cents) {
        totals.cents = add_cents(totals.cents, *task.cost_cents);
        totals.any_cost = true;
      }
      if (task.start) {
        const std::int64_t due = task.due.value_or(*task.start);
        totals.min_start = totals.min_start ? std::min(*totals.min_start, *task.start) : *task.start;
        totals.max_due = totals.max_due ? std::max(*totals.max_due, due) : due;
      }
    }
    if (task.parent == kNone) continue;
    Task& parent = tasks_[task.parent];
    subtree_cents[task.parent] = add_cents(subtree_cents[task.parent], subtree_cents[i]);
    if (!task.start) continue;
    // A zero-length task occupies its start day, like a milestone (SPEC §4).
    const std::int64_t due = task.due.value_or(*task.start);
    parent.start = parent.start ? std::min(*parent.start, *task.start) : *task.start;
    parent.due = parent.due ? std::max(*parent.due, due) : due;
  }
  return totals;
}

std::string Reader::write_document() {
  const Successors successors = successors_by_task();
  const Totals totals = roll_up_parents();
  // A task takes more bytes in MSPDI (a dozen elements, each named twice) than as a story: the
  // size of the file is room enough for the template, made at once.
  JsonEmitter json(JsonLayout::Pretty, text_.size());
  json.begin_object();
  json.key("project_template");
  json.begin_object();
  write_template_figures(json, totals);
  json.key("raw_json");
  json.begin_array();
  write_stories(json, successors);
  json.end_array();
  json.end_object();
  write_assignments(json);
  if (calendar_block_) {
    json::Arena arena;
    json.key("calendar");
    write_value(json, to_json(*calendar_block_, json::Builder(arena)));
  }
  json.end_object();
  return json.finish();
}

// The project_template's keys before raw_json: title, budget, currency, duration, item_count.
void Reader::write_template_figures(JsonEmitter& json, const Totals& totals) {
  std::string_view title = child_text(project_, "Title");
  if (title.empty()) title = child_text(project_, "Name");
  std::string file_title;  // `title` may point into it: it lives as long as `title` is used
  if (title.empty()) {
    file_title = path_.substr(path_.find_last_of('/') + 1);
    title = file_title = file_title.substr(0, file_title.find_last_of('.'));
  }
  json.member("title", title);
  if (totals.any_cost) {
    json.key("is_budgeted");
    json.boolean(true);
    json.key("budget");
    json.number(cents_to_budget(totals.cents));
  }
  const std::string_view currency = child_text(project_, "CurrencyCode");
  if (!currency.empty()) {
    if (is_currency_code(currency))
      json.member("currency", currency);
    else
      report("mspdi-currency", project_.child("CurrencyCode"),
             "the project's currency \"" + std::string(currency) + "\" is not an ISO 4217 code; the template has none");
  }
  if (totals.min_start && totals.max_due) json.member("duration", *totals.max_due - *totals.min_start + 1);
  json.member("item_count", static_cast<std::int64_t>(tasks_.size()));
}

// The stories in outline order, which is the order of the tasks: a story's keys up to
// sub_stories, its children, then the keys after sub_stories once the next task is not among
// its children. `open` is the chain of stories being written (outline levels can be as deep as
// a file makes them).
void Reader::write_stories(JsonEmitter& json, const Successors& successors) {
  std::vector<std::size_t> open;
  auto close_story = [&] {
    const std::size_t t = open.back();
    write_story_tail(json, t,
                     std::span<const std::size_t>(successors.links)
                         .subspan(successors.first[t], successors.first[t + 1] - successors.first[t]));
    open.pop_back();
  };
  for (std::size_t i = 0; i < tasks_.size(); ++i) {
    // Titles point into the XML text, long out of the cache by now: fetched a few stories ahead.
    if (i + 8 < tasks_.size()) __builtin_prefetch(tasks_[i + 8].title.data());
    while (!open.empty() && open.back() != tasks_[i].parent) close_story();
    write_story_head(json, i);
    open.push_back(i);
  }
  while (!open.empty()) close_story();
}

// The plan's named resources as the template's assignees.
void Reader::write_assignments(JsonEmitter& json) const {
  if (resources_.empty()) return;
  json.key("project_template_assignments");
  json.begin_array();
  for (const auto& [uid, name] : resources_) {
    json.begin_object();
    json.member("id", uid);
    json.member("name", name);
    json.end_object();
  }
  json.end_array();
}

// A story's keys before its sub-stories, and the opening of sub_stories when it has some.
void Reader::write_story_head(JsonEmitter& json, std::size_t index) {
  const Task& task = tasks_[index];
  const bool parent = task.has_children;
  json.begin_object();
  if (task.milestone && !parent) json.member("story_type", "milestone");
  json.member("title", task.title);
  json.member("temp_id", task.uid);
  if (task.start) json.member("relative_start_date", *task.start);
  if (task.due) json.member("relative_due_date", *task.due);
  std::optional<std::int64_t> duration = task.milestone ? std::optional<std::int64_t>(0) : task.duration;
  if (parent && task.start && task.due) duration = *task.due - *task.start + 1;
  if (duration) json.member("duration", *duration);
  if (!task.notes.empty()) json.member("description", task.notes);
  if (!parent && task.cost_cents) json.member("budget_estimate_in_cents", *task.cost_cents);
  if (!parent && task.work_minutes) json.member("time_estimate_in_minutes", *task.work_minutes);
  if (parent) {
    json.key("sub_stories");
    json.begin_array();
  }
}

// The keys after sub_stories (assignments, dependencies), and the story's end. `successors`:
// the links out of the task, as indices in links_.
void Reader::write_story_tail(JsonEmitter& json, std::size_t index, std::span<const std::size_t> successors) {
  const Task& task = tasks_[index];
  if (task.has_children) json.end_array();
  if (!task.resources.empty()) {
    json.key("assignments");
    json.begin_array();
    for (std::int64_t r : task.resources) {
      json.begin_object();
      json.member("assignee_id", r);
      json.end_object();
    }
    json.end_array();
  }
  if (!successors.empty()) {
    json.key("dependencies");
    json.begin_array();
    for (std::size_t l : successors) {
      const LinkIn& link = links_[l];
      json.begin_object();
      json.member("source_id", task.uid);
      json.member("target_id", link.successor);
      json.member("type", kServiceLinkType[link.type]);
      json.member("lag", link.lag_days);
      json.end_object();
    }
    json.end_array();
  }
  json.end_object();
}

}  // namespace

Result<Conversion> convert_mspdi(std::string_view text, const std::string& path, const ConvertOptions& options) {
  return Reader(text, path, options).run();
}

}  // namespace ptmpl
