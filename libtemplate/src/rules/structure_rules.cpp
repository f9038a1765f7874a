// Rules about the text itself: json-syntax, duplicate-key, nesting-depth (what the parser
// noticed, in the file and inside raw_json strings); and about its shape: raw-json-shape,
// unknown-field and key-misspelt (one walk of every object decides between the two);
// assignment-list-twice.
#include <algorithm>
#include <array>
#include <span>
#include <vector>

#include "libtemplate/core/spelling.hpp"
#include "rules/rule.hpp"

namespace ptmpl::rules {

namespace {

// A pointer in the file becomes a pointer in the story list when it lies under raw_json.
std::string story_pointer(const TemplateFile& file, const std::string& pointer) {
  for (const TemplateSource& source : file.templates()) {
    if (source.template_pointer.empty() || source.raw_json_string) continue;
    std::string prefix = source.template_pointer + "/raw_json";
    if (pointer == prefix) return "";
    if (pointer.starts_with(prefix + "/")) return pointer.substr(prefix.size());
  }
  return pointer;
}

std::string inner_place(const json::Document& inner, std::uint64_t offset) {
  json::Position p = inner.position(offset);
  return "in the raw_json string at line " + std::to_string(p.line) + ", column " + std::to_string(p.column) + ": ";
}

template <class Report>
void for_each_issue(Context& context, json::ParseIssue::Type type, Report&& report) {
  const TemplateFile& file = context.file();
  for (const json::ParseIssue& issue : file.document().issues())
    if (issue.type == type) report(issue, nullptr, nullptr);
  for (const TemplateSource& source : file.templates()) {
    if (!source.raw_json_string) continue;
    for (const json::ParseIssue& issue : source.story_document->issues())
      if (issue.type == type) report(issue, &source, source.story_document);
  }
}

// Documented keys besides the model's own lists (story_keys(), dependency_keys(),
// template_keys()).
constexpr std::array<std::string_view, 1> kAssignmentKeys = {"assignee_id"};
constexpr std::array<std::string_view, 3> kDocumentKeys = {"project_template", "project_template_assignments",
                                                           "calendar"};
constexpr std::array<std::string_view, 1> kStoriesObjectKeys = {"stories"};
// Read-only fields the service returns with a template (API reference, "Project template"):
// pulled templates and API responses hold them, so they are not unknown.
constexpr std::array<std::string_view, 3> kServiceTemplateKeys = {"user_id", "created_at", "updated_at"};

bool documented(std::string_view key, std::span<const std::string_view> keys) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

// How an undocumented key of an object is reported. A near miss of a documented key
// (docs/semantics.md §6: spelling.hpp's closest(), the same key ignoring case, '_' and '-',
// within edit distance 1 for keys under 5 characters, else 2, or one word away from a single
// key) is key-misspelt, an error: what it holds is read by nothing, and the service drops it.
// Its fix renames the key, unless the documented key is also written in the object (renaming
// would make a duplicate). Any other key is unknown-field.
struct UnknownKey {
  std::string_view rule;
  Severity severity;
  std::string message;
  std::optional<std::string_view> rename_to;  ///< the documented key, when a fix may rename
};

UnknownKey classify_unknown_key(std::string_view what, const json::Value& object, std::string_view key,
                                std::span<const std::string_view> keys) {
  std::string message = "unknown " + std::string(what) + " key ";
  json::append_quoted(message, key);
  std::optional<std::string_view> suggestion = closest(key, keys);
  if (!suggestion) return {"unknown-field", Severity::Info, message + "; it is kept as written", std::nullopt};
  message += ": did you mean ";
  json::append_quoted(message, *suggestion);
  message += "? What it holds is not read, and the service ignores it";
  if (object.find(*suggestion) != nullptr) {
    message += " (";
    json::append_quoted(message, *suggestion);
    message += " is also written in this object, so no fix renames the key)";
    return {"key-misspelt", Severity::Error, std::move(message), std::nullopt};
  }
  return {"key-misspelt", Severity::Error, std::move(message), suggestion};
}

}  // namespace

void check_json_syntax(Context& context) {
  for_each_issue(context, json::ParseIssue::Type::Syntax,
                 [&](const json::ParseIssue& issue, const TemplateSource* source, const json::Document* inner) {
                   if (source == nullptr) {
                     context.report_at_offset("json-syntax", Severity::Error, issue.offset, "", issue.message);
                   } else {
                     context.report("json-syntax", Severity::Error, *source, *source->raw_json_string,
                                    source->template_pointer + "/raw_json",
                                    inner_place(*inner, issue.offset) + issue.message);
                   }
                 });
}

void check_duplicate_key(Context& context) {
  const TemplateFile& file = context.file();
  for_each_issue(
      context, json::ParseIssue::Type::DuplicateKey,
      [&](const json::ParseIssue& issue, const TemplateSource* source, const json::Document* inner) {
        if (source == nullptr) {
          json::Position first = file.document().position(issue.other_offset);
          context.report_at_offset(
              "duplicate-key", Severity::Warning, issue.offset, story_pointer(file, issue.pointer),
              issue.message + " (first at line " + std::to_string(first.line) + "); the last value is the one used");
        } else {
          json::Position first = inner->position(issue.other_offset);
          context.report("duplicate-key", Severity::Warning, *source, *source->raw_json_string, issue.pointer,
                         inner_place(*inner, issue.offset) + issue.message + " (first at line " +
                             std::to_string(first.line) + "); the last value is the one used");
        }
      });
}

void check_nesting_depth(Context& context) {
  const TemplateFile& file = context.file();
  for_each_issue(context, json::ParseIssue::Type::TooDeep,
                 [&](const json::ParseIssue& issue, const TemplateSource* source, const json::Document* inner) {
                   if (source == nullptr) {
                     context.report_at_offset("nesting-depth", Severity::Warning, issue.offset,
                                              story_pointer(file, issue.pointer), issue.message);
                   } else {
                     context.report("nesting-depth", Severity::Warning, *source, *source->raw_json_string,
                                    issue.pointer, inner_place(*inner, issue.offset) + issue.message);
                   }
                 });
}

void check_raw_json_shape(Context& context) {
  const TemplateFile& file = context.file();
  const std::string_view tail =
      " an object with a \"stories\" array; ptmpl reads it, but the service expects an array of stories";
  for (const TemplateSource& source : file.templates()) {
    if (source.story_prefix != "/stories") continue;
    if (source.raw_json_string) {
      context.report("raw-json-shape", Severity::Info, source, *source.raw_json_string,
                     source.template_pointer + "/raw_json", "the raw_json string holds" + std::string(tail));
    } else if (!source.template_pointer.empty()) {
      const json::Value* raw = json::resolve_pointer(file.document().root(), source.template_pointer + "/raw_json");
      context.report_at_offset("raw-json-shape", Severity::Info, raw->offset(), source.template_pointer + "/raw_json",
                               "raw_json is" + std::string(tail));
    } else {
      context.report_at_offset("raw-json-shape", Severity::Info, file.document().root().offset(), "",
                               "the story list is" + std::string(tail));
    }
  }
}

namespace {

// Reports an unknown key `m` of `object`, a story, dependency or assignment (in the story list).
void report_unknown_in_stories(Context& context, const TemplateSource& source, const json::Value& object,
                               const json::Member& m, std::string pointer, std::string_view what,
                               std::span<const std::string_view> keys) {
  UnknownKey found = classify_unknown_key(what, object, m.key.text(), keys);
  std::optional<Fix> fix;
  if (found.rename_to) fix = context.replace_value(source, m.key, json::quoted(*found.rename_to));
  context.report(found.rule, found.severity, source, m.key,
                 std::move(pointer) + "/" + json::pointer_escape(m.key.text()), std::move(found.message),
                 std::move(fix));
}

}  // namespace

void check_unknown_field(Context& context) {
  // The file's own levels; the stories are check_unknown_field_story's.
  const TemplateFile& file = context.file();
  auto in_file = [&](const json::Value& object, const json::Member& m, const std::string& pointer,
                     std::string_view what, std::span<const std::string_view> keys) {
    UnknownKey found = classify_unknown_key(what, object, m.key.text(), keys);
    // Keys of the file itself can be renamed even when raw_json is a string.
    std::optional<Fix> fix;
    if (found.rename_to)
      if (std::optional<std::uint64_t> end = json::value_end(file.text(), m.key))
        fix = Fix{m.key.offset(), *end - m.key.offset(), json::quoted(*found.rename_to)};
    context.report_at_offset(found.rule, found.severity, m.key.offset(),
                             pointer + "/" + json::pointer_escape(m.key.text()), std::move(found.message),
                             std::move(fix));
  };

  // The template document's own top level (an API response's is the service's, not checked).
  const json::Value& root = file.document().root();
  if (file.shape() == Shape::TemplateDocument)
    for (const json::Member& m : root.members())
      if (!documented(m.key.text(), kDocumentKeys)) in_file(root, m, "", "top-level", kDocumentKeys);
  if (file.shape() == Shape::TemplateDocument)
    if (const json::Value* block = root.find("calendar"); block != nullptr && block->is_object())
      for (const json::Member& m : block->members())
        if (!documented(m.key.text(), calendar_block_keys()))
          in_file(*block, m, "/calendar", "calendar", calendar_block_keys());

  std::vector<std::string_view> project_template(template_keys().begin(), template_keys().end());
  project_template.insert(project_template.end(), kServiceTemplateKeys.begin(), kServiceTemplateKeys.end());
  for (const TemplateSource& source : file.templates()) {
    const json::Value* pt = json::resolve_pointer(root, source.template_pointer);
    for (const json::Member& m : source.model.extra)
      // A calendar block written inside project_template is calendar-invalid's to report.
      if (!documented(m.key.text(), project_template) && m.key.text() != "calendar")
        in_file(*pt, m, source.template_pointer, "project_template", project_template);
    if (source.story_prefix == "/stories") {
      const json::Value& stories_object = source.story_document->root();
      for (const json::Member& m : stories_object.members())
        if (!documented(m.key.text(), kStoriesObjectKeys))
          report_unknown_in_stories(context, source, stories_object, m, "", "story list", kStoriesObjectKeys);
    }
  }
}

void check_assignment_list_twice(Context& context) {
  const TemplateFile& file = context.file();
  const json::Value* beside = file.document().root().find("project_template_assignments");
  if (beside == nullptr) return;
  for (const TemplateSource& source : file.templates()) {
    if (source.template_pointer.empty()) continue;
    const json::Value* pt = json::resolve_pointer(file.document().root(), source.template_pointer);
    const json::Value* inside = pt == nullptr ? nullptr : pt->find("project_template_assignments");
    if (inside == nullptr) continue;
    json::Position other = file.document().position(beside->offset());
    context.report_at_offset("assignment-list-twice", Severity::Warning, inside->offset(),
                             source.template_pointer + "/project_template_assignments",
                             "project_template_assignments is written inside project_template and beside it (line " +
                                 std::to_string(other.line) + "); ptmpl reads the entries of both lists: keep one");
  }
}

void check_unknown_field_story(Context& context, const TemplateSource& source, const Story& story) {
  for (const json::Member& m : story.extra)
    report_unknown_in_stories(context, source, story.origin.node, m, story.pointer(), "story", story_keys());
  for (const Dependency& dep : story.dependencies)
    for (const json::Member& m : dep.extra)
      report_unknown_in_stories(context, source, dep.node, m, story.dependency_pointer(dep), "dependency",
                                dependency_keys());
  // Without the model's assignments, the key is missing or not an array: no items to read.
  // A regular assignment is {"assignee_id": …} alone.
  if (!story.assignments || !story.irregular(StoryKey::Assignments)) return;
  const json::Value* assignments = story.origin.node.find("assignments");
  if (assignments == nullptr) return;
  for (std::size_t i = 0; i < assignments->items().size(); ++i)
    for (const json::Member& m : assignments->items()[i].members())
      if (!documented(m.key.text(), kAssignmentKeys))
        report_unknown_in_stories(context, source, assignments->items()[i], m,
                                  story.pointer() + "/assignments/" + std::to_string(i), "assignment", kAssignmentKeys);
}

}  // namespace ptmpl::rules
