// Reading the values of binary files: little-endian integers and doubles, and UTF-16LE text.
// The compound file reader and the .mpp tables read with these. The caller has checked that
// the bytes are there.
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

namespace ptmpl::cfb {

[[nodiscard]] inline std::uint8_t u8(std::string_view b, std::size_t at) {
  return static_cast<std::uint8_t>(b[at]);
}
[[nodiscard]] inline std::uint16_t u16(std::string_view b, std::size_t at) {
  return static_cast<std::uint16_t>(u8(b, at) | (u8(b, at + 1) << 8));
}
[[nodiscard]] inline std::uint32_t u32(std::string_view b, std::size_t at) {
  return static_cast<std::uint32_t>(u16(b, at)) | (static_cast<std::uint32_t>(u16(b, at + 2)) << 16);
}
[[nodiscard]] inline std::uint64_t u64(std::string_view b, std::size_t at) {
  return static_cast<std::uint64_t>(u32(b, at)) | (static_cast<std::uint64_t>(u32(b, at + 4)) << 32);
}
/// An IEEE 754 double stored little-endian.
[[nodiscard]] inline double f64(std::string_view b, std::size_t at) {
  return std::bit_cast<double>(u64(b, at));
}

/// Appends the Unicode scalar value `code_point` as UTF-8.
void append_utf8(std::string& out, std::uint32_t code_point);

/// What XML 1.0 can hold in place of `c`: a control character other than tab and line feed
/// becomes a space; a surrogate, U+FFFE, U+FFFF or a value past U+10FFFF becomes U+FFFD.
[[nodiscard]] std::uint32_t xml_char(std::uint32_t c);

/// Whether utf16le_text keeps every character or only those XML can hold (xml_char).
enum class Utf16Chars : std::uint8_t { Keep, ForXml };

/// UTF-16LE → UTF-8, up to the first NUL or the last whole code unit; an unpaired surrogate
/// becomes U+FFFD.
[[nodiscard]] std::string utf16le_text(std::string_view b, Utf16Chars chars = Utf16Chars::Keep);

}  // namespace ptmpl::cfb
