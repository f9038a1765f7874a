// Anonymous memory mapped from the system: the one place that maps it, for the inputs
// file_io.cpp reads and the JSON arena's chunks.
#pragma once

#include <cstddef>

namespace ptmpl::detail {

/// `size` bytes of zeroed address space whose pages become resident only when touched. Null
/// when the system refuses. Given back with unmap_pages().
[[nodiscard]] void* map_pages(std::size_t size);

/// Gives back pages of map_pages().
void unmap_pages(void* pages, std::size_t size);

/// Makes `size` bytes from `start` (inside pages of map_pages()) resident now, in one call: a
/// region that is about to be filled whole faults in at about half the cost page by page (5.5
/// against 11 µs a page, measured on the project's virtual machine). Only advice: it does
/// nothing where the system cannot populate pages (MADV_POPULATE_WRITE, Linux 5.14) and never
/// changes what the memory holds.
void populate_now(void* start, std::size_t size);

}  // namespace ptmpl::detail
