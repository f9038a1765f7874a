// `ptmpl push`: reading a template document for publishing, deciding between create, update
// and leaving alone, saving the service's version before overwriting it, writing the id back.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <thread>

#include "io/worker_pool.hpp"
#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/foreign_plan.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/model.hpp"
#include "libtemplate/core/template_file.hpp"
#include "libtemplate/core/writer.hpp"
#include "libtemplate/publish/publish.hpp"
#include "publish/publish_support.hpp"

namespace ptmpl::publish {
namespace {

/// The keys of a project_template that are ptmpl's own, never sent to the service: its record
/// of the service (id, updated_at), and a calendar block misplaced inside it (docs/semantics.md §2 puts it
/// beside project_template, which the body never includes; calendar-invalid reports it).
bool bookkeeping_key(std::string_view key) {
  return key == "id" || key == "updated_at" || key == "calendar";
}

/// The whitespace a member key at `at` is indented with, when it starts its line; else "".
std::string_view indent_before(std::string_view text, std::size_t at) {
  std::size_t line = text.rfind('\n', at == 0 ? 0 : at - 1);
  line = line == std::string_view::npos ? 0 : line + 1;
  std::string_view lead = text.substr(line, at - line);
  return lead.find_first_not_of(" \t") == std::string_view::npos ? lead : std::string_view();
}

std::string stamp_for_file_name(const std::string& updated_at) {
  std::string out;
  for (char c : updated_at) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  return out.empty() ? "unknown" : out;
}

/// Saves the template document of `remote` under `dir`; returns its path.
Result<std::string> save_backup(const std::string& dir, const RemoteTemplate& remote) {
  if (dir.empty()) return Error::usage("no place for backups: set HOME or XDG_STATE_HOME, or give --backup-dir");
  auto document = template_document(remote);
  if (!document.ok()) return document.error();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Error::output_failed(dir + ": cannot create the backup directory: " + ec.message());
  std::string path = (std::filesystem::path(dir) /
                      (std::to_string(remote.id) + "-" + stamp_for_file_name(remote.updated_at) + ".json"))
                         .string();
  if (auto written = write_file_atomic(path, document.value()); !written.ok()) return written.error();
  return path;
}

PushOutcome failed(Error error) {
  PushOutcome out;
  out.action = PushAction::Failed;
  out.message = std::move(error.message);
  out.failure = error.code;
  return out;
}

/// Writes the outcome's id and updated_at into the document's file when they changed.
void record_identity(const LocalTemplate& local, PushOutcome& outcome) {
  if (local.id == outcome.id && local.updated_at == outcome.updated_at) return;
  auto text = with_identity(local.text, outcome.id, outcome.updated_at);
  // Only onto the bytes that were read (and pushed): an edit saved meanwhile is kept, and the
  // message names the id to record by hand.
  Status written = text.ok() ? rewrite_file(local.path, local.text, text.value()) : Status(text.error());
  if (!written.ok()) {
    outcome.message = std::string(to_string(outcome.action)) + " template " + std::to_string(outcome.id) +
                      ", but cannot record its id in the file: " + written.error().message;
    // The edit is kept; pushing it again should update this template, not create another.
    if (written.error().code == ErrorCode::kConflict)
      outcome.message += "; add \"id\": " + std::to_string(outcome.id) +
                         " and \"updated_at\": " + json::quoted(outcome.updated_at) +
                         " to its project_template before pushing it again";
    outcome.action = PushAction::Failed;
    outcome.failure = written.error().code;
  }
}

/// After a create: the title must now name exactly one template of the caller's. Another push
/// (from another machine: the lock covers this one) may have created the same title at the same
/// time; the API has no delete, so the duplicates are named for the user to remove.
void check_unique(Client& client, const LocalTemplate& local, PushOutcome& outcome) {
  auto same = client.find_by_title(local.title);
  if (!same.ok() || same.value().size() < 2) return;
  std::string ids;
  for (const auto& t : same.value()) ids += (ids.empty() ? "" : ", ") + std::to_string(t.id);
  outcome.action = PushAction::Failed;
  outcome.failure = ErrorCode::kService;
  outcome.message = "created template " + std::to_string(outcome.id) + ", but the service now holds " +
                    std::to_string(same.value().size()) + " templates of yours titled \"" + local.title + "\" (ids " +
                    ids + "): another push created it at the same time; the file records " +
                    std::to_string(outcome.id) + ": delete the others in the web application";
}

/// Records `agreed` as the template's base once the push is done (a failure is only a warning:
/// the template is published, a later `pull --merge` just has no base).
void keep_base(const PushOptions& options, const RemoteTemplate& agreed, PushOutcome& outcome) {
  if (options.dry_run || options.base_dir.empty()) return;
  if (outcome.action != PushAction::Created && outcome.action != PushAction::Updated &&
      outcome.action != PushAction::Unchanged)
    return;
  RemoteTemplate version = agreed;
  version.id = outcome.id;
  version.updated_at = outcome.updated_at;
  if (auto kept = record_base(options.base_dir, version); !kept.ok())
    outcome.warning = "cannot record the base of template " + std::to_string(outcome.id) +
                      " (`pull --merge` needs it): " + kept.error().message;
}

}  // namespace

std::string_view to_string(PushAction action) {
  switch (action) {
    case PushAction::Created:
      return "created";
    case PushAction::Updated:
      return "updated";
    case PushAction::Unchanged:
      return "unchanged";
    case PushAction::WouldCreate:
      return "would create";
    case PushAction::WouldUpdate:
      return "would update";
    case PushAction::Conflict:
      return "conflict";
    case PushAction::Failed:
      return "failed";
  }
  return "failed";
}

Result<LocalTemplate> read_local_template(std::string path, std::string text) {
  LocalTemplate local;
  local.path = std::move(path);
  local.text = std::move(text);
  if (std::optional<Error> plan = plan_instead_of_template(local.text, local.path)) return *plan;
  json::Document doc = json::Document::parse(local.text);
  if (!doc.ok()) return Error::invalid(local.path + ": not valid JSON");
  const json::Value* pt = doc.root().is_object() ? doc.root().find("project_template") : nullptr;
  if (pt == nullptr || !pt->is_object())
    return Error::invalid(local.path +
                          ": not a template document ({\"project_template\": {…}}); a story list has no title "
                          "to publish it under");
  const json::Value* title = pt->find("title");
  if (title == nullptr || !title->is_string()) return Error::invalid(local.path + ": the template has no title");
  local.title = std::string(title->text());
  if (const json::Value* id = pt->find("id"); id != nullptr && !id->is_null()) {
    std::optional<std::int64_t> number = id->is_string() ? template_id(id->text()) : id->as_int64();
    if (!number || *number <= 0)
      return Error::invalid(local.path + ": \"id\"" + (id->is_string() ? " " + quoted_excerpt(id->text()) : "") +
                            " is not a template id (a whole number from 1 to 2^63-1)");
    local.id = *number;
  }
  if (const json::Value* stamp = pt->find("updated_at"); stamp != nullptr && stamp->is_string())
    local.updated_at = std::string(stamp->text());

  // What lint checked is what is sent: of duplicate keys, at any depth, only the last (the
  // value the rules read and the service keeps).
  json::Arena arena;
  json::Builder build(arena);
  const json::Value fields = json::last_of_each_key(*pt, arena);
  std::vector<json::Member> sent;
  for (const json::Member& m : fields.members())
    if (!bookkeeping_key(m.key.text())) sent.push_back(m);
  local.body = write_api_body(build.object(sent));
  for (const char* key : kStoredFields)
    if (const json::Value* v = fields.find(key); v != nullptr)
      local.fields.emplace_back(key, write_compact(*v, Shape::Unknown));
  if (const json::Value* raw = fields.find("raw_json"); raw != nullptr) local.stories = detail::canonical_stories(*raw);
  return local;
}

bool same_content(const LocalTemplate& local, const RemoteTemplate& remote) {
  json::Document doc = json::Document::parse(remote.json);
  if (!doc.ok() || !doc.root().is_object()) return false;
  for (const auto& [key, value] : local.fields) {
    const json::Value* theirs = doc.root().find(key);
    std::string text = theirs == nullptr ? "null" : write_compact(*theirs, Shape::Unknown);
    if (!detail::same_value(value, text)) return false;
  }
  if (!local.stories) return true;
  return remote.raw_json && detail::canonical_story_text(*remote.raw_json) == *local.stories;
}

Result<std::string> with_identity(std::string_view text, std::int64_t id, const std::string& updated_at) {
  json::Document doc = json::Document::parse(text);
  const json::Value* pt = doc.ok() && doc.root().is_object() ? doc.root().find("project_template") : nullptr;
  if (pt == nullptr || !pt->is_object() || pt->members().empty()) return Error::invalid("not a template document");
  std::string id_text = std::to_string(id);
  std::string stamp_text;
  json::append_quoted(stamp_text, updated_at);

  struct Edit {
    std::size_t at;
    std::size_t length;
    std::string text;
  };
  std::vector<Edit> edits;
  // Canonical order of the template's keys: where a missing one goes.
  auto order = [](std::string_view key) {
    auto keys = template_keys();
    auto it = std::find(keys.begin(), keys.end(), key);
    return it == keys.end() ? keys.size() : static_cast<std::size_t>(it - keys.begin());
  };
  auto members = pt->members();
  // Values of the document just parsed from `text`, so each one is found there.
  auto end_of = [&](const json::Value& value) {
    return static_cast<std::size_t>(json::value_end(text, value).value_or(text.size()));
  };
  auto set = [&](std::string_view key, const std::string& value) {
    if (const json::Value* existing = pt->find(key)) {  // of duplicates, the last: the one read
      std::size_t at = existing->offset();
      edits.push_back({at, end_of(*existing) - at, value});
      return;
    }
    std::string member;
    json::append_quoted(member, key);
    member += ": " + value + ",";
    // Before the first member that comes after `key` in canonical order.
    for (const json::Member& m : members) {
      if (order(m.key.text()) > order(key)) {
        std::size_t at = m.key.offset();
        std::string_view indent = indent_before(text, at);
        edits.push_back({at, 0,
                         member + (indent.empty() && at > 0 && text[at - 1] != '{' ? " " : "") +
                             (indent.empty() ? "" : "\n" + std::string(indent))});
        return;
      }
    }
    // After the last member.
    const json::Member& back = members.back();
    std::size_t end = end_of(back.value);
    std::string_view indent = indent_before(text, back.key.offset());
    member.pop_back();  // the comma goes before it
    edits.push_back({end, 0, "," + (indent.empty() ? std::string(" ") : "\n" + std::string(indent)) + member});
  };
  set("id", id_text);
  set("updated_at", stamp_text);
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.at > b.at; });
  std::string out(text);
  for (const Edit& e : edits) out.replace(e.at, e.length, e.text);
  return out;
}

