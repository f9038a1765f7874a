// What the format detection needs to know of the CSV converter. Private to the converters.
#pragma once

#include <string_view>

namespace ptmpl::detail {

/// Whether `line` (a first line, without its line break) is a CSV header of ours: its
/// comma-separated cells (quotes, case and surrounding blanks aside) name `title` and at least
/// one other column the CSV converter reads.
[[nodiscard]] bool is_csv_header(std::string_view line);

}  // namespace ptmpl::detail
