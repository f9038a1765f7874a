// Roll-ups of a story tree (docs/semantics.md §5): item_count, each story's effective budget and time
// estimate, and the template totals; and the template `budget`, which is written in major
// currency units (cents / 100), read and spelled exactly.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/core/model.hpp"
#include "libtemplate/core/story_index.hpp"

namespace ptmpl {

/// The two amounts a story can estimate (docs/semantics.md §3).
enum class Estimate : std::uint8_t {
  BudgetInCents,  ///< budget_estimate_in_cents
  TimeInMinutes,  ///< time_estimate_in_minutes
};

/// The story key of an estimate: "budget_estimate_in_cents" or "time_estimate_in_minutes".
[[nodiscard]] std::string_view key_of(Estimate estimate);

/// An amount that may be unknown. Roll-ups never wrap: a sum that leaves int64 is Overflow.
struct Amount {
  enum class State : std::uint8_t {
    Absent,    ///< nothing states it: not the story, nor anything below it
    Known,     ///< `value` holds it
    Overflow,  ///< beyond int64: an integer written too large, or a sum that does not fit
  };
  State state = State::Absent;
  std::int64_t value = 0;  ///< 0 unless Known

  [[nodiscard]] bool known() const { return state == State::Known; }
  [[nodiscard]] bool absent() const { return state == State::Absent; }
  [[nodiscard]] bool overflow() const { return state == State::Overflow; }
  /// The value when Known, else nullopt.
  [[nodiscard]] std::optional<std::int64_t> get() const {
    return known() ? std::optional<std::int64_t>(value) : std::nullopt;
  }
  friend bool operator==(const Amount&, const Amount&) = default;
};

/// A story's own estimate, ignoring its sub_stories: Known when the story writes an integer
/// that fits int64 (negative values included: `amount-negative` reports them), Overflow when it
/// writes an integer that does not (the model leaves such a value absent; the story's
/// `origin.node` still holds its spelling), Absent otherwise — not written, or not an integer
/// (the `schema` rule reports those). No int32 bound is applied to time estimates here.
[[nodiscard]] Amount own_estimate(const Story& story, Estimate estimate);

/// The exact sum of `amounts`: Absent when all are Absent (or there are none), Overflow when one
/// is Overflow or the sum leaves int64 (whatever the order of the terms), else Known. Absent
/// terms count as nothing.
[[nodiscard]] Amount sum_of(std::span<const Amount> amounts);

/// The roll-ups of a story tree (docs/semantics.md §5), by the pre-order index of its StoryIndex:
///   - item_count: the number of stories at every level;
///   - a story's effective estimate is its own when it states one (Known or Overflow), else
///     the sum of its children's effective estimates (`sum_of`);
///   - the template totals sum the effective estimates of the top-level stories.
///
/// Building is linear in the number of stories and uses no recursion.
class Rollup {
 public:
  static constexpr std::size_t npos = StoryIndex::npos;

  /// The roll-ups of the stories of `index`, which must outlive this object.
  explicit Rollup(const StoryIndex& index);
  /// The roll-ups of `stories` with an index of their own. Holds pointers into `stories`, which
  /// must outlive it.
  explicit Rollup(std::span<const Story> stories);

  /// The numbering of the stories.
  [[nodiscard]] const StoryIndex& index() const { return *index_; }
  /// Number of stories at every level (docs/semantics.md §5 `item_count`).
  [[nodiscard]] std::size_t item_count() const { return nodes_.size(); }
  /// The story numbered `index` (< item_count()); parent() and subtree_end() are the
  /// StoryIndex's.
  [[nodiscard]] const Story& story(std::size_t index) const { return index_->story(index); }
  [[nodiscard]] std::size_t parent(std::size_t index) const { return index_->parent(index); }
  [[nodiscard]] std::size_t subtree_end(std::size_t index) const { return index_->subtree_end(index); }

