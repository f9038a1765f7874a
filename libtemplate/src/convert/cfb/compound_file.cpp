// The compound file reader ([MS-CFB] versions 3 and 4); see compound_file.hpp.
#include "convert/cfb/compound_file.hpp"

#include <algorithm>
#include <cstring>
#include <unordered_set>
#include <utility>

#include "convert/cfb/little_endian.hpp"
#include "libtemplate/core/json.hpp"

namespace ptmpl::cfb {

namespace {

// Special sector numbers ([MS-CFB] 2.1): every value above kMaxRegularSector marks something.
constexpr std::uint32_t kMaxRegularSector = 0xFFFFFFFA;
constexpr std::uint32_t kDifatSector = 0xFFFFFFFC;
constexpr std::uint32_t kFatSector = 0xFFFFFFFD;
constexpr std::uint32_t kEndOfChain = 0xFFFFFFFE;
constexpr std::uint32_t kFreeSector = 0xFFFFFFFF;
constexpr std::uint32_t kNoStream = 0xFFFFFFFF;  // a directory entry's absent sibling or child

constexpr std::uint32_t kHeaderBytes = 512;  // what the header's fields take (version 4 pads to 4096)
constexpr std::uint32_t kHeaderDifatEntries = 109;
constexpr std::uint32_t kEntryBytes = 128;
constexpr std::uint32_t kMiniSectorSize = 64;
constexpr std::uint32_t kMiniStreamCutoff = 4096;

// `value` as 0x and `digits` hexadecimal digits.
std::string hex(std::uint32_t value, int digits) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string out = "0x";
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) out += kDigits[(value >> shift) & 0xF];
  return out;
}

// What a special value in a chain means, for messages.
std::string_view marker_name(std::uint32_t value) {
  switch (value) {
    case kFreeSector:
      return "a free sector";
    case kFatSector:
      return "the mark of a FAT sector";
    case kDifatSector:
      return "the mark of a DIFAT sector";
    default:
      return "a reserved value";
  }
}

char ascii_upper(char c) {
  return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return ascii_upper(x) == ascii_upper(y); });
}

// One directory entry as stored, before it is known to be reachable.
struct RawEntry {
  std::string_view bytes;  // 128 bytes
  [[nodiscard]] std::uint8_t type() const { return static_cast<std::uint8_t>(bytes[66]); }
  [[nodiscard]] std::uint32_t left() const { return u32(bytes, 68); }
  [[nodiscard]] std::uint32_t right() const { return u32(bytes, 72); }
  [[nodiscard]] std::uint32_t child() const { return u32(bytes, 76); }
};

constexpr std::uint8_t kTypeUnused = 0;
constexpr std::uint8_t kTypeStorage = 1;
constexpr std::uint8_t kTypeStream = 2;
constexpr std::uint8_t kTypeRoot = 5;

// Walks sector chains of one table (the FAT or the mini FAT) with a bitmap of the sectors seen.
class ChainWalker {
 public:
  ChainWalker(const std::vector<std::uint32_t>& table, std::uint64_t sectors, bool mini)
      : table_(table), limit_(std::min<std::uint64_t>(table.size(), sectors)), sectors_(sectors), mini_(mini) {}

  // The chain from `start`, at most `most` sectors long (the walk stops there). `what` names
  // the chain's owner in messages ("the directory", "stream \"A\"").
  Result<std::vector<std::uint32_t>> walk(std::uint32_t start, std::uint64_t most, const std::string& what) {
    std::vector<std::uint32_t> chain;
    std::vector<bool> seen(static_cast<std::size_t>(limit_), false);
    std::uint32_t at = start;
    std::uint32_t from = kNoStream;  // the sector whose entry named `at`
    while (chain.size() < most && at != kEndOfChain) {
      if (at > kMaxRegularSector) {
        std::string message = what;
        message += mini_ ? "'s mini FAT chain" : "'s FAT chain";
        append_step(message, from);
        message += marker_name(at);
        message += " (" + hex(at, 8) + ") instead of a ";
        message += unit();
        message += " or the end of the chain";
        return Error::invalid(std::move(message));
      }
      if (at >= limit_) {
        std::string message = what + "'s chain";
        append_step(message, from);
        append_sector(message, at);
        if (at >= sectors_) {
          message += ", beyond the " + std::to_string(sectors_) + " ";
          message += unit();
          message += mini_ ? "s of the mini stream" : "s the file holds";
        } else {
          message += mini_ ? ", which the mini FAT (" : ", which the FAT (";
          message += std::to_string(table_.size()) + " entries) does not cover";
        }
        return Error::invalid(std::move(message));
      }
      if (seen[at]) {
        std::string message = what + "'s chain loops: ";
        append_sector(message, from);
        message += " leads back to ";
        append_sector(message, at);
        return Error::invalid(std::move(message));
      }
      seen[at] = true;
      chain.push_back(at);
      from = at;
      at = table_[at];
    }
    return chain;
  }

