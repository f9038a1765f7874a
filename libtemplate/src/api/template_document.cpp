// A template as the service returned it → the template document authors keep in git.
#include <rapidjson/document.h>

#include "json_nesting.hpp"
#include "libtemplate/api_client.hpp"
#include "libtemplate/json.hpp"
#include "libtemplate/writer.hpp"
#include "rapidjson_emit.hpp"

namespace ptmpl::api {

Result<std::string> template_document(const RemoteTemplate& remote) {
  rapidjson::Document object;
  // Values are copied with Accept(), which recurses once per level.
  if (detail::json_nesting(remote.json) > json::kMaxDepthLimit)
    return Error::service("template " + std::to_string(remote.id) + ": the service's JSON is nested deeper than " +
                          std::to_string(json::kMaxDepthLimit) + " levels");
  detail::parse_iteratively(object, remote.json);
  if (object.HasParseError() || !object.IsObject())
    return Error::service("template " + std::to_string(remote.id) + ": the service's JSON is not an object");
  // The keys of a template document (SPEC §2), plus the id that ties the file to the service.
  static constexpr const char* kKeys[] = {"id",     "title",    "description", "shared",     "is_budgeted",
                                          "budget", "currency", "duration",    "item_count", "updated_at"};
  JsonEmitter out(JsonLayout::Compact);
  out.begin_object();
  out.key("project_template");
  out.begin_object();
  for (const char* key : kKeys) {
    auto it = object.FindMember(key);
    if (it == object.MemberEnd() || it->value.IsNull()) continue;
    out.key(std::string_view(key));
    detail::emit(it->value, out);
  }
  if (remote.raw_json) {
    // raw_json as the story list itself (pleasant to edit and lint); kept as the service's
    // string when it is not valid JSON, so nothing is lost.
    rapidjson::Document stories;
    detail::parse_iteratively(stories, *remote.raw_json);
    out.key("raw_json");
    if (remote.raw_json->find_first_not_of(" \t\r\n") == std::string::npos) {
      out.begin_array();  // an empty string: no stories
      out.end_array();
    } else if (!stories.HasParseError()) {
      out.raw(*remote.raw_json);
    } else {
      out.string(*remote.raw_json);
    }
  }
  out.end_object();
  out.end_object();
  const std::string text = out.finish();
  json::ParseOptions options;
  options.max_depth = json::kMaxDepthLimit;
  json::Document doc = json::Document::parse(text, options);
  if (!doc.ok()) return Error::service("template " + std::to_string(remote.id) + ": cannot re-read its JSON");
  // The canonical writer needs the whole tree.
  if (doc.truncated())
    return Error::service("template " + std::to_string(remote.id) + ": its raw_json is nested deeper than " +
                          std::to_string(json::kMaxDepthLimit) + " levels");
  return write_canonical(doc.root(), Shape::TemplateDocument);
}

}  // namespace ptmpl::api
