// Three-way merge of template documents (`ptmpl pull --merge`, `ptmpl diff --three-way`): the
// file and the service's copy, each against the base they were both taken from.
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "libtemplate/core/template_file.hpp"
#include "libtemplate/core/writer.hpp"
#include "libtemplate/publish/publish.hpp"
#include "publish/change_text.hpp"
#include "publish/publish_support.hpp"
#include "publish/story_list.hpp"

namespace ptmpl::publish {
namespace {

constexpr std::size_t kShown = 60;  // longer values are cut in conflict lines, with "…"

/// A value's compact text; nullopt when absent.
using Text = std::optional<std::string>;

Text text_of(const json::Value* value) {
  if (value == nullptr) return std::nullopt;
  return write_compact(*value, Shape::Unknown);
}

bool same(const Text& a, const Text& b) {
  if (!a || !b) return !a && !b;
  return detail::same_value(*a, *b);
}

std::string shown(const Text& text) {
  return shown_value(text, kShown);
}

/// Which side a three-way choice takes.
enum class Pick { Local, Remote, Conflict };

Pick pick(const Text& base, const Text& local, const Text& remote) {
  if (same(local, remote) || same(remote, base)) return Pick::Local;
  if (same(local, base)) return Pick::Remote;
  return Pick::Conflict;
}

/// A key changed differently on each side.
MergeConflict key_conflict(const std::optional<StoryName>& story, std::string key, const Text& base, const Text& local,
                           const Text& remote) {
  return {story, std::move(key),
          "locally " + shown(local) + ", on the service " + shown(remote) + " (base " + shown(base) + ")",
          MergeConflict::Values{base, local, remote}};
}

/// One side's template document, read for merging.
struct Side {
  std::string_view name;  // "locally", "on the service", "in the base"
  json::Document doc;
  json::Document inner;  // raw_json's story list when it is a string
  json::Value root;
  json::Value pt;                      // project_template, the last of each key
  std::optional<json::Value> stories;  // the story list; none when there is no raw_json
};

Result<Side> read_side(std::string_view text, std::string_view name) {
  Side side;
  side.name = name;
  side.doc = json::Document::parse(text);
  const std::string what = name == "locally"          ? "the file"
                           : name == "on the service" ? "the service's copy"
                                                      : "the base";
  if (!side.doc.ok()) return Error::invalid(what + " is not valid JSON");
  if (side.doc.truncated()) return Error::invalid(what + " is nested too deeply to merge");
  const json::Value* pt = side.doc.root().is_object() ? side.doc.root().find("project_template") : nullptr;
  if (pt == nullptr || !pt->is_object()) return Error::invalid(what + " is not a template document");
  side.root = side.doc.root();
  side.pt = json::last_of_each_key(*pt, side.doc.arena());
  if (const json::Value* raw = side.pt.find("raw_json"); raw != nullptr) {
    if (raw->is_string()) {
      std::string_view inner = raw->text();
      if (inner.find_first_not_of(" \t\r\n") == std::string_view::npos) inner = "[]";
      side.inner = json::Document::parse(inner);
      if (!side.inner.ok() || side.inner.truncated())
        return Error::invalid(what + ": its raw_json is not a story list ptmpl can merge");
      side.stories = side.inner.root();
    } else {
      side.stories = *raw;
    }
    if (!side.stories->is_array()) return Error::invalid(what + ": its raw_json is not a story list");
  }
  return side;
}

std::string id_shown(std::string_view compact_id) {
  return compact_id.size() >= 2 && compact_id.front() == '"' ? std::string(compact_id.substr(1, compact_id.size() - 2))
                                                             : std::string(compact_id);
}

StoryName name_of(const detail::FlatStory& story, const std::string& id) {
  const json::Value* title = story.story->find("title");
  return {story.temp_id, story.title,
          (id.empty() ? "" : "[" + id_shown(id) + "] ") +
              (title != nullptr && title->is_string() ? json::quoted(title->text()) : "(untitled)")};
}

/// A story of one side, flattened: its temp_id (compact JSON text) and its parent's.
struct Flat {
  const json::Value* story = nullptr;
  std::string id;
  std::string parent;  // "" at the top level
  StoryName name;
};

struct Stories {
  std::vector<Flat> order;  // pre-order
  std::map<std::string, std::size_t> by_id;
};

/// Flattens `list`; a story without temp_id, or a temp_id named twice, is a conflict (stories
/// are paired by temp_id), and the stories below one without temp_id are not placed.
Status flatten(const json::Value& list, std::string_view side, Stories& out, std::vector<MergeConflict>& conflicts,
               std::set<std::string>& doubled) {
  const detail::FlatStories flat_list = detail::flatten_stories(list);
  const std::vector<detail::FlatStory>& all = flat_list.stories;
  std::vector<bool> placed(all.size(), false);
  auto placed_under = [&](std::size_t parent) {
    return parent == detail::kTopLevel || (placed[parent] && all[parent].pairable);
  };
  for (std::size_t parent : flat_list.not_stories)
    if (placed_under(parent))
      return Error::invalid(std::string("a story list ") + std::string(side) + " holds a value that is not a story");
  for (std::size_t i = 0; i < all.size(); ++i) {
    const detail::FlatStory& story = all[i];
    if (!placed_under(story.parent)) continue;
    placed[i] = true;
    Flat flat;
    flat.story = story.story;
    flat.id = story.pairable ? story.temp_id : "";
    flat.parent = story.parent == detail::kTopLevel ? "" : all[story.parent].temp_id;
    flat.name = name_of(story, flat.id);
    if (flat.id.empty()) {
      conflicts.push_back({flat.name, "temp_id", "has none " + std::string(side) + ": stories are merged by temp_id"});
    } else if (auto [it, fresh] = out.by_id.emplace(flat.id, out.order.size()); !fresh) {
      if (doubled.insert(std::string(side) + flat.id).second)
        conflicts.push_back({flat.name, "temp_id", "names several stories " + std::string(side)});
    } else {
      out.order.push_back(flat);
    }
  }
  return Done{};
}

/// The keys of `objects` in order of first appearance (null entries skipped), without `skip`.
std::vector<std::string_view> keys_of(std::initializer_list<const json::Value*> objects,
                                      std::initializer_list<std::string_view> skip) {
  std::vector<std::string_view> keys;
  for (const json::Value* object : objects) {
    if (object == nullptr) continue;
    for (const json::Member& m : object->members()) {
      std::string_view key = m.key.text();
      if (std::find(skip.begin(), skip.end(), key) != skip.end()) continue;
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
    }
  }
  return keys;
}

const json::Value* find_in(const json::Value* object, std::string_view key) {
  return object == nullptr ? nullptr : object->find(key);
}

/// Merges the keys of three objects (any may be null: absent); conflicts are appended under
/// `story` (nullopt: the template's fields). Returns the members taken.
std::vector<json::Member> merge_members(const json::Value* base, const json::Value* local, const json::Value* remote,
                                        std::initializer_list<std::string_view> skip, const json::Builder& build,
                                        const std::optional<StoryName>& story, std::vector<MergeConflict>& conflicts) {
  std::vector<json::Member> out;
  for (std::string_view key : keys_of({local, remote, base}, skip)) {
    const json::Value* b = find_in(base, key);
    const json::Value* l = find_in(local, key);
    const json::Value* r = find_in(remote, key);
    Text bt = text_of(b), lt = text_of(l), rt = text_of(r);
    switch (pick(bt, lt, rt)) {
      case Pick::Local:
        if (l != nullptr) out.push_back(build.member(key, *l));
        break;
      case Pick::Remote:
        if (r != nullptr) out.push_back(build.member(key, *r));
        break;
      case Pick::Conflict:
        conflicts.push_back(key_conflict(story, std::string(key), bt, lt, rt));
        break;
    }
  }
  return out;
}

/// Whether a story differs between two sides, apart from its children: any key, or its parent.
bool story_changed(const Flat& a, const Flat& b) {
  if (a.parent != b.parent) return true;
  for (std::string_view key : keys_of({a.story, b.story}, {"sub_stories"}))
    if (!same(text_of(a.story->find(key)), text_of(b.story->find(key)))) return true;
  return false;
}

const Flat* flat_of(const Stories& stories, const std::string& id) {
  auto it = stories.by_id.find(id);
  return it == stories.by_id.end() ? nullptr : &stories.order[it->second];
}

/// One story of the merge: its members (without sub_stories) and parent.
struct Merged {
  std::vector<json::Member> members;
  std::string parent;
  StoryName name;
  bool had_children_key = false;
};

std::string place_text(const std::string& parent, const std::map<std::string, std::string>& labels) {
  if (parent.empty()) return "at the top level";
  auto it = labels.find(parent);
  return "under " + (it == labels.end() ? "[" + id_shown(parent) + "]" : it->second);
}

class StoryMerge {
 public:
  StoryMerge(const Side& base, const Side& local, const Side& remote, json::Builder build,
             std::vector<MergeConflict>& conflicts)
      : build_(build), conflicts_(conflicts) {
    if (read(base, base_) && read(local, local_)) read(remote, remote_);
  }