 private:
  [[nodiscard]] std::string_view unit() const { return mini_ ? "mini sector" : "sector"; }
  // "mini sector 7".
  void append_sector(std::string& out, std::uint32_t sector) const {
    out += unit();
    out += ' ';
    out += std::to_string(sector);
  }
  // " starts at " or " goes from sector 6 to ".
  void append_step(std::string& out, std::uint32_t from) const {
    if (from == kNoStream) {
      out += " starts at ";
      return;
    }
    out += " goes from ";
    append_sector(out, from);
    out += " to ";
  }

  const std::vector<std::uint32_t>& table_;
  std::uint64_t limit_;
  std::uint64_t sectors_;
  bool mini_;
};

std::uint64_t sectors_for(std::uint64_t bytes, std::uint32_t sector_size) {
  return bytes / sector_size + (bytes % sector_size != 0 ? 1 : 0);
}

}  // namespace

Result<CompoundFile> CompoundFile::read(const std::string& path) {
  Result<RandomAccessFile> opened = RandomAccessFile::open(path);
  if (!opened.ok()) return opened.error();
  return open(std::move(opened.value()), path);
}

Result<CompoundFile> CompoundFile::open(RandomAccessFile opened, std::string path) {
  CompoundFile file;
  file.size_ = opened.size();
  file.file_ = std::move(opened);
  file.path_ = std::move(path);
  if (Status s = file.load(); !s.ok()) return s.error();
  return file;
}

Result<CompoundFile> CompoundFile::open(FileText bytes, std::string path) {
  CompoundFile file;
  file.size_ = bytes.text().size();
  file.bytes_ = std::move(bytes);
  file.path_ = std::move(path);
  if (Status s = file.load(); !s.ok()) return s.error();
  return file;
}

Status CompoundFile::read_at(std::uint64_t offset, std::uint64_t length, std::string& out) const {
  if (file_) return file_->read(offset, static_cast<std::size_t>(length), out);
  out.append(bytes_.text().substr(static_cast<std::size_t>(offset), static_cast<std::size_t>(length)));
  return Done{};
}

