#include "libtemplate/core/template_file.hpp"

#include <cstddef>
#include <set>
#include <utility>

#include "libtemplate/core/foreign_plan.hpp"
#include "libtemplate/core/hash.hpp"
#include "model/regular_keys.hpp"

namespace ptmpl {

json::Position TemplateFile::position_of(const TemplateSource& source, const json::Value& value) const {
  if (source.raw_json_string) return document_->position(source.raw_json_string->offset());
  return document_->position(value.offset());
}

namespace {

std::optional<std::string_view> string_of(const json::Value* v) {
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return v->text();
}

std::vector<TemplateAssignment> assignments_from(const json::Value* list) {
  std::vector<TemplateAssignment> out;
  if (list == nullptr) return out;
  // A template document holds an array; an API response a map keyed by id.
  std::vector<json::Value> entries(list->items().begin(), list->items().end());
  for (const json::Member& m : list->members()) entries.push_back(m.value);
  for (const json::Value& item : entries) {
    const json::Value* id = item.find("id");
    if (id == nullptr) continue;
    auto n = id->as_int64();
    // The service returns ids as strings in envelopes; accept both.
    if (!n && id->is_string()) n = json::parse_int64(id->text());
    if (!n) continue;
    out.push_back({*n, string_of(item.find("name")).value_or("")});
  }
  return out;
}

}  // namespace

namespace detail {

std::span<const Story> TemplateFileReader::stories(TemplateFile& file, const TemplateSource& source) const {
  if (source.story_list == nullptr || !options.build_model) return {};
  return stories_from_json(*source.story_list, file.document_->arena(), source.story_prefix, mark_regular_keys);
}

void TemplateFileReader::collect_template(TemplateFile& file, const json::Value& pt, std::string pointer,
                                          const json::Value* assignments) const {
  TemplateSource source;
  source.template_pointer = std::move(pointer);
  Template& t = source.model;
  // docs/semantics.md §2: the list is read inside project_template or beside it; a file that writes both
  // has both read (assignment-list-twice reports it).
  const json::Value* inside = pt.find("project_template_assignments");
  for (const json::Value* list : {inside, assignments}) {
    if (list == nullptr || !(list->is_array() || list->is_object())) continue;
    t.assignments_listed = true;
    std::vector<TemplateAssignment> read = assignments_from(list);
    t.assignments.insert(t.assignments.end(), read.begin(), read.end());
  }
  std::vector<json::Member> extra;
  for (const json::Member& m : pt.members()) {
    std::string_view key = m.key.text();
    const json::Value& v = m.value;
    if (key == "id")
      t.id = v;
    else if (key == "title")
      t.title = string_of(&v);
    else if (key == "description")
      t.description = string_of(&v);
    else if (key == "shared")
      t.shared = v.as_bool();
    else if (key == "is_budgeted")
      t.is_budgeted = v.as_bool();
    else if (key == "budget")
      t.budget = v;
    else if (key == "currency")
      t.currency = string_of(&v);
    else if (key == "duration")
      t.duration = v.as_int64();
    else if (key == "item_count")
      t.item_count = v.as_int64();
    else if (key != "raw_json" && key != "project_template_assignments")
      extra.push_back(m);
  }
  t.extra = file.document_->arena().copy_array<json::Member>(extra);
  if (const json::Value* raw = pt.find("raw_json")) {
    if (raw->is_array()) {
      source.story_list = raw;
      source.story_document = file.document_.get();
    } else if (const json::Value* list = raw->find("stories"); list != nullptr && list->is_array()) {
      // {"stories": [...]}: read, and reported by raw-json-shape (docs/semantics.md §2).
      source.story_list = list;
      source.story_document = file.document_.get();
      source.story_prefix = "/stories";
    } else if (raw->is_string()) {
      // raw_json as the service stores it: JSON text inside a JSON string.
      file.inner_texts_.push_back(std::make_unique<std::string>(raw->text()));
      file.inner_documents_.push_back(
          std::make_unique<json::Document>(json::Document::parse(*file.inner_texts_.back(), options.parse)));
      const json::Document& inner = *file.inner_documents_.back();
      source.raw_json_string = *raw;
      source.story_document = &inner;
      if (inner.ok()) {
        const json::Value& root = inner.root();
        if (root.is_array()) {
          source.story_list = &root;
        } else if (const json::Value* stories = root.find("stories"); stories != nullptr && stories->is_array()) {
          source.story_list = stories;
          source.story_prefix = "/stories";
        }
      }
    }
  }
  t.stories = stories(file, source);
  file.templates_.push_back(std::move(source));
}

// ReadOptions::release_text, for a file that parsed: before anything views the tree. Returns
// where the pages lent to the arena start (0 when none are).
std::size_t TemplateFileReader::release_text(TemplateFile& file) {
  // Standard input, even from a file, and borrowed bytes cannot be read again.
  if (!file.bytes_.from_regular_file() || file.path_ == "-") return 0;
  char* pages = file.bytes_.pages();
  const std::string_view text = file.bytes_.text();
  const std::size_t size = text.size();
  const std::uint64_t hash = content_hash(text);
  auto again = [path = file.path_, size, hash]() -> std::pair<std::shared_ptr<const void>, std::string_view> {
    Result<FileText> read = FileText::read_text(path);
    if (!read.ok())
      throw Failure(Error{read.error().code, read.error().message + " (read again for positions after it was let go)"});
    auto held = std::make_shared<FileText>(std::move(read).value());
    if (held->text().size() != size || content_hash(held->text()) != hash)
      throw Failure(Error::conflict(path + ": changed while ptmpl was reading it (positions and fixes would not be "
                                           "its own): run the command again"));
    const std::string_view bytes = held->text();
    return {std::move(held), bytes};
  };
  // A large file's strings go to the front of its own pages, a small one's to the arena.
  const std::size_t used = file.document_->detach_text(pages, std::move(again));
  file.released_ = true;
  if (pages == nullptr) {
    file.bytes_ = FileText();
    return 0;
  }
  // The pages after the strings are resident already: the model is built in them (fresh pages
  // would cost a fault and zeroing each), and what it leaves goes back (parse()).
  constexpr std::size_t kAlign = alignof(std::max_align_t);
  const std::size_t lent_from = (used + kAlign - 1) / kAlign * kAlign;
  if (lent_from < size) file.document_->arena().lend(pages + lent_from, size - lent_from);
  return lent_from;
}

TemplateFile TemplateFileReader::parse(std::string path, FileText bytes) const {
  TemplateFile file;
  file.path_ = std::move(path);
  file.bytes_ = std::move(bytes);
  file.document_ = std::make_unique<json::Document>(json::Document::parse(file.bytes_.text(), options.parse));
  if (!file.document_->ok()) return file;
  const std::size_t lent_from = options.release_text ? release_text(file) : 0;
  read_templates(file);
  // The pages lent for the model that it did not take go back to the system.
  if (lent_from > 0) file.bytes_.keep_only(lent_from + file.document_->arena().lent_taken());
  return file;
}

void TemplateFileReader::read_templates(TemplateFile& file) const {
  const json::Document& doc = *file.document_;
  const json::Value& root = doc.root();
  file.shape_ = detect_shape(root);
  switch (file.shape_) {
    case Shape::StoryList:
    case Shape::StoriesObject: {
      TemplateSource source;
      source.story_document = file.document_.get();
      source.story_list = file.shape_ == Shape::StoryList ? &root : root.find("stories");
      source.story_prefix = file.shape_ == Shape::StoryList ? "" : "/stories";
      source.model.stories = stories(file, source);
      file.templates_.push_back(std::move(source));
      break;
    }
    case Shape::TemplateDocument: {
      const json::Value* pt = root.find("project_template");
      if (pt->is_object()) {
        collect_template(file, *pt, "/project_template", root.find("project_template_assignments"));
        // docs/semantics.md §2: ptmpl's own calendar block, beside project_template.
        if (const json::Value* block = root.find("calendar"); block != nullptr && block->is_object())
          file.templates_.back().model.calendar = calendar_block_from_json(*block, file.document_->arena());
      }
      break;
    }
    case Shape::Envelope: {
      // Templates in the order of `results`, never by iterating the map (docs/semantics.md §2).
      const json::Value* map = root.find("project_templates");
      std::set<std::string, std::less<>> seen;  // an id listed twice is one template
      for (const json::Value& entry : root.find("results")->items()) {
        const json::Value* key = entry.find("key");
        const json::Value* id = entry.find("id");
        if (key == nullptr || key->text() != "project_templates" || id == nullptr) continue;
        std::string id_text(id->is_string() || id->is_number() ? id->text() : "");
        if (!seen.insert(id_text).second) continue;
        const json::Value* pt = map->find(id_text);
        if (pt != nullptr && pt->is_object())
          collect_template(file, *pt, "/project_templates/" + json::pointer_escape(id_text),
                           root.find("project_template_assignments"));
      }
      break;
    }
    case Shape::Unknown:
      break;
  }
}

}  // namespace detail

TemplateFile TemplateFile::parse(std::string path, FileText bytes, const ReadOptions& options) {
  return detail::TemplateFileReader{options}.parse(std::move(path), std::move(bytes));
}

Result<TemplateFile> TemplateFile::read(const std::string& path, const ReadOptions& options) {
  auto bytes = FileText::read_text(path);
  if (!bytes.ok()) return bytes.error();
  if (std::optional<Error> plan = plan_instead_of_template(bytes.value().text(), path)) return *plan;
  return parse(path, std::move(bytes).value(), options);
}

SelectedTemplate read_selected_template(std::string path, FileText bytes, bool found_in_directory,
                                        const ReadOptions& options) {
  SelectedTemplate out;
  // Another program's plan is no template: named, an error with the way out (exit 2); found
  // below a directory, skipped like any file of another kind.
  if (std::optional<Error> plan = plan_instead_of_template(bytes.text(), path)) {
    if (found_in_directory) {
      out.not_template = true;
    } else {
      out.plan = std::move(plan);
    }
    return out;
  }
  TemplateFile file = TemplateFile::parse(std::move(path), std::move(bytes), options);
  if (found_in_directory && file.shape() == Shape::Unknown && file.document().ok()) {
    out.not_template = true;
    return out;
  }
  out.file.emplace(std::move(file));
  return out;
}

}  // namespace ptmpl
