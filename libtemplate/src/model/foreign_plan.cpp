// Telling another program's plan from a template by its first bytes (foreign_plan.hpp).
#include "libtemplate/core/foreign_plan.hpp"

namespace ptmpl {

namespace {

// The name of the XML element that starts at `at` (a '<') is `name`.
bool element_named(std::string_view text, std::size_t at, std::string_view name) {
  const std::string_view tag = text.substr(at + 1, name.size() + 1);
  if (tag.size() <= name.size() || tag.substr(0, name.size()) != name) return false;
  const char after = tag[name.size()];
  return after == '>' || after == '/' || after == ' ' || after == '\t' || after == '\r' || after == '\n';
}

// "MPP14" when the bytes hold a compound file's `\1CompObj` format string ("MSProject.MPP14"):
// a small stream, whose bytes usually lie together in the file (not always: the core reads no
// sectors, convert does). Empty when it is not found.
std::string mpp_format_in(std::string_view bytes) {
  constexpr std::string_view kFormat = "MSProject.MPP";
  const std::size_t at = bytes.find(kFormat);
  if (at == std::string_view::npos) return "";
  std::size_t end = at + kFormat.size();
  while (end < bytes.size() && end - at < kFormat.size() + 2 && bytes[end] >= '0' && bytes[end] <= '9') ++end;
  return std::string(bytes.substr(at + 10, end - at - 10));
}

// A name a shell takes as one word: as it is when it is plain, else in single quotes.
std::string shell_word(const std::string& word) {
  const bool plain = !word.empty() && word.find_first_not_of(
                                          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                          "0123456789._-/+:@%,") == std::string::npos;
  if (plain) return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Where `ptmpl convert` could write the template: the file's name with .json for its
// extension (or .template.json beside a .json, never over the plan itself).
std::string template_name_for(const std::string& path) {
  if (path.empty() || path == "-") return "plan.json";
  const std::size_t slash = path.find_last_of('/');
  const std::size_t dot = path.find_last_of('.');
  const bool has_extension = dot != std::string::npos && (slash == std::string::npos || dot > slash + 1);
  const std::string stem = has_extension ? path.substr(0, dot) : path;
  const std::string extension = has_extension ? path.substr(dot) : "";
  return stem + (extension == ".json" ? ".template.json" : ".json");
}

}  // namespace

ForeignPlan recognise_plan(std::string_view bytes) {
  constexpr std::string_view kCompoundFile{"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", 8};
  if (bytes.starts_with(kCompoundFile)) return ForeignPlan::CompoundFile;
  // A zip's local file headers name their parts: a workbook's are under xl/ (its first is
  // usually [Content_Types].xml, the rest follow within a few KiB).
  if (bytes.starts_with("PK\x03\x04"))
    return bytes.substr(0, std::size_t{1} << 16).find("xl/") != std::string_view::npos ? ForeignPlan::Workbook
                                                                                       : ForeignPlan::None;
  // P6 writes an XER in the machine's code page, or in UTF-16 with a byte order mark.
  constexpr std::string_view kXerUtf16{
      "\xFF\xFE"
      "E\0R\0M\0H\0D\0R\0",
      14};
  if (bytes.starts_with(kXerUtf16)) return ForeignPlan::Xer;
  if (bytes.starts_with("\xEF\xBB\xBF")) bytes.remove_prefix(3);
  if (bytes.starts_with("ERMHDR")) return ForeignPlan::Xer;
  const std::size_t first = bytes.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || bytes[first] != '<') return ForeignPlan::None;
  // The root element: the first '<' not followed by '?' or '!' (prolog, comments, doctype).
  for (std::size_t at = bytes.find('<', first); at != std::string_view::npos && at < std::size_t{1} << 16;
       at = bytes.find('<', at + 1)) {
    if (at + 1 >= bytes.size() || bytes[at + 1] == '?' || bytes[at + 1] == '!') continue;
    if (element_named(bytes, at, "Project")) return ForeignPlan::Mspdi;
    if (element_named(bytes, at, "project")) return ForeignPlan::Gan;
    // P6's root is in a namespace of its version, which a writer may give a prefix (`p6:`).
    std::size_t local = at;
    const std::size_t name_end = bytes.find_first_of(" \t\r\n/>:", at + 1);
    if (name_end != std::string_view::npos && bytes[name_end] == ':') local = name_end;
    if (element_named(bytes, local, "APIBusinessObjects")) return ForeignPlan::Pmxml;
    return ForeignPlan::None;
  }
  return ForeignPlan::None;
}

std::optional<Error> plan_instead_of_template(std::string_view bytes, const std::string& path) {
  std::string what;
  std::string way_out = "convert it first";
  switch (recognise_plan(bytes)) {
    case ForeignPlan::None:
      return std::nullopt;
    case ForeignPlan::CompoundFile:
      if (const std::string format = mpp_format_in(bytes); !format.empty()) {
        what = "a Microsoft Project file (" + format + ")";
      } else {
        what = "a compound file (the container of Microsoft Project's .mpp files and of Office 97-2003 documents)";
        way_out = "if it is a Microsoft Project plan, convert it first";
      }
      break;
    case ForeignPlan::Mspdi:
      what = "a Microsoft Project XML file (MSPDI)";
      break;
    case ForeignPlan::Gan:
      what = "a GanttProject file (.gan)";
      break;
    case ForeignPlan::Pmxml:
      what = "a Primavera P6 export (PMXML)";
      break;
    case ForeignPlan::Xer:
      what = "a Primavera P6 export (XER)";
      break;
    case ForeignPlan::Workbook:
      what = "an Excel workbook (.xlsx)";
      break;
  }
  return Error::invalid(path + ": " + what + ", not a template: " + way_out + ": ptmpl convert " + shell_word(path) +
                        " -o " + shell_word(template_name_for(path)));
}

}  // namespace ptmpl
