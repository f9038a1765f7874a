// `ptmpl push`: lint, then publish each template document, with a line per file as each is done.
#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "commands.hpp"
#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/json_emitter.hpp"
#include "libtemplate/core/lint.hpp"
#include "libtemplate/core/printable.hpp"
#include "libtemplate/core/report.hpp"
#include "libtemplate/publish/publish.hpp"
#include "push_command.hpp"

namespace ptmpl::cli {
namespace {

/// What `push --dry-run` prints for a document it would create or update: the outcome line,
/// the request line, then the template fields and stories it would change, e.g.
/// `t.json: would update template 12 "Launch"` / `  PUT https://…/project_templates/12.json` /
/// `  stories: 1 changed, 0 added, 0 removed` / `    ~ [3] "Design"` / `        duration: 3 → 5`.
std::string dry_run_plan(const publish::LocalTemplate& local, const publish::PushOutcome& outcome) {
  std::string out = local.path + ": " + std::string(publish::to_string(outcome.action));
  if (outcome.action == publish::PushAction::WouldUpdate) out += " template " + std::to_string(outcome.id);
  out += " " + json::quoted(local.title) + "\n";
  out += "  " + outcome.method + " " + outcome.url + "\n";
  out += publish::changes_text(outcome.changes, "  ");
  return out;
}

void write_stories(JsonEmitter& out, const publish::TemplateChanges& changes, publish::StoryChange::Kind kind) {
  out.begin_array();
  for (const publish::StoryChange& s : changes.stories) {
    if (s.kind != kind) continue;
    out.begin_object(JsonLayout::Line);
    out.key("temp_id");
    if (s.temp_id.empty())
      out.null();
    else
      out.raw(s.temp_id);  // compact JSON text of the story's temp_id
    out.member("title", s.title);
    out.end_object();
  }
  out.end_array();
}

/// Push's outcomes as one JSON object (`push --format json`): `{"templates": [{"path", "title",
/// "action", "id"?, "updated_at"?, "backup"?, "message"?, "request"?: {"method", "url", "body"},
/// "changes"?: {"fields": [key…], "stories": {"added", "changed", "removed": [{"temp_id",
/// "title"}…]}, "reordered"}}]}`, in the order of `locals`; `body` is the request body itself
/// (raw_json in it a string, as sent). `request` and `changes` are there for dry runs.
std::string push_outcomes_json(const std::vector<publish::LocalTemplate>& locals,
                               const std::vector<publish::PushOutcome>& outcomes) {
  using publish::StoryChange;
  JsonEmitter out;
  out.begin_object();
  out.key("templates");
  out.begin_array();
  for (std::size_t i = 0; i < locals.size() && i < outcomes.size(); ++i) {
    const publish::LocalTemplate& local = locals[i];
    const publish::PushOutcome& outcome = outcomes[i];
    out.begin_object();
    out.member("path", local.path);
    out.member("title", local.title);
    out.member("action", publish::to_string(outcome.action));
    if (outcome.id != 0) out.member("id", outcome.id);
    if (!outcome.updated_at.empty()) out.member("updated_at", outcome.updated_at);
    if (!outcome.backup.empty()) out.member("backup", outcome.backup);
    if (!outcome.message.empty()) out.member("message", outcome.message);
    if (!outcome.method.empty()) {
      out.key("request");
      out.begin_object();
      out.member("method", outcome.method);
      out.member("url", outcome.url);
      out.key("body");
      out.raw(local.body);  // compact JSON, as it would be sent
      out.end_object();
      out.key("changes");
      out.begin_object();
      out.key("fields");
      out.begin_array(JsonLayout::Line);
      for (const publish::FieldChange& f : outcome.changes.fields) out.string(f.key);
      out.end_array();
      out.key("stories");
      out.begin_object();
      out.key("added");
      write_stories(out, outcome.changes, StoryChange::Kind::Added);
      out.key("changed");
      write_stories(out, outcome.changes, StoryChange::Kind::Changed);
      out.key("removed");
      write_stories(out, outcome.changes, StoryChange::Kind::Removed);
      out.end_object();
      out.key("reordered");
      out.boolean(outcome.changes.reordered);
      out.end_object();
    }
    out.end_object();
  }
  out.end_array();
  out.end_object();
  return out.finish();
}

/// `[#########.........]  45/200` on a terminal's line, redrawn in place.
void draw_progress(std::size_t done, std::size_t total) {
  constexpr std::size_t kWidth = 30;
  std::size_t filled = total == 0 ? kWidth : done * kWidth / total;
  std::cerr << "\r\033[2K[" << std::string(filled, '#') << std::string(kWidth - filled, '.') << "] " << done << "/"
            << total << std::flush;
}

/// Prints why `plan` cannot be pushed (lint findings, refusals) and returns the exit code;
/// nullopt when it is ready.
std::optional<int> refuse_plan(std::string_view command, const publish::PushPlan& plan) {
  if (plan.lint.has_errors()) {
    for (const LintedFile& file : plan.lint.files)
      if (file.error) report_error(command, *file.error);
    return int{kUsage};
  }
  if (plan.lint.failed) {
    std::cerr << format_report(ReportFormat::Text, plan.lint);
    report_note(command, "nothing pushed: fix the errors above first");
    return int{kFindings};
  }
  if (plan.refused.empty()) return std::nullopt;
  int exit = int{kOk};
  for (const Error& refusal : plan.refused)
    exit = std::max(exit, report_error(command, {refusal.code, refusal.message + "; nothing pushed"}));
  return exit;
}

/// Prints each document's outcome in the order of the files, as soon as those before it are
/// done, with a progress bar on a terminal; then the summary line.
class PushReport {
 public:
  /// `json`: standard output gets the JSON document at the end instead of a line per file.
  PushReport(std::string_view command, const std::vector<publish::LocalTemplate>& files, bool progress, bool json)
      : command_(command), files_(files), progress_(progress), json_(json), finished_(files.size(), nullptr) {
    if (progress_) draw_progress(0, files_.size());
  }

