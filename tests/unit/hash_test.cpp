#include "libtemplate/core/hash.hpp"
#include <string>

#include <gtest/gtest.h>

namespace ptmpl {
namespace {

// FNV-1a's published test values: CI reports and the base store keep what it gives.
TEST(Hash, Fnv1aGivesThePublishedValues) {
  EXPECT_EQ(fnv1a(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(fnv1a("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(fnv1a("foobar"), 0x85944171f73967e8ULL);
  EXPECT_EQ(fnv1a("bar", fnv1a("foo")), fnv1a("foobar"));
  EXPECT_EQ(hash_hex(fnv1a("a")), "af63dc4c8601ec8c");
  EXPECT_EQ(hash_hex(1), "0000000000000001");
}

TEST(Hash, ContentHashTellsBytesApart) {
  const std::string text(100, 'x');
  EXPECT_EQ(content_hash(text), content_hash(std::string(100, 'x')));
  EXPECT_NE(content_hash(text), content_hash(text.substr(1)));
  std::string changed = text;
  changed[50] = 'y';
  EXPECT_NE(content_hash(text), content_hash(changed));
  // The length counts: trailing zero bytes are not lost.
  EXPECT_NE(content_hash(std::string_view("\0", 1)), content_hash(std::string_view("\0\0", 2)));
}

}  // namespace
}  // namespace ptmpl
