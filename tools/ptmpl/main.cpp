// ptmpl: the command-line face of libtemplate. Parses arguments, calls the library, prints.
#include <algorithm>
#include <array>
#include <csignal>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/spelling.hpp"
#include "libtemplate/core/version.hpp"

namespace {

using namespace ptmpl::cli;

// Every subcommand, in the order `ptmpl --help` lists them.
constexpr std::array kCommands = {
    Command{"lint", "check templates and report findings (text, JSON, SARIF, GitHub, JUnit, GitLab)", setup_lint},
    Command{"fmt", "print templates in canonical form, check it (--check) or rewrite (-w)", setup_fmt},
    Command{"lsp", "serve the language server for editors: diagnostics, fixes, formatting, navigation (LSP)",
            setup_lsp},
    Command{"schedule", "preview a template's schedule: Gantt chart, table, JSON, CSV, Mermaid, SVG, HTML",
            setup_schedule},
    Command{"stats", "print a template's totals: stories, duration, budget, time, critical stories", setup_stats},
    Command{"health", "assess a template's or plan's schedule: the DCMA 14-point metrics, pass or fail", setup_health},
    Command{"convert",
            "convert plans: MS Project .mpp and XML, GanttProject, CSV, Excel, Primavera P6 into templates; "
            "templates into MSPDI, CSV, Excel",
            setup_convert},
    Command{"push", "publish template documents to the service: lint, then create or update each", setup_push},
    Command{"apply", "create a workspace (project) from a template from a start date, pushing the template first",
            setup_apply},
    Command{"diff", "compare template documents with their copies on the service, story by story", setup_diff},
    Command{"list", "list the templates on the service (table or JSON), with the API's filters and order", setup_list},
    Command{"pull", "write templates from the service as template documents (raw_json as a pretty array)", setup_pull},
    Command{"auth", "OAuth: print the authorization URL, or exchange a code for an access token", setup_auth},
    Command{"sandbox", "serve a local stand-in for the service's project templates API (HTTPS, durable)",
            setup_sandbox},
    Command{"rules", "list the lint rules with their default severity", setup_rules},
    Command{"explain", "print the documentation of a lint rule", setup_explain},
    Command{"schema", "print a bundled JSON Schema (raw_json, template, config)", setup_schema},
    Command{"gen", "write a synthetic template of a given size (tests, benchmarks)", setup_gen},
};

// `-o ''` names no file (and would read as no -o at all, standard output): a usage error for
// every command's -o, found by its short name, subcommands of subcommands included.
void refuse_empty_output_names(CLI::App& app) {
  for (CLI::Option* option : app.get_options())
    if (option->check_sname("o"))
      option->check(CLI::Validator(
          [](std::string& name) { return name.empty() ? std::string("an empty name names no file") : std::string(); },
          "", "non-empty"));
  for (CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) refuse_empty_output_names(*sub);
}

// The words of the (sub)command the parser stopped in: "" for the root, "auth token".
std::string parsed_command(const CLI::App& root) {
  std::string words;
  for (const CLI::App* app = &root;;) {
    const std::vector<CLI::App*> parsed = app->get_subcommands();
    if (parsed.empty()) return words;
    app = parsed.back();
    words += words.empty() ? app->get_name() : " " + app->get_name();
  }
}

// A name on the command line that the parser does not know, said by the command it was given to
// ("" for the root, "auth token").
struct UnknownName {
  std::string command;
  std::string message;
};

// After a parse error: when the command line holds a name the parser does not know — an option
// `--x` or, where a command takes subcommands, a word that names none — the message naming it
// with the nearest known name (spelling.hpp, as for keys and rule ids). Nullopt otherwise: the
// parser's own message says it best.
std::optional<UnknownName> unknown_name(const CLI::App& root) {
  std::string command;  // "ptmpl auth token"
  std::string words;    // "auth token"
  for (const CLI::App* app = &root; app != nullptr;) {
    command += command.empty() ? app->get_name() : " " + app->get_name();
    if (app != &root) words += words.empty() ? app->get_name() : " " + app->get_name();
    for (const std::string& word : app->remaining()) {
      std::vector<std::string> names;
      std::string_view name = word;
      std::string what;
      if (word.starts_with("--")) {
        name = name.substr(0, name.find('='));
        what = "option " + std::string(name);
        for (const CLI::Option* option : app->get_options())
          for (const std::string& long_name : option->get_lnames()) names.push_back("--" + long_name);
      } else if (!word.starts_with("-") && !app->get_subcommands([](const CLI::App*) { return true; }).empty()) {
        what = "command \"" + word + "\"";
        // Hidden subcommands (no group) are not suggested.
        for (const CLI::App* sub : app->get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); }))
          names.push_back(sub->get_name());
      } else {
        continue;
      }
      std::vector<std::string_view> candidates(names.begin(), names.end());
      std::string message = "unknown " + what;
      if (auto suggestion = ptmpl::closest(name, candidates))
        message += what.starts_with("option") ? " (did you mean " + std::string(*suggestion) + "?)"
                                              : " (did you mean \"" + std::string(*suggestion) + "\"?)";
      message += "; " + command + " --help lists the " + (what.starts_with("option") ? "options" : "commands");
      return UnknownName{words, message};
    }
    const std::vector<CLI::App*> parsed = app->get_subcommands();
    app = parsed.empty() ? nullptr : parsed.back();
  }
  return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
