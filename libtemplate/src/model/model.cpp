#include "libtemplate/core/model.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "model/regular_keys.hpp"

namespace ptmpl {

namespace {

constexpr std::array<std::string_view, 16> kStoryKeys = {"story_type",
                                                         "title",
                                                         "temp_id",
                                                         "relative_start_date",
                                                         "relative_due_date",
                                                         "duration",
                                                         "billable",
                                                         "description",
                                                         "budget_estimate_in_cents",
                                                         "time_estimate_in_minutes",
                                                         "sub_stories",
                                                         "checklist",
                                                         "tag_list",
                                                         "assignments",
                                                         "dependencies",
                                                         "weight"};

static_assert(kStoryKeys.size() == static_cast<std::size_t>(StoryKey::Weight) + 1 &&
              kStoryKeys[static_cast<std::size_t>(StoryKey::SubStories)] == "sub_stories" &&
              kStoryKeys[static_cast<std::size_t>(StoryKey::Weight)] == "weight");

// The story keys of each length below 32, each list ended by -1: a key is compared with those
// of its own length only (at most three), where a search of all sixteen took a twentieth of
// reading a large template.
constexpr auto kStoryKeysByLength = [] {
  std::array<std::array<std::int8_t, 4>, 32> table{};
  for (auto& list : table) list.fill(-1);
  for (std::size_t k = 0; k < kStoryKeys.size(); ++k) {
    auto& list = table[kStoryKeys[k].size()];
    std::size_t at = 0;
    while (list[at] >= 0) ++at;
    list[at] = static_cast<std::int8_t>(k);
  }
  return table;
}();
static_assert(std::all_of(kStoryKeys.begin(), kStoryKeys.end(), [](std::string_view k) { return k.size() < 32; }));

// The documented story key `key` is, if any.
std::optional<StoryKey> story_key_of(std::string_view key) {
  if (key.size() >= kStoryKeysByLength.size()) return std::nullopt;
  for (const std::int8_t k : kStoryKeysByLength[key.size()]) {
    if (k < 0) break;
    if (kStoryKeys[static_cast<std::size_t>(k)] == key) return static_cast<StoryKey>(k);
  }
  return std::nullopt;
}

// project_template_assignments may be written inside project_template as well as beside it
// (docs/semantics.md §2); the service's template carries its assignments.
constexpr std::array<std::string_view, 12> kTemplateKeys = {"id",
                                                            "title",
                                                            "description",
                                                            "shared",
                                                            "is_budgeted",
                                                            "budget",
                                                            "currency",
                                                            "duration",
                                                            "item_count",
                                                            "updated_at",
                                                            "project_template_assignments",
                                                            "raw_json"};

constexpr std::array<std::string_view, 4> kDependencyKeys = {"source_id", "target_id", "type", "lag"};

// Blank, as title-missing and checklist-item-invalid count it (and the schema's "\\S").
constexpr std::string_view kBlank = " \t\r\n\f\v";

std::optional<std::string_view> string_of(const json::Value& v) {
  if (!v.is_string()) return std::nullopt;
  return v.text();
}

// `valid`: the keys the schema requires (source_id, target_id, type) are written with valid
// values, a lag is an integer if written, and no key is written twice.
Dependency dependency_from_json(const json::Value& node, std::uint32_t index, json::Arena& arena, bool& valid) {
  Dependency dep;
  bool lag_written = false;
  dep.node = node;
  dep.index = index;
  std::size_t unknown = 0;
  for (const json::Member& m : node.members()) {
    std::string_view key = m.key.text();
    const json::Value& v = m.value;
    if (key == "source_id")
      dep.source_id = temp_id_from(v);
    else if (key == "target_id")
      dep.target_id = temp_id_from(v);
    else if (key == "type")
      dep.type = v.as_int64();
    else if (key == "lag") {
      dep.lag = v.as_int64();
      lag_written = true;
    } else {
      ++unknown;
    }
  }
  valid = node.unique_keys() && dep.source_id && dep.target_id && dep.type && *dep.type >= 0 && *dep.type <= 3 &&
          (dep.lag || !lag_written);
  if (unknown > 0) {
    std::span<json::Member> extra = arena.make_array<json::Member>(unknown);
    std::size_t k = 0;
    for (const json::Member& m : node.members()) {
      std::string_view key = m.key.text();
      if (key != "source_id" && key != "target_id" && key != "type" && key != "lag") extra[k++] = m;
    }
    dep.extra = extra;
  }
  return dep;
}

// Reads stories depth first with an explicit stack (no recursion on the nesting, which may be
// thousands of levels). Each story keeps its parent (or, at the top, the list's pointer) and
// its index, from which Story::pointer() builds its pointer.
class StoryReader {
 public:
  StoryReader(json::Arena& arena, bool mark_regular_keys) : arena_(arena), mark_regular_keys_(mark_regular_keys) {}

