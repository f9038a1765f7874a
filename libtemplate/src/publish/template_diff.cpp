// `ptmpl diff`: a local template document against the service's copy, by template field and
// by story.
#include <algorithm>
#include <map>

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

std::string shown(const json::Value* value) {
  if (value == nullptr) return "(none)";
  std::string text = write_compact(*value, Shape::Unknown);
  if (text.size() > kShownValue) {
    std::size_t cut = kShownValue;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // whole UTF-8 characters
    text = text.substr(0, cut) + (value->is_string() ? "…\"" : "…");
  }
  return text;
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
std::pair<std::string, std::string> shown_change(const json::Value* before, const json::Value* after) {
  if (before == nullptr || after == nullptr) return {shown(before), shown(after)};
  const std::string a = write_compact(*before, Shape::Unknown);
  const std::string b = write_compact(*after, Shape::Unknown);
  if (a.size() <= kShownValue && b.size() <= kShownValue) return {shown(before), shown(after)};
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

/// `→ 12 FS+2`: a dependency by its target, type and lag.
std::string dependency_text(const json::Value& dependency) {
  if (!dependency.is_object()) return write_compact(dependency, Shape::Unknown);
  const json::Value* target = dependency.find("target_id");
  const json::Value* type = dependency.find("type");
  const json::Value* lag = dependency.find("lag");
  std::string out = "→ " + (target != nullptr ? id_text(*target) : std::string("?"));
  auto number = type != nullptr ? type->as_int64() : std::optional<std::int64_t>();
  if (number && *number >= 0 && *number <= 3)
    out += " " + std::string(link_ends(static_cast<DependencyType>(*number)).abbreviation);
  else if (type != nullptr)
    out += " type " + write_compact(*type, Shape::Unknown);
  if (lag != nullptr) {
    std::string lag_text = write_compact(*lag, Shape::Unknown);
    if (lag_text != "0") out += (lag_text.starts_with('-') ? "" : "+") + lag_text;
  }
  return out;
}

std::vector<std::string> dependency_texts(const json::Value* story) {
  std::vector<std::string> out;
  const json::Value* list = story->find("dependencies");
  if (list != nullptr && list->is_array())
    for (const json::Value& d : list->items()) out.push_back(dependency_text(d));
  return out;
}

/// What changed in one story, one line each (empty when nothing).
std::vector<std::string> story_changes(const FlatStory& theirs, const FlatStory& ours, bool moved) {
  std::vector<std::string> lines;
  std::vector<std::string_view> keys;
  for (const json::Member& m : ours.story->members()) keys.push_back(m.key.text());
  for (const json::Member& m : theirs.story->members()) keys.push_back(m.key.text());
  std::vector<std::string_view> seen;
  for (std::string_view key : keys) {
    if (key == "sub_stories" || key == "dependencies" || std::find(seen.begin(), seen.end(), key) != seen.end())
      continue;
    seen.push_back(key);
    const json::Value* before = theirs.story->find(key);
    const json::Value* after = ours.story->find(key);
    std::string a = before ? write_compact(*before, Shape::Unknown) : "";
    std::string b = after ? write_compact(*after, Shape::Unknown) : "";
    if (detail::same_value(a, b)) continue;
    const auto [was, now] = shown_change(before, after);
    lines.push_back(std::string(key) + ": " + was + " → " + now);
  }
  if (moved)
    lines.push_back("moved: from " +
                    (theirs.parent_label.empty() ? std::string("the top level") : "under " + theirs.parent_label) +
                    " to " + (ours.parent_label.empty() ? std::string("the top level") : "under " + ours.parent_label));
  std::vector<std::string> removed = dependency_texts(theirs.story);
  std::vector<std::string> added = dependency_texts(ours.story);
  for (auto it = added.begin(); it != added.end();) {
    auto match = std::find(removed.begin(), removed.end(), *it);
    if (match != removed.end()) {
      removed.erase(match);
      it = added.erase(it);
    } else {
      ++it;
    }
  }
  for (const auto& d : removed) lines.push_back("dependency removed: " + d);
  for (const auto& d : added) lines.push_back("dependency added: " + d);
  return lines;
}

std::string where(const std::string& parent) {
  return parent.empty() ? "" : " under " + parent;
}

StoryChange story_change(StoryChange::Kind kind, const FlatStory& flat) {
  StoryChange change;
  change.kind = kind;
  change.temp_id = flat.temp_id;
  change.title = flat.title;
  change.label = flat.label;
  change.parent = flat.parent_label;
  return change;
}

}  // namespace

std::size_t TemplateChanges::count(StoryChange::Kind kind) const {
  return static_cast<std::size_t>(
      std::count_if(stories.begin(), stories.end(), [kind](const StoryChange& s) { return s.kind == kind; }));
}

TemplateChanges compare_template(const LocalTemplate& local, const RemoteTemplate* remote) {
  TemplateChanges changes;
  json::Document remote_doc = json::Document::parse(remote != nullptr ? std::string_view(remote->json) : "{}");
  for (const auto& [key, value] : local.fields) {
    json::Document ours = json::Document::parse(value);
    const json::Value* mine = ours.ok() ? &ours.root() : nullptr;
    if (remote == nullptr) {
      changes.fields.push_back({key, std::nullopt, shown(mine)});
      continue;
    }
    const json::Value* theirs = remote_doc.ok() ? remote_doc.root().find(key) : nullptr;
    std::string their_text = theirs == nullptr ? "null" : write_compact(*theirs, Shape::Unknown);
    if (detail::same_value(value, their_text)) continue;
    auto [was, now] = shown_change(theirs, mine);
    changes.fields.push_back({key, std::move(was), std::move(now)});
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
      changes.stories.push_back(story_change(StoryChange::Kind::Added, ours[i]));
      continue;
    }
    // Moved: its parent here is not the partner of its parent there.
    std::size_t our_parent = ours[i].parent;
    std::size_t mapped = our_parent == kNone ? kNone : partner[our_parent];
    auto lines = story_changes(theirs[partner[i]], ours[i], mapped != theirs[partner[i]].parent);
    if (lines.empty()) continue;
    StoryChange change = story_change(StoryChange::Kind::Changed, ours[i]);
    change.details = std::move(lines);
    changes.stories.push_back(std::move(change));
  }
  for (std::size_t i = 0; i < theirs.size(); ++i)
    if (!taken[i]) changes.stories.push_back(story_change(StoryChange::Kind::Removed, theirs[i]));
  // Same stories, other order: the lists differ although no story does.
  changes.reordered = changes.stories.empty() && their_text != *local.stories;
  return changes;
}

