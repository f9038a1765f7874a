// Rules about the template document's own fields: template-title-missing,
// template-item-count-mismatch, template-budget-mismatch, currency-invalid; and the document's
// calendar block beside it: calendar-invalid.
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "libtemplate/core/rollup.hpp"
#include "libtemplate/core/spelling.hpp"
#include "rules/rule.hpp"

namespace ptmpl::rules {

namespace {

// ISO 4217 list A.1 (current currency and funds codes, 2025), alphabetic codes, sorted:
// includes codes in their changeover period (ANG beside its successor XCG, SLL beside SLE, ZWL
// beside ZWG) so that stored templates stay valid, and leaves out XTS (reserved for testing)
// and XXX (transactions without a currency), which no budget can be in (kNotACurrency).
constexpr std::array<std::string_view, 180> kCurrencyCodes = {
    "AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT", "BGN", "BHD",
    "BIF", "BMD", "BND", "BOB", "BOV", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD", "CAD", "CDF", "CHE", "CHF",
    "CHW", "CLF", "CLP", "CNY", "COP", "COU", "CRC", "CUC", "CUP", "CVE", "CZK", "DJF", "DKK", "DOP", "DZD",
    "EGP", "ERN", "ETB", "EUR", "FJD", "FKP", "GBP", "GEL", "GHS", "GIP", "GMD", "GNF", "GTQ", "GYD", "HKD",
    "HNL", "HTG", "HUF", "IDR", "ILS", "INR", "IQD", "IRR", "ISK", "JMD", "JOD", "JPY", "KES", "KGS", "KHR",
    "KMF", "KPW", "KRW", "KWD", "KYD", "KZT", "LAK", "LBP", "LKR", "LRD", "LSL", "LYD", "MAD", "MDL", "MGA",
    "MKD", "MMK", "MNT", "MOP", "MRU", "MUR", "MVR", "MWK", "MXN", "MXV", "MYR", "MZN", "NAD", "NGN", "NIO",
    "NOK", "NPR", "NZD", "OMR", "PAB", "PEN", "PGK", "PHP", "PKR", "PLN", "PYG", "QAR", "RON", "RSD", "RUB",
    "RWF", "SAR", "SBD", "SCR", "SDG", "SEK", "SGD", "SHP", "SLE", "SLL", "SOS", "SRD", "SSP", "STN", "SVC",
    "SYP", "SZL", "THB", "TJS", "TMT", "TND", "TOP", "TRY", "TTD", "TWD", "TZS", "UAH", "UGX", "USD", "USN",
    "UYI", "UYU", "UYW", "UZS", "VED", "VES", "VND", "VUV", "WST", "XAF", "XAG", "XAU", "XBA", "XBB", "XBC",
    "XBD", "XCD", "XCG", "XDR", "XOF", "XPD", "XPF", "XPT", "XSU", "XUA", "YER", "ZAR", "ZMW", "ZWG", "ZWL",
};
static_assert(std::is_sorted(kCurrencyCodes.begin(), kCurrencyCodes.end()), "keep the currency codes sorted");

struct NotACurrency {
  std::string_view code;
  std::string_view meaning;
};
constexpr NotACurrency kNotACurrency[] = {
    {"XTS", "is reserved by ISO 4217 for testing"},
    {"XXX", "is ISO 4217's code for transactions without a currency"},
};

bool is_currency_code(std::string_view code) {
  return std::binary_search(kCurrencyCodes.begin(), kCurrencyCodes.end(), code);
}

// The project_template object of a template document (nullptr for a bare story list).
const json::Value* template_object(const Context& context, const TemplateSource& source) {
  if (source.template_pointer.empty()) return nullptr;
  return json::resolve_pointer(context.file().document().root(), source.template_pointer);
}

// Metadata is compared with the whole story list: none when raw_json is missing (as in a list
// fetched without optional_fields=raw_json) or does not parse, and none when the nesting
// bound cut part of it away.
bool stories_complete(const TemplateSource& source) {
  return source.story_list != nullptr && !source.story_document->truncated();
}

// Context::replace_value() refuses every value of a source whose raw_json is a string, but
// the template's own fields sit in the file outside that string: ask for them with a source
// that has none.
std::optional<Fix> replace_template_value(const Context& context, const json::Value& value, std::string replacement) {
  const TemplateSource file_level;
  return context.replace_value(file_level, value, std::move(replacement));
}

// The first item of the story list, or of a story's sub_stories, that is not a story object
// (or sub_stories that are not a list), described for a message; nullopt when every one is.
std::optional<std::string> invalid_story_list_item(Context& context, const TemplateSource& source) {
  auto first_non_object = [](const json::Value& list) -> const json::Value* {
    for (const json::Value& item : list.items())
      if (!item.is_object()) return &item;
    return nullptr;
  };
  auto described = [&](const json::Value& at, std::string pointer) {
    return pointer + " (" + context.line_of(source, at) + ") is " + describe(at) + ", not a story";
  };
  if (const json::Value* item = first_non_object(*source.story_list)) {
    const std::size_t n = static_cast<std::size_t>(item - source.story_list->items().data());
    return described(*item, source.story_prefix + "/" + std::to_string(n));
  }
  const StoryIndex& index = context.index(source);
  for (std::size_t i = 0; i < index.size(); ++i) {
    const Story& story = index.story(i);
    if (!story.irregular(StoryKey::SubStories)) continue;  // the model holds every item
    const json::Value* list = story.origin.node.find("sub_stories");
    if (list == nullptr) continue;
    const std::string pointer = story.pointer() + "/sub_stories";
    if (!list->is_array())
      return pointer + " (" + context.line_of(source, *list) + ") is " + describe(*list) + ", not a list of stories";
    if (const json::Value* item = first_non_object(*list))
      return described(*item, pointer + "/" + std::to_string(item - list->items().data()));
  }
  return std::nullopt;
}

}  // namespace

void check_template_title_missing(Context& context) {
  for (const TemplateSource& source : context.file().templates()) {
    if (source.template_pointer.empty()) continue;  // a bare story list has no template fields
    const json::Value* pt = json::resolve_pointer(context.file().document().root(), source.template_pointer);
    if (pt == nullptr) continue;
    // The service refuses to create a template without a title, and to blank one on update.
    const json::Value* title = pt->find("title");
    if (title == nullptr)
      context.report_at_offset("template-title-missing", Severity::Error, pt->offset(), source.template_pointer,
                               "the template has no title");
    else if (title->is_string() && title->text().find_first_not_of(" \t\r\n\f\v") == std::string_view::npos)
      context.report_at_offset("template-title-missing", Severity::Error, title->offset(),
                               source.template_pointer + "/title", "the template's title is blank");
  }
}

void check_template_item_count_mismatch(Context& context) {
  for (const TemplateSource& source : context.file().templates()) {
    const json::Value* pt = template_object(context, source);
    if (pt == nullptr || !stories_complete(source)) continue;
    const json::Value* value = pt->find("item_count");
    std::optional<std::int64_t> written = value != nullptr ? value->as_int64() : std::nullopt;
    if (!written) continue;  // absent, or not an integer (schema)
    // docs/semantics.md §5: item_count is the number of stories at every level, which the dependency graph
    // (shared by the rules) numbers.
    const auto count = static_cast<std::int64_t>(context.graph(source).size());
    if (*written == count) continue;
    // docs/semantics.md §6: a list item that is no story, or sub_stories that are no list, leave the count
    // unknown (the service refuses the template): no count and no fix from them.
    if (std::optional<std::string> invalid = invalid_story_list_item(context, source)) {
      context.report_at_offset("template-item-count-mismatch", Severity::Warning, value->offset(),
                               source.template_pointer + "/item_count",
                               "item_count " + std::to_string(*written) +
                                   " cannot be compared with the number of stories, nor fixed: " + *invalid);
      continue;
    }
    context.report_at_offset(
        "template-item-count-mismatch", Severity::Warning, value->offset(), source.template_pointer + "/item_count",
        "item_count is " + std::to_string(*written) + ", but the template has " + std::to_string(count) +
            (count == 1 ? " story" : " stories") + " (at every level, sub_stories included)",
        replace_template_value(context, *value, std::to_string(count)));
  }
}

namespace {

class TemplateBudgetMismatch final : public StoryCheck {
 public:
  void start(Context& context, const TemplateSource& source) override {
    budget_ = nullptr;
    totals_.reset();
    const json::Value* pt = template_object(context, source);
    if (pt == nullptr || source.model.is_budgeted != true || !stories_complete(source)) return;
    const json::Value* budget = pt->find("budget");
    if (budget == nullptr || !budget->is_number()) return;
    // Negative and out-of-range budgets are amount-negative's and amount-overflow's findings.
    written_ = budget_to_cents(budget->text());
    if (written_.negative ||
        (written_.status != BudgetCents::Status::Exact && written_.status != BudgetCents::Status::FractionOfCent))
      return;
    budget_ = budget;
    totals_.emplace(source.model.stories);
  }

