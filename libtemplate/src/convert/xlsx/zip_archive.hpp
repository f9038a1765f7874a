// A zip archive read from memory (libzip), as an `.xlsx` workbook is one. Entries are looked up by
// the fixed part names a reader asks for, never listed or used as paths, and each is read into
// a buffer no larger than a limit of ours, whatever size the archive declares. Private to the
// converters.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "libtemplate/core/result.hpp"

namespace ptmpl::detail::xlsx {

/// The most bytes one part of a workbook may inflate to (a sheet of 200,000 rows fits).
inline constexpr std::size_t kMaxPartBytes = std::size_t{256} << 20;

class ZipArchive {
 public:
  /// The archive in `bytes`, which must outlive it; an Error (kInvalid, naming `path`) when the
  /// bytes are not a zip archive libzip can open.
  [[nodiscard]] static Result<ZipArchive> open(std::string_view bytes, const std::string& path);

  ZipArchive(ZipArchive&&) noexcept;
  ZipArchive& operator=(ZipArchive&&) noexcept;
  ~ZipArchive();

  /// Whether an entry is named `name` (ASCII case aside: part names are case-insensitive).
  [[nodiscard]] bool contains(std::string_view name) const;

  /// The inflated bytes of the entry `name`. Fails (kInvalid, naming the part) when there is
  /// none, when it cannot be inflated (corrupt data, a wrong checksum, encryption), or when it
  /// inflates to more than `limit` bytes, which it stops reading at.
  [[nodiscard]] Result<std::string> read(std::string_view name, std::size_t limit = kMaxPartBytes) const;

 private:
  struct State;
  explicit ZipArchive(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace ptmpl::detail::xlsx
