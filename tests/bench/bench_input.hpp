// Inputs shared by the benchmarks: a synthetic template of PTMPL_BENCH_STORIES stories
// (default 100,000), generated once per process.
#pragma once

#include <cstdlib>
#include <string>

#include "libtemplate/generator.hpp"

namespace ptmpl::bench {

inline const std::string& large_template() {
  static const std::string text = [] {
    GenerateOptions options;
    const char* stories = std::getenv("PTMPL_BENCH_STORIES");
    options.stories = stories != nullptr ? std::strtoull(stories, nullptr, 10) : 100'000;
    options.depth = 4;
    options.seed = 1;
    return generate_template(options).value();
  }();
  return text;
}

}  // namespace ptmpl::bench
