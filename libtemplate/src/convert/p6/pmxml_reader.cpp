// Primavera P6's XML export (PMXML) → p6::File (convert/p6/p6.hpp). This file knows PMXML's
// elements and their spelling; what a template makes of them is to_plan()'s.
//
// PMXML as P6 writes it (8.4, 18.1, 20.12): the root <APIBusinessObjects> in a namespace that
// names the version, or in none, so elements are matched by their local names; each object's
// fields are child elements (alphabetical, one may be repeated: the last one counts); an empty
// value is `<X/>` or `<X xsi:nil="true"/>`; text may be CDATA. Global calendars, resources and
// roles are children of the root; a <Project> holds its fields, WBS, Activity,
// ResourceAssignment and Relationship elements (P6 may write the last two beside the projects
// too: they belong to the project of their activity).
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <memory>
#include <unordered_map>
#include <utility>

#include <pugixml.hpp>

#include "convert/findings.hpp"
#include "convert/p6/p6.hpp"
#include "convert/xml_text.hpp"
#include "libtemplate/core/dates.hpp"

namespace ptmpl::detail::p6 {

namespace pmxml {
namespace {

using plan::Place;

// An element's text; "" for a missing element and for one marked xsi:nil (whatever it holds).
std::string_view element_text(pugi::xml_node element) {
  for (pugi::xml_attribute a = element.first_attribute(); a; a = a.next_attribute()) {
    const std::string_view name = a.name();
    if ((name == "nil" || name.ends_with(":nil")) && (std::string_view(a.value()) == "true" || a.as_int() == 1))
      return {};
  }
  return element.text().as_string();
}

std::string_view trimmed(std::string_view text) {
  constexpr std::string_view kSpace = " \t\r\n";
  const std::size_t first = text.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(kSpace) - first + 1);
}

std::optional<std::int64_t> to_integer(std::string_view text) {
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<double> to_double(std::string_view text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

Place place_of(pugi::xml_node node) {
  return node ? Place::offset(node.offset_debug()) : Place{};
}

// The child elements of one object named by `Key` (an enum class whose last member is Count, at
// most kMaxFields), found in one pass over its children: an activity has about seventy.
template <typename Key>
using Names = std::array<std::string_view, static_cast<std::size_t>(Key::Count)>;

constexpr std::size_t kMaxFields = 32;

template <typename Key>
class Fields {
 public:
  Fields(pugi::xml_node parent, const Names<Key>& names) {
    static_assert(static_cast<std::size_t>(Key::Count) <= kMaxFields);
    for (pugi::xml_node child = parent.first_child(); child; child = child.next_sibling()) {
      if (child.type() != pugi::node_element) continue;
      const std::string_view name = local_name(child);
      const auto* at = std::find(names.begin(), names.end(), name);
      if (at != names.end()) nodes_[static_cast<std::size_t>(at - names.begin())] = child;  // a repeat: the last
    }
  }

  [[nodiscard]] pugi::xml_node node(Key k) const { return nodes_[static_cast<std::size_t>(k)]; }
  [[nodiscard]] std::string_view text(Key k) const { return element_text(node(k)); }
  [[nodiscard]] std::string_view value(Key k) const { return trimmed(text(k)); }

  [[nodiscard]] Number number(Key k) const {
    const std::string_view written = value(k);
    return {to_double(written), written, place_of(node(k))};
  }
  [[nodiscard]] When when(Key k) const {
    const std::string_view written = value(k);
    return {plan::parse_datetime(written), written, place_of(node(k))};
  }
  /// The first of `keys` that is written, as a date (the last one's, written or not, if none is).
  [[nodiscard]] When first_when(std::initializer_list<Key> keys) const {
    for (Key k : keys)
      if (!value(k).empty()) return when(k);
    return when(*(keys.end() - 1));
  }

 private:
  // One size for every Key: GCC merges the instantiations' identical code, and would then see
  // one Key's index into another's shorter array (-Warray-bounds).
  std::array<pugi::xml_node, kMaxFields> nodes_{};
};

// A P6 name of an enumeration's value, matched exactly as P6 writes it.
template <typename Value>
struct Spelling {
  std::string_view text;
  Value value;
};

template <typename Value, std::size_t N>
Value decode(std::string_view text, const std::array<Spelling<Value>, N>& spellings, Value unknown) {
  for (const auto& s : spellings)
    if (s.text == text) return s.value;
  return unknown;
}

constexpr std::array<Spelling<ActivityType>, 6> kActivityTypes{{
    {"Task Dependent", ActivityType::TaskDependent},
    {"Resource Dependent", ActivityType::ResourceDependent},
    {"Level of Effort", ActivityType::LevelOfEffort},
    {"Start Milestone", ActivityType::StartMilestone},
    {"Finish Milestone", ActivityType::FinishMilestone},
    {"WBS Summary", ActivityType::WbsSummary},
}};

constexpr std::array<Spelling<Status>, 3> kStatuses{{
    {"Not Started", Status::NotStarted},
    {"In Progress", Status::InProgress},
    {"Completed", Status::Completed},
}};

constexpr std::array<Spelling<ConstraintType>, 9> kConstraintTypes{{
    {"Start On", ConstraintType::StartOn},
    {"Start On or After", ConstraintType::StartOnOrAfter},
    {"Start On or Before", ConstraintType::StartOnOrBefore},
    {"Finish On", ConstraintType::FinishOn},
    {"Finish On or After", ConstraintType::FinishOnOrAfter},
    {"Finish On or Before", ConstraintType::FinishOnOrBefore},
    {"As Late As Possible", ConstraintType::AsLateAsPossible},
    {"Mandatory Start", ConstraintType::MandatoryStart},
    {"Mandatory Finish", ConstraintType::MandatoryFinish},
}};

constexpr std::array<Spelling<RelationshipType>, 4> kRelationshipTypes{{
    {"Finish to Start", RelationshipType::FinishToStart},
    {"Start to Start", RelationshipType::StartToStart},
    {"Finish to Finish", RelationshipType::FinishToFinish},
    {"Start to Finish", RelationshipType::StartToFinish},
}};

constexpr std::array<Spelling<LagCalendar>, 4> kLagCalendars{{
    {"Predecessor Activity Calendar", LagCalendar::Predecessor},
    {"Successor Activity Calendar", LagCalendar::Successor},
    {"24 Hour Calendar", LagCalendar::TwentyFourHour},
    {"Project Default Calendar", LagCalendar::ProjectDefault},
}};

// OutOfSequenceScheduleType: retained logic, progress override.
constexpr std::array<Spelling<std::pair<bool, bool>>, 3> kScheduleTypes{{
    {"Retained Logic", {true, false}},
    {"Progress Override", {false, true}},
    {"Actual Dates", {false, false}},
}};

// StandardWorkHours/DayOfWeek, index 0 = Sunday as in Calendar::week.
constexpr std::array<std::string_view, 7> kDayNames{"Sunday",   "Monday", "Tuesday", "Wednesday",
                                                    "Thursday", "Friday", "Saturday"};

enum class CalendarField : std::uint8_t {
  ObjectId,
  Name,
  BaseCalendarObjectId,
  HoursPerDay,
  StandardWorkWeek,
  HolidayOrExceptions,
  Count
};
constexpr Names<CalendarField> kCalendarFields{
    "ObjectId", "Name", "BaseCalendarObjectId", "HoursPerDay", "StandardWorkWeek", "HolidayOrExceptions"};

enum class TimeField : std::uint8_t { Start, Finish, Count };
constexpr Names<TimeField> kTimeFields{"Start", "Finish"};

enum class DayField : std::uint8_t { DayOfWeek, Date, Count };
constexpr Names<DayField> kDayFields{"DayOfWeek", "Date"};

enum class ProjectField : std::uint8_t {
  ObjectId,
  Id,
  Name,
  DataDate,
  PlannedStartDate,
  ActivityDefaultCalendarObjectId,
  RelationshipLagCalendar,
  OutOfSequenceScheduleType,
  WBSObjectId,
  Count
};
constexpr Names<ProjectField> kProjectFields{"ObjectId",
                                             "Id",
                                             "Name",
                                             "DataDate",
                                             "PlannedStartDate",
                                             "ActivityDefaultCalendarObjectId",
                                             "RelationshipLagCalendar",
                                             "OutOfSequenceScheduleType",
                                             "WBSObjectId"};

enum class WbsField : std::uint8_t { ObjectId, ParentObjectId, Code, Name, SequenceNumber, Count };
constexpr Names<WbsField> kWbsFields{"ObjectId", "ParentObjectId", "Code", "Name", "SequenceNumber"};

enum class ActivityField : std::uint8_t {
  ObjectId,
  Id,
  Name,
  WBSObjectId,
  CalendarObjectId,
  Type,
  Status,
  PlannedDuration,
  RemainingDuration,
  RemainingEarlyStartDate,
  RemainingEarlyFinishDate,
  EarlyStartDate,
  EarlyFinishDate,
  StartDate,
  FinishDate,
  PlannedStartDate,
  PlannedFinishDate,
  ActualStartDate,
  ActualFinishDate,
  PrimaryConstraintType,
  PrimaryConstraintDate,
  SecondaryConstraintType,
  SecondaryConstraintDate,
  PercentComplete,
  Count
};
constexpr Names<ActivityField> kActivityFields{"ObjectId",
                                               "Id",
                                               "Name",
                                               "WBSObjectId",
                                               "CalendarObjectId",
                                               "Type",
                                               "Status",
                                               "PlannedDuration",
                                               "RemainingDuration",
                                               "RemainingEarlyStartDate",
                                               "RemainingEarlyFinishDate",
                                               "EarlyStartDate",
                                               "EarlyFinishDate",
                                               "StartDate",
                                               "FinishDate",
                                               "PlannedStartDate",
                                               "PlannedFinishDate",
                                               "ActualStartDate",
                                               "ActualFinishDate",
                                               "PrimaryConstraintType",
                                               "PrimaryConstraintDate",
                                               "SecondaryConstraintType",
                                               "SecondaryConstraintDate",
                                               "PercentComplete"};

enum class RelationshipField : std::uint8_t {
  ObjectId,
  PredecessorActivityObjectId,
  SuccessorActivityObjectId,
  PredecessorProjectObjectId,
  Type,
  Lag,
  Count
};
constexpr Names<RelationshipField> kRelationshipFields{
    "ObjectId", "PredecessorActivityObjectId", "SuccessorActivityObjectId", "PredecessorProjectObjectId", "Type",
    "Lag"};

// Resource and Role.
enum class PartyField : std::uint8_t { ObjectId, Id, Name, CalendarObjectId, ResourceType, Count };
constexpr Names<PartyField> kPartyFields{"ObjectId", "Id", "Name", "CalendarObjectId", "ResourceType"};

enum class AssignmentField : std::uint8_t {
  ObjectId,
  ActivityObjectId,
  ResourceObjectId,
  RoleObjectId,
  PlannedUnits,
  PlannedCost,
  ActualUnits,
  Count
};
constexpr Names<AssignmentField> kAssignmentFields{
    "ObjectId", "ActivityObjectId", "ResourceObjectId", "RoleObjectId", "PlannedUnits", "PlannedCost", "ActualUnits"};

enum class CurrencyField : std::uint8_t { Id, ExchangeRate, Count };
constexpr Names<CurrencyField> kCurrencyFields{"Id", "ExchangeRate"};

class Reader {
 public:
  Reader(std::string_view text, const std::string& path, FindingSink& findings)
      : text_(text), path_(path), findings_(findings), xml_(std::make_shared<pugi::xml_document>()) {}

  Result<File> run();

 private:
  void report(std::string_view rule, pugi::xml_node at, std::string message) {
    findings_.report(rule, place_of(at), std::move(message));
  }

  // The ObjectId of `what` (an integer); nullopt, with a finding saying it is skipped, when it
  // has none or an unreadable one.
  template <typename Key>
  std::optional<std::int64_t> object_id(const Fields<Key>& f, Key key, pugi::xml_node element, const std::string& what);
  // The ObjectId `key` refers to; nullopt when none is written, or (with a finding) when what is
  // written is not one.
  template <typename Key>
  std::optional<std::int64_t> reference(const Fields<Key>& f, Key key, const std::string& what);

  void read_calendar(pugi::xml_node element);
  std::vector<Interval> read_work_times(pugi::xml_node day, Calendar& calendar);
  void read_project(pugi::xml_node element);
  void read_wbs(pugi::xml_node element, Project& project);
  void read_activity(pugi::xml_node element, Project& project);
  std::optional<Relationship> read_relationship(pugi::xml_node element,
                                                std::optional<std::int64_t>& predecessor_project);
  std::optional<Assignment> read_assignment(pugi::xml_node element);
  template <typename Party>
  void read_party(pugi::xml_node element, std::vector<Party>& out, const char* what);
  // The relationships and assignments written beside the projects, given to their activity's project.
  void place_loose(const std::vector<pugi::xml_node>& relationships, const std::vector<pugi::xml_node>& assignments);
  // Marks the relationships whose predecessor is in another project.
  void mark_cross_project();

  std::string_view text_;
  const std::string& path_;
  FindingSink& findings_;
  std::shared_ptr<pugi::xml_document> xml_;
  File file_;
  // For each relationship read, in project order: the PredecessorProjectObjectId written.
  std::vector<std::vector<std::optional<std::int64_t>>> predecessor_projects_;
};

template <typename Key>
std::optional<std::int64_t> Reader::object_id(const Fields<Key>& f, Key key, pugi::xml_node element,
                                              const std::string& what) {
  const std::string_view written = f.value(key);
  if (auto id = to_integer(written)) return id;
  report("p6-pmxml-object-id", f.node(key) ? f.node(key) : element,
         what +
             (written.empty() ? " has no ObjectId"
                              : " has the ObjectId \"" + std::string(written) + "\", not an integer") +
             "; it is skipped (P6 objects refer to each other by ObjectId)");
  return std::nullopt;
}

template <typename Key>
std::optional<std::int64_t> Reader::reference(const Fields<Key>& f, Key key, const std::string& what) {
  const std::string_view written = f.value(key);
  if (written.empty()) return std::nullopt;
  if (auto id = to_integer(written)) return id;
  report("p6-pmxml-value", f.node(key),
         what + ": " + std::string(local_name(f.node(key))) + " \"" + std::string(written) +
             "\" is not an ObjectId (an integer); it is ignored");
  return std::nullopt;
}

Result<File> Reader::run() {
  // pugixml's defaults (entities and character references decoded, CDATA kept, no DTD read:
  // an entity the document type declares stays as written) with the declaration kept to report
  // it, and each element's leading text stored in the element itself.
  if (auto error = load_xml(*xml_, text_, path_, pugi::parse_default | pugi::parse_doctype | pugi::parse_embed_pcdata))
    return *error;
  const pugi::xml_node root = xml_->document_element();
  if (local_name(root) != "APIBusinessObjects")
    return Error::invalid(path_ + ": not a Primavera P6 XML export (its root element is <" + std::string(root.name()) +
                          ">, not <APIBusinessObjects>)");
  for (pugi::xml_node node : xml_->children())
    if (node.type() == pugi::node_doctype)
      report("p6-pmxml-doctype", node, "the document type declaration is ignored: no DTD or entity is processed");

  std::string_view currency;
  std::vector<pugi::xml_node> loose_relationships;
  std::vector<pugi::xml_node> loose_assignments;
  for (pugi::xml_node child = root.first_child(); child; child = child.next_sibling()) {
    if (child.type() != pugi::node_element) continue;
    const std::string_view name = local_name(child);
    if (name == "Project") {
      read_project(child);
    } else if (name == "Calendar") {
      read_calendar(child);
    } else if (name == "Resource") {
      read_party(child, file_.resources, "resource");
    } else if (name == "Role") {
      read_party(child, file_.roles, "role");
    } else if (name == "Relationship") {
      loose_relationships.push_back(child);
    } else if (name == "ResourceAssignment") {
      loose_assignments.push_back(child);
    } else if (name == "Currency") {
      // The base currency is the one every other is converted from: exchange rate 1.
      const Fields<CurrencyField> f(child, kCurrencyFields);
      if (currency.empty() && to_double(f.value(CurrencyField::ExchangeRate)) == 1.0)
        currency = f.value(CurrencyField::Id);
    }
  }
  for (Project& project : file_.projects) project.currency = currency;
  place_loose(loose_relationships, loose_assignments);
  mark_cross_project();
  file_.storage = xml_;
  return std::move(file_);
}

void Reader::read_calendar(pugi::xml_node element) {
  const Fields<CalendarField> f(element, kCalendarFields);
  const std::string_view name = f.text(CalendarField::Name);
  const auto id = object_id(f, CalendarField::ObjectId, element, "calendar \"" + std::string(name) + "\"");
  if (!id) return;
  Calendar& calendar = file_.calendars.emplace_back();
  calendar.id = *id;
  calendar.name = name;
  calendar.base_id = reference(f, CalendarField::BaseCalendarObjectId, "calendar \"" + std::string(name) + "\"");
  calendar.hours_per_day = to_double(f.value(CalendarField::HoursPerDay));
  calendar.place = place_of(element);

  const pugi::xml_node week = f.node(CalendarField::StandardWorkWeek);
  calendar.week_read = static_cast<bool>(week);
  if (!week) calendar.notes.emplace_back("it has no StandardWorkWeek");
  for_each_child(week, "StandardWorkHours", [&](pugi::xml_node hours) {
    const Fields<DayField> day(hours, kDayFields);
    const std::string_view day_name = day.value(DayField::DayOfWeek);
    const auto* at = std::find(kDayNames.begin(), kDayNames.end(), day_name);
    if (at == kDayNames.end()) {
      calendar.notes.push_back("DayOfWeek \"" + std::string(day_name) + "\" (line " +
                               std::to_string(findings_.position(hours.offset_debug()).line) +
                               ") is not a day of the week (Sunday to Saturday)");
      calendar.week_read = false;
      return;
    }
    calendar.week[static_cast<std::size_t>(at - kDayNames.begin())] = read_work_times(hours, calendar);
  });

  for_each_child(f.node(CalendarField::HolidayOrExceptions), "HolidayOrException", [&](pugi::xml_node exception) {
    const Fields<DayField> day(exception, kDayFields);
    const std::string_view written = day.value(DayField::Date);
    const auto date = plan::parse_datetime(written);
    if (!date) {
      calendar.notes.push_back("the HolidayOrException on line " +
                               std::to_string(findings_.position(exception.offset_debug()).line) + " has the Date \"" +
                               std::string(written) + "\", not a date; it is ignored");
      return;
    }
    calendar.exceptions.push_back({date->date, read_work_times(exception, calendar), place_of(exception)});
  });
}

// PMXML: a WorkTime's Finish is the last minute worked (15:59 for a day that ends at 16:00), so
// the period ends a minute after it; `xsi:nil` or no WorkTime at all: the day is not worked.
std::vector<Interval> Reader::read_work_times(pugi::xml_node day, Calendar& calendar) {
  std::vector<Interval> out;
  for_each_child(day, "WorkTime", [&](pugi::xml_node time) {
    const Fields<TimeField> t(time, kTimeFields);
    const std::string_view start_text = t.value(TimeField::Start);
    const std::string_view finish_text = t.value(TimeField::Finish);
    if (start_text.empty() && finish_text.empty()) return;  // nil: not worked
    const auto start = plan::parse_time(start_text);
    const auto last = plan::parse_time(finish_text);
    if (!start || !last || *start >= 24 * 60 || *last < *start) {
      calendar.notes.push_back("the WorkTime on line " + std::to_string(findings_.position(time.offset_debug()).line) +
                               " (Start \"" + std::string(start_text) + "\", Finish \"" + std::string(finish_text) +
                               "\") is not a period of a day; it is ignored");
      return;
    }
    out.push_back({*start, std::min(*last + 1, 24 * 60)});
  });
  return out;
}

void Reader::read_project(pugi::xml_node element) {
  const Fields<ProjectField> f(element, kProjectFields);
  const std::string_view short_name = f.text(ProjectField::Id);
  const auto id = object_id(f, ProjectField::ObjectId, element, "project \"" + std::string(short_name) + "\"");
  if (!id) return;
  Project& project = file_.projects.emplace_back();
  predecessor_projects_.emplace_back();
  project.id = *id;
  project.short_name = short_name;
  project.name = f.text(ProjectField::Name);
  project.place = place_of(element);
  const std::string what = "project " + std::string(short_name);
  project.calendar_id = reference(f, ProjectField::ActivityDefaultCalendarObjectId, what);
  project.data_date = f.when(ProjectField::DataDate);
  project.planned_start = f.when(ProjectField::PlannedStartDate);

  if (const std::string_view lag = f.value(ProjectField::RelationshipLagCalendar); !lag.empty()) {
    project.lag_calendar = decode(lag, kLagCalendars, LagCalendar::Unknown);
    project.lag_calendar_text = lag;
    project.lag_calendar_place = place_of(f.node(ProjectField::RelationshipLagCalendar));
  }
  if (const std::string_view logic = f.value(ProjectField::OutOfSequenceScheduleType); !logic.empty()) {
    const pugi::xml_node at = f.node(ProjectField::OutOfSequenceScheduleType);
    project.logic_place = place_of(at);
    const auto [retained, progress_override] = decode(logic, kScheduleTypes, std::pair{true, false});
    if (std::none_of(kScheduleTypes.begin(), kScheduleTypes.end(), [&](const auto& s) { return s.text == logic; }))
      report("p6-pmxml-value", at,
             what + ": OutOfSequenceScheduleType \"" + std::string(logic) +
                 "\" is not Retained Logic, Progress Override or Actual Dates; retained logic is assumed");
    project.retained_logic = retained;
    project.progress_override = progress_override;
  }
  // The project node: the WBS element that is the project itself, the parent of its top WBS.
  if (const auto node = reference(f, ProjectField::WBSObjectId, what)) {
    Wbs& wbs = project.wbs.emplace_back();
    wbs.id = *node;
    wbs.code = project.short_name;
    wbs.name = project.name;
    wbs.project_node = true;
    wbs.place = place_of(f.node(ProjectField::WBSObjectId));
  }

  for (pugi::xml_node child = element.first_child(); child; child = child.next_sibling()) {
    if (child.type() != pugi::node_element) continue;
    const std::string_view name = local_name(child);
    if (name == "Activity") {
      read_activity(child, project);
    } else if (name == "WBS") {
      read_wbs(child, project);
    } else if (name == "Relationship") {
      std::optional<std::int64_t> predecessor_project;
      if (auto relationship = read_relationship(child, predecessor_project)) {
        project.relationships.push_back(*relationship);
        predecessor_projects_.back().push_back(predecessor_project);
      }
    } else if (name == "ResourceAssignment") {
      if (auto assignment = read_assignment(child)) project.assignments.push_back(*assignment);
    } else if (name == "Calendar") {  // a project calendar, in files that nest them
      read_calendar(child);
    }
  }
}

void Reader::read_wbs(pugi::xml_node element, Project& project) {
  const Fields<WbsField> f(element, kWbsFields);
  const std::string_view code = f.text(WbsField::Code);
  const std::string what = "WBS element \"" + std::string(code) + "\"";
  const auto id = object_id(f, WbsField::ObjectId, element, what);
  if (!id) return;
  Wbs& wbs = project.wbs.emplace_back();
  wbs.id = *id;
  wbs.parent_id = reference(f, WbsField::ParentObjectId, what);
  wbs.code = code;
  wbs.name = f.text(WbsField::Name);
  wbs.sequence = to_integer(f.value(WbsField::SequenceNumber)).value_or(0);
  wbs.place = place_of(element);
}

void Reader::read_activity(pugi::xml_node element, Project& project) {
  const Fields<ActivityField> f(element, kActivityFields);
  const std::string_view code = f.text(ActivityField::Id);
  const std::string what = "activity " + std::string(code);
  const auto id = object_id(f, ActivityField::ObjectId, element, what);
  if (!id) return;
  Activity& activity = project.activities.emplace_back();
  activity.id = *id;
  activity.code = code;
  activity.name = f.text(ActivityField::Name);
  activity.wbs_id = reference(f, ActivityField::WBSObjectId, what);
  activity.calendar_id = reference(f, ActivityField::CalendarObjectId, what);
  if (const std::string_view type = f.value(ActivityField::Type); !type.empty()) {
    activity.type = decode(type, kActivityTypes, ActivityType::Unknown);
    activity.type_text = type;
  }
  if (const std::string_view status = f.value(ActivityField::Status); !status.empty()) {
    activity.status = decode(status, kStatuses, Status::Unknown);
    activity.status_text = status;
  }
  activity.planned_hours = f.number(ActivityField::PlannedDuration);
  activity.remaining_hours = f.number(ActivityField::RemainingDuration);
  activity.start =
      f.first_when({ActivityField::RemainingEarlyStartDate, ActivityField::EarlyStartDate, ActivityField::StartDate});
  activity.finish = f.first_when(
      {ActivityField::RemainingEarlyFinishDate, ActivityField::EarlyFinishDate, ActivityField::FinishDate});
  activity.planned_start = f.when(ActivityField::PlannedStartDate);
  activity.planned_finish = f.when(ActivityField::PlannedFinishDate);
  activity.actual_start = f.when(ActivityField::ActualStartDate);
  activity.actual_finish = f.when(ActivityField::ActualFinishDate);
  auto constraint = [&](ActivityField type_field, ActivityField date_field) {
    Constraint out;
    out.text = f.value(type_field);
    if (!out.text.empty()) out.type = decode(out.text, kConstraintTypes, ConstraintType::Unknown);
    out.date = f.when(date_field);
    out.place = place_of(f.node(type_field));
    return out;
  };
  activity.primary = constraint(ActivityField::PrimaryConstraintType, ActivityField::PrimaryConstraintDate);
  activity.secondary = constraint(ActivityField::SecondaryConstraintType, ActivityField::SecondaryConstraintDate);
  // PMXML writes percentages as fractions (0.25), XER as percents (25).
  activity.percent_complete = to_double(f.value(ActivityField::PercentComplete)).value_or(0) * 100;
  activity.place = place_of(element);
}

std::optional<Relationship> Reader::read_relationship(pugi::xml_node element,
                                                      std::optional<std::int64_t>& predecessor_project) {
  const Fields<RelationshipField> f(element, kRelationshipFields);
  const std::string what = "relationship " + std::string(f.value(RelationshipField::ObjectId));
  const auto predecessor =
      object_id(f, RelationshipField::PredecessorActivityObjectId, element, what + "'s predecessor");
  const auto successor = object_id(f, RelationshipField::SuccessorActivityObjectId, element, what + "'s successor");
  if (!predecessor || !successor) return std::nullopt;
  Relationship relationship;
  relationship.predecessor_id = *predecessor;
  relationship.successor_id = *successor;
  if (const std::string_view type = f.value(RelationshipField::Type); !type.empty()) {
    relationship.type = decode(type, kRelationshipTypes, RelationshipType::Unknown);
    relationship.type_text = type;
  }
  relationship.lag_hours = f.number(RelationshipField::Lag);
  relationship.place = place_of(element);
  predecessor_project = reference(f, RelationshipField::PredecessorProjectObjectId, what);
  return relationship;
}

std::optional<Assignment> Reader::read_assignment(pugi::xml_node element) {
  const Fields<AssignmentField> f(element, kAssignmentFields);
  const std::string what = "resource assignment " + std::string(f.value(AssignmentField::ObjectId));
  const auto activity = object_id(f, AssignmentField::ActivityObjectId, element, what + "'s activity");
  if (!activity) return std::nullopt;
  Assignment assignment;
  assignment.activity_id = *activity;
  assignment.resource_id = reference(f, AssignmentField::ResourceObjectId, what);
  assignment.role_id = reference(f, AssignmentField::RoleObjectId, what);
  assignment.planned_units = f.number(AssignmentField::PlannedUnits);
  assignment.planned_cost = f.number(AssignmentField::PlannedCost);
  assignment.actual_units = f.number(AssignmentField::ActualUnits);
  assignment.place = place_of(element);
  return assignment;
}

template <typename Party>
void Reader::read_party(pugi::xml_node element, std::vector<Party>& out, const char* what) {
  const Fields<PartyField> f(element, kPartyFields);
  const std::string_view short_name = f.text(PartyField::Id);
  const auto id = object_id(f, PartyField::ObjectId, element, what + (" \"" + std::string(short_name) + "\""));
  if (!id) return;
  Party& party = out.emplace_back();
  party.id = *id;
  party.name = f.text(PartyField::Name);
  party.short_name = short_name;
  if constexpr (requires { party.calendar_id; })
    party.calendar_id = reference(f, PartyField::CalendarObjectId, what + (" " + std::string(short_name)));
  if constexpr (requires { party.labor; }) {
    const std::string_view type = f.text(PartyField::ResourceType);
    party.labor = type.empty() || type == "Labor";
  }
  party.place = place_of(element);
}

void Reader::place_loose(const std::vector<pugi::xml_node>& relationships,
                         const std::vector<pugi::xml_node>& assignments) {
  if (relationships.empty() && assignments.empty()) return;
  std::unordered_map<std::int64_t, std::size_t> project_of;  // an activity's ObjectId → its project
  for (std::size_t p = 0; p < file_.projects.size(); ++p)
    for (const Activity& activity : file_.projects[p].activities) project_of.emplace(activity.id, p);
  auto owner = [&](std::int64_t activity, pugi::xml_node element, const char* what) -> Project* {
    const auto at = project_of.find(activity);
    if (at != project_of.end()) return &file_.projects[at->second];
    report("p6-pmxml-value", element,
           std::string(what) + " of activity " + std::to_string(activity) +
               ", which no project of the file holds, is ignored");
    return nullptr;
  };
  for (pugi::xml_node element : relationships) {
    std::optional<std::int64_t> predecessor_project;
    const auto relationship = read_relationship(element, predecessor_project);
    if (!relationship) continue;
    if (Project* project = owner(relationship->successor_id, element, "the relationship")) {
      project->relationships.push_back(*relationship);
      predecessor_projects_[static_cast<std::size_t>(project - file_.projects.data())].push_back(predecessor_project);
    }
  }
  for (pugi::xml_node element : assignments)
    if (const auto assignment = read_assignment(element))
      if (Project* project = owner(assignment->activity_id, element, "the resource assignment"))
        project->assignments.push_back(*assignment);
}

// A relationship crosses projects when it names its predecessor's project as another, or when
// its predecessor is an activity of another project of the file.
void Reader::mark_cross_project() {
  std::unordered_map<std::int64_t, std::int64_t> project_of;  // an activity's ObjectId → its project's
  for (const Project& project : file_.projects)
    for (const Activity& activity : project.activities) project_of.emplace(activity.id, project.id);
  for (std::size_t p = 0; p < file_.projects.size(); ++p) {
    Project& project = file_.projects[p];
    for (std::size_t r = 0; r < project.relationships.size(); ++r) {
      Relationship& relationship = project.relationships[r];
      std::optional<std::int64_t> predecessor_project = predecessor_projects_[p][r];
      if (!predecessor_project)
        if (const auto at = project_of.find(relationship.predecessor_id); at != project_of.end())
          predecessor_project = at->second;
      relationship.cross_project = predecessor_project && *predecessor_project != project.id;
    }
  }
}

}  // namespace
}  // namespace pmxml

Result<File> read_pmxml(std::string_view text, const std::string& path, FindingSink& findings) {
  return pmxml::Reader(text, path, findings).run();
}

}  // namespace ptmpl::detail::p6
