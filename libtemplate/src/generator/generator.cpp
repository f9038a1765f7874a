#include "libtemplate/core/generator.hpp"

#include <algorithm>
#include <array>
#include <unordered_set>
#include <vector>

#include "libtemplate/core/json.hpp"
#include "libtemplate/core/model.hpp"
#include "libtemplate/core/story_writer.hpp"

namespace ptmpl {

namespace {

// splitmix64: tiny, fast, and the same sequence everywhere (std:: distributions are not).
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n).
  std::uint64_t below(std::uint64_t n) { return n == 0 ? 0 : next() % n; }
  std::int64_t between(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(below(static_cast<std::uint64_t>(hi - lo + 1)));
  }
  bool chance(unsigned percent) { return below(100) < percent; }

 private:
  std::uint64_t state_;
};

struct PlannedLink {
  std::size_t target;  // story index
  std::int64_t type;
  std::int64_t lag;
};

struct Plan {
  std::size_t level = 0;
  std::size_t parent = SIZE_MAX;
  std::vector<std::size_t> children;
  StoryType type = StoryType::Task;
  std::int64_t length = 1;  // working days; 0 for a milestone
  std::int64_t start = 0;   // half-open [start, finish)
  std::int64_t due = 0;     // inclusive last day
  std::int64_t budget = 0;
  std::int64_t minutes = 0;
  std::vector<PlannedLink> links;
};

constexpr std::array<std::string_view, 12> kVerbs = {"Plan",    "Review", "Draft",   "Build",  "Test",  "Approve",
                                                     "Migrate", "Train",  "Procure", "Design", "Audit", "Deploy"};
constexpr std::array<std::string_view, 12> kObjects = {
    "vendor contract", "data model",      "landing page",  "cutover plan",  "user guide", "budget forecast",
    "test scripts",    "access controls", "supplier list", "release notes", "floor plan", "training deck"};
constexpr std::array<std::string_view, 6> kTags = {"finance", "it", "legal", "operations", "design", "phase 2"};

std::vector<Plan> plan_tree(const GenerateOptions& options, Random& random) {
  std::vector<Plan> plan(options.stories);
  std::size_t depth = std::clamp<std::size_t>(options.depth, 1, 100);
  std::vector<std::size_t> open;  // open[level] = latest story at that level
  for (std::size_t i = 0; i < plan.size(); ++i) {
    std::size_t level = 0;
    if (i > 0) {
      std::size_t previous = plan[i - 1].level;
      std::uint64_t roll = random.below(100);
      if (roll < 35 && previous + 1 < depth)
        level = previous + 1;
      else if (roll < 85)
        level = previous;
      else
        level = static_cast<std::size_t>(random.below(previous + 1));
    }
    open.resize(level);
    plan[i].level = level;
    if (level > 0) {
      plan[i].parent = open[level - 1];
      plan[open[level - 1]].children.push_back(i);
    }
    open.push_back(i);
  }
  return plan;
}

constexpr std::size_t kLinkWindow = 24;  // a link goes back at most this many leaves

// How many distinct links the window allows among `leaves` leaves.
std::size_t link_capacity(std::size_t leaves) {
  std::size_t capacity = 0;
  for (std::size_t b = 1; b < leaves; ++b) capacity += std::min(b, kLinkWindow);
  return capacity;
}

// Exactly `wanted` distinct links (the caller checked the capacity): random ones first, then,
// should chance keep hitting taken pairs, the free pairs in order.
void plan_links(std::vector<Plan>& plan, const std::vector<std::size_t>& leaves, std::size_t wanted, Random& random) {
  if (wanted == 0) return;
  std::unordered_set<std::uint64_t> used;
  used.reserve(wanted * 2);
  auto add = [&](std::size_t a, std::size_t b) {
    if (!used.insert(static_cast<std::uint64_t>(a) << 32 | b).second) return false;
    auto type = static_cast<std::int64_t>(random.below(4));
    std::int64_t lag = random.between(-2, 3);
    plan[leaves[a]].links.push_back({leaves[b], type, lag});
    return true;
  };
  // Links go from an earlier leaf to a later one (in tree order), so the graph is acyclic.
  std::size_t made = 0;
  for (std::size_t attempts = wanted * 4; made < wanted && attempts > 0; --attempts) {
    std::size_t b = 1 + static_cast<std::size_t>(random.below(leaves.size() - 1));
    std::size_t a = b - 1 - static_cast<std::size_t>(random.below(std::min(b, kLinkWindow)));
    if (add(a, b)) ++made;
  }
  for (std::size_t b = 1; b < leaves.size() && made < wanted; ++b)
    for (std::size_t a = b; a-- > b - std::min(b, kLinkWindow) && made < wanted;)
      if (add(a, b)) ++made;
}

