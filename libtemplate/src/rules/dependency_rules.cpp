// Rules about dependencies (docs/semantics.md §3, §5): dependency-target-missing, dependency-source-mismatch,
// dependency-self, dependency-duplicate, dependency-type-invalid, dependency-lag-invalid,
// dependency-cycle, dependency-parent-child.
//
// A dependency belongs to the story that holds it (it is stored on its source); messages name
// it as written, `dependency 2 → 9`, by its source_id and target_id. Values the model left out
// because they have the wrong type are the `schema` rule's, except `type` and `lag`, which are
// checked here (schema_rule.cpp's kOwned).
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "libtemplate/core/dependency_graph.hpp"
#include "libtemplate/core/spelling.hpp"
#include "rules/rule.hpp"

namespace ptmpl::rules {

namespace {

// The service's numbering (docs/semantics.md §5).
constexpr std::string_view kTypeNames[] = {"start-to-start", "start-to-finish", "finish-to-start", "finish-to-finish"};
constexpr std::string_view kTypes =
    "0 = start-to-start, 1 = start-to-finish, 2 = finish-to-start, 3 = finish-to-finish";

std::string id_text(const std::optional<TempId>& id) {
  return id ? temp_id_key(*id) : "?";
}

// `dependency 2 → 9`: its source_id (or, without one, the temp_id of the story that holds it)
// and its target_id, as written.
std::string dependency_name(const Story& owner, const Dependency& dependency) {
  return "dependency " + id_text(dependency.source_id ? dependency.source_id : owner.temp_id) + " → " +
         id_text(dependency.target_id);
}

// Two temp_ids name the same story when their text is the same (7 and "7").
bool same_temp_id(const TempId& a, const TempId& b) {
  return canonical_temp_id(a) == canonical_temp_id(b);
}

// A temp_id a misspelt target_id may have meant: a string with a letter in it, not a number
// (7 is not a misspelling of 8).
std::optional<std::string_view> wordlike(const OptionalTempId& id) {
  if (!id) return std::nullopt;
  const TempId value = *id;
  const auto* text = std::get_if<std::string_view>(&value);
  if (text == nullptr || std::ranges::all_of(*text, [](char c) { return c >= '0' && c <= '9'; })) return std::nullopt;
  return *text;
}

// True when `a` and `b` differ in digits alone (`t1` and `t9`, `task-12` and `task-13`): the
// next or previous of a numbered series, not a misspelling.
bool differ_in_digits(std::string_view a, std::string_view b) {
  auto letters = [](std::string_view text) {
    std::string out;
    for (const char c : text)
      if (c < '0' || c > '9') out += c;
    return out;
  };
  return letters(a) == letters(b);
}

// The temp_ids of a template that a misspelt target_id is compared with.
std::vector<std::string_view> wordlike_temp_ids(const DependencyGraph& graph) {
  std::vector<std::string_view> ids;
  for (std::size_t i = 0; i < graph.size(); ++i)
    if (auto id = wordlike(graph.story(i).temp_id)) ids.push_back(*id);
  return ids;
}

// A scalar as written (`"FS"`, `1.5`, `true`, `null`), or what kind of value it is.
std::string written(const json::Value& value) {
  switch (value.kind()) {
    case json::Kind::String:
      return "\"" + std::string(value.text()) + "\"";
    case json::Kind::Number:
      return std::string(value.text());
    case json::Kind::True:
      return "true";
    case json::Kind::False:
      return "false";
    case json::Kind::Null:
      return "null";
    case json::Kind::Array:
      return "an array";
    case json::Kind::Object:
      return "an object";
    case json::Kind::Truncated:
      break;
  }
  return "a deeply nested value";
}

// The number of a type written by name: "FS", "finish-to-start" (any case).
std::optional<int> type_by_name(std::string_view name) {
  std::string lower;
  for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  constexpr std::string_view kShort[] = {"ss", "sf", "fs", "ff"};
  for (int i = 0; i < 4; ++i)
    if (lower == kShort[i] || lower == kTypeNames[i]) return i;
  return std::nullopt;
}

// A string that holds just an integer ("2", "-1").
bool integer_text(std::string_view text) {
  if (!text.empty() && text.front() == '-') text.remove_prefix(1);
  return !text.empty() && text.size() < 19 && text.find_first_not_of("0123456789") == std::string_view::npos;
}

template <class Visit>
void for_each_dependency(const Story& story, Visit&& visit) {
  for (const Dependency& dependency : story.dependencies) visit(dependency);
}

// Where a finding about a whole dependency, or about one of its keys, points.
std::string dependency_pointer(const Story& owner, const Dependency& dependency, std::string_view key = {}) {
  std::string pointer = owner.dependency_pointer(dependency);
  if (!key.empty()) pointer += "/" + std::string(key);
  return pointer;
}

}  // namespace

void check_dependency_target_missing(Context& context) {
  // A did-you-mean compares a target_id with every temp_id: for the first links of a template
  // only, so a file of many broken links costs no more than a few.
  constexpr std::size_t kSuggested = 20;
  for (const TemplateSource& source : context.file().templates()) {
    const DependencyGraph& graph = context.graph(source);
    std::optional<std::vector<std::string_view>> candidates;
    std::size_t suggested = 0;
    for (const DanglingLink& dangling : graph.dangling()) {
      const Story& owner = graph.story(dangling.source);
      const Dependency& dependency = *dangling.dependency;
      const json::Value* target = dependency.node.find("target_id");
      // Missing, or not an integer or string: the schema rule's (`target_id` is required).
      if (target == nullptr) continue;
      std::string message;
      if (dependency.target_id) {
        message = dependency_name(owner, dependency) + " names target_id " + temp_id_key(*dependency.target_id) +
                  ", which no story has";
        if (auto written = wordlike(dependency.target_id); written && suggested++ < kSuggested) {
          if (!candidates) candidates = wordlike_temp_ids(graph);
          if (auto meant = closest(*written, *candidates); meant && !differ_in_digits(*meant, *written))
            message += "; did you mean \"" + std::string(*meant) + "\"?";
        }
      } else if (target->is_string() && target->text().empty())
        message = "dependency " + id_text(dependency.source_id ? dependency.source_id : owner.temp_id) +
                  " → \"\" names no story: its target_id is empty";
      else
        continue;
      context.report("dependency-target-missing", Severity::Error, source, *target,
                     dependency_pointer(owner, dependency, "target_id"), std::move(message));
    }
  }
}

void check_dependency_source_mismatch_story(Context& context, const TemplateSource& source, const Story& owner) {
  for (const Dependency& dependency : owner.dependencies) {
    if (!dependency.source_id) continue;  // missing or mistyped: the schema rule's
    if (owner.temp_id && same_temp_id(*owner.temp_id, *dependency.source_id)) continue;
    const DependencyGraph& graph = context.graph(source);  // to name the story a source_id belongs to
    const std::size_t named = graph.find(*dependency.source_id);
    const std::string written_id = temp_id_key(*dependency.source_id);
    const json::Value& value = *dependency.node.find("source_id");
    std::string message;
    if (owner.temp_id) {
      const std::string own = temp_id_key(*owner.temp_id);
      message = dependency_name(owner, dependency);
      message += " is stored on story " + own;
      message += ", so its source_id should be " + own;
      message += ", not " + written_id;
      if (named != DependencyGraph::npos)
        message += " (or move the dependency to story " + written_id + ", " +
                   context.line_of(source, graph.story(named).origin.node) + ")";
    } else if (named != DependencyGraph::npos) {
      // Without a temp_id of its own, the story is temp-id-missing's finding; a source_id
      // that names another story is still a mismatch, and the likelier mistake.
      message = dependency_name(owner, dependency) + " is stored on a story without a temp_id, but its source_id " +
                written_id + " is the temp_id of another story (" +
                context.line_of(source, graph.story(named).origin.node) +
                "): move the dependency there, or give this story a temp_id and use it as source_id";
    } else {
      continue;  // temp-id-missing reports the story (it names the dependencies that need an id)
    }
    context.report("dependency-source-mismatch", Severity::Error, source, value,
                   dependency_pointer(owner, dependency, "source_id"), std::move(message));
  }
}

void check_dependency_self_story(Context& context, const TemplateSource& source, const Story& owner) {
  for_each_dependency(owner, [&](const Dependency& dependency) {
    if (!owner.temp_id || !dependency.target_id || !same_temp_id(*owner.temp_id, *dependency.target_id)) return;
    context.report("dependency-self", Severity::Error, source, dependency.node, dependency_pointer(owner, dependency),
                   dependency_name(owner, dependency) + " links story " + temp_id_key(*owner.temp_id) + " to itself");
  });
}

namespace {

// Collects the template's links as the stories go by, and finds those written twice at the end.
class DependencyDuplicate final : public StoryCheck {
 public:
  void start(Context&, const TemplateSource&) override { entries_.clear(); }