  std::span<const Story> list(const json::Value& top, std::string_view pointer_prefix) {
    struct Level {
      std::span<const json::Value> items;
      std::span<Story> out;
      std::uintptr_t up;       // Origin::up of the list's stories
      std::size_t next = 0;    // next item to look at
      std::size_t filled = 0;  // stories written to `out`
    };
    std::string_view& prefix = arena_.make_array<std::string_view>(1)[0];
    prefix = arena_.copy(pointer_prefix);
    std::span<Story> result = allocate(top);
    std::vector<Level> stack;
    stack.push_back({top.items(), result, reinterpret_cast<std::uintptr_t>(&prefix) | 1U});
    while (!stack.empty()) {
      Level& level = stack.back();
      while (level.next < level.items.size() && !level.items[level.next].is_object()) ++level.next;
      if (level.next == level.items.size()) {
        stack.pop_back();
        continue;
      }
      std::size_t i = level.next++;
      Story& story = level.out[level.filled++];
      story.origin = {level.items[i], level.up};
      story.index = static_cast<std::uint32_t>(i);
      const json::Value* children = read(level.items[i], story);
      if (children != nullptr) {
        std::span<Story> out = allocate(*children);
        story.sub_stories = out;
        stack.push_back(
            {children->items(), out, reinterpret_cast<std::uintptr_t>(&story)});  // `level` is not used after this
      }
    }
    return result;
  }

 private:
  std::span<Story> allocate(const json::Value& list) {
    std::size_t objects = 0;
    for (const json::Value& item : list.items()) objects += item.is_object() ? 1 : 0;
    return arena_.make_array<Story>(objects);
  }

  // Reads every field of one story but its sub_stories, whose array (the last one written, if
  // an array) it returns for the caller to read. Marks the keys written and the irregular ones
  // (Story::irregular_keys) as it goes: the values are in the cache now, and checks that
  // would search the members later need not when nothing is marked.
  const json::Value* read(const json::Value& node, Story& story) {
    const json::Value* children = nullptr;
    std::size_t unknown = 0;
    std::uint16_t written = 0;
    std::uint16_t irregular = 0;
    for (const json::Member& m : node.members()) {
      const std::optional<MemberRead> known = read_member(m.key.text(), m.value, story, children);
      if (!known) {
        ++unknown;
        continue;
      }
      const auto bit = static_cast<std::uint16_t>(1U << static_cast<unsigned>(known->key));
      written |= bit;
      if (!known->regular) irregular |= bit;
    }
    // With a key written twice, the last value is the model's but every one is the file's.
    story.written_keys = written;
    story.irregular_keys = node.unique_keys() && mark_regular_keys_ ? irregular : written;
    if (unknown > 0) story.extra = extra_members(node, unknown);
    return children;
  }

  // Which story key a member is, and whether its value is regular: what the service expects,
  // with nothing for a rule to report.
  struct MemberRead {
    StoryKey key;
    bool regular;
  };

