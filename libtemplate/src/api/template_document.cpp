// A template as the service returned it → the template document authors keep in git.
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "json_nesting.hpp"
#include "libtemplate/api_client.hpp"
#include "libtemplate/json.hpp"
#include "libtemplate/writer.hpp"

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
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("project_template");
  w.StartObject();
  for (const char* key : kKeys) {
    auto it = object.FindMember(key);
    if (it == object.MemberEnd() || it->value.IsNull()) continue;
    w.Key(key);
    it->value.Accept(w);
  }
  std::string text(buffer.GetString(), buffer.GetSize());
  if (remote.raw_json) {
    // raw_json as the story list itself (pleasant to edit and lint); kept as the service's
    // string when it is not valid JSON, so nothing is lost.
    rapidjson::Document stories;
    detail::parse_iteratively(stories, *remote.raw_json);
    text += text.back() == '{' ? "" : ",";
    if (remote.raw_json->find_first_not_of(" \t\r\n") == std::string::npos) {
      text += "\"raw_json\":[]";  // an empty string: no stories
    } else if (!stories.HasParseError()) {
      text += "\"raw_json\":" + *remote.raw_json;
    } else {
      rapidjson::StringBuffer quoted;
      rapidjson::Writer<rapidjson::StringBuffer> q(quoted);
      q.String(remote.raw_json->data(), static_cast<rapidjson::SizeType>(remote.raw_json->size()));
      text += "\"raw_json\":" + std::string(quoted.GetString(), quoted.GetSize());
    }
  }
  text += "}}";
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
