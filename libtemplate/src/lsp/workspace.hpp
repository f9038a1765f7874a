// The language server, by concern: the templates of the workspace folders (for
// workspace/symbol): *.json files below them that read as templates, bounded in count and size,
// skipping version-control and build folders. Files are read again only when they change.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "lsp/text.hpp"

namespace ptmpl::lsp {

struct WorkspaceLimits {
  std::size_t max_files = 2000;                           ///< templates kept, at most
  std::size_t max_entries = 100000;                       ///< directory entries looked at, at most
  std::uint64_t max_file_size = std::uint64_t{16} << 20;  ///< larger files are skipped
};

class Workspace {
 public:
  explicit Workspace(WorkspaceLimits limits = {}) : limits_(limits) {}

  void set_folders(std::vector<std::string> folders) { folders_ = std::move(folders); }
  [[nodiscard]] const std::vector<std::string>& folders() const { return folders_; }

  /// The templates below the folders now (their text as on disk), in path order.
  [[nodiscard]] std::vector<OpenDocument> templates();

 private:
  struct Cached {
    std::filesystem::file_time_type modified;
    std::uintmax_t size = 0;
    bool is_template = false;
    std::string text;
  };
  WorkspaceLimits limits_;
  std::vector<std::string> folders_;
  std::map<std::string, Cached> cache_;
};

}  // namespace ptmpl::lsp
