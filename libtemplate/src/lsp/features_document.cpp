// The language server, by concern: one document's text read for the language features
// (features_document.hpp).
#include "lsp/features_document.hpp"

#include <algorithm>
#include <list>

#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/preview.hpp"
#include "lsp/jsonrpc.hpp"

namespace ptmpl::lsp::features {

namespace {

// The texts of the documents asked about last: a hover, then a definition, then symbols on the
// same text read it once. A few entries, since a client asks about the document being edited
// and perhaps one or two beside it; each holds a copy of its text and its tree.
constexpr std::size_t kCachedTexts = 4;

}  // namespace

Analysis::Analysis(std::string_view text, std::string_view path) : text_(text), positions_(text_) {
  ReadOptions options;
  file_ = std::make_unique<TemplateFile>(TemplateFile::parse(std::string(path), FileText::borrow(text_), options));
  if (!parsed()) return;
  index_containers();
  index_stories();
}

// One pass over the text (valid JSON: the document parsed): where each container closes.
void Analysis::index_containers() {
  std::vector<std::size_t> open;
  const std::string_view text = text_;
  for (std::uint64_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
    } else if (c == '{' || c == '[') {
      open.push_back(containers_.size());
      containers_.emplace_back(i, 0);
    } else if ((c == '}' || c == ']') && !open.empty()) {
      containers_[open.back()].second = i + 1;
      open.pop_back();
    }
  }
}

std::optional<std::uint64_t> Analysis::container_end(std::uint64_t offset) const {
  auto it =
      std::lower_bound(containers_.begin(), containers_.end(), std::pair<std::uint64_t, std::uint64_t>{offset, 0});
  if (it == containers_.end() || it->first != offset || it->second == 0) return std::nullopt;
  return it->second;
}

void Analysis::index_stories() {
  const json::Document* own = &file_->document();
  declared_.resize(file_->templates().size());
  for (std::size_t t = 0; t < file_->templates().size(); ++t) {
    const TemplateSource& source = file_->templates()[t];
    if (source.story_document != own) continue;  // stories inside a raw_json string
    const std::size_t first = stories_.size();
    for_each_story_indexed(source.model.stories,
                           [&](const Story& story, std::size_t index, std::size_t parent, std::size_t) {
                             StoryEntry entry;
                             entry.story = &story;
                             entry.templ = t;
                             entry.index = index;
                             entry.parent = parent == kNoParent ? npos : first + parent;
                             entry.begin = story.origin.node.offset();
                             entry.end = container_end(entry.begin).value_or(entry.begin + 1);
                             stories_.push_back(entry);
                           });
  }
  auto add_site = [&](const json::Value* value, IdSite::Role role, std::size_t story) {
    if (value == nullptr) return;
    auto id = temp_id_from(*value);
    if (!id) return;
    auto end = json::value_end(text_, *value);
    if (!end) return;
    IdSite site;
    site.begin = value->offset();
    site.end = *end;
    site.role = role;
    site.story = story;
    site.templ = stories_[story].templ;
    site.id = canonical_temp_id(*id);
    site.written_as_string = value->is_string();
    sites_.push_back(site);
  };
  for (std::size_t s = 0; s < stories_.size(); ++s) {
    const Story& story = *stories_[s].story;
    const json::Value& node = story.origin.node;
    const json::Value* temp_id = node.find("temp_id");
    add_site(temp_id, IdSite::Role::Declaration, s);
    if (temp_id != nullptr && story.temp_id)
      declared_[stories_[s].templ][canonical_temp_id(*story.temp_id)].push_back(s);
    for (const Dependency& dependency : story.dependencies) {
      add_site(dependency.node.find("source_id"), IdSite::Role::Source, s);
      add_site(dependency.node.find("target_id"), IdSite::Role::Target, s);
    }
  }
  // Templates of an API response need not be written in the order the file lists them.
  by_offset_.resize(stories_.size());
  for (std::size_t s = 0; s < stories_.size(); ++s) by_offset_[s] = s;
  std::sort(by_offset_.begin(), by_offset_.end(),
            [&](std::size_t a, std::size_t b) { return stories_[a].begin < stories_[b].begin; });
  // A story's own temp_id may be written after its dependencies or its sub_stories.
  std::sort(sites_.begin(), sites_.end(), [](const IdSite& a, const IdSite& b) { return a.begin < b.begin; });
}

const IdSite* Analysis::site_at(std::uint64_t offset) const {
  auto it = std::upper_bound(sites_.begin(), sites_.end(), offset,
                             [](std::uint64_t at, const IdSite& site) { return at < site.begin; });
  if (it == sites_.begin()) return nullptr;
  --it;
  return offset <= it->end ? &*it : nullptr;
}

