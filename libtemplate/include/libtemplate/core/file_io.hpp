// The one component through which the tool reads its inputs and writes every byte to a place
// the user named (docs/semantics.md §11 "Writing output" and "Rewriting a user's file").
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "libtemplate/core/result.hpp"

namespace ptmpl {

namespace detail {
class TextEnd;  // where a text read by FileText::read_text() ends (file_io.cpp)
}  // namespace detail

/// Which files a read takes: any that can be read (a FIFO, a device: read to their end, as a
/// command reads the files its user names), or regular files alone (what a server reads at
/// start on its own: a FIFO there would block it, a device might never end).
enum class FileKinds { kAny, kRegularOnly };

/// The bytes of a file: owned (read whole), or borrowed from the caller.
class FileText {
 public:
  FileText() = default;
  explicit FileText(std::string owned);
  FileText(FileText&&) noexcept;
  FileText& operator=(FileText&&) noexcept;
  FileText(const FileText&) = delete;
  FileText& operator=(const FileText&) = delete;
  ~FileText();

  [[nodiscard]] std::string_view text() const { return view_; }

  /// Whether the bytes were read whole from a regular file (which can be read again).
  [[nodiscard]] bool from_regular_file() const { return regular_; }

  /// The bytes, writable, when they are held in pages of their own (an input of 64 KiB or more,
  /// or of unknown size); null otherwise (a small file, borrowed bytes). Whoever writes them
  /// owns what text() then says.
  [[nodiscard]] char* pages() { return page_bytes_ != 0 ? const_cast<char*>(view_.data()) : nullptr; }

  /// Keeps the first `keep` bytes of pages() and gives every whole page after them back to the
  /// system: text() is then those `keep` bytes. Does nothing when the bytes are not in pages.
  void keep_only(std::size_t keep);

  /// Bytes the caller owns and keeps alive as long as this FileText and what is parsed from it.
  static FileText borrow(std::string_view bytes) {
    FileText text;
    text.view_ = bytes;
    return text;
  }

  /// The most bytes read from an input whose size is not known beforehand (standard input, a
  /// pipe, a device such as /dev/zero): docs/semantics.md §11's 2 GiB. A regular file is read whole.
  static constexpr std::uint64_t kMaxStreamBytes = std::uint64_t{2} << 30;

  /// Reads `path` ("-" reads standard input). Fails with a message naming the file; kInvalid
  /// when an input that is not a regular file goes on past `stream_limit` bytes.
  static Result<FileText> read(const std::string& path, std::uint64_t stream_limit = kMaxStreamBytes);

  /// How read_text() reads a compound file (a `.mpp`) or a zip archive (a workbook): whole, for
  /// a converter, or only its first MiB, which names the plan where a template is read
  /// (plan_instead_of_template()).
  enum class Compound : bool { kWhole, kFirstMiB };

  /// Reads `path` as read() does, as far as a text goes: a text ends at its first NUL byte,
  /// which is kept (every reader refuses it there, naming its place) and nothing after it is
  /// read, so a file padded with zeros costs what comes before them. UTF-16 text (a byte order
  /// mark, or two ASCII characters in UTF-16 first) is read whole, a compound file as `compound`
  /// says. A text cut short is not from_regular_file().
  static Result<FileText> read_text(const std::string& path, Compound compound = Compound::kFirstMiB,
                                    std::uint64_t stream_limit = kMaxStreamBytes);

  /// Reads `path` if it is a regular file (links followed). Anything else is refused without
  /// waiting (kUnreadable, `PATH: is a FIFO, not a regular file; refused`): it is opened
  /// non-blocking, so a FIFO with no writer does not hold the caller, and checked on the file
  /// opened. A file of more than `max_bytes` is refused (kInvalid) before it is read.
  static Result<FileText> read_regular(const std::string& path,
                                       std::uint64_t max_bytes = std::numeric_limits<std::uint64_t>::max());

 private:
  friend Result<std::string> read_private_file(const std::string& path, std::string_view what, FileKinds kinds,
                                               std::uint64_t max_bytes);
  // Reads the open descriptor `fd` (closed after, unless standard input) named `name`; with
  // `private_what`, refuses a file its group or others may read (read_private_file()).
  // With `text_end`, reading stops where it says the text ends (read_text()).
  static Result<FileText> read_descriptor(int fd, const std::string& name, std::uint64_t stream_limit,
                                          std::string_view private_what, detail::TextEnd* text_end = nullptr);

