// Inputs shared by the benchmarks: a synthetic template of PTMPL_BENCH_STORIES stories
// (default 100,000), generated once per process.
#pragma once

#include <cstdlib>
#include <memory_resource>
#include <string>

#include "libtemplate/core/generator.hpp"
#include "libtemplate/core/json.hpp"

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

/// Where the benchmarks' trees take their memory: a pool kept from one iteration to the next, as
/// a program reading file after file keeps one (lint_files does; json::Arena).
inline std::pmr::memory_resource* arena_blocks() {
  static std::pmr::synchronized_pool_resource pool(json::Arena::kPoolOptions);
  return &pool;
}

}  // namespace ptmpl::bench