  /// The story's own estimate (`own_estimate`).
  [[nodiscard]] const Amount& own(std::size_t index, Estimate estimate) const {
    return nodes_[index].own[slot(estimate)];
  }
  /// The sum of its children's effective estimates; Absent for a leaf.
  [[nodiscard]] const Amount& children(std::size_t index, Estimate estimate) const {
    return nodes_[index].children[slot(estimate)];
  }
  /// Its own estimate when it states one, else its children's sum.
  [[nodiscard]] const Amount& effective(std::size_t index, Estimate estimate) const {
    const Amount& mine = own(index, estimate);
    return mine.absent() ? children(index, estimate) : mine;
  }
  /// The template total: the sum of the top-level stories' effective estimates.
  [[nodiscard]] const Amount& total(Estimate estimate) const { return totals_[slot(estimate)]; }
  /// The first story (in tree order) whose own `estimate` is a term of total() and is no
  /// amount: written, but not an integer or negative. A story with a valid estimate of its own
  /// stands for its subtree. nullopt when the total takes no such term (docs/semantics.md §6: no sum is made
  /// from an invalid value; `total()` skips it).
  [[nodiscard]] std::optional<std::size_t> invalid_term(Estimate estimate) const;

 private:
  static std::size_t slot(Estimate estimate) { return static_cast<std::size_t>(estimate); }
  explicit Rollup(std::unique_ptr<const StoryIndex> own_index);

  struct Node {
    std::array<Amount, 2> own;
    std::array<Amount, 2> children;
  };

  const StoryIndex* index_;
  std::unique_ptr<const StoryIndex> own_index_;  // when built from stories
  std::vector<Node> nodes_;
  std::array<Amount, 2> totals_;
};

/// The number of stories at every level (docs/semantics.md §5 `item_count`), reading nothing but the tree's
/// shape. No recursion.
[[nodiscard]] std::size_t item_count(std::span<const Story> stories);

/// The template's figures alone (docs/semantics.md §5): the same item_count and totals as a Rollup of
/// `stories`, without per-story results — one pass, no recursion, memory in the nesting depth.
struct RollupTotals {
  std::size_t item_count = 0;
  Amount budget_in_cents;
  Amount time_in_minutes;
};

[[nodiscard]] RollupTotals rollup_totals(std::span<const Story> stories);

/// rollup_totals() fed one story at a time, for a walk that visits the stories anyway (lint's
/// story checks): add() every story of `stories` in tree order (pre-order, as
/// for_each_story() visits them), then totals(). Memory in the nesting depth.
class RollupTotalsBuilder {
 public:
  explicit RollupTotalsBuilder(std::span<const Story> stories);
  RollupTotalsBuilder(const RollupTotalsBuilder&) = delete;
  RollupTotalsBuilder& operator=(const RollupTotalsBuilder&) = delete;
  ~RollupTotalsBuilder();

  void add(const Story& story);
  /// The totals once every story has been added.
  [[nodiscard]] RollupTotals totals() const;

 private:
  struct Frame;  // an open parent (the first is the template itself)
  /// A story below the innermost open parent is complete, with `effective` estimates.
  void complete(std::array<Amount, 2> effective);

  std::vector<Frame> stack_;
  std::size_t item_count_ = 0;
};

/// A template `budget` (major currency units; docs/semantics.md §5: budget = cents / 100) read exactly from
/// its JSON number spelling, without floating point: "903190.5" is 90319050 cents, and so are
/// "903190.50" and "9.031905e5".
struct BudgetCents {
  enum class Status : std::uint8_t {
    Exact,           ///< `cents` holds the budget
    FractionOfCent,  ///< a non-zero digit beyond the second decimal: no whole number of cents
    OutOfRange,      ///< a whole number of cents beyond int64
    Invalid,         ///< not a JSON number
  };
  Status status = Status::Invalid;
  std::int64_t cents = 0;  ///< when Exact
  bool negative = false;   ///< below zero, whatever the status ("-0" and "-0.0" are not)
};

[[nodiscard]] BudgetCents budget_to_cents(std::string_view spelling);

/// The shortest exact spelling of `cents` in major units, as a JSON number: "2370",
/// "903190.5", "0.05", "-12.3" (no trailing zeros, no exponent).
[[nodiscard]] std::string cents_to_budget(std::int64_t cents);

}  // namespace ptmpl
