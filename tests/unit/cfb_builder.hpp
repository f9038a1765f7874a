// Writes small compound files ([MS-CFB] versions 3 and 4) for the tests: a tree of storages and
// streams, laid out as [FAT sectors][DIFAT sectors][directory][mini FAT][mini stream][streams],
// each chain in consecutive sectors. Streams under 4096 bytes go to the mini stream. The tests
// then break single fields (cfb_test.cpp) to build hostile files.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace ptmpl::testing {

struct CfbNode {
  std::string name;  // UTF-8 (code points below U+10000)
  bool storage = false;
  std::string data;  // a stream's bytes
  std::vector<CfbNode> children;

  static CfbNode stream(std::string name, std::string data) { return {std::move(name), false, std::move(data), {}}; }
  static CfbNode folder(std::string name, std::vector<CfbNode> children) {
    return {std::move(name), true, "", std::move(children)};
  }
};

/// Where the builder put things, for tests that break them.
struct CfbLayout {
  std::uint32_t sector_size = 512;
  std::uint32_t fat_sectors = 0;
  std::uint32_t difat_sectors = 0;
  std::uint32_t directory_start = 0;
  std::uint32_t entries = 0;  // directory entries used (root included)

  /// Byte offset of sector `n`, of directory entry `id`, of the FAT's entry for sector `n`.
  [[nodiscard]] std::size_t sector(std::uint32_t n) const { return std::size_t{n + 1} * sector_size; }
  [[nodiscard]] std::size_t entry(std::uint32_t id) const {
    return sector(directory_start + id * 128 / sector_size) + id * 128 % sector_size;
  }
  [[nodiscard]] std::size_t fat_entry(std::uint32_t n) const {
    // FAT sectors are sectors 0 … fat_sectors - 1, in order.
    return sector(n * 4 / sector_size) + n * 4 % sector_size;
  }
};

inline void put16(std::string& out, std::size_t at, std::uint16_t v) {
  out[at] = static_cast<char>(v & 0xFF);
  out[at + 1] = static_cast<char>(v >> 8);
}
inline void put32(std::string& out, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out[at + i] = static_cast<char>((v >> (8 * i)) & 0xFF);
}
inline void put64(std::string& out, std::size_t at, std::uint64_t v) {
  put32(out, at, static_cast<std::uint32_t>(v));
  put32(out, at + 4, static_cast<std::uint32_t>(v >> 32));
}

