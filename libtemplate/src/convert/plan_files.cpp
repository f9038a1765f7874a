// Many plan files at once (convert.hpp): each read and converted on its own, spread over threads.
#include <optional>
#include <vector>

#include "convert/p6/p6.hpp"
#include "io/worker_pool.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/foreign_plan.hpp"

namespace ptmpl {

namespace {

// The conversion of the file `path`, or of each project of a P6 export that holds several and
// whose options name none (read once).
std::vector<PlanFileConversion> convert_plan_file_projects(const std::string& path, const ConvertOptions& options) {
  std::vector<PlanFileConversion> out;
  if (options.project.empty()) {
    Result<FileText> bytes = FileText::read_text(path, FileText::Compound::kFirstMiB);
    if (bytes.ok()) {
      const ForeignPlan plan = recognise_plan(bytes.value().text());
      if (plan == ForeignPlan::Xer || plan == ForeignPlan::Pmxml) {
        for (auto& [project, conversion] : detail::convert_p6_projects(bytes.value().text(), path, options))
          out.push_back({path, std::move(conversion), std::move(project)});
        return out;
      }
    }
  }
  out.push_back({path, convert_plan_file(path, options)});
  return out;
}

}  // namespace

std::vector<PlanFileConversion> convert_plan_files(std::span<const std::string> paths,
                                                   std::span<const ConvertOptions> options, unsigned jobs) {
  std::vector<std::vector<PlanFileConversion>> done(paths.size());
  detail::for_each_on_workers(
      paths.size(), jobs, [] { return 0; },
      [&](int, std::size_t i) { done[i] = convert_plan_file_projects(paths[i], options[i]); });
  std::vector<PlanFileConversion> out;
  out.reserve(paths.size());
  for (std::vector<PlanFileConversion>& file : done)
    out.insert(out.end(), std::make_move_iterator(file.begin()), std::make_move_iterator(file.end()));
  return out;
}

std::vector<PlanFileConversion> convert_plan_files(std::span<const std::string> paths, const ConvertOptions& options,
                                                   unsigned jobs) {
  const std::vector<ConvertOptions> each(paths.size(), options);
  return convert_plan_files(paths, each, jobs);
}

}  // namespace ptmpl
