// A template as the service returned it → the template document authors keep in git.
#include <optional>
#include <vector>

#include "libtemplate/api_client.hpp"
#include "libtemplate/json.hpp"
#include "libtemplate/writer.hpp"

namespace ptmpl::api {

Result<std::string> template_document(const RemoteTemplate& remote) {
  const std::string what = "template " + std::to_string(remote.id);
  // The canonical writer needs the whole tree, so nothing may be cut by the nesting bound.
  json::ParseOptions options;
  options.max_depth = json::kMaxDepthLimit;
  json::Document object = json::Document::parse(remote.json, options);
  if (object.truncated())
    return Error::service(what + ": the service's JSON is nested deeper than " + std::to_string(json::kMaxDepthLimit) +
                          " levels");
  if (!object.ok() || !object.root().is_object()) return Error::service(what + ": the service's JSON is not an object");
  json::Builder build(object.arena());
  std::vector<json::Member> fields;
  // The keys of a template document (SPEC §2), plus the id that ties the file to the service.
  static constexpr const char* kKeys[] = {"id",     "title",    "description", "shared",     "is_budgeted",
                                          "budget", "currency", "duration",    "item_count", "updated_at"};
  for (const char* key : kKeys) {
    const json::Value* value = object.root().find(key);
    if (value != nullptr && !value->is_null()) fields.push_back(build.member(key, *value));
  }
  std::optional<json::Document> stories;
  if (remote.raw_json) {
    // raw_json as the story list itself (pleasant to edit and lint); kept as the service's
    // string when it is not valid JSON, so nothing is lost.
    if (remote.raw_json->find_first_not_of(" \t\r\n") == std::string::npos) {
      fields.push_back(build.member("raw_json", build.array({})));  // an empty string: no stories
    } else if (stories = json::Document::parse(*remote.raw_json, options); stories->ok()) {
      if (stories->truncated())
        return Error::service(what + ": its raw_json is nested deeper than " + std::to_string(json::kMaxDepthLimit) +
                              " levels");
      fields.push_back(build.member("raw_json", stories->root()));
    } else if (!json::invalid_utf8_offset(*remote.raw_json)) {
      fields.push_back(build.member("raw_json", build.string(*remote.raw_json)));
    } else {
      return Error::service(what + ": its raw_json is not UTF-8 text");
    }
  }
  const json::Member document = build.member("project_template", build.object(fields));
  return write_canonical(build.object({&document, 1}), Shape::TemplateDocument);
}

}  // namespace ptmpl::api
