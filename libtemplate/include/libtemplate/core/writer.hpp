// Writing templates: the canonical pretty form (what `fmt` prints) and the API form, through
// JsonEmitter.
#pragma once

#include <string>

#include "libtemplate/core/json.hpp"
#include "libtemplate/core/json_emitter.hpp"
#include "libtemplate/core/shape.hpp"

namespace ptmpl {

/// The canonical form of a document of `shape`: 2-space indent, one element per line,
/// documented keys in docs/semantics.md §3 order then unknown keys in their original order (duplicates kept,
/// in order), numbers as spelled, strings as UTF-8 with only `"`, `\` and control characters
/// escaped, a final newline. A raw_json string is kept as it is. Writing the canonical form of
/// a canonical file gives the same bytes. Precondition: the tree holds no Truncated values.
[[nodiscard]] std::string write_canonical(const json::Value& root, Shape shape);

/// Whether `text` is exactly write_canonical(root, shape), found without holding that text: it
/// is compared piece by piece as it is written (what `fmt --check` asks of a large file).
[[nodiscard]] bool is_canonical(const json::Value& root, Shape shape, std::string_view text);

/// The same ordering rules, without whitespace (no final newline).
[[nodiscard]] std::string write_compact(const json::Value& root, Shape shape);

/// The body the service's create and update endpoints take: `{"project_template": {…}}` with
/// raw_json as a string holding the compact canonical story list. `project_template` is the
/// template object of a template document.
[[nodiscard]] std::string write_api_body(const json::Value& project_template);

/// Writes `value` through `out`, the keys of each object in the documented order of `shape`
/// (write_canonical()'s order), laid out as `out` lays out the container it is in (at the root:
/// its layout). Truncated values are written as null. Recurses once per level of nesting.
void write_value(JsonEmitter& out, const json::Value& value, Shape shape = Shape::Unknown);

}  // namespace ptmpl
