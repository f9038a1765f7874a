#include "sandbox/workspace_store.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "libtemplate/core/diagnostic.hpp"
#include "libtemplate/core/json.hpp"

namespace ptmpl::sandbox {
namespace {

void optional_text(JsonEmitter& out, std::string_view key, const std::string& text) {
  out.key(key);
  if (text.empty())
    out.null();
  else
    out.string(text);
}

void optional_integer(JsonEmitter& out, std::string_view key, std::optional<std::int64_t> value) {
  out.key(key);
  if (value)
    out.integer(*value);
  else
    out.null();
}

}  // namespace

void write_workspace_json(const StoredWorkspace& w, JsonEmitter& out) {
  out.begin_object();
  out.member("id", std::to_string(w.id));
  out.member("title", w.title);
  out.member("description", w.description);
  out.member("creator_role", w.creator_role);
  out.member("creator_id", std::to_string(w.creator_id));
  out.key("archived");
  out.boolean(w.archived);
  out.key("budgeted");
  out.boolean(w.budgeted);
  out.member("currency", w.currency);
  out.member("currency_base_unit", std::int64_t{100});
  optional_integer(out, "price_in_cents", w.price_in_cents);
  optional_text(out, "start_date", w.start_date);
  optional_text(out, "due_date", w.due_date);
  out.member("access_level", w.access_level);
  optional_integer(out, "project_tracker_template_id", w.project_tracker_template_id);
  out.member("percentage_complete", std::int64_t{0});
  out.member("created_at", w.created_at);
  out.member("updated_at", w.updated_at);
  out.end_object();
}

Result<StoredWorkspace> parse_stored_workspace(const std::string& path, std::string_view text) {
  json::Document doc = json::Document::parse(text);
  if (!doc.ok()) {
    const json::ParseIssue& issue = doc.issues().front();
    json::Position at = doc.position(issue.offset);
    return Error::invalid(format_place(path, at.line, at.column) + ": not a stored workspace (" + issue.message + ")");
  }
  const json::Value& root = doc.root();
  if (!root.is_object()) return Error::invalid(path + ": not a stored workspace (not an object)");
  auto str = [&](std::string_view key, std::string& into) {
    if (const json::Value* v = root.find(key); v != nullptr && v->is_string()) into = v->text();
  };
  // Ids are written as the API writes them, strings; numbers are read too.
  auto int64 = [&](std::string_view key) -> std::optional<std::int64_t> {
    const json::Value* v = root.find(key);
    if (v == nullptr) return std::nullopt;
    if (v->is_string()) {
      std::int64_t n = 0;
      auto [end, ec] = std::from_chars(v->text().data(), v->text().data() + v->text().size(), n);
      if (ec == std::errc() && end == v->text().data() + v->text().size()) return n;
      return std::nullopt;
    }
    return v->as_int64();
  };
  StoredWorkspace w;
  std::optional<std::int64_t> id = int64("id");
  if (!id) return Error::invalid(path + ": stored workspace has no integer id");
  w.id = *id;
  w.creator_id = int64("creator_id").value_or(0);
  str("title", w.title);
  str("description", w.description);
  str("creator_role", w.creator_role);
  str("currency", w.currency);
  str("start_date", w.start_date);
  str("due_date", w.due_date);
  str("access_level", w.access_level);
  str("created_at", w.created_at);
  str("updated_at", w.updated_at);
  if (const json::Value* v = root.find("archived"); v != nullptr && v->is_bool()) w.archived = *v->as_bool();
  if (const json::Value* v = root.find("budgeted"); v != nullptr && v->is_bool()) w.budgeted = *v->as_bool();
  w.price_in_cents = int64("price_in_cents");
  w.project_tracker_template_id = int64("project_tracker_template_id");
  return w;
}

Result<std::unique_ptr<WorkspaceStore>> WorkspaceStore::open(const std::string& dir) {
  std::unique_ptr<WorkspaceStore> store(new WorkspaceStore());
  auto files = RecordFiles::open((std::filesystem::path(dir) / "workspaces").string(),
                                 [&](const std::string& path, std::string_view text) -> Status {
                                   auto w = parse_stored_workspace(path, text);
                                   if (!w.ok()) return w.error();
                                   store->next_id_ = std::max(store->next_id_, w.value().id + 1);
                                   store->stamps_.observe(w.value().updated_at);
                                   store->by_id_[w.value().id] = std::move(w).value();
                                   return Done{};
                                 });
  if (!files.ok()) return files.error();
  store->files_.emplace(std::move(files).value());
  return store;
}

std::vector<StoredWorkspace> WorkspaceStore::query(std::int64_t caller, const WorkspaceQuery& q) const {
  std::vector<StoredWorkspace> out;
  std::string needle = ascii_lower(q.matching);
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, w] : by_id_) {
      if (w.creator_id != caller) continue;  // the workspaces the caller participates in
      if (w.archived && !q.include_archived) continue;
      if (q.budgeted && w.budgeted != *q.budgeted) continue;
      if (q.has_participant && w.creator_id != *q.has_participant) continue;
      if (q.only && std::find(q.only->begin(), q.only->end(), id) == q.only->end()) continue;
      if (!needle.empty() && ascii_lower(w.title).find(needle) == std::string::npos) continue;
      out.push_back(w);
    }
  }
  std::stable_sort(out.begin(), out.end(), [&](const StoredWorkspace& a, const StoredWorkspace& b) {
    if (a.updated_at != b.updated_at) return q.descending ? a.updated_at > b.updated_at : a.updated_at < b.updated_at;
    return a.id < b.id;  // a total order, so pages never overlap or skip
  });
  return out;
}

std::optional<StoredWorkspace> WorkspaceStore::find(std::int64_t id) const {
  std::lock_guard lock(mutex_);
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return std::nullopt;
  return it->second;
}

Status WorkspaceStore::persist(const StoredWorkspace& w) const {
  JsonEmitter json(JsonLayout::Compact);
  write_workspace_json(w, json);
  std::string text = json.finish();
  text += '\n';  // a text file
  return files_->write(w.id, text);
}

Result<StoredWorkspace> WorkspaceStore::create(StoredWorkspace w) {
  std::lock_guard lock(mutex_);
  w.id = next_id_;
  w.created_at = w.updated_at = stamps_.next();
  if (auto s = persist(w); !s.ok()) return s.error();
  ++next_id_;
  by_id_[w.id] = w;
  return w;
}

Result<StoredWorkspace> WorkspaceStore::update(StoredWorkspace w) {
  std::lock_guard lock(mutex_);
  auto it = by_id_.find(w.id);
  if (it == by_id_.end()) return Error::not_found("workspace " + std::to_string(w.id) + " not found");
  w.updated_at = stamps_.next();
  if (auto s = persist(w); !s.ok()) return s.error();
  it->second = w;
  return w;
}

}  // namespace ptmpl::sandbox
