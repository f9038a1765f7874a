// Files built into the library: the JSON Schemas and the rule documentation pages.
#pragma once

#include <optional>
#include <string_view>

namespace ptmpl {

/// The bundled schema `raw_json`, `template` or `config` (the text of
/// schemas/<name>.schema.json), or nullopt for another name.
[[nodiscard]] std::optional<std::string_view> bundled_schema(std::string_view name);

/// The page docs/rules/<id>.md, or nullopt when the rule has none.
[[nodiscard]] std::optional<std::string_view> rule_documentation(std::string_view id);

}  // namespace ptmpl