class CfbBuilder {
 public:
  /// Builds the file: `root_children` under the root storage, in version 3 or 4.
  std::string build(const std::vector<CfbNode>& root_children, int version = 3) {
    ss_ = version == 4 ? 4096 : 512;
    flat_.clear();
    flat_.push_back({"Root Entry", 5, nullptr, {}});
    add_children(0, root_children);

    // Streams: mini (under 4096 bytes) or regular.
    std::uint32_t mini_sectors = 0;
    std::uint32_t big_sectors = 0;
    for (Flat& f : flat_) {
      if (f.type != 2 || f.node->data.empty()) continue;
      if (f.node->data.size() < 4096) {
        f.mini = true;
        f.start = mini_sectors;
        mini_sectors += static_cast<std::uint32_t>((f.node->data.size() + 63) / 64);
      } else {
        f.start = big_sectors;  // relative for now
        big_sectors += static_cast<std::uint32_t>((f.node->data.size() + ss_ - 1) / ss_);
      }
    }
    const std::uint32_t dir_sectors = static_cast<std::uint32_t>((flat_.size() * 128 + ss_ - 1) / ss_);
    const std::uint32_t minifat_sectors = (mini_sectors * 4 + ss_ - 1) / ss_;
    const std::uint32_t ministream_sectors = (mini_sectors * 64 + ss_ - 1) / ss_;
    const std::uint32_t others = dir_sectors + minifat_sectors + ministream_sectors + big_sectors;
    const std::uint32_t per_fat = ss_ / 4;
    std::uint32_t fat = 1;
    std::uint32_t difat = 0;
    for (;;) {
      difat = fat <= 109 ? 0 : (fat - 109 + per_fat - 2) / (per_fat - 1);
      if (std::uint64_t{fat} * per_fat >= std::uint64_t{others} + fat + difat) break;
      ++fat;
    }
    layout_ = {};
    layout_.sector_size = ss_;
    layout_.fat_sectors = fat;
    layout_.difat_sectors = difat;
    const std::uint32_t difat_start = fat;
    const std::uint32_t dir_start = difat_start + difat;
    const std::uint32_t minifat_start = dir_start + dir_sectors;
    const std::uint32_t ministream_start = minifat_start + minifat_sectors;
    const std::uint32_t big_start = ministream_start + ministream_sectors;
    const std::uint32_t total = big_start + big_sectors;
    layout_.directory_start = dir_start;
    layout_.entries = static_cast<std::uint32_t>(flat_.size());

    std::string out(std::size_t{total + 1} * ss_, '\0');
    // FAT.
    std::vector<std::uint32_t> table(std::size_t{fat} * per_fat, 0xFFFFFFFF);
    for (std::uint32_t i = 0; i < fat; ++i) table[i] = 0xFFFFFFFD;
    for (std::uint32_t i = 0; i < difat; ++i) table[difat_start + i] = 0xFFFFFFFC;
    auto chain = [&](std::uint32_t start, std::uint32_t count) {
      for (std::uint32_t i = 0; i < count; ++i) table[start + i] = i + 1 == count ? 0xFFFFFFFE : start + i + 1;
    };
    chain(dir_start, dir_sectors);
    chain(minifat_start, minifat_sectors);
    chain(ministream_start, ministream_sectors);
    for (Flat& f : flat_) {
      if (f.type != 2 || f.node->data.empty() || f.mini) continue;
      f.start += big_start;
      chain(f.start, static_cast<std::uint32_t>((f.node->data.size() + ss_ - 1) / ss_));
      std::copy(f.node->data.begin(), f.node->data.end(),
                out.begin() + static_cast<std::ptrdiff_t>(layout_.sector(f.start)));
    }
    for (std::size_t i = 0; i < table.size(); ++i) put32(out, layout_.sector(0) + i * 4, table[i]);
    // Mini FAT and mini stream.
    std::vector<std::uint32_t> mini(std::size_t{minifat_sectors} * per_fat, 0xFFFFFFFF);
    for (Flat& f : flat_) {
      if (!f.mini) continue;
      const auto count = static_cast<std::uint32_t>((f.node->data.size() + 63) / 64);
      for (std::uint32_t i = 0; i < count; ++i) mini[f.start + i] = i + 1 == count ? 0xFFFFFFFE : f.start + i + 1;
      std::copy(f.node->data.begin(), f.node->data.end(),
                out.begin() + static_cast<std::ptrdiff_t>(layout_.sector(ministream_start) + f.start * 64));
    }
    for (std::size_t i = 0; i < mini.size(); ++i) put32(out, layout_.sector(minifat_start) + i * 4, mini[i]);
    // Directory.
    for (std::uint32_t id = 0; id < flat_.size(); ++id) {
      const Flat& f = flat_[id];
      const std::size_t at = layout_.entry(id);
      const std::u16string name = utf16(f.name);
      for (std::size_t i = 0; i < name.size(); ++i) put16(out, at + i * 2, name[i]);
      put16(out, at + 64, static_cast<std::uint16_t>((name.size() + 1) * 2));
      out[at + 66] = static_cast<char>(f.type);
      out[at + 67] = 1;  // black
      put32(out, at + 68, f.left);
      put32(out, at + 72, f.right);
      put32(out, at + 76, f.child);
      if (f.type == 5) {
        put32(out, at + 116, mini_sectors > 0 ? ministream_start : 0xFFFFFFFE);
        put64(out, at + 120, std::uint64_t{mini_sectors} * 64);
      } else if (f.type == 2) {
        put32(out, at + 116, f.node->data.empty() ? 0xFFFFFFFE : f.start);
        put64(out, at + 120, f.node->data.size());
      }
    }
    for (std::size_t id = flat_.size(); id < std::size_t{dir_sectors} * ss_ / 128; ++id) {
      const std::size_t at = layout_.entry(static_cast<std::uint32_t>(id));
      put32(out, at + 68, 0xFFFFFFFF);
      put32(out, at + 72, 0xFFFFFFFF);
      put32(out, at + 76, 0xFFFFFFFF);
    }
    // Header.
    out.replace(0, 8, "\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", 8);
    put16(out, 24, 0x3E);
    put16(out, 26, static_cast<std::uint16_t>(version));
    put16(out, 28, 0xFFFE);
    put16(out, 30, version == 4 ? 12 : 9);
    put16(out, 32, 6);
    put32(out, 40, version == 4 ? dir_sectors : 0);
    put32(out, 44, fat);
    put32(out, 48, dir_start);
    put32(out, 56, 4096);
    put32(out, 60, minifat_sectors > 0 ? minifat_start : 0xFFFFFFFE);
    put32(out, 64, minifat_sectors);
    put32(out, 68, difat > 0 ? difat_start : 0xFFFFFFFE);
    put32(out, 72, difat);
    for (std::uint32_t i = 0; i < 109; ++i) put32(out, 76 + i * 4, i < fat ? i : 0xFFFFFFFF);
    for (std::uint32_t d = 0; d < difat; ++d) {
      const std::size_t at = layout_.sector(difat_start + d);
      for (std::uint32_t i = 0; i < per_fat - 1; ++i) {
        const std::uint32_t index = 109 + d * (per_fat - 1) + i;
        put32(out, at + i * 4, index < fat ? index : 0xFFFFFFFF);
      }
      put32(out, at + (per_fat - 1) * 4, d + 1 == difat ? 0xFFFFFFFE : difat_start + d + 1);
    }
    return out;
  }

