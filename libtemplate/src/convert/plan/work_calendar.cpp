#include "convert/plan/work_calendar.hpp"

#include <algorithm>
#include <queue>

namespace ptmpl::plan {

const Calendar* find_calendar(const std::vector<Calendar>& calendars, std::int64_t uid) {
  for (const Calendar& c : calendars)
    if (c.uid == uid) return &c;
  return nullptr;
}

WorkCalendar::WorkCalendar() {
  for (std::size_t d = 0; d < 7; ++d) week_[d].working = d >= 1 && d <= 5;
}

WorkCalendar WorkCalendar::read(const std::vector<Calendar>& calendars, std::int64_t uid,
                                std::vector<CalendarNote>& notes) {
  // The chain of base calendars, the calendar itself last.
  std::vector<const Calendar*> chain;
  for (std::int64_t next = uid; chain.size() < 16;) {
    const Calendar* found = find_calendar(calendars, next);
    if (found == nullptr || std::find(chain.begin(), chain.end(), found) != chain.end()) break;
    chain.push_back(found);
    const std::optional<std::int64_t> base = found->base_uid;
    if (!base || *base < 0 || found->is_base) break;
    next = *base;
  }
  WorkCalendar calendar;
  int level = 0;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) calendar.apply(**it, level++, notes);
  return calendar;
}

bool WorkCalendar::plain_child_of(const std::vector<Calendar>& calendars, std::int64_t uid, std::int64_t base) {
  const Calendar* calendar = find_calendar(calendars, uid);
  return calendar != nullptr && calendar->base_uid == base && !calendar->is_base && calendar->week_days.empty() &&
         calendar->exceptions.empty() && !calendar->has_work_weeks;
}

