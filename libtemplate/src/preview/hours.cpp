// Hours by assignment (docs/semantics.md §14): time estimates spread over working days and
// assignments, summed by ISO week and by month. Whole minutes throughout, so every total is exact
// and the periods add up to the template's total estimate.
#include "libtemplate/core/hours.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <map>

#include "libtemplate/core/json_emitter.hpp"
#include "output/csv_cell.hpp"
#include "preview/markup_text.hpp"
#include "text/text_width.hpp"

namespace ptmpl {

namespace {

using std::chrono::days;

constexpr std::int64_t kMaxMinutesPerWeek = 7 * 24 * 60;

// `n` split into `parts` whole shares as evenly as possible: share `i` of them.
std::int64_t share(std::int64_t n, std::int64_t parts, std::int64_t i) {
  return n / parts + (i < n % parts ? 1 : 0);
}

// Days [a, b) of a spread whose day d gets share(minutes, count, d): their sum.
std::int64_t spread_sum(std::int64_t minutes, std::int64_t count, std::int64_t a, std::int64_t b) {
  const std::int64_t rest = minutes % count;
  return minutes / count * (b - a) + std::max<std::int64_t>(0, std::min(b, rest) - a);
}

Date monday_of(Date date) {
  return date - (std::chrono::weekday{date} - std::chrono::Monday);
}

Date month_of(Date date) {
  const std::chrono::year_month_day ymd{date};
  return Date{ymd.year() / ymd.month() / 1};
}

Date next_month(Date first) {
  const std::chrono::year_month_day ymd{first};
  return Date{(ymd.year() / ymd.month() + std::chrono::months{1}) / 1};
}

std::string two_digits(unsigned n) {
  return std::string(n < 10 ? "0" : "") + std::to_string(n);
}

// ISO 8601: a week belongs to the year of its Thursday.
std::string iso_week_label(Date monday) {
  const Date thursday = monday + days{3};
  const std::chrono::year year = std::chrono::year_month_day{thursday}.year();
  const auto week = (thursday - Date{year / std::chrono::January / 1}).count() / 7 + 1;
  return std::to_string(static_cast<int>(year)) + "-W" + two_digits(static_cast<unsigned>(week));
}

std::string month_label(Date first) {
  const std::chrono::year_month_day ymd{first};
  return std::to_string(static_cast<int>(ymd.year())) + "-" + two_digits(static_cast<unsigned>(ymd.month()));
}

// The periods from the one holding `first` to the one holding `last`, each with a slot per row.
std::vector<HoursPeriod> periods(Date first, Date last, bool weeks, std::size_t rows) {
  std::vector<HoursPeriod> out;
  for (Date at = weeks ? monday_of(first) : month_of(first); at <= last; at = weeks ? at + days{7} : next_month(at))
    out.push_back({at, weeks ? iso_week_label(at) : month_label(at), std::vector<std::int64_t>(rows, 0)});
  return out;
}

// The row of each assignee id, made on first use for an id no entry names.
class Rows {
 public:
  Rows(std::span<const TemplateAssignment> assignments, std::span<const Capacity> capacity) : capacity_(capacity) {
    for (const TemplateAssignment& a : assignments) add(std::string(a.name), a.id);
  }
  std::size_t of(std::optional<std::int64_t> id) {
    for (std::size_t r = 0; r < rows_.size(); ++r)
      if (rows_[r].id == id) return r;
    return add(id ? "#" + std::to_string(*id) : std::string("unassigned"), id);
  }
  // The rows with `unassigned` last.
  std::vector<HoursRow> take(std::vector<std::size_t>& order) {
    for (std::size_t r = 0; r < rows_.size(); ++r)
      if (rows_[r].id) order.push_back(r);
    for (std::size_t r = 0; r < rows_.size(); ++r)
      if (!rows_[r].id) order.push_back(r);
    std::vector<HoursRow> out;
    for (std::size_t r : order) out.push_back(rows_[r]);
    return out;
  }
  [[nodiscard]] std::size_t size() const { return rows_.size(); }

