// Reading inputs of any size and replacing files atomically.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/result.hpp"

namespace ptmpl {

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

  /// Bytes the caller owns and keeps alive as long as this FileText and what is parsed from it.
  static FileText borrow(std::string_view bytes) {
    FileText text;
    text.view_ = bytes;
    return text;
  }

  /// Reads `path` ("-" reads standard input). Fails with a message naming the file.
  static Result<FileText> read(const std::string& path);

 private:
  std::unique_ptr<std::string> owned_;  // heap-held so views stay valid when moved
  std::string_view view_;
};

/// Expands directories to the `*.json` files below them (recursively, sorted; hidden files
/// and directories such as `.ptmpl.json` and `.git` are skipped); files are kept as given. Fails on a path that does not exist.
Result<std::vector<std::string>> expand_paths(const std::vector<std::string>& paths);

/// Replaces `path` with `content` atomically: a temporary file in the same directory, written
/// and fsync'ed, given the original's permission bits, then renamed over it, and the directory
/// fsync'ed so the rename survives a crash. On failure the
/// original is untouched and no temporary file is left behind.
Status write_file_atomic(const std::string& path, std::string_view content);

}  // namespace ptmpl
