// What every preview, and the editor's hover and outline (ptmpl::lsp), print about a story and
// about the project, phrased once.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "libtemplate/core/preview.hpp"

namespace ptmpl::preview {

/// The story's temp_id as text (`temp_id_key`), "" when it has none.
[[nodiscard]] std::string temp_id_text(const Story& story);

/// The title on one line (`one_line`), or "(untitled)" when absent or blank.
[[nodiscard]] std::string display_title(const Story& story);

/// True when a story is drawn as a point (a diamond): a zero-length early interval, as a
/// milestone has (a task of duration 0 is drawn the same way).
[[nodiscard]] bool drawn_as_point(const ScheduledStory& dates);

/// The duration a story would declare for its scheduled dates: a leaf's working length (0
/// for a milestone), a parent's inclusive span due − start + 1 (a parent ending on a
/// milestone includes the milestone's day, as lint's duration-mismatch counts it).
[[nodiscard]] std::int64_t scheduled_duration(const Schedule& schedule, std::size_t index);

/// A working day as printed: `YYYY-MM-DD` with a calendar, else the offset. A date outside
/// years 1–9999 (absurd offsets) prints as the offset.
[[nodiscard]] std::string day_text(std::int64_t offset, const std::optional<Calendar>& calendar);

/// One line about a story shown, the tooltip of its bar: "1.2 Build: day 3 to day 7, 5 working
/// days, total float 0, critical" (dates with a calendar; "day 4, milestone" for a point).
[[nodiscard]] std::string story_line(const Schedule& schedule, const PreviewRow& row, const PreviewOptions& options);

/// The names of the story's assignees, in the order of its `assignments`, joined by ", ":
/// each assignee_id's name in `assignments` (project_template_assignments; the first entry with
/// that id), or "#ID" when none has it (lint's assignment-unknown). "" without assignments.
[[nodiscard]] std::string assignee_names(const Story& story, std::span<const TemplateAssignment> assignments);

/// The calendar's name as `--calendar` spells it: "workweek" or "7day".
[[nodiscard]] std::string week_name(WorkWeek week);

/// options.title, or "Schedule".
[[nodiscard]] std::string chart_title(const PreviewOptions& options);

/// One line about the project: "42 working days, day 0 to day 41, 17 of 35 stories critical"
/// (dates instead of days with a calendar); "no stories" for an empty template.
[[nodiscard]] std::string project_summary(const Schedule& schedule, const PreviewOptions& options);

}  // namespace ptmpl::preview
