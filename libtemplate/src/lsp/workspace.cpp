// The language server, by concern: the workspace folders' templates (workspace.hpp).
#include "lsp/workspace.hpp"

#include <algorithm>
#include <set>
#include <system_error>

#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/template_file.hpp"

namespace ptmpl::lsp {

namespace {

namespace fs = std::filesystem;

// Folders no template lives in: version control, dependencies, build output, hidden ones.
bool skipped_directory(const fs::path& path) {
  std::string name = path.filename().string();
  return name.empty() || name.front() == '.' || name == "node_modules" || name == "build" ||
         name.starts_with("build-") || name == "out" || name == "target" || name == "dist";
}

}  // namespace

std::vector<OpenDocument> Workspace::templates() {
  std::set<std::string> seen;     // templates listed
  std::set<std::string> visited;  // every *.json file looked at
  std::size_t entries = 0;
  std::vector<OpenDocument> out;
  for (const std::string& folder : folders_) {
    std::error_code ec;
    fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec);
    if (ec) continue;
    for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec || ++entries > limits_.max_entries || seen.size() >= limits_.max_files) break;
      const fs::directory_entry& entry = *it;
      if (entry.is_directory(ec)) {
        if (skipped_directory(entry.path())) it.disable_recursion_pending();
        continue;
      }
      if (!entry.is_regular_file(ec) || entry.path().extension() != ".json") continue;
      std::uintmax_t size = entry.file_size(ec);
      if (ec || size > limits_.max_file_size) continue;
      fs::file_time_type modified = entry.last_write_time(ec);
      if (ec) continue;
      std::string path = entry.path().lexically_normal().string();
      visited.insert(path);
      auto found = cache_.find(path);
      if (found == cache_.end() || found->second.modified != modified || found->second.size != size) {
        Cached& cached = cache_[path];
        cached = Cached{modified, size, false, {}};
        auto bytes = FileText::read(path);
        if (!bytes.ok()) continue;
        cached.text = std::string(bytes.value().text());
        ReadOptions read;
        read.build_model = false;
        TemplateFile file = TemplateFile::parse(path, FileText::borrow(cached.text), read);
        cached.is_template = file.document().ok() && file.shape() != Shape::Unknown;
        if (!cached.is_template) cached.text.clear();
      }
      const Cached& cached = cache_[path];
      if (!cached.is_template || !seen.insert(path).second) continue;
      out.push_back({uri_from_path(path), path, cached.text, 0});
    }
  }
  // Files gone since the last scan are forgotten.
  std::erase_if(cache_, [&](const auto& item) { return !visited.contains(item.first); });
  std::sort(out.begin(), out.end(), [](const OpenDocument& a, const OpenDocument& b) { return a.path < b.path; });
  return out;
}

}  // namespace ptmpl::lsp