Status CompoundFile::load() {
  const std::string& path = path_;
  CompoundFile& file = *this;
  auto fail = [&](const std::string& what) { return Error::invalid(path + ": " + what); };
  std::string data;
  if (Status s = read_at(0, std::min<std::uint64_t>(size_, kHeaderBytes), data); !s.ok()) return s.error();
  if (!has_signature(data))
    return fail("not a compound file: it does not start with the signature D0 CF 11 E0 A1 B1 1A E1");
  if (size_ < kHeaderBytes)
    return fail("compound file cut off: " + std::to_string(size_) + " bytes, fewer than the 512 of its header");
  const std::uint16_t major = u16(data, 26);
  if (major != 3 && major != 4)
    return fail("compound file header: major version " + std::to_string(major) +
                "; ptmpl reads versions 3 and 4 (the only ones [MS-CFB] defines)");
  const std::uint16_t byte_order = u16(data, 28);
  if (byte_order != 0xFFFE)
    return fail("compound file header: byte order mark " + hex(byte_order, 4) + ", not 0xFFFE (little-endian)");
  const std::uint16_t shift = u16(data, 30);
  const std::uint16_t expected_shift = major == 3 ? 9 : 12;
  if (shift != expected_shift)
    return fail("compound file header: sector shift " + std::to_string(shift) + "; version " + std::to_string(major) +
                " has " + std::to_string(expected_shift) + " (" + std::to_string(1u << expected_shift) +
                "-byte sectors)");
  if (const std::uint16_t mini_shift = u16(data, 32); mini_shift != 6)
    return fail("compound file header: mini sector shift " + std::to_string(mini_shift) +
                ", not 6 (64-byte mini sectors)");
  if (const std::uint32_t cutoff = u32(data, 56); cutoff != kMiniStreamCutoff)
    return fail("compound file header: mini stream cutoff " + std::to_string(cutoff) + ", not 4096");

  file.version_ = major;
  file.sector_size_ = 1u << shift;
  const std::uint32_t ss = file.sector_size_;
  if (size_ < ss)
    return fail("compound file cut off: " + std::to_string(size_) + " bytes, fewer than the " + std::to_string(ss) +
                " of a version 4 header");
  // Sectors after the header; a last one the file cuts short counts (its missing bytes are
  // refused where they would be read).
  file.sector_count_ = static_cast<std::uint32_t>(
      std::min<std::uint64_t>(sectors_for(size_ - ss, ss), std::uint64_t{kMaxRegularSector} + 1));
  const std::uint64_t sectors = file.sector_count_;

  // A whole sector of the file (tables must not be cut short), appended to `out`.
  auto sector_bytes = [&](std::uint32_t sector, const std::string& what, std::string& out) -> Status {
    if (sector >= sectors)
      return fail(what + " is sector " + std::to_string(sector) + ", beyond the " + std::to_string(sectors) +
                  " sectors the file holds");
    const std::uint64_t offset = (std::uint64_t{sector} + 1) * ss;
    if (offset + ss > size_)
      return fail(what + " (sector " + std::to_string(sector) + ") is cut off by the end of the file");
    return read_at(offset, ss, out);
  };

  // The DIFAT: the FAT's sectors, 109 in the header, the rest in a chain of DIFAT sectors.
  const std::uint32_t fat_count = u32(data, 44);
  if (fat_count > sectors)
    return fail("compound file header: " + std::to_string(fat_count) + " FAT sectors, more than the " +
                std::to_string(sectors) + " sectors the file holds");
  // Nothing is allocated for what the header declares before the DIFAT names it: a table
  // grows as its sectors are read, each sector once.
  std::vector<std::uint32_t> fat_sectors;
  for (std::uint32_t i = 0; i < kHeaderDifatEntries && fat_sectors.size() < fat_count; ++i)
    fat_sectors.push_back(u32(data, 76 + std::size_t{i} * 4));
  {
    std::unordered_set<std::uint32_t> seen;  // DIFAT sectors read (not a bitmap of the file)
    std::string difat;
    std::uint32_t next = u32(data, 68);
    std::uint32_t index = 0;
    const std::uint32_t per_sector = ss / 4 - 1;
    while (fat_sectors.size() < fat_count) {
      if (next > kMaxRegularSector)
        return fail("the DIFAT lists " + std::to_string(fat_sectors.size()) + " of the header's " +
                    std::to_string(fat_count) + " FAT sectors: its chain ends after " + std::to_string(index) +
                    " DIFAT sectors");
      difat.clear();
      if (Status s = sector_bytes(next, "DIFAT sector " + std::to_string(index), difat); !s.ok()) return s.error();
      if (!seen.insert(next).second)
        return fail("the DIFAT's chain loops: DIFAT sector " + std::to_string(index) + " is sector " +
                    std::to_string(next) + " again");
      for (std::uint32_t i = 0; i < per_sector && fat_sectors.size() < fat_count; ++i)
        fat_sectors.push_back(u32(difat, std::size_t{i} * 4));
      next = u32(difat, std::size_t{per_sector} * 4);
      ++index;
    }
  }
  {
    // Each FAT sector once: a DIFAT naming one sector again and again would make a FAT larger
    // than the file from a few bytes.
    std::unordered_set<std::uint32_t> seen;
    std::string sector;
    for (std::uint32_t i = 0; i < fat_count; ++i) {
      if (!seen.insert(fat_sectors[i]).second)
        return fail("the DIFAT names sector " + std::to_string(fat_sectors[i]) + " as FAT sector " + std::to_string(i) +
                    ", but it is already an earlier FAT sector");
      sector.clear();
      if (Status s = sector_bytes(fat_sectors[i], "FAT sector " + std::to_string(i), sector); !s.ok()) return s.error();
      for (std::uint32_t at = 0; at < ss; at += 4) file.fat_.push_back(u32(sector, at));
    }
  }

  // Reads a table or the directory: the whole chain from `start`, sector by sector.
  ChainWalker fat_walker(file.fat_, sectors, false);
  auto chain_bytes = [&](std::uint32_t start, const std::string& what) -> Result<std::string> {
    Result<std::vector<std::uint32_t>> chain = fat_walker.walk(start, sectors, what);
    if (!chain.ok()) return Error::invalid(path + ": " + chain.error().message);
    std::string out;
    out.reserve(chain.value().size() * ss);
    for (std::size_t i = 0; i < chain.value().size(); ++i)
      if (Status s = sector_bytes(chain.value()[i], what + "'s sector " + std::to_string(i), out); !s.ok())
        return s.error();
    return out;
  };

  // The directory.
  Result<std::string> directory = chain_bytes(u32(data, 48), "the directory");
  if (!directory.ok()) return directory.error();
  const std::string& dir = directory.value();
  const std::size_t raw_count = dir.size() / kEntryBytes;
  if (raw_count == 0) return fail("the compound file's directory is empty: it has no root storage");
  auto raw = [&](std::uint32_t id) {
    return RawEntry{std::string_view(dir).substr(std::size_t{id} * kEntryBytes, kEntryBytes)};
  };
  if (raw(0).type() != kTypeRoot)
    return fail("directory entry 0 is not the root storage (its type is " + std::to_string(raw(0).type()) + ", not 5)");

  // Each reachable entry once, in a compact list: the root first, then each storage's children
  // (its sibling tree walked in order, without recursion).
  std::vector<bool> reached(raw_count, false);
  reached[0] = true;
  auto make_entry = [&](std::uint32_t id, std::uint32_t parent) -> Result<Entry> {
    const RawEntry r = raw(id);
    Entry e;
    e.id = id;
    e.parent = parent;
    e.type = r.type() == kTypeRoot      ? EntryType::Root
             : r.type() == kTypeStorage ? EntryType::Storage
                                        : EntryType::Stream;
    const std::uint16_t name_bytes = u16(r.bytes, 64);
    if (name_bytes > 64 || name_bytes % 2 != 0)
      return fail("directory entry " + std::to_string(id) + " has a name " + std::to_string(name_bytes) +
                  " bytes long; a name takes at most 64 bytes, an even number");
    e.name = utf16le_text(r.bytes.substr(0, name_bytes));
    e.start = u32(r.bytes, 116);
    e.size = file.version_ == 3 ? u32(r.bytes, 120) : u64(r.bytes, 120);
    return e;
  };
  Result<Entry> root = make_entry(0, 0);
  if (!root.ok()) return root.error();
  file.entries_.push_back(std::move(root.value()));
  std::vector<std::uint32_t> stack;
  for (std::size_t storage = 0; storage < file.entries_.size(); ++storage) {
    if (!file.entries_[storage].is_storage()) continue;
    const std::uint32_t storage_id = file.entries_[storage].id;
    // `from` and `field` say where a bad id was found.
    auto visit = [&](std::uint32_t id, std::uint32_t from, std::string_view field) -> Status {
      if (id >= raw_count)
        return fail("directory entry " + std::to_string(from) + " names entry " + std::to_string(id) + " as its " +
                    std::string(field) + ", but the directory has " + std::to_string(raw_count) + " entries");
      if (reached[id])
        return fail("directory entry " + std::to_string(from) + " names entry " + std::to_string(id) + " as its " +
                    std::string(field) + ", which is already in the tree: the directory has a cycle");
      const std::uint8_t type = raw(id).type();
      if (type != kTypeStorage && type != kTypeStream)
        return fail("directory entry " + std::to_string(from) + " names entry " + std::to_string(id) + " as its " +
                    std::string(field) + ", which is " +
                    (type == kTypeUnused ? std::string("unused")
                     : type == kTypeRoot ? std::string("a second root")
                                         : "of the unknown type " + std::to_string(type)));
      reached[id] = true;
      stack.push_back(id);
      return Done{};
    };
    std::uint32_t from = storage_id;
    std::uint32_t at = raw(storage_id).child();
    std::string_view field = "child";
    while (at != kNoStream || !stack.empty()) {
      while (at != kNoStream) {
        if (Status s = visit(at, from, field); !s.ok()) return s.error();
        from = at;
        field = "left sibling";
        at = raw(at).left();
      }
      const std::uint32_t id = stack.back();
      stack.pop_back();
      Result<Entry> e = make_entry(id, static_cast<std::uint32_t>(storage));
      if (!e.ok()) return e.error();
      file.entries_[storage].children.push_back(static_cast<std::uint32_t>(file.entries_.size()));
      file.entries_.push_back(std::move(e.value()));
      from = id;
      field = "right sibling";
      at = raw(id).right();
    }
  }

  // The mini FAT and the mini stream (the root's chain).
  const Entry& root_entry = file.entries_.front();
  file.mini_stream_size_ = root_entry.size;
  if (file.mini_stream_size_ > size_)
    return fail("the mini stream (the root storage's stream) is said to hold " +
                std::to_string(file.mini_stream_size_) + " bytes, more than the whole file (" + std::to_string(size_) +
                " bytes)");
  if (file.mini_stream_size_ > 0) {
    const std::uint64_t needed = sectors_for(file.mini_stream_size_, ss);
    Result<std::vector<std::uint32_t>> chain = fat_walker.walk(root_entry.start, needed, "the mini stream");
    if (!chain.ok()) return fail(chain.error().message);
    if (chain.value().size() < needed)
      return fail("the mini stream is said to hold " + std::to_string(file.mini_stream_size_) +
                  " bytes, but its chain has only " + std::to_string(chain.value().size()) + " sectors (" +
                  std::to_string(chain.value().size() * ss) + " bytes)");
    file.mini_stream_sectors_ = std::move(chain.value());
  }
  if (const std::uint32_t mini_fat_count = u32(data, 64); mini_fat_count > 0) {
    Result<std::string> mini_fat = chain_bytes(u32(data, 60), "the mini FAT");
    if (!mini_fat.ok()) return mini_fat.error();
    file.mini_fat_.reserve(mini_fat.value().size() / 4);
    for (std::size_t at = 0; at + 4 <= mini_fat.value().size(); at += 4)
      file.mini_fat_.push_back(u32(mini_fat.value(), at));
  }
  return Done{};
}