PushOutcome push_template(Client& client, const LocalTemplate& local, const PushOptions& options) {
  auto found = find_remote(client, local);
  if (!found.ok()) return failed(found.error());
  std::optional<RemoteTemplate> remote = std::move(found).value();

  PushOutcome outcome;
  if (!remote) {
    if (options.dry_run) {
      outcome.action = PushAction::WouldCreate;
      outcome.method = "POST";
      outcome.url = client.base_url() + "/project_templates.json";
      outcome.changes = compare_template(local, nullptr);
      return outcome;
    }
    auto created = client.create(local.body, local.title);
    if (!created.ok()) return failed(created.error());
    outcome.action = PushAction::Created;
    outcome.id = created.value().id;
    outcome.updated_at = created.value().updated_at;
    record_identity(local, outcome);
    if (outcome.action == PushAction::Created) check_unique(client, local, outcome);
    keep_base(options, pushed_version(local, created.value()), outcome);
    return outcome;
  }

  outcome.id = remote->id;
  outcome.updated_at = remote->updated_at;
  if (same_content(local, *remote)) {
    outcome.action = PushAction::Unchanged;
    if (!options.dry_run) record_identity(local, outcome);
    keep_base(options, *remote, outcome);
    return outcome;
  }
  if (!local.updated_at.empty() && local.updated_at != remote->updated_at && !options.force) {
    outcome.action = PushAction::Conflict;
    outcome.message = "template " + std::to_string(remote->id) + " \"" + remote->title +
                      "\" changed on the service since this file was pulled (its updated_at is " + remote->updated_at +
                      ", the file's " + local.updated_at +
                      "): `ptmpl diff` shows how; --force overwrites it (saving the service's version first)";
    return outcome;
  }
  if (options.dry_run) {
    outcome.action = PushAction::WouldUpdate;
    outcome.method = "PUT";
    outcome.url = client.base_url() + "/project_templates/" + std::to_string(remote->id) + ".json";
    outcome.changes = compare_template(local, &*remote);
    return outcome;
  }
  auto backup = save_backup(options.backup_dir, *remote);
  if (!backup.ok())
    return failed(Error::output_failed("not overwriting template " + std::to_string(remote->id) +
                                       ": cannot save the service's version first: " + backup.error().message));
  outcome.backup = backup.value();
  auto updated = client.update(remote->id, local.body, local.title);
  if (!updated.ok()) {
    PushOutcome out = failed(updated.error());
    out.backup = outcome.backup;
    return out;
  }
  outcome.action = PushAction::Updated;
  outcome.updated_at = updated.value().updated_at;
  record_identity(local, outcome);
  keep_base(options, pushed_version(local, updated.value()), outcome);
  return outcome;
}

