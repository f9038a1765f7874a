// How far ptmpl's schedule of a converted MS Project XML file agrees with the dates MS Project
// stored in it (issue 16's agreement table, docs/commands/convert.md "Agreement with MS
// Project"). The file converts; the template is scheduled twice — `--asap` (declared starts
// dropped: dates from the links alone) and plain (declared starts kept) — and each leaf
// task's scheduled first and last day, as calendar dates through the calendar block the
// converter wrote, is compared with the task's `Start` and `Finish` in the XML.
#pragma once

#include <gtest/gtest.h>

#include <pugixml.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/calendar.hpp"
#include "libtemplate/core/preview.hpp"
#include "libtemplate/core/schedule.hpp"
#include "libtemplate/core/template_file.hpp"

namespace ptmpl::testing {

/// One file's agreement.
struct MspdiAgreement {
  std::size_t leaves = 0;            ///< leaf tasks of the XML that became stories
  std::size_t asap_agree = 0;        ///< of them, `schedule --asap` shows the XML's Start and Finish
  std::size_t plain_agree = 0;       ///< of them, plain `schedule` does
  std::size_t milestones = 0;        ///< of the leaves, milestones
  std::size_t milestones_asap = 0;   ///< of them, on MS Project's day with `--asap`
  std::size_t milestones_plain = 0;  ///< of them, on MS Project's day in the plain schedule
  /// Why `--asap` is not compared with MS Project: the conversion's finding ids that say so
  /// (mspdi-manual-task, mspdi-constraint — also a start-no-earlier-than, which `--asap`
  /// drops —, mspdi-progress, mspdi-split-task, mspdi-off-calendar). Empty: comparable.
  std::set<std::string> not_comparable;
  std::vector<std::string> asap_differences;  ///< `UID name: XML a..b, scheduled c..d`
  std::vector<std::string> plain_differences;
  bool calendar = false;  ///< the converted document has a calendar with a start date