  [[nodiscard]] const CfbLayout& layout() const { return layout_; }

  /// The directory id the last build gave the entry at `path` (names from the root).
  [[nodiscard]] std::uint32_t id_of(const std::vector<std::string>& path) const {
    std::uint32_t at = 0;
    for (const std::string& name : path) {
      bool found = false;
      for (std::uint32_t id = 1; id < flat_.size(); ++id)
        if (flat_[id].parent == at && flat_[id].name == name) {
          at = id;
          found = true;
          break;
        }
      if (!found) return 0xFFFFFFFF;
    }
    return at;
  }

 private:
  struct Flat {
    std::string name;
    std::uint8_t type = 0;
    const CfbNode* node = nullptr;
    std::vector<std::uint32_t> kids;
    std::uint32_t parent = 0;
    std::uint32_t left = 0xFFFFFFFF;
    std::uint32_t right = 0xFFFFFFFF;
    std::uint32_t child = 0xFFFFFFFF;
    std::uint32_t start = 0;
    bool mini = false;
  };

  static std::u16string utf16(const std::string& utf8) {
    std::u16string out;
    for (std::size_t i = 0; i < utf8.size();) {
      const auto c = static_cast<unsigned char>(utf8[i]);
      if (c < 0x80) {
        out += static_cast<char16_t>(c);
        i += 1;
      } else if (c < 0xE0) {
        out += static_cast<char16_t>(((c & 0x1F) << 6) | (utf8[i + 1] & 0x3F));
        i += 2;
      } else {
        out += static_cast<char16_t>(((c & 0x0F) << 12) | ((utf8[i + 1] & 0x3F) << 6) | (utf8[i + 2] & 0x3F));
        i += 3;
      }
    }
    return out;
  }

  // [MS-CFB]'s order of names: shorter first, then by upper-case code units.
  static bool before(const std::string& a, const std::string& b) {
    const std::u16string x = utf16(a);
    const std::u16string y = utf16(b);
    if (x.size() != y.size()) return x.size() < y.size();
    for (std::size_t i = 0; i < x.size(); ++i) {
      auto up = [](char16_t c) { return c >= u'a' && c <= u'z' ? static_cast<char16_t>(c - 32) : c; };
      if (up(x[i]) != up(y[i])) return up(x[i]) < up(y[i]);
    }
    return false;
  }

  // Gives ids to `children` (pre-order) and hangs them under `parent` as a balanced tree.
  void add_children(std::uint32_t parent, const std::vector<CfbNode>& children) {
    std::vector<std::uint32_t> ids;
    for (const CfbNode& node : children) {
      const auto id = static_cast<std::uint32_t>(flat_.size());
      Flat f;
      f.name = node.name;
      f.type = node.storage ? 1 : 2;
      f.node = &node;
      f.parent = parent;
      flat_.push_back(f);
      ids.push_back(id);
      if (node.storage) add_children(id, node.children);
    }
    std::sort(ids.begin(), ids.end(),
              [&](std::uint32_t a, std::uint32_t b) { return before(flat_[a].name, flat_[b].name); });
    flat_[parent].child = balanced(ids, 0, ids.size());
  }

  std::uint32_t balanced(const std::vector<std::uint32_t>& ids, std::size_t from, std::size_t to) {
    if (from >= to) return 0xFFFFFFFF;
    const std::size_t mid = from + (to - from) / 2;
    flat_[ids[mid]].left = balanced(ids, from, mid);
    flat_[ids[mid]].right = balanced(ids, mid + 1, to);
    return ids[mid];
  }

  std::uint32_t ss_ = 512;
  std::vector<Flat> flat_;
  CfbLayout layout_;
};

}  // namespace ptmpl::testing
