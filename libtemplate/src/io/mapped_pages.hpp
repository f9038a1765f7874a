// Anonymous memory mapped from the system: the one place that maps it, for the inputs
// file_io.cpp reads and the JSON arena's chunks, and that has it made resident ahead of use.
#pragma once

#include <cstddef>

namespace ptmpl::detail {

/// A huge page: the unit in which the system backs memory advised MADV_HUGEPAGE.
inline constexpr std::size_t kHugePageSize = std::size_t{2} << 20;

/// `size` bytes of zeroed address space whose pages become resident only when touched; with
/// `huge_pages`, advised to come in huge pages (advice: ignored where the system has none).
/// Null when the system refuses. Given back with unmap_pages().
[[nodiscard]] void* map_pages(std::size_t size, bool huge_pages);

/// Gives back pages of map_pages(), once no background population (below) is at work in them.
void unmap_pages(void* pages, std::size_t size);

/// Asks a background thread to make `size` bytes from `start` (inside pages of map_pages())
/// resident, so that the thread that fills them next finds them ready: the system's zeroing of
/// fresh pages then runs on another core, beside the work that fills them. Only advice: it does
/// nothing where the system cannot populate pages (MADV_POPULATE_WRITE, Linux 5.14) and never
/// changes what the memory holds.
void populate_in_background(void* start, std::size_t size);

/// Makes `size` bytes from `start` (inside pages of map_pages()) resident now, in one call: a
/// region of small pages that is about to be filled whole faults in at about half the cost
/// page by page (5.5 against 11 µs a page, measured on the project's virtual machine). Only
/// advice, as above.
void populate_now(void* start, std::size_t size);

}  // namespace ptmpl::detail