 private:
  std::size_t add(std::string name, std::optional<std::int64_t> id) {
    HoursRow row{std::move(name), id, std::nullopt};
    for (const Capacity& c : capacity_)
      if (id && c.role == row.name) row.capacity_minutes = c.minutes_per_week;
    rows_.push_back(std::move(row));
    return rows_.size() - 1;
  }
  std::span<const Capacity> capacity_;
  std::vector<HoursRow> rows_;
};

// One share of a story: `minutes` over working days [first, first + count) into `row`.
struct Share {
  std::size_t row;
  std::int64_t minutes;
  std::int64_t first;
  std::int64_t count;
};

// Adds the share to the periods (weeks or months), a period at a time: the working days of
// each are counted from the calendar's offsets, not walked.
void add_share(const Share& s, const Calendar& calendar, std::vector<HoursPeriod>& out, bool weeks) {
  std::int64_t day = s.first;
  while (day < s.first + s.count) {
    const Date date = *calendar.date_of(day);
    const Date period = weeks ? monday_of(date) : month_of(date);
    const Date next = weeks ? period + days{7} : next_month(period);
    const std::int64_t end = std::min(calendar.offset_of(next), s.first + s.count);
    auto it =
        std::lower_bound(out.begin(), out.end(), period, [](const HoursPeriod& p, Date d) { return p.first < d; });
    it->minutes[s.row] += spread_sum(s.minutes, s.count, day - s.first, end - s.first);
    day = end;
  }
}

}  // namespace

Result<Capacity> parse_capacity(std::string role, std::string_view per_week) {
  const std::string shown = "capacity " + json::quoted(role + "=" + std::string(per_week));
  constexpr std::string_view kUnit = "h/week";
  if (role.empty()) return Error::usage(shown + ": name a role before '='");
  if (!per_week.ends_with(kUnit)) return Error::usage(shown + ": expected hours a week, such as 40h/week");
  const std::string_view number = per_week.substr(0, per_week.size() - kUnit.size());
  const std::size_t dot = number.find('.');
  const std::string_view whole = number.substr(0, dot);
  const std::string_view places = dot == std::string_view::npos ? std::string_view() : number.substr(dot + 1);
  std::int64_t hours = 0;
  std::int64_t hundredths = 0;
  auto digits = [](std::string_view text, std::int64_t& value) {
    if (text.find_first_not_of("0123456789") != std::string_view::npos) return false;
    return std::from_chars(text.data(), text.data() + text.size(), value).ec == std::errc();
  };
  const bool fine =
      !whole.empty() && whole.size() <= 4 && digits(whole, hours) &&
      (dot == std::string_view::npos || (!places.empty() && places.size() <= 2 && digits(places, hundredths)));
  if (!fine) return Error::usage(shown + ": expected hours a week, such as 40h/week or 37.5h/week");
  if (places.size() == 1) hundredths *= 10;
  const std::int64_t minutes = hours * 60 + hundredths * 60 / 100;
  if (minutes > kMaxMinutesPerWeek) return Error::usage(shown + ": a week has 168 hours");
  return Capacity{std::move(role), minutes};
}

Result<Capacity> parse_capacity(std::string_view text) {
  const std::size_t equals = text.rfind('=');
  if (equals == std::string_view::npos)
    return Error::usage("capacity " + json::quoted(text) + ": expected ROLE=HOURSh/week, such as Engineer=40h/week");
  return parse_capacity(std::string(text.substr(0, equals)), text.substr(equals + 1));
}

bool Hours::over(const HoursPeriod& week, std::size_t row) const {
  return rows[row].capacity_minutes && week.minutes[row] > *rows[row].capacity_minutes;
}

Result<Hours> hours_by_assignment(const ScheduledTemplate& planned, const Rollup& rollup, const Calendar& calendar,
                                  std::span<const TemplateAssignment> assignments, std::span<const Capacity> capacity) {
  if (rollup.total(Estimate::TimeInMinutes).overflow())
    return Error::invalid("the time estimates add up beyond 64-bit integers: no hours can be shown");
  const Schedule& schedule = planned.schedule();
  const StoryIndex& index = planned.index();
  Rows rows(assignments, capacity);
  std::vector<Share> shares;
  for (std::size_t s = 0; s < index.size();) {
    const Amount& own = rollup.own(s, Estimate::TimeInMinutes);
    if (!own.known()) {
      ++s;  // its sub-stories say their own
      continue;
    }
    if (own.value < 0) return Error::invalid("a time estimate is negative: no hours can be shown");
    const Interval& at = schedule[s].early;
    const std::int64_t count = std::max<std::int64_t>(1, at.due - at.first_day() + 1);
    const Story& story = index.story(s);
    const std::span<const std::int64_t> ids = story.assignments.value_or(std::span<const std::int64_t>());
    const auto parts = static_cast<std::int64_t>(std::max<std::size_t>(1, ids.size()));
    for (std::int64_t i = 0; i < parts; ++i) {
      const std::size_t row = rows.of(ids.empty() ? std::nullopt : std::optional(ids[static_cast<std::size_t>(i)]));
      shares.push_back({row, share(own.value, parts, i), at.first_day(), count});
    }
    if (!calendar.date_of(at.first_day()) || !calendar.date_of(at.first_day() + count))
      return Error::invalid("the schedule's days leave years 1-9999: no hours can be shown");
    s = index.subtree_end(s);  // its own estimate stands for its subtree
  }
  Hours hours;
  std::vector<std::size_t> order;
  hours.rows = rows.take(order);
  const std::optional<Interval>& project = schedule.project();
  if (!project) return hours;
  const std::optional<Date> first = calendar.date_of(project->first_day());
  const std::optional<Date> last = calendar.date_of(project->due);
  if (!first || !last) return Error::invalid("the schedule's days leave years 1-9999: no hours can be shown");
  hours.weeks = periods(*first, *last, true, rows.size());
  hours.months = periods(*first, *last, false, rows.size());
  for (const Share& s : shares) {
    add_share(s, calendar, hours.weeks, true);
    add_share(s, calendar, hours.months, false);
  }
  // Slots were made in the order rows were met; put them in the rows' order.
  for (auto* list : {&hours.weeks, &hours.months})
    for (HoursPeriod& period : *list) {
      std::vector<std::int64_t> ordered;
      for (std::size_t r : order) ordered.push_back(period.minutes[r]);
      period.minutes = std::move(ordered);
    }
  return hours;
}

std::string hours_text(std::int64_t minutes) {
  const std::int64_t hundredths = (minutes * 100 + 30) / 60;  // rounded to the nearest hundredth
  std::string out = std::to_string(hundredths / 100);
  const std::int64_t places = hundredths % 100;
  if (places != 0)
    out += "." + (places % 10 == 0 ? std::to_string(places / 10) : two_digits(static_cast<unsigned>(places)));
  return out;
}

std::string render_hours_table(const Hours& hours) {
  std::string out;
  for (bool weeks : {true, false}) {
    const std::vector<HoursPeriod>& list = weeks ? hours.weeks : hours.months;
    std::vector<std::vector<std::string>> lines;
    std::vector<std::string> heading{weeks ? "week" : "month", "from"};
    for (const HoursRow& row : hours.rows)
      heading.push_back(weeks && row.capacity_minutes ? row.name + " (" + hours_text(*row.capacity_minutes) + ")"
                                                      : row.name);
    heading.emplace_back("total");
    lines.push_back(std::move(heading));
    for (const HoursPeriod& period : list) {
      std::vector<std::string> line{period.label, format_date(period.first)};
      std::int64_t total = 0;
      for (std::size_t r = 0; r < hours.rows.size(); ++r) {
        line.push_back(hours_text(period.minutes[r]) + (weeks && hours.over(period, r) ? " !" : ""));
        total += period.minutes[r];
      }
      line.push_back(hours_text(total));
      lines.push_back(std::move(line));
    }
    std::vector<std::size_t> width(lines.front().size(), 0);
    for (const auto& line : lines)
      for (std::size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], display_width(line[c]));
    if (!out.empty()) out += '\n';
    for (const auto& line : lines) {
      std::string text;
      for (std::size_t c = 0; c < line.size(); ++c)
        text +=
            (c < 2 ? pad_right(line[c], width[c]) : pad_left(line[c], width[c])) + (c + 1 < line.size() ? "  " : "");
      while (!text.empty() && text.back() == ' ') text.pop_back();
      out += text + '\n';
    }
  }
  const bool any_capacity =
      std::any_of(hours.rows.begin(), hours.rows.end(), [](const HoursRow& row) { return row.capacity_minutes; });
  if (any_capacity) out += "\nhours a week; (N) a role's capacity, ! a week over it\n";
  return out;
}

