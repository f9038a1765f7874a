// A story list flattened in pre-order.
#include "publish/story_list.hpp"

#include "libtemplate/core/shape.hpp"
#include "libtemplate/core/writer.hpp"

namespace ptmpl::publish::detail {
namespace {

void flatten(const json::Value& list, std::size_t parent, FlatStories& out) {
  if (!list.is_array()) return;
  for (const json::Value& story : list.items()) {
    if (!story.is_object()) {
      out.not_stories.push_back(parent);
      continue;
    }
    FlatStory flat;
    flat.story = &story;
    const json::Value* id = story.find("temp_id");
    if (id != nullptr && !id->is_null()) {
      flat.temp_id = write_compact(*id, Shape::Unknown);
      flat.pairable = id->is_string() || id->is_number();
    }
    const json::Value* title = story.find("title");
    if (title != nullptr && title->is_string()) flat.title = std::string(title->text());
    flat.label = (flat.temp_id.empty() ? "" : "[" + id_text(*id) + "] ") +
                 (title != nullptr && title->is_string() ? json::quoted(title->text()) : "(untitled)");
    flat.parent = parent;
    if (parent != kTopLevel) {
      flat.parent_label = out.stories[parent].label;
      flat.place = out.stories[parent].place;
    }
    flat.place += "/" + flat.title;
    out.stories.push_back(std::move(flat));
    if (const json::Value* children = story.find("sub_stories"); children != nullptr)
      flatten(*children, out.stories.size() - 1, out);
  }
}

}  // namespace

FlatStories flatten_stories(const json::Value& list) {
  FlatStories out;
  flatten(list, kTopLevel, out);
  return out;
}

std::string id_text(const json::Value& id) {
  return id.is_string() ? std::string(id.text()) : write_compact(id, Shape::Unknown);
}

}  // namespace ptmpl::publish::detail