  void check(Context&, const TemplateSource&, const Story& story) override {
    if (totals_) totals_->add(story);
  }

  void finish(Context& context, const TemplateSource& source) override {
    if (budget_ == nullptr) return;
    // docs/semantics.md §5: budget = cents / 100 of the template total, the sum of the top-level stories'
    // effective budgets. Without any story budget the budget is a top-down figure: nothing to
    // compare. A total that does not fit, or is negative, is reported by the amount rules.
    std::optional<std::int64_t> total = totals_->totals().budget_in_cents.get();
    if (!total || *total < 0) return;
    if (written_.status == BudgetCents::Status::Exact && written_.cents == *total) return;
    // docs/semantics.md §6: no sum, and no fix, from a value that is itself invalid.
    if (std::optional<std::string> invalid =
            invalid_estimate_term(context, source, 0, context.index(source).size(), Estimate::BudgetInCents)) {
      context.report_at_offset("template-budget-mismatch", Severity::Warning, budget_->offset(),
                               source.template_pointer + "/budget",
                               "budget " + std::string(budget_->text()) +
                                   " cannot be compared with the top-level stories' budgets, nor fixed: " + *invalid);
      return;
    }
    const std::string expected = cents_to_budget(*total);
    std::string message = written_.status == BudgetCents::Status::FractionOfCent
                              ? "budget " + std::string(budget_->text()) + " is not a whole number of cents"
                              : "budget is " + std::string(budget_->text());
    message += (written_.status == BudgetCents::Status::FractionOfCent ? "; " : ", but ") +
               std::string("the top-level stories' budgets add up to ") + expected + " (" + std::to_string(*total) +
               " cents)";
    context.report_at_offset("template-budget-mismatch", Severity::Warning, budget_->offset(),
                             source.template_pointer + "/budget", std::move(message),
                             replace_template_value(context, *budget_, expected));
  }

