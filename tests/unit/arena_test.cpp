// The JSON arena (libtemplate/core/json.hpp): its blocks, and the chunks mapped from the system
// that a large tree takes its memory in.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "libtemplate/core/json.hpp"

namespace ptmpl {
namespace {

TEST(Arena, ChunksHoldEveryAllocation) {
  // Past its first blocks an arena takes 32 MiB chunks: allocations of every size and
  // alignment across many block and chunk boundaries each keep their own bytes.
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

TEST(Arena, ALargeArrayLeavesTheChunkInUse) {
  // A large array takes a block of its own between small values; the small ones after it go on
  // in the same chunk rather than start a chunk each time (a chunk abandoned).
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

TEST(Arena, ToldOfALargeTextTakesChunksAtOnce) {
  // Arena::expect(): from 16 MiB of text on, the tree's memory comes in chunks from the first
  // value, not after 8 MiB of small blocks. Counted as the places where an allocation does
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
  EXPECT_EQ(jumps_over(told, kBytes), 1u);  // one chunk, filled without a jump
  json::Arena small;
  small.expect(json::Arena::kChunksForText - 1);
  EXPECT_GE(jumps_over(small, kBytes), 10u);  // 4 KiB, 8 KiB, ... 1 MiB, 1 MiB: a jump each
}

}  // namespace
}  // namespace ptmpl
