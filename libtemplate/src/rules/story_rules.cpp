// Rules about a single story's own fields: title-missing, story-type-invalid.
#include "rules/rule.hpp"

namespace ptmpl::rules {

namespace {

bool is_blank(std::string_view text) {
  return text.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos;
}

}  // namespace

void check_title_missing(Context& context) {
  for (const TemplateSource& source : context.file().templates()) {
    for_each_story(source.model.stories, [&](const Story& story, int) {
      const json::Value* title = story.origin.node.find("title");
      if (title == nullptr)
        context.report("title-missing", Severity::Error, source, story.origin.node, std::string(story.origin.pointer),
                       "story has no title");
      else if (title->is_string() && is_blank(title->text()))
        context.report("title-missing", Severity::Error, source, *title, std::string(story.origin.pointer) + "/title",
                       "story title is blank");
    });
  }
}

void check_story_type_invalid(Context& context) {
  for (const TemplateSource& source : context.file().templates()) {
    for_each_story(source.model.stories, [&](const Story& story, int) {
      const json::Value* type = story.origin.node.find("story_type");
      if (type == nullptr || (type->is_string() && parse_story_type(type->text()))) return;
      std::string found = type->is_string() ? "\"" + std::string(type->text()) + "\"" : "a non-string value";
      context.report("story-type-invalid", Severity::Error, source, *type,
                     std::string(story.origin.pointer) + "/story_type",
                     "story_type is " + found + "; expected \"task\", \"deliverable\" or \"milestone\"");
    });
  }
}

}  // namespace ptmpl::rules
