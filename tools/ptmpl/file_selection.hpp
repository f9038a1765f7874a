// Which files `lint` and `fmt` take from the directories named: the options they share
// (--exclude, --extend-exclude, --no-respect-gitignore) and git's own ignore rules.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "libtemplate/core/config.hpp"
#include "libtemplate/core/result.hpp"

namespace ptmpl::cli {

struct SelectionOptions {
  std::vector<std::string> exclude;
  std::vector<std::string> extend_exclude;
  bool no_respect_gitignore = false;
  bool force_exclude = false;
};

/// Adds --exclude, --extend-exclude, --no-respect-gitignore and --force-exclude to `app`, in
/// the group "File selection".
void add_selection_options(CLI::App& app, SelectionOptions& options);

/// What select_cli_files() found: the files to read, and what stood in the way without
/// stopping the walk (an ignore file that is no regular file or too big, a pattern skipped, a
/// directory that cannot be listed), each naming its file (and line); a command reports each
/// and exits 2 after doing the rest.
struct Selection {
  std::vector<SelectedFile> files;
  std::vector<Error> problems;
};

/// The files `paths` stand for (select_files()): below a directory, what .gitignore ignores is
/// skipped (unless --no-respect-gitignore), and so is what --exclude, --extend-exclude and the
/// configuration (`config_path`, or the nearest .ptmpl.json when `discover_config`) exclude.
Result<Selection> select_cli_files(const std::vector<std::string>& paths, const SelectionOptions& options,
                                   const std::optional<std::string>& config_path, bool discover_config);

}  // namespace ptmpl::cli
