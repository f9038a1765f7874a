#include "convert/plan/plan.hpp"

namespace ptmpl::plan {

namespace {

std::optional<int> two_digits(std::string_view text, std::size_t at) {
  if (at + 2 > text.size() || text[at] < '0' || text[at] > '9' || text[at + 1] < '0' || text[at + 1] > '9')
    return std::nullopt;
  return (text[at] - '0') * 10 + (text[at + 1] - '0');
}

// The shape MSPDI writes, `YYYY-MM-DDTHH:MM:SS`, read in one go (two date-times per task); a
// text of any other shape, or not a valid date and time, goes the general way.
std::optional<DateTime> parse_plain_datetime(std::string_view text) {
  if (text.size() != 19 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' || text[16] != ':')
    return std::nullopt;
  int field[6] = {};
  constexpr std::size_t kAt[6] = {0, 5, 8, 11, 14, 17};
  constexpr std::size_t kDigits[6] = {4, 2, 2, 2, 2, 2};
  for (std::size_t f = 0; f < 6; ++f)
    for (std::size_t i = kAt[f]; i < kAt[f] + kDigits[f]; ++i) {
      if (text[i] < '0' || text[i] > '9') return std::nullopt;
      field[f] = field[f] * 10 + (text[i] - '0');
    }
  const std::chrono::year_month_day date{std::chrono::year{field[0]},
                                         std::chrono::month{static_cast<unsigned>(field[1])},
                                         std::chrono::day{static_cast<unsigned>(field[2])}};
  if (field[0] < 1 || !date.ok() || field[3] > 24 || field[4] > 59) return std::nullopt;
  return DateTime{Date{date}, std::min(field[3] * 60 + field[4], 24 * 60)};
}

}  // namespace

std::optional<int> parse_time(std::string_view text) {
  const auto h = two_digits(text, 0);
  const auto m = two_digits(text, 3);
  if (!h || !m || text.size() < 5 || text[2] != ':' || *h > 24 || *m > 59) return std::nullopt;
  return *h * 60 + *m;
}

std::optional<DateTime> parse_datetime(std::string_view text) {
  if (auto plain = parse_plain_datetime(text)) return plain;
  if (text.size() < 10) return std::nullopt;
  const std::optional<Date> date = parse_date(text.substr(0, 10));
  if (!date) return std::nullopt;
  DateTime out{*date, 0};
  if (text.size() == 10) return out;
  if (text[10] != 'T' && text[10] != ' ') return std::nullopt;
  const auto minute = parse_time(text.substr(11));
  if (!minute) return std::nullopt;
  out.minute = std::min(*minute, 24 * 60);
  return out;
}

std::string cell_reference(std::size_t row, std::size_t column) {
  std::string letters;
  for (std::size_t n = column + 1; n > 0; n = (n - 1) / 26)
    letters.insert(letters.begin(), static_cast<char>('A' + (n - 1) % 26));
  return letters + std::to_string(row);
}

std::string describe(const Place& place) {
  static constexpr std::string_view kTables[] = {"", "task", "link", "resource", "assignment", "calendar"};
  if (place.table == Place::Table::None || !place.known()) return "";
  if (place.table == Place::Table::Cell)
    return "cell " +
           cell_reference(static_cast<std::size_t>(place.at) >> 14, static_cast<std::size_t>(place.at) & 0x3FFF);
  return "the " + std::string(kTables[static_cast<std::size_t>(place.table)]) + " table's row " +
         std::to_string(place.at);
}

std::optional<LinkType> link_type_ms_project(std::int64_t code) {
  switch (code) {
    case 0:
      return LinkType::FinishToFinish;
    case 1:
      return LinkType::FinishToStart;
    case 2:
      return LinkType::StartToFinish;
    case 3:
      return LinkType::StartToStart;
    default:
      return std::nullopt;
  }
}

Constraint constraint_ms_project(std::int64_t code) {
  // MS Project numbers them in the enumeration's order.
  return code >= 0 && code < static_cast<std::int64_t>(Constraint::Unknown) ? static_cast<Constraint>(code)
                                                                            : Constraint::Unknown;
}

std::string_view constraint_name(Constraint constraint) {
  static constexpr std::string_view kNames[] = {
      "As Soon As Possible",    "As Late As Possible",   "Must Start On",
      "Must Finish On",         "Start No Earlier Than", "Start No Later Than",
      "Finish No Earlier Than", "Finish No Later Than",  "an unknown constraint"};
  return kNames[static_cast<std::size_t>(constraint)];
}

Format Format::ms_project(std::int64_t code) {
  // The estimated variants (35–53) are the plain ones + 32.
  const std::int64_t base = code >= 35 ? code - 32 : code;
  Format out;
  switch (base) {
    case 3:
    case 4:
      out.unit = Unit::Minutes;
      break;
    case 5:
    case 6:
      out.unit = Unit::Hours;
      break;
    case 9:
    case 10:
      out.unit = Unit::Weeks;
      break;
    case 11:
    case 12:
      out.unit = Unit::Months;
      break;
    case 19:
    case 20:
      out.unit = Unit::Percent;
      break;
    default:
      out.unit = Unit::Days;
      break;
  }
  out.elapsed = base == 4 || base == 6 || base == 8 || base == 10 || base == 12 || base == 20;
  return out;
}

}  // namespace ptmpl::plan
