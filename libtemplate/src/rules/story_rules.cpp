// Rules about a single story's own fields: title-missing, story-type-invalid,
// checklist-item-invalid, tag-list-format, assignment-invalid, assignment-unknown,
// weight-not-milestone.
#include <algorithm>
#include <set>
#include <unordered_set>

#include "rules/rule.hpp"

namespace ptmpl::rules {

namespace {

constexpr std::string_view kWhitespace = " \t\r\n\f\v";

bool is_blank(std::string_view text) {
  return text.find_first_not_of(kWhitespace) == std::string_view::npos;
}

std::string_view trimmed(std::string_view text) {
  std::size_t first = text.find_first_not_of(kWhitespace);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(kWhitespace) - first + 1);
}

// `story "Design"`, or `story 7` (by temp_id) when it has no usable title, for messages.
std::string story_name(const Story& story) {
  if (story.title && !is_blank(*story.title)) return "story " + json::quoted(*story.title);
  if (story.temp_id) return "story " + temp_id_key(*story.temp_id);
  return "the story";
}

std::string key_pointer(const Story& story, std::string_view key) {
  return story.pointer() + "/" + std::string(key);
}

// Items of an array-valued key of a story (the last of duplicate keys, as the model reads it),
// each with a function that builds its pointer (only findings need one); values below the
// nesting bound are left to nesting-depth. `in_model` is the model's reading of the key: when
// absent, the key is missing or not an array, and its members need not be searched.
template <class Visit>
void for_each_item(const Story& story, std::string_view key, bool in_model, Visit&& visit) {
  if (!in_model) return;
  const json::Value* list = story.origin.node.find(key);
  if (list == nullptr || !list->is_array()) return;
  for (std::size_t i = 0; i < list->items().size(); ++i) {
    const json::Value& item = list->items()[i];
    if (item.kind() == json::Kind::Truncated) continue;
    visit(item, [&story, key, i] { return key_pointer(story, key) + "/" + std::to_string(i); });
  }
}

// tag_list: comma-separated entries, each trimmed one tag (docs/semantics.md §3). The canonical form joins
// the trimmed entries with ", ". Duplicates compare trimmed and ignoring ASCII case.
struct TagListReport {
  std::size_t empty_entries = 0;
  std::vector<std::string_view> untrimmed;   // entries as written
  std::vector<std::string_view> duplicates;  // trimmed, as written
  std::string normalised;                    // trimmed entries, no empties or duplicates
};

std::string folded(std::string_view tag) {
  std::string out(tag);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

TagListReport inspect_tag_list(std::string_view list) {
  TagListReport r;
  std::set<std::string, std::less<>> seen;
  for (std::size_t index = 0, start = 0;; ++index) {
    std::size_t comma = list.find(',', start);
    std::string_view entry = list.substr(start, comma == std::string_view::npos ? comma : comma - start);
    std::string_view tag = trimmed(entry);
    if (tag.empty()) {
      ++r.empty_entries;
    } else {
      // One space after a comma is the canonical separator; anything else around a tag is not.
      std::string_view expected_lead = index == 0 || entry.front() != ' ' ? "" : " ";
      if (entry.size() != tag.size() + expected_lead.size() || !entry.starts_with(expected_lead))
        r.untrimmed.push_back(entry);
      if (seen.insert(folded(tag)).second) {
        if (!r.normalised.empty()) r.normalised += ", ";
        r.normalised += tag;
      } else {
        r.duplicates.push_back(tag);
      }
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return r;
}

bool same_folded(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

// True when inspect_tag_list() would find nothing: no empty or untrimmed entry, no duplicate.
// Most tag lists are like that; this answers without allocating (lists of more than a few
// entries are left to inspect_tag_list()).
bool tag_list_is_clean(std::string_view list) {
  constexpr std::size_t kMaxTags = 16;
  std::string_view tags[kMaxTags];
  std::size_t n = 0;
  for (std::size_t start = 0;;) {
    std::size_t comma = list.find(',', start);
    std::string_view entry = list.substr(start, comma == std::string_view::npos ? comma : comma - start);
    std::string_view tag = trimmed(entry);
    if (tag.empty() || n == kMaxTags) return false;
    std::string_view expected_lead = n == 0 || entry.front() != ' ' ? "" : " ";
    if (entry.size() != tag.size() + expected_lead.size() || !entry.starts_with(expected_lead)) return false;
    for (std::size_t k = 0; k < n; ++k)
      if (same_folded(tags[k], tag)) return false;
    tags[n++] = tag;
    if (comma == std::string_view::npos) return true;
    start = comma + 1;
  }
}

std::string count(std::size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

std::string quoted_list(const std::vector<std::string_view>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i > 0 ? ", " : "") + json::quoted(items[i]);
  return out;
}

}  // namespace

void check_title_missing_story(Context& context, const TemplateSource& source, const Story& story) {
  // A written title that is not irregular is a non-blank string (the model checked it while
  // reading, with the text in the cache); only a blank one, or none, needs the tree.
  if (story.writes(StoryKey::Title) && !story.irregular(StoryKey::Title)) return;
  if (story.title && !is_blank(*story.title)) return;
  const json::Value* title = story.writes(StoryKey::Title) ? story.origin.node.find("title") : nullptr;
  if (title == nullptr)
    context.report("title-missing", Severity::Error, source, story.origin.node, story.pointer(), "story has no title");
  else if (title->is_string() && is_blank(title->text()))
    context.report("title-missing", Severity::Error, source, *title, story.pointer() + "/title",
                   "story title is blank");
}

void check_story_type_invalid_story(Context& context, const TemplateSource& source, const Story& story) {
  if (story.story_type || !story.writes(StoryKey::StoryType)) return;  // the model holds only valid types
  const json::Value* type = story.origin.node.find("story_type");
  if (type == nullptr || (type->is_string() && parse_story_type(type->text()))) return;
  std::string found = type->is_string() ? "\"" + std::string(type->text()) + "\"" : "a non-string value";
  context.report("story-type-invalid", Severity::Error, source, *type, story.pointer() + "/story_type",
                 "story_type is " + found + "; expected \"task\", \"deliverable\" or \"milestone\"");
}

void check_checklist_item_invalid_story(Context& context, const TemplateSource& source, const Story& story) {
  if (!story.irregular(StoryKey::Checklist)) return;  // every item a non-blank string
  for_each_item(story, "checklist", story.checklist.has_value(), [&](const json::Value& item, auto pointer) {
    if (!item.is_string())
      context.report(
          "checklist-item-invalid", Severity::Error, source, item, pointer(),
          "checklist item of " + story_name(story) + " is " + describe(item) + "; checklist items are strings");
    else if (is_blank(item.text()))
      context.report("checklist-item-invalid", Severity::Error, source, item, pointer(),
                     "checklist item of " + story_name(story) + (item.text().empty() ? " is empty" : " is blank"));
  });
}

void check_tag_list_format_story(Context& context, const TemplateSource& source, const Story& story) {
  // The model holds the last tag_list written when it is a string.
  if (!story.tag_list || tag_list_is_clean(*story.tag_list)) return;
  const json::Value* value = story.origin.node.find("tag_list");
  if (value == nullptr || !value->is_string()) return;
  std::string_view list = value->text();
  std::string pointer = key_pointer(story, "tag_list");
  if (is_blank(list)) {
    context.report("tag-list-format", Severity::Warning, source, *value, std::move(pointer),
                   "tag_list of " + story_name(story) + (list.empty() ? " is empty" : " is blank") +
                       "; leave the key out when the story has no tags");
    return;
  }
  TagListReport r = inspect_tag_list(list);
  std::vector<std::string> problems;
  if (r.empty_entries > 0) problems.push_back(count(r.empty_entries, "empty entry", "empty entries"));
  if (!r.untrimmed.empty())
    problems.push_back(count(r.untrimmed.size(), "untrimmed entry", "untrimmed entries") + " (" +
                       quoted_list(r.untrimmed) + ")");
  if (!r.duplicates.empty())
    problems.push_back(count(r.duplicates.size(), "duplicate tag", "duplicate tags") + " (" +
                       quoted_list(r.duplicates) + ")");
  if (problems.empty()) return;
  std::string message = "tag_list " + json::quoted(list) + " of " + story_name(story) + " has ";
  for (std::size_t i = 0; i < problems.size(); ++i)
    message += (i == 0 ? "" : i + 1 == problems.size() ? " and " : ", ") + problems[i];
  if (r.normalised.empty()) {
    // Only commas: no tag remains, and an empty tag_list is no better; the author decides.
    context.report("tag-list-format", Severity::Warning, source, *value, std::move(pointer),
                   message + " and no tag; leave the key out when the story has no tags");
    return;
  }
  message += "; normalised: " + json::quoted(r.normalised);
  context.report("tag-list-format", Severity::Warning, source, *value, std::move(pointer), std::move(message),
                 context.replace_value(source, *value, json::quoted(r.normalised)));
}

void check_assignment_invalid_story(Context& context, const TemplateSource& source, const Story& story) {
  if (!story.irregular(StoryKey::Assignments)) return;  // every item {"assignee_id": <int64>}
  for_each_item(story, "assignments", story.assignments.has_value(), [&](const json::Value& item, auto pointer) {
    if (!item.is_object()) {
      context.report("assignment-invalid", Severity::Error, source, item, pointer(),
                     "assignment of " + story_name(story) + " is " + describe(item) +
                         "; an assignment is an object {\"assignee_id\": <integer>}");
      return;
    }
    const json::Value* id = item.find("assignee_id");
    if (id == nullptr) {
      context.report("assignment-invalid", Severity::Error, source, item, pointer(),
                     "assignment of " + story_name(story) + " has no assignee_id");
    } else if (!id->as_int64()) {
      std::string why = id->is_integer_spelling()
                            ? " is out of range: " + std::string(id->text()) + " does not fit in a 64-bit integer"
                            : " is " + describe(*id) + ", not an integer";
      context.report("assignment-invalid", Severity::Error, source, *id, pointer() + "/assignee_id",
                     "assignee_id of " + story_name(story) + why);
    }
  });
}

namespace {

class AssignmentUnknown final : public StoryCheck {
 public:
  void start(Context& /*context*/, const TemplateSource& source) override {
    // Only a file that lists project_template_assignments says which ids exist; a bare story
    // list (or a template without the list) has nothing to compare with. The list may be
    // inside project_template or beside it (docs/semantics.md §2): the model reads both.
    active_ = source.model.assignments_listed && !source.template_pointer.empty();
    if (!active_) return;
    known_.clear();
    for (const TemplateAssignment& a : source.model.assignments) known_.insert(a.id);
    const std::vector<TemplateAssignment>& entries = source.model.assignments;
    listing_ = entries.empty() ? "the file lists none" : "the file lists ";
    for (std::size_t i = 0; i < entries.size() && i < 5; ++i)
      listing_ += (i > 0 ? ", " : "") + std::to_string(entries[i].id);
    if (entries.size() > 5) listing_ += ", …";
  }

  void check(Context& context, const TemplateSource& source, const Story& story) override {
    if (!active_ || !story.assignments) return;
    // The model holds every integer assignee_id: when all are known, there is nothing to find.
    if (std::all_of(story.assignments->begin(), story.assignments->end(),
                    [&](std::int64_t id) { return known_.contains(id); }))
      return;
    for_each_item(story, "assignments", true, [&](const json::Value& item, auto pointer) {
      const json::Value* id = item.find("assignee_id");
      std::optional<std::int64_t> n = id != nullptr ? id->as_int64() : std::nullopt;
      if (!n || known_.contains(*n)) return;
      context.report("assignment-unknown", Severity::Warning, source, *id, pointer() + "/assignee_id",
                     "assignee_id " + std::to_string(*n) + " of " + story_name(story) +
                         " is not the id of any project_template_assignments entry (" + listing_ + ")");
    });
  }

 private:
  bool active_ = false;
  std::unordered_set<std::int64_t> known_;
  std::string listing_;
};

}  // namespace

std::unique_ptr<StoryCheck> assignment_unknown_check() {
  return std::make_unique<AssignmentUnknown>();
}

void check_weight_not_milestone_story(Context& context, const TemplateSource& source, const Story& story) {
  if (!story.weight || story.effective_type() == StoryType::Milestone) return;
  // An invalid story_type is story-type-invalid's finding; the intended type is unknown.
  if (story.writes(StoryKey::StoryType) && !story.story_type) return;
  const json::Value* type = story.writes(StoryKey::StoryType) ? story.origin.node.find("story_type") : nullptr;
  std::string is = type == nullptr ? "a task (no story_type)" : "a " + std::string(to_string(story.effective_type()));
  context.report("weight-not-milestone", Severity::Warning, source, *story.origin.node.find("weight"),
                 key_pointer(story, "weight"),
                 "weight " + std::to_string(*story.weight) + " on " + story_name(story) + ", which is " + is +
                     "; weight counts only on milestones");
}

}  // namespace ptmpl::rules
