// Rules about temp_ids: temp-id-missing, temp-id-duplicate.
#include <unordered_map>

#include "rules/rule.hpp"

namespace ptmpl::rules {

void check_temp_id_missing(Context& context) {
  for (const TemplateSource& source : context.file().templates()) {
    for_each_story(source.model.stories, [&](const Story& story, int) {
      if (story.origin.node.find("temp_id") != nullptr) return;
      std::string title = story.title ? " \"" + std::string(*story.title) + "\"" : "";
      if (!story.dependencies.empty()) {
        context.report("temp-id-missing", Severity::Error, source, story.origin.node, std::string(story.origin.pointer),
                       "story" + title + " has no temp_id, but its " + std::to_string(story.dependencies.size()) +
                           (story.dependencies.size() == 1 ? " dependency names" : " dependencies name") +
                           " it as source_id");
      } else {
        context.report("temp-id-missing", Severity::Warning, source, story.origin.node,
                       std::string(story.origin.pointer),
                       "story" + title + " has no temp_id, so no dependency can refer to it");
      }
    });
  }
}

void check_temp_id_duplicate(Context& context) {
  for (const TemplateSource& source : context.file().templates()) {
    std::unordered_map<std::string, const Story*> first;
    for_each_story(source.model.stories, [&](const Story& story, int) {
      if (!story.temp_id) return;
      auto [it, inserted] = first.emplace(temp_id_key(*story.temp_id), &story);
      if (inserted) return;
      const Story& earlier = *it->second;
      const json::Value& value = *story.origin.node.find("temp_id");
      context.report("temp-id-duplicate", Severity::Error, source, value,
                     std::string(story.origin.pointer) + "/temp_id",
                     "duplicate temp_id " + it->first + " (first defined at " +
                         context.line_of(source, *earlier.origin.node.find("temp_id")) + ", " +
                         std::string(earlier.origin.pointer) + "/temp_id)");
    });
  }
}

}  // namespace ptmpl::rules
