// Pages mapped from the system and populated ahead of use (libtemplate/src/io/mapped_pages.hpp),
// and the arena that hands its chunks out a step at a time while the next step is populated.
#include "io/mapped_pages.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libtemplate/core/json.hpp"

namespace ptmpl {
namespace {

// Whether every page of [start, start + size) is resident.
bool resident(void* start, std::size_t size) {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> pages((size + page - 1) / page);
  if (::mincore(start, size, pages.data()) != 0) return false;
  for (unsigned char p : pages)
    if ((p & 1U) == 0) return false;
  return true;
}

bool system_populates() {
  void* probe = ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  const bool supported = probe != MAP_FAILED && ::madvise(probe, 4096, 23 /* MADV_POPULATE_WRITE */) == 0;
  if (probe != MAP_FAILED) ::munmap(probe, 4096);
  return supported;
}

TEST(MappedPages, PopulatedInTheBackgroundKeepingWhatThePagesHold) {
  if (!system_populates()) GTEST_SKIP() << "this system cannot populate pages (Linux before 5.14)";
  constexpr std::size_t kSize = std::size_t{8} << 20;
  auto* pages = static_cast<unsigned char*>(detail::map_pages(kSize, false));
  ASSERT_NE(pages, nullptr);
  // Written before: the first half, a byte a page.
  for (std::size_t at = 0; at < kSize / 2; at += 4096) pages[at] = static_cast<unsigned char>(at / 4096 % 251 + 1);
  EXPECT_FALSE(resident(pages + kSize / 2, kSize / 2));
  detail::populate_in_background(pages, kSize);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!resident(pages, kSize) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_TRUE(resident(pages, kSize));
  for (std::size_t at = 0; at < kSize; at += 4096) {
    const unsigned char expected = at < kSize / 2 ? static_cast<unsigned char>(at / 4096 % 251 + 1) : 0;
    ASSERT_EQ(pages[at], expected) << at;
    ASSERT_EQ(pages[at + 1], 0) << at;
  }
  detail::unmap_pages(pages, kSize);
}

TEST(MappedPages, GivenBackWhilePopulationIsAskedFor) {
  // Unmapping drops what is still asked for and waits for what is under way: mapping, asking
  // and giving back in a loop neither crashes nor touches pages given back.
  constexpr std::size_t kSize = std::size_t{4} << 20;
  for (int round = 0; round < 50; ++round) {
    void* pages = detail::map_pages(kSize, round % 2 == 0);
    ASSERT_NE(pages, nullptr);
    detail::populate_in_background(pages, kSize);
    detail::populate_in_background(static_cast<std::byte*>(pages) + kSize / 2, kSize / 2);
    detail::unmap_pages(pages, kSize);
  }
}

TEST(MappedPages, AChildOfForkPopulatesOnItsOwn) {
  if (!system_populates()) GTEST_SKIP() << "this system cannot populate pages (Linux before 5.14)";
  // The child of a fork made while the parent's thread populates has no such thread: it starts
  // its own, and giving pages back does not wait for the parent's. (The range is large enough,
  // in small pages, for its population to be under way when the fork comes.)
  constexpr std::size_t kSize = std::size_t{256} << 20;
  void* busy = detail::map_pages(kSize, false);
  ASSERT_NE(busy, nullptr);
  detail::populate_in_background(busy, kSize);
  // Fork once the population is under way (its first page is resident).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!resident(busy, 4096) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::alarm(20);  // a hang ends the child with SIGALRM, which the parent sees
    for (int round = 0; round < 5; ++round) {
      void* pages = detail::map_pages(kSize / 4, false);
      if (pages == nullptr) ::_exit(2);
      detail::populate_in_background(pages, kSize / 4);
      detail::unmap_pages(pages, kSize / 4);
    }
    detail::unmap_pages(busy, kSize);
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status)) << "the child did not end by itself (signal " << WTERMSIG(status) << ")";
  EXPECT_EQ(WEXITSTATUS(status), 0);
  detail::unmap_pages(busy, kSize);
}