#ifndef PTMPL_NETWORK_PROGRAM
  // The root takes no option but --help and --version, so the first word that is no option
  // names the command.
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] == '-') continue;
    if (is_network_command(argv[i])) return run_network_program(argv[i], argv);
    break;
  }
#endif
  CLI::App app{"ptmpl: author, lint and preview project templates kept in git.", "ptmpl"};
  app.set_version_flag("--version", "ptmpl " + std::string(ptmpl::kVersion));
  app.require_subcommand(1);
  std::function<int()> run;
  for (const Command& command : kCommands) {
    CLI::App* sub = app.add_subcommand(command.name, command.summary);
    auto handler = command.setup(*sub);
    sub->callback([&run, handler] { run = handler; });
  }
  // Hidden (no group): writes the man page and the bash completion from the commands above.
  CLI::App* reference = app.add_subcommand("__reference", "write the man page or the bash completion")->group("");
  reference->callback([&run, handler = setup_reference(*reference)] { run = handler; });
  refuse_empty_output_names(app);
  // After the subcommands: CLI11 copies a parent's footer into each subcommand made after it,
  // and a subcommand without a footer of its own (auth url) should not show this one.
  app.footer("Example:\n  ptmpl lint samples/\n\nEach command has --help; the docs are in docs/commands/.");
  // Bare `ptmpl`: the commands, as --help lists them (a usage error: no command was given).
  if (argc == 1) {
    std::cout << app.help();
    return kUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (auto unknown = unknown_name(app)) {
      report_note(unknown->command, unknown->message);
      return kUsage;
    }
    // The parser's own message, said by the command it was given to like every other error
    // (and, like them, with its controls escaped: it may quote what was typed).
    const std::string command = parsed_command(app);
    report_note(command, std::string(e.what()) + "; ptmpl " + (command.empty() ? "" : command + " ") +
                             "--help lists the options");
    return kUsage;
  }
  // A closed pipe is a failed write to report (docs/semantics.md §11), not a signal that ends the process
  // before it can say so.
  std::signal(SIGPIPE, SIG_IGN);
  int exit = kUsage;
  try {
    exit = run ? run() : kUsage;
  } catch (const ptmpl::Failure& e) {
    return report_error("", e.error());
  } catch (const std::exception& e) {
    report_note("", std::string("internal error: ") + e.what());
    return kUsage;
  }
  // Whatever the command printed, all of it must have arrived: a full disk or a closed pipe
  // behind standard output is an error even when the command itself succeeded.
  if (ptmpl::Status flushed = ptmpl::finish_stdout(); !flushed.ok())
    return std::max(exit, report_error("", flushed.error()));
  return exit;
}
