// The programs' operator new and delete: an allocation of a huge page or more (the arrays the
// scheduler, the story index and the graph hold a few of per story) gets a mapping of its own
// in huge pages (ptmpl::allocate_large); every other goes to malloc, as the standard library's
// would. On the project's virtual machine a fresh 4 KiB page costs about 14 µs to fault in and
// a 2 MiB one about as much as 8 small ones: `stats` of 100,000 stories took 11,214 page faults,
// most of them in those arrays (docs/performance.md). Only the programs replace these: a user
// of the library keeps the allocator of their own program. Left out under the sanitizers,
// which replace them themselves.
#include <cstdlib>
#include <new>

#include "libtemplate/core/large_allocations.hpp"

#ifndef PTMPL_SANITIZER_ALLOCATOR

namespace {

void* allocate(std::size_t size) {
  if (size >= ptmpl::kLargeAllocation)
    if (void* memory = ptmpl::allocate_large(size)) return memory;
  if (size == 0) size = 1;
  for (;;) {
    if (void* memory = std::malloc(size)) return memory;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

void* allocate_or_null(std::size_t size) noexcept {
  try {
    return allocate(size);
  } catch (...) {
    return nullptr;
  }
}

void release(void* memory) noexcept {
  if (!ptmpl::release_large(memory)) std::free(memory);
}

}  // namespace

void* operator new(std::size_t size) {
  return allocate(size);
}
void* operator new[](std::size_t size) {
  return allocate(size);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return allocate_or_null(size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return allocate_or_null(size);
}
void operator delete(void* memory) noexcept {
  release(memory);
}
void operator delete[](void* memory) noexcept {
  release(memory);
}
void operator delete(void* memory, std::size_t) noexcept {
  release(memory);
}
void operator delete[](void* memory, std::size_t) noexcept {
  release(memory);
}
void operator delete(void* memory, const std::nothrow_t&) noexcept {
  release(memory);
}
void operator delete[](void* memory, const std::nothrow_t&) noexcept {
  release(memory);
}

#endif