TEST(MappedPages, ArenaChunksHandedOutStepByStepHoldEveryAllocation) {
  // Past its first blocks an arena takes 32 MiB chunks a 2 MiB step at a time: allocations of
  // every size and alignment across many step and chunk boundaries each keep their own bytes.
  json::Arena arena;
  struct Made {
    unsigned char* at;
    std::size_t size;
    std::size_t align;
  };
  std::vector<Made> made;
  std::size_t total = 0;
  for (std::size_t i = 0; total < (std::size_t{80} << 20); ++i) {
    const std::size_t size = 1 + (i * 7919) % 5000;
    const std::size_t align = std::size_t{1} << (i % 5);
    auto* at = static_cast<unsigned char*>(arena.allocate(size, align));
    ASSERT_EQ(reinterpret_cast<std::uintptr_t>(at) % align, 0U);
    std::memset(at, static_cast<int>(i % 253 + 1), size);
    made.push_back({at, size, align});
    total += size;
  }
  for (std::size_t i = 0; i < made.size(); ++i) {
    const auto expected = static_cast<unsigned char>(i % 253 + 1);
    ASSERT_EQ(made[i].at[0], expected) << i;
    ASSERT_EQ(made[i].at[made[i].size - 1], expected) << i;
    if (i + 1 < made.size() && made[i + 1].at > made[i].at) {
      ASSERT_GE(made[i + 1].at, made[i].at + made[i].size) << i;
    }
  }
  EXPECT_EQ(arena.bytes_allocated(), total);
}

TEST(MappedPages, ALargeArrayLeavesTheArenasChunkInUse) {
  // A large array takes a block of its own between small values; the small ones after it go on
  // in the same chunk, step after step, rather than start a chunk each time (a step populated
  // and never used, a chunk abandoned).
  json::Arena arena;
  constexpr std::size_t kSmall = 1000;
  constexpr std::size_t kLarge = std::size_t{300} << 10;  // above a quarter of a block
  std::byte* previous_end = nullptr;
  std::size_t jumps = 0;
  std::size_t small_bytes = 0;
  for (std::size_t i = 0; small_bytes < (std::size_t{96} << 20); ++i) {
    if (i % 1000 == 999) {
      // Taken where the arena stands when it fits there, else in a block of its own.
      auto* large = static_cast<std::byte*>(arena.allocate(kLarge, 8));
      std::memset(large, 1, kLarge);
      if (large == previous_end) previous_end = large + kLarge;
    }
    auto* at = static_cast<std::byte*>(arena.allocate(kSmall, 8));
    std::memset(at, 2, kSmall);
    if (at != previous_end) ++jumps;
    previous_end = at + kSmall;
    small_bytes += kSmall;
  }
  // A jump at each block and chunk taken: blocks from 4 KiB, each twice the one before up to
  // 1 MiB, until they hold 8 MiB (16 blocks), then 32 MiB chunks.
  std::size_t blocks = 0;
  for (std::size_t size = json::Arena::kFirstBlockSize, held = 0; held < json::Arena::kChunksAfterBlockBytes;
       ++blocks) {
    held += size;
    size = std::min(size * 2, json::Arena::kBlockSize);
  }
  EXPECT_EQ(blocks, 16u);
  EXPECT_LE(jumps, blocks + small_bytes / (std::size_t{32} << 20) + 2);
}

TEST(MappedPages, AnArenaToldOfALargeTextTakesChunksAtOnce) {
  // Arena::expect(): from 16 MiB of text on, the tree's memory comes in huge-page chunks from the
  // first value, not after 8 MiB of small blocks. Counted as the places where an allocation does
  // not follow the one before (each block or chunk taken).
  auto jumps_over = [](json::Arena& arena, std::size_t bytes) {
    std::byte* previous_end = nullptr;
    std::size_t jumps = 0;
    for (std::size_t taken = 0; taken < bytes; taken += 1000) {
      auto* at = static_cast<std::byte*>(arena.allocate(1000, 8));
      std::memset(at, 3, 1000);
      if (at != previous_end) ++jumps;
      previous_end = at + 1000;
    }
    return jumps;
  };
  constexpr std::size_t kBytes = std::size_t{3} << 20;
  json::Arena told;
  told.expect(json::Arena::kChunksForText);
  EXPECT_EQ(jumps_over(told, kBytes), 1u);  // one chunk, stepped through without a jump
  json::Arena small;
  small.expect(json::Arena::kChunksForText - 1);
  EXPECT_GE(jumps_over(small, kBytes), 10u);  // 4 KiB, 8 KiB, ... 1 MiB, 1 MiB: a jump each
}

}  // namespace
}  // namespace ptmpl
