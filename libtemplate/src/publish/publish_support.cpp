#include "publish/publish_support.hpp"

#include <cstdlib>

#include "libtemplate/core/template_file.hpp"
#include "libtemplate/core/writer.hpp"

namespace ptmpl::publish::detail {

std::string canonical_story_text(std::string_view text) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return "[]";
  json::Document inner = json::Document::parse(text);
  if (!inner.ok()) return std::string(text);
  return write_compact(inner.root(), inner.root().is_array() ? Shape::StoryList : detect_shape(inner.root()));
}

std::optional<std::string> canonical_stories(const json::Value& raw_json) {
  if (raw_json.is_array()) return write_compact(raw_json, Shape::StoryList);
  if (raw_json.is_string()) return canonical_story_text(raw_json.text());
  return std::nullopt;
}

bool same_value(const std::string& a, const std::string& b) {
  if (a == b) return true;
  if (a.empty() || b.empty()) return false;
  char* end_a = nullptr;
  char* end_b = nullptr;
  double x = std::strtod(a.c_str(), &end_a);
  double y = std::strtod(b.c_str(), &end_b);
  return *end_a == '\0' && *end_b == '\0' && x == y;
}

}  // namespace ptmpl::publish::detail
