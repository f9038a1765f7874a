// The three file shapes of docs/semantics.md §2 (and the API's response): what the reader of templates
// (template_file.hpp) detects, and the order the writer (writer.hpp) gives each one's keys.
#pragma once

#include <string_view>

#include "libtemplate/core/json.hpp"

namespace ptmpl {

/// The shape of a file, detected by content (docs/semantics.md §2).
enum class Shape {
  StoryList,         ///< a JSON array of stories (the canonical content of raw_json)
  StoriesObject,     ///< an object with a "stories" array (read, reported by raw-json-shape)
  TemplateDocument,  ///< {"project_template": {…}}
  Envelope,          ///< an API response: count, results, project_templates map
  Unknown,           ///< valid JSON that is none of the above
};

/// "story list", "stories object", "template document", "API response" or "unknown".
[[nodiscard]] std::string_view to_string(Shape shape);
/// The shape of a document whose root is `root`.
[[nodiscard]] Shape detect_shape(const json::Value& root);

}  // namespace ptmpl
