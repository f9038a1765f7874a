// A unified diff of two texts, as git prints one: what `lint --fix --diff` and `fmt --diff`
// show.
#pragma once

#include <string>
#include <string_view>

namespace ptmpl {

/// A unified diff (3 lines of context) from `before` to `after`, with `a/path` and `b/path`
/// headers; empty when they are equal. Lines removed, added and kept are found
/// by the shortest edit script (Myers' diff), as git shows them.
[[nodiscard]] std::string unified_diff(std::string_view path, std::string_view before, std::string_view after);

}  // namespace ptmpl
