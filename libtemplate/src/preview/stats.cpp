// `ptmpl stats`: the template's totals (docs/semantics.md §9).
#include <utility>
#include <vector>

#include "libtemplate/core/json_emitter.hpp"
#include "libtemplate/core/preview.hpp"

namespace ptmpl {

namespace {

// docs/semantics.md §9: an amount nothing states is 0; one that overflows int64 is null (text: "overflow").
std::string amount_text(const Amount& amount, std::string_view overflow) {
  if (amount.overflow()) return std::string(overflow);
  return std::to_string(amount.value);
}

// Each value spelled for both formats: digits, a JSON string of a date, or `overflow` (null).
std::vector<std::pair<std::string_view, std::string>> fields(const Stats& stats, std::string_view overflow,
                                                             bool quote_dates) {
  std::vector<std::pair<std::string_view, std::string>> out = {
      {"item_count", std::to_string(stats.item_count)},
      {"duration", std::to_string(stats.duration)},
      {"budget_in_cents", amount_text(stats.budget_in_cents, overflow)},
      {"time_estimate_in_minutes", amount_text(stats.time_estimate_in_minutes, overflow)},
      {"critical_count", std::to_string(stats.critical_count)}};
  using Named = std::pair<std::string_view, std::optional<Date>>;
  for (const auto& [name, date] : {Named{"start_date", stats.start_date}, Named{"due_date", stats.due_date},
                                   Named{"finish", stats.finish}, Named{"latest_start", stats.latest_start}})
    if (date) out.emplace_back(name, quote_dates ? json::quoted(format_date(*date)) : format_date(*date));
  return out;
}

}  // namespace

Stats compute_stats(const Schedule& schedule, const Rollup& rollup, const std::optional<Calendar>& calendar,
                    std::optional<Date> finish) {
  Stats stats;
  stats.item_count = rollup.item_count();
  stats.duration = schedule.project_duration();
  stats.budget_in_cents = rollup.total(Estimate::BudgetInCents);
  stats.time_estimate_in_minutes = rollup.total(Estimate::TimeInMinutes);
  stats.critical_count = schedule.critical_count();
  if (calendar && schedule.project()) {
    stats.start_date = calendar->date_of(schedule.project()->first_day());
    stats.due_date = calendar->date_of(schedule.project()->due);
  }
  if (calendar && finish) {
    stats.finish = finish;
    stats.latest_start = calendar->day_zero();
  }
  return stats;
}

std::string render_stats_json(const Stats& stats) {
  JsonEmitter json;
  json.begin_object();
  for (const auto& [name, value] : fields(stats, "null", true)) {
    json.key(name);
    json.raw(value);  // an integer's digits, or null (fields() spells the values for both formats)
  }
  json.end_object();
  return json.finish();
}

std::string render_stats_text(const Stats& stats) {
  std::string out;
  for (const auto& [name, value] : fields(stats, "overflow", false)) {
    out += name;
    out.append(26 - name.size(), ' ');
    out += value + "\n";
  }
  return out;
}

}  // namespace ptmpl