  void check(Context&, const TemplateSource&, const Story& owner) override {
    for (const Dependency& dependency : owner.dependencies)
      if (std::optional<Key> key = key_of(owner, dependency)) entries_.push_back({key->hash(), &owner, &dependency});
  }

  void finish(Context& context, const TemplateSource& source) override {
    // Open addressing over `entries_`, in file order: the first of equal links keeps the slot.
    std::size_t slots = 16;
    while (slots < 2 * entries_.size()) slots *= 2;
    constexpr std::size_t kFree = static_cast<std::size_t>(-1);
    std::vector<std::size_t> table(slots, kFree);
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      const Entry& entry = entries_[i];
      std::size_t slot = entry.hash & (slots - 1);
      while (table[slot] != kFree && !same_link(entries_[table[slot]], entry)) slot = (slot + 1) & (slots - 1);
      if (table[slot] == kFree) {
        table[slot] = i;
        continue;
      }
      const Entry& earlier = entries_[table[slot]];
      const Dependency& dependency = *entry.dependency;
      std::string message = "duplicate " + dependency_name(*entry.owner, dependency) + " (" +
                            std::string(kTypeNames[*dependency.type]) + "), first at " +
                            context.line_of(source, earlier.dependency->node) + ", " +
                            dependency_pointer(*earlier.owner, *earlier.dependency);
      if (dependency.lag.value_or(0) != earlier.dependency->lag.value_or(0))
        message += "; the lags differ: " + std::to_string(dependency.lag.value_or(0)) + " here, " +
                   std::to_string(earlier.dependency->lag.value_or(0)) + " there";
      context.report("dependency-duplicate", Severity::Warning, source, dependency.node,
                     dependency_pointer(*entry.owner, dependency), std::move(message));
    }
  }

