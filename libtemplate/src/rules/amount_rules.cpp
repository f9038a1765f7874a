// Rules about money and effort: amount-negative, amount-overflow, rollup-mismatch,
// budget-unbudgeted-template. Roll-ups come from the library's own Rollup (rollup.hpp).
//
// Each problem is reported once: a value that is negative is not also out of range, a value
// that does not fit is not also summed into a mismatch, and a negative value is not compared
// with its parent's (amount-negative already names it).
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "libtemplate/core/rollup.hpp"
#include "rules/rule.hpp"

namespace ptmpl::rules {

namespace {

constexpr std::array kEstimates = {Estimate::BudgetInCents, Estimate::TimeInMinutes};

StoryKey story_key_of(Estimate estimate) {
  return estimate == Estimate::BudgetInCents ? StoryKey::BudgetEstimateInCents : StoryKey::TimeEstimateInMinutes;
}

std::string_view unit_of(Estimate estimate) {
  return estimate == Estimate::BudgetInCents ? "cents" : "minutes";
}

// An integer spelled with a minus sign and a non-zero digit: negative, whatever its size.
bool is_negative_integer(const json::Value& value) {
  return value.is_integer_spelling() && value.text().starts_with('-') &&
         value.text().find_first_of("123456789") != std::string_view::npos;
}

const std::optional<std::int64_t>& model_value(const Story& story, Estimate estimate) {
  return estimate == Estimate::BudgetInCents ? story.budget_estimate_in_cents : story.time_estimate_in_minutes;
}

// The story's estimate as written when the model could not hold it: an integer beyond int64.
// The model answers for every other story without touching its members, which keeps the
// rules cheap on large trees.
const json::Value* too_large_for_model(const Story& story, Estimate estimate) {
  if (model_value(story, estimate) || !story.irregular(story_key_of(estimate))) return nullptr;
  const json::Value* value = story.origin.node.find(key_of(estimate));
  return value != nullptr && value->is_integer_spelling() && !value->as_int64() ? value : nullptr;
}

std::string story_value_pointer(const Story& story, std::string_view key) {
  return story.pointer() + "/" + std::string(key);
}

// The project_template object of a template document (nullptr for a bare story list).
const json::Value* project_template_of(const Context& context, const TemplateSource& source) {
  if (source.template_pointer.empty()) return nullptr;
  return json::resolve_pointer(context.file().document().root(), source.template_pointer);
}

// Roll-ups need the whole story list: none when raw_json is missing or does not parse, and
// none when the nesting bound cut part of it away (nesting-depth reports that).
bool story_list_complete(const TemplateSource& source) {
  return source.story_list != nullptr && !source.story_document->truncated();
}

constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();

}  // namespace

std::optional<std::string> invalid_estimate_term(Context& context, const TemplateSource& source, std::size_t first,
                                                 std::size_t end, Estimate estimate) {
  const StoryIndex& index = context.index(source);
  const std::string_view key = key_of(estimate);
  for (std::size_t i = first; i < end;) {
    const Story& story = index.story(i);
    if (!story.writes(story_key_of(estimate))) {
      ++i;  // states nothing: its children count
      continue;
    }
    const std::optional<std::int64_t>& n = model_value(story, estimate);
    const Amount own = n ? Amount{Amount::State::Known, *n} : own_estimate(story, estimate);
    const json::Value* value = story.origin.node.find(key);
    std::string why;
    if (own.overflow())
      why = "beyond a 64-bit integer";
    else if (own.known() && own.value < 0)
      why = "a negative amount";
    else if (own.known() && estimate == Estimate::TimeInMinutes && own.value > kInt32Max)
      why = "beyond the service's 32-bit integer";
    else if (own.absent() && value != nullptr)
      why = "not an integer";
    if (!why.empty() && value != nullptr)
      return story_value_pointer(story, key) + " (" + context.line_of(source, *value) + ") is " + describe(*value) +
             ", " + why;
    // A valid estimate of its own stands for the story's subtree; without one, its children count.
    i = own.known() ? index.subtree_end(i) : i + 1;
  }
  return std::nullopt;
}

void check_amount_negative_story(Context& context, const TemplateSource& source, const Story& story) {
  for (Estimate estimate : kEstimates) {
    const std::optional<std::int64_t>& n = model_value(story, estimate);
    const json::Value* value =
        n ? (*n < 0 ? story.origin.node.find(key_of(estimate)) : nullptr) : too_large_for_model(story, estimate);
    if (value == nullptr || !is_negative_integer(*value)) continue;
    context.report("amount-negative", Severity::Error, source, *value, story_value_pointer(story, key_of(estimate)),
                   std::string(key_of(estimate)) + " is " + std::string(value->text()) + " " +
                       std::string(unit_of(estimate)) + "; an estimate cannot be negative");
  }
}

void check_amount_negative(Context& context) {
  // The template's own budget (the stories' estimates are check_amount_negative_story's).
  for (const TemplateSource& source : context.file().templates()) {
    const json::Value* pt = project_template_of(context, source);
    const json::Value* budget = pt != nullptr ? pt->find("budget") : nullptr;
    if (budget != nullptr && budget->is_number() && budget_to_cents(budget->text()).negative)
      context.report_at_offset(
          "amount-negative", Severity::Error, budget->offset(), source.template_pointer + "/budget",
          "the template's budget is " + std::string(budget->text()) + "; a budget cannot be negative");
  }
}

namespace {

class AmountOverflow final : public StoryCheck {
 public:
  void start(Context&, const TemplateSource&) override { magnitude_ = 0; }

