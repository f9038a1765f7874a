// How far the template converted from a .mpp file agrees with the one converted from its MSPDI
// twin, the XML the same Project version saved of the same project (issue 17; the table in
// docs/commands/convert.md, "Agreement with the MSPDI twins"). Three things are compared:
//   - the two documents, value by value: the template's fields, every story (titles, temp_ids,
//     hierarchy, types, dates, durations, dependencies, budgets, estimates, descriptions,
//     assignments), project_template_assignments and the calendar block;
//   - the findings of the two conversions, by rule id (mpp-* ids are the .mpp reader's own);
//   - the schedule of the two templates: each story's first and last day, as dates.
// A difference is named by its kind: the JSON path with array indexes dropped
// ("project_template.raw_json[].budget"), "finding <id>", or "schedule".
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/calendar.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/preview.hpp"
#include "libtemplate/core/schedule.hpp"
#include "libtemplate/core/template_file.hpp"

namespace ptmpl::testing {

struct MppAgreement {
  /// Kind → the first difference of that kind, "path: mpp value | twin value".
  std::map<std::string, std::string> differences;
  [[nodiscard]] bool agree() const { return differences.empty(); }
};

namespace detail {

inline std::string json_text(const json::Value& v) {
  switch (v.kind()) {
    case json::Kind::Null:
      return "null";
    case json::Kind::True:
      return "true";
    case json::Kind::False:
      return "false";
    case json::Kind::Number:
      return std::string(v.text());
    case json::Kind::String:
      return json::quoted(v.text());
    case json::Kind::Array:
      return "[" + std::to_string(v.items().size()) + " items]";
    default:
      return "{...}";
  }
}

inline void compare_values(const json::Value* a, const json::Value* b, const std::string& path, const std::string& kind,
                           MppAgreement& out) {
  auto note = [&](const std::string& what) { out.differences.emplace(kind, path + ": " + what); };
  if (a == nullptr || b == nullptr) {
    if (a != b) note(a ? json_text(*a) + " | (none)" : "(none) | " + json_text(*b));
    return;
  }
  if (a->kind() != b->kind()) {
    note(json_text(*a) + " | " + json_text(*b));
    return;
  }
  if (a->is_object()) {
    std::set<std::string> keys;
    for (const json::Member& m : a->members()) keys.insert(std::string(m.key.text()));
    for (const json::Member& m : b->members()) keys.insert(std::string(m.key.text()));
    for (const std::string& key : keys)
      compare_values(a->find(key), b->find(key), path + "." + key, kind + "." + key, out);
    return;
  }
  if (a->is_array()) {
    const auto ai = a->items();
    const auto bi = b->items();
    if (ai.size() != bi.size()) {
      note(std::to_string(ai.size()) + " items | " + std::to_string(bi.size()) + " items");
      return;
    }
    for (std::size_t i = 0; i < ai.size(); ++i)
      compare_values(&ai[i], &bi[i], path + "[" + std::to_string(i) + "]", kind + "[]", out);
    return;
  }
  if (a->kind() == json::Kind::Number) {
    if (a->as_double() != b->as_double()) note(json_text(*a) + " | " + json_text(*b));
    return;
  }
  if (a->text() != b->text()) note(json_text(*a) + " | " + json_text(*b));
}

inline std::vector<std::string> finding_ids(const Conversion& c) {
  std::vector<std::string> ids;
  for (const Diagnostic& d : c.diagnostics)
    if (!d.rule.starts_with("mpp-")) ids.push_back(d.rule);
  std::sort(ids.begin(), ids.end());
  return ids;
}

// Each story's first and last scheduled day as dates (through the document's calendar block),
// in tree order; empty when the document cannot be scheduled.
inline std::vector<std::string> scheduled_days(const std::string& document, const std::string& name) {
  std::vector<std::string> out;
  const TemplateFile file = TemplateFile::parse(name + ".json", FileText(document));
  if (file.templates().empty()) return out;
  const TemplateSource& source = file.templates()[0];
  auto resolved = resolve_calendar(file, source, CalendarFlags{});
  const ScheduledTemplate scheduled(source.model.stories, ScheduleOptions{});
  if (!scheduled.schedule().ok()) return {"(cannot be scheduled)"};
  const StoryIndex& index = scheduled.index();
  for (std::size_t i = 0; i < index.size(); ++i) {
    const Interval& early = scheduled.schedule()[i].early;
    std::string row = std::string(index.story(i).title.value_or("")) + ": ";
    if (resolved.ok() && resolved.value()) {
      const Calendar& calendar = *resolved.value();
      const std::optional<Date> s = calendar.date_of(early.start);
      const std::optional<Date> d = calendar.date_of(early.due);
      row += (s ? format_date(*s) : "?") + ".." + (d ? format_date(*d) : "?");
    } else {
      row += std::to_string(early.start) + ".." + std::to_string(early.due);
    }
    out.push_back(row);
  }
  return out;
}

}  // namespace detail

/// Compares the conversions of a .mpp file and of its twin.
inline MppAgreement compare_mpp_with_twin(const Conversion& mpp, const Conversion& twin) {
  MppAgreement out;
  const json::Document a = json::Document::parse(mpp.document);
  const json::Document b = json::Document::parse(twin.document);
  detail::compare_values(&a.root(), &b.root(), "", "", out);

  const std::vector<std::string> fa = detail::finding_ids(mpp);
  const std::vector<std::string> fb = detail::finding_ids(twin);
  std::set<std::string> ids(fa.begin(), fa.end());
  ids.insert(fb.begin(), fb.end());
  for (const std::string& id : ids) {
    const auto na = std::count(fa.begin(), fa.end(), id);
    const auto nb = std::count(fb.begin(), fb.end(), id);
    if (na != nb) out.differences.emplace("finding " + id, std::to_string(na) + " | " + std::to_string(nb));
  }

  const std::vector<std::string> sa = detail::scheduled_days(mpp.document, "mpp");
  const std::vector<std::string> sb = detail::scheduled_days(twin.document, "twin");
  if (sa != sb) {
    std::string first;
    for (std::size_t i = 0; i < std::max(sa.size(), sb.size()); ++i) {
      const std::string x = i < sa.size() ? sa[i] : "(none)";
      const std::string y = i < sb.size() ? sb[i] : "(none)";
      if (x != y) {
        first = x + " | " + y;
        break;
      }
    }
    out.differences.emplace("schedule", first);
  }
  return out;
}

}  // namespace ptmpl::testing