 private:
  // A link: its source (source_id, or the holding story's temp_id without one), its target and
  // its type; temp_ids compare as text (canonical_temp_id()).
  struct Key {
    TempId from;
    TempId to;
    std::int64_t type;
    friend bool operator==(const Key&, const Key&) = default;
    [[nodiscard]] std::size_t hash() const {
      const TempIdHash h;
      return h(from) * 31 + h(to) * 7 + static_cast<std::size_t>(type);
    }
  };
  // Only the hash is kept per link (the key is rebuilt to confirm a match): the list stays small.
  struct Entry {
    std::size_t hash;
    const Story* owner;
    const Dependency* dependency;
  };

  // None for links with an invalid target or type: other rules' findings, not comparable here.
  static std::optional<Key> key_of(const Story& owner, const Dependency& dependency) {
    const std::optional<TempId>& from = dependency.source_id ? dependency.source_id : owner.temp_id;
    if (!from || !dependency.target_id || !dependency.type || *dependency.type < 0 || *dependency.type > 3)
      return std::nullopt;
    return Key{canonical_temp_id(*from), canonical_temp_id(*dependency.target_id), *dependency.type};
  }
  static bool same_link(const Entry& a, const Entry& b) {
    return a.hash == b.hash && key_of(*a.owner, *a.dependency) == key_of(*b.owner, *b.dependency);
  }

  std::vector<Entry> entries_;
};

}  // namespace

std::unique_ptr<StoryCheck> dependency_duplicate_check() {
  return std::make_unique<DependencyDuplicate>();
}

