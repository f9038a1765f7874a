// Rules about the text itself: json-syntax, duplicate-key, nesting-depth. They report what the
// parser noticed, in the file and inside raw_json strings.
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

}  // namespace ptmpl::rules