  Result<json::Value> run() {
    if (!error_.empty()) return Error::invalid(error_);
    for (const Stories* side : {&base_, &local_, &remote_})
      for (const Flat& f : side->order) labels_.emplace(f.id, f.name.label);
    // Every temp_id of any side, decided once.
    std::vector<std::string> ids;
    std::set<std::string> seen;
    for (const Stories* side : {&local_, &remote_, &base_})
      for (const Flat& f : side->order)
        if (seen.insert(f.id).second) ids.push_back(f.id);
    for (const std::string& id : ids) decide(id);
    place_check();
    if (!conflicts_.empty()) return json::Value();
    return build_list("");
  }

 private:
  bool read(const Side& side, Stories& out) {
    if (!side.stories) return true;
    if (auto flat = flatten(*side.stories, side.name, out, conflicts_, doubled_); !flat.ok()) {
      error_ = flat.error().message;
      return false;
    }
    return true;
  }

  void take(const std::string& id, const Flat& from) {
    Merged m;
    for (const json::Member& member : from.story->members())
      if (member.key.text() != "sub_stories") m.members.push_back(member);
    m.parent = from.parent;
    m.name = from.name;
    m.had_children_key = from.story->find("sub_stories") != nullptr;
    merged_.emplace(id, std::move(m));
  }

