// The template model: stories, dependencies, assignments and the template document
// (docs/semantics.md §2–§3), typed, with every key the model does not know kept in its original order.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "libtemplate/core/dates.hpp"
#include "libtemplate/core/json.hpp"

namespace ptmpl {

enum class StoryType : std::uint8_t { Task, Deliverable, Milestone };

[[nodiscard]] std::string_view to_string(StoryType type);
[[nodiscard]] std::optional<StoryType> parse_story_type(std::string_view text);

/// A story's reference id: an integer or a string. Integer 7 and string "7" name the same
/// story (the service compares them as text), see `temp_id_key()`.
using TempId = std::variant<std::int64_t, std::string_view>;

/// The text form used to compare temp_ids and to print them.
[[nodiscard]] std::string temp_id_key(const TempId& id);
/// Reads a temp_id from an integer or non-empty string value.
[[nodiscard]] std::optional<TempId> temp_id_from(const json::Value& value);
/// A temp_id written as plain text (a CSV cell, an MSPDI extended attribute): an integer in
/// its plain spelling (`12`, not `012` or `+12`) is one; any other text is a string, a view
/// of `text`.
[[nodiscard]] TempId temp_id_from_text(std::string_view text);

/// std::optional<TempId> in 16 bytes (std::optional takes 32): the integer or the string's
/// address, the string's size and which of them it is. `*` gives the id (not a reference).
class OptionalTempId {
 public:
  using value_type = TempId;

  OptionalTempId() noexcept = default;
  OptionalTempId(std::nullopt_t) noexcept {}  // NOLINT(google-explicit-constructor): as std::optional
  OptionalTempId(const TempId& id);           // NOLINT(google-explicit-constructor)
  template <class U>
  requires(!std::is_same_v<std::remove_cvref_t<U>, OptionalTempId> &&
           !std::is_same_v<std::remove_cvref_t<U>, std::optional<TempId>> &&
           !std::is_same_v<std::remove_cvref_t<U>, TempId> && std::is_convertible_v<U&&, TempId>) OptionalTempId(U&& id)
      : OptionalTempId(TempId(std::forward<U>(id))) {}  // NOLINT(google-explicit-constructor)
  OptionalTempId(const std::optional<TempId>& id)       // NOLINT(google-explicit-constructor)
      : OptionalTempId(id ? OptionalTempId(*id) : OptionalTempId()) {}

  [[nodiscard]] bool has_value() const noexcept { return kind_ != Kind::None; }
  explicit operator bool() const noexcept { return has_value(); }
  TempId operator*() const {
    if (kind_ == Kind::Integer) return static_cast<std::int64_t>(word_);
    return std::string_view(reinterpret_cast<const char*>(static_cast<std::uintptr_t>(word_)), size_);
  }
  /// `->` reaches the members of a temporary TempId.
  struct Arrow {
    TempId id;
    const TempId* operator->() const { return &id; }
  };
  Arrow operator->() const { return {**this}; }
  [[nodiscard]] TempId value() const {
    if (!has_value()) throw std::bad_optional_access();
    return **this;
  }
  void reset() noexcept { *this = OptionalTempId(); }

  operator std::optional<TempId>() const {  // NOLINT(google-explicit-constructor)
    return has_value() ? std::optional<TempId>(**this) : std::nullopt;
  }

  friend bool operator==(const OptionalTempId& a, const OptionalTempId& b) {
    return a.kind_ == b.kind_ && (a.kind_ == Kind::None || *a == *b);
  }