void WorkCalendar::apply(const Calendar& calendar, int level, std::vector<CalendarNote>& notes) {
  for (const WeekDay& weekday : calendar.week_days) {
    if (weekday.type >= 1 && weekday.type <= 7) {
      week_[static_cast<std::size_t>(weekday.type - 1)] = weekday.rule;
    } else if (weekday.type == 0 && weekday.from && weekday.to && *weekday.from <= *weekday.to) {
      // Project 2003 and older: an exception as a week day with a period
      exceptions_.push_back(DateRule{*weekday.from, *weekday.to, weekday.rule, level});
    }
  }
  for (const CalendarException& exception : calendar.exceptions) {
    if (!exception.from || !exception.to || *exception.to < *exception.from) continue;
    const DateRule rule{*exception.from, *exception.to, exception.rule, level};
    auto note = [&](const std::string& what) {
      notes.push_back({exception.place, "calendar exception \"" + std::string(exception.name) + "\" " + what});
    };
    // Type 1 (daily) every day of the range is a plain exception, as is one without a Type.
    const std::int64_t type = exception.type.value_or(1);
    if (type < 1 || type > 7) {
      note("recurs in a way ptmpl does not read (Type " + std::to_string(type) + "); it is applied to every day from " +
           format_date(rule.from) + " to " + format_date(rule.to));
      exceptions_.push_back(rule);
      continue;
    }
    Recurrence r;
    r.from = rule.from;
    r.to = rule.to;
    r.rule = rule.rule;
    r.level = level;
    r.source = &exception;
    // No period, or one below 1, is every day, week or month (as MS Project reads it); one
    // beyond any span a calendar covers recurs no second time, as a billion days do.
    r.period = std::clamp<std::int64_t>(exception.period.value.value_or(1), 1, 1'000'000'000);
    std::string missing;  // the field that names no date, if any
    auto need = [&](const char* name, const RecurrenceField& field, std::int64_t lo, std::int64_t hi, unsigned& out) {
      if (field.value && *field.value >= lo && *field.value <= hi) {
        out = static_cast<unsigned>(*field.value);
      } else if (missing.empty()) {
        const std::string text =
            !field.text.empty() || !field.value ? std::string(field.text) : std::to_string(*field.value);
        missing = std::string(name) + " " + (field.written ? "\"" + text + "\"" : std::string("missing"));
      }
    };
    switch (type) {
      case 1:
      case 7:
        r.kind = Recurrence::Kind::daily;
        break;
      case 2:
      case 3:
        r.kind = Recurrence::Kind::yearly;
        need("Month", exception.month, 0, 11, r.month);
        ++r.month;
        break;
      case 4:
      case 5:
        r.kind = Recurrence::Kind::monthly;
        break;
      default:
        r.kind = Recurrence::Kind::weekly;
        need("DaysOfWeek", exception.days_of_week, 1, 127, r.days_of_week);
        break;
    }
    r.relative = type == 3 || type == 5;
    if (type == 2 || type == 4) need("MonthDay", exception.month_day, 1, 31, r.month_day);
    if (r.relative) {
      need("MonthItem", exception.month_item, 0, 9, r.item);
      need("MonthPosition", exception.month_position, 0, 4, r.position);
    }
    if (exception.period.written && !exception.period.value && missing.empty())
      missing = "Period \"" + std::string(exception.period.text) + "\"";
    if (!missing.empty()) {
      note("recurs (Type " + std::to_string(type) + ") on no date it names (" + missing + "); it is not applied");
      continue;
    }
    if (r.kind == Recurrence::Kind::daily && r.period == 1) {
      exceptions_.push_back(rule);  // every day of its range: a plain exception
      continue;
    }
    recurrences_.push_back(r);
  }
}

namespace {

using std::chrono::days;

std::int64_t month_index(Date date) {
  const std::chrono::year_month_day ymd{date};
  return static_cast<std::int64_t>(static_cast<int>(ymd.year())) * 12 + static_cast<unsigned>(ymd.month()) - 1;
}

// The day of month `index` (year × 12 + month − 1) on which `r` falls.
Date date_in_month(const Recurrence& r, std::int64_t index) {
  const auto year = std::chrono::year{static_cast<int>(index / 12)};
  const auto month = std::chrono::month{static_cast<unsigned>(index % 12) + 1};
  const unsigned length =
      static_cast<unsigned>(std::chrono::year_month_day_last{year, std::chrono::month_day_last{month}}.day());
  const Date first = std::chrono::year_month_day{year, month, std::chrono::day{1}};
  if (!r.relative) return first + days{std::min(r.month_day, length) - 1};
  // The first…fourth or last day of the month of the kind `item` names.
  auto matches = [&](Date d) {
    const unsigned weekday = std::chrono::weekday{d}.c_encoding();  // 0 = Sunday
    switch (r.item) {
      case 0:
        return true;
      case 1:
        return weekday >= 1 && weekday <= 5;
      case 2:
        return weekday == 0 || weekday == 6;
      default:
        return weekday == r.item - 3;
    }
  };
  Date found = first;
  unsigned seen = 0;
  for (unsigned i = 0; i < length; ++i) {
    const Date d = first + days{i};
    if (!matches(d)) continue;
    found = d;
    if (r.position < 4 && ++seen == r.position + 1) break;
  }
  return found;
}

// Calls `place` with each date from `first` to `last` on which `r` recurs (MS Project's rules:
// weekly and monthly periods count from the week or month of the first occurrence), each step
// counted against `budget`; false, with the date reached in `stopped`, when it runs out.
template <typename Place>
bool each_occurrence(const Recurrence& r, Date first, Date last, std::int64_t& budget, Date& stopped, Place&& place) {
  const Date lo = std::max(first, r.from);
  const Date hi = std::min(last, r.to);
  if (hi < lo) return true;
  auto step = [&](Date at) {
    if (--budget >= 0) return true;
    stopped = at;
    return false;
  };
  switch (r.kind) {
    case Recurrence::Kind::daily: {
      const std::int64_t end = (hi - r.from).count();
      for (std::int64_t at = ((lo - r.from).count() + r.period - 1) / r.period * r.period; at <= end; at += r.period) {
        const Date d = r.from + days{at};
        if (!step(d)) return false;
        place(d);
      }
      return true;
    }
    case Recurrence::Kind::weekly: {
      const Date sunday = r.from - days{std::chrono::weekday{r.from}.c_encoding()};
      const std::int64_t cycle = 7 * r.period;
      const std::int64_t end = (hi - sunday).count();
      for (std::int64_t at = (lo - sunday).count() / cycle * cycle; at <= end; at += cycle) {
        if (!step(sunday + days{at})) return false;
        for (unsigned i = 0; i < 7; ++i) {
          const Date d = sunday + days{at + i};
          if ((r.days_of_week >> i & 1U) != 0 && lo <= d && d <= hi) place(d);
        }
      }
      return true;
    }
    case Recurrence::Kind::monthly:
    case Recurrence::Kind::yearly: {
      const bool monthly = r.kind == Recurrence::Kind::monthly;
      // The month the count starts from: the first's, or for a day of the month already
      // past in it (a 4th from the 20th), the next.
      std::int64_t base = month_index(r.from);
      if (!monthly) base = base / 12 * 12 + (r.month - 1);
      if (!r.relative && monthly && date_in_month(r, base) < r.from) ++base;
      const std::int64_t period = monthly ? r.period : 12;
      const std::int64_t from_lo = month_index(lo) - base;
      for (std::int64_t at = base + (from_lo > 0 ? from_lo / period * period : 0); at <= month_index(hi);
           at += period) {
        const Date d = date_in_month(r, at);
        if (!step(d)) return false;
        if (lo <= d && d <= hi) place(d);
      }
      return true;
    }
  }
  return true;
}

}  // namespace

void WorkCalendar::place_plain_exceptions() {
  // The plain exception in force on each day is the last one that covers it: a sweep over the
  // days with the exceptions begun so far, the latest on top, in O((days + exceptions) log
  // exceptions) whatever their number (a scan of all of them per day was quadratic).
  const auto days = static_cast<std::int64_t>(expanded_.size());
  std::vector<std::pair<std::int64_t, std::int32_t>> starts;  // (first day, index), by day
  for (std::size_t k = 0; k < exceptions_.size(); ++k) {
    const std::int64_t from = std::max<std::int64_t>((exceptions_[k].from - expanded_first_).count(), 0);
    if (from < days && exceptions_[k].to >= expanded_first_ + std::chrono::days{from})
      starts.emplace_back(from, static_cast<std::int32_t>(k));
  }
  std::sort(starts.begin(), starts.end());
  std::priority_queue<std::int32_t> open;  // indices of the exceptions begun; ended ones leave lazily
  std::size_t next = 0;
  for (std::int64_t d = 0; d < days; ++d) {
    for (; next < starts.size() && starts[next].first == d; ++next) open.push(starts[next].second);
    const Date date = expanded_first_ + std::chrono::days{d};
    while (!open.empty() && exceptions_[static_cast<std::size_t>(open.top())].to < date) open.pop();
    plain_[static_cast<std::size_t>(d)] = open.empty() ? -1 : open.top();
  }
}

void WorkCalendar::expand(Date first, Date last, std::vector<CalendarNote>& notes) {
  expanded_.clear();
  plain_.clear();
  // 400 years of dates and the margins around them, as the reader converts at most.
  if (last < first || (last - first).count() > 366 * 403) return;
  expanded_first_ = first;
  expanded_.assign(static_cast<std::size_t>((last - first).count()) + 1, -1);
  plain_.assign(expanded_.size(), -1);
  place_plain_exceptions();
  if (recurrences_.empty()) return;
  // MS Project's precedence: a base calendar's below its child's; within one calendar weekly,
  // then monthly, yearly and daily recurrences, each over the ones before (and later ones in
  // the file over earlier ones of their kind); plain exceptions over all (see day()).
  std::vector<std::size_t> order(recurrences_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const Recurrence& x = recurrences_[a];
    const Recurrence& y = recurrences_[b];
    return x.level != y.level ? x.level < y.level : x.kind < y.kind;
  });
  std::int64_t budget = kMaxOccurrences;
  for (const std::size_t i : order) {
    const Recurrence& r = recurrences_[i];
    Date stopped;
    const bool whole = each_occurrence(r, first, last, budget, stopped, [&](Date d) {
      expanded_[static_cast<std::size_t>((d - first).count())] = static_cast<std::int32_t>(i);
    });
    if (!whole) {
      notes.push_back(
          {r.source->place, "calendar exception \"" + std::string(r.source->name) +
                                "\" recurs more often than ptmpl expands (" + std::to_string(kMaxOccurrences) +
                                " occurrences of all recurring exceptions together, from " + format_date(first) +
                                " to " + format_date(last) + "); from " + format_date(stopped) +
                                " on, it and the recurring exceptions after it are not applied"});
      break;
    }
  }
}

