#include "libtemplate/core/rollup.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <utility>

namespace ptmpl {

namespace {

// Sums are kept in 128 bits: a tree cannot hold enough int64 terms to overflow that, so a
// sum overflows int64 exactly when its true value does, whatever the order of its terms.
__extension__ using Wide = __int128;

constexpr Wide kMin = std::numeric_limits<std::int64_t>::min();
constexpr Wide kMax = std::numeric_limits<std::int64_t>::max();

}  // namespace

// Named, not anonymous: RollupTotalsBuilder::Frame, of a class with linkage, holds two, which a
// unity build of the library would warn about (-Wsubobject-linkage).
namespace detail {

class Accumulator {
 public:
  void add(const Amount& amount) {
    switch (amount.state) {
      case Amount::State::Absent:
        return;
      case Amount::State::Overflow:
        overflow_ = true;
        return;
      case Amount::State::Known:
        known_ = true;
        sum_ += amount.value;
        return;
    }
  }

  [[nodiscard]] Amount result() const {
    if (overflow_) return {Amount::State::Overflow, 0};
    if (!known_) return {};
    if (sum_ < kMin || sum_ > kMax) return {Amount::State::Overflow, 0};
    return {Amount::State::Known, static_cast<std::int64_t>(sum_)};
  }

 private:
  Wide sum_ = 0;
  bool known_ = false;
  bool overflow_ = false;
};

}  // namespace detail

namespace {

using detail::Accumulator;

constexpr std::array kEstimates = {Estimate::BudgetInCents, Estimate::TimeInMinutes};

constexpr std::size_t slot(Estimate estimate) {
  return static_cast<std::size_t>(estimate);
}

// Both own estimates of a story. The model holds every integer that fits int64; only when it
// holds none are the story's members read, once for both keys, to tell an integer written
// too large (the model leaves it absent) from a key not written.
std::array<Amount, 2> own_estimates(const Story& story) {
  std::array<Amount, 2> out;
  bool read_members = false;
  for (Estimate e : kEstimates) {
    const std::optional<std::int64_t>& value =
        e == Estimate::BudgetInCents ? story.budget_estimate_in_cents : story.time_estimate_in_minutes;
    if (value)
      out[static_cast<std::size_t>(e)] = {Amount::State::Known, *value};
    else
      read_members = true;
  }
  if (!read_members) return out;
  std::array<bool, 2> settled = {out[0].known(), out[1].known()};
  auto members = story.origin.node.members();
  // Backwards: of duplicate keys, the last is the one the model (and the service) keeps.
  for (auto it = members.rbegin(); it != members.rend() && !(settled[0] && settled[1]); ++it) {
    for (Estimate e : kEstimates) {
      const std::size_t k = static_cast<std::size_t>(e);
      if (settled[k] || it->key.text() != key_of(e)) continue;
      settled[k] = true;
      if (it->value.is_integer_spelling() && !it->value.as_int64()) out[k].state = Amount::State::Overflow;
    }
  }
  return out;
}

}  // namespace

std::string_view key_of(Estimate estimate) {
  return estimate == Estimate::BudgetInCents ? "budget_estimate_in_cents" : "time_estimate_in_minutes";
}

Amount own_estimate(const Story& story, Estimate estimate) {
  return own_estimates(story)[static_cast<std::size_t>(estimate)];
}

Amount sum_of(std::span<const Amount> amounts) {
  Accumulator sum;
  for (const Amount& amount : amounts) sum.add(amount);
  return sum.result();
}

std::optional<std::size_t> Rollup::invalid_term(Estimate estimate) const {
  const StoryKey key =
      estimate == Estimate::BudgetInCents ? StoryKey::BudgetEstimateInCents : StoryKey::TimeEstimateInMinutes;
  for (std::size_t i = 0; i < index_->size();) {
    const Amount& mine = own(i, estimate);
    if (mine.known() && mine.value >= 0) {
      i = subtree_end(i);  // stands for its subtree
      continue;
    }
    if ((mine.known() && mine.value < 0) || (mine.absent() && story(i).writes(key))) return i;
    ++i;  // states nothing (or overflows, which total() reports itself): its children count
  }
  return std::nullopt;
}

Rollup::Rollup(std::span<const Story> stories) : Rollup(std::make_unique<const StoryIndex>(stories)) {}

Rollup::Rollup(std::unique_ptr<const StoryIndex> own_index) : Rollup(*own_index) {
  own_index_ = std::move(own_index);
}

Rollup::Rollup(const StoryIndex& index) : index_(&index), nodes_(index.size()) {
  for (std::size_t i = 0; i < index.size(); ++i) nodes_[i].own = own_estimates(index.story(i));

  // Children come after their parent: walking backwards completes each child's effective
  // estimates before its parent sums them.
  std::array<Accumulator, 2> top;
  for (std::size_t i = index.size(); i-- > 0;) {
    std::array<Accumulator, 2> sums;
    for (std::size_t child : index.children(i))
      for (Estimate e : kEstimates) sums[slot(e)].add(effective(child, e));
    for (Estimate e : kEstimates) {
      nodes_[i].children[slot(e)] = sums[slot(e)].result();
      if (index.parent(i) == npos) top[slot(e)].add(effective(i, e));
    }
  }
  for (Estimate e : kEstimates) totals_[slot(e)] = top[slot(e)].result();
}

std::size_t item_count(std::span<const Story> stories) {
  std::size_t count = 0;
  std::vector<std::span<const Story>> stack = {stories};
  while (!stack.empty()) {
    std::span<const Story> list = stack.back();
    stack.pop_back();
    count += list.size();
    for (const Story& story : list)
      if (story.is_parent()) stack.push_back(story.sub_stories);
  }
  return count;
}

RollupTotals rollup_totals(std::span<const Story> stories) {
  RollupTotalsBuilder builder(stories);
  for_each_story(stories, [&](const Story& story, int) { builder.add(story); });
  return builder.totals();
}

// One frame per open parent, holding its own estimates, the running sums of its children's
// effective ones, and how many of its children are not complete yet.
struct RollupTotalsBuilder::Frame {
  std::size_t open_children = 0;
  std::array<Amount, 2> own;
  std::array<Accumulator, 2> sums;