std::string render_hours_csv(const Hours& hours) {
  std::string out = "period,label,first_day,assignment,hours,capacity,over\r\n";
  for (bool weeks : {true, false})
    for (const HoursPeriod& period : weeks ? hours.weeks : hours.months)
      for (std::size_t r = 0; r < hours.rows.size(); ++r) {
        const HoursRow& row = hours.rows[r];
        out += std::string(weeks ? "week" : "month") + "," + period.label + "," + format_date(period.first) + ",";
        detail::append_csv_cell(out, row.name, detail::CsvCell::Text);
        out += "," + hours_text(period.minutes[r]) + ",";
        if (weeks && row.capacity_minutes) out += hours_text(*row.capacity_minutes);
        out += std::string(",") + (weeks && hours.over(period, r) ? "true" : "false") + "\r\n";
      }
  return out;
}

std::string render_hours_json(const Hours& hours) {
  JsonEmitter json;
  json.begin_object();
  json.key("assignments");
  json.begin_array();
  for (const HoursRow& row : hours.rows) {
    json.begin_object();
    json.member("name", row.name);
    json.key("id");
    row.id ? json.integer(*row.id) : json.null();
    json.key("capacity_minutes");
    row.capacity_minutes ? json.integer(*row.capacity_minutes) : json.null();
    json.end_object();
  }
  json.end_array();
  for (bool weeks : {true, false}) {
    if (weeks)
      json.key("weeks");
    else
      json.key("months");
    json.begin_array();
    for (const HoursPeriod& period : weeks ? hours.weeks : hours.months) {
      json.begin_object();
      if (weeks)
        json.member("week", period.label);
      else
        json.member("month", period.label);
      json.member("first_day", format_date(period.first));
      json.key("minutes");
      json.begin_array(JsonLayout::Compact);
      for (std::int64_t m : period.minutes) json.integer(m);
      json.end_array();
      if (weeks) {
        json.key("over");
        json.begin_array(JsonLayout::Compact);
        for (std::size_t r = 0; r < hours.rows.size(); ++r) json.boolean(hours.over(period, r));
        json.end_array();
      }
      json.end_object();
    }
    json.end_array();
  }
  json.end_object();
  return json.finish();
}