std::vector<const Entry*> CompoundFile::children(const Entry& storage) const {
  std::vector<const Entry*> out;
  out.reserve(storage.children.size());
  for (std::uint32_t index : storage.children) out.push_back(&entries_[index]);
  return out;
}

const Entry* CompoundFile::child(const Entry& storage, std::string_view name) const {
  for (std::uint32_t index : storage.children)
    if (same_name(entries_[index].name, name)) return &entries_[index];
  return nullptr;
}

const Entry* CompoundFile::find(std::span<const std::string_view> path) const {
  const Entry* at = &root();
  for (std::string_view name : path) {
    if (!at->is_storage()) return nullptr;
    at = child(*at, name);
    if (at == nullptr) return nullptr;
  }
  return at;
}

std::string CompoundFile::describe(const Entry& entry) const {
  if (entry.type == EntryType::Root) return "the root storage";
  std::vector<const Entry*> steps;
  for (const Entry* at = &entry; at->type != EntryType::Root; at = &entries_[at->parent]) steps.push_back(at);
  std::string out;
  for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
    if (!out.empty()) out += '/';
    out += json::quoted((*it)->name);
  }
  return out;
}

Result<std::string> CompoundFile::read_stream(std::initializer_list<std::string_view> path) const {
  const Entry* entry = find(path);
  if (entry == nullptr) {
    std::string named;
    for (std::string_view name : path) named += (named.empty() ? "" : "/") + json::quoted(name);
    return Error::not_found(path_ + ": the compound file holds no stream " + named);
  }
  return read_stream(*entry);
}

