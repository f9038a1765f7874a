// A P6 export's project as a template (p6.hpp): the project chosen, then the one builder.
#include <algorithm>
#include <cctype>

#include "convert/p6/p6.hpp"
#include "convert/plan/builder.hpp"
#include "libtemplate/core/foreign_plan.hpp"

namespace ptmpl::detail {

namespace p6 {

namespace {

Result<std::size_t> choose_project(const File& file, const std::string& path, const ConvertOptions& options) {
  std::string names;
  for (const Project& project : file.projects)
    names += (names.empty() ? "" : ", ") + std::string(project.short_name) + " (" + std::to_string(project.id) + ")";
  if (options.project.empty()) {
    if (file.projects.empty()) return Error::invalid(path + ": the P6 export holds no project");
    if (file.projects.size() > 1)
      return Error::usage(path + ": the P6 export holds " + std::to_string(file.projects.size()) +
                          " projects; choose one with --project: " + names);
    return std::size_t{0};
  }
  for (std::size_t i = 0; i < file.projects.size(); ++i)
    if (file.projects[i].short_name == options.project || std::to_string(file.projects[i].id) == options.project)
      return i;
  return Error::usage(path + ": the P6 export holds no project \"" + options.project + "\"" +
                      (names.empty() ? std::string(" (it holds none)") : "; it holds " + names));
}

}  // namespace

Result<Conversion> convert_project(const File& file, std::size_t project, const std::string& path,
                                   FindingSink& findings) {
  const plan::Plan plan = to_plan(file, project, findings);
  return plan::build_template(plan, path, findings, 256 * plan.tasks.size() + 4096);
}

Result<Conversion> convert_file(const File& file, const std::string& path, const ConvertOptions& options,
                                FindingSink& findings) {
  Result<std::size_t> chosen = choose_project(file, path, options);
  if (!chosen.ok()) return chosen.error();
  return convert_project(file, chosen.value(), path, findings);
}

// The part of a template's file name that names project `index`: its ID, with what a file name
// should not hold replaced by `_`; its number when the ID says nothing or another project has it.
std::string file_name_part(const File& file, std::size_t index) {
  const Project& project = file.projects[index];
  std::string out(project.short_name);
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '_';
  const bool shared = std::count_if(file.projects.begin(), file.projects.end(),
                                    [&](const Project& other) { return other.short_name == project.short_name; }) > 1;
  if (shared || out.find_first_not_of('.') == std::string::npos) out = std::to_string(project.id);
  return out;
}

}  // namespace p6

Result<Conversion> convert_xer(std::string_view bytes, const std::string& path, const ConvertOptions& options) {
  Result<std::string> text = p6::decode_xer(bytes, path);
  if (!text.ok()) return text.error();
  FindingSink findings(text.value(), path, options);
  Result<p6::File> file = p6::read_xer(text.value(), path, findings);
  if (!file.ok()) return file.error();
  Result<Conversion> out = p6::convert_file(file.value(), path, options, findings);
  if (out.ok()) out.value().diagnostics = findings.take();
  return out;
}

Result<Conversion> convert_pmxml(std::string_view text, const std::string& path, const ConvertOptions& options) {
  FindingSink findings(text, path, options);
  Result<p6::File> file = p6::read_pmxml(text, path, findings);
  if (!file.ok()) return file.error();
  Result<Conversion> out = p6::convert_file(file.value(), path, options, findings);
  if (out.ok()) out.value().diagnostics = findings.take();
  return out;
}

std::vector<std::pair<std::string, Result<Conversion>>> convert_p6_projects(std::string_view bytes,
                                                                            const std::string& path,
                                                                            const ConvertOptions& options) {
  std::vector<std::pair<std::string, Result<Conversion>>> out;
  std::string decoded;
  std::string_view text = bytes;
  const bool xer = recognise_plan(bytes) == ForeignPlan::Xer;
  if (xer) {
    Result<std::string> utf8 = p6::decode_xer(bytes, path);
    if (!utf8.ok()) return {{"", utf8.error()}};
    decoded = std::move(utf8).value();
    text = decoded;
  }
  FindingSink reading(text, path, options);
  Result<p6::File> file = xer ? p6::read_xer(text, path, reading) : p6::read_pmxml(text, path, reading);
  if (!file.ok()) return {{"", file.error()}};
  const std::vector<Diagnostic> read_findings = reading.take();
  const std::size_t projects = file.value().projects.size();
  for (std::size_t i = 0; i < std::max<std::size_t>(projects, 1); ++i) {
    FindingSink findings(text, path, options);
    const std::string id = projects > 1 ? p6::file_name_part(file.value(), i) : std::string();
    Result<Conversion> converted = projects > 1 ? p6::convert_project(file.value(), i, path, findings)
                                                : p6::convert_file(file.value(), path, options, findings);
    if (converted.ok()) {
      // The reading's findings go with the first project's template, not with each.
      std::vector<Diagnostic> all = i == 0 ? read_findings : std::vector<Diagnostic>();
      for (Diagnostic& d : findings.take()) all.push_back(std::move(d));
      std::sort(all.begin(), all.end());  // as one sink sorts them (a text's places)
      converted.value().diagnostics = std::move(all);
    }
    out.emplace_back(std::move(id), std::move(converted));
  }
  return out;
}

}  // namespace ptmpl::detail
