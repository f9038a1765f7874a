// Shared by the unit tests: how far the process's resident memory rises while a call runs.
#pragma once

#include <fstream>
#include <optional>
#include <string>

// GCC defines __SANITIZE_ADDRESS__ under -fsanitize=address; clang 14 only answers
// __has_feature(address_sanitizer).
#if defined(__SANITIZE_ADDRESS__)
#define PTMPL_TESTING_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PTMPL_TESTING_UNDER_ASAN 1
#endif
#endif
#ifndef PTMPL_TESTING_UNDER_ASAN
#define PTMPL_TESTING_UNDER_ASAN 0
#endif

namespace ptmpl::testing {

namespace detail {

// A "Name:   123 kB" line of /proc/self/status, in KiB.
inline std::optional<long> status_kib(const std::string& name) {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind(name + ":", 0) == 0) return std::stol(line.substr(name.size() + 1));
  return std::nullopt;
}

}  // namespace detail

/// How many KiB above the resident memory it started from the process's peak (VmHWM) rose while
/// `run` ran; nullopt where Linux's /proc does not let a process reset its peak
/// (/proc/self/clear_refs "5", Linux 4.0 and later), and under AddressSanitizer, whose shadow
/// memory and quarantine of freed blocks make the figure another program's (`run` still runs).
/// The peak is reset first, so what earlier tests used does not hide what `run` uses.
template <class Run>
std::optional<long> peak_rise_kib(Run&& run) {
#if PTMPL_TESTING_UNDER_ASAN
  run();
  return std::nullopt;
#else
  if (!(std::ofstream("/proc/self/clear_refs") << "5").flush()) return std::nullopt;
  const std::optional<long> start = detail::status_kib("VmRSS");
  run();
  const std::optional<long> peak = detail::status_kib("VmHWM");
  if (!start || !peak) return std::nullopt;
  return *peak - *start;
#endif
}

}  // namespace ptmpl::testing
