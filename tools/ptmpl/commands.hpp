// The ptmpl subcommands: each registers its options on a CLI11 subcommand and runs from it.
#pragma once

#include <CLI/CLI.hpp>

namespace ptmpl::cli {

/// Exit codes for every command (SPEC §6).
enum Exit : int { kOk = 0, kFindings = 1, kUsage = 2, kNetwork = 3 };

/// Sets up `app` (options, footer with an example) and returns the function that runs it.
using Setup = std::function<int()> (*)(CLI::App& app);

struct Command {
  const char* name;
  const char* summary;
  Setup setup;
};

std::function<int()> setup_auth(CLI::App& app);
std::function<int()> setup_convert(CLI::App& app);
std::function<int()> setup_diff(CLI::App& app);
std::function<int()> setup_explain(CLI::App& app);
std::function<int()> setup_fmt(CLI::App& app);
std::function<int()> setup_gen(CLI::App& app);
std::function<int()> setup_lint(CLI::App& app);
std::function<int()> setup_list(CLI::App& app);
std::function<int()> setup_pull(CLI::App& app);
std::function<int()> setup_push(CLI::App& app);
/// The hidden `__reference` command; `app` must be a subcommand of the root.
std::function<int()> setup_reference(CLI::App& app);
std::function<int()> setup_rules(CLI::App& app);
std::function<int()> setup_sandbox(CLI::App& app);
std::function<int()> setup_schedule(CLI::App& app);
std::function<int()> setup_schema(CLI::App& app);
std::function<int()> setup_stats(CLI::App& app);

}  // namespace ptmpl::cli
