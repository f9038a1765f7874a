// The building blocks every .mpp table is read with: little-endian values, Props streams, field
// maps, the fixed and var data of a table, dates and durations. Everything here is bounded: a
// value outside its stream reads as absent, never past the bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "convert/cfb/little_endian.hpp"

namespace ptmpl::detail::mpp {

// Little-endian values at `at` (cfb/little_endian.hpp); the caller has checked that the bytes
// are there.
using cfb::f64;
using cfb::u16;
using cfb::u32;
using cfb::u64;
using cfb::u8;
/// Whether `width` bytes at `at` are inside `b`.
inline bool fits(std::string_view b, std::size_t at, std::size_t width) {
  return at <= b.size() && b.size() - at >= width;
}

/// A Props stream: a 16-byte header, then entries (int32 size, int32 key, int32 unused, the
/// bytes, a pad byte after an odd size) while they fit; the header's count is not trusted.
using Props = std::map<std::int32_t, std::string_view>;
[[nodiscard]] Props read_props(std::string_view bytes);

/// A date value (uint16 time in 6-second units, then uint16 days from 1983-12-31; a day of 0, 1
/// or 65535 is none) as MSPDI writes one: yyyy-mm-ddThh:mm:ss.
[[nodiscard]] std::optional<std::string> read_date(std::string_view b, std::size_t at);
/// A time of day in 6-second units as hh:mm:ss (24:00:00 for a whole day's end).
[[nodiscard]] std::string time_text(std::uint32_t six_seconds);
/// Tenths of a minute as an MSPDI duration: PT#H#M#S.
[[nodiscard]] std::string duration_text(std::int64_t tenths);
/// A duration units code → MSPDI's DurationFormat / LagFormat: the same codes (3 m, 5 h, 7 d,
/// 9 w, 11 mo, the next even code elapsed, 19/20 percent; 0x20 estimated); 21, the project
/// default, and codes ptmpl does not know become days.
[[nodiscard]] std::int64_t mspdi_format(std::uint16_t units);
/// Appends the character `c` as UTF-8; a control character (which XML cannot hold) becomes a
/// space, a surrogate, U+FFFE, U+FFFF or a value past U+10FFFF becomes U+FFFD.
void append_utf8(std::string& out, std::uint32_t c);
/// UTF-16LE → UTF-8, up to the first NUL; an unpaired surrogate becomes U+FFFD, and control
/// characters (which XML cannot hold) become spaces.
[[nodiscard]] std::string utf16_text(std::string_view b);

/// Where a field lives: in fixed data block 0 (FixedData) or 1 (Fixed2Data) at an offset, in
/// var data under a key, or in the meta data as a bit (not located through the map).
struct FieldPlace {
  int block = -1;  ///< -1: not in fixed data
  std::size_t offset = 0;
  bool in_var = false;
  std::uint16_t var_key = 0;
};

/// A table's field map from its Props entry: 28-byte entries (offset at +4, 0xFFFF for var
/// data; field id at +12; category at +20, 0x0B or 0x64 for a meta bit). Offsets that start
/// again lower are in the next block. A var data field's key is the id's low 16 bits, or the
/// entry's byte +6 when `var_key_in_entry` (MPP9, whose VarMeta keys are one byte). Keyed by
/// the whole field id (class | id).
using FieldMap = std::unordered_map<std::uint32_t, FieldPlace>;
[[nodiscard]] FieldMap read_field_map(std::string_view entry, bool var_key_in_entry = false);

/// One item of a FixedMeta and its record in FixedData (empty when the offset is outside).
struct Row {
  std::string_view meta;
  std::string_view data;
};

/// Items of `item_size` bytes after a 16-byte header, as many as the stream's size holds; a
/// record runs from its offset (item +4) to the next higher offset of any item, or the end.
[[nodiscard]] std::vector<Row> read_rows(std::string_view meta, std::string_view data, std::size_t item_size);

/// Var data: (uid, key) → the item's bytes. `entry_size` is 12 (uid int32, offset int32, key
/// uint16) or 8 (MPP9: a 3-byte uid, a 1-byte key, offset int32).
using VarData = std::map<std::pair<std::int32_t, std::uint16_t>, std::string_view>;
[[nodiscard]] VarData read_var_data(std::string_view meta, std::string_view data, std::size_t entry_size = 12);

/// A table read through its field map: the rows of its fixed data (and second block when the
/// format has one) and its var data. Holds views into the streams, which the caller keeps.
class Table {
 public:
  Table() = default;
  Table(std::vector<Row> rows, std::vector<Row> rows2, VarData var, const FieldMap* fields, std::uint32_t field_class)
      : rows_(std::move(rows)),
        rows2_(std::move(rows2)),
        var_(std::move(var)),
        fields_(fields),
        field_class_(field_class) {}

  [[nodiscard]] std::size_t size() const { return rows_.size(); }
  [[nodiscard]] const Row& row(std::size_t i) const { return rows_[i]; }
  /// The row's item in the second block's meta and its record (empty when there is none).
  [[nodiscard]] Row row2(std::size_t i) const { return i < rows2_.size() ? rows2_[i] : Row{}; }
  /// Whether the item is flagged deleted (meta +0 & 0x02).
  [[nodiscard]] bool deleted(std::size_t i) const {
    return !rows_[i].meta.empty() && (u8(rows_[i].meta, 0) & 0x02) != 0;
  }

  /// Where the field `id` (without the class) is, or nullptr when the map does not name it.
  [[nodiscard]] const FieldPlace* place(std::uint32_t id) const;
  /// The fixed bytes of row `i` at the field's place, `width` of them; empty when absent.
  [[nodiscard]] std::string_view fixed(std::uint32_t id, std::size_t i, std::size_t width) const;
  [[nodiscard]] std::optional<std::int64_t> int32(std::uint32_t id, std::size_t i) const;
  [[nodiscard]] std::optional<std::int64_t> int16(std::uint32_t id, std::size_t i) const;
  [[nodiscard]] std::optional<double> real(std::uint32_t id, std::size_t i) const;
  [[nodiscard]] std::optional<std::string> date(std::uint32_t id, std::size_t i) const;
  /// The var data item of the field `id` for the row whose unique id is `uid`.
  [[nodiscard]] std::optional<std::string_view> var(std::uint32_t id, std::int32_t uid) const;
  /// A var data text (UTF-16LE) field; empty when absent.
  [[nodiscard]] std::string text(std::uint32_t id, std::int32_t uid) const;
  /// The var data item under `key` for `uid`, whatever field map says.
  [[nodiscard]] std::optional<std::string_view> var_key(std::int32_t uid, std::uint16_t key) const;

 private:
  std::vector<Row> rows_;
  std::vector<Row> rows2_;
  VarData var_;
  const FieldMap* fields_ = nullptr;
  std::uint32_t field_class_ = 0;
};

}  // namespace ptmpl::detail::mpp