 private:
  enum class Kind : std::uint8_t { None, Integer, String };
  std::uint64_t word_ = 0;  // the integer, or the string's address
  std::uint32_t size_ = 0;  // the string's size
  Kind kind_ = Kind::None;
};

/// Dependency types in the service's numbering (docs/semantics.md §5).
enum class DependencyType : std::int64_t {
  StartToStart = 0,
  StartToFinish = 1,
  FinishToStart = 2,
  FinishToFinish = 3,
};

// The model is a set of views: strings, lists and children live in an arena (the one of the
// TemplateFile that read them, or the json::Arena of whoever builds a model), so reading a
// template costs no allocation per story and dropping it costs nothing at all.

/// Where a story came from: its object in the tree, and the list that holds it, from which (with
/// Story::index) Story::pointer() builds its JSON pointer (few stories ever need theirs, and a
/// copy of each in the arena took some 45 bytes a story besides its 16-byte view).
struct Origin {
  json::Value node;
  /// The story whose sub_stories list holds this one; for a top-level story, the address of the
  /// list's own pointer (a std::string_view in the arena) with the low bit set; 0 for a story
  /// not read from a tree (whose pointer is "").
  std::uintptr_t up = 0;
};

// Fields aligned to 8 first, as in Story: 104 bytes, no padding.
struct Dependency {
  OptionalTempId source_id;
  OptionalTempId target_id;
  json::Value node;                     ///< the dependency object in the tree
  std::span<const json::Member> extra;  ///< unknown keys, in order
  std::optional<std::int64_t> type;     ///< as written; valid values are 0–3
  std::optional<std::int64_t> lag;
  std::uint32_t index = 0;  ///< its index in the owning story's `dependencies`
};

/// The documented keys of a story, in canonical order (story_keys()): bit `k` of
/// Story::written_keys and Story::irregular_keys stands for key `k`.
enum class StoryKey : std::uint8_t {
  StoryType,
  Title,
  TemporaryId,  // "temp_id" (named apart from the TempId type)
  RelativeStartDate,
  RelativeDueDate,
  Duration,
  Billable,
  Description,
  BudgetEstimateInCents,
  TimeEstimateInMinutes,
  SubStories,
  Checklist,
  TagList,
  Assignments,
  Dependencies,
  Weight,
};

// The fields are in an order that leaves least padding (those aligned to 8, then to 4, then
// the small ones): 320 bytes a story.
struct Story {
  std::optional<std::string_view> title;
  OptionalTempId temp_id;
  std::optional<std::string_view> description;
  std::span<const Story> sub_stories;
  std::optional<std::span<const std::string_view>> checklist;
  std::optional<std::string_view> tag_list;
  std::optional<std::span<const std::int64_t>> assignments;  ///< assignee_ids
  std::span<const Dependency> dependencies;
  Origin origin;
  std::span<const json::Member> extra;  ///< unknown keys, in order
  /// The story's position in its JSON array (which counts the items that are not objects).
  std::uint32_t index = 0;
  std::optional<std::int64_t> relative_start_date;
  std::optional<std::int64_t> relative_due_date;
  std::optional<std::int64_t> duration;
  std::optional<std::int64_t> budget_estimate_in_cents;
  std::optional<std::int64_t> time_estimate_in_minutes;
  std::optional<std::int64_t> weight;
  std::optional<StoryType> story_type;  ///< absent when not written or not a valid type
  std::optional<bool> billable;
  /// The documented keys the story's object writes, whatever their values (a bit per StoryKey).
  std::uint16_t written_keys = 0;
  /// The written keys whose value is not exactly what the fields above hold and the schema
  /// (schemas/raw_json.schema.json) describes: a value of another type or out of the schema's
  /// bounds, a blank title, a story_type outside the enum, a list with an item the model
  /// cannot hold as it stands (a story that is not an object, a checklist item that is not a
  /// non-blank string, an assignment that is not exactly {"assignee_id": <int64>}, a dependency
  /// that is not an object whose source_id, target_id and type are written and valid and whose
  /// lag, if written, is an integer), a value below the nesting bound; and every written key
  /// of an object that writes a key twice. A conservative mark, so that checks need to search
  /// a story's members only for its irregular keys: a key that is not marked holds nothing the
  /// fields above do not show. Both sets are filled by stories_from_json() and empty otherwise.
  std::uint16_t irregular_keys = 0;

  [[nodiscard]] bool writes(StoryKey key) const { return (written_keys >> static_cast<unsigned>(key) & 1U) != 0; }
  [[nodiscard]] bool irregular(StoryKey key) const { return (irregular_keys >> static_cast<unsigned>(key) & 1U) != 0; }

  /// The story's JSON pointer, e.g. "/project_template/raw_json/12/sub_stories/3" (built on
  /// demand from its Origin and index: most stories never need theirs); "" for a story not read
  /// from a tree.
  [[nodiscard]] std::string pointer() const;

  /// JSON pointer of one of this story's dependencies (built on demand: most never need one).
  [[nodiscard]] std::string dependency_pointer(const Dependency& dependency) const {
    return pointer() + "/dependencies/" + std::to_string(dependency.index);
  }

