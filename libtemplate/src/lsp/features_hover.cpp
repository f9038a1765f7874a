// The language server, by concern: hover on a story or a temp_id — the story's declared dates
// and what `ptmpl schedule` and `ptmpl stats` compute for it: scheduled dates (in the document's
// calendar block when it has one), total float, critical or not, roll-up budget and time.
#include "libtemplate/core/preview.hpp"
#include "libtemplate/core/story_fields.hpp"
#include "lsp/features.hpp"
#include "lsp/features_document.hpp"

namespace ptmpl::lsp {

using features::Analysis;
using features::IdSite;

namespace {

// `text` with every character Markdown could read as markup escaped.
std::string markdown_escaped(std::string_view text) {
  constexpr std::string_view kMarkup = "\\`*_{}[]<>()#+-.!|~";
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (kMarkup.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string plural(std::int64_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 || n == -1 ? one : many);
}

// A declared offset as written, with its date when the document has a calendar.
std::string declared_day(const std::optional<std::int64_t>& offset, const std::optional<Calendar>& calendar) {
  if (!offset) return "—";
  std::string out = "day " + std::to_string(*offset);
  if (calendar)
    if (auto date = calendar->date_of(*offset)) out += " (" + format_date(*date) + ")";
  return out;
}

std::string scheduled_day(std::int64_t offset, const std::optional<Calendar>& calendar) {
  const std::string text = preview::day_text(offset, calendar);
  return calendar && text != std::to_string(offset) ? text : "day " + text;
}

// An estimate as hover shows it: "1500.5 EUR (150050 cents)", "90 minutes"; with where it
// comes from when the story does not state it.
std::string amount_text(const Rollup& rollup, std::size_t index, Estimate estimate, std::string_view currency) {
  const Amount& effective = rollup.effective(index, estimate);
  if (effective.overflow()) return "beyond 64-bit integers";
  if (!effective.known()) return "—";
  std::string out;
  if (estimate == Estimate::BudgetInCents) {
    out = cents_to_budget(effective.value);
    if (!currency.empty()) out += " " + markdown_escaped(currency);
    out += " (" + plural(effective.value, "cent", "cents") + ")";
  } else {
    out = plural(effective.value, "minute", "minutes");
  }
  if (rollup.own(index, estimate).absent()) out += ", the sum of its sub-stories'";
  return out;
}

std::string story_markdown(const Analysis& analysis, std::size_t s) {
  const features::StoryEntry& entry = analysis.stories()[s];
  const Story& story = *entry.story;
  const features::TemplatePlan& plan = analysis.plan(entry.templ);
  std::string md = "**" + markdown_escaped(preview::display_title(story)) + "**";
  md += " · " + std::string(to_string(story.effective_type()));
  if (story.temp_id) md += " · temp_id `" + temp_id_key(*story.temp_id) + "`";
  if (story.is_parent())
    md += " · " + plural(static_cast<std::int64_t>(story.sub_stories.size()), "sub-story", "sub-stories");
  md += "\n\n";

  md += "| | start | due | duration |\n|---|---|---|---|\n";
  md += "| declared | " + declared_day(story.relative_start_date, plan.calendar) + " | " +
        declared_day(story.relative_due_date, plan.calendar) + " | " +
        (story.duration ? plural(*story.duration, "day", "days") : std::string("—")) + " |\n";
  const bool scheduled = plan.planned && plan.problem.empty();
  if (scheduled) {
    const Schedule& schedule = plan.planned->schedule();
    const ScheduledStory& dates = schedule[entry.index];
    md += "| scheduled | " + scheduled_day(dates.early.first_day(), plan.calendar) + " | " +
          scheduled_day(dates.early.due, plan.calendar) + " | " +
          plural(preview::scheduled_duration(schedule, entry.index), "day", "days") + " |\n\n";
    md += "Total float: " + plural(dates.total_float, "working day", "working days") + " · " +
          (dates.critical ? "**critical**" : "not critical") + "\n\n";
  } else {
    md += "\nNot scheduled: " + markdown_escaped(plan.problem) + "\n\n";
  }
  const std::string_view currency = analysis.templates()[entry.templ].model.currency.value_or("");
  md += "Budget: " + amount_text(*plan.rollup, entry.index, Estimate::BudgetInCents, currency) + "\n\n";
  md += "Time estimate: " + amount_text(*plan.rollup, entry.index, Estimate::TimeInMinutes, currency);
  if (plan.finish && scheduled)
    md += "\n\nLatest start: " + format_date(plan.calendar->day_zero()) + " (day 0), for the calendar block's finish " +
          format_date(*plan.finish);
  if (!plan.calendar_problem.empty())
    md += "\n\nThe calendar block is not used: " + markdown_escaped(plan.calendar_problem);
  else if (scheduled && !plan.calendar)
    md += "\n\n*Days count working days from the project start (day 0).*";
  return md;
}

}  // namespace

Reply hover(const OpenDocument& document, Position position) {
  auto analysis = features::analysis_of(document);
  const std::uint64_t offset = analysis->positions().offset(position);
  std::string markdown;
  std::optional<Range> range;
  if (const IdSite* site = analysis->site_at(offset)) {
    range = analysis->range(site->begin, site->end);
    if (site->role == IdSite::Role::Declaration) {
      markdown = story_markdown(*analysis, site->story);
    } else {
      auto stories = analysis->declarations(site->templ, site->id);
      if (stories.empty())
        markdown = "No story has temp_id `" + features::id_text(site->id) + "`.";
      else
        markdown = story_markdown(*analysis, stories.front());
    }
  } else {
    const std::size_t s = analysis->story_at(offset);
    if (s == Analysis::npos) return {};
    markdown = story_markdown(*analysis, s);
  }
  JsonEmitter json(JsonLayout::Compact);
  json.begin_object();
  json.key("contents");
  json.begin_object();
  json.member("kind", "markdown");
  json.member("value", markdown);
  json.end_object();
  if (range) {
    json.key("range");
    features::write_range(json, *range);
  }
  json.end_object();
  return features::result_of(json);
}

}  // namespace ptmpl::lsp
