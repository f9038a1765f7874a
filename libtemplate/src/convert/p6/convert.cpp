// A P6 export's project as a template (p6.hpp): the project chosen, then the one builder.
#include "convert/p6/p6.hpp"
#include "convert/plan/builder.hpp"

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

}  // namespace ptmpl::detail
