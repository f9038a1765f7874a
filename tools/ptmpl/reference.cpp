// ptmpl __reference: the man page and the bash completion, both generated from the CLI11 tree
// that the command table builds, so neither can drift from `--help`. The build runs it to make
// the files `cmake --install` installs (tools/ptmpl/CMakeLists.txt).
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/version.hpp"

namespace ptmpl::cli {

namespace {

// The commands a user can see: hidden ones (this one) have an empty group.
std::vector<const CLI::App*> visible_commands(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App* sub) { return !sub->get_group().empty(); });
}

std::vector<const CLI::Option*> named_options(const CLI::App& app) {
  return app.get_options([](const CLI::Option* option) { return option->nonpositional(); });
}

std::vector<const CLI::Option*> positionals(const CLI::App& app) {
  return app.get_options([](const CLI::Option* option) { return !option->nonpositional(); });
}

// Flags expect no value (CLI11 sets their expected count to 0).
bool takes_value(const CLI::Option& option) {
  return option.get_items_expected_max() > 0;
}

// "-o", "--output": short names first, as --help lists them.
std::vector<std::string> spellings(const CLI::Option& option) {
  std::vector<std::string> names;
  for (const std::string& name : option.get_snames()) names.push_back("-" + name);
  for (const std::string& name : option.get_lnames()) names.push_back("--" + name);
  return names;
}

// CLI11 describes an IsMember check as `{a,b,c}` in the option's type name ("TEXT:{a,b,c}").
std::vector<std::string> choices(const CLI::Option& option) {
  const std::string type = option.get_type_name();
  const auto open = type.find('{');
  const auto close = type.find('}', open);
  std::vector<std::string> values;
  if (open == std::string::npos || close == std::string::npos) return values;
  std::string current;
  for (char c : std::string_view(type).substr(open + 1, close - open - 1)) {
    if (c == ',') {
      values.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  values.push_back(current);
  return values;
}

// "TEXT" of "TEXT:{a,b}", "UINT" of "UINT:INT in [1 - 100]".
std::string value_name(const CLI::Option& option) {
  const std::string type = option.get_type_name();
  return type.substr(0, type.find(':'));
}

// "ptmpl auth url" for the subcommand url of auth.
std::string command_line(const CLI::App& app) {
  return app.get_parent() == nullptr ? app.get_name() : command_line(*app.get_parent()) + " " + app.get_name();
}

// ---------------------------------------------------------------------------------------------
// man page (man(7) macros)

// Text for a roff line: backslashes and hyphens escaped, every non-ASCII character as a
// \[uXXXX] escape (so no input encoding needs to be declared to the formatter).
std::string roff(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte == '\\') {
      out += "\\e";
    } else if (byte == '-') {
      out += "\\-";
    } else if (byte < 0x80) {
      out += static_cast<char>(byte);
    } else {
      // UTF-8: the lead byte says how many continuation bytes follow.
      const int extra = byte >= 0xF0 ? 3 : byte >= 0xE0 ? 2 : 1;
      std::uint32_t code = byte & (0x3Fu >> extra);
      for (int k = 0; k < extra && i + 1 < text.size(); ++k)
        code = (code << 6) | (static_cast<unsigned char>(text[++i]) & 0x3Fu);
      char hex[16];
      std::snprintf(hex, sizeof hex, "\\[u%04X]", static_cast<unsigned>(code));
      out += hex;
    }
  }
  // A line starting with . or ' would be read as a request.
  if (!out.empty() && (out.front() == '.' || out.front() == '\'')) out.insert(0, "\\&");
  return out;
}

std::string bold(std::string_view text) {
  return "\\fB" + roff(text) + "\\fR";
}
std::string italic(std::string_view text) {
  return "\\fI" + roff(text) + "\\fR";
}

