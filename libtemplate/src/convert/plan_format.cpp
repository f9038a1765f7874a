// Telling the plan formats apart by content (SPEC §2: detection is by content, not file name).
#include "convert/cfb/compound_file.hpp"
#include "convert/csv.hpp"
#include "convert/mpp/mpp.hpp"
#include "libtemplate/convert.hpp"

namespace ptmpl {

namespace {

// The name of the XML root element that starts at `at` (a '<').
bool root_named(std::string_view text, std::size_t at, std::string_view name) {
  const std::string_view root = text.substr(at + 1, name.size() + 1);
  if (root.size() <= name.size() || root.substr(0, name.size()) != name) return false;
  const char after = root[name.size()];
  return after == '>' || after == '/' || after == ' ' || after == '\t' || after == '\r' || after == '\n';
}

PlanFormat xml_format(std::string_view text, std::size_t first) {
  // The root element: the first '<' not followed by '?' or '!' (prolog, comments, doctype).
  for (std::size_t at = text.find('<', first); at != std::string_view::npos && at < 1 << 16;
       at = text.find('<', at + 1)) {
    if (at + 1 >= text.size() || text[at + 1] == '?' || text[at + 1] == '!') continue;
    if (root_named(text, at, "Project")) return PlanFormat::Mspdi;
    if (root_named(text, at, "project")) return PlanFormat::Gan;
    return PlanFormat::Unknown;
  }
  return PlanFormat::Unknown;
}

}  // namespace

PlanFormat detect_plan_format(std::string_view text) {
  if (cfb::has_signature(text)) return detail::is_mpp(text) ? PlanFormat::Mpp : PlanFormat::Unknown;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return PlanFormat::Unknown;
  if (text[first] == '{' || text[first] == '[') return PlanFormat::Template;
  if (text[first] == '<') return xml_format(text, first);
  return detail::csv_layout(text) ? PlanFormat::Csv : PlanFormat::Unknown;
}

Result<Conversion> convert_plan(std::string_view text, const std::string& path, const ConvertOptions& options) {
  // A compound file goes to the .mpp reader even when it is not a plan, so that the user hears
  // what is wrong with its container or what it holds instead.
  if (cfb::has_signature(text)) return detail::convert_mpp(text, path, options);
  switch (detect_plan_format(text)) {
    case PlanFormat::Mpp:
      return detail::convert_mpp(text, path, options);
    case PlanFormat::Mspdi:
      return convert_mspdi(text, path, options);
    case PlanFormat::Gan:
      return convert_gan(text, path, options);
    case PlanFormat::Csv:
      return convert_csv(text, path, options);
    case PlanFormat::Template:
      return Error::usage(
          path +
          ": this is already a template (JSON); see `ptmpl fmt`, or `--to mspdi` or `--to csv` to write it as "
          "MS Project XML or CSV");
    case PlanFormat::Unknown:
      break;
  }
  return Error::invalid(path +
                        ": not a plan ptmpl reads (expected Microsoft Project XML, a GanttProject .gan file, or CSV "
                        "with a header row naming a \"title\" column)");
}

std::string day_zero_note(const Conversion& conversion) {
  if (!conversion.day_zero) return "";
  return "day 0 is " + format_date(*conversion.day_zero) + " (" + conversion.day_zero_source +
         "), recorded in the template's calendar block";
}

}  // namespace ptmpl