  /// One document is done (called one at a time).
  void done(std::size_t index, const publish::PushOutcome& outcome) {
    finished_[index] = &outcome;
    ++done_count_;
    ++counts_[outcome.action];
    if (progress_) std::cerr << "\r\033[2K" << std::flush;
    for (; printed_ < files_.size() && finished_[printed_] != nullptr; ++printed_)
      print(files_[printed_], *finished_[printed_]);
    if (progress_ && done_count_ < files_.size()) draw_progress(done_count_, files_.size());
  }

  void summarize() {
    std::string summary;
    for (auto action : {publish::PushAction::Created, publish::PushAction::Updated, publish::PushAction::Unchanged,
                        publish::PushAction::WouldCreate, publish::PushAction::WouldUpdate,
                        publish::PushAction::Conflict, publish::PushAction::Failed})
      if (counts_[action] > 0)
        summary +=
            (summary.empty() ? "" : ", ") + std::to_string(counts_[action]) + " " + std::string(to_string(action));
    report_note(command_,
                std::to_string(files_.size()) + (files_.size() == 1 ? " template: " : " templates: ") + summary);
  }

 private:
  void print(const publish::LocalTemplate& file, const publish::PushOutcome& out) const {
    switch (out.action) {
      case publish::PushAction::Failed:
      case publish::PushAction::Conflict:
        report_note(command_, file.path + ": " + std::string(to_string(out.action)) + ": " + out.message);
        break;
      case publish::PushAction::WouldCreate:
      case publish::PushAction::WouldUpdate:
        if (!json_) std::cout << printable_lines(dry_run_plan(file, out)) << std::flush;
        break;
      default:
        if (!out.warning.empty()) report_note(command_, file.path + ": warning: " + out.warning);
        if (json_) break;
        std::cout << printable(file.path) << ": " << to_string(out.action) << " template " << out.id << " \""
                  << printable(file.title) << "\""
                  << (out.backup.empty() ? "" : " (its previous version saved as " + printable(out.backup) + ")")
                  << "\n"
                  << std::flush;
    }
  }

