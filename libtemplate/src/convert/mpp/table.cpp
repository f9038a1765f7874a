// The building blocks of .mpp tables (table.hpp).
#include "convert/mpp/table.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace ptmpl::detail::mpp {

Props read_props(std::string_view b) {
  Props out;
  std::size_t at = 16;
  while (fits(b, at, 12)) {
    const auto size = static_cast<std::int32_t>(u32(b, at));
    const auto key = static_cast<std::int32_t>(u32(b, at + 4));
    at += 12;
    if (size < 1 || static_cast<std::size_t>(size) > b.size() - at) break;
    out.emplace(key, b.substr(at, static_cast<std::size_t>(size)));
    at += static_cast<std::size_t>(size) + (size % 2);
  }
  return out;
}

std::optional<std::string> read_date(std::string_view b, std::size_t at) {
  if (!fits(b, at, 4)) return std::nullopt;
  const std::uint32_t time = u16(b, at);
  const std::uint32_t days = u16(b, at + 2);
  if (days == 0 || days == 1 || days == 65535) return std::nullopt;
  const std::chrono::sys_days date = std::chrono::sys_days(std::chrono::year{1983} / 12 / 31) + std::chrono::days{days};
  const std::chrono::year_month_day ymd{date};
  const std::uint32_t seconds = std::min<std::uint32_t>(time * 6, 24 * 3600 - 1);
  char text[32];
  std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02u:%02u:%02u", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()), seconds / 3600,
                (seconds / 60) % 60, seconds % 60);
  return std::string(text);
}

std::string time_text(std::uint32_t six_seconds) {
  const std::uint32_t seconds = std::min<std::uint32_t>(six_seconds * 6, 24 * 3600);
  char text[16];
  std::snprintf(text, sizeof text, "%02u:%02u:%02u", seconds / 3600, (seconds / 60) % 60, seconds % 60);
  return text;
}

std::string duration_text(std::int64_t tenths) {
  const bool negative = tenths < 0;
  const std::int64_t magnitude = negative ? -tenths : tenths;
  const std::int64_t seconds = magnitude * 6;
  return std::string(negative ? "-" : "") + "PT" + std::to_string(seconds / 3600) + "H" +
         std::to_string((seconds / 60) % 60) + "M" + std::to_string(seconds % 60) + "S";
}

std::int64_t mspdi_format(std::uint16_t units) {
  const int base = units & 0x1F;
  if ((base >= 3 && base <= 12) || base == 19 || base == 20) return base;
  return 7;
}

void append_utf8(std::string& out, std::uint32_t c) {
  cfb::append_utf8(out, cfb::xml_char(c));
}

std::string utf16_text(std::string_view b) {
  return cfb::utf16le_text(b, cfb::Utf16Chars::ForXml);
}

FieldMap read_field_map(std::string_view b, bool var_key_in_entry) {
  FieldMap out;
  std::uint16_t last = 0;
  int block = 0;
  for (std::size_t at = 0; fits(b, at, 28); at += 28) {
    const std::uint16_t offset = u16(b, at + 4);
    const std::uint32_t id = u32(b, at + 12);
    const std::uint16_t category = u16(b, at + 20);
    FieldPlace place;
    if (category == 0x0B || category == 0x64) {
      // A bit in the meta data: not located through the map.
    } else if (offset != 0xFFFF) {
      if (offset < last) ++block;
      last = offset;
      place.block = block;
      place.offset = offset;
    } else {
      place.in_var = true;
      place.var_key = var_key_in_entry ? u8(b, at + 6) : static_cast<std::uint16_t>(id & 0xFFFF);
    }
    out.emplace(id, place);
  }
  return out;
}

