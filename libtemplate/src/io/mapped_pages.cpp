#include "io/mapped_pages.hpp"

#include <array>
#include <atomic>

#include <cerrno>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <system_error>
#include <thread>

#include "libtemplate/core/large_allocations.hpp"

#include <pthread.h>

#include <sys/mman.h>
#include <unistd.h>

// The system's value (Linux 5.14); where the kernel is older, madvise refuses it with EINVAL
// and population stops being asked for.
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

namespace ptmpl::detail {

namespace {

struct Range {
  std::uintptr_t start;
  std::uintptr_t end;
  [[nodiscard]] bool overlaps(Range other) const { return start < other.end && other.start < end; }
};

// One thread, started on first use, populates the ranges asked for, in order. Never destroyed
// (as the thread may outlive static destruction at exit): it waits for work until the process ends.
class Populator {
 public:
  Populator() {
    // A child of fork() has no populating thread: it starts its own on first use, with a
    // lock that is not held (held across the fork, it could never be taken again).
    ::pthread_atfork([] { instance().mutex_.lock(); }, [] { instance().mutex_.unlock(); },
                     [] {
                       Populator& self = instance();
                       self.queue_.clear();
                       self.busy_ = false;
                       self.started_ = false;
                       self.mutex_.unlock();
                     });
  }

  static Populator& instance() {
    static auto* populator = new Populator;
    return *populator;
  }

  void ask(Range range) {
    std::lock_guard lock(mutex_);
    if (unsupported_) return;
    queue_.push_back(range);
    if (!started_) {
      try {
        std::thread([this] { run(); }).detach();
        started_ = true;
      } catch (const std::system_error&) {
        // No thread to be had (a limit on threads): population is advice, so none is asked for.
        unsupported_ = true;
        queue_.clear();
        return;
      }
    }
    work_.notify_one();
  }

  // Drops what is asked for inside `range` and waits while the thread is at work in it.
  void forget(Range range) {
    std::unique_lock lock(mutex_);
    std::erase_if(queue_, [&](Range queued) { return queued.overlaps(range); });
    idle_.wait(lock, [&] { return !busy_ || !current_.overlaps(range); });
  }

 private:
  void run() {
    std::unique_lock lock(mutex_);
    for (;;) {
      work_.wait(lock, [&] { return !queue_.empty(); });
      current_ = queue_.front();
      queue_.pop_front();
      busy_ = true;
      lock.unlock();
      const int result =
          ::madvise(reinterpret_cast<void*>(current_.start), current_.end - current_.start, MADV_POPULATE_WRITE);
      const bool refused = result != 0 && errno == EINVAL;
      lock.lock();
      busy_ = false;
      if (refused) {
        unsupported_ = true;
        queue_.clear();
      }
      idle_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable work_;
  std::condition_variable idle_;
  std::deque<Range> queue_;
  Range current_{0, 0};
  bool busy_ = false;
  bool started_ = false;
  bool unsupported_ = false;
};

Populator& populator() {
  return Populator::instance();
}

Range range_of(void* start, std::size_t size) {
  const auto at = reinterpret_cast<std::uintptr_t>(start);
  return {at, at + size};
}

// The whole pages of `size` bytes from `start` (the system refuses a range that does not start
// on a page); empty when there is none.
Range whole_pages(void* start, std::size_t size) {
  static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  Range range = range_of(start, size);
  range.start = (range.start + page - 1) / page * page;
  if (range.start > range.end) range.start = range.end;
  return range;
}

}  // namespace

void* map_pages(std::size_t size, bool huge_pages) {
  void* pages = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (pages == MAP_FAILED) return nullptr;
#ifdef MADV_HUGEPAGE
  if (huge_pages) ::madvise(pages, size, MADV_HUGEPAGE);
#endif
  return pages;
}

void unmap_pages(void* pages, std::size_t size) {
  populator().forget(range_of(pages, size));
  ::munmap(pages, size);
}

void populate_in_background(void* start, std::size_t size) {
  const Range range = whole_pages(start, size);
  if (range.start < range.end) populator().ask(range);
}

void populate_now(void* start, std::size_t size) {
  const Range range = whole_pages(start, size);
  if (range.start < range.end)
    ::madvise(reinterpret_cast<void*>(range.start), range.end - range.start, MADV_POPULATE_WRITE);
}

}  // namespace ptmpl::detail

namespace ptmpl {

namespace {

constexpr std::uintptr_t kHugePage = detail::kHugePageSize;
static_assert(kLargeAllocation == detail::kHugePageSize);

// The large allocations held: where each starts (0: a free slot) and how many bytes it maps.
// Slots are claimed and freed with atomic operations only, without a lock, so that a child of
// fork() never finds one held.
struct LargeSlot {
  std::atomic<std::uintptr_t> start{0};
  std::atomic<std::size_t> bytes{0};
};
std::array<LargeSlot, 512> large_slots;

}  // namespace

void* allocate_large(std::size_t size) noexcept {
  // Read each time (from the auxiliary vector, no system call): a function's static would be
  // guarded by a lock, which a child of fork() could find held.
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  if (size < kLargeAllocation || size > (std::size_t{1} << 46)) return nullptr;
  const std::size_t bytes = (size + page - 1) / page * page;
  // Mapped with a huge page's worth to spare, then trimmed to start on a huge page: the system
  // gives a huge page only for an aligned 2 MiB that the mapping wholly covers.
  const std::size_t spare = kHugePage - page;
  void* mapped = ::mmap(nullptr, bytes + spare, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) return nullptr;
  const auto at = reinterpret_cast<std::uintptr_t>(mapped);
  const std::uintptr_t start = (at + kHugePage - 1) / kHugePage * kHugePage;
  if (start > at) ::munmap(mapped, start - at);
  if (const std::uintptr_t end = at + bytes + spare; end > start + bytes)
    ::munmap(reinterpret_cast<void*>(start + bytes), end - (start + bytes));
#ifdef MADV_HUGEPAGE
  ::madvise(reinterpret_cast<void*>(start), bytes, MADV_HUGEPAGE);
#endif
  for (LargeSlot& slot : large_slots) {
    std::uintptr_t free_slot = 0;
    if (slot.start.load(std::memory_order_relaxed) == 0 &&
        slot.start.compare_exchange_strong(free_slot, start, std::memory_order_acq_rel)) {
      slot.bytes.store(bytes, std::memory_order_release);
      return reinterpret_cast<void*>(start);
    }
  }
  ::munmap(reinterpret_cast<void*>(start), bytes);  // every slot taken: allocated as usual
  return nullptr;
}

bool release_large(void* memory) noexcept {
  const auto at = reinterpret_cast<std::uintptr_t>(memory);
  // Only a pointer on a huge page can be one of ours: any other is not looked up.
  if (at == 0 || at % kHugePage != 0) return false;
  for (LargeSlot& slot : large_slots) {
    if (slot.start.load(std::memory_order_acquire) != at) continue;
    const std::size_t bytes = slot.bytes.exchange(0, std::memory_order_acq_rel);
    slot.start.store(0, std::memory_order_release);
    ::munmap(memory, bytes);
    return true;
  }
  return false;
}

}  // namespace ptmpl
