// Many plan files at once (convert.hpp): each read and converted on its own, spread over threads.
#include <optional>
#include <vector>

#include "io/worker_pool.hpp"
#include "libtemplate/convert/convert.hpp"

namespace ptmpl {

std::vector<PlanFileConversion> convert_plan_files(std::span<const std::string> paths,
                                                   std::span<const ConvertOptions> options, unsigned jobs) {
  std::vector<std::optional<PlanFileConversion>> done(paths.size());
  detail::for_each_on_workers(
      paths.size(), jobs, [] { return 0; },
      [&](int, std::size_t i) {
        done[i].emplace(PlanFileConversion{paths[i], convert_plan_file(paths[i], options[i])});
      });
  std::vector<PlanFileConversion> out;
  out.reserve(paths.size());
  for (std::optional<PlanFileConversion>& file : done) out.push_back(std::move(*file));
  return out;
}

std::vector<PlanFileConversion> convert_plan_files(std::span<const std::string> paths, const ConvertOptions& options,
                                                   unsigned jobs) {
  const std::vector<ConvertOptions> each(paths.size(), options);
  return convert_plan_files(paths, each, jobs);
}

}  // namespace ptmpl