void check_dependency_type_invalid_story(Context& context, const TemplateSource& source, const Story& owner) {
  if (!owner.irregular(StoryKey::Dependencies)) return;  // every type written and one of 0–3
  for_each_dependency(owner, [&](const Dependency& dependency) {
    if (dependency.type && *dependency.type >= 0 && *dependency.type <= 3) return;
    const json::Value* type = dependency.node.find("type");
    if (type != nullptr && type->kind() == json::Kind::Truncated) return;  // nesting-depth's
    const std::string name = dependency_name(owner, dependency);
    std::string message;
    std::optional<int> hint;
    if (type == nullptr) {
      message = name + " has no type";
    } else if (type->is_string()) {
      message = name + " has type " + written(*type) + ", a string, not a number";
      if (integer_text(type->text())) {
        message += " (write it without quotes)";
      } else {
        hint = type_by_name(type->text());
      }
    } else if (type->is_integer_spelling()) {
      message = name + " has type " + written(*type) + ", which is not one of 0–3";
    } else if (type->is_number()) {
      message = name + " has type " + written(*type) + ", which is not an integer";
    } else {
      message = name + " has type " + written(*type) + ", which is not a number";
    }
    message += "; the types are " + std::string(kTypes);
    if (hint) message += " (" + written(*type) + " is " + std::to_string(*hint) + ")";
    if (type == nullptr)
      context.report("dependency-type-invalid", Severity::Error, source, dependency.node,
                     dependency_pointer(owner, dependency), std::move(message));
    else
      context.report("dependency-type-invalid", Severity::Error, source, *type,
                     dependency_pointer(owner, dependency, "type"), std::move(message));
  });
}

void check_dependency_lag_invalid_story(Context& context, const TemplateSource& source, const Story& owner) {
  if (!owner.irregular(StoryKey::Dependencies)) return;  // every lag written is an int64
  for_each_dependency(owner, [&](const Dependency& dependency) {
    // Absent means 0 working days.
    if (!lag_invalid(owner, dependency)) return;
    const json::Value* lag = dependency.node.find("lag");
    if (lag->kind() == json::Kind::Truncated) return;
    std::string message = dependency_name(owner, dependency) + " has lag " + written(*lag);
    if (lag->is_integer_spelling())
      message += ", which does not fit in a 64-bit integer";
    else if (lag->is_number())
      message += ", which is not an integer";
    else if (lag->is_string())
      message += integer_text(lag->text()) ? ", a string (write it without quotes)" : ", a string, not a number";
    else
      message += ", which is not a number";
    message += "; lag is a whole number of working days (negative for a lead, 0 when left out)";
    context.report("dependency-lag-invalid", Severity::Error, source, *lag,
                   dependency_pointer(owner, dependency, "lag"), std::move(message));
  });
}

void check_dependency_parent_child(Context& context) {
  for (const TemplateSource& source : context.file().templates()) {
    const DependencyGraph& graph = context.graph(source);
    for (const Link& link : graph.links()) {
      if (link.nesting != LinkNesting::SourceContainsTarget && link.nesting != LinkNesting::TargetContainsSource)
        continue;
      const Story& owner = graph.story(link.source);
      const std::string from = story_reference(owner);
      const std::string to = story_reference(graph.story(link.target));
      const bool inside = link.nesting == LinkNesting::SourceContainsTarget;
      std::string message = dependency_name(owner, *link.dependency);
      message += " links story " + from;
      message += " to " + to;
      message += inside ? ", which is inside it" : ", which contains it";
      message += " (a parent's dates are rolled up from the stories inside it)";
      context.report("dependency-parent-child", Severity::Error, source, link.dependency->node,
                     dependency_pointer(owner, *link.dependency), std::move(message));
    }
  }
}

void check_dependency_cycle(Context& context) {
  for (const TemplateSource& source : context.file().templates()) {
    const DependencyGraph& graph = context.graph(source);
    const std::vector<Cycle> cycles = graph.find_cycles();
    for (const Cycle& cycle : cycles) {
      const Link& closing = graph.links()[cycle.closing_link];
      const Story& owner = graph.story(closing.source);
      std::string message = "dependency cycle: " + describe_cycle(graph, cycle);
      context.report("dependency-cycle", Severity::Error, source, closing.dependency->node,
                     dependency_pointer(owner, *closing.dependency), std::move(message));
      // The chain ends where it began ("1 → 2 → 1"): each story once.
      std::size_t length = cycle.stories.size();
      if (length > 1 && cycle.stories.back() == cycle.stories.front()) --length;
      for (std::size_t i = 0; i < length; ++i) {
        const Story& story = graph.story(cycle.stories[i]);
        context.relate(source, story.origin.node,
                       "story " + story_reference(story) + " is in the cycle (" + std::to_string(i + 1) + " of " +
                           std::to_string(length) + ")");
      }
    }
  }
}

}  // namespace ptmpl::rules