// Earliest dates in tree order: every link points forward, so one pass satisfies them all.
void plan_dates(std::vector<Plan>& plan, const std::vector<std::size_t>& leaves) {
  std::vector<std::int64_t> earliest(plan.size(), 0);
  for (std::size_t leaf : leaves) {
    Plan& p = plan[leaf];
    p.start = std::max<std::int64_t>(earliest[leaf], 0);
    p.due = p.type == StoryType::Milestone ? p.start : p.start + p.length - 1;
    std::int64_t finish = p.start + p.length;
    for (const PlannedLink& link : p.links) {
      std::int64_t target_length = plan[link.target].length;
      std::int64_t need = 0;
      switch (static_cast<DependencyType>(link.type)) {
        case DependencyType::FinishToStart:
          need = finish + link.lag;
          break;
        case DependencyType::StartToStart:
          need = p.start + link.lag;
          break;
        case DependencyType::FinishToFinish:
          need = finish + link.lag - target_length;
          break;
        case DependencyType::StartToFinish:
          need = p.start + link.lag - target_length;
          break;
      }
      earliest[link.target] = std::max(earliest[link.target], need);
    }
  }
  // Parents span their children (children come after their parent in tree order).
  for (std::size_t i = plan.size(); i-- > 0;) {
    Plan& p = plan[i];
    if (p.children.empty()) continue;
    p.start = INT64_MAX;
    p.due = INT64_MIN;
    for (std::size_t c : p.children) {
      p.start = std::min(p.start, plan[c].start);
      p.due = std::max(p.due, plan[c].due);
    }
  }
}

// Writes the stories as it draws what is random about them, in the order the generator has
// always drawn it (a seed gives the same template in every version): title, billable, the
// children, checklist, tags, assignment, weight.
class Emitter {
 public:
  Emitter(const std::vector<Plan>& plan, StoryWriter& out, Random& random) : plan_(plan), out_(out), random_(random) {}

  // Recursion depth is the tree's, at most 100 (plan_tree).
  void story(std::size_t i) {
    const Plan& p = plan_[i];
    const bool leaf = p.children.empty();
    const auto id = static_cast<std::int64_t>(i + 1);
    Story s;
    s.story_type = p.type;
    const std::string title = std::string(kVerbs[random_.below(kVerbs.size())]) + " " +
                              std::string(kObjects[random_.below(kObjects.size())]) + " " + std::to_string(id);
    s.title = std::string_view(title);
    s.temp_id = id;
    s.relative_start_date = p.start;
    s.relative_due_date = p.due;
    s.duration = p.type == StoryType::Milestone ? 0 : p.due - p.start + 1;
    if (leaf) {
      s.billable = random_.chance(60);
      s.budget_estimate_in_cents = p.budget;
      s.time_estimate_in_minutes = p.minutes;
    }
    out_.begin_story(s, !leaf);
    for (std::size_t c : p.children) story(c);

    std::vector<std::string> items;
    std::vector<std::string_view> checklist;
    if (random_.chance(10)) {
      for (std::uint64_t k = 0, n = 1 + random_.below(4); k < n; ++k)
        items.push_back("Check item " + std::to_string(k + 1));
      checklist.assign(items.begin(), items.end());
      s.checklist = std::span<const std::string_view>(checklist);
    }
    std::string tags;
    if (random_.chance(20)) {
      std::size_t a = random_.below(kTags.size());
      std::size_t b = (a + 1 + random_.below(kTags.size() - 1)) % kTags.size();
      tags = std::string(kTags[a]) + ", " + std::string(kTags[b]);
      s.tag_list = std::string_view(tags);
    }
    std::int64_t assignee = 0;
    if (leaf && random_.chance(30)) {
      assignee = 100 + random_.between(0, 2);
      s.assignments = std::span<const std::int64_t>(&assignee, 1);
    }
    std::vector<Dependency> dependencies;
    for (const PlannedLink& link : p.links) {
      Dependency& dependency = dependencies.emplace_back();
      dependency.source_id = id;
      dependency.target_id = static_cast<std::int64_t>(link.target + 1);
      dependency.type = link.type;
      dependency.lag = link.lag;
    }
    s.dependencies = dependencies;
    if (p.type == StoryType::Milestone) s.weight = random_.between(1, 10);
    out_.end_story(s, !leaf);
  }