WorkWeek WorkCalendar::week() const {
  WorkWeek out;
  for (unsigned d = 0; d < 7; ++d)
    if (week_[d].working) out.add(std::chrono::weekday{d});
  return out;
}

DayRule WorkCalendar::day(Date date) const {
  const std::int64_t i = (date - expanded_first_).count();
  const bool placed = i >= 0 && i < static_cast<std::int64_t>(expanded_.size());
  const DateRule* plain = nullptr;
  if (placed) {
    if (const std::int32_t k = plain_[static_cast<std::size_t>(i)]; k >= 0)
      plain = &exceptions_[static_cast<std::size_t>(k)];
  } else {  // outside the days expand() placed: the last exception that covers it
    for (auto it = exceptions_.rbegin(); it != exceptions_.rend(); ++it)
      if (it->from <= date && date <= it->to) {
        plain = &*it;
        break;
      }
  }
  // A recurring exception gives way to a plain one of its calendar or of a calendar based on it.
  if (placed && expanded_[static_cast<std::size_t>(i)] >= 0) {
    const Recurrence& r = recurrences_[static_cast<std::size_t>(expanded_[static_cast<std::size_t>(i)])];
    if (plain == nullptr || r.level > plain->level) return r.rule;
  }
  if (plain != nullptr) return plain->rule;
  const unsigned weekday = std::chrono::weekday{date}.c_encoding();  // 0 = Sunday
  return week_[weekday];
}

}  // namespace ptmpl::plan
