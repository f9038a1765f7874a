// The GanttProject `.gan` reader: a `.gan` text read into the plan model (plan/plan.hpp), which
// the one builder makes a template of (convert_gan). Private to the converters.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <pugixml.hpp>

#include "convert/findings.hpp"
#include "convert/plan/plan.hpp"
#include "libtemplate/core/result.hpp"

namespace ptmpl::gan {

/// A `.gan` file's plan and the XML document its views point into.
struct PlanDocument {
  pugi::xml_document xml;
  plan::Plan plan;
};

/// The plan `text` (named `path` in messages) holds: nested tasks in outline order (a task's
/// id its UID; a missing or repeated id none), each with its start and its length in working
/// days; links moved from their predecessors to their successors, in GanttProject's order;
/// the calendar; named resources and their allocations. What the plan model does not hold
/// (progress, priorities, custom properties, loads, vacations, baselines) and what is dropped
/// while reading goes to `findings` (`gan-*`). Fails when `text` is not well-formed XML or not
/// a GanttProject file.
[[nodiscard]] Result<std::unique_ptr<PlanDocument>> read_plan(std::string_view text, const std::string& path,
                                                              detail::FindingSink& findings);

}  // namespace ptmpl::gan