  // Reads the member `key`: `v` into its field of `story` (a sub_stories array into
  // `children`). Nothing for a key that is not a story's.
  std::optional<MemberRead> read_member(std::string_view key, const json::Value& v, Story& story,
                                        const json::Value*& children) {
    const std::optional<StoryKey> found = story_key_of(key);
    if (!found) return std::nullopt;
    const StoryKey k = *found;
    bool regular = true;
    // An integer field: read as int64; regular when it is one within [low, high].
    auto integer = [&v](std::optional<std::int64_t>& field, std::int64_t low = std::numeric_limits<std::int64_t>::min(),
                        std::int64_t high = std::numeric_limits<std::int64_t>::max()) {
      field = v.as_int64();
      return field && *field >= low && *field <= high;
    };
    // Later duplicates overwrite earlier ones: the service keeps the last value of a key.
    switch (k) {
      case StoryKey::StoryType:
        story.story_type = v.is_string() ? parse_story_type(v.text()) : std::nullopt;
        regular = story.story_type.has_value();
        break;
      case StoryKey::Title:
        story.title = string_of(v);
        regular = story.title && story.title->find_first_not_of(kBlank) != std::string_view::npos;
        break;
      case StoryKey::TemporaryId:
        story.temp_id = temp_id_from(v);
        regular = story.temp_id.has_value();
        break;
      case StoryKey::RelativeStartDate:
        regular = integer(story.relative_start_date);
        break;
      case StoryKey::RelativeDueDate:
        regular = integer(story.relative_due_date);
        break;
      case StoryKey::Duration:
        regular = integer(story.duration, 0);
        break;
      case StoryKey::Billable:
        story.billable = v.as_bool();
        regular = story.billable.has_value();
        break;
      case StoryKey::Description:
        story.description = string_of(v);
        regular = story.description.has_value();
        break;
      case StoryKey::BudgetEstimateInCents:
        regular = integer(story.budget_estimate_in_cents, 0);
        break;
      case StoryKey::TimeEstimateInMinutes:
        regular = integer(story.time_estimate_in_minutes, 0, std::numeric_limits<std::int32_t>::max());
        break;
      case StoryKey::SubStories:
        children = v.is_array() ? &v : nullptr;
        regular = children != nullptr &&
                  std::all_of(v.items().begin(), v.items().end(), [](const json::Value& s) { return s.is_object(); });
        break;
      case StoryKey::Checklist:
        regular = read_checklist(v, story);
        break;
      case StoryKey::TagList:
        story.tag_list = string_of(v);
        regular = story.tag_list.has_value();
        break;
      case StoryKey::Assignments:
        regular = read_assignments(v, story);
        break;
      case StoryKey::Dependencies:
        regular = read_dependencies(v, story);
        break;
      case StoryKey::Weight:
        regular = integer(story.weight);
        break;
    }
    return MemberRead{k, regular};
  }

  // The list-valued fields, each read into the arena. Each returns whether the value is
  // regular: what the service expects, with nothing for a rule to report.
  bool read_checklist(const json::Value& v, Story& story) {
    if (!v.is_array()) return false;
    std::size_t n = 0;
    for (const json::Value& item : v.items()) n += item.is_string() ? 1 : 0;
    std::span<std::string_view> items = arena_.make_array<std::string_view>(n);
    std::size_t i = 0;
    for (const json::Value& item : v.items())
      if (item.is_string()) items[i++] = item.text();
    story.checklist = items;
    return n == v.items().size() && std::all_of(items.begin(), items.end(), [](std::string_view item) {
             return item.find_first_not_of(kBlank) != std::string_view::npos;
           });
  }

  bool read_assignments(const json::Value& v, Story& story) {
    if (!v.is_array()) return false;
    bool regular = true;
    std::span<std::int64_t> ids = arena_.make_array<std::int64_t>(v.items().size());
    std::size_t n = 0;
    for (const json::Value& item : v.items()) {
      const json::Value* id = item.find("assignee_id");
      std::optional<std::int64_t> number = id != nullptr ? id->as_int64() : std::nullopt;
      if (number) ids[n++] = *number;
      // Anything but {"assignee_id": <int64>} alone is a finding of some rule.
      regular = regular && number && item.members().size() == 1;
    }
    story.assignments = ids.first(n);
    return regular;
  }

  bool read_dependencies(const json::Value& v, Story& story) {
    bool regular = v.is_array();
    std::span<Dependency> deps = arena_.make_array<Dependency>(v.items().size());
    std::size_t n = 0;
    for (std::size_t i = 0; i < v.items().size(); ++i) {
      const json::Value& item = v.items()[i];
      if (!item.is_object()) {
        regular = false;
        continue;
      }
      bool valid = false;
      deps[n++] = dependency_from_json(item, static_cast<std::uint32_t>(i), arena_, valid);
      regular = regular && valid;
    }
    story.dependencies = deps.first(n);
    return regular;
  }

  // The `unknown` members of `node` whose keys are not a story's, in the order written.
  std::span<const json::Member> extra_members(const json::Value& node, std::size_t unknown) {
    std::span<json::Member> extra = arena_.make_array<json::Member>(unknown);
    std::size_t k = 0;
    for (const json::Member& m : node.members())
      if (!story_key_of(m.key.text())) extra[k++] = m;
    return extra;
  }

