// Error codes and their one mapping to exit codes (docs/semantics.md §6).
#include <gtest/gtest.h>

#include <set>
#include <string_view>

#include "libtemplate/core/result.hpp"

namespace ptmpl {
namespace {

TEST(ErrorCode, ServiceAndNetworkFailuresExit3AndLocalOnes2) {
  EXPECT_EQ(Error::network("x").exit_code(), 3);
  EXPECT_EQ(Error::insecure("x").exit_code(), 3);
  EXPECT_EQ(Error::service("x").exit_code(), 3);
  for (const Error& local : {Error::usage("x"), Error::unreadable("x"), Error::invalid("x"), Error::output_failed("x"),
                             Error::not_found("x"), Error::conflict("x"), Error::internal("x")})
    EXPECT_EQ(local.exit_code(), 2) << to_string(local.code);
}

TEST(ErrorCode, ContextKeepsTheKind) {
  Error e = Error::not_found("HTTP 404: no such template").within("reading template 9");
  EXPECT_EQ(e.code, ErrorCode::kNotFound);
  EXPECT_EQ(e.message, "reading template 9: HTTP 404: no such template");
  EXPECT_EQ(to_string(e.code), "not-found");
}

TEST(ErrorCode, EveryCodeHasItsOwnName) {
  std::set<std::string_view> names;
  for (int c = 0; c <= static_cast<int>(ErrorCode::kInternal); ++c) names.insert(to_string(static_cast<ErrorCode>(c)));
  EXPECT_EQ(names.size(), static_cast<std::size_t>(ErrorCode::kInternal) + 1);
}

}  // namespace
}  // namespace ptmpl
