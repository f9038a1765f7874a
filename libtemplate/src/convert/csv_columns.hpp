// The columns of ptmpl's CSV plans, shared by the CSV reader and writer (docs/semantics.md §7): one story
// per row, nesting by outline level (or a parent column), links as predecessors in MS
// Project's notation (`3FS+2`) on the successor's row.
#pragma once

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>

namespace ptmpl::detail::csv {

enum Column : std::uint8_t {
  kLevel,
  kParent,
  kTempId,
  kTitle,
  kType,
  kStart,
  kStartDate,
  kDue,
  kDueDate,
  kDuration,
  kPredecessors,
  kBudget,
  kMinutes,
  kTags,
  kDescription,
  kColumnCount
};
constexpr std::array<std::string_view, kColumnCount> kColumnName = {"level",
                                                                    "parent",
                                                                    "temp_id",
                                                                    "title",
                                                                    "type",
                                                                    "start",
                                                                    "start_date",
                                                                    "due",
                                                                    "due_date",
                                                                    "duration",
                                                                    "predecessors",
                                                                    "budget",
                                                                    "time_estimate_minutes",
                                                                    "tags",
                                                                    "description"};
// What export_csv writes, in this order (nesting by level, never by parent; the dates only for
// a template whose calendar has a start).
constexpr Column kExportColumns[] = {kLevel,   kTempId,   kTitle,        kType,   kStart,   kStartDate, kDue,
                                     kDueDate, kDuration, kPredecessors, kBudget, kMinutes, kTags,      kDescription};
// The dates beside the day offsets: for people, checked when read but never read into a story.
constexpr bool is_date_column(Column c) {
  return c == kStartDate || c == kDueDate;
}

// Service numbering (docs/semantics.md §5: 0 = SS, 1 = SF, 2 = FS, 3 = FF) ↔ MS Project's letters.
constexpr std::string_view kLinkLetters[4] = {"SS", "SF", "FS", "FF"};

inline std::string lower_trimmed(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  text = text.substr(first, text.find_last_not_of(" \t") - first + 1);
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

inline std::string_view trim(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

}  // namespace ptmpl::detail::csv
