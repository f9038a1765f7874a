// What the sandbox's stores share: one durable file per record in a folder of the data
// directory, the timestamps that order their changes, and how their title filters compare.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "libtemplate/core/result.hpp"

namespace ptmpl::sandbox {

/// `text` in ASCII lower case: the stores' title filters ignore case.
[[nodiscard]] std::string ascii_lower(std::string_view text);

/// ISO 8601 timestamps with milliseconds, UTC (`2027-01-04T09:30:00.123Z`), strictly increasing:
/// two changes in one millisecond, or after the clock stepped back, are still ordered.
class Stamps {
 public:
  /// The next stamps come after `stamp` (one read back from a stored record; ignored when it is
  /// not one of ours).
  void observe(const std::string& stamp);
  /// Now, or one millisecond after the last stamp given or observed, whichever is later.
  [[nodiscard]] std::string next();

 private:
  std::int64_t last_ = 0;  // milliseconds since the epoch
};

/// A folder holding each record as `<id>.json`. A write replaces its file atomically
/// (temporary file, fsync, rename, fsync of the folder) before it returns, so a kill at any
/// moment leaves each record either as before or as after. Not thread-safe: its store locks.
class RecordFiles {
 public:
  /// Reads each record of one file.
  using Reader = std::function<Status(const std::string& path, std::string_view text)>;
  /// Creates `dir` if missing, gives every `<id>.json` in it (regular files only: a FIFO would
  /// block the start) to `read`, and removes the temporary files of writes that were killed.
  /// Fails naming a folder or file that cannot be read, or with `read`'s error.
  static Result<RecordFiles> open(std::string dir, const Reader& read);
  /// Replaces `<id>.json` with `text` durably.
  [[nodiscard]] Status write(std::int64_t id, std::string_view text) const;

 private:
  explicit RecordFiles(std::string dir) : dir_(std::move(dir)) {}
  std::string dir_;
};

}  // namespace ptmpl::sandbox
