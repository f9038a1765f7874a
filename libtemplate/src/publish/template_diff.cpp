// `ptmpl diff`: a local template document against the service's copy, by template field and
// by story.
#include <algorithm>
#include <map>

#include "libtemplate/core/json_emitter.hpp"
#include "libtemplate/core/model.hpp"
#include "libtemplate/core/schedule.hpp"
#include "libtemplate/core/template_file.hpp"
#include "libtemplate/core/writer.hpp"
#include "libtemplate/publish/publish.hpp"
#include "publish/change_text.hpp"
#include "publish/publish_support.hpp"
#include "publish/story_list.hpp"

namespace ptmpl::publish {
namespace {

constexpr std::size_t kShownValue = 80;  // longer values are cut, with "…"

std::string shown(const std::optional<std::string>& value) {
  return shown_value(value, kShownValue);
}

// Back from `at` to the start of a UTF-8 character.
std::size_t character_start(std::string_view text, std::size_t at) {
  while (at > 0 && at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) --at;
  return at;
}

// A value that changed, both sides as shown: as shown() when both are short; else each around
// where they differ — the same words before the change on both sides, the changed words, and a
// few words after — so a change deep inside a long text is seen (cut at one prefix, both
// sides looked the same).
std::pair<std::string, std::string> shown_change(const ValueChange& change) {
  if (!change.before || !change.after) return {shown(change.before), shown(change.after)};
  const std::string& a = *change.before;
  const std::string& b = *change.after;
  if (a.size() <= kShownValue && b.size() <= kShownValue) return {a, b};
  constexpr std::size_t kContext = 24;  // characters of unchanged text shown on each side
  const auto prefix = static_cast<std::size_t>(std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first - a.begin());
  const auto suffix = static_cast<std::size_t>(std::mismatch(a.rbegin(), a.rend() - static_cast<std::ptrdiff_t>(prefix),
                                                             b.rbegin(), b.rend() - static_cast<std::ptrdiff_t>(prefix))
                                                   .first -
                                               a.rbegin());
  // From the start of the word kContext characters before the change.
  std::size_t start = prefix > kContext ? prefix - kContext : 0;
  if (start > 0) {
    const std::size_t space = a.find(' ', start);
    start = space != std::string::npos && space < prefix ? space + 1 : character_start(a, start);
  }
  auto window = [&](const std::string& text) {
    // The changed words and a few after them; a long change is cut as shown() cuts a value.
    std::size_t end = std::min({text.size(), text.size() - suffix + kContext, start + kShownValue + kContext});
    if (end < text.size()) {
      const std::size_t space = text.rfind(' ', end);
      end = space != std::string::npos && space > prefix ? space : character_start(text, end);
    }
    const bool is_string = text.front() == '"';
    std::string out = start > 0 ? (is_string ? "\"…" : "…") + text.substr(start, end - start) : text.substr(0, end);
    if (end < text.size()) out += is_string ? "…\"" : "…";
    return out;
  };
  return {window(a), window(b)};
}

using detail::FlatStory;
using detail::id_text;

/// `SS+2`: a dependency's type and lag as written after its target ("" for neither).
std::string link_text(const json::Value& dependency) {
  const json::Value* type = dependency.find("type");
  const json::Value* lag = dependency.find("lag");
  std::string out;
  auto number = type != nullptr ? type->as_int64() : std::optional<std::int64_t>();
  if (number && *number >= 0 && *number <= 3)
    out = std::string(link_ends(static_cast<DependencyType>(*number)).abbreviation);
  else if (type != nullptr)
    out = "type " + write_compact(*type, Shape::Unknown);
  if (lag != nullptr) {
    std::string lag_text = write_compact(*lag, Shape::Unknown);
    if (lag_text != "0") out += (lag_text.starts_with('-') ? "" : "+") + lag_text;
  }
  return out;
}

/// `→ 12`: a dependency's target.
std::string target_text(const json::Value& dependency) {
  const json::Value* target = dependency.is_object() ? dependency.find("target_id") : nullptr;
  return "→ " + (target != nullptr ? id_text(*target) : std::string("?"));
}

/// `→ 12 FS+2`: a dependency by its target, type and lag.
std::string dependency_text(const json::Value& dependency) {
  if (!dependency.is_object()) return write_compact(dependency, Shape::Unknown);
  const std::string link = link_text(dependency);
  return target_text(dependency) + (link.empty() ? "" : " " + link);
}

/// The same of a dependency given as compact JSON text (as a DependencyChange holds it).
std::string dependency_text(std::string_view compact) {
  return dependency_text(json::Document::parse(compact).root());
}

/// `→ 12: FS → SS+2`: a dependency whose type or lag changed.
std::string dependency_change_text(std::string_view before, std::string_view after) {
  json::Document was = json::Document::parse(before);
  json::Document now = json::Document::parse(after);
  auto link = [](const json::Value& d) {
    std::string text = link_text(d);
    return text.empty() ? std::string("(none)") : text;
  };
  return target_text(was.root()) + ": " + link(was.root()) + " → " + link(now.root());
}

/// A dependency of a story: its compact JSON text, and how it reads.
struct Dependency {
  std::string json;
  std::string text;    ///< `→ 12 FS+2`
  std::string target;  ///< `→ 12`; "" when it is not an object
};

std::vector<Dependency> dependencies_of(const json::Value* story) {
  std::vector<Dependency> out;
  const json::Value* list = story->find("dependencies");
  if (list == nullptr || !list->is_array()) return out;
  for (const json::Value& d : list->items()) {
    out.push_back({write_compact(d, Shape::Unknown), dependency_text(d), d.is_object() ? target_text(d) : ""});
  }
  return out;
}

/// The dependencies that differ between `theirs` and `ours`: those that read alike cancel out;
/// of the rest, the one removed and the one added on a target are that dependency changed.
std::vector<DependencyChange> dependency_changes(const json::Value* theirs, const json::Value* ours) {
  std::vector<Dependency> removed = dependencies_of(theirs);
  std::vector<Dependency> added = dependencies_of(ours);
  auto take = [](std::vector<Dependency>& list, auto&& matches) -> std::optional<Dependency> {
    auto it = std::find_if(list.begin(), list.end(), matches);
    if (it == list.end()) return std::nullopt;
    Dependency d = std::move(*it);
    list.erase(it);
    return d;
  };
  for (auto it = added.begin(); it != added.end();) {
    if (take(removed, [&](const Dependency& d) { return d.text == it->text; }))
      it = added.erase(it);
    else
      ++it;
  }
  std::map<std::string, std::pair<int, int>> on_target;  // of the rest: how many removed, how many added
  for (const Dependency& d : removed) ++on_target[d.target].first;
  for (const Dependency& d : added) ++on_target[d.target].second;
  std::vector<DependencyChange> changed;
  for (auto it = added.begin(); it != added.end();) {
    const std::string& to = it->target;
    if (!to.empty() && on_target[to] == std::pair(1, 1)) {
      changed.push_back({take(removed, [&](const Dependency& d) { return d.target == to; })->json, it->json});
      it = added.erase(it);
    } else {
      ++it;
    }
  }
  std::vector<DependencyChange> out;
  for (Dependency& d : removed) out.push_back({std::move(d.json), std::nullopt});
  for (DependencyChange& d : changed) out.push_back(std::move(d));
  for (Dependency& d : added) out.push_back({std::nullopt, std::move(d.json)});
  return out;
}

/// The keys of one story that differ (sub_stories and dependencies apart), in the document's order.
std::vector<ValueChange> key_changes(const json::Value* theirs, const json::Value* ours) {
  std::vector<ValueChange> out;
  std::vector<std::string_view> keys;
  for (const json::Member& m : ours->members()) keys.push_back(m.key.text());
  for (const json::Member& m : theirs->members()) keys.push_back(m.key.text());
  std::vector<std::string_view> seen;
  for (std::string_view key : keys) {
    if (key == "sub_stories" || key == "dependencies" || std::find(seen.begin(), seen.end(), key) != seen.end())
      continue;
    seen.push_back(key);
    const json::Value* before = theirs->find(key);
    const json::Value* after = ours->find(key);
    std::string a = before ? write_compact(*before, Shape::Unknown) : "";
    std::string b = after ? write_compact(*after, Shape::Unknown) : "";
    if (detail::same_value(a, b)) continue;
    out.push_back({std::string(key), before ? std::optional(std::move(a)) : std::nullopt,
                   after ? std::optional(std::move(b)) : std::nullopt});
  }
  return out;
}

StoryName name_of(const FlatStory& flat) {
  return {flat.temp_id, flat.title, flat.label};
}

std::optional<StoryName> parent_of(const std::vector<FlatStory>& list, const FlatStory& flat) {
  if (flat.parent == detail::kTopLevel) return std::nullopt;
  return name_of(list[flat.parent]);
}

StoryChange story_change(StoryChange::Kind kind, const std::vector<FlatStory>& list, std::size_t index) {
  const FlatStory& flat = list[index];
  StoryChange change;
  change.kind = kind;
  change.temp_id = flat.temp_id;
  change.title = flat.title;
  change.label = flat.label;
  change.parent = parent_of(list, flat);
  for (std::size_t at = index; at != detail::kTopLevel; at = list[at].parent) change.path.push_back(list[at].title);
  std::reverse(change.path.begin(), change.path.end());
  return change;
}

std::string where(const std::optional<StoryName>& parent) {
  return parent ? " under " + parent->label : "";
}

std::string place(const std::optional<StoryName>& parent) {
  return parent ? "under " + parent->label : "the top level";
}

}  // namespace

std::size_t TemplateChanges::count(StoryChange::Kind kind) const {
  return static_cast<std::size_t>(
      std::count_if(stories.begin(), stories.end(), [kind](const StoryChange& s) { return s.kind == kind; }));
}

TemplateChanges compare_template(const LocalTemplate& local, const RemoteTemplate* remote) {
  TemplateChanges changes;
  changes.to_create = remote == nullptr;
  json::Document remote_doc = json::Document::parse(remote != nullptr ? std::string_view(remote->json) : "{}");
  for (const auto& [key, value] : local.fields) {
    if (remote == nullptr) {
      changes.fields.push_back({key, std::nullopt, value});
      continue;
    }
    const json::Value* theirs = remote_doc.ok() ? remote_doc.root().find(key) : nullptr;
    std::string their_text = theirs == nullptr ? "null" : write_compact(*theirs, Shape::Unknown);
    if (detail::same_value(value, their_text)) continue;
    changes.fields.push_back({key, theirs != nullptr ? std::optional(std::move(their_text)) : std::nullopt, value});
  }

  if (!local.stories) return changes;
  changes.stories_compared = true;
  std::string their_text =
      detail::canonical_story_text(remote != nullptr ? std::string_view(remote->raw_json.value_or("")) : "");
  json::Document theirs_doc = json::Document::parse(their_text);
  json::Document ours_doc = json::Document::parse(*local.stories);
  std::vector<FlatStory> theirs, ours;
  if (theirs_doc.ok()) theirs = detail::flatten_stories(theirs_doc.root()).stories;
  if (ours_doc.ok()) ours = detail::flatten_stories(ours_doc.root()).stories;

  // Pair by temp_id (when it names one story on each side), then by title and place in order.
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::vector<std::size_t> partner(ours.size(), kNone);
  std::vector<bool> taken(theirs.size(), false);
  std::map<std::string, std::vector<std::size_t>> their_ids, our_ids;
  for (std::size_t i = 0; i < theirs.size(); ++i)
    if (!theirs[i].temp_id.empty()) their_ids[theirs[i].temp_id].push_back(i);
  for (std::size_t i = 0; i < ours.size(); ++i)
    if (!ours[i].temp_id.empty()) our_ids[ours[i].temp_id].push_back(i);
  for (const auto& [id, mine] : our_ids) {
    auto it = their_ids.find(id);
    if (mine.size() == 1 && it != their_ids.end() && it->second.size() == 1) {
      partner[mine[0]] = it->second[0];
      taken[it->second[0]] = true;
    }
  }
  std::map<std::string, std::vector<std::size_t>> by_place;
  for (std::size_t i = theirs.size(); i-- > 0;)
    if (!taken[i]) by_place[theirs[i].place].push_back(i);  // reversed: back() is the first
  for (std::size_t i = 0; i < ours.size(); ++i) {
    if (partner[i] != kNone) continue;
    auto it = by_place.find(ours[i].place);
    if (it == by_place.end() || it->second.empty()) continue;
    partner[i] = it->second.back();
    taken[partner[i]] = true;
    it->second.pop_back();
  }

  for (std::size_t i = 0; i < ours.size(); ++i) {
    if (partner[i] == kNone) {
      changes.stories.push_back(story_change(StoryChange::Kind::Added, ours, i));
      continue;
    }
    const FlatStory& their_story = theirs[partner[i]];
    StoryChange change = story_change(StoryChange::Kind::Changed, ours, i);
    change.keys = key_changes(their_story.story, ours[i].story);
    // Moved: its parent here is not the partner of its parent there.
    std::size_t our_parent = ours[i].parent;
    change.moved = (our_parent == kNone ? kNone : partner[our_parent]) != their_story.parent;
    if (change.moved) change.moved_from = parent_of(theirs, their_story);
    change.dependencies = dependency_changes(their_story.story, ours[i].story);
    if (!change.keys.empty() || change.moved || !change.dependencies.empty())
      changes.stories.push_back(std::move(change));
  }
  for (std::size_t i = 0; i < theirs.size(); ++i)
    if (!taken[i]) changes.stories.push_back(story_change(StoryChange::Kind::Removed, theirs, i));
  // Same stories, other order: the lists differ although no story does.
  changes.reordered = changes.stories.empty() && their_text != *local.stories;
  return changes;
}

namespace detail {

void append_changes(std::string& out, const TemplateChanges& changes, std::string_view indent) {
  const std::string in(indent);
  if (!changes.fields.empty()) {
    out += in + "template:\n";
    for (const FieldChange& f : changes.fields) {
      const auto [was, now] = shown_change(f);
      out += in + "  " + f.key + ": " + (changes.to_create ? now : was + " → " + now) + "\n";
    }
  }
  if (changes.stories.empty() && !changes.reordered) return;
  out += in + "stories: " + std::to_string(changes.count(StoryChange::Kind::Changed)) + " changed, " +
         std::to_string(changes.count(StoryChange::Kind::Added)) + " added, " +
         std::to_string(changes.count(StoryChange::Kind::Removed)) + " removed\n";
  const std::string details = in + "      ";
  for (const StoryChange& s : changes.stories) {
    switch (s.kind) {
      case StoryChange::Kind::Added:
        out += in + "  + " + s.label + where(s.parent) + "\n";
        break;
      case StoryChange::Kind::Removed:
        out += in + "  - " + s.label + where(s.parent) + "\n";
        break;
      case StoryChange::Kind::Changed:
        out += in + "  ~ " + s.label + "\n";
        for (const ValueChange& k : s.keys) {
          const auto [was, now] = shown_change(k);
          out += details + k.key + ": " + was + " → " + now + "\n";
        }
        if (s.moved) out += details + "moved: from " + place(s.moved_from) + " to " + place(s.parent) + "\n";
        for (const DependencyChange& d : s.dependencies) {
          if (!d.after)
            out += details + "dependency removed: " + dependency_text(*d.before) + "\n";
          else if (!d.before)
            out += details + "dependency added: " + dependency_text(*d.after) + "\n";
          else
            out += details + "dependency changed: " + dependency_change_text(*d.before, *d.after) + "\n";
        }
        break;
    }
  }
  if (changes.reordered) out += in + "  stories in another order\n";
}

namespace {

/// `"before": value, "after": value` under the names given, each side whole; a side that lacks
/// it has no member.
void write_sides(JsonEmitter& out, const std::optional<std::string>& before, const std::optional<std::string>& after,
                 const ChangeSides& sides) {
  if (before) {
    out.key(sides.before);
    out.raw(*before);
  }
  if (after) {
    out.key(sides.after);
    out.raw(*after);
  }
}

void write_value_changes(JsonEmitter& out, const std::vector<ValueChange>& changes, const ChangeSides& sides) {
  out.begin_array();
  for (const ValueChange& c : changes) {
    out.begin_object(JsonLayout::Line);
    out.member("key", c.key);
    write_sides(out, c.before, c.after, sides);
    out.end_object();
  }
  out.end_array();
}

void write_temp_id(JsonEmitter& out, const std::string& temp_id) {
  out.key("temp_id");
  if (temp_id.empty())
    out.null();
  else
    out.raw(temp_id);  // compact JSON text
}

void write_story(JsonEmitter& out, const StoryChange& s, const ChangeSides& sides) {
  out.begin_object();
  write_temp_id(out, s.temp_id);
  out.member("title", s.title);
  out.key("path");
  out.begin_array(JsonLayout::Line);
  for (const std::string& title : s.path) out.string(title);
  out.end_array();
  if (s.kind != StoryChange::Kind::Changed) {
    out.key("parent");
    write_story_name(out, s.parent);
    out.end_object();
    return;
  }
  out.key("keys");
  write_value_changes(out, s.keys, sides);
  if (s.moved) {
    out.key("moved");
    out.begin_object();
    out.key("from");
    write_story_name(out, s.moved_from);
    out.key("to");
    write_story_name(out, s.parent);
    out.end_object();
  }
  out.key("dependencies");
  out.begin_object();
  out.key("removed");
  out.begin_array();
  for (const DependencyChange& d : s.dependencies)
    if (!d.after) out.raw(*d.before);
  out.end_array();
  out.key("changed");
  out.begin_array();
  for (const DependencyChange& d : s.dependencies) {
    if (!d.before || !d.after) continue;
    out.begin_object();
    write_sides(out, d.before, d.after, sides);
    out.end_object();
  }
  out.end_array();
  out.key("added");
  out.begin_array();
  for (const DependencyChange& d : s.dependencies)
    if (!d.before) out.raw(*d.after);
  out.end_array();
  out.end_object();
  out.end_object();
}

}  // namespace

void write_story_name(JsonEmitter& out, const std::optional<StoryName>& story) {
  if (!story) {
    out.null();
    return;
  }
  out.begin_object(JsonLayout::Line);
  write_temp_id(out, story->temp_id);
  out.member("title", story->title);
  out.end_object();
}

void write_changes_json(JsonEmitter& out, const TemplateChanges& changes, const ChangeSides& sides) {
  out.begin_object();
  out.key("template");
  write_value_changes(out, changes.fields, sides);
  out.key("stories");
  if (!changes.stories_compared) {
    out.null();
  } else {
    out.begin_object();
    for (auto [kind, name] : {std::pair{StoryChange::Kind::Changed, JsonKey("changed")},
                              std::pair{StoryChange::Kind::Added, JsonKey("added")},
                              std::pair{StoryChange::Kind::Removed, JsonKey("removed")}}) {
      out.key(name);
      out.begin_array();
      for (const StoryChange& s : changes.stories)
        if (s.kind == kind) write_story(out, s, sides);
      out.end_array();
    }
    out.key("reordered");
    out.boolean(changes.reordered);
    out.end_object();
  }
  out.end_object();
}

}  // namespace detail

std::string changes_text(const TemplateChanges& changes, std::string_view indent) {
  std::string out;
  detail::append_changes(out, changes, indent);
  return out;
}

std::string shown_value(const std::optional<std::string>& value, std::size_t width) {
  if (!value) return "(none)";
  if (value->size() <= width) return *value;
  std::size_t cut = width;
  while (cut > 0 && (static_cast<unsigned char>((*value)[cut]) & 0xC0) == 0x80) --cut;  // whole UTF-8 characters
  return value->substr(0, cut) + (value->front() == '"' ? "…\"" : "…");
}

}  // namespace ptmpl::publish
