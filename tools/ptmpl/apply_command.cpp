// `ptmpl apply`: a workspace (project) from a template, pushed first when it has no id, then the
// schedule it starts with.
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "libtemplate/core/dates.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/printable.hpp"
#include "libtemplate/publish/publish.hpp"
#include "libtemplate/publish/workspace.hpp"
#include "push_command.hpp"

namespace ptmpl::cli {
namespace {

constexpr std::string_view kCommand = "apply";

/// The preview `ptmpl schedule PATH --start START --no-pager` prints: that command itself, so
/// the two never differ. Returns its exit code.
int print_schedule_preview(const std::string& path, const std::string& start) {
  CLI::App schedule{"", "schedule"};
  std::function<int()> run = setup_schedule(schedule);
  std::vector<std::string> args = {path, "--", start, "--start", "--no-pager"};  // CLI11 takes them last first
  try {
    schedule.parse(args);
  } catch (const CLI::ParseError& e) {
    report_note(kCommand, std::string("internal error: the schedule preview: ") + e.what());
    return int{kUsage};
  }
  return run();
}

/// `created workspace 7 "Launch" from template 12, starting 2027-01-04`, or what a dry run says.
std::string workspace_line(std::string_view verb, std::int64_t id, const publish::NewWorkspace& workspace) {
  std::string line = std::string(verb) + " workspace ";
  if (id != 0) line += std::to_string(id) + " ";
  line += json::quoted(workspace.title) + " from ";
  line += workspace.template_id ? "template " + std::to_string(*workspace.template_id) : "the template pushed above";
  return line + ", starting " + workspace.start_date + "\n";
}

}  // namespace

std::function<int()> setup_apply(CLI::App& app) {
  struct Options {
    PushRequest push;
    std::string path;
    std::string start;
    std::string title;
    std::string creator_role = "maven";
    bool dry_run = false;
  };
  auto o = std::make_shared<Options>();
  add_service_options(app, o->push.service);
  app.add_option("template", o->path, "the template document to apply")->required();
  app.add_option("--start", o->start, "the workspace's start date, YYYY-MM-DD: day 0 of the template's schedule")
      ->required();
  app.add_option("--title", o->title, "the workspace's title (default: the template's)");
  app.add_option("--creator-role", o->creator_role,
                 "your side in the workspace: maven (the consultant role) or buyer (the client role)")
      ->check(one_of({"maven", "buyer"}))
      ->capture_default_str();
  app.add_flag("--dry-run", o->dry_run,
               "say what would be done (the push, the workspace's request body) and send nothing that changes "
               "anything");
  app.add_option("--config", o->push.config,
                 "configuration file for the lint of a template pushed first (default: .ptmpl.json upward)");
  app.footer(
      "A template without an \"id\" is pushed first, exactly as `ptmpl push` would (lint first; the file gets\n"
      "its id); then POST /workspaces.json creates the workspace, and the schedule from --start is printed.\n"
      "Exit codes: 0 applied, 1 lint errors (nothing pushed or applied), 2 usage error (a --start that is no\n"
      "date), unreadable file, not a template document, no address or token, 3 network or service error\n"
      "(an unknown template id).\n\n"
      "Example:\n  PTMPL_TOKEN=… ptmpl apply launch.json --start 2027-01-04 --base-url https://127.0.0.1:8443/api/v1");
  return [o] {
    if (o->start.size() != 10 || !parse_date(o->start)) {
      report_note(kCommand, "--start: \"" + printable(o->start) + "\" is not a date (expected YYYY-MM-DD)");
      return int{kUsage};
    }
    std::optional<std::string> title;
    if (!o->title.empty()) title = o->title;
    if (title && title->find_first_not_of(" \t\r\n") == std::string::npos)
      return report_error(kCommand, Error::usage("--title: a workspace's title cannot be blank"));
    publish::ReadFiles read = publish::read_files({o->path});
    if (!read.unreadable.empty()) return report_error(kCommand, read.unreadable.front());
    auto local = publish::read_local_template(o->path, read.texts.front());
    if (!local.ok()) return report_error(kCommand, local.error());
    auto client = make_client(o->push.service);
    if (!client.ok()) return report_error(kCommand, client.error());

    publish::NewWorkspace workspace = publish::workspace_of(local.value(), o->start, title);
    workspace.creator_role = o->creator_role;
    if (!local.value().id) {
      o->push.paths = {o->path};
      o->push.push.dry_run = o->dry_run;
      PushRun pushed = run_push(kCommand, o->push);
      if (pushed.exit != kOk || !pushed.published) return pushed.exit;
      const publish::PushOutcome& outcome = pushed.outcomes.front();
      if (outcome.action != publish::PushAction::WouldCreate) workspace.template_id = outcome.id;
      if (!o->dry_run)
        std::cout << printable(o->path) << ": \"id\": " << outcome.id << " written into the file, as push does\n";
    }
    const std::string body = publish::workspace_body(workspace);
    if (o->dry_run) {
      std::cout << printable_lines(workspace_line("would create", 0, workspace) + "  POST " +
                                   client.value()->base_url() + "/workspaces.json\n  " + body + "\n")
                << std::flush;
    } else {
      auto created = client.value()->create_workspace(body, workspace.title);
      if (!created.ok()) return report_error(kCommand, created.error());
      std::cout << printable_lines(workspace_line("created", created.value().id, workspace)) << std::flush;
    }
    return print_schedule_preview(o->path, o->start);
  };
}

}  // namespace ptmpl::cli
