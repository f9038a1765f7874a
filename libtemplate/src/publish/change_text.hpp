// What the library's own messages say of changes and conflicts: the text of `ptmpl diff`
// (file_diff.cpp) and of the conflicts `pull --merge` meets (pull.cpp). Public: changes_text(),
// which the command line shows a dry run's changes with.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/publish/publish.hpp"

namespace ptmpl::publish {

/// `ptmpl diff`'s text for `local` against the service's copy `remote` (with raw_json): template
/// fields that differ, then stories added, removed, moved or changed (matched by temp_id, else
/// by title and place), field by field, dependencies by target. Empty when they hold the same.
[[nodiscard]] std::string diff_template(const LocalTemplate& local, const RemoteTemplate& remote);

/// A side of a change as the text shows it: "(none)" when absent; a value (compact JSON)
/// longer than `width` bytes cut at a whole character with "…" (a string keeps its quote).
[[nodiscard]] std::string shown_value(const std::optional<std::string>& value, std::size_t width);

/// `conflicts` one a line, each starting with `indent`: `[survey] "Survey": duration: locally
/// 5, on the service 9 (base 7)`, `template: description: …`.
[[nodiscard]] std::string conflict_lines(const std::vector<MergeConflict>& conflicts, std::string_view indent);

}  // namespace ptmpl::publish