std::vector<Row> read_rows(std::string_view meta, std::string_view data, std::size_t item_size) {
  std::vector<Row> rows;
  if (meta.size() < 16 || item_size < 8) return rows;
  const std::size_t count = (meta.size() - 16) / item_size;
  std::vector<std::uint32_t> offsets;
  offsets.reserve(count);
  for (std::size_t i = 0; i < count; ++i) offsets.push_back(u32(meta, 16 + i * item_size + 4));
  std::vector<std::uint32_t> sorted = offsets;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  rows.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    Row row;
    row.meta = meta.substr(16 + i * item_size, item_size);
    const std::uint32_t from = offsets[i];
    if (from < data.size()) {
      auto next = std::upper_bound(sorted.begin(), sorted.end(), from);
      const std::size_t to = next == sorted.end() ? data.size() : std::min<std::size_t>(*next, data.size());
      row.data = data.substr(from, to - from);
    }
    rows.push_back(row);
  }
  return rows;
}

VarData read_var_data(std::string_view meta, std::string_view data, std::size_t entry_size) {
  VarData out;
  if (entry_size != 8 && entry_size != 12) return out;
  for (std::size_t at = 24; fits(meta, at, entry_size); at += entry_size) {
    std::int32_t uid = 0;
    std::uint32_t offset = 0;
    std::uint16_t key = 0;
    if (entry_size == 12) {
      uid = static_cast<std::int32_t>(u32(meta, at));
      offset = u32(meta, at + 4);
      key = u16(meta, at + 8);
    } else {
      uid = static_cast<std::int32_t>(u32(meta, at) & 0xFFFFFF);
      key = u8(meta, at + 3);
      offset = u32(meta, at + 4);
    }
    if (!fits(data, offset, 4)) continue;
    const std::uint32_t length = u32(data, offset);
    if (length > data.size() - offset - 4) continue;
    out.emplace(std::pair{uid, key}, data.substr(offset + 4, length));
  }
  return out;
}

const FieldPlace* Table::place(std::uint32_t id) const {
  if (fields_ == nullptr) return nullptr;
  auto it = fields_->find(field_class_ | id);
  return it == fields_->end() ? nullptr : &it->second;
}

std::string_view Table::fixed(std::uint32_t id, std::size_t i, std::size_t width) const {
  const FieldPlace* p = place(id);
  if (p == nullptr || p->block < 0 || i >= rows_.size()) return {};
  std::string_view b;
  if (p->block == 0) b = rows_[i].data;
  if (p->block == 1 && i < rows2_.size()) b = rows2_[i].data;
  if (!fits(b, p->offset, width)) return {};
  return b.substr(p->offset, width);
}

std::optional<std::int64_t> Table::int32(std::uint32_t id, std::size_t i) const {
  const std::string_view b = fixed(id, i, 4);
  if (b.empty()) return std::nullopt;
  return static_cast<std::int32_t>(u32(b, 0));
}

std::optional<std::int64_t> Table::int16(std::uint32_t id, std::size_t i) const {
  const std::string_view b = fixed(id, i, 2);
  if (b.empty()) return std::nullopt;
  return static_cast<std::int16_t>(u16(b, 0));
}

std::optional<double> Table::real(std::uint32_t id, std::size_t i) const {
  const std::string_view b = fixed(id, i, 8);
  if (b.empty()) return std::nullopt;
  return f64(b, 0);
}

std::optional<std::string> Table::date(std::uint32_t id, std::size_t i) const {
  const std::string_view b = fixed(id, i, 4);
  if (b.empty()) return std::nullopt;
  return read_date(b, 0);
}

std::optional<std::string_view> Table::var(std::uint32_t id, std::int32_t uid) const {
  const FieldPlace* p = place(id);
  if (p == nullptr || !p->in_var) return std::nullopt;
  return var_key(uid, p->var_key);
}

std::optional<std::string_view> Table::var_key(std::int32_t uid, std::uint16_t key) const {
  auto it = var_.find({uid, key});
  if (it == var_.end()) return std::nullopt;
  return it->second;
}

std::string Table::text(std::uint32_t id, std::int32_t uid) const {
  std::optional<std::string_view> b = var(id, uid);
  return b ? utf16_text(*b) : std::string();
}

}  // namespace ptmpl::detail::mpp