  [[nodiscard]] StoryType effective_type() const { return story_type.value_or(StoryType::Task); }
  [[nodiscard]] bool is_parent() const { return !sub_stories.empty(); }
};

static_assert(std::is_trivially_destructible_v<Story>, "stories live in an arena and are never destroyed");
static_assert(sizeof(void*) != 8 || sizeof(Story) == 320, "a field added or moved: keep the small ones last");
static_assert(sizeof(void*) != 8 || sizeof(Dependency) == 104, "a field added or moved: keep the small ones last");
static_assert(alignof(Story) > 1 && alignof(std::string_view) > 1, "Origin::up marks a list's pointer in its low bit");

struct TemplateAssignment {
  std::int64_t id = 0;
  std::string_view name;
};

/// The document's calendar block (docs/semantics.md §2, §4): the plan's working time, ptmpl's own, written
/// beside project_template and never sent to the service. A field is absent (a list empty) when
/// not written; a value of the wrong type and an item that is no date or weekday are left out
/// (calendar_block_problems() lists them; lint's calendar-invalid reports them).
struct CalendarBlock {
  std::optional<Date> start;            ///< the date of day 0
  std::optional<Date> finish;           ///< a deadline: day 0 placed back from it when there is no start
  std::optional<WorkWeek> week;         ///< the working weekdays
  std::vector<Date> holidays;           ///< non-working dates
  std::vector<Date> working;            ///< extra working dates (on days the week does not work)
  std::span<const json::Member> extra;  ///< unknown keys, in order
  json::Value node;                     ///< the block in the tree (null when built)
};

/// What is wrong with a calendar block, one entry per place.
struct CalendarProblem {
  json::Value at;       ///< the value (or key) at fault
  std::string pointer;  ///< its JSON pointer below the block ("" for the block itself)
  std::string message;
};

/// The documented keys of the calendar block, in canonical order: start, finish, week, holidays,
/// working.
[[nodiscard]] std::span<const std::string_view> calendar_block_keys();

/// Reads a calendar block (an object); unknown keys are kept in `arena`.
[[nodiscard]] CalendarBlock calendar_block_from_json(const json::Value& block, json::Arena& arena);

/// Every problem of a written calendar block: not an object, a field of the wrong type, a date
/// that is not `YYYY-MM-DD` or does not exist, a weekday that is not `mon` … `sun` or is listed
/// twice, a week with no working day, a date that is both a holiday and a working date. Empty
/// when the block is sound. Of duplicate keys, the last is checked (the one read).
[[nodiscard]] std::vector<CalendarProblem> calendar_block_problems(const json::Value& block);

/// A template document (docs/semantics.md §2). Fields are absent when not written.
struct Template {
  std::optional<json::Value> id;
  std::optional<std::string_view> title;
  std::optional<std::string_view> description;
  std::optional<bool> shared;
  std::optional<bool> is_budgeted;
  std::optional<json::Value> budget;  ///< major currency units, spelling kept
  std::optional<std::string_view> currency;
  std::optional<std::int64_t> duration;
  std::optional<std::int64_t> item_count;
  std::span<const Story> stories;
  /// project_template_assignments, read inside project_template or beside it (docs/semantics.md §2; both
  /// lists when both are written).
  std::vector<TemplateAssignment> assignments;
  /// project_template_assignments is written (in either place) as an array or object: the file
  /// says which assignee ids exist, even when it lists none.
  bool assignments_listed = false;
  std::span<const json::Member> extra;  ///< unknown keys of project_template
  /// The calendar block beside project_template (template documents only), when it is an object.
  std::optional<CalendarBlock> calendar;
};

/// The documented keys of a story, in canonical (docs/semantics.md §3) order.
[[nodiscard]] std::span<const std::string_view> story_keys();
/// The documented keys of project_template, in canonical order.
[[nodiscard]] std::span<const std::string_view> template_keys();
/// The documented keys of a dependency, in canonical order.
[[nodiscard]] std::span<const std::string_view> dependency_keys();

/// Builds stories from a story-list array, in `arena` (which must outlive them, as must the
/// tree). Values of the wrong type are left absent (the `schema` rule reports them);
/// `pointer_prefix` is prepended to every story's pointer.
[[nodiscard]] std::span<const Story> stories_from_json(const json::Value& list, json::Arena& arena,
                                                       std::string_view pointer_prefix = "");

/// A model is written as JSON by the one story writer (story_writer.hpp).

/// Calls `visit(story, depth)` for every story in tree order (depth 0 = top level).
/// The parent index of a top-level story in for_each_story_indexed().
inline constexpr std::size_t kNoParent = static_cast<std::size_t>(-1);

/// Calls `visit(story, index, parent, depth)` for every story in tree order (pre-order):
/// `index` numbers the stories 0, 1, … in that order, `parent` is the parent's index (or
/// kNoParent), `depth` is 0 at the top level. Iterative: the nesting may be thousands of
/// levels deep. The one walk of the story tree that the modules built on it share.
template <class Visit>
void for_each_story_indexed(std::span<const Story> stories, Visit&& visit) {
  struct Level {
    std::span<const Story> rest;  // the siblings still to visit
    std::size_t parent;
  };
  std::vector<Level> stack{{stories, kNoParent}};
  std::size_t next = 0;
  while (!stack.empty()) {
    Level& level = stack.back();
    if (level.rest.empty()) {
      stack.pop_back();
      continue;
    }
    const Story& story = level.rest.front();
    level.rest = level.rest.subspan(1);
    const std::size_t index = next++;
    visit(story, index, level.parent, stack.size() - 1);
    if (!story.sub_stories.empty()) stack.push_back({story.sub_stories, index});  // `level` is not used after this
  }
}

/// Calls `visit(story, depth)` for every story in tree order (depth 0 = top level).
template <class Visit>
void for_each_story(std::span<const Story> stories, Visit&& visit) {
  for_each_story_indexed(stories, [&](const Story& story, std::size_t, std::size_t, std::size_t depth) {
    visit(story, static_cast<int>(depth));
  });
}

}  // namespace ptmpl
