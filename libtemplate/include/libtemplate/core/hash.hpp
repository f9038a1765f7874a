// The hashes of bytes: one fast, to compare within a run; one stable, for what is kept.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ptmpl {

/// A 64-bit hash of `bytes` and their length (not cryptographic; several gigabytes a second),
/// to tell within one run whether bytes are still those seen before: a file read again, a file
/// about to be fixed. Its values may change between versions: never store or show one.
[[nodiscard]] std::uint64_t content_hash(std::string_view bytes);

/// FNV-1a's 64-bit offset basis.
inline constexpr std::uint64_t kFnv1aBasis = 0xcbf29ce484222325ULL;

/// FNV-1a, 64 bits, of `bytes` continuing from `hash`: the same value on every platform and in
/// every version, for values that are kept or shown (a CI report's fingerprint of a finding, a
/// file name for a service address).
[[nodiscard]] std::uint64_t fnv1a(std::string_view bytes, std::uint64_t hash = kFnv1aBasis);

/// A hash as 16 lower-case hexadecimal digits.
[[nodiscard]] std::string hash_hex(std::uint64_t hash);

}  // namespace ptmpl