 private:
  const std::vector<Plan>& plan_;
  StoryWriter& out_;
  Random& random_;
};

std::string cents_to_units(std::int64_t cents) {
  std::string units = std::to_string(cents / 100);
  std::int64_t rest = cents % 100;
  if (rest == 0) return units;
  return units + "." + (rest < 10 ? "0" : "") + std::to_string(rest);
}

}  // namespace

Result<std::string> generate_template(const GenerateOptions& options) {
  Random random(options.seed);
  std::vector<Plan> plan = plan_tree(options, random);
  std::vector<std::size_t> leaves;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    Plan& p = plan[i];
    if (!p.children.empty()) continue;
    leaves.push_back(i);
    p.type = random.chance(5) ? StoryType::Milestone : (random.chance(20) ? StoryType::Deliverable : StoryType::Task);
    p.length = p.type == StoryType::Milestone ? 0 : random.between(1, 10);
    p.budget = random.between(10, 5000) * 100 + random.between(0, 99);
    p.minutes = std::max<std::int64_t>(p.length, 1) * 60 * random.between(1, 8);
  }
  std::size_t wanted = options.deps.value_or(options.stories);
  std::size_t capacity = link_capacity(leaves.size());
  if (options.deps && wanted > capacity)
    return Error::usage("--deps " + std::to_string(wanted) + " is more than " + std::to_string(options.stories) +
                        " stories can hold: their " + std::to_string(leaves.size()) + " leaves allow at most " +
                        std::to_string(capacity) + " distinct links");
  plan_links(plan, leaves, std::min(wanted, capacity), random);
  plan_dates(plan, leaves);

  std::int64_t first = 0, last = 0, budget = 0;
  bool any = false;
  for (const Plan& p : plan) {
    if (p.children.empty()) budget += p.budget;
    first = any ? std::min(first, p.start) : p.start;
    last = any ? std::max(last, p.due) : p.due;
    any = true;
  }
  json::Arena arena;
  const std::string title =
      "Synthetic template (" + std::to_string(options.stories) + " stories, seed " + std::to_string(options.seed) + ")";
  Template head;
  head.title = title;
  head.description = "Generated by ptmpl gen for tests and benchmarks.";
  head.shared = false;
  head.is_budgeted = true;
  head.budget = json::Builder(arena).number_spelled(arena.copy(cents_to_units(budget)));
  head.currency = "USD";
  head.duration = any ? last + 1 - first : 0;
  head.item_count = static_cast<std::int64_t>(plan.size());
  constexpr std::array<std::string_view, 3> kRoles = {"Project manager", "Consultant", "Engineer"};
  for (std::size_t k = 0; k < kRoles.size(); ++k)
    head.assignments.push_back({static_cast<std::int64_t>(100 + k), kRoles[k]});

  JsonEmitter json(JsonLayout::Pretty, plan.size() * 600);
  StoryWriter out(json);
  out.begin_template(head);
  Emitter emit(plan, out, random);
  for (std::size_t i = 0; i < plan.size(); ++i)
    if (plan[i].level == 0) emit.story(i);
  out.end_template(head);
  return json.finish();
}

}  // namespace ptmpl