std::string render_hours_svg(const Hours& hours) {
  using preview::svg_number;
  constexpr std::array<std::string_view, 8> kColours = {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1",
                                                        "#76b7b2", "#edc948", "#e15759", "#9c755f"};
  constexpr double kBar = 28;
  constexpr double kGap = 8;
  constexpr double kHeight = 200;
  constexpr double kLeft = 48;
  constexpr double kTop = 12;
  std::int64_t peak = 1;
  for (const HoursPeriod& week : hours.weeks) {
    std::int64_t total = 0;
    for (std::int64_t m : week.minutes) total += m;
    peak = std::max(peak, total);
  }
  for (const HoursRow& row : hours.rows)
    if (row.capacity_minutes) peak = std::max(peak, *row.capacity_minutes);
  const double scale = kHeight / static_cast<double>(peak);
  const double width = kLeft + static_cast<double>(hours.weeks.size()) * (kBar + kGap) + kGap;
  const double legend_y = kTop + kHeight + 40;
  const double total_height = legend_y + 18 * static_cast<double>(hours.rows.size()) + 8;
  std::string out = "<svg class=\"hours\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    svg_number(std::max(width, 320.0)) + "\" height=\"" + svg_number(total_height) +
                    "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  out += "<text x=\"0\" y=\"" + svg_number(kTop + 4) + "\">" + hours_text(peak) + " h</text>\n";
  out += "<line x1=\"" + svg_number(kLeft - 4) + "\" y1=\"" + svg_number(kTop + kHeight) + "\" x2=\"" +
         svg_number(width) + "\" y2=\"" + svg_number(kTop + kHeight) + "\" stroke=\"#888888\"/>\n";
  for (std::size_t w = 0; w < hours.weeks.size(); ++w) {
    const HoursPeriod& week = hours.weeks[w];
    const double x = kLeft + kGap + static_cast<double>(w) * (kBar + kGap);
    double y = kTop + kHeight;
    out += "<g class=\"week\"><title>" + week.label + " (from " + format_date(week.first) + ")";
    for (std::size_t r = 0; r < hours.rows.size(); ++r)
      if (week.minutes[r] > 0)
        out += "\n" + preview::markup_escape(hours.rows[r].name) + ": " + hours_text(week.minutes[r]) + " h" +
               (hours.over(week, r) ? " (over capacity)" : "");
    out += "</title>\n";
    for (std::size_t r = 0; r < hours.rows.size(); ++r) {
      if (week.minutes[r] == 0) continue;
      const double h = static_cast<double>(week.minutes[r]) * scale;
      y -= h;
      out += "<rect class=\"" + std::string(hours.over(week, r) ? "hours over" : "hours") + "\" x=\"" + svg_number(x) +
             "\" y=\"" + svg_number(y) + "\" width=\"" + svg_number(kBar) + "\" height=\"" + svg_number(h) +
             "\" fill=\"" + std::string(kColours[r % kColours.size()]) + "\"" +
             (hours.over(week, r) ? " stroke=\"#d62728\" stroke-width=\"2\"" : "") + "/>\n";
    }
    out += "<text x=\"" + svg_number(x + kBar / 2) + "\" y=\"" + svg_number(kTop + kHeight + 14) +
           "\" text-anchor=\"middle\">" + week.label.substr(week.label.find('W')) + "</text></g>\n";
  }
  for (std::size_t r = 0; r < hours.rows.size(); ++r) {
    const HoursRow& row = hours.rows[r];
    const double y = legend_y + 18 * static_cast<double>(r);
    out += "<rect x=\"0\" y=\"" + svg_number(y - 10) + "\" width=\"12\" height=\"12\" fill=\"" +
           std::string(kColours[r % kColours.size()]) + "\"/><text x=\"18\" y=\"" + svg_number(y) + "\">" +
           preview::markup_escape(row.name) +
           (row.capacity_minutes ? " (capacity " + hours_text(*row.capacity_minutes) + " h a week)" : "") + "</text>\n";
    if (row.capacity_minutes) {
      const double cy = kTop + kHeight - static_cast<double>(*row.capacity_minutes) * scale;
      out += "<line class=\"capacity\" x1=\"" + svg_number(kLeft) + "\" y1=\"" + svg_number(cy) + "\" x2=\"" +
             svg_number(width) + "\" y2=\"" + svg_number(cy) + "\" stroke=\"" +
             std::string(kColours[r % kColours.size()]) + "\" stroke-dasharray=\"4 3\"><title>" +
             preview::markup_escape(row.name) + ": capacity " + hours_text(*row.capacity_minutes) +
             " h a week</title></line>\n";
    }
  }
  return out + "</svg>\n";
}

}  // namespace ptmpl
