// Large allocations in huge pages: what a program's operator new may use for its large arrays
// (tools/ptmpl/large_allocations.cpp does), so that such an array costs a page fault per 2 MiB
// rather than one per 4 KiB.
#pragma once

#include <cstddef>

// Whether a sanitizer replaces operator new itself (GCC says so with __SANITIZE_*__, clang
// before 17 only through __has_feature): the programs then keep its.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PTMPL_SANITIZER_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define PTMPL_SANITIZER_ALLOCATOR 1
#endif
#endif

namespace ptmpl {

/// Whether tools/ptmpl/large_allocations.cpp replaces operator new in this build.
#ifdef PTMPL_SANITIZER_ALLOCATOR
inline constexpr bool kProgramsReplaceOperatorNew = false;
#else
inline constexpr bool kProgramsReplaceOperatorNew = true;
#endif

/// The smallest allocation allocate_large() takes: one huge page.
inline constexpr std::size_t kLargeAllocation = std::size_t{2} << 20;

/// Memory for `size` bytes (at least kLargeAllocation) of its own: a mapping that starts on a
/// huge page and is advised to come in huge pages. Only the 2 MiB pieces it wholly covers can
/// be huge pages, its tail is in small pages; a huge piece is resident whole once any byte of
/// it is touched, so memory asked for and never touched (a vector's spare capacity) may hold up
/// to 2 MiB more than small pages would. Null when
/// `size` is smaller, the system refuses, or a few hundred are held already: the caller then
/// allocates as usual. Never allocates through operator new. Thread-safe.
[[nodiscard]] void* allocate_large(std::size_t size) noexcept;

/// Gives back `memory` and returns true when allocate_large() gave it; returns false, leaving
/// it alone, for any other pointer (null included). Thread-safe.
bool release_large(void* memory) noexcept;

}  // namespace ptmpl
