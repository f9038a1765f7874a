// A reader of compound files ([MS-CFB] versions 3 and 4: the container of Microsoft Project's
// .mpp files and of Office 97–2003 documents), over bytes in memory or a file read at offsets.
//
// Everything is bounded against hostile input: every sector chain is walked with a bitmap of the
// sectors seen (a loop is an error, and no chain is longer than the file has sectors), every
// sector number is checked against the file, stream sizes are checked against their chains
// before anything is allocated, and the directory tree is walked without recursion, each entry
// at most once. Every failure is an Error (ErrorCode::kInvalid) whose message names the file and
// what is wrong. Memory and reads: the header, then only the sectors the DIFAT, the FAT chains
// and the directory name (each FAT sector once), never the rest of the file, and nothing in
// proportion to a size declared before the sectors that hold it are found: a file padded with
// gigabytes costs what its tables and streams hold.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/result.hpp"

namespace ptmpl::cfb {

/// The eight bytes every compound file starts with.
inline constexpr std::string_view kSignature{"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", 8};

/// Whether `bytes` start with the compound file signature.
[[nodiscard]] inline bool has_signature(std::string_view bytes) {
  return bytes.substr(0, kSignature.size()) == kSignature;
}

enum class EntryType : std::uint8_t { Storage, Stream, Root };

/// One storage or stream of the tree (a directory entry reached from the root).
struct Entry {
  std::uint32_t id = 0;      ///< its index in the directory
  std::uint32_t parent = 0;  ///< the storage holding it (the root is its own parent)
  EntryType type = EntryType::Stream;
  std::string name;  ///< UTF-8 (the file's UTF-16; an unpaired surrogate becomes U+FFFD)
  /// Streams: the size in bytes (version 3: the low 32 bits only, as [MS-CFB] says); the root:
  /// the mini stream's size.
  std::uint64_t size = 0;
  std::uint32_t start = 0;  ///< the first sector (mini sector for streams under the cutoff)
  /// Storages and the root: the entries inside, in the directory's order (its red-black tree
  /// walked in order).
  std::vector<std::uint32_t> children;

  [[nodiscard]] bool is_storage() const { return type != EntryType::Stream; }
};

class CompoundFile {
 public:
  /// Reads the header, the DIFAT, the FAT, the mini FAT and the directory of `bytes` (owned or
  /// borrowed; a borrowed text must outlive the CompoundFile). `path` names the file in messages.
  [[nodiscard]] static Result<CompoundFile> open(FileText bytes, std::string path);
  /// Opens the regular file at `path` (RandomAccessFile::open) and open()s it, reading at offsets.
  [[nodiscard]] static Result<CompoundFile> read(const std::string& path);
  /// open() over a file read at offsets: only its header and the sectors its tables name are
  /// read, as they are needed; the file stays open for read_stream().
  [[nodiscard]] static Result<CompoundFile> open(RandomAccessFile file, std::string path);

  [[nodiscard]] int version() const { return version_; }
  [[nodiscard]] std::uint32_t sector_size() const { return sector_size_; }
  [[nodiscard]] const std::string& path() const { return path_; }

  /// The root storage ("Root Entry").
  [[nodiscard]] const Entry& root() const { return entries_.front(); }
  /// Every entry reachable from the root, the root first; `Entry::children` index this.
  [[nodiscard]] const Entry& entry(std::uint32_t index) const { return entries_[index]; }
  [[nodiscard]] std::size_t entry_count() const { return entries_.size(); }
  /// The entries inside a storage, in order.
  [[nodiscard]] std::vector<const Entry*> children(const Entry& storage) const;
  /// The child of `storage` named `name` (compared without regard to the case of ASCII letters,
  /// as [MS-CFB] compares names); nullptr when there is none.
  [[nodiscard]] const Entry* child(const Entry& storage, std::string_view name) const;
  /// The entry at `path` from the root (e.g. {"   114", "TBkndTask", "FixedMeta"}); nullptr
  /// when a step is missing.
  [[nodiscard]] const Entry* find(std::span<const std::string_view> path) const;
  [[nodiscard]] const Entry* find(std::initializer_list<std::string_view> path) const {
    return find(std::span<const std::string_view>(path.begin(), path.size()));
  }

  /// The bytes of a stream, from the FAT or (under the mini stream cutoff) the mini FAT. Fails,
  /// naming the stream, when its chain loops, leaves the file or holds fewer bytes than its size.
  [[nodiscard]] Result<std::string> read_stream(const Entry& stream) const;
  /// The stream at `path`; a missing one is ErrorCode::kNotFound.
  [[nodiscard]] Result<std::string> read_stream(std::initializer_list<std::string_view> path) const;

  /// The entry's path from the root, each name quoted as JSON quotes it, for messages:
  /// `"   114"/"TBkndTask"/"FixedMeta"`.
  [[nodiscard]] std::string describe(const Entry& entry) const;

 private:
  CompoundFile() = default;
  // Reads the header, the DIFAT, the FAT, the mini FAT and the directory.
  [[nodiscard]] Status load();
  // Appends the `length` bytes at `offset` (within size_) to `out`.
  [[nodiscard]] Status read_at(std::uint64_t offset, std::uint64_t length, std::string& out) const;

  FileText bytes_;                        // the bytes, when opened over them
  std::optional<RandomAccessFile> file_;  // or the file, read at offsets
  std::uint64_t size_ = 0;
  std::string path_;
  int version_ = 3;
  std::uint32_t sector_size_ = 512;
  std::uint32_t sector_count_ = 0;  // whole or partial sectors after the header
  std::vector<std::uint32_t> fat_;
  std::vector<std::uint32_t> mini_fat_;
  std::vector<std::uint32_t> mini_stream_sectors_;  // the root's chain
  std::uint64_t mini_stream_size_ = 0;
  std::vector<Entry> entries_;
};

/// What the `\1CompObj` stream says of the file ([MS-OLEDS] CompObjStream): the application that
/// wrote it ("Microsoft.Project 15.0"), the format ("MSProject.MPP14") and the program id
/// ("MSProject.Project.9"). Its ANSI text is read as Latin-1; control characters become '?'.
struct CompObj {
  std::string user_type;
  std::string format;
  std::string prog_id;
};

/// Reads `\1CompObj` at the root. A file without one is ErrorCode::kNotFound; one too short for
/// its own lengths, ErrorCode::kInvalid.
[[nodiscard]] Result<CompObj> read_comp_obj(const CompoundFile& file);

}  // namespace ptmpl::cfb
