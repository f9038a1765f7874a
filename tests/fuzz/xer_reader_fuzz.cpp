// libFuzzer target: see fuzz_entries.hpp.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_entries.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto& body = ptmpl::fuzz::target("xer_reader");
  (void)body.run(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
