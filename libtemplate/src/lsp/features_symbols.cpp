// The language server, by concern: symbols — the story tree of one document (documentSymbol)
// and the stories whose title matches a query across documents (workspace/symbol).
#include <algorithm>
#include <cctype>

#include "libtemplate/core/story_fields.hpp"
#include "lsp/features.hpp"
#include "lsp/features_document.hpp"
#include "text/text_width.hpp"

namespace ptmpl::lsp {

using features::Analysis;

namespace {

// workspace/symbol answers with at most this many stories (the client asks again as the query
// grows).
constexpr std::size_t kMaxWorkspaceSymbols = 1000;

// SymbolKind (LSP 3.17) by story_type; a template of a file that holds several is a Module.
constexpr int kModule = 2;
constexpr int kPackage = 4;
constexpr int kObject = 19;
constexpr int kEvent = 24;

int symbol_kind(const Story& story) {
  switch (story.effective_type()) {
    case StoryType::Task:
      return kObject;
    case StoryType::Deliverable:
      return kPackage;
    case StoryType::Milestone:
      return kEvent;
  }
  return kObject;
}

// "task · days 3–7, 5 days": the story_type and the dates it declares.
std::string symbol_detail(const Story& story) {
  std::string out(to_string(story.effective_type()));
  const auto& start = story.relative_start_date;
  const auto& due = story.relative_due_date;
  if (start && due)
    out += *start == *due ? " · day " + std::to_string(*start)
                          : " · days " + std::to_string(*start) + "–" + std::to_string(*due);
  else if (start)
    out += " · from day " + std::to_string(*start);
  else if (due)
    out += " · due day " + std::to_string(*due);
  if (story.duration)
    out += (start || due ? ", " : " · ") + std::to_string(*story.duration) + (*story.duration == 1 ? " day" : " days");
  return out;
}

// Where one story of a template is, for symbols: its object in the file, or, for a story
// inside a raw_json string, the whole string (positions inside it are not the file's).
struct Place {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  std::uint64_t select_begin = 0;
  std::uint64_t select_end = 0;
};

// A story's place: the object, and its title (else its temp_id, else its `{`) to select.
Place story_place(const Analysis& analysis, const features::StoryEntry& entry) {
  Place place{entry.begin, entry.end, entry.begin, entry.begin + 1};
  const json::Value& node = entry.story->origin.node;
  const json::Value* named = node.find("title");
  if (named == nullptr || !named->is_string()) named = node.find("temp_id");
  if (named != nullptr)
    if (auto end = json::value_end(analysis.text(), *named)) place = {entry.begin, entry.end, named->offset(), *end};
  return place;
}

// The place of the raw_json string of a template whose stories are written in one.
std::optional<Place> string_place(const Analysis& analysis, const TemplateSource& source) {
  if (!source.raw_json_string) return std::nullopt;
  auto end = json::value_end(analysis.text(), *source.raw_json_string);
  if (!end) return std::nullopt;
  const std::uint64_t begin = source.raw_json_string->offset();
  return Place{begin, *end, begin, *end};
}

// Calls visit(story, parent, depth, place) for every story of template `t` in pre-order;
// `parent` is the parent's pre-order index in the template (or kNoParent).
template <class Visit>
void for_each_placed_story(const Analysis& analysis, std::size_t t, Visit&& visit) {
  const TemplateSource& source = analysis.templates()[t];
  if (source.story_document == &analysis.file().document()) {
    const auto stories = analysis.stories();
    auto first = std::find_if(stories.begin(), stories.end(), [&](const auto& e) { return e.templ == t; });
    for (auto it = first; it != stories.end() && it->templ == t; ++it)
      visit(*it->story,
            it->parent == Analysis::npos ? kNoParent : it->parent - static_cast<std::size_t>(first - stories.begin()),
            story_place(analysis, *it));
    return;
  }
  auto place = string_place(analysis, source);
  if (!place) return;
  for_each_story_indexed(source.model.stories, [&](const Story& story, std::size_t, std::size_t parent, std::size_t) {
    visit(story, parent, *place);
  });
}

void write_symbol_head(JsonEmitter& json, const Analysis& analysis, std::string_view name, std::string_view detail,
                       int kind, const Place& place) {
  json.begin_object();
  json.member("name", name);
  if (!detail.empty()) json.member("detail", detail);
  json.member("kind", kind);
  json.key("range");
  features::write_range(json, analysis.range(place.begin, place.end));
  json.key("selectionRange");
  features::write_range(json, analysis.range(place.select_begin, place.select_end));
  json.key("children");
  json.begin_array();
}

void write_symbol_tail(JsonEmitter& json) {
  json.end_array();
  json.end_object();
}

// The place of a template's object in a file that holds several.
Place template_place(const Analysis& analysis, const TemplateSource& source) {
  const json::Value* node = json::resolve_pointer(analysis.file().document().root(), source.template_pointer);
  if (node == nullptr) return {};
  const std::uint64_t begin = node->offset();
  const std::uint64_t end = analysis.container_end(begin).value_or(begin + 1);
  Place place{begin, end, begin, begin + 1};
  if (const json::Value* title = node->find("title"))
    if (auto title_end = json::value_end(analysis.text(), *title)) place = {begin, end, title->offset(), *title_end};
  return place;
}

std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

Reply document_symbols(const OpenDocument& document, const Cancellation& cancel) {
  auto analysis = features::analysis_of(document);
  if (!analysis->parsed()) return {};
  const auto templates = analysis->templates();
  const bool several = templates.size() > 1;
  JsonEmitter json(JsonLayout::Compact);
  json.begin_array();
  for (std::size_t t = 0; t < templates.size(); ++t) {
    if (several) {
      std::string title = one_line(templates[t].model.title.value_or(""));
      if (title.find_first_not_of(' ') == std::string::npos) title = "template " + std::to_string(t + 1);
      write_symbol_head(json, *analysis, title, "template", kModule, template_place(*analysis, templates[t]));
    }
    // Pre-order: before a story, close the symbols of the stories that do not contain it.
    std::vector<std::size_t> open;  // pre-order indices of the stories whose children are open
    std::size_t index = 0;
    for_each_placed_story(*analysis, t, [&](const Story& story, std::size_t parent, const Place& place) {
      if (cancel.requested()) return;
      while (!open.empty() && open.back() != parent) {
        write_symbol_tail(json);
        open.pop_back();
      }
      write_symbol_head(json, *analysis, preview::display_title(story), symbol_detail(story), symbol_kind(story),
                        place);
      open.push_back(index++);
    });
    if (cancel.requested()) return cancelled_reply();
    for (; !open.empty(); open.pop_back()) write_symbol_tail(json);
    if (several) write_symbol_tail(json);
  }
  json.end_array();
  return features::result_of(json);
}

Reply workspace_symbols(std::span<const OpenDocument> documents, std::string_view query, const Cancellation& cancel) {
  const std::string wanted = ascii_lower(query);
  std::size_t count = 0;
  JsonEmitter json(JsonLayout::Compact);
  json.begin_array();
  for (const OpenDocument& document : documents) {
    if (count == kMaxWorkspaceSymbols) break;
    if (cancel.requested()) return cancelled_reply();
    // An open document is read once per text (the cache); another is read again per query.
    const auto read = features::analysis_of(document);
    const Analysis& analysis = *read;
    if (!analysis.parsed()) continue;
    for (std::size_t t = 0; t < analysis.templates().size() && count < kMaxWorkspaceSymbols; ++t) {
      std::vector<const Story*> by_index;  // the template's stories, for their parents' titles
      for_each_placed_story(analysis, t, [&](const Story& story, std::size_t parent, const Place& place) {
        by_index.push_back(&story);
        if (count == kMaxWorkspaceSymbols) return;
        const std::string title = preview::display_title(story);
        if (!wanted.empty() && ascii_lower(title).find(wanted) == std::string::npos) return;
        ++count;
        json.begin_object();
        json.member("name", title);
        json.member("kind", symbol_kind(story));
        json.key("location");
        features::write_location(json, document.uri, analysis.range(place.begin, place.end));
        if (parent != kNoParent) json.member("containerName", preview::display_title(*by_index[parent]));
        json.end_object();
      });
    }
  }
  json.end_array();
  return features::result_of(json);
}

}  // namespace ptmpl::lsp