std::size_t Analysis::story_at(std::uint64_t offset) const {
  auto it = std::upper_bound(by_offset_.begin(), by_offset_.end(), offset,
                             [&](std::uint64_t at, std::size_t story) { return at < stories_[story].begin; });
  if (it == by_offset_.begin()) return npos;
  std::size_t s = *(it - 1);
  // The last story opening before the offset holds it, or one of its ancestors does.
  while (s != npos && !(offset < stories_[s].end)) s = stories_[s].parent;
  return s;
}

std::span<const std::size_t> Analysis::declarations(std::size_t templ, const TempId& id) const {
  if (templ >= declared_.size()) return {};
  auto it = declared_[templ].find(id);
  if (it == declared_[templ].end()) return {};
  return it->second;
}

std::vector<const IdSite*> Analysis::sites_naming(std::size_t templ, const TempId& id) const {
  std::vector<const IdSite*> out;
  for (const IdSite& site : sites_)
    if (site.templ == templ && site.id == id) out.push_back(&site);
  return out;
}

const TemplatePlan& Analysis::plan(std::size_t templ) const {
  std::lock_guard lock(plans_mutex_);
  if (plans_.size() < file_->templates().size()) plans_.resize(file_->templates().size());
  if (plans_[templ]) return *plans_[templ];
  auto plan = std::make_unique<TemplatePlan>();
  const TemplateSource& source = file_->templates()[templ];
  // What `ptmpl schedule` and `ptmpl stats` refuse to schedule, hover does not show dates for.
  Status schedulable = check_schedulable(*file_);
  if (schedulable.ok()) {
    plan->planned = std::make_unique<ScheduledTemplate>(source.model.stories);
    const Schedule& schedule = plan->planned->schedule();
    if (!schedule.cycles().empty())
      plan->problem = "the dependencies form a cycle";
    else if (schedule.out_of_range())
      plan->problem = "the dates leave the range the scheduler computes in";
    auto calendar = resolve_calendar(*file_, source, CalendarFlags{}, &schedule);
    if (calendar.ok()) {
      plan->calendar = std::move(calendar).value();
      if (plan->calendar) plan->finish = deadline_of(source, CalendarFlags{});
    } else
      plan->calendar_problem = calendar.error().message;
    plan->rollup = std::make_unique<Rollup>(plan->planned->index());
  } else {
    plan->problem = schedulable.error().message;
    plan->rollup = std::make_unique<Rollup>(source.model.stories);
  }
  plans_[templ] = std::move(plan);
  return *plans_[templ];
}

std::shared_ptr<const Analysis> analysis_of(const OpenDocument& document) {
  static std::mutex mutex;
  static std::list<std::shared_ptr<const Analysis>> cache;  // the most recent first
  const std::string_view name =
      document.path.empty() ? std::string_view(document.uri) : std::string_view(document.path);
  {
    std::lock_guard lock(mutex);
    for (auto it = cache.begin(); it != cache.end(); ++it) {
      if ((*it)->text() == document.text && (*it)->file().path() == name) {
        cache.splice(cache.begin(), cache, it);
        return cache.front();
      }
    }
  }
  auto made = std::make_shared<const Analysis>(document.text, name);
  std::lock_guard lock(mutex);
  cache.push_front(made);
  if (cache.size() > kCachedTexts) cache.pop_back();
  return made;
}

void write_range(JsonEmitter& json, const Range& range) {
  json.begin_object();
  json.key("start");
  json.begin_object();
  json.member("line", range.start.line);
  json.member("character", range.start.character);
  json.end_object();
  json.key("end");
  json.begin_object();
  json.member("line", range.end.line);
  json.member("character", range.end.character);
  json.end_object();
  json.end_object();
}

void write_location(JsonEmitter& json, std::string_view uri, const Range& range) {
  json.begin_object();
  json.member("uri", uri);
  json.key("range");
  features::write_range(json, range);
  json.end_object();
}

Reply result_of(JsonEmitter& json) {
  Reply reply;
  reply.result = json.finish();
  return reply;
}

Reply error_of(int code, std::string message) {
  Reply reply;
  reply.result.clear();
  reply.error_code = code;
  reply.error_message = std::move(message);
  return reply;
}

std::string id_text(const TempId& id) {
  return temp_id_key(id);
}

}  // namespace ptmpl::lsp::features

namespace ptmpl::lsp {

Reply cancelled_reply() {
  return {"null", error_code::kRequestCancelled, "the request was cancelled"};
}

}  // namespace ptmpl::lsp
