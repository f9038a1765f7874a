// Which files `lint` and `fmt` take from the directories named: the options they share
// (--exclude, --extend-exclude, --no-respect-gitignore) and git's own ignore rules.
#pragma once

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
};

/// Adds --exclude, --extend-exclude and --no-respect-gitignore to `app`, in the group "File
/// selection".
void add_selection_options(CLI::App& app, SelectionOptions& options);

/// The files `paths` stand for (select_files()): below a directory, what .gitignore ignores is
/// skipped (unless --no-respect-gitignore), and so is what --exclude, --extend-exclude and the
/// configuration (`config_path`, or the nearest .ptmpl.json when `discover_config`) exclude.
Result<std::vector<SelectedFile>> select_cli_files(const std::vector<std::string>& paths,
                                                   const SelectionOptions& options,
                                                   const std::optional<std::string>& config_path, bool discover_config);

}  // namespace ptmpl::cli
