// The language server, by concern: navigation over temp_ids — definition, references and
// rename. A temp_id is named by its story's `temp_id` value and by the `source_id` and
// `target_id` of dependencies; ids compare as the lint rules compare them (7 and "7" are the
// same story, canonical_temp_id()), within one template.
#include <algorithm>
#include <charconv>

#include "lsp/features.hpp"
#include "lsp/features_document.hpp"

namespace ptmpl::lsp {

using features::Analysis;
using features::IdSite;

namespace {

// The range a site's value covers: the whole value, quotes included.
Range site_range(const Analysis& analysis, const IdSite& site) {
  return analysis.range(site.begin, site.end);
}

// The range of the id's text: inside the quotes of a string.
Range text_range(const Analysis& analysis, const IdSite& site) {
  if (site.written_as_string && site.end >= site.begin + 2) return analysis.range(site.begin + 1, site.end - 1);
  return site_range(analysis, site);
}

// A name that is an integer spelled as temp_id_key() spells one ("7", "-3"; not "07" or "+7").
std::optional<std::int64_t> integer_name(std::string_view name) {
  std::int64_t n = 0;
  auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), n);
  if (ec != std::errc() || end != name.data() + name.size()) return std::nullopt;
  if (std::to_string(n) != name) return std::nullopt;
  return n;
}

bool blank(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; });
}

const char* const kNoId =
    "no temp_id here: place the cursor on a story's temp_id or on a dependency's source_id or target_id";

}  // namespace

Reply definition(const OpenDocument& document, Position position) {
  auto analysis = features::analysis_of(document);
  const IdSite* site = analysis->site_at(analysis->positions().offset(position));
  if (site == nullptr) return {};
  auto stories = analysis->declarations(site->templ, site->id);
  if (stories.empty()) return {};
  // The place of each story with that temp_id (more than one is a duplicate-temp-id finding):
  // its temp_id value, where the cursor lands on the id it followed.
  JsonEmitter json(JsonLayout::Compact);
  json.begin_array();
  for (const IdSite* declaration : analysis->sites_naming(site->templ, site->id))
    if (declaration->role == IdSite::Role::Declaration)
      features::write_location(json, document.uri, site_range(*analysis, *declaration));
  json.end_array();
  return features::result_of(json);
}

Reply references(const OpenDocument& document, Position position, bool include_declaration) {
  auto analysis = features::analysis_of(document);
  const IdSite* site = analysis->site_at(analysis->positions().offset(position));
  if (site == nullptr) return {};
  JsonEmitter json(JsonLayout::Compact);
  json.begin_array();
  for (const IdSite* named : analysis->sites_naming(site->templ, site->id))
    if (include_declaration || named->role != IdSite::Role::Declaration)
      features::write_location(json, document.uri, site_range(*analysis, *named));
  json.end_array();
  return features::result_of(json);
}

Reply prepare_rename(const OpenDocument& document, Position position) {
  auto analysis = features::analysis_of(document);
  if (!analysis->parsed()) return features::error_of(features::kRequestFailed, "the document is not valid JSON");
  const IdSite* site = analysis->site_at(analysis->positions().offset(position));
  if (site == nullptr) return features::error_of(features::kRequestFailed, kNoId);
  JsonEmitter json(JsonLayout::Compact);
  json.begin_object();
  json.key("range");
  features::write_range(json, text_range(*analysis, *site));
  json.member("placeholder", features::id_text(site->id));
  json.end_object();
  return features::result_of(json);
}

// Every site naming the id is rewritten. A site keeps the kind it is written as when it can:
// a number stays a number when the new name is an integer, a string stays a string; a number
// becomes a string when the new name is not an integer (temp_ids may be either, docs/semantics.md §3).
Reply rename(const OpenDocument& document, Position position, std::string_view new_name) {
  auto analysis = features::analysis_of(document);
  if (!analysis->parsed()) return features::error_of(features::kRequestFailed, "the document is not valid JSON");
  const IdSite* site = analysis->site_at(analysis->positions().offset(position));
  if (site == nullptr) return features::error_of(features::kRequestFailed, kNoId);
  if (new_name.empty() || blank(new_name))
    return features::error_of(features::kInvalidParams, "a temp_id cannot be empty or blank");
  const std::optional<std::int64_t> number = integer_name(new_name);
  const TempId new_id = number ? TempId{*number} : TempId{new_name};
  if (new_id != site->id) {
    auto taken = analysis->declarations(site->templ, new_id);
    if (!taken.empty()) {
      const features::StoryEntry& other = analysis->stories()[taken.front()];
      const Position at = analysis->positions().position(other.begin);
      return features::error_of(features::kRequestFailed,
                                "temp_id " + std::string(new_name) + " is already the temp_id of the story at line " +
                                    std::to_string(at.line + 1) + ": temp_ids must be unique in a template");
    }
  }
  const std::string as_number = number ? std::to_string(*number) : std::string();
  const std::string as_string = json::quoted(new_name);
  JsonEmitter json(JsonLayout::Compact);
  json.begin_object();
  json.key("changes");
  json.begin_object();
  json.key(document.uri);
  json.begin_array();
  for (const IdSite* named : analysis->sites_naming(site->templ, site->id)) {
    json.begin_object();
    json.key("range");
    features::write_range(json, site_range(*analysis, *named));
    json.member("newText", !named->written_as_string && number ? as_number : as_string);
    json.end_object();
  }
  json.end_array();
  json.end_object();
  json.end_object();
  return features::result_of(json);
}

}  // namespace ptmpl::lsp