  // Values as written: budgets must fit int64, time estimates int32 (docs/semantics.md §3).
  void check(Context& context, const TemplateSource& source, const Story& story) override {
    for (Estimate estimate : kEstimates) {
      const std::optional<std::int64_t>& n = model_value(story, estimate);
      if (n) {
        const std::uint64_t m = *n < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(*n) : *n;
        magnitude_ = magnitude_ > kNoBound - m ? kNoBound : magnitude_ + m;
      }
      const json::Value* value = nullptr;
      if (n && estimate == Estimate::TimeInMinutes && *n > kInt32Max)
        value = story.origin.node.find(key_of(estimate));
      else if (!n)
        value = too_large_for_model(story, estimate);
      if (value == nullptr || is_negative_integer(*value)) continue;  // negative: amount-negative
      const std::string key(key_of(estimate));
      context.report("amount-overflow", Severity::Error, source, *value, story_value_pointer(story, key),
                     key + " " + std::string(value->text()) + " does not fit in " +
                         (estimate == Estimate::BudgetInCents
                              ? "a 64-bit integer (at most " + int64_max() + " cents)"
                              : "the service's 32-bit integer (at most " + std::to_string(kInt32Max) + " minutes)"));
    }
  }

  void finish(Context& context, const TemplateSource& source) override {
    // Roll-ups: reported where a sum of values that each fit first leaves int64 (a value that
    // does not fit is reported above, and every sum above it is unknown, not reported again).
    // Every roll-up sums some of the values, so none can overflow while all of them together
    // stay within int64: then the tree need not be rolled up at all.
    if (story_list_complete(source) &&
        magnitude_ > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      const Rollup& rollup = context.rollup(source);
      auto overflows_here = [&](const Amount& sum, std::size_t first, std::size_t end, Estimate estimate) {
        if (!sum.overflow()) return false;
        for (std::size_t c = first; c < end; c = rollup.subtree_end(c))
          if (rollup.effective(c, estimate).overflow()) return false;
        return true;
      };
      for (std::size_t i = 0; i < rollup.item_count(); ++i) {
        const Story& story = rollup.story(i);
        for (Estimate estimate : kEstimates)
          if (overflows_here(rollup.children(i, estimate), i + 1, rollup.subtree_end(i), estimate))
            context.report("amount-overflow", Severity::Error, source, story.origin.node, story.pointer(),
                           "the " + std::string(key_of(estimate)) + " of the " +
                               std::to_string(story.sub_stories.size()) +
                               " sub_stories add up to more than a 64-bit integer holds (" + int64_max() + " " +
                               std::string(unit_of(estimate)) + ")");
      }
      for (Estimate estimate : kEstimates)
        if (overflows_here(rollup.total(estimate), 0, rollup.item_count(), estimate))
          context.report("amount-overflow", Severity::Error, source, *source.story_list, source.story_prefix,
                         "the " + std::string(key_of(estimate)) + " of the " +
                             std::to_string(source.model.stories.size()) +
                             " top-level stories add up to more than a 64-bit integer holds (" + int64_max() + " " +
                             std::string(unit_of(estimate)) + ")");
    }

    // The template's budget, in major units, must be a whole number of cents that fits int64.
    const json::Value* pt = project_template_of(context, source);
    const json::Value* budget = pt != nullptr ? pt->find("budget") : nullptr;
    if (budget == nullptr || !budget->is_number()) return;
    BudgetCents cents = budget_to_cents(budget->text());
    if (cents.status == BudgetCents::Status::OutOfRange && !cents.negative)
      context.report_at_offset("amount-overflow", Severity::Error, budget->offset(),
                               source.template_pointer + "/budget",
                               "the template's budget " + std::string(budget->text()) +
                                   " does not fit in a 64-bit integer of cents (at most " +
                                   cents_to_budget(std::numeric_limits<std::int64_t>::max()) + ")");
  }

 private:
  static constexpr std::uint64_t kNoBound = std::numeric_limits<std::uint64_t>::max();
  static std::string int64_max() { return std::to_string(std::numeric_limits<std::int64_t>::max()); }

  std::uint64_t magnitude_ = 0;  // of all values that fit, saturating
};

}  // namespace

std::unique_ptr<StoryCheck> amount_overflow_check() {
  return std::make_unique<AmountOverflow>();
}

namespace {

class RollupMismatch final : public StoryCheck {
 public:
  void start(Context&, const TemplateSource&) override { any_ = false; }

