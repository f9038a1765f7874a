#include "io/mapped_pages.hpp"

#include <cerrno>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <system_error>
#include <thread>

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
