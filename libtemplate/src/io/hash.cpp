// The hashes of bytes (hash.hpp).
#include "libtemplate/core/hash.hpp"

#include <cstdio>
#include <cstring>

namespace ptmpl {

std::uint64_t content_hash(std::string_view bytes) {
  // Four independent lanes of multiply and rotate over 32 bytes a step (the multiplications
  // overlap), folded together with the length and the last bytes.
  constexpr std::uint64_t kPrime1 = 0x9E3779B185EBCA87ull;
  constexpr std::uint64_t kPrime2 = 0xC2B2AE3D27D4EB4Full;
  auto round = [](std::uint64_t lane, std::uint64_t word) {
    lane += word * kPrime2;
    lane = (lane << 31) | (lane >> 33);
    return lane * kPrime1;
  };
  std::uint64_t lanes[4] = {kPrime1 + kPrime2, kPrime2, 0, 0 - kPrime1};
  const char* p = bytes.data();
  std::size_t left = bytes.size();
  for (; left >= 32; p += 32, left -= 32) {
    for (int k = 0; k < 4; ++k) {
      std::uint64_t word;
      std::memcpy(&word, p + 8 * k, 8);
      lanes[k] = round(lanes[k], word);
    }
  }
  std::uint64_t h = bytes.size();
  for (int k = 0; k < 4; ++k) h = (h ^ round(0, lanes[k])) * kPrime1 + kPrime2;
  for (; left > 0; ++p, --left) h = (h ^ static_cast<unsigned char>(*p)) * kPrime1;
  h ^= h >> 29;
  h *= kPrime2;
  return h ^ (h >> 32);
}

std::uint64_t fnv1a(std::string_view bytes, std::uint64_t hash) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001b3ULL;  // FNV's 64-bit prime
  }
  return hash;
}

std::string hash_hex(std::uint64_t hash) {
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(hash));
  return out;
}

}  // namespace ptmpl
