// git's ignore rules (gitignore(5)) read and matched by ptmpl itself: ignore files are read only
// when they are regular files of bounded size, and every pattern matches in time polynomial in
// its length and the path's, so no file of a repository can hold a walk (docs/commands/lint.md,
// "Selecting files").
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/core/result.hpp"

namespace ptmpl {

/// The patterns of one ignore file, as git reads them: a line per pattern; blank lines and
/// lines starting with '#' say nothing; trailing spaces are dropped unless escaped with '\';
/// '!' re-includes; a trailing '/' matches directories only; a pattern with a '/' before its
/// end is relative to the file's directory, one without matches the name at any depth; '*',
/// '?', '[...]' never match '/'; "**" between slashes matches any number of directories.
class IgnorePatterns {
 public:
  /// The most bytes an ignore file may hold; a bigger one is not read (docs/robustness.md).
  static constexpr std::uint64_t kMaxFileBytes = std::uint64_t{1} << 20;
  /// The most bytes a pattern may have (a path has at most 4096): a longer line is skipped.
  static constexpr std::size_t kMaxPatternBytes = 4096;

  IgnorePatterns();
  IgnorePatterns(IgnorePatterns&&) noexcept;
  IgnorePatterns& operator=(IgnorePatterns&&) noexcept;
  ~IgnorePatterns();

  /// Reads the patterns of `text`, the ignore file `name` (for messages) whose patterns are
  /// relative to `base` (the directory it applies to, relative to the work tree: "" for the top,
  /// else ending in '/'). A line longer than kMaxPatternBytes is skipped and reported in
  /// `problems` (kInvalid, `NAME:LINE: ...`).
  static IgnorePatterns parse(std::string_view text, std::string base, const std::string& name,
                              std::vector<Error>& problems);

  /// What the last pattern matching `path` (relative to the work tree, without a trailing '/';
  /// a directory when `directory`) says: true ignored, false re-included ('!'); nullopt when
  /// none matches. With `ignore_case`, ASCII letters match either case (core.ignoreCase).
  [[nodiscard]] std::optional<bool> verdict(std::string_view path, bool directory, bool ignore_case) const;

 private:
  struct Pattern;
  std::string base_;
  std::vector<Pattern> patterns_;
};

/// git's ignore rules in one work tree: the .gitignore of each directory (a deeper one before
/// those above it), then .git/info/exclude, then core.excludesFile; the first of them with a
/// pattern matching a path decides. What is below an ignored directory is ignored (a '!'
/// pattern cannot re-include it). Ignore files are read when first needed, once, and only if
/// they are regular files (opened without waiting: a FIFO is refused, not read) of at most
/// IgnorePatterns::kMaxFileBytes; one that cannot be read is reported and left out.
class GitIgnoreRules {
 public:
  struct Settings {
    std::string work_tree;  ///< the top of the work tree, as a path to open files with
    /// The files whose patterns apply to the whole tree after the .gitignore files, the first
    /// before the others (.git/info/exclude, then core.excludesFile); missing ones say nothing.
    std::vector<std::string> global_files;
    bool ignore_case = false;  ///< core.ignoreCase
  };

  explicit GitIgnoreRules(Settings settings);
  GitIgnoreRules(GitIgnoreRules&&) noexcept;
  GitIgnoreRules& operator=(GitIgnoreRules&&) noexcept;
  ~GitIgnoreRules();

  /// Whether git ignores `path` (relative to the work tree, '/' between names, no trailing '/'),
  /// a directory when `directory`. A directory's verdict is kept: a walk asks once per directory.
  [[nodiscard]] bool ignored(std::string_view path, bool directory);

  /// The ignore files that could not be read and the lines skipped so far, each once, in the
  /// order met; taken by the call (the next gives only what comes after it).
  [[nodiscard]] std::vector<Error> take_problems();

 private:
  bool directory_ignored(std::string_view directory);
  bool decide(std::string_view path, bool directory);
  const IgnorePatterns* patterns_of_directory(const std::string& directory);
  std::optional<IgnorePatterns> read_file(const std::string& path, const std::string& base);

  Settings settings_;
  std::vector<IgnorePatterns> global_;
  std::map<std::string, std::optional<IgnorePatterns>, std::less<>> per_directory_;
  std::map<std::string, bool, std::less<>> directory_ignored_;
  std::vector<Error> problems_;
};

}  // namespace ptmpl
