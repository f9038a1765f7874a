// The one builder: a plan (plan.hpp), as any reader filled it, becomes a template document.
// Private to the converters.
#pragma once

#include <string>

#include "convert/findings.hpp"
#include "convert/plan/plan.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/result.hpp"

namespace ptmpl::plan {

/// The template of `plan`, read from the file `path` (whose name is the title of a plan
/// without one): tasks in outline order become stories (summary tasks parents, a task's UID
/// its temp_id); Start and Finish become working-day offsets through the project calendar (a
/// start at or after the end of a working day moves to the next working day, a finish at or
/// before its beginning to the previous one); links move from the successor to the
/// predecessor, their lags in working days (of the task's own calendar when the plan gives it
/// its own length of day, P6: counted from the predecessor's end on that calendar, then as the
/// project calendar's working days they span); costs, work, notes and named resources are kept;
/// the plan's calendar is recorded in the calendar block. Everything a template cannot hold
/// as the plan says goes to `findings`. `size_hint`: bytes to reserve for the document. Fails
/// only when the outline is nested deeper than a template holds.
[[nodiscard]] Result<Conversion> build_template(const Plan& plan, const std::string& path,
                                                detail::FindingSink& findings, std::size_t size_hint = 0);

}  // namespace ptmpl::plan
