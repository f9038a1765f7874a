// The programs' operator new and delete (tools/ptmpl/large_allocations.cpp), linked into this
// test program as they are into ptmpl and ptmpl-net: large allocations come on huge pages and
// every form of new and delete pairs up.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <new>
#include <vector>

#include "libtemplate/core/large_allocations.hpp"

namespace {

bool on_huge_page(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % ptmpl::kLargeAllocation == 0;
}

TEST(ProgramsOperatorNew, LargeAllocationsComeOnHugePagesInEveryForm) {
  if (!ptmpl::kProgramsReplaceOperatorNew) GTEST_SKIP() << "a sanitizer's operator new is in use";
  constexpr std::size_t kLarge = 3 * (std::size_t{1} << 20) + 17;
  auto* array = new char[kLarge];
  EXPECT_TRUE(on_huge_page(array));
  array[0] = 1;
  array[kLarge - 1] = 2;
  delete[] array;

  auto* single = static_cast<char*>(::operator new(kLarge));
  EXPECT_TRUE(on_huge_page(single));
  ::operator delete(single, kLarge);  // sized

  auto* nothrow = new (std::nothrow) char[kLarge];
  ASSERT_NE(nothrow, nullptr);
  EXPECT_TRUE(on_huge_page(nothrow));
  ::operator delete[](nothrow, std::nothrow);

  // What the story index and the scheduler hold: a vector of a few MiB, filled.
  std::vector<std::uint64_t> per_story(1 << 19, 7);
  EXPECT_TRUE(on_huge_page(per_story.data()));
  EXPECT_EQ(per_story.back(), 7u);
}

TEST(ProgramsOperatorNew, SmallAllocationsGoToMallocAndAreGivenBackThere) {
  // Many small objects and arrays, freed in every form: the C library's heap checks each free.
  for (int round = 0; round < 1000; ++round) {
    auto object = std::make_unique<std::uint64_t>(static_cast<std::uint64_t>(round));
    auto* array = new int[static_cast<std::size_t>(round % 97 + 1)];
    array[0] = round;
    void* raw = ::operator new(static_cast<std::size_t>(round + 1), std::nothrow);
    ASSERT_NE(raw, nullptr);
    EXPECT_FALSE(ptmpl::release_large(raw));  // not one of the large ones: left alone
    ::operator delete(raw, std::nothrow);
    delete[] array;
    EXPECT_EQ(*object, static_cast<std::uint64_t>(round));
  }
  // Zero bytes: a distinct pointer, given back as any other.
  void* empty = ::operator new(0);
  EXPECT_NE(empty, nullptr);
  ::operator delete(empty);
}

}  // namespace
