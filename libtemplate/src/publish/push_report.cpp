// What push shows of its outcomes: the plan of a dry run as text, and every outcome as JSON.
#include "libtemplate/core/json_emitter.hpp"
#include "libtemplate/publish/publish.hpp"
#include "publish/publish_support.hpp"

namespace ptmpl::publish {
namespace {

void write_stories(JsonEmitter& out, const TemplateChanges& changes, StoryChange::Kind kind) {
  out.begin_array();
  for (const StoryChange& s : changes.stories) {
    if (s.kind != kind) continue;
    out.begin_object(JsonLayout::Line);
    out.key("temp_id");
    if (s.temp_id.empty())
      out.null();
    else
      out.raw(s.temp_id);  // compact JSON text of the story's temp_id
    out.member("title", s.title);
    out.end_object();
  }
  out.end_array();
}

}  // namespace

std::string dry_run_plan(const LocalTemplate& local, const PushOutcome& outcome) {
  std::string out = local.path + ": " + std::string(to_string(outcome.action));
  if (outcome.action == PushAction::WouldUpdate) out += " template " + std::to_string(outcome.id);
  out += " " + json::quoted(local.title) + "\n";
  out += "  " + outcome.method + " " + outcome.url + "\n";
  detail::append_changes(out, outcome.changes, "  ");
  return out;
}

std::string push_outcomes_json(const std::vector<LocalTemplate>& locals, const std::vector<PushOutcome>& outcomes) {
  JsonEmitter out;
  out.begin_object();
  out.key("templates");
  out.begin_array();
  for (std::size_t i = 0; i < locals.size() && i < outcomes.size(); ++i) {
    const LocalTemplate& local = locals[i];
    const PushOutcome& outcome = outcomes[i];
    out.begin_object();
    out.member("path", local.path);
    out.member("title", local.title);
    out.member("action", to_string(outcome.action));
    if (outcome.id != 0) out.member("id", outcome.id);
    if (!outcome.updated_at.empty()) out.member("updated_at", outcome.updated_at);
    if (!outcome.backup.empty()) out.member("backup", outcome.backup);
    if (!outcome.message.empty()) out.member("message", outcome.message);
    if (!outcome.method.empty()) {
      out.key("request");
      out.begin_object();
      out.member("method", outcome.method);
      out.member("url", outcome.url);
      out.key("body");
      out.raw(local.body);  // compact JSON, as it would be sent
      out.end_object();
      out.key("changes");
      out.begin_object();
      out.key("fields");
      out.begin_array(JsonLayout::Line);
      for (const FieldChange& f : outcome.changes.fields) out.string(f.key);
      out.end_array();
      out.key("stories");
      out.begin_object();
      out.key("added");
      write_stories(out, outcome.changes, StoryChange::Kind::Added);
      out.key("changed");
      write_stories(out, outcome.changes, StoryChange::Kind::Changed);
      out.key("removed");
      write_stories(out, outcome.changes, StoryChange::Kind::Removed);
      out.end_object();
      out.key("reordered");
      out.boolean(outcome.changes.reordered);
      out.end_object();
    }
    out.end_object();
  }
  out.end_array();
  out.end_object();
  return out.finish();
}

}  // namespace ptmpl::publish
