// Rules about temp_ids: temp-id-missing, temp-id-duplicate.
#include "libtemplate/core/dependency_graph.hpp"
#include "rules/rule.hpp"

namespace ptmpl::rules {

void check_temp_id_missing_story(Context& context, const TemplateSource& source, const Story& story) {
  // The model holds a valid temp_id; only without one can the key be missing.
  if (story.temp_id || story.writes(StoryKey::TemporaryId)) return;
  std::string title = story.title ? " \"" + std::string(*story.title) + "\"" : "";
  if (!story.dependencies.empty()) {
    context.report("temp-id-missing", Severity::Error, source, story.origin.node, story.pointer(),
                   "story" + title + " has no temp_id, but its " + std::to_string(story.dependencies.size()) +
                       (story.dependencies.size() == 1 ? " dependency names" : " dependencies name") +
                       " it as source_id");
  } else {
    context.report("temp-id-missing", Severity::Warning, source, story.origin.node, story.pointer(),
                   "story" + title + " has no temp_id, so no dependency can refer to it");
  }
}

void check_temp_id_duplicate(Context& context) {
  for (const TemplateSource& source : context.file().templates()) {
    const DependencyGraph& graph = context.graph(source);
    for (std::size_t i : graph.repeated_temp_ids()) {
      const Story& story = graph.story(i);
      const Story& earlier = graph.story(graph.find(*story.temp_id));
      const json::Value& value = *story.origin.node.find("temp_id");
      context.report("temp-id-duplicate", Severity::Error, source, value, story.pointer() + "/temp_id",
                     "duplicate temp_id " + temp_id_key(*earlier.temp_id) + " (first defined at " +
                         context.line_of(source, *earlier.origin.node.find("temp_id")) + ", " + earlier.pointer() +
                         "/temp_id)");
      context.relate(source, *earlier.origin.node.find("temp_id"),
                     "temp_id " + temp_id_key(*earlier.temp_id) + " first defined here");
    }
  }
}

}  // namespace ptmpl::rules