namespace detail {

void append_changes(std::string& out, const TemplateChanges& changes, std::string_view indent) {
  const std::string in(indent);
  if (!changes.fields.empty()) {
    out += in + "template:\n";
    for (const FieldChange& f : changes.fields)
      out += in + "  " + f.key + ": " + (f.before ? *f.before + " → " : std::string()) + f.after + "\n";
  }
  if (changes.stories.empty() && !changes.reordered) return;
  out += in + "stories: " + std::to_string(changes.count(StoryChange::Kind::Changed)) + " changed, " +
         std::to_string(changes.count(StoryChange::Kind::Added)) + " added, " +
         std::to_string(changes.count(StoryChange::Kind::Removed)) + " removed\n";
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
        for (const std::string& line : s.details) out += in + "      " + line + "\n";
        break;
    }
  }
  if (changes.reordered) out += in + "  stories in another order\n";
}

}  // namespace detail

std::string changes_text(const TemplateChanges& changes, std::string_view indent) {
  std::string out;
  detail::append_changes(out, changes, indent);
  return out;
}

std::string diff_template(const LocalTemplate& local, const RemoteTemplate& remote) {
  TemplateChanges changes = compare_template(local, &remote);
  if (changes.empty()) return "";
  std::string out = "--- service: template " + std::to_string(remote.id) + " " + json::quoted(remote.title) +
                    (remote.updated_at.empty() ? "" : " (updated_at " + remote.updated_at + ")") + "\n";
  out += "+++ local:   " + local.path + "\n";
  detail::append_changes(out, changes, "");
  return out;
}

}  // namespace ptmpl::publish
