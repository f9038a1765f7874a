// Telling the shape of a document from its root (shape.hpp).
#include "libtemplate/core/shape.hpp"

namespace ptmpl {

std::string_view to_string(Shape shape) {
  switch (shape) {
    case Shape::StoryList:
      return "story list";
    case Shape::StoriesObject:
      return "stories object";
    case Shape::TemplateDocument:
      return "template document";
    case Shape::Envelope:
      return "API response";
    case Shape::Unknown:
      return "unknown";
  }
  return "unknown";
}

Shape detect_shape(const json::Value& root) {
  if (root.is_array()) return Shape::StoryList;
  if (!root.is_object()) return Shape::Unknown;
  if (root.find("project_template") != nullptr) return Shape::TemplateDocument;
  const json::Value* results = root.find("results");
  const json::Value* map = root.find("project_templates");
  if (results != nullptr && results->is_array() && map != nullptr && map->is_object()) return Shape::Envelope;
  const json::Value* stories = root.find("stories");
  if (stories != nullptr && stories->is_array()) return Shape::StoriesObject;
  return Shape::Unknown;
}

}  // namespace ptmpl