// Preformatted lines (a command's footer: exit codes, examples), indented.
void man_verbatim(std::string& out, std::string_view text) {
  while (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  if (text.empty()) return;
  out += ".PP\n.RS 4\n.nf\n";
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    out += roff(text.substr(start, end - start)) + "\n";
    start = end + 1;
  }
  out += ".fi\n.RE\n";
}

void man_option(std::string& out, const CLI::Option& option) {
  std::string head;
  for (const std::string& name : spellings(option)) head += (head.empty() ? "" : ", ") + bold(name);
  if (takes_value(option)) head += " " + italic(value_name(option));
  std::string text = roff(option.get_description());
  if (const auto values = choices(option); !values.empty()) {
    std::string list;
    for (const std::string& value : values) list += (list.empty() ? "" : ", ") + bold(value);
    text += ". One of: " + list;
  }
  if (!option.get_default_str().empty()) text += ". Default: " + bold(option.get_default_str());
  for (const CLI::Option* other : option.get_needs()) text += ". Needs " + bold(other->get_name());
  for (const CLI::Option* other : option.get_excludes()) text += ". Not with " + bold(other->get_name());
  if (option.get_required()) text += ". Required";
  out += ".TP\n" + head + "\n" + text + ".\n";
}

void man_command(std::string& out, const CLI::App& command) {
  const std::string line = command_line(command);
  out += ".SS \"" + roff(line) + "\"\n";
  std::string synopsis = bold(line);
  if (named_options(command).size() > 1) synopsis += " [" + italic("options") + "]";  // more than --help
  for (const CLI::Option* positional : positionals(command)) {
    std::string name = italic(positional->get_name());
    if (positional->get_items_expected_max() > 1) name += "...";
    synopsis += " " + (positional->get_required() ? name : "[" + name + "]");
  }
  if (!visible_commands(command).empty()) synopsis += " " + italic("command");
  out += synopsis + "\n.PP\n" + roff(command.get_description()) + ".\n";
  for (const CLI::Option* positional : positionals(command)) {
    out += ".TP\n" + italic(positional->get_name()) + "\n" + roff(positional->get_description());
    if (const auto values = choices(*positional); !values.empty()) {
      std::string list;
      for (const std::string& value : values) list += (list.empty() ? "" : ", ") + bold(value);
      out += ". One of: " + list;
    }
    out += ".\n";
  }
  for (const CLI::Option* option : named_options(command))
    if (option != command.get_help_ptr()) man_option(out, *option);
  // A subcommand inherits its parent's footer when it has none of its own; print it once.
  const std::string footer = command.get_footer();
  if (command.get_parent() == nullptr || footer != command.get_parent()->get_footer()) man_verbatim(out, footer);
  for (const CLI::App* sub : visible_commands(command)) man_command(out, *sub);
}

