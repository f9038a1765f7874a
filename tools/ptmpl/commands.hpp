// The ptmpl subcommands: each registers its options on a CLI11 subcommand and runs from it.
#pragma once

#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "libtemplate/core/result.hpp"

namespace ptmpl::cli {

/// Exit codes for every command (docs/semantics.md §6). A failure's code is the library's mapping of its
/// ErrorCode (`ptmpl::exit_code`); these name the codes where no Error is at hand.
enum Exit : int {
  kOk = 0,
  kFindings = 1,
  kUsage = exit_code(ErrorCode::kUsage),
  kNetwork = exit_code(ErrorCode::kNetwork)
};

/// Whether what goes to file descriptor `fd` is coloured: only on a terminal, and not when
/// NO_COLOR is set to a non-empty value (https://no-color.org). The one place that decides.
bool colour_on(int fd);

/// Prints "ptmpl COMMAND: MESSAGE" on standard error, or "ptmpl: MESSAGE" when `command` is
/// empty (what no one command says: the command line, an exception that reached main()): the
/// one way the program says anything there besides a report of findings (errors, warnings,
/// what it did on the side).
void report_note(std::string_view command, std::string_view message);

/// Prints the error's message as report_note does, each of its lines as one note (an error
/// that holds several problems, such as an invalid configuration's, says one a line), and
/// returns the exit code of its kind.
int report_error(std::string_view command, const Error& error);

/// The check of an option that takes one of `names` (CLI11's IsMember, described the same way
/// in --help, the man page and the completion): a value that is none of them is refused naming
/// them, and the nearest, `--format: sarf not in {text,json,sarif,…} (did you mean sarif?)`.
CLI::Validator one_of(std::vector<std::string> names);

/// Writes text made for a person (a table, a diff, a summary) on standard output, every line
/// through printable_lines(): a title or a path cannot drive the terminal, wherever it goes.
Status write_for_person(std::string_view text);

/// write_output() for a command's result in a machine format (CSV, JSON, XML, …): its bytes as
/// they are in a file or a pipe, but when `path` is "-" and standard output is a terminal, a
/// person reads it, and it goes through printable_lines() (JSON stays JSON: a C1 control
/// becomes the same `\u00XX` escape).
Status write_result(const std::string& path, std::string_view text);

/// Sets up `app` (options, footer with an example) and returns the function that runs it.
using Setup = std::function<int()> (*)(CLI::App& app);

struct Command {
  const char* name;
  const char* summary;
  Setup setup;
};

std::function<int()> setup_apply(CLI::App& app);
std::function<int()> setup_auth(CLI::App& app);
std::function<int()> setup_convert(CLI::App& app);
std::function<int()> setup_diff(CLI::App& app);
std::function<int()> setup_explain(CLI::App& app);
std::function<int()> setup_fmt(CLI::App& app);
std::function<int()> setup_gen(CLI::App& app);
std::function<int()> setup_health(CLI::App& app);
std::function<int()> setup_lint(CLI::App& app);
std::function<int()> setup_list(CLI::App& app);
std::function<int()> setup_lsp(CLI::App& app);
std::function<int()> setup_pull(CLI::App& app);
std::function<int()> setup_push(CLI::App& app);
/// The hidden `__reference` command; `app` must be a subcommand of the root.
std::function<int()> setup_reference(CLI::App& app);
std::function<int()> setup_rules(CLI::App& app);
std::function<int()> setup_sandbox(CLI::App& app);
std::function<int()> setup_schedule(CLI::App& app);
std::function<int()> setup_schema(CLI::App& app);
std::function<int()> setup_stats(CLI::App& app);

/// The network commands (push, apply, diff, list, pull, auth, sandbox) run in the program ptmpl-net
/// (tools/ptmpl/CMakeLists.txt). True for their names, and for `__reference`, whose man page
/// and completion need every command's options.
bool is_network_command(std::string_view name);

/// In `ptmpl`: replaces this process with ptmpl-net, given the same arguments (the same process,
/// streams and exit code); returns only when that fails, with the exit code after a message
/// naming `command`.
int run_network_program(std::string_view command, char** argv);

}  // namespace ptmpl::cli