Result<std::string> CompoundFile::read_stream(const Entry& stream) const {
  const std::string what = (stream.is_storage() ? "storage " : "stream ") + describe(stream);
  auto fail = [&](const std::string& message) { return Error::invalid(path_ + ": " + message); };
  if (stream.is_storage()) return fail(what + " is a storage, not a stream");
  if (stream.size == 0) return std::string();
  if (stream.size > size_)
    return fail(what + " is said to hold " + std::to_string(stream.size) + " bytes, more than the whole file (" +
                std::to_string(size_) + " bytes)");
  const bool mini = stream.size < kMiniStreamCutoff;
  const std::uint32_t unit = mini ? kMiniSectorSize : sector_size_;
  const std::uint64_t needed = sectors_for(stream.size, unit);
  ChainWalker walker(mini ? mini_fat_ : fat_,
                     mini ? sectors_for(mini_stream_size_, kMiniSectorSize) : std::uint64_t{sector_count_}, mini);
  Result<std::vector<std::uint32_t>> chain = walker.walk(stream.start, needed, what);
  if (!chain.ok()) return fail(chain.error().message);
  if (chain.value().size() < needed)
    return fail(what + " is said to hold " + std::to_string(stream.size) + " bytes, but its " +
                (mini ? "mini FAT" : "FAT") + " chain has only " + std::to_string(chain.value().size()) + " " +
                (mini ? "mini sectors" : "sectors") + " (" + std::to_string(chain.value().size() * unit) + " bytes)");
  std::string out;
  out.reserve(static_cast<std::size_t>(stream.size));
  for (std::uint32_t sector : chain.value()) {
    const std::uint64_t length = std::min<std::uint64_t>(unit, stream.size - out.size());
    std::uint64_t offset = 0;
    if (mini) {
      // A mini sector lies inside the mini stream, itself in the sectors of the root's chain.
      const std::uint64_t in_mini = std::uint64_t{sector} * kMiniSectorSize;
      if (in_mini + length > mini_stream_size_)
        return fail(what + "'s mini sector " + std::to_string(sector) + " runs past the end of the mini stream (" +
                    std::to_string(mini_stream_size_) + " bytes)");
      offset =
          (std::uint64_t{mini_stream_sectors_[in_mini / sector_size_]} + 1) * sector_size_ + in_mini % sector_size_;
    } else {
      offset = (std::uint64_t{sector} + 1) * sector_size_;
    }
    if (offset + length > size_)
      return fail(what + " is cut off by the end of the file (in " + (mini ? "mini sector " : "sector ") +
                  std::to_string(sector) + ")");
    if (Status s = read_at(offset, length, out); !s.ok()) return s.error();
  }
  return out;
}

