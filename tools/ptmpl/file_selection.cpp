#include "file_selection.hpp"

#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>

#include <git2.h>

#include "libtemplate/core/git_ignore.hpp"

namespace ptmpl::cli {

namespace {

namespace fs = std::filesystem;

// Answers "does git ignore this path?" with ptmpl's own reading of git's rules
// (GitIgnoreRules): libgit2 only finds the repository of a directory and reads its
// configuration (core.excludesFile, core.ignoreCase). A path outside any repository is never
// ignored.
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
    if (relative.empty() || relative == "." || relative.starts_with("..")) return false;
    return repository->rules->ignored(relative, directory);
  }

  /// The ignore files that could not be read and the lines skipped, in every repository met.
  std::vector<Error> take_problems() {
    std::vector<Error> problems;
    for (auto& [workdir, repository] : repositories_)
      for (Error& problem : repository->rules->take_problems()) problems.push_back(std::move(problem));
    return problems;
  }

 private:
  struct Repository {
    std::unique_ptr<git_repository, void (*)(git_repository*)> handle{nullptr, git_repository_free};
    fs::path workdir;
    std::optional<GitIgnoreRules> rules;
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
        if (fresh) {
          repository->rules.emplace(rules_settings(*repository));
          it->second = std::move(repository);
        }
        found = it->second.get();
      }
    }
    return by_directory_[directory] = found;
  }

  // Where git finds the patterns for the whole work tree: .git/info/exclude (in the common
  // directory of a linked work tree), then core.excludesFile, by default
  // $XDG_CONFIG_HOME/git/ignore or ~/.config/git/ignore.
  static GitIgnoreRules::Settings rules_settings(const Repository& repository) {
    GitIgnoreRules::Settings settings;
    settings.work_tree = repository.workdir.string();
    settings.global_files.push_back(std::string(git_repository_commondir(repository.handle.get())) + "info/exclude");
    git_config* config = nullptr;
    if (git_repository_config_snapshot(&config, repository.handle.get()) == 0) {
      git_buf excludes = GIT_BUF_INIT;
      if (git_config_get_path(&excludes, config, "core.excludesFile") == 0)
        settings.global_files.emplace_back(excludes.ptr, excludes.size);
      git_buf_dispose(&excludes);
      int ignore_case = 0;
      if (git_config_get_bool(&ignore_case, config, "core.ignoreCase") == 0) settings.ignore_case = ignore_case != 0;
      git_config_free(config);
    }
    if (settings.global_files.size() == 1) {
      const char* xdg = std::getenv("XDG_CONFIG_HOME");
      const char* home = std::getenv("HOME");
      if (xdg != nullptr && *xdg != '\0')
        settings.global_files.push_back(std::string(xdg) + "/git/ignore");
      else if (home != nullptr && *home != '\0')
        settings.global_files.push_back(std::string(home) + "/.config/git/ignore");
    }
    return settings;
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
  app.add_flag("--force-exclude", options.force_exclude,
               "apply the exclusions and .gitignore to files named too, and pass over a named file that is not a "
               "template, as below a directory (for hooks that name every changed file)");
}

Result<Selection> select_cli_files(const std::vector<std::string>& paths, const SelectionOptions& options,
                                   const std::optional<std::string>& config_path, bool discover_config) {
  SelectionSettings settings;
  settings.config_path = config_path;
  settings.discover_config = discover_config;
  if (!options.exclude.empty()) settings.exclude = options.exclude;
  settings.extend_exclude = options.extend_exclude;
  settings.force_exclude = options.force_exclude;
  std::shared_ptr<GitIgnore> git;
  if (!options.no_respect_gitignore) {
    git = std::make_shared<GitIgnore>();
    settings.ignored = [git](const std::string& path, bool directory) { return git->ignored(path, directory); };
  }
  auto selected = select_files(paths, settings);
  if (!selected.ok()) return selected.error();
  Selection out;
  if (git) out.problems = git->take_problems();
  for (SelectedFile& file : selected.value()) {
    if (file.unlisted)
      out.problems.push_back(std::move(*file.unlisted));
    else
      out.files.push_back(std::move(file));
  }
  return out;
}

}  // namespace ptmpl::cli
