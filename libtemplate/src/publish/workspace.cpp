// The workspace a template makes: the body of `POST /workspaces.json`.
#include "libtemplate/publish/workspace.hpp"

#include <algorithm>

#include "libtemplate/core/json_emitter.hpp"

namespace ptmpl::publish {

NewWorkspace workspace_of(const LocalTemplate& local, std::string start_date, std::optional<std::string> title) {
  NewWorkspace out;
  out.title = title.value_or(local.title);
  out.start_date = std::move(start_date);
  out.template_id = local.id;
  auto field = [&](std::string_view key) -> std::optional<std::string> {
    auto it = std::find_if(local.fields.begin(), local.fields.end(), [&](const auto& f) { return f.first == key; });
    if (it == local.fields.end() || it->second == "null") return std::nullopt;
    return it->second;
  };
  out.budgeted = field("is_budgeted");
  if (out.budgeted == "true") out.price = field("budget");  // API reference: price "if budgeted"
  out.currency = field("currency");
  return out;
}

std::string workspace_body(const NewWorkspace& workspace) {
  JsonEmitter json(JsonLayout::Compact);
  json.begin_object();
  json.key("workspace");
  json.begin_object();
  json.member("title", workspace.title);
  json.member("creator_role", workspace.creator_role);
  json.member("start_date", workspace.start_date);
  json.key("project_tracker_template_id");
  if (workspace.template_id)
    json.integer(*workspace.template_id);
  else
    json.null();
  // Values of the template document as lint checked them, compact JSON already.
  if (workspace.budgeted) {
    json.key("budgeted");
    json.raw(*workspace.budgeted);
  }
  if (workspace.price) {
    json.key("price");
    json.raw(*workspace.price);
  }
  if (workspace.currency) {
    json.key("currency");
    json.raw(*workspace.currency);
  }
  json.end_object();
  json.end_object();
  return json.finish();
}

}  // namespace ptmpl::publish