  void decide(const std::string& id) {
    const Flat* b = flat_of(base_, id);
    const Flat* l = flat_of(local_, id);
    const Flat* r = flat_of(remote_, id);
    const StoryName name = (l ? l : r ? r : b)->name;
    if (b == nullptr) {
      if (l && r && story_changed(*l, *r)) {
        conflicts_.push_back({name, "", "added locally and on the service, with different content"});
        return;
      }
      take(id, l ? *l : *r);
      return;
    }
    if (!l || !r) {
      if (!l && !r) return;  // removed on both sides
      const Flat* kept = l ? l : r;
      if (story_changed(*b, *kept))
        conflicts_.push_back(
            {name, "", l ? "removed on the service, changed locally" : "removed locally, changed on the service"});
      return;  // removed on one side, untouched on the other
    }
    Merged m;
    std::size_t before = conflicts_.size();
    m.members = merge_members(b->story, l->story, r->story, {"sub_stories"}, build_, name, conflicts_);
    switch (pick(b->parent, l->parent, r->parent)) {
      case Pick::Local:
        m.parent = l->parent;
        break;
      case Pick::Remote:
        m.parent = r->parent;
        break;
      case Pick::Conflict:
        conflicts_.push_back(
            {name, "",
             "moved locally " + place_text(l->parent, labels_) + ", on the service " + place_text(r->parent, labels_)});
        break;
    }
    if (conflicts_.size() != before) return;
    m.name = name;
    m.had_children_key = l->story->find("sub_stories") != nullptr || r->story->find("sub_stories") != nullptr;
    merged_.emplace(id, std::move(m));
  }

  /// Every merged story's parent must be merged too, and no story may end up under itself.
  void place_check() {
    for (const auto& [id, m] : merged_) {
      if (!m.parent.empty() && !merged_.count(m.parent)) {
        conflicts_.push_back({m.name, "", "is " + place_text(m.parent, labels_) + ", which the merge removes"});
        continue;
      }
      std::string up = m.parent;
      for (std::size_t steps = 0; !up.empty(); ++steps) {
        if (up == id || steps > merged_.size()) {
          conflicts_.push_back({m.name, "", "ends up under itself: the two sides moved stories into each other"});
          break;
        }
        auto it = merged_.find(up);
        up = it == merged_.end() ? "" : it->second.parent;
      }
    }
  }