  const std::string_view command_;
  const std::vector<publish::LocalTemplate>& files_;
  const bool progress_;
  const bool json_;
  std::vector<const publish::PushOutcome*> finished_;
  std::size_t printed_ = 0;
  std::size_t done_count_ = 0;
  std::map<publish::PushAction, std::size_t> counts_;
};

/// The worst failure decides: 3 when the service or the network failed any document, else 2
/// for a local one. A conflict is with the service's copy (changed there since the pull): 3.
int push_exit_code(const std::vector<publish::PushOutcome>& outcomes) {
  int exit = int{kOk};
  for (const auto& outcome : outcomes) {
    if (outcome.action == publish::PushAction::Failed) exit = std::max(exit, exit_code(outcome.failure));
    if (outcome.action == publish::PushAction::Conflict) exit = std::max(exit, exit_code(ErrorCode::kService));
  }
  return exit;
}

}  // namespace

PushRun run_push(std::string_view command, PushRequest& o) {
  PushRun run;
  auto paths = expand_paths(o.paths);
  if (!paths.ok()) {
    run.exit = report_error(command, paths.error());
    return run;
  }
  LintSettings settings;
  if (!o.config.empty()) settings.config_path = o.config;
  publish::PushPlan plan = publish::plan_push(paths.value(), settings);
  if (std::optional<int> refused = refuse_plan(command, plan)) {
    run.exit = *refused;
    return run;
  }
  auto pacer = std::make_shared<publish::Pacer>();
  auto first = make_client(o.service, pacer);  // checks the address and the token once
  if (!first.ok()) {
    run.exit = report_error(command, first.error());
    return run;
  }
  // One push at a time per service address on this machine (a dry run creates nothing).
  std::optional<publish::PushLock> push_lock;
  if (!o.push.dry_run) {
    std::string dir = publish::push_lock_dir(environment("XDG_STATE_HOME"), environment("HOME"));
    if (dir.empty()) {
      run.exit = report_error(command, Error::usage("no place for the push lock: set HOME or XDG_STATE_HOME"));
      return run;
    }
    auto taken = publish::PushLock::take(dir, first.value()->base_url(),
                                         [&](const std::string& message) { report_note(command, message); });
    if (!taken.ok()) {
      run.exit = report_error(command, taken.error());
      return run;
    }
    push_lock.emplace(std::move(taken).value());
    o.push.base_dir = base_dir_of(*first.value());
    // Backups go beside the bases, never into the repository being pushed.
    if (o.push.backup_dir.empty())
      o.push.backup_dir =
          publish::backup_store_dir(environment("XDG_STATE_HOME"), environment("HOME"), first.value()->base_url());
  }
  std::mutex spare_mutex;
  std::unique_ptr<publish::Client> spare = std::move(first).value();
  auto make = [&]() -> std::unique_ptr<publish::Client> {
    {
      std::lock_guard lock(spare_mutex);
      if (spare) return std::move(spare);
    }
    return std::move(make_client(o.service, pacer)).value();
  };
  run.files = std::move(plan.documents);
  PushReport report(command, run.files, ::isatty(STDERR_FILENO) && !o.service.verbose && run.files.size() > 1, o.json);
  run.outcomes = publish::push_templates(
      run.files, o.push, make,
      [&](std::size_t index, const publish::PushOutcome& outcome) { report.done(index, outcome); });
  report.summarize();
  run.published = true;
  run.exit = push_exit_code(run.outcomes);
  return run;
}

std::function<int()> setup_push(CLI::App& app) {
  struct Options : PushRequest {
    std::string format = "text";
  };
  auto o = std::make_shared<Options>();
  add_service_options(app, o->service);
  app.add_option("paths", o->paths, "template documents, or directories searched for *.json")->required();
  app.add_flag("--dry-run", o->push.dry_run,
               "read from the service to decide, but send nothing: print what each template would get (create, "
               "update or unchanged) and the fields and stories it would change");
  app.add_option("--format", o->format,
                 "text (a line per file; with --dry-run, the plan) or json (every outcome, with --dry-run the "
                 "request bodies)")
      ->check(one_of({"text", "json"}))
      ->capture_default_str();
  app.add_flag("--force", o->push.force,
               "overwrite templates changed on the service since they were pulled (their version is saved first)");
  app.add_option("--backup-dir", o->push.backup_dir,
                 "where the service's version of a template is saved before it is overwritten (default: beside "
                 "the bases, $XDG_STATE_HOME/ptmpl/backups/<address>, else ~/.local/state/ptmpl/backups/<address>)");
  app.add_option("-j,--jobs", o->push.jobs,
                 "most templates sent at a time (up to 4 start; more only while they make the push faster)")
      ->capture_default_str()
      ->check(CLI::Range(1, 32));
  app.add_option("--config", o->config,
                 "configuration file for the lint that runs first (default: .ptmpl.json upward)");
  app.footer(
      "Lints first: nothing is pushed while any file has errors. A document with an \"id\" updates that template;\n"
      "one without updates your template of the same title, or creates one; the file gets the id back.\n"
      "Formats: text (default), json.\n"
      "Exit codes: 0 pushed, 1 lint errors (nothing pushed), 2 usage error, unreadable file or a\n"
      "refusal, 3 network or service error.\n\n"
      "Example:\n  PTMPL_TOKEN=… ptmpl push templates/ --base-url https://127.0.0.1:8443/api/v1 --cacert ca.pem\n"
      "  ptmpl push templates/ --dry-run --format json");
  return [o] {
    o->json = o->format == "json";
    PushRun run = run_push("push", *o);
    if (o->json && run.published) {
      if (auto shown = write_result("-", push_outcomes_json(run.files, run.outcomes)); !shown.ok())
        return std::max(run.exit, report_error("push", shown.error()));
    }
    return run.exit;
  };
}

}  // namespace ptmpl::cli
