// A P6 export's project as a template (p6.hpp): the project chosen, then the one builder.
#include <algorithm>

#include "convert/p6/p6.hpp"
#include "convert/plan/builder.hpp"
#include "libtemplate/core/foreign_plan.hpp"

namespace ptmpl::detail {

namespace p6 {

Result<Conversion> convert_file(const File& file, const std::string& path, const ConvertOptions& options,
                                FindingSink& findings) {
  std::string names;
  for (const Project& project : file.projects)
    names += (names.empty() ? "" : ", ") + std::string(project.short_name) + " (" + std::to_string(project.id) + ")";
  std::optional<std::size_t> chosen;
  if (options.project.empty()) {
    if (file.projects.empty()) return Error::invalid(path + ": the P6 export holds no project");
    if (file.projects.size() > 1)
      return Error::usage(path + ": the P6 export holds " + std::to_string(file.projects.size()) +
                          " projects; choose one with --project: " + names);
    chosen = 0;
  } else {
    for (std::size_t i = 0; i < file.projects.size() && !chosen; ++i)
      if (file.projects[i].short_name == options.project || std::to_string(file.projects[i].id) == options.project)
        chosen = i;
    if (!chosen)
      return Error::usage(path + ": the P6 export holds no project \"" + options.project + "\"" +
                          (names.empty() ? std::string(" (it holds none)") : "; it holds " + names));
  }
  const plan::Plan plan = to_plan(file, *chosen, findings);
  return plan::build_template(plan, path, findings, 256 * plan.tasks.size() + 4096);
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
    ConvertOptions one = options;
    std::string id;
    if (projects > 1) one.project = id = std::string(file.value().projects[i].short_name);
    FindingSink findings(text, path, one);
    Result<Conversion> converted = p6::convert_file(file.value(), path, one, findings);
    if (converted.ok()) {
      std::vector<Diagnostic> all = read_findings;
      for (Diagnostic& d : findings.take()) all.push_back(std::move(d));
      std::sort(all.begin(), all.end());  // as one sink sorts them (a text's places)
      converted.value().diagnostics = std::move(all);
    }
    out.emplace_back(std::move(id), std::move(converted));
  }
  return out;
}

}  // namespace ptmpl::detail