  [[nodiscard]] bool comparable() const { return not_comparable.empty() && leaves > 0; }
};

namespace detail {

/// `YYYY-MM-DDThh:mm:ss` → date and minutes after midnight.
inline std::optional<std::pair<Date, int>> parse_mspdi_time(std::string_view text) {
  if (text.size() < 16) return std::nullopt;
  const std::optional<Date> date = parse_date(text.substr(0, 10));
  if (!date || text[10] != 'T') return std::nullopt;
  const int hours = std::stoi(std::string(text.substr(11, 2)));
  const int minutes = std::stoi(std::string(text.substr(14, 2)));
  return std::pair{*date, hours * 60 + minutes};
}

inline int minutes_of(std::string_view hhmmss, int fallback) {
  if (hhmmss.size() < 5) return fallback;
  return std::stoi(std::string(hhmmss.substr(0, 2))) * 60 + std::stoi(std::string(hhmmss.substr(3, 2)));
}

inline Date next_working(const Calendar& calendar, Date date) {
  do date += std::chrono::days{1};
  while (!calendar.is_working_day(date));
  return date;
}

inline Date previous_working(const Calendar& calendar, Date date) {
  do date -= std::chrono::days{1};
  while (!calendar.is_working_day(date));
  return date;
}

inline bool has_constraint(const pugi::xml_node& project) {
  for (pugi::xml_node task : project.child("Tasks").children("Task")) {
    const pugi::xml_node type = task.child("ConstraintType");
    if (type && std::string_view(type.text().get()) != "0") return true;
  }
  return false;
}

}  // namespace detail

/// The agreement of `text` (an MSPDI file called `path`), measured as described above.
///
/// A task's `Start` is the day it starts on, or the next working day when it starts at or after
/// the project's `DefaultFinishTime` (a milestone there is a moment at the end of its day, and
/// on that day: docs/semantics.md §4); its `Finish` the day it finishes on,
/// or the previous working day when it finishes at or before `DefaultStartTime`. A milestone's
/// last day is its first.
inline MspdiAgreement measure_mspdi_agreement(std::string_view text, const std::string& path) {
  MspdiAgreement out;
  auto converted = convert_mspdi(text, path);
  EXPECT_TRUE(converted.ok()) << path;
  if (!converted.ok()) return out;
  const Conversion& conversion = converted.value();
  for (const Diagnostic& d : conversion.diagnostics)
    if (d.rule == "mspdi-manual-task" || d.rule == "mspdi-constraint" || d.rule == "mspdi-progress" ||
        d.rule == "mspdi-split-task" || d.rule == "mspdi-off-calendar")
      out.not_comparable.insert(d.rule);

  pugi::xml_document xml;
  EXPECT_TRUE(xml.load_buffer(text.data(), text.size(), pugi::parse_default, pugi::encoding_auto)) << path;
  const pugi::xml_node project = xml.child("Project");
  if (detail::has_constraint(project)) out.not_comparable.insert("mspdi-constraint");
  int day_start = detail::minutes_of(project.child_value("DefaultStartTime"), 8 * 60);
  int day_finish = detail::minutes_of(project.child_value("DefaultFinishTime"), 17 * 60);
  if (day_finish <= day_start) {  // a writer's placeholder (00:00 and 00:00): MS Project's default day
    day_start = 8 * 60;
    day_finish = 17 * 60;
  }

  const TemplateFile file = TemplateFile::parse(path + ".json", FileText(conversion.document));
  if (file.templates().empty()) return out;
  const TemplateSource& source = file.templates()[0];
  auto resolved = resolve_calendar(file, source, CalendarFlags{});
  EXPECT_TRUE(resolved.ok()) << path;
  if (!resolved.ok() || !resolved.value()) return out;
  const Calendar& calendar = *resolved.value();
  out.calendar = true;

  const ScheduledTemplate asap(source.model.stories, ScheduleOptions{.asap = true});
  const ScheduledTemplate plain(source.model.stories, ScheduleOptions{});
  EXPECT_TRUE(asap.schedule().ok()) << path;
  EXPECT_TRUE(plain.schedule().ok()) << path;
  if (!asap.schedule().ok() || !plain.schedule().ok()) return out;

  // Leaf stories by temp_id (the task's UID).
  std::map<std::int64_t, std::size_t> leaf_by_uid;
  const StoryIndex& index = asap.index();
  for (std::size_t i = 0; i < index.size(); ++i) {
    const Story& story = index.story(i);
    if (story.is_parent() || !story.temp_id) continue;
    const TempId id = *story.temp_id;
    if (const auto* uid = std::get_if<std::int64_t>(&id)) leaf_by_uid[*uid] = i;
  }

  for (pugi::xml_node task : project.child("Tasks").children("Task")) {
    const auto found = leaf_by_uid.find(task.child("UID").text().as_llong(-1));
    if (found == leaf_by_uid.end()) continue;
    const auto start = detail::parse_mspdi_time(task.child_value("Start"));
    const auto finish = detail::parse_mspdi_time(task.child_value("Finish"));
    if (!start || !finish) continue;
    ++out.leaves;
    const bool milestone = index.story(found->second).effective_type() == StoryType::Milestone;
    // The working time they stand for: a start at or after the day's working time, or on a day
    // off, is the next working day's start; a finish at or before it, or on a day off, the
    // previous working day's finish.
    // A milestone is a moment (docs/semantics.md §4): at a day's end it is on that day.
    const Date first = (start->second >= day_finish && !milestone) || !calendar.is_working_day(start->first)
                           ? detail::next_working(calendar, start->first)
                           : start->first;
    const Date last = milestone ? first
                      : finish->second <= day_start || !calendar.is_working_day(finish->first)
                          ? detail::previous_working(calendar, finish->first)
                          : finish->first;
    if (milestone) ++out.milestones;
    auto check = [&](const Schedule& schedule, std::size_t& agree, std::size_t& milestones_agree,
                     std::vector<std::string>& differences) {
      const Interval& early = schedule[found->second].early;
      const std::optional<Date> s = calendar.date_of(early.first_day());
      const std::optional<Date> d = calendar.date_of(early.due);
      if (s == first && d == last) {
        ++agree;
        if (milestone) ++milestones_agree;
        return;
      }
      differences.push_back(std::string(task.child_value("UID")) + " \"" + task.child_value("Name") + "\": XML " +
                            format_date(first) + ".." + format_date(last) + ", scheduled " +
                            (s ? format_date(*s) : "?") + ".." + (d ? format_date(*d) : "?"));
    };
    check(asap.schedule(), out.asap_agree, out.milestones_asap, out.asap_differences);
    check(plain.schedule(), out.plain_agree, out.milestones_plain, out.plain_differences);
  }
  return out;
}

}  // namespace ptmpl::testing
