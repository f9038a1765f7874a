#include "sandbox/template_store.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <vector>

#include "libtemplate/core/diagnostic.hpp"
#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/json.hpp"

namespace ptmpl::sandbox {
namespace {

namespace fs = std::filesystem;

// Iterative: raw_json is the client's text, and may nest as deep as the bound lets it.
std::int64_t count_in(const json::Value& stories) {
  std::int64_t n = 0;
  std::vector<const json::Value*> lists = {&stories};
  while (!lists.empty()) {
    const json::Value* list = lists.back();
    lists.pop_back();
    for (const json::Value& story : list->items()) {
      ++n;
      if (const json::Value* sub = story.find("sub_stories"); sub != nullptr && sub->is_array()) lists.push_back(sub);
    }
  }
  return n;
}

}  // namespace

Result<StoredTemplate> parse_stored(const std::string& path, std::string_view text) {
  json::Document doc = json::Document::parse(text);
  if (!doc.ok()) {
    const json::ParseIssue& issue = doc.issues().front();
    json::Position at = doc.position(issue.offset);
    return Error::invalid(format_place(path, at.line, at.column) + ": not a stored template (" + issue.message + ")");
  }
  const json::Value& root = doc.root();
  if (!root.is_object()) return Error::invalid(path + ": not a stored template (not an object)");
  StoredTemplate t;
  auto str = [&](std::string_view key, std::string& into) {
    if (const json::Value* v = root.find(key); v != nullptr && v->is_string()) into = v->text();
  };
  auto int64 = [&](std::string_view key) {
    const json::Value* v = root.find(key);
    return v != nullptr ? v->as_int64() : std::nullopt;
  };
  std::optional<std::int64_t> id = int64("id");
  if (!id) return Error::invalid(path + ": stored template has no integer id");
  t.id = *id;
  t.user_id = int64("user_id").value_or(t.user_id);
  str("title", t.title);
  str("description", t.description);
  str("currency", t.currency);
  str("raw_json", t.raw_json);  // kept as stored, even ""
  str("created_at", t.created_at);
  str("updated_at", t.updated_at);
  if (const json::Value* v = root.find("shared"); v != nullptr && v->is_bool()) t.shared = *v->as_bool();
  if (const json::Value* v = root.find("is_budgeted"); v != nullptr && v->is_bool()) t.is_budgeted = *v->as_bool();
  if (const json::Value* v = root.find("budget"); v != nullptr && v->is_number()) t.budget = v->as_double();
  if (std::optional<std::int64_t> days = int64("duration")) t.duration = days;
  t.item_count = int64("item_count").value_or(t.item_count);
  return t;
}

std::int64_t count_stories(const std::string& raw_json) {
  // As deep as any tree is kept: stories below that bound are not counted.
  json::ParseOptions options;
  options.max_depth = json::kMaxDepthLimit;
  json::Document doc = json::Document::parse(raw_json, options);
  if (!doc.ok() || !doc.root().is_array()) return 0;
  return count_in(doc.root());
}

void write_template_json(const StoredTemplate& t, bool with_raw_json, JsonEmitter& out) {
  out.begin_object();
  out.member("id", t.id);
  out.member("title", t.title);
  out.member("description", t.description);
  out.key("shared");
  out.boolean(t.shared);
  out.key("is_budgeted");
  out.boolean(t.is_budgeted);
  out.key("budget");
  if (t.budget) {
    out.number(*t.budget);
  } else {
    out.null();
  }
  out.member("currency", t.currency);
  out.key("duration");
  if (t.duration) {
    out.integer(*t.duration);
  } else {
    out.null();
  }
  out.member("item_count", t.item_count);
  out.member("user_id", t.user_id);
  out.member("created_at", t.created_at);
  out.member("updated_at", t.updated_at);
  out.key("project_template_assignment_ids");
  out.begin_array();
  out.end_array();
  if (with_raw_json) out.member("raw_json", t.raw_json);
  out.end_object();
}

Result<std::unique_ptr<TemplateStore>> TemplateStore::open(const std::string& dir) {
  std::unique_ptr<TemplateStore> store(new TemplateStore());
  auto files = RecordFiles::open((fs::path(dir) / "templates").string(),
                                 [&](const std::string& path, std::string_view text) -> Status {
                                   auto t = parse_stored(path, text);
                                   if (!t.ok()) return t.error();
                                   store->next_id_ = std::max(store->next_id_, t.value().id + 1);
                                   store->stamps_.observe(t.value().updated_at);
                                   store->by_id_[t.value().id] = std::move(t).value();
                                   return Done{};
                                 });
  if (!files.ok()) return files.error();
  store->files_.emplace(std::move(files).value());
  return store;
}

std::vector<StoredTemplate> TemplateStore::query(std::int64_t caller, const TemplateQuery& q) const {
  std::vector<StoredTemplate> out;
  std::string needle = ascii_lower(q.by_title);
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, t] : by_id_) {
      if (t.user_id != caller && !t.shared) continue;
      if (q.mine && t.user_id != caller) continue;
      if (q.only && std::find(q.only->begin(), q.only->end(), id) == q.only->end()) continue;
      if (!needle.empty() && ascii_lower(t.title).find(needle) == std::string::npos) continue;
      out.push_back(t);
    }
  }
  auto less = [&](const StoredTemplate& a, const StoredTemplate& b) -> int {
    const std::string& f = q.order_field;
    auto cmp = [](const auto& x, const auto& y) { return x < y ? -1 : (y < x ? 1 : 0); };
    if (f == "title") return cmp(ascii_lower(a.title), ascii_lower(b.title));
    if (f == "duration") return cmp(a.duration.value_or(0), b.duration.value_or(0));
    if (f == "budget") return cmp(a.budget.value_or(0), b.budget.value_or(0));
    if (f == "description") return cmp(a.description, b.description);
    if (f == "is_budgeted") return cmp(a.is_budgeted, b.is_budgeted);
    return cmp(a.updated_at, b.updated_at);
  };
  std::stable_sort(out.begin(), out.end(), [&](const StoredTemplate& a, const StoredTemplate& b) {
    int c = less(a, b);
    if (c != 0) return q.descending ? c > 0 : c < 0;
    return a.id < b.id;  // a total order, so pages never overlap or skip
  });
  return out;
}

std::optional<StoredTemplate> TemplateStore::find(std::int64_t id) const {
  std::lock_guard lock(mutex_);
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return std::nullopt;
  return it->second;
}

Status TemplateStore::persist(const StoredTemplate& t) const {
  JsonEmitter json(JsonLayout::Compact);
  write_template_json(t, true, json);
  std::string text = json.finish();
  text += '\n';  // a text file
  return files_->write(t.id, text);
}

Result<StoredTemplate> TemplateStore::create(StoredTemplate t) {
  std::lock_guard lock(mutex_);
  t.id = next_id_;
  t.created_at = t.updated_at = stamps_.next();
  t.item_count = count_stories(t.raw_json);
  if (auto s = persist(t); !s.ok()) return s.error();
  ++next_id_;
  by_id_[t.id] = t;
  return t;
}

Result<StoredTemplate> TemplateStore::update(StoredTemplate t) {
  std::lock_guard lock(mutex_);
  auto it = by_id_.find(t.id);
  if (it == by_id_.end()) return Error::not_found("template " + std::to_string(t.id) + " not found");
  t.updated_at = stamps_.next();
  t.item_count = count_stories(t.raw_json);
  if (auto s = persist(t); !s.ok()) return s.error();
  it->second = t;
  return t;
}

}  // namespace ptmpl::sandbox