  json::Arena& arena_;
  bool mark_regular_keys_;
};

}  // namespace

std::string_view to_string(StoryType type) {
  switch (type) {
    case StoryType::Task:
      return "task";
    case StoryType::Deliverable:
      return "deliverable";
    case StoryType::Milestone:
      return "milestone";
  }
  return "task";
}

std::optional<StoryType> parse_story_type(std::string_view text) {
  if (text == "task") return StoryType::Task;
  if (text == "deliverable") return StoryType::Deliverable;
  if (text == "milestone") return StoryType::Milestone;
  return std::nullopt;
}

std::string temp_id_key(const TempId& id) {
  if (const auto* n = std::get_if<std::int64_t>(&id)) return std::to_string(*n);
  return std::string(std::get<std::string_view>(id));
}

std::optional<TempId> temp_id_from(const json::Value& value) {
  if (value.is_string() && !value.text().empty()) return TempId{value.text()};
  if (auto n = value.as_int64()) return TempId{*n};
  return std::nullopt;
}

TempId temp_id_from_text(std::string_view text) {
  const std::optional<std::int64_t> n = json::parse_int64(text);
  if (n && std::to_string(*n) == text) return *n;
  return text;
}

OptionalTempId::OptionalTempId(const TempId& id) {
  if (const auto* n = std::get_if<std::int64_t>(&id)) {
    word_ = static_cast<std::uint64_t>(*n);
    kind_ = Kind::Integer;
    return;
  }
  const std::string_view text = std::get<std::string_view>(id);
  // A value in a tree is shorter (json::Value holds 32-bit sizes); a temp_id built otherwise
  // could only be longer by mistake.
  if (text.size() > std::numeric_limits<std::uint32_t>::max()) throw std::length_error("temp_id longer than 4 GiB");
  word_ = reinterpret_cast<std::uintptr_t>(text.data());
  size_ = static_cast<std::uint32_t>(text.size());
  kind_ = Kind::String;
}

std::string Story::pointer() const {
  if (origin.up == 0) return {};
  // Its length first, then the string from its end, walking up the parents twice: one
  // allocation, and no recursion on a nesting that may be thousands of levels deep.
  constexpr std::string_view kSubStories = "/sub_stories";
  auto list_pointer = [](std::uintptr_t up) -> const std::string_view& {
    return *reinterpret_cast<const std::string_view*>(up & ~std::uintptr_t{1});
  };
  auto parent = [](std::uintptr_t up) { return reinterpret_cast<const Story*>(up); };
  auto digits = [](std::uint32_t n) {
    std::size_t count = 1;
    while (n >= 10) {
      n /= 10;
      ++count;
    }
    return count;
  };
  std::size_t size = 0;
  for (const Story* s = this;; s = parent(s->origin.up)) {
    size += 1 + digits(s->index);
    if ((s->origin.up & 1U) != 0) {
      size += list_pointer(s->origin.up).size();
      break;
    }
    size += kSubStories.size();
  }
  std::string out(size, '\0');
  char* end = out.data() + size;
  for (const Story* s = this;; s = parent(s->origin.up)) {
    const std::size_t length = digits(s->index);
    std::to_chars(end - length, end, s->index);
    end -= length;
    *--end = '/';
    if ((s->origin.up & 1U) != 0) {
      const std::string_view prefix = list_pointer(s->origin.up);
      if (!prefix.empty()) std::memcpy(out.data(), prefix.data(), prefix.size());
      break;
    }
    end -= kSubStories.size();
    std::memcpy(end, kSubStories.data(), kSubStories.size());
  }
  return out;
}

std::span<const std::string_view> story_keys() {
  return kStoryKeys;
}
std::span<const std::string_view> template_keys() {
  return kTemplateKeys;
}
std::span<const std::string_view> dependency_keys() {
  return kDependencyKeys;
}

std::span<const Story> detail::stories_from_json(const json::Value& list, json::Arena& arena,
                                                 std::string_view pointer_prefix, bool mark_regular_keys) {
  return StoryReader(arena, mark_regular_keys).list(list, pointer_prefix);
}

std::span<const Story> stories_from_json(const json::Value& list, json::Arena& arena, std::string_view pointer_prefix) {
  return detail::stories_from_json(list, arena, pointer_prefix, true);
}

}  // namespace ptmpl
