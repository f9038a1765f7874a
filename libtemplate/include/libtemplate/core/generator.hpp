// Synthetic templates of any size, for tests and benchmarks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "libtemplate/core/result.hpp"

namespace ptmpl {

struct GenerateOptions {
  std::size_t stories = 100;        ///< stories at every level
  std::size_t depth = 3;            ///< levels of nesting (1 = no sub_stories), at most 100
  std::optional<std::size_t> deps;  ///< dependency links in all; default: as many as stories
  std::uint64_t seed = 1;
};

/// A valid template document in canonical form: unique integer temp_ids, acyclic links of all
/// four types with lags and leads between leaves, declared dates that satisfy every link,
/// parents spanning their children, budgets and time estimates on leaves, and template
/// metadata (item_count, duration, budget) that agrees with the stories. The same options
/// give the same bytes on every platform. Fails when `deps` asks for more distinct links than
/// the stories' leaves allow (each link reaches back at most 24 leaves); without `deps`, one
/// per story or as many as fit.
[[nodiscard]] Result<std::string> generate_template(const GenerateOptions& options);

}  // namespace ptmpl
