#include "io/mapped_pages.hpp"

#include <cstdint>

#include <sys/mman.h>
#include <unistd.h>

// The system's value (Linux 5.14); where the kernel is older, madvise refuses it with EINVAL.
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

namespace ptmpl::detail {

void* map_pages(std::size_t size) {
  void* pages = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return pages == MAP_FAILED ? nullptr : pages;
}

void unmap_pages(void* pages, std::size_t size) {
  ::munmap(pages, size);
}

void populate_now(void* start, std::size_t size) {
  // Whole pages only: the system refuses a range that does not start on a page.
  static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto at = reinterpret_cast<std::uintptr_t>(start);
  const std::uintptr_t first = (at + page - 1) / page * page;
  if (first < at + size) ::madvise(reinterpret_cast<void*>(first), at + size - first, MADV_POPULATE_WRITE);
}

}  // namespace ptmpl::detail