  // What holds the bytes (a string, or the pages an input of unknown size was read into),
  // heap-held so views stay valid when moved; empty when borrowed.
  std::shared_ptr<const void> owned_;
  std::string_view view_;
  std::size_t page_bytes_ = 0;  // the size of the pages holding the bytes; 0 when not in pages
  bool regular_ = false;
};

/// A regular file open to read at offsets, for formats that say where their data are (a
/// compound file's sectors): only the bytes asked for are read, so a file padded to gigabytes
/// costs what is read of it. Shares its descriptor when copied.
class RandomAccessFile {
 public:
  /// Opens `path` if it is a regular file (links followed): anything else is refused without
  /// waiting, as FileText::read_regular refuses it (kUnreadable; kNotFound when missing).
  [[nodiscard]] static Result<RandomAccessFile> open(const std::string& path);

  /// The file's size when it was opened.
  [[nodiscard]] std::uint64_t size() const { return size_; }

  /// Appends the `length` bytes at `offset` to `out`. Fails naming the file: kUnreadable when
  /// they cannot be read, kConflict when the file ends before them (it was cut since it was
  /// opened; the caller checks offsets against size()).
  [[nodiscard]] Status read(std::uint64_t offset, std::size_t length, std::string& out) const;

 private:
  std::shared_ptr<const int> fd_;  // closed with the last copy
  std::string path_;
  std::uint64_t size_ = 0;
};

/// Reads a file that holds secrets (an access token, an OAuth client secret, the sandbox's
/// tokens): the one check of such a file's mode. Refused (kUsage, naming the file and the
/// remedy `chmod 600 PATH`) when its group or others have any permission on it, checked on the
/// file opened, not on its name; kNotFound or kUnreadable when it cannot be read; kUsage, before
/// reading, when it holds more than `max_bytes` (kInvalid for an input that is no regular file
/// and goes on past them). `what` names the file in the message ("the tokens file is readable
/// by group or others"). With FileKinds::kRegularOnly, what is not a regular file is refused as
/// FileText::read_regular refuses it.
Result<std::string> read_private_file(const std::string& path, std::string_view what, FileKinds kinds = FileKinds::kAny,
                                      std::uint64_t max_bytes = FileText::kMaxStreamBytes);

/// Which file a name stands for: its device and inode. Two names (a link, `./a.json` and
/// `a.json`) that stand for one file have the same identity.
struct FileIdentity {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  friend auto operator<=>(const FileIdentity&, const FileIdentity&) = default;
};

/// The identity of the file `path` names, links followed; nullopt when there is none ("-",
/// a path that does not exist).
[[nodiscard]] std::optional<FileIdentity> identify(const std::string& path);

/// A file to read, and how it was chosen: named by the user, or found below a directory named.
struct SelectedFile {
  std::string path;
  bool named = true;  ///< false: found by walking a directory
  /// Found by walking a directory: the directory named, which a rewrite never leaves through a
  /// symbolic link (rewrite_file's `tree`); empty when named.
  std::string tree = {};
  /// Set for a directory below the one named that could not be listed: `path` is that
  /// directory, no file to read, and this says why (kUnreadable, naming it).
  std::optional<Error> unlisted = {};
};

/// Decides whether a file or directory found below a directory named is skipped (a directory
/// skipped is not entered). `path` is as the walk spells it (the directory named, then the names
/// below it). Files and directories named by the user are never asked about.
using SkipPath = std::function<bool(const std::string& path, bool directory)>;

/// Expands directories to the `*.json` files below them (recursively, sorted); files are kept
/// as given. Below a directory, hidden files and directories (`.ptmpl.json`, `.git`) and
/// `node_modules` are always skipped, and so is whatever `skip` (when set) says. A file reached
/// twice (named twice, or through a link) is kept once, where it first appears. A directory
/// below one named that cannot be listed is left out and given as an entry of its own
/// (SelectedFile::unlisted), after the files of the directory named. Fails (kNotFound) on a
/// path that does not exist, (kUnreadable) on a directory named that cannot be listed.
Result<std::vector<SelectedFile>> walk_paths(const std::vector<std::string>& paths, const SkipPath& skip = {});

/// walk_paths without a `skip`, giving the paths alone; fails (kUnreadable) on the first
/// directory below one named that cannot be listed.
Result<std::vector<std::string>> expand_paths(const std::vector<std::string>& paths);

/// Replaces `path` with `content` atomically: a temporary file in the same directory, written
/// and fsync'ed, given the original's permission bits, owner (when allowed) and extended
/// attributes (ACLs included), then renamed over it, and the directory fsync'ed so the rename
/// survives a crash. A new file gets the mode the umask allows (0666 & ~umask). A link is
/// followed (the file it names is replaced). On failure (kOutputFailed) the original is
/// untouched and no temporary file is left behind; nor is one when SIGINT, SIGTERM or SIGHUP
/// ends the process meanwhile (unless the program handles or ignores the signal itself).
/// Temporary files are named `.NAME.ptmpl-tmp-PID-XXXXXX` (NAME shortened to fit a file
/// name); the first write into a directory removes those whose process is gone.
Status write_file_atomic(const std::string& path, std::string_view content);

/// A file of bytes known only later, made now beside `path` as write_file_atomic makes its
/// temporary files (the same name, removed when let go or when a signal ends the process), so
/// that a place it cannot be written is known before the bytes are (`auth token` makes the
/// token's file before the one-time code is spent). commit() puts it in place.
class PendingFile {
 public:
  /// Creates it with `mode` (the umask applies: 0600 for a secret); kOutputFailed when the
  /// directory cannot hold it.
  static Result<PendingFile> create(const std::string& path, unsigned mode);
  PendingFile(PendingFile&&) noexcept;
  PendingFile& operator=(PendingFile&&) = delete;
  ~PendingFile();

