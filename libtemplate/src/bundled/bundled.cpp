#include "libtemplate/core/bundled.hpp"

#include <string>
#include <utility>

namespace ptmpl {

namespace embedded {
// Generated at build time from schemas/*.json and docs/rules/*.md (cmake/embed.cmake).
extern const std::pair<std::string_view, std::string_view> kFiles[];
}  // namespace embedded

namespace {

std::optional<std::string_view> embedded_file(std::string_view relative) {
  for (const auto* entry = embedded::kFiles; !entry->first.empty(); ++entry)
    if (entry->first == relative) return entry->second;
  return std::nullopt;
}

}  // namespace

std::optional<std::string_view> bundled_schema(std::string_view name) {
  if (name != "raw_json" && name != "template" && name != "config") return std::nullopt;
  return embedded_file("schemas/" + std::string(name) + ".schema.json");
}

std::optional<std::string_view> rule_documentation(std::string_view id) {
  return embedded_file("docs/rules/" + std::string(id) + ".md");
}

}  // namespace ptmpl