 private:
  const json::Value* budget_ = nullptr;  // the template's budget, when there is one to compare
  BudgetCents written_;
  std::optional<RollupTotalsBuilder> totals_;  // of the stories, as they go by
};

}  // namespace

std::unique_ptr<StoryCheck> template_budget_mismatch_check() {
  return std::make_unique<TemplateBudgetMismatch>();
}

void check_currency_invalid(Context& context) {
  for (const TemplateSource& source : context.file().templates()) {
    const json::Value* pt = template_object(context, source);
    const json::Value* currency = pt != nullptr ? pt->find("currency") : nullptr;
    if (currency == nullptr || !currency->is_string()) continue;  // not a string: schema
    const std::string_view code = currency->text();
    if (is_currency_code(code)) continue;
    std::string message = "currency " + json::quoted(code);
    auto special = std::find_if(std::begin(kNotACurrency), std::end(kNotACurrency),
                                [&](const NotACurrency& c) { return c.code == code; });
    if (special != std::end(kNotACurrency)) {
      message += " " + std::string(special->meaning) + ", not a currency a budget can be in";
    } else {
      message += " is not an ISO 4217 currency code";
      // Codes are upper case: "usd" and " USD " are near misses of USD.
      std::string upper;
      for (char c : code)
        if (c != ' ') upper += static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
      if (code.empty())
        message += " (the service's default is \"USD\")";
      else if (auto suggestion = closest(upper, kCurrencyCodes))
        message += " (did you mean " + json::quoted(*suggestion) + "?)";
    }
    context.report_at_offset("currency-invalid", Severity::Error, currency->offset(),
                             source.template_pointer + "/currency", std::move(message));
  }
}

void check_calendar_invalid(Context& context) {
  const TemplateFile& file = context.file();
  if (file.shape() != Shape::TemplateDocument) return;
  const json::Value& root = file.document().root();
  if (const json::Value* block = root.find("calendar"))
    for (CalendarProblem& problem : calendar_block_problems(*block))
      context.report_at_offset("calendar-invalid", Severity::Error, problem.at.offset(), "/calendar" + problem.pointer,
                               std::move(problem.message));
  // docs/semantics.md §2: the block sits beside project_template; inside it, nothing reads it.
  for (const TemplateSource& source : file.templates()) {
    const json::Value* pt = template_object(context, source);
    const json::Value* inside = pt != nullptr ? pt->find("calendar") : nullptr;
    if (inside == nullptr) continue;
    context.report_at_offset("calendar-invalid", Severity::Error, inside->offset(),
                             source.template_pointer + "/calendar",
                             "the calendar block is written inside project_template, where nothing reads it: move it "
                             "beside project_template (ptmpl's own block, never sent to the service)");
  }
}

}  // namespace ptmpl::rules

namespace ptmpl {

bool is_currency_code(std::string_view code) {
  return rules::is_currency_code(code);
}

}  // namespace ptmpl