  /// Writes `bytes`, flushes them to disk and renames the file over `path`, then flushes the
  /// directory. On failure (kOutputFailed) `path` is untouched, and the file is removed, but
  /// when only the rename failed: it then keeps the bytes, and the error names it.
  Status commit(std::string_view bytes);
  /// Where the bytes are when commit() could not rename them into place; empty otherwise.
  [[nodiscard]] const std::string& kept_in() const;

 private:
  struct Parts;
  explicit PendingFile(std::unique_ptr<Parts> parts);
  std::unique_ptr<Parts> parts_;
};

/// write_file_atomic, unless `path` is a regular file that already holds exactly `content`:
/// then nothing is written (no temporary file, no flush to disk, the file keeps its inode and
/// times), and nothing is flushed either: bytes found in place after an earlier replacement
/// whose flush of the directory failed are taken as they are. For ptmpl's own state that a
/// command writes again with what it mostly holds already, such as the bases that push and pull
/// keep for every template; not for a user's files.
Status write_file_atomic_if_changed(const std::string& path, std::string_view content);

/// write_file_atomic for many files at once (`(path, content)` each): each is written beside its
/// file, the file systems are flushed once, and then each takes its file's place and each
/// folder is flushed. The same guarantees as one write_file_atomic per file, without a flush to
/// disk per file. A status per file, in order.
std::vector<Status> write_files_atomic(std::span<const std::pair<std::string, std::string_view>> files);

/// Writes a command's output `bytes` to `path`, the place the user named (docs/semantics.md §11):
///  - "-" is standard output;
///  - an existing file that is not a regular file (a device such as /dev/null, a FIFO, a
///    terminal), a file reached through a link of /proc (/dev/stdout, /proc/self/fd/1: the
///    descriptor of another program), or a file of /proc or /sys is opened and written in
///    place, never replaced;
///  - any other path is replaced atomically (write_file_atomic), keeping an existing file's mode.
/// Every write is checked: a full disk, a closed pipe or /dev/full fail with kOutputFailed,
/// naming the path.
Status write_output(const std::string& path, std::string_view bytes);

/// Whether write_output writes `path` in place rather than replacing it: an existing file that
/// is not a regular file (a device, a FIFO, a terminal), one reached through a link of /proc,
/// or one of /proc or /sys: decided by the types of the files and file systems, not the name.
[[nodiscard]] bool written_in_place(const std::string& path);

/// Refuses (kUsage) an `output` that names the same file as one of `inputs` ("-" never
/// collides): a command never writes over its own input unless that is its in-place mode.
Status check_output_is_not_input(const std::string& output, std::span<const std::string> inputs);

/// Rewrites the user's file `path` in place (`fmt -w`, `lint --fix`, push writing ids back):
/// replaced atomically with `bytes` only if it is a regular file with no second name (a hard
/// link, which a replacement would leave with the old bytes) (kUsage otherwise) that still
/// holds exactly `read`, the bytes it was read with; if it changed meanwhile, nothing is written
/// and the error (kConflict) says so. With `tree` (a file found below that directory), a file
/// that a symbolic link leads out of `tree` to is not rewritten (kUsage).
Status rewrite_file(const std::string& path, std::string_view read, std::string_view bytes,
                    const std::string& tree = {});

/// Writes all of `bytes` to the open descriptor `fd` (a pipe to another process), checked:
/// kOutputFailed names `name` and the system's reason. Short writes and interruptions are
/// resumed, and a non-blocking descriptor that is full (EAGAIN) is waited on: the bytes go out
/// whole or the call fails.
Status write_descriptor(int fd, std::string_view bytes, std::string_view name);

/// Writes `bytes` to standard output at once, checked (kOutputFailed on a closed pipe, a full disk).
Status write_stdout(std::string_view bytes);

/// Flushes everything written to standard output through C or C++ streams and reports
/// whether all of it was written (kOutputFailed otherwise). Call once, before exiting.
Status finish_stdout();

}  // namespace ptmpl
