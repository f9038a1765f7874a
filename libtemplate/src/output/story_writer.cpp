#include "libtemplate/core/story_writer.hpp"

#include <variant>

#include "libtemplate/core/writer.hpp"

namespace ptmpl {

namespace {

void write_temp_id(JsonEmitter& out, const TempId& id) {
  if (const auto* n = std::get_if<std::int64_t>(&id))
    out.integer(*n);
  else
    out.string(std::get<std::string_view>(id));
}

void write_extra(JsonEmitter& out, std::span<const json::Member> extra) {
  for (const json::Member& member : extra) {
    out.key(member.key.text());
    write_value(out, member.value);
  }
}

void write_dependency(JsonEmitter& out, const Dependency& dependency) {
  out.begin_object();
  if (dependency.source_id) {
    out.key("source_id");
    write_temp_id(out, *dependency.source_id);
  }
  if (dependency.target_id) {
    out.key("target_id");
    write_temp_id(out, *dependency.target_id);
  }
  if (dependency.type) out.member("type", *dependency.type);
  if (dependency.lag) out.member("lag", *dependency.lag);
  write_extra(out, dependency.extra);
  out.end_object();
}

}  // namespace

void StoryWriter::begin_template(const Template& head) {
  out_.begin_object();
  out_.key("project_template");
  out_.begin_object();
  if (head.id) {
    out_.key("id");
    write_value(out_, *head.id);
  }
  if (head.title) out_.member("title", *head.title);
  if (head.description) out_.member("description", *head.description);
  if (head.shared) {
    out_.key("shared");
    out_.boolean(*head.shared);
  }
  if (head.is_budgeted) {
    out_.key("is_budgeted");
    out_.boolean(*head.is_budgeted);
  }
  if (head.budget) {
    out_.key("budget");
    write_value(out_, *head.budget);
  }
  if (head.currency) out_.member("currency", *head.currency);
  if (head.duration) out_.member("duration", *head.duration);
  if (head.item_count) out_.member("item_count", *head.item_count);
  out_.key("raw_json");
  out_.begin_array();
}

void StoryWriter::begin_story(const Story& story, bool has_children) {
  out_.begin_object();
  if (story.story_type) out_.member("story_type", to_string(*story.story_type));
  if (story.title) out_.member("title", *story.title);
  if (story.temp_id) {
    out_.key("temp_id");
    write_temp_id(out_, *story.temp_id);
  }
  if (story.relative_start_date) out_.member("relative_start_date", *story.relative_start_date);
  if (story.relative_due_date) out_.member("relative_due_date", *story.relative_due_date);
  if (story.duration) out_.member("duration", *story.duration);
  if (story.billable) {
    out_.key("billable");
    out_.boolean(*story.billable);
  }
  if (story.description) out_.member("description", *story.description);
  if (story.budget_estimate_in_cents) out_.member("budget_estimate_in_cents", *story.budget_estimate_in_cents);
  if (story.time_estimate_in_minutes) out_.member("time_estimate_in_minutes", *story.time_estimate_in_minutes);
  if (has_children) {
    out_.key("sub_stories");
    out_.begin_array();
  }
}

void StoryWriter::end_story(const Story& story, bool has_children) {
  if (has_children) out_.end_array();
  if (story.checklist) {
    out_.key("checklist");
    out_.begin_array();
    for (std::string_view item : *story.checklist) out_.string(item);
    out_.end_array();
  }
  if (story.tag_list) out_.member("tag_list", *story.tag_list);
  if (story.assignments) {
    out_.key("assignments");
    out_.begin_array();
    for (std::int64_t id : *story.assignments) {
      out_.begin_object();
      out_.member("assignee_id", id);
      out_.end_object();
    }
    out_.end_array();
  }
  if (!story.dependencies.empty()) {
    out_.key("dependencies");
    out_.begin_array();
    for (const Dependency& dependency : story.dependencies) write_dependency(out_, dependency);
    out_.end_array();
  }
  if (story.weight) out_.member("weight", *story.weight);
  write_extra(out_, story.extra);
  out_.end_object();
}

// Recursion depth is the outline's depth, which a template bounds (detail::kMaxStoryLevels).
void StoryWriter::story(const Story& story) {
  const bool has_children = !story.sub_stories.empty();
  begin_story(story, has_children);
  for (const Story& child : story.sub_stories) this->story(child);
  end_story(story, has_children);
}

void StoryWriter::end_template(const Template& tail) {
  out_.end_array();
  write_extra(out_, tail.extra);
  out_.end_object();
  if (!tail.assignments.empty()) {
    out_.key("project_template_assignments");
    out_.begin_array();
    for (const TemplateAssignment& assignment : tail.assignments) {
      out_.begin_object();
      out_.member("id", assignment.id);
      out_.member("name", assignment.name);
      out_.end_object();
    }
    out_.end_array();
  }
  if (tail.calendar) {
    out_.key("calendar");
    write_calendar_block(out_, *tail.calendar);
  }
  out_.end_object();
}

void write_calendar_block(JsonEmitter& out, const CalendarBlock& block) {
  out.begin_object();
  if (block.start) out.member("start", format_date(*block.start));
  if (block.finish) out.member("finish", format_date(*block.finish));
  if (block.week) {
    out.key("week");
    out.begin_array();
    for (std::string_view day : block.week->names()) out.string(day);
    out.end_array();
  }
  auto dates = [&](JsonKey key, const std::vector<Date>& list) {
    if (list.empty()) return;
    out.key(key);
    out.begin_array();
    for (Date date : list) out.string(format_date(date));
    out.end_array();
  };
  dates("holidays", block.holidays);
  dates("working", block.working);
  write_extra(out, block.extra);
  out.end_object();
}

std::string write_template(const Template& tmpl) {
  JsonEmitter out(JsonLayout::Pretty);
  StoryWriter writer(out);
  writer.begin_template(tmpl);
  for (const Story& story : tmpl.stories) writer.story(story);
  writer.end_template(tmpl);
  return out.finish();
}

}  // namespace ptmpl
