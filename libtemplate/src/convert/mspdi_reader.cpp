// Microsoft Project XML (MSPDI) → the plan model (docs/semantics.md §7), which the one builder turns into a
// template (convert/plan/builder.hpp). This file knows MSPDI's elements and their spelling; what
// a template makes of a task, a link or a calendar is the builder's.
#include "convert/mspdi_reader.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "convert/findings.hpp"
#include "convert/mspdi_fields.hpp"
#include "convert/plan/builder.hpp"
#include "convert/xml_text.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/diagnostic.hpp"
#include "libtemplate/core/json.hpp"

namespace ptmpl {

namespace {

using plan::Place;
using plan::TaskField;

std::string_view child_text(pugi::xml_node node, const char* name) {
  return node.child(name).text().as_string();
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
        if (repeated != nullptr) repeated->push_back(child);
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

Place place_of(pugi::xml_node node) {
  return node ? Place::offset(node.offset_debug()) : Place{};
}

// The working day a <WeekDay> or <Exception> describes: DayWorking and its working times.
plan::DayRule day_rule(pugi::xml_node node) {
  plan::DayRule rule;
  rule.working = child_int(node, "DayWorking").value_or(0) == 1;
  int first = 24 * 60;
  int last = 0;
  for (pugi::xml_node time : node.child("WorkingTimes").children("WorkingTime")) {
    const auto from = plan::parse_time(child_text(time, "FromTime"));
    const auto to = plan::parse_time(child_text(time, "ToTime"));
    if (!from || !to) continue;
    first = std::min(first, *from);
    last = std::max(last, *to == 0 ? 24 * 60 : *to);  // 00:00 as an end is midnight
  }
  if (first < last) {
    rule.start = first;
    rule.end = last;
  }
  return rule;
}

// A <TimePeriod>'s dates.
std::pair<std::optional<Date>, std::optional<Date>> period_dates(pugi::xml_node period) {
  const auto from = plan::parse_datetime(child_text(period, "FromDate"));
  const auto to = plan::parse_datetime(child_text(period, "ToDate"));
  if (!from || !to) return {};
  return {from->date, to->date};
}

plan::RecurrenceField recurrence_field(pugi::xml_node exception, const char* name) {
  const pugi::xml_node node = exception.child(name);
  if (!node) return {};
  return {true, child_int(exception, name), child_text(exception, name)};
}

// Every <Calendar> with a UID, in the file's order.
std::vector<plan::Calendar> read_calendar_list(pugi::xml_node calendars) {
  std::vector<plan::Calendar> out;
  for (pugi::xml_node node : calendars.children("Calendar")) {
    const auto uid = child_int(node, "UID");
    if (!uid) continue;
    plan::Calendar& calendar = out.emplace_back();
    calendar.uid = *uid;
    calendar.base_uid = child_int(node, "BaseCalendarUID");
    calendar.is_base = child_int(node, "IsBaseCalendar").value_or(0) == 1;
    calendar.place = place_of(node);
    calendar.has_work_weeks = static_cast<bool>(node.child("WorkWeeks").child("WorkWeek"));
    for (pugi::xml_node weekday : node.child("WeekDays").children("WeekDay")) {
      plan::WeekDay& day = calendar.week_days.emplace_back();
      day.type = child_int(weekday, "DayType").value_or(-1);
      day.rule = day_rule(weekday);
      if (day.type == 0) std::tie(day.from, day.to) = period_dates(weekday.child("TimePeriod"));
    }
    for (pugi::xml_node node_exception : node.child("Exceptions").children("Exception")) {
      plan::CalendarException& exception = calendar.exceptions.emplace_back();
      std::tie(exception.from, exception.to) = period_dates(node_exception.child("TimePeriod"));
      exception.rule = day_rule(node_exception);
      exception.name = child_text(node_exception, "Name");
      exception.type = child_int(node_exception, "Type");
      exception.period = recurrence_field(node_exception, "Period");
      exception.month = recurrence_field(node_exception, "Month");
      exception.month_day = recurrence_field(node_exception, "MonthDay");
      exception.days_of_week = recurrence_field(node_exception, "DaysOfWeek");
      exception.month_item = recurrence_field(node_exception, "MonthItem");
      exception.month_position = recurrence_field(node_exception, "MonthPosition");
      exception.place = place_of(node_exception);
    }
  }
  return out;
}

class Reader {
 public:
  Reader(std::string_view text, const std::string& path, detail::FindingSink& findings)
      : text_(text), path_(path), findings_(findings) {}

  /// The plan, or why the text is not an MSPDI project. The plan's views point into the reader.
  Result<const plan::Plan*> run();

 private:
  void report(std::string_view rule, pugi::xml_node at, std::string message) {
    findings_.report(rule, place_of(at), std::move(message));
  }
  void read_project();
  // The <ExtendedAttributes> a ptmpl export declared (by their aliases).
  void read_extended_fields();
  void read_task(pugi::xml_node node);
  void read_links(plan::Task& task);
  // A task's values of the fields read_extended_fields() found; what cannot be read is a finding.
  void read_extended_attributes(pugi::xml_node node, plan::Task& task);
  // A temp_id given twice (or a task's UID given as another's temp_id) is its UID again.
  void check_temp_ids();
  void read_resources();
  void read_assignments();

  std::string_view text_;
  const std::string& path_;
  detail::FindingSink& findings_;
  pugi::xml_document xml_;
  pugi::xml_node project_;
  plan::Plan plan_;
  std::vector<pugi::xml_node> link_elements_;  // the <PredecessorLink> elements of the task being read
  std::vector<std::pair<std::string_view, detail::mspdi::StoryField>> extended_fields_;  // by FieldID
};

Result<const plan::Plan*> Reader::run() {
  // pugixml's defaults (entities and character references decoded, CDATA kept, line ends
  // normalised) with the document type declaration kept to report it, and each element's
  // leading character data stored in the element itself: half the nodes to build and to visit.
  if (auto error =
          detail::load_xml(xml_, text_, path_, pugi::parse_default | pugi::parse_doctype | pugi::parse_embed_pcdata))
    return *error;
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
  const pugi::xml_node tasks = project_.child("Tasks");
  // A task is a few hundred bytes here: growing the list as it fills costs more than making
  // room at once. Counting the tasks would visit each one more (a cache miss each); the last
  // task's ID, its row number, says how many there are. Only a guess: the list grows past it,
  // and a file's bytes bound it.
  const std::int64_t last_id = to_int(element_text(tasks.last_child().child("ID"))).value_or(0);
  const auto room = std::clamp<std::int64_t>(last_id + 1, 0, static_cast<std::int64_t>(text_.size() / 128));
  plan_.tasks.reserve(static_cast<std::size_t>(room));
  plan_.links.reserve(static_cast<std::size_t>(room));
  for (pugi::xml_node node : tasks.children("Task")) read_task(node);
  check_temp_ids();
  read_resources();
  read_assignments();
  return &plan_;
}

void Reader::read_project() {
  plan::Project& project = plan_.project;
  project.place = place_of(project_);
  project.title = child_text(project_, "Title");
  if (project.title.empty()) project.title = child_text(project_, "Name");
  const pugi::xml_node minutes_per_day = project_.child("MinutesPerDay");
  project.minutes_per_day_text = minutes_per_day.text().as_string();
  project.minutes_per_day = to_number(project.minutes_per_day_text);
  project.minutes_per_day_place = place_of(minutes_per_day);
  project.start = plan::parse_datetime(child_text(project_, "StartDate"));
  project.calendar_uid = child_int(project_, "CalendarUID");
  const pugi::xml_node currency = project_.child("CurrencyCode");
  project.currency = currency.text().as_string();
  project.currency_place = place_of(currency);
  read_extended_fields();
  const pugi::xml_node calendars = project_.child("Calendars");
  project.calendars_place = place_of(calendars);
  // Only the project's calendar and those of resources are ever looked at; reading them all
  // costs little (a plan has a few).
  plan_.calendars = read_calendar_list(calendars);
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
  plan::Task& task = plan_.tasks.emplace_back();
  task.uid = *uid;
  task.name = f.text(Field::Name);
  task.level = level;
  task.active = !f.node(Field::Active) || f.flag(Field::Active);
  task.milestone = f.flag(Field::Milestone);
  task.manual = f.flag(Field::Manual);
  task.duration_text = f.text(Field::Duration);
  task.duration = duration_minutes(task.duration_text);
  task.duration_format = plan::Format::ms_project(f.integer(Field::DurationFormat).value_or(7));
  task.start_text = f.text(Field::Start);
  task.finish_text = f.text(Field::Finish);
  task.start = plan::parse_datetime(task.start_text);
  task.finish = plan::parse_datetime(task.finish_text);
  task.notes = f.text(Field::Notes);
  task.cost = f.number(Field::Cost);
  task.cost_text = f.text(Field::Cost);
  task.work = duration_minutes(f.text(Field::Work));
  task.constraint = plan::constraint_ms_project(f.integer(Field::ConstraintType).value_or(0));
  const std::string_view constraint_date = f.text(Field::ConstraintDate);
  if (!constraint_date.empty()) task.constraint_date = parse_date(constraint_date.substr(0, 10));
  task.percent_complete = f.integer(Field::PercentComplete).value_or(0);
  task.percent_work_complete = f.integer(Field::PercentWorkComplete).value_or(0);
  task.actual_duration = duration_minutes(f.text(Field::ActualDuration)).value_or(0);
  task.actual_work = duration_minutes(f.text(Field::ActualWork)).value_or(0);
  task.actual_cost = f.number(Field::ActualCost).value_or(0);
  // Some writers fill ActualStart and ActualFinish with a placeholder (2000-01-01T00:00:00) on
  // untouched tasks; MS Project moves a task's Start to its actual start (and its Finish to its
  // actual finish), so an actual date is progress when it is the task's own Start or Finish.
  auto actual_date = [&](Field actual, Field scheduled) {
    const std::string_view text = f.text(actual);
    return !text.empty() && text == std::string_view(f.text(scheduled));
  };
  task.actual_start_is_start = actual_date(Field::ActualStart, Field::Start);
  task.actual_finish_is_finish = actual_date(Field::ActualFinish, Field::Finish);
  task.calendar_uid = f.integer(Field::CalendarUID);
  task.place(TaskField::Task) = place_of(node);
  for (auto [field, at] :
       {std::pair{TaskField::Start, Field::Start}, std::pair{TaskField::Finish, Field::Finish},
        std::pair{TaskField::Duration, Field::Duration}, std::pair{TaskField::Cost, Field::Cost},
        std::pair{TaskField::Work, Field::Work}, std::pair{TaskField::Constraint, Field::ConstraintType},
        std::pair{TaskField::Manual, Field::Manual}, std::pair{TaskField::Calendar, Field::CalendarUID},
        std::pair{TaskField::OutlineLevel, Field::OutlineLevel}})
    task.place(field) = place_of(f.node(at));
  read_links(task);
  if (!extended_fields_.empty()) read_extended_attributes(node, task);
}

// Each of ptmpl's fields once (the first declaration of its alias): a task's attributes are
// looked up among at most that many, however many declarations a file repeats.
void Reader::read_extended_fields() {
  for (pugi::xml_node node : project_.child("ExtendedAttributes").children("ExtendedAttribute")) {
    const auto field = detail::mspdi::field_of_alias(child_text(node, "Alias"));
    if (!field || std::any_of(extended_fields_.begin(), extended_fields_.end(),
                              [&](const auto& known) { return known.second == *field; }))
      continue;
    extended_fields_.emplace_back(child_text(node, "FieldID"), *field);
  }
}

void Reader::read_extended_attributes(pugi::xml_node node, plan::Task& task) {
  using detail::mspdi::StoryField;
  const std::string name = "task " + std::to_string(task.uid) + " \"" + std::string(task.name) + "\": \"";
  for (pugi::xml_node attribute : node.children("ExtendedAttribute")) {
    const std::string_view id = child_text(attribute, "FieldID");
    const auto known = std::find_if(extended_fields_.begin(), extended_fields_.end(),
                                    [&](const auto& field) { return field.first == id; });
    if (known == extended_fields_.end()) continue;
    const std::string_view value = child_text(attribute, "Value");
    const std::string alias(detail::mspdi::extended_field(known->second).alias);
    auto unreadable = [&](std::string_view what, std::string_view key) {
      report("mspdi-extended-attribute", attribute,
             name + alias + "\" is not " + std::string(what) + " (" + std::string(value) + "); the story has no " +
                 std::string(key));
    };
    switch (known->second) {
      case StoryField::Tags:
        task.tag_list = value;
        break;
      case StoryField::Checklist: {
        // A JSON array of non-blank strings, as the export writes it.
        const json::Document list = json::Document::parse(value);
        std::vector<std::string_view> items;
        bool readable = list.ok() && list.root().is_array();
        for (const json::Value& item : list.root().items()) {  // none when the root is no array
          readable = readable && item.is_string() && item.text().find_first_not_of(" \t\r\n") != std::string_view::npos;
          if (!readable) break;
          items.push_back(plan_.keep(std::string(item.text())));
        }
        if (readable)
          task.checklist = std::move(items);
        else
          unreadable("a JSON array of non-blank strings", "checklist");
        break;
      }
      case StoryField::Weight:
        task.weight = to_int(value);
        if (!task.weight) unreadable("an integer", "weight");
        break;
      case StoryField::TempId:
        if (value.empty()) {
          report("mspdi-extended-attribute", attribute,
                 name + alias + "\" is empty; the story's temp_id is its UID, " + std::to_string(task.uid));
          break;
        }
        task.temp_id = temp_id_from_text(value);
        task.place(TaskField::TempId) = place_of(attribute);
        break;
    }
  }
}

void Reader::check_temp_ids() {
  std::unordered_map<std::string, std::int64_t> owner;  // a temp_id's text → the task's UID
  bool any = false;
  for (const plan::Task& task : plan_.tasks) {
    owner.emplace(std::to_string(task.uid), task.uid);
    any = any || task.temp_id;
  }
  if (!any) return;
  for (plan::Task& task : plan_.tasks) {
    if (!task.temp_id) continue;
    const std::string key = temp_id_key(*task.temp_id);
    const auto [at, added] = owner.emplace(key, task.uid);
    if (added || at->second == task.uid) continue;
    findings_.report("mspdi-extended-attribute", task.place(TaskField::TempId),
                     "task " + std::to_string(task.uid) + " \"" + std::string(task.name) + "\": \"" +
                         std::string(detail::mspdi::extended_field(detail::mspdi::StoryField::TempId).alias) + "\" " +
                         key + " is task " + std::to_string(at->second) +
                         "'s temp_id already; the story's temp_id is its UID, " + std::to_string(task.uid));
    task.temp_id.reset();
  }
}

void Reader::read_links(plan::Task& task) {
  task.first_link = plan_.links.size();
  for (pugi::xml_node node : link_elements_) {
    const FirstChildren<LinkField> l(node, kLinkFields);
    plan::Link& link = plan_.links.emplace_back();
    link.predecessor = l.integer(LinkField::PredecessorUID);
    const std::int64_t type = l.integer(LinkField::Type).value_or(1);
    link.type = plan::link_type_ms_project(type);
    if (!link.type) link.type_text = plan_.keep(std::to_string(type));
    link.cross_project = l.flag(LinkField::CrossProject);
    link.cross_project_name = l.text(LinkField::CrossProjectName);
    link.lag_text = l.text(LinkField::LinkLag);
    // LinkLag counts tenths of a minute (of a percent, for a percentage lag).
    const std::optional<double> tenths = l.number(LinkField::LinkLag);
    link.lag = tenths ? std::optional<double>(*tenths / 10) : (link.lag_text.empty() ? 0.0 : std::optional<double>());
    link.lag_format = plan::Format::ms_project(l.integer(LinkField::LagFormat).value_or(7));
    link.place = place_of(node);
    link.type_place = place_of(l.node(LinkField::Type));
    link.lag_place = place_of(l.node(LinkField::LinkLag));
  }
  task.link_count = plan_.links.size() - task.first_link;
}

void Reader::read_resources() {
  for (pugi::xml_node node : project_.child("Resources").children("Resource")) {
    const auto uid = child_int(node, "UID");
    const std::string_view name = child_text(node, "Name");
    if (!uid || *uid < 0 || child_flag(node, "IsNull") || name.empty()) continue;
    plan::Resource& resource = plan_.resources.emplace_back();
    resource.uid = *uid;
    resource.name = name;
    resource.calendar_uid = child_int(node, "CalendarUID");
    resource.has_rates = child_number(node, "StandardRate").value_or(0) != 0 ||
                         child_number(node, "OvertimeRate").value_or(0) != 0 ||
                         child_number(node, "CostPerUse").value_or(0) != 0;
    resource.place = place_of(node);
    resource.calendar_place = place_of(node.child("CalendarUID"));
  }
}

void Reader::read_assignments() {
  for (pugi::xml_node node : project_.child("Assignments").children("Assignment")) {
    const FirstChildren<AssignmentField> a(node, kAssignmentFields);
    const auto task = a.integer(AssignmentField::TaskUID);
    const auto resource = a.integer(AssignmentField::ResourceUID);
    if (!task || !resource) continue;
    plan::Assignment& assignment = plan_.assignments.emplace_back();
    assignment.task_uid = *task;
    assignment.resource_uid = *resource;
    assignment.place = place_of(node);
    for (pugi::xml_node period : node.children("TimephasedData")) {
      plan::WorkPeriod& out = assignment.periods.emplace_back();
      out.type = static_cast<int>(std::clamp<std::int64_t>(child_int(period, "Type").value_or(0), 0, 3));
      out.from = plan::parse_datetime(child_text(period, "Start"));
      out.to = plan::parse_datetime(child_text(period, "Finish"));
      out.work = duration_minutes(child_text(period, "Value")).value_or(0);
      out.place = place_of(period);
    }
  }
}

}  // namespace

std::vector<plan::Calendar> mspdi::read_calendars(pugi::xml_node calendars) {
  return read_calendar_list(calendars);
}

Result<Conversion> convert_mspdi(std::string_view text, const std::string& path, const ConvertOptions& options) {
  detail::FindingSink findings(text, path, options);
  Reader reader(text, path, findings);
  Result<const plan::Plan*> plan = reader.run();
  if (!plan.ok()) return plan.error();
  // A task takes more bytes in MSPDI (a dozen elements, each named twice) than as a story: the
  // size of the file is room enough for the template, made at once.
  Result<Conversion> out = plan::build_template(*plan.value(), path, findings, text.size());
  if (!out.ok()) return out.error();
  out.value().diagnostics = findings.take();
  return out;
}

}  // namespace ptmpl