std::string man_page(const CLI::App& root) {
  std::string description = root.get_description();
  if (description.starts_with(root.get_name() + ": ")) description.erase(0, root.get_name().size() + 2);
  if (description.ends_with('.')) description.pop_back();
  const std::string name = root.get_name();
  std::string out;
  out += ".\\\" Generated by `" + name + " __reference man` from its command table; do not edit.\n";
  out += ".TH PTMPL 1 \"\" \"" + roff(name + " " + std::string(kVersion)) + "\" \"User Commands\"\n";
  out += ".SH NAME\n" + roff(name) + " \\- " + roff(description) + "\n";
  out += ".SH SYNOPSIS\n" + bold(name) + " " + italic("command") + " [" + italic("options") + "] [" +
         italic("arguments") + "]\n.br\n" + bold(name) + " " + bold("--help") + "\n.br\n" + bold(name) + " " +
         italic("command") + " " + bold("--help") + "\n.br\n" + bold(name) + " " + bold("--version") + "\n";
  out += ".SH DESCRIPTION\n" + roff(root.get_description()) + "\n";
  out += "It reads story lists (the service's " + bold("raw_json") +
         "), template documents and API responses, detected by content.\n";
  man_verbatim(out, root.get_footer());
  out += ".SH COMMANDS\n";
  for (const CLI::App* command : visible_commands(root))
    out += ".TP\n" + bold(command->get_name()) + "\n" + roff(command->get_description()) + ".\n";
  out += ".PP\nEvery command takes " + bold("-h") + ", " + bold("--help") + ".\n";
  for (const CLI::App* command : visible_commands(root)) man_command(out, *command);
  out += ".SH OPTIONS\n";
  for (const CLI::Option* option : named_options(root)) man_option(out, *option);
  out += ".SH \"EXIT STATUS\"\n";
  out += ".TP\n" + bold(std::to_string(kOk)) + "\nSuccess: no finding at or above the failing severity.\n";
  out += ".TP\n" + bold(std::to_string(kFindings)) + "\nFindings: lint findings at or above " + bold("--fail-on") +
         ", files not in canonical form (" + bold("fmt --check") + "), conversion errors.\n";
  out += ".TP\n" + bold(std::to_string(kUsage)) +
         "\nUsage error, unreadable file, invalid JSON or configuration; nothing is written.\n";
  out += ".TP\n" + bold(std::to_string(kNetwork)) + "\nThe service could not be reached or answered with an error.\n";
  out += ".SH ENVIRONMENT\n";
  out += ".TP\n" + bold("PTMPL_BASE_URL") + "\nThe service's API root, when " + bold("--base-url") + " is not given.\n";
  out += ".TP\n" + bold("PTMPL_TOKEN") + "\nThe access token, when " + bold("--token-file") + " is not given.\n";
  out += ".TP\n" + bold("PTMPL_CLIENT_SECRET") + "\nThe OAuth client secret of " + bold("auth token") + ", when " +
         bold("--client-secret-file") + " is not given.\n";
  out += ".TP\n" + bold("NO_COLOR") + "\nWhen set to a non-empty value, findings on a terminal are not coloured.\n";
  out += ".SH FILES\n.TP\n" + bold(".ptmpl.json") + "\nThe lint configuration: " + bold("lint") +
         " uses the nearest one at or above each file (" + bold("ptmpl schema config") + " prints its schema).\n";
  out += ".SH \"SEE ALSO\"\n" + bold("ptmpl rules") + " and " + bold("ptmpl explain") + " " + italic("rule") +
         " for the lint rules; the pages under " + bold("docs/commands/") + " in the source tree.\n";
  return out;
}

// ---------------------------------------------------------------------------------------------
// bash completion

// Words go into the script unquoted; names and choices are plain (letters, digits, - _ . /).
bool plain_word(std::string_view word) {
  if (word.empty()) return false;
  for (char c : word) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                    c == '_' || c == '.' || c == '/';
    if (!ok) return false;
  }
  return true;
}

std::string word_list(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& word : words)
    if (plain_word(word)) out += (out.empty() ? "" : " ") + word;
  return out;
}

// One `case` branch per command (its path below the root: "", "lint", "auth url") for the
// specification, and one per option or positional with a fixed list of values.
void completion_cases(const CLI::App& app, const std::string& path, std::string& spec, std::string& values) {
  std::vector<std::string> commands;
  for (const CLI::App* sub : visible_commands(app)) commands.push_back(sub->get_name());
  std::vector<std::string> options;
  std::vector<std::string> valued;
  for (const CLI::Option* option : named_options(app)) {
    for (const std::string& name : spellings(*option)) {
      options.push_back(name);
      if (takes_value(*option)) valued.push_back(name);
    }
    if (const auto list = choices(*option); !list.empty())
      for (const std::string& name : spellings(*option))
        values += "    \"" + path + ":" + name + "\") values=\"" + word_list(list) + "\" ;;\n";
  }
  // Only the first positional: the completion does not count positionals.
  if (const auto args = positionals(app); !args.empty())
    if (const auto list = choices(*args.front()); !list.empty())
      values += "    \"" + path + ":\") values=\"" + word_list(list) + "\" ;;\n";
  spec += "    \"" + path + "\") commands=\"" + word_list(commands) + "\" options=\"" + word_list(options) +
          "\" valued=\"" + word_list(valued) + "\" ;;\n";
  for (const CLI::App* sub : visible_commands(app))
    completion_cases(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), spec, values);
}

