// Telling the plan formats apart by content (docs/semantics.md §2: detection is by content, not file name).
#include "convert/cfb/compound_file.hpp"
#include "convert/csv.hpp"
#include "convert/findings.hpp"
#include "convert/mpp/mpp.hpp"
#include "convert/p6/p6.hpp"
#include "convert/utf16.hpp"
#include "convert/xlsx/xlsx.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/foreign_plan.hpp"

namespace ptmpl {

PlanFormat detect_plan_format(std::string_view text) {
  // The signatures of the plans the core tells from templates (foreign_plan.hpp), then ours.
  switch (recognise_plan(text)) {
    case ForeignPlan::CompoundFile:
      return detail::is_mpp(text) ? PlanFormat::Mpp : PlanFormat::Unknown;
    case ForeignPlan::Mspdi:
      return PlanFormat::Mspdi;
    case ForeignPlan::Gan:
      return PlanFormat::Gan;
    case ForeignPlan::Pmxml:
      return PlanFormat::Pmxml;
    case ForeignPlan::Xer:
      return PlanFormat::Xer;
    case ForeignPlan::Workbook:
      return PlanFormat::Xlsx;
    case ForeignPlan::None:
      break;
  }
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || text[first] == '<') return PlanFormat::Unknown;
  if (text[first] == '{' || text[first] == '[') return PlanFormat::Template;
  return detail::csv_layout(text) ? PlanFormat::Csv : PlanFormat::Unknown;
}

Result<Conversion> convert_plan(std::string_view text, const std::string& path, const ConvertOptions& options) {
  // A compound file goes to the .mpp reader even when it is not a plan, so that the user hears
  // what is wrong with its container or what it holds instead.
  if (cfb::has_signature(text)) return detail::convert_mpp(text, path, options);
  // The XER reader knows P6's code pages (UTF-16 among them), and a workbook is binary.
  switch (recognise_plan(text)) {
    case ForeignPlan::Xer:
      return detail::convert_xer(text, path, options);
    case ForeignPlan::Workbook:
      return detail::convert_xlsx(text, path, options);
    default:
      break;
  }
  // UTF-16 text (MSPDI as .NET writes it, CSV as Excel's "Unicode text") is read as UTF-8.
  if (const auto order = detail::utf16_order(text)) {
    Result<std::string> utf8 = detail::utf16_to_utf8(text, *order, path);
    if (!utf8.ok()) return utf8.error();
    return convert_plan(utf8.value(), path, options);
  }
  switch (detect_plan_format(text)) {
    case PlanFormat::Mpp:
      return detail::convert_mpp(text, path, options);
    case PlanFormat::Mspdi:
      return convert_mspdi(text, path, options);
    case PlanFormat::Gan:
      return convert_gan(text, path, options);
    case PlanFormat::Csv:
      return convert_csv(text, path, options);
    case PlanFormat::Pmxml:
      return detail::convert_pmxml(text, path, options);
    case PlanFormat::Xer:
      return detail::convert_xer(text, path, options);
    case PlanFormat::Xlsx:
      return detail::convert_xlsx(text, path, options);
    case PlanFormat::Template:
      return Error::usage(
          path +
          ": this is already a template (JSON); see `ptmpl fmt`, or `--to mspdi`, `--to csv` or `--to xlsx` to "
          "write it as MS Project XML, CSV or an Excel workbook");
    case PlanFormat::Unknown:
      break;
  }
  if (auto binary = detail::nul_byte_error(text, path, "not a plan ptmpl reads")) return *binary;
  return Error::invalid(path +
                        ": not a plan ptmpl reads (expected Microsoft Project XML or .mpp, a GanttProject .gan file, "
                        "an Excel workbook, a Primavera P6 XER or PMXML export, or CSV with a header row naming a "
                        "\"title\" column)");
}

std::string day_zero_note(const Conversion& conversion) {
  if (!conversion.day_zero) return "";
  return "day 0 is " + format_date(*conversion.day_zero) + " (" + conversion.day_zero_source +
         "), recorded in the template's calendar block";
}

}  // namespace ptmpl