  [[nodiscard]] std::array<Amount, 2> effective() const {
    std::array<Amount, 2> out = own;
    for (Estimate e : kEstimates)
      if (out[slot(e)].absent()) out[slot(e)] = sums[slot(e)].result();
    return out;
  }
};

RollupTotalsBuilder::RollupTotalsBuilder(std::span<const Story> stories) {
  // The template: no own estimate, so its total is the sum of its top-level stories'.
  stack_.push_back({stories.size(), {}, {}});
}

RollupTotalsBuilder::~RollupTotalsBuilder() = default;

void RollupTotalsBuilder::add(const Story& story) {
  ++item_count_;
  const std::array<Amount, 2> own = own_estimates(story);
  if (story.is_parent())
    stack_.push_back({story.sub_stories.size(), own, {}});  // complete once its children are
  else
    complete(own);
}

void RollupTotalsBuilder::complete(std::array<Amount, 2> effective) {
  // Its last child completes a parent, which may complete its own parent in turn (a loop, not
  // recursion: the nesting may be thousands deep).
  for (;;) {
    Frame& parent = stack_.back();
    for (Estimate e : kEstimates) parent.sums[slot(e)].add(effective[slot(e)]);
    if (--parent.open_children != 0 || stack_.size() == 1) return;
    effective = parent.effective();
    stack_.pop_back();  // `parent` is not used past this point
  }
}

RollupTotals RollupTotalsBuilder::totals() const {
  const std::array<Amount, 2> total = stack_.front().effective();
  return {item_count_, total[slot(Estimate::BudgetInCents)], total[slot(Estimate::TimeInMinutes)]};
}

BudgetCents budget_to_cents(std::string_view spelling) {
  BudgetCents out;
  std::size_t i = 0;
  const std::size_t n = spelling.size();
  auto digit = [&](std::size_t at) { return at < n && spelling[at] >= '0' && spelling[at] <= '9'; };
  bool minus = false;
  if (i < n && spelling[i] == '-') {
    minus = true;
    ++i;
  }
  // JSON number grammar (RFC 8259 §6): int frac? exp?, int without leading zeros.
  std::string digits;      // significant digits of int and frac, leading zeros dropped
  std::int64_t scale = 0;  // value = digits × 10^scale
  if (!digit(i)) return out;
  if (spelling[i] == '0') {
    ++i;
  } else {
    for (; digit(i); ++i) digits += spelling[i];
  }
  if (i < n && spelling[i] == '.') {
    ++i;
    if (!digit(i)) return out;
    for (; digit(i); ++i) {
      if (!digits.empty() || spelling[i] != '0') digits += spelling[i];
      --scale;
    }
  }
  if (i < n && (spelling[i] == 'e' || spelling[i] == 'E')) {
    ++i;
    bool exponent_minus = false;
    if (i < n && (spelling[i] == '+' || spelling[i] == '-')) exponent_minus = spelling[i++] == '-';
    if (!digit(i)) return out;
    std::int64_t exponent = 0;
    // Saturate: any exponent beyond a billion is already out of range or a fraction of a cent.
    for (; digit(i); ++i) exponent = std::min<std::int64_t>(exponent * 10 + (spelling[i] - '0'), 1'000'000'000);
    scale += exponent_minus ? -exponent : exponent;
  }
  if (i != n) return out;

  // Cents: two decimals more. Trailing zeros of the digits carry no fraction.
  scale += 2;
  while (!digits.empty() && digits.back() == '0') {
    digits.pop_back();
    ++scale;
  }
  if (digits.empty()) {
    out.status = BudgetCents::Status::Exact;
    return out;  // zero, "-0" included
  }
  out.negative = minus;
  if (scale < 0) {
    out.status = BudgetCents::Status::FractionOfCent;
    return out;
  }
  // At most 19 digits fit int64; digits × 10^scale has digits.size() + scale of them.
  if (static_cast<std::int64_t>(digits.size()) + scale > 19) {
    out.status = BudgetCents::Status::OutOfRange;
    return out;
  }
  Wide magnitude = 0;
  for (char c : digits) magnitude = magnitude * 10 + (c - '0');
  for (std::int64_t k = 0; k < scale; ++k) magnitude *= 10;
  const Wide value = minus ? -magnitude : magnitude;
  if (value < kMin || value > kMax) {
    out.status = BudgetCents::Status::OutOfRange;
    return out;
  }
  out.status = BudgetCents::Status::Exact;
  out.cents = static_cast<std::int64_t>(value);
  return out;
}

std::string cents_to_budget(std::int64_t cents) {
  // Unsigned, so that the magnitude of INT64_MIN is representable.
  const std::uint64_t magnitude =
      cents < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(cents) : static_cast<std::uint64_t>(cents);
  std::string out = cents < 0 ? "-" : "";
  out += std::to_string(magnitude / 100);
  const std::uint64_t rest = magnitude % 100;
  if (rest == 0) return out;
  out += '.';
  out += static_cast<char>('0' + rest / 10);
  if (rest % 10 != 0) out += static_cast<char>('0' + rest % 10);
  return out;
}

}  // namespace ptmpl
