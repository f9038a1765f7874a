#include "file_selection.hpp"

#include <filesystem>
#include <map>
#include <memory>

#include <git2.h>

namespace ptmpl::cli {

namespace {

namespace fs = std::filesystem;

// Answers "does git ignore this path?" with libgit2, so that every rule git has (nested
// .gitignore files, negation, directory-only and anchored patterns, .git/info/exclude,
// core.excludesFile) is git's own. A path outside any repository is never ignored.
class GitIgnore {
 public:
  GitIgnore() = default;
  ~GitIgnore() {
    repositories_.clear();
    if (initialised_) git_libgit2_shutdown();
  }
  GitIgnore(const GitIgnore&) = delete;
  GitIgnore& operator=(const GitIgnore&) = delete;

  bool ignored(const std::string& path, bool directory) {
    // libgit2 starts on the first question, not before: its start-up loads the system's
    // certificates (tens of milliseconds), which a run over named files never needs.
    if (!initialised_) initialised_ = git_libgit2_init() > 0;
    if (!initialised_) return false;
    std::error_code ec;
    fs::path absolute = fs::weakly_canonical(fs::absolute(path, ec), ec);
    if (ec) return false;
    Repository* repository = repository_of(absolute.parent_path().string());
    if (repository == nullptr) return false;
    std::string relative = absolute.lexically_relative(repository->workdir).generic_string();
    if (relative.empty() || relative.starts_with("..")) return false;
    // A trailing '/' lets patterns that match directories only ("build/") apply.
    if (directory) relative += '/';
    int is_ignored = 0;
    if (git_ignore_path_is_ignored(&is_ignored, repository->handle.get(), relative.c_str()) != 0) return false;
    return is_ignored == 1;
  }

 private:
  struct Repository {
    std::unique_ptr<git_repository, void (*)(git_repository*)> handle{nullptr, git_repository_free};
    fs::path workdir;
  };

  // The repository whose work tree holds `directory`, or nullptr (none, or a bare one). Looked
  // up once per directory; one repository is opened once.
  Repository* repository_of(const std::string& directory) {
    auto known = by_directory_.find(directory);
    if (known != by_directory_.end()) return known->second;
    Repository* found = nullptr;
    git_repository* raw = nullptr;
    if (git_repository_open_ext(&raw, directory.c_str(), 0, nullptr) == 0) {
      auto repository = std::make_unique<Repository>();
      repository->handle.reset(raw);
      const char* workdir = git_repository_workdir(raw);
      if (workdir != nullptr) {
        std::error_code ec;
        repository->workdir = fs::weakly_canonical(workdir, ec);
        auto [it, fresh] = repositories_.try_emplace(repository->workdir.string(), nullptr);
        if (fresh) it->second = std::move(repository);
        found = it->second.get();
      }
    }
    return by_directory_[directory] = found;
  }

  std::map<std::string, std::unique_ptr<Repository>> repositories_;
  std::map<std::string, Repository*> by_directory_;
  bool initialised_ = false;
};

}  // namespace

void add_selection_options(CLI::App& app, SelectionOptions& options) {
  app.add_option("--exclude", options.exclude,
                 "skip files and directories matching this glob (repeatable); replaces the configuration's exclude");
  app.add_option("--extend-exclude", options.extend_exclude,
                 "skip these globs too, besides the configuration's exclude (repeatable)");
  app.add_flag("--no-respect-gitignore", options.no_respect_gitignore,
               "also read files that .gitignore, .git/info/exclude or core.excludesFile ignore");
}

Result<std::vector<SelectedFile>> select_cli_files(const std::vector<std::string>& paths,
                                                   const SelectionOptions& options,
                                                   const std::optional<std::string>& config_path,
                                                   bool discover_config) {
  SelectionSettings settings;
  settings.config_path = config_path;
  settings.discover_config = discover_config;
  if (!options.exclude.empty()) settings.exclude = options.exclude;
  settings.extend_exclude = options.extend_exclude;
  std::shared_ptr<GitIgnore> git;
  if (!options.no_respect_gitignore) {
    git = std::make_shared<GitIgnore>();
    settings.ignored = [git](const std::string& path, bool directory) { return git->ignored(path, directory); };
  }
  return select_files(paths, settings);
}

}  // namespace ptmpl::cli
