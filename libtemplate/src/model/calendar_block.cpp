// The document's calendar block (docs/semantics.md §2, §4): reading it into the model, the one check of
// what is wrong with it (lint's calendar-invalid and the commands that use the block share it),
// and writing it back.
#include <algorithm>
#include <array>
#include <set>

#include "libtemplate/core/model.hpp"

namespace ptmpl {

namespace {

constexpr std::array<std::string_view, 5> kCalendarKeys = {"start", "finish", "week", "holidays", "working"};

std::optional<Date> date_in(const json::Value& v) {
  if (!v.is_string()) return std::nullopt;
  return parse_date(v.text());
}

std::vector<Date> dates_in(const json::Value* list) {
  std::vector<Date> out;
  if (list == nullptr || !list->is_array()) return out;
  for (const json::Value& item : list->items())
    if (auto date = date_in(item)) out.push_back(*date);
  return out;
}

std::string shown(const json::Value& v) {
  if (v.is_string()) return json::quoted(v.text());
  switch (v.kind()) {
    case json::Kind::Number:
      return "the number " + std::string(v.text());
    case json::Kind::True:
    case json::Kind::False:
      return "a boolean";
    case json::Kind::Array:
      return "an array";
    case json::Kind::Object:
      return "an object";
    default:
      return "null";
  }
}

}  // namespace

std::span<const std::string_view> calendar_block_keys() {
  return kCalendarKeys;
}

CalendarBlock calendar_block_from_json(const json::Value& block, json::Arena& arena) {
  CalendarBlock out;
  out.node = block;
  if (!block.is_object()) return out;
  if (const json::Value* start = block.find("start")) out.start = date_in(*start);
  if (const json::Value* finish = block.find("finish")) out.finish = date_in(*finish);
  if (const json::Value* week = block.find("week"); week != nullptr && week->is_array()) {
    WorkWeek days;
    for (const json::Value& item : week->items())
      if (item.is_string())
        if (auto day = parse_weekday(item.text())) days.add(*day);
    out.week = days;
  }
  out.holidays = dates_in(block.find("holidays"));
  out.working = dates_in(block.find("working"));
  std::vector<json::Member> extra;
  for (const json::Member& m : block.members())
    if (std::find(kCalendarKeys.begin(), kCalendarKeys.end(), m.key.text()) == kCalendarKeys.end()) extra.push_back(m);
  out.extra = arena.copy_array<json::Member>(extra);
  return out;
}

std::vector<CalendarProblem> calendar_block_problems(const json::Value& block) {
  std::vector<CalendarProblem> problems;
  if (!block.is_object()) {
    problems.push_back({block, "", "the calendar block is " + shown(block) + ", not an object"});
    return problems;
  }
  auto date_problem = [](const json::Value& v, std::string_view what) -> std::optional<std::string> {
    if (!v.is_string()) return std::string(what) + " is " + shown(v) + ", not a date string (YYYY-MM-DD)";
    if (!parse_date(v.text()))
      return std::string(what) + " " + json::quoted(v.text()) + " is not a date of the form YYYY-MM-DD that exists";
    return std::nullopt;
  };
  for (std::string_view key : {std::string_view("start"), std::string_view("finish")})
    if (const json::Value* date = block.find(key))
      if (auto problem = date_problem(*date, key)) problems.push_back({*date, "/" + std::string(key), *problem});

  if (const json::Value* week = block.find("week")) {
    if (!week->is_array()) {
      problems.push_back(
          {*week, "/week", "week is " + shown(*week) + ", not an array of weekdays (\"mon\" … \"sun\")"});
    } else {
      WorkWeek days;
      for (std::size_t i = 0; i < week->items().size(); ++i) {
        const json::Value& item = week->items()[i];
        const std::string pointer = "/week/" + std::to_string(i);
        const auto day = item.is_string() ? parse_weekday(item.text()) : std::nullopt;
        if (!day) {
          problems.push_back(
              {item, pointer, "week: " + shown(item) + " is not a weekday (mon, tue, wed, thu, fri, sat, sun)"});
        } else if (days.works(*day)) {
          problems.push_back({item, pointer, "week: " + shown(item) + " is listed twice"});
        } else {
          days.add(*day);
        }
      }
      if (week->items().empty())
        problems.push_back({*week, "/week", "week lists no working day: no date could be placed"});
    }
  }

  std::set<Date> holidays;
  for (std::string_view key : {std::string_view("holidays"), std::string_view("working")}) {
    const json::Value* list = block.find(key);
    if (list == nullptr) continue;
    const std::string name(key);
    if (!list->is_array()) {
      problems.push_back({*list, "/" + name, name + " is " + shown(*list) + ", not an array of dates (YYYY-MM-DD)"});
      continue;
    }
    for (std::size_t i = 0; i < list->items().size(); ++i) {
      const json::Value& item = list->items()[i];
      const std::string pointer = "/" + name + "/" + std::to_string(i);
      if (auto problem = date_problem(item, name + " entry")) {
        problems.push_back({item, pointer, *problem});
        continue;
      }
      const Date date = *parse_date(item.text());
      if (key == "holidays")
        holidays.insert(date);
      else if (holidays.count(date) != 0)
        problems.push_back({item, pointer,
                            "working: " + format_date(date) +
                                " is also listed in holidays; a date is either a holiday or a working date "
                                "(ptmpl takes it as a holiday)"});
    }
  }
  return problems;
}

}  // namespace ptmpl
