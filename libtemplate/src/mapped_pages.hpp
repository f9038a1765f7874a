// Anonymous memory mapped from the system: the one place that maps it, for the inputs
// file_io.cpp reads and the JSON arena's chunks.
#pragma once

#include <cstddef>

#include <sys/mman.h>

namespace ptmpl::detail {

/// `size` bytes of zeroed address space whose pages become resident only when touched; with
/// `huge_pages`, advised to come in huge pages (advice: ignored where the system has none).
/// Null when the system refuses. Given back with ::munmap(pages, size).
inline void* map_pages(std::size_t size, bool huge_pages) {
  void* pages = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (pages == MAP_FAILED) return nullptr;
#ifdef MADV_HUGEPAGE
  if (huge_pages) ::madvise(pages, size, MADV_HUGEPAGE);
#endif
  return pages;
}

}  // namespace ptmpl::detail