  /// The merged order: the local one, with each story only the service has placed after its
  /// predecessor in the service's order.
  std::vector<std::string> order() const {
    std::vector<std::string> out;
    for (const Flat& f : local_.order)
      if (merged_.count(f.id)) out.push_back(f.id);
    std::string previous;
    for (const Flat& f : remote_.order) {
      if (!merged_.count(f.id)) continue;
      if (std::find(out.begin(), out.end(), f.id) == out.end()) {
        auto at = previous.empty() ? out.begin() : std::find(out.begin(), out.end(), previous) + 1;
        out.insert(at, f.id);
      }
      previous = f.id;
    }
    return out;
  }

  json::Value build_list(const std::string& parent) {
    if (children_.empty()) {
      for (const std::string& id : order()) children_[merged_.at(id).parent].push_back(id);
    }
    std::vector<json::Value> items;
    for (const std::string& id : children_[parent]) {
      Merged& m = merged_.at(id);
      std::vector<json::Member> members = m.members;
      json::Value sub = build_list(id);
      if (!sub.items().empty() || m.had_children_key) members.push_back(build_.member("sub_stories", sub));
      items.push_back(build_.object(members));
    }
    return build_.array(items);
  }

  json::Builder build_;
  std::vector<MergeConflict>& conflicts_;
  Stories base_, local_, remote_;
  std::set<std::string> doubled_;
  std::map<std::string, Merged> merged_;
  std::map<std::string, std::string> labels_;
  std::map<std::string, std::vector<std::string>> children_;
  std::string error_;
};

}  // namespace

Result<MergeResult> merge_templates(std::string_view base_text, std::string_view local_text,
                                    std::string_view remote_text) {
  auto base = read_side(base_text, "in the base");
  if (!base.ok()) return base.error();
  auto local = read_side(local_text, "locally");
  if (!local.ok()) return local.error();
  auto remote = read_side(remote_text, "on the service");
  if (!remote.ok()) return remote.error();
  const Side& b = base.value();
  const Side& l = local.value();
  const Side& r = remote.value();

  MergeResult result;
  json::Arena arena;
  json::Builder build(arena);
  // Template fields; id and updated_at are the service's (the merge is on top of its version).
  std::vector<json::Member> fields =
      merge_members(&b.pt, &l.pt, &r.pt, {"id", "updated_at", "raw_json"}, build, std::nullopt, result.conflicts);
  std::optional<json::Value> stories;
  if (b.stories && l.stories && r.stories) {
    StoryMerge merge(b, l, r, build, result.conflicts);
    auto list = merge.run();
    if (!list.ok()) return list.error();
    stories = list.value();
  } else {
    // No story list on some side: raw_json is one more field.
    Text bt = b.stories ? text_of(&*b.stories) : std::nullopt;
    Text lt = l.stories ? text_of(&*l.stories) : std::nullopt;
    Text rt = r.stories ? text_of(&*r.stories) : std::nullopt;
    switch (pick(bt, lt, rt)) {
      case Pick::Local:
        if (l.stories) stories = *l.stories;
        break;
      case Pick::Remote:
        if (r.stories) stories = *r.stories;
        break;
      case Pick::Conflict:
        result.conflicts.push_back(key_conflict(std::nullopt, "raw_json", bt, lt, rt));
        break;
    }
  }
  if (!result.conflicts.empty()) return result;

  std::vector<json::Member> pt;
  if (const json::Value* id = r.pt.find("id")) pt.push_back(build.member("id", *id));
  for (const json::Member& m : fields) pt.push_back(m);
  if (const json::Value* stamp = r.pt.find("updated_at")) pt.push_back(build.member("updated_at", *stamp));
  if (stories) pt.push_back(build.member("raw_json", *stories));
  // Everything beside project_template is the file's own (never sent to the service).
  std::vector<json::Member> top;
  for (const json::Member& m : l.root.members()) {
    if (m.key.text() == "project_template") {
      if (std::none_of(top.begin(), top.end(),
                       [](const json::Member& t) { return t.key.text() == "project_template"; }))
        top.push_back(build.member("project_template", build.object(pt)));
    } else {
      top.push_back(m);
    }
  }
  result.document = write_canonical(build.object(top), Shape::TemplateDocument);
  return result;
}

std::string conflict_lines(const std::vector<MergeConflict>& conflicts, std::string_view indent) {
  std::string out;
  for (const MergeConflict& c : conflicts) {
    out += std::string(indent) + (c.story ? c.story->label : std::string("template")) + ": ";
    if (!c.key.empty()) out += c.key + ": ";
    out += c.what + "\n";
  }
  return out;
}

}  // namespace ptmpl::publish