  // Only parents that state an estimate of their own have one to compare.
  void check(Context&, const TemplateSource&, const Story& story) override {
    any_ = any_ || (story.is_parent() && (story.budget_estimate_in_cents || story.time_estimate_in_minutes));
  }

  void finish(Context& context, const TemplateSource& source) override {
    if (!story_list_complete(source) || !any_) return;
    const Rollup& rollup = context.rollup(source);
    for (std::size_t i = 0; i < rollup.item_count(); ++i) {
      const Story& story = rollup.story(i);
      if (!story.is_parent()) continue;
      for (Estimate estimate : kEstimates) {
        // docs/semantics.md §5: a child's effective estimate is its own, else its children's sum; children
        // that state none count as nothing, and children that state none at all leave the
        // parent's estimate a top-down one, with nothing to compare.
        std::optional<std::int64_t> own = rollup.own(i, estimate).get();
        if (!own || *own < 0) continue;
        std::string unit(unit_of(estimate));
        std::size_t count = story.sub_stories.size();
        std::string message(key_of(estimate));
        message += " is " + std::to_string(*own) + " " + unit;
        std::optional<std::int64_t> sum = rollup.children(i, estimate).get();
        if (!sum || *sum < 0 || *own == *sum) continue;
        // A sum that took or skipped an invalid value is no sum (docs/semantics.md §6): say which value.
        if (std::optional<std::string> invalid =
                invalid_estimate_term(context, source, i + 1, rollup.subtree_end(i), estimate)) {
          message +=
              ", and its sub_stories' " + std::string(key_of(estimate)) + " cannot be added up to compare: " + *invalid;
        } else {
          message += ", but its " + std::to_string(count) + (count == 1 ? " sub_story adds" : " sub_stories add");
          message += " up to " + std::to_string(*sum) + " " + unit;
        }
        const json::Value& value = *story.origin.node.find(key_of(estimate));
        context.report("rollup-mismatch", Severity::Warning, source, value,
                       story_value_pointer(story, key_of(estimate)), std::move(message));
      }
    }
  }

 private:
  bool any_ = false;
};

}  // namespace

std::unique_ptr<StoryCheck> rollup_mismatch_check() {
  return std::make_unique<RollupMismatch>();
}

namespace {

class BudgetUnbudgetedTemplate final : public StoryCheck {
 public:
  void start(Context& context, const TemplateSource& source) override {
    stories_ = 0;
    first_ = nullptr;
    pt_ = project_template_of(context, source);  // a bare story list has no is_budgeted
    flag_ = pt_ != nullptr ? pt_->find("is_budgeted") : nullptr;
    // is_budgeted defaults to false on create (API reference, "Project templates"); a value that
    // is not a boolean is the schema rule's.
    if (flag_ != nullptr && (!flag_->is_bool() || flag_->as_bool() == true)) pt_ = nullptr;
  }

  // Money the template carries: non-zero story budgets (and, in finish(), its own budget).
  void check(Context&, const TemplateSource&, const Story& story) override {
    if (pt_ == nullptr) return;
    Amount own = own_estimate(story, Estimate::BudgetInCents);
    if (own.absent() || (own.known() && own.value == 0)) return;
    if (first_ == nullptr) first_ = &story;
    ++stories_;
  }

  void finish(Context& context, const TemplateSource& source) override {
    if (pt_ == nullptr) return;
    const json::Value* budget = pt_->find("budget");
    bool has_budget = budget != nullptr && budget->is_number();
    if (has_budget) {
      BudgetCents cents = budget_to_cents(budget->text());
      has_budget = !(cents.status == BudgetCents::Status::Exact && cents.cents == 0);
    }
    if (stories_ == 0 && !has_budget) return;

    std::string money = has_budget ? "the template has a budget of " + std::string(budget->text()) : "";
    if (stories_ > 0)
      money += (has_budget ? " and " : "") + std::to_string(stories_) +
               (stories_ == 1 ? " story carries" : " stories carry") + " budget_estimate_in_cents (first at " +
               context.line_of(source, *first_->origin.node.find("budget_estimate_in_cents")) + ", " +
               story_value_pointer(*first_, "budget_estimate_in_cents") + ")";
    if (flag_ != nullptr)
      context.report_at_offset("budget-unbudgeted-template", Severity::Warning, flag_->offset(),
                               source.template_pointer + "/is_budgeted",
                               money +
                                   ", but is_budgeted is false, so the service treats the template as one "
                                   "without financial attributes");
    else
      context.report_at_offset("budget-unbudgeted-template", Severity::Warning, pt_->offset(), source.template_pointer,
                               money +
                                   ", but the template has no is_budgeted, which the service takes as false: "
                                   "set \"is_budgeted\": true");
  }

 private:
  const json::Value* pt_ = nullptr;  // the project_template object, when the rule applies to it
  const json::Value* flag_ = nullptr;
  std::size_t stories_ = 0;
  const Story* first_ = nullptr;
};

}  // namespace

std::unique_ptr<StoryCheck> budget_unbudgeted_template_check() {
  return std::make_unique<BudgetUnbudgetedTemplate>();
}

}  // namespace ptmpl::rules
