// What the library's own code does with a JSON tree and its users cannot (json.hpp declares it
// a friend of Value and Document, and no more): make a value from its parts, as the parser, the
// Builder and detach_text do, and read a text with RapidJSON's reader alone, which the tests
// compare the fast reader with (reader.hpp).
#pragma once

#include <cstdint>
#include <new>
#include <string_view>

#include "libtemplate/core/json.hpp"

namespace ptmpl::detail {

struct TreeAccess {
  /// A value of `kind` at `offset` whose text or children (`size` of them) are at `data`.
  /// `offset` must be below 2^44 (16 TiB) and `data` below 2^48 (every user-space address of
  /// the 64-bit systems ptmpl runs on); both are checked (std::bad_alloc otherwise).
  static json::Value make(json::Kind kind, std::uint64_t offset, const void* data, std::uint32_t size,
                          bool unique_keys = false) {
    const auto address = reinterpret_cast<std::uintptr_t>(data);
    if ((address >> json::Value::kAddressBits) != 0 || (offset & ~json::Value::kOffsetMask) != 0)
      throw std::bad_alloc();
    json::Value v;
    v.data_ = static_cast<std::uint64_t>(address) | static_cast<std::uint64_t>(size >> 16) << json::Value::kAddressBits;
    v.meta_ = offset | static_cast<std::uint64_t>(kind) << json::Value::kKindShift |
              static_cast<std::uint64_t>(unique_keys ? 1U : 0U) << json::Value::kUniqueShift |
              static_cast<std::uint64_t>(size & 0xFFFFU) << json::Value::kSizeLowShift;
    return v;
  }

  /// Document::parse with `fast` false: RapidJSON's reader alone.
  static json::Document read(std::string_view text, const json::ParseOptions& options, bool fast) {
    return json::Document::read(text, options, fast);
  }
};

}  // namespace ptmpl::detail
