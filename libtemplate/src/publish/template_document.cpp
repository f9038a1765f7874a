// A template as the service returned it → the template document authors keep in git.
#include <algorithm>
#include <iterator>
#include <optional>
#include <vector>

#include "libtemplate/core/json.hpp"
#include "libtemplate/core/writer.hpp"
#include "libtemplate/publish/api_client.hpp"

namespace ptmpl::publish {

namespace {

// The keys of a template document that come from the service (docs/semantics.md §2), plus the id that ties
// the file to the service; raw_json apart.
constexpr const char* kServiceKeys[] = {"id",     "title",    "description", "shared",     "is_budgeted",
                                        "budget", "currency", "duration",    "item_count", "updated_at"};

bool from_service(std::string_view key) {
  return key == "raw_json" ||
         std::any_of(std::begin(kServiceKeys), std::end(kServiceKeys), [&](const char* k) { return key == k; });
}

}  // namespace

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
  for (const char* key : kServiceKeys) {
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

std::string with_file_own_keys(const std::string& pulled, std::string_view file) {
  json::ParseOptions options;
  options.max_depth = json::kMaxDepthLimit;
  json::Document mine = json::Document::parse(file, options);
  const json::Value* mine_pt = mine.ok() && mine.root().is_object() ? mine.root().find("project_template") : nullptr;
  if (mine.truncated() || mine_pt == nullptr || !mine_pt->is_object()) return pulled;
  json::Document theirs = json::Document::parse(pulled, options);
  const json::Value* theirs_pt = theirs.ok() ? theirs.root().find("project_template") : nullptr;
  if (theirs_pt == nullptr) return pulled;
  json::Builder build(theirs.arena());
  std::vector<json::Member> pt(theirs_pt->members().begin(), theirs_pt->members().end());
  bool kept = false;
  for (const json::Member& m : mine_pt->members())
    if (!from_service(m.key.text())) {
      pt.push_back(m);
      kept = true;
    }
  std::vector<json::Member> top;
  for (const json::Member& m : mine.root().members()) {
    if (m.key.text() != "project_template") {
      top.push_back(m);
      kept = true;
    } else if (std::none_of(top.begin(), top.end(),
                            [](const json::Member& t) { return t.key.text() == "project_template"; })) {
      top.push_back(build.member("project_template", build.object(pt)));
    }
  }
  if (!kept) return pulled;
  return write_canonical(build.object(top), Shape::TemplateDocument);
}

}  // namespace ptmpl::publish
