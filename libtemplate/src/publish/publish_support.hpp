// What push and diff both need to compare a document with the service's copy.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "libtemplate/core/json.hpp"
#include "libtemplate/core/json_emitter.hpp"
#include "libtemplate/publish/publish.hpp"

namespace ptmpl::publish::detail {

/// The compact canonical form of a story list given as JSON text ("" and blanks: `[]`); text
/// that is not JSON is returned as it is, so it still compares with itself.
[[nodiscard]] std::string canonical_story_text(std::string_view text);

/// The same for a raw_json value: an array, or a string holding the list; nullopt otherwise.
[[nodiscard]] std::optional<std::string> canonical_stories(const json::Value& raw_json);

/// Two fields' JSON texts hold the same: equal as text, or as numbers by value (1500, 1500.0).
[[nodiscard]] bool same_value(const std::string& a, const std::string& b);

/// A service address as push's lock and the base store know it: without trailing slashes,
/// scheme and host in lower case.
[[nodiscard]] std::string address_key(std::string url);

/// What the two sides of a comparison are called in JSON: `service` and `local` for a file
/// against the service's copy, `base` and `local` or `service` three ways.
struct ChangeSides {
  JsonKey before;
  JsonKey after;
};

/// `{"temp_id", "title"}` (temp_id as written, null when none), or null for `story` nullopt.
void write_story_name(JsonEmitter& out, const std::optional<StoryName>& story);

/// `changes` as `ptmpl diff --format json` gives them (docs/commands/diff.md): `{"template":
/// [changes], "stories": {"changed", "added", "removed", "reordered"} or null when not compared}`,
/// every value whole, each side under its name in `sides`.
void write_changes_json(JsonEmitter& out, const TemplateChanges& changes, const ChangeSides& sides);

/// Appends `changes` as `ptmpl diff` shows them ("template:" and "stories: …" sections, their
/// lines under them), each line starting with `indent`.
void append_changes(std::string& out, const TemplateChanges& changes, std::string_view indent);

}  // namespace ptmpl::publish::detail
