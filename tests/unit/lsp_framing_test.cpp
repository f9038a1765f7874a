// The language server's framing: Content-Length headers, bounds, and recovery from bad headers.
#include "lsp/framing.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace ptmpl::lsp {
namespace {

TEST(LspFraming, ReadsMessagesWithAnyHeaderCaseAndOtherHeaders) {
  std::istringstream in(
      "Content-Length: 2\r\n\r\n{}content-length:3\r\nContent-Type: application/vscode-jsonrpc; "
      "charset=utf-8\r\n\r\n[1]");
  FrameReader reader(in);
  Frame first = reader.read();
  ASSERT_EQ(first.status, FrameStatus::Message);
  EXPECT_EQ(first.body, "{}");
  Frame second = reader.read();
  ASSERT_EQ(second.status, FrameStatus::Message);
  EXPECT_EQ(second.body, "[1]");
  EXPECT_EQ(reader.read().status, FrameStatus::End);
}

TEST(LspFraming, AMissingOrGarbageLengthIsInvalidAndReadingGoesOnFromTheNextHeader) {
  std::istringstream in("X-Other: 1\r\n\r\n{\"a\":1}Content-Length: abc\r\n\r\n{}" + frame("{\"ok\":1}"));
  FrameReader reader(in);
  Frame missing = reader.read();
  EXPECT_EQ(missing.status, FrameStatus::Invalid);
  EXPECT_NE(missing.error.find("without a Content-Length"), std::string::npos) << missing.error;
  Frame garbage = reader.read();
  EXPECT_EQ(garbage.status, FrameStatus::Invalid);
  EXPECT_NE(garbage.error.find("not a number: \"abc\""), std::string::npos) << garbage.error;
  Frame good = reader.read();
  ASSERT_EQ(good.status, FrameStatus::Message);
  EXPECT_EQ(good.body, "{\"ok\":1}");
}

TEST(LspFraming, ABodyOverTheBoundIsSkippedNotAllocated) {
  std::istringstream in("Content-Length: 10\r\n\r\n0123456789" + frame("{}"));
  FrameReader reader(in, FrameLimits{.max_header_line = 4096, .max_body = 5});
  Frame big = reader.read();
  EXPECT_EQ(big.status, FrameStatus::Invalid);
  EXPECT_TRUE(big.body.empty());
  EXPECT_NE(big.error.find("10 bytes"), std::string::npos) << big.error;
  Frame next = reader.read();
  ASSERT_EQ(next.status, FrameStatus::Message);
  EXPECT_EQ(next.body, "{}");
}

TEST(LspFraming, AClaimOfAHugeBodyWithLittleDataEndsWithoutAllocatingTheClaim) {
  // 200 MB claimed (under the bound), 5 bytes sent: the input ends mid-message.
  std::istringstream in("Content-Length: 200000000\r\n\r\n{\"a\":");
  FrameReader reader(in);
  Frame frame_read = reader.read();
  EXPECT_EQ(frame_read.status, FrameStatus::End);
  EXPECT_LT(frame_read.body.capacity(), std::size_t{1} << 20);
  // Beyond the bound: an error, and the end of the input.
  std::istringstream huge("Content-Length: 99999999999999\r\n\r\n{}");
  FrameReader reader2(huge);
  EXPECT_EQ(reader2.read().status, FrameStatus::Invalid);
}

TEST(LspFraming, InputEndingInTheHeadersOrBodyIsTheEnd) {
  for (std::string cut : {"Content-Len", "Content-Length: 5\r\n", "Content-Length: 5\r\n\r\n{}"}) {
    std::istringstream in(cut);
    FrameReader reader(in);
    EXPECT_EQ(reader.read().status, FrameStatus::End) << cut;
  }
}

TEST(LspFraming, AnOverlongHeaderLineIsInvalid) {
  std::istringstream in("X-Long: " + std::string(10000, 'x') + "\r\nContent-Length: 2\r\n\r\n{}" + frame("[]"));
  FrameReader reader(in);
  Frame first = reader.read();
  EXPECT_EQ(first.status, FrameStatus::Invalid);
  EXPECT_NE(first.error.find("longer than 4096"), std::string::npos) << first.error;
  Frame next = reader.read();
  ASSERT_EQ(next.status, FrameStatus::Message);
  EXPECT_EQ(next.body, "[]");
}

TEST(LspFraming, FramesWithTheBodysByteLength) {
  EXPECT_EQ(frame("{\"é\":1}"), "Content-Length: 8\r\n\r\n{\"é\":1}");
}

}  // namespace
}  // namespace ptmpl::lsp