std::vector<PushOutcome> push_templates(const std::vector<LocalTemplate>& locals, const PushOptions& options,
                                        const std::function<std::unique_ptr<Client>()>& make_client,
                                        const std::function<void(std::size_t, const PushOutcome&)>& done) {
  std::vector<PushOutcome> outcomes(locals.size());
  std::atomic<bool> service_gone{false};
  std::mutex report;
  auto finish = [&](std::size_t i, PushOutcome outcome) {
    std::lock_guard lock(report);
    outcomes[i] = std::move(outcome);
    if (done) done(i, outcomes[i]);
  };
  // Each worker has its own client (and connection). Up to kSureWorkers start at once; more,
  // up to the jobs asked for, only while they make the push faster (WorkerGrowth).
  constexpr unsigned kSureWorkers = 4;
  ptmpl::detail::for_each_on_growing_workers(
      locals.size(), kSureWorkers, std::max(1u, options.jobs), make_client,
      [&](std::unique_ptr<Client>& client, std::size_t i) {
        if (service_gone) {
          finish(i, failed(Error::network("not attempted: the service stopped answering")));
          return;
        }
        PushOutcome outcome = push_template(*client, locals[i], options);
        if (outcome.action == PushAction::Failed && outcome.failure == ErrorCode::kNetwork) service_gone = true;
        finish(i, std::move(outcome));
      });
  return outcomes;
}

}  // namespace ptmpl::publish