Result<CompObj> read_comp_obj(const CompoundFile& file) {
  Result<std::string> stream =
      file.read_stream({"\x01"
                        "CompObj"});
  if (!stream.ok()) return stream.error();
  const std::string_view bytes = stream.value();
  auto cut = [&](std::string_view field) {
    return Error::invalid(file.path() + ": the compound file's \"\\u0001CompObj\" stream (" +
                          std::to_string(bytes.size()) + " bytes) is cut off in its " + std::string(field));
  };
  std::size_t at = 28;  // reserved, version, reserved
  if (bytes.size() < at) return cut("header");
  // A length-prefixed ANSI string, read as Latin-1 up to its NUL.
  auto text = [&](std::string_view field) -> Result<std::string> {
    if (bytes.size() - at < 4) return cut(field);
    const std::uint32_t length = u32(bytes, at);
    at += 4;
    if (length > bytes.size() - at) return cut(field);
    std::string out;
    for (char c : bytes.substr(at, length)) {
      const auto byte = static_cast<unsigned char>(c);
      if (byte == 0) break;
      if (byte < 0x20 || byte == 0x7F || (byte >= 0x80 && byte < 0xA0)) {
        out += '?';
      } else {
        append_utf8(out, byte);
      }
    }
    at += length;
    return out;
  };
  CompObj out;
  Result<std::string> user_type = text("user type");
  if (!user_type.ok()) return user_type.error();
  out.user_type = std::move(user_type.value());
  // The clipboard format: a string, nothing (0), or a marker and a standard format's number.
  if (bytes.size() - at < 4) return cut("clipboard format");
  if (const std::uint32_t marker = u32(bytes, at); marker == 0xFFFFFFFF || marker == 0xFFFFFFFE) {
    if (bytes.size() - at < 8) return cut("clipboard format");
    at += 8;
  } else {
    Result<std::string> format = text("clipboard format");
    if (!format.ok()) return format.error();
    out.format = std::move(format.value());
  }
  if (bytes.size() - at >= 4) {
    Result<std::string> prog_id = text("program id");
    if (!prog_id.ok()) return prog_id.error();
    out.prog_id = std::move(prog_id.value());
  }
  return out;
}

}  // namespace ptmpl::cfb
