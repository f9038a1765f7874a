// The one story writer: every template ptmpl makes (from a plan, a CSV table, the generator, a
// model) is written here, through JsonEmitter, in the canonical order of docs/semantics.md §3.
// A producer fills the template model's records (model.hpp) and hands them over one story at a
// time, so that a plan of a million tasks is written without a tree of it.
#pragma once

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "libtemplate/core/json_emitter.hpp"
#include "libtemplate/core/model.hpp"

namespace ptmpl {

/// Writes one template document: begin_template(), the stories (begin_story() … end_story(),
/// children between the two, or story() for a story with its sub_stories in the model), then
/// end_template(). Only what the records hold is written: an absent field and an empty list
/// are left out; unknown keys (`extra`) follow the documented ones.
class StoryWriter {
 public:
  explicit StoryWriter(JsonEmitter& out) : out_(out) {}

  /// Opens the document and project_template, writes the template's keys before raw_json (of
  /// `head`, whose `stories` are not written) and opens raw_json.
  void begin_template(const Template& head);
  /// A story's keys before sub_stories; with `has_children`, opens sub_stories, whose stories
  /// follow. `story.sub_stories` is not written.
  void begin_story(const Story& story, bool has_children);
  /// Closes the sub_stories begin_story() opened, writes the keys after them and closes the
  /// story.
  void end_story(const Story& story, bool has_children);
  /// A story with its sub_stories as the model holds them.
  void story(const Story& story);
  /// The stories of an outline held as lists of children, depth first without recursion (a
  /// file may nest deeply): from each of `roots`, story `i` with `children(i)` (a vector of
  /// indices) inside it. `story_of(i)` gives its record, asked for when it opens and again when
  /// it closes (so that it may point into a buffer the next story reuses).
  template <class ChildrenOf, class StoryOf>
  void outline(std::span<const std::size_t> roots, ChildrenOf children, StoryOf story_of) {
    std::vector<std::pair<std::size_t, std::size_t>> open;  // a story, and how many children are written
    for (const std::size_t root : roots) {
      begin_story(story_of(root), !children(root).empty());
      open.emplace_back(root, 0);
      while (!open.empty()) {
        const auto [i, written] = open.back();
        const auto& below = children(i);
        if (written < below.size()) {
          ++open.back().second;
          begin_story(story_of(below[written]), !children(below[written]).empty());
          open.emplace_back(below[written], 0);
          continue;
        }
        end_story(story_of(i), !below.empty());
        open.pop_back();
      }
    }
  }
  /// Closes raw_json (then writes `tail.extra`) and project_template, then writes the template
  /// assignments and the calendar block of `tail`.
  void end_template(const Template& tail);

 private:
  JsonEmitter& out_;
};

/// The calendar block (start, week, holidays, working, then `extra`).
void write_calendar_block(JsonEmitter& out, const CalendarBlock& block);

/// A whole template document from the model, pretty-printed as `fmt` prints it.
[[nodiscard]] std::string write_template(const Template& tmpl);

}  // namespace ptmpl
