// What the MSPDI reader shares with tests and tools: its calendars as the plan model holds
// them. Private to the converters.
#pragma once

#include <vector>

#include <pugixml.hpp>

#include "convert/plan/plan.hpp"

namespace ptmpl::mspdi {

/// Every `<Calendar>` with a UID under `<Calendars>`, in the file's order.
[[nodiscard]] std::vector<plan::Calendar> read_calendars(pugi::xml_node calendars);

}  // namespace ptmpl::mspdi