std::string bash_completion(const CLI::App& root) {
  std::string spec;
  std::string values;
  completion_cases(root, "", spec, values);
  const std::string& name = root.get_name();
  std::string out;
  out += "# bash completion for " + name + "                                  -*- shell-script -*-\n";
  out += "# Generated by `" + name + " __reference bash-completion` from its command table; do not edit.\n\n";
  out += "# _" + name + "_spec PATH: the subcommands, the options and the options taking a value of `" + name +
         " PATH`.\n";
  out += "_" + name + "_spec() {\n  case \"$1\" in\n" + spec +
         "    *) commands=\"\" options=\"\" valued=\"\" ;;\n  esac\n}\n\n";
  out += "# _" + name + "_values PATH OPTION: the values OPTION takes when they are a fixed list (OPTION\n";
  out += "# empty: the first positional argument).\n";
  out += "_" + name + "_values() {\n  case \"$1:$2\" in\n" + values + "    *) values=\"\" ;;\n  esac\n}\n\n";
  std::string body = R"(_NAME() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev="" option="" path="" word i
  local commands options valued values
  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
  _NAME_spec ""
  # Walk the words before the cursor: subcommands narrow the path; an option that takes a
  # value consumes the next word (or the one after "=", which bash splits off).
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${COMP_WORDS[i]}
    if [[ $word == -* ]]; then
      if [[ " $valued " == *" $word "* ]]; then
        ((i++))
        [[ ${COMP_WORDS[i]} == "=" ]] && ((i++))
      fi
    elif [[ " $commands " == *" $word "* ]]; then
      path=${path:+$path }$word
      _NAME_spec "$path"
    fi
  done

  if [[ $cur == "=" ]]; then
    option=$prev
    cur=""
  elif [[ $prev == "=" ]] && ((COMP_CWORD > 1)); then
    option=${COMP_WORDS[COMP_CWORD - 2]}
  elif [[ $prev == -* && " $valued " == *" $prev "* ]]; then
    option=$prev
  fi
  if [[ -n $option ]]; then
    _NAME_values "$path" "$option"
    # No fixed list: leave it to readline's file names (complete -o default).
    [[ -n $values ]] && mapfile -t COMPREPLY < <(compgen -W "$values" -- "$cur")
    return 0
  fi
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
  elif [[ -n $commands ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$commands" -- "$cur")
  else
    _NAME_values "$path" ""
    [[ -n $values ]] && mapfile -t COMPREPLY < <(compgen -W "$values" -- "$cur")
  fi
  return 0
}
complete -o bashdefault -o default -F _NAME NAME
)";
  for (std::size_t at; (at = body.find("NAME")) != std::string::npos;) body.replace(at, 4, name);
  return out + body;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// __reference

std::function<int()> setup_reference(CLI::App& app) {
  struct Options {
    std::string what;
    std::string output;
  };
  auto o = std::make_shared<Options>();
  app.add_option("what", o->what, "what to write")->required()->check(one_of({"man", "bash-completion"}));
  app.add_option("-o,--output", o->output, "write to this file (atomically) instead of standard output");
  return [o, &app] {
    // Run after parsing, so the parent holds every command.
    const CLI::App& root = *app.get_parent();
    const std::string text = o->what == "man" ? man_page(root) : bash_completion(root);
    Status written = write_output(o->output.empty() ? "-" : o->output, text);
    return written.ok() ? int{kOk} : report_error("__reference", written.error());
  };
}

}  // namespace ptmpl::cli
