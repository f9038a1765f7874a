// The publishing commands: push, pull, list, diff, auth, and sandbox (the local stand-in for
// the service).
#include <signal.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "commands.hpp"
#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/lint.hpp"
#include "libtemplate/core/report.hpp"
#include "libtemplate/core/writer.hpp"
#include "libtemplate/publish/api_client.hpp"
#include "libtemplate/publish/oauth.hpp"
#include "libtemplate/publish/publish.hpp"
#include "libtemplate/sandbox/sandbox.hpp"

namespace ptmpl::cli {
namespace {

// Options every command that talks to the service takes (SPEC §8; fixed interface).
struct ServiceOptions {
  std::string base_url;
  std::string cacert;
  std::string token_file;
  bool verbose = false;
  int attempts = publish::RetryPolicy{}.max_attempts;
};

void add_service_options(CLI::App& app, ServiceOptions& o) {
  app.add_option("--base-url", o.base_url, "the service's API root, ending in /api/v1 (default: $PTMPL_BASE_URL)");
  app.add_option("--cacert", o.cacert,
                 "CA certificate (PEM) to verify the service with, e.g. the sandbox's (default: $PTMPL_CACERT)");
  app.add_option("--token-file", o.token_file, "file holding the access token, mode 600 (default: $PTMPL_TOKEN)");
  app.add_flag("--verbose", o.verbose, "trace requests and responses on standard error (the token redacted)");
  app.add_option("--attempts", o.attempts, "tries per request when the service is busy (429, 503) or unreachable")
      ->capture_default_str()
      ->check(CLI::Range(1, 20));
}

/// The value of the environment variable `name`; nullopt when unset. The library reads no
/// environment: what it needs of it comes from here.
std::optional<std::string_view> environment(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::nullopt : std::optional<std::string_view>(value);
}

/// `--base-url`, else $PTMPL_BASE_URL, else "".
std::string base_url_of(const std::string& option) {
  return option.empty() ? std::string(environment("PTMPL_BASE_URL").value_or("")) : option;
}

/// `--cacert`, else $PTMPL_CACERT, else "" (the system's CA store).
std::string cacert_of(const std::string& option) {
  return option.empty() ? std::string(environment("PTMPL_CACERT").value_or("")) : option;
}

/// The client for `o`, or a message (usage or set-up problem: exit code 2).
Result<std::unique_ptr<publish::Client>> make_client(const ServiceOptions& o,
                                                     std::shared_ptr<publish::Pacer> pacer = nullptr) {
  std::string base_url = base_url_of(o.base_url);
  // The API reference names no public host for {base_url}, so there is no default to fall back
  // on: guessing one would send the token to an address nobody chose (docs/design.md).
  if (base_url.empty())
    return Error::usage(
        "no service address: pass --base-url or set PTMPL_BASE_URL to the service's API root (ending in /api/v1); "
        "there is no default");
  if (auto allowed = publish::check_base_url(base_url); !allowed.ok()) return allowed.error();
  auto token = publish::load_token(o.token_file, environment("PTMPL_TOKEN"));
  if (!token.ok()) return token.error();
  publish::ClientOptions options;
  options.base_url = base_url;
  options.token = token.value();
  options.trace = o.verbose ? &std::cerr : nullptr;
  options.pacer = std::move(pacer);
  options.retry.max_attempts = o.attempts;
  publish::TransportOptions transport;
  transport.cacert = cacert_of(o.cacert);
  return std::make_unique<publish::Client>(options, publish::make_curl_transport(transport));
}

/// Prints what list_all noticed: warnings, and each template it could not use (those make the
/// command exit 3 once it has done the rest). Returns that exit code.
int report_notes(const char* command, const publish::ListNotes& notes) {
  for (const auto& warning : notes.warnings) std::cerr << "ptmpl " << command << ": warning: " << warning << "\n";
  int exit = int{kOk};
  for (const Error& e : notes.skipped)
    exit = std::max(exit, report_error(command, {e.code, e.message + "; skipped, the others are shown"}));
  return exit;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// auth

std::function<int()> setup_auth(CLI::App& app) {
  struct Options {
    std::string base_url;
    std::string app_url;
    std::string client_id;
    std::string redirect_uri;
    std::string state;
    std::string code;
    std::string client_secret_file;
    std::string output;
    std::string cacert;
    CLI::App* url = nullptr;
    CLI::App* token = nullptr;
  };
  auto o = std::make_shared<Options>();
  app.require_subcommand(1);
  auto common = [o](CLI::App* sub) {
    sub->add_option("--client-id", o->client_id, "the registered application's client id")->required();
    sub->add_option("--redirect-uri", o->redirect_uri, "the registered callback URL")->required();
    sub->add_option("--app-url", o->app_url, "the web application's address (default: --base-url without /api/v1)");
    sub->add_option("--base-url", o->base_url, "the API root (default: $PTMPL_BASE_URL)");
  };
  o->url = app.add_subcommand("url", "print the address that sends a user to approve the application");
  common(o->url);
  o->url->add_option("--state", o->state, "opaque value the redirect carries back");
  o->token = app.add_subcommand("token", "exchange an authorization code for an access token, written to a file");
  common(o->token);
  o->token->add_option("--code", o->code, "the code the redirect carried (valid for 5 minutes)")->required();
  o->token->add_option("--client-secret-file", o->client_secret_file,
                       "file holding the client secret, mode 600 (default: $PTMPL_CLIENT_SECRET)");
  o->token->add_option("-o,--output", o->output, "file to write the access token to (mode 600)")->required();
  o->token->add_option("--cacert", o->cacert,
                       "CA certificate (PEM) to verify the service with (default: $PTMPL_CACERT)");
  app.footer(
      "Output: the address (url), or the token written to -o (token).\n"
      "Exit codes: 0 ok, 2 usage error or unwritable file, 3 network or service error.\n\n"
      "Example:\n  ptmpl auth url --client-id ID --redirect-uri https://ci.example/callback\n"
      "  ptmpl auth token --client-id ID --redirect-uri https://ci.example/callback --code CODE -o ~/.ptmpl-token");
  return [o] {
    publish::OAuthApp oauth{o->app_url, o->client_id, o->redirect_uri};
    if (oauth.app_url.empty()) {
      oauth.app_url = publish::app_url_of(base_url_of(o->base_url));
    }
    while (!oauth.app_url.empty() && oauth.app_url.back() == '/') oauth.app_url.pop_back();
    if (oauth.app_url.empty()) {
      std::cerr << "ptmpl auth: no service address: pass --app-url or --base-url, or set PTMPL_BASE_URL\n";
      return int{kUsage};
    }
    if (auto allowed = publish::check_base_url(oauth.app_url); !allowed.ok()) {
      return report_error("auth", allowed.error());
    }
    if (o->url->parsed()) {
      std::cout << publish::authorize_url(oauth, o->state) << "\n";
      return int{kOk};
    }
    auto secret = publish::load_secret(o->client_secret_file, environment("PTMPL_CLIENT_SECRET"), "PTMPL_CLIENT_SECRET",
                                       "client secret");
    if (!secret.ok()) {
      return report_error("auth token", secret.error());
    }
    // The token goes only into a private file, made ready before the one-time code is spent:
    // a place it cannot be written is refused while the code is still valid.
    auto target = publish::TokenFile::prepare(o->output);
    if (!target.ok()) {
      return report_error("auth token", target.error());
    }
    publish::TransportOptions transport_options;
    transport_options.cacert = cacert_of(o->cacert);
    auto transport = publish::make_curl_transport(transport_options);
    auto token = publish::exchange_code(*transport, oauth, secret.value(), o->code);
    if (!token.ok()) {
      return report_error("auth token", token.error());
    }
    if (auto kept = target.value().keep(token.value()); !kept.ok()) {
      int exit = report_error("auth token", kept.error());
      if (target.value().lost()) {
        // The code is spent: this token is the only one. Better shown once than lost.
        std::cerr << "ptmpl auth token: the token follows on standard output; store it privately\n";
        if (auto shown = write_stdout(token.value() + "\n"); !shown.ok()) report_error("auth token", shown.error());
      }
      return exit;
    }
    std::cerr << "ptmpl auth token: wrote the access token to " << o->output << " (use --token-file " << o->output
              << ")\n";
    return int{kOk};
  };
}

// ---------------------------------------------------------------------------------------------
// list

std::function<int()> setup_list(CLI::App& app) {
  struct Options {
    ServiceOptions service;
    bool mine = false;
    std::string title;
    std::string order;
    std::string format = "table";
  };
  auto o = std::make_shared<Options>();
  add_service_options(app, o->service);
  app.add_flag("--mine", o->mine, "only templates made by the token's user");
  app.add_option("--title", o->title, "only templates whose title matches (the service's by_title filter)");
  app.add_option("--order", o->order,
                 "FIELD:asc|desc; fields: title, updated_at, duration, budget, description, "
                 "is_budgeted (default: updated_at:desc)");
  app.add_option("--format", o->format, "table or json")
      ->check(CLI::IsMember({"table", "json"}))
      ->capture_default_str();
  app.footer(
      "Formats: table (default), json.\n"
      "Exit codes: 0 ok, 2 usage error, 3 network or service error.\n\n"
      "Example:\n  PTMPL_TOKEN=… ptmpl list --base-url https://127.0.0.1:8443/api/v1 --cacert ca.pem --mine");
  return [o] {
    auto client = make_client(o->service);
    if (!client.ok()) {
      return report_error("list", client.error());
    }
    publish::ListQuery query;
    query.mine = o->mine;
    query.by_title = o->title;
    query.order = o->order;
    publish::ListNotes notes;
    auto all = client.value()->list_all(query, &notes);
    if (!all.ok()) {
      return report_error("list", all.error());
    }
    int exit = report_notes("list", notes);
    if (o->format == "json") {
      JsonEmitter out;
      out.begin_object();
      out.member("count", all.value().size());
      out.key("templates");
      out.begin_array();
      for (const publish::RemoteTemplate& t : all.value()) {
        json::ParseOptions options;
        options.max_depth = json::kMaxDepthLimit;  // the client refused anything deeper
        write_value(out, json::Document::parse(t.json, options).root());
      }
      out.end_array();
      out.end_object();
      if (auto shown = write_stdout(out.finish()); !shown.ok()) return report_error("list", shown.error());
      return exit;
    }
    if (auto shown = write_stdout(publish::list_table(all.value())); !shown.ok())
      return report_error("list", shown.error());
    return exit;
  };
}

// ---------------------------------------------------------------------------------------------
// pull

std::function<int()> setup_pull(CLI::App& app) {
  struct Options {
    ServiceOptions service;
    std::vector<std::int64_t> ids;
    bool all = false;
    bool mine = false;
    std::string title;
    std::string output_dir = ".";
    bool force = false;
    bool merge = false;
  };
  auto o = std::make_shared<Options>();
  add_service_options(app, o->service);
  app.add_option("ids", o->ids, "ids of the templates to pull");
  app.add_flag("--all", o->all, "every template the token's user can see");
  app.add_flag("--mine", o->mine, "every template made by the token's user");
  app.add_option("--title", o->title, "the templates whose title is exactly this");
  app.add_option("-o,--output-dir", o->output_dir, "directory to write <id>-<title>.json files into")
      ->capture_default_str();
  auto* force = app.add_flag("--force", o->force,
                             "overwrite a file that holds something the service does not (edits not pushed yet), "
                             "saving it to FILE.bak first");
  app.add_flag("--merge", o->merge,
               "merge the service's changes into a file that holds edits not pushed yet (three-way, from the version "
               "last pulled or pushed); nothing is written where both changed the same thing")
      ->excludes(force);
  app.footer(
      "A file already there is replaced only when it holds what the service holds (docs/publishing.md).\n"
      "Output: template documents (JSON), one file per template.\n"
      "Exit codes: 0 ok, 1 --merge met conflicts (each listed; the file is not written), 2 usage error,\n"
      "a file that cannot be written, holds local edits, or has no base to merge from,\n"
      "3 network or service error.\n\n"
      "Example:\n  ptmpl pull --mine -o templates/\n  ptmpl pull 12 --merge -o templates/");
  return [o] {
    int selectors = (o->ids.empty() ? 0 : 1) + o->all + o->mine + (o->title.empty() ? 0 : 1);
    if (selectors != 1) {
      std::cerr << "ptmpl pull: name what to pull: ids, --all, --mine or --title (one of them)\n";
      return int{kUsage};
    }
    auto client = make_client(o->service);
    if (!client.ok()) {
      return report_error("pull", client.error());
    }
    std::vector<publish::RemoteTemplate> templates;
    int exit = int{kOk};
    if (!o->ids.empty()) {
      for (auto id : o->ids) {
        auto t = client.value()->get(id, true);
        if (!t.ok()) {
          // A template the client cannot use, or one not there, does not stop the others.
          if (t.error().code == ErrorCode::kNetwork || t.error().code == ErrorCode::kInsecure)
            return report_error("pull", t.error());
          exit = std::max(exit, report_error("pull", t.error()));
          continue;
        }
        templates.push_back(std::move(t).value());
      }
    } else {
      publish::ListQuery query;
      query.mine = o->mine;
      query.by_title = o->title;
      query.with_raw_json = true;
      publish::ListNotes notes;
      auto all = client.value()->list_all(query, &notes);
      if (!all.ok()) {
        return report_error("pull", all.error());
      }
      exit = report_notes("pull", notes);
      for (auto& t : all.value())
        if (o->title.empty() || t.title == o->title) templates.push_back(std::move(t));
      if (!o->title.empty() && templates.empty()) {
        return report_error("pull", Error::not_found("no template is titled \"" + o->title + "\""));
      }
    }
    std::error_code ec;
    std::filesystem::create_directories(o->output_dir, ec);
    if (ec) {
      std::cerr << "ptmpl pull: " << o->output_dir << ": cannot create the directory: " << ec.message() << "\n";
      return int{kUsage};
    }
    // A template some file under the directory already holds goes into that file, found as push
    // finds it (a file that cannot be read or is not a template document holds none).
    auto below = expand_paths({o->output_dir});
    if (!below.ok()) return report_error("pull", below.error());
    publish::LocalDocuments present = publish::LocalDocuments::read(publish::read_files(below.value()));
    // Each template written is the version the file and the service now agree on: its base.
    const std::string bases =
        publish::base_store_dir(environment("XDG_STATE_HOME"), environment("HOME"), client.value()->base_url());
    auto keep_base = [&](const publish::RemoteTemplate& t, const std::string& path) {
      if (bases.empty()) return;
      if (auto kept = publish::record_base(bases, t); !kept.ok())
        std::cerr << "ptmpl pull: " << path << ": warning: cannot record the base of template " << t.id
                  << " (`pull --merge` needs it): " << kept.error().message << "\n";
    };
    // Each template on its own: one that cannot be written does not stop the others.
    for (const auto& t : templates) {
      auto holder = present.file_of(t.id);
      if (!holder.ok()) {
        exit = std::max(exit, report_error("pull", {holder.error().code, holder.error().message + "; not pulled"}));
        continue;
      }
      std::string path = holder.value().value_or(
          (std::filesystem::path(o->output_dir) / publish::pulled_file_name(t.id, t.title)).string());
      if (o->merge) {
        auto merged = publish::merge_pulled(path, t, bases);
        if (!merged.ok()) {
          exit = std::max(exit, report_error("pull", merged.error()));
          continue;
        }
        const publish::MergedFile& m = merged.value();
        const std::string id = std::to_string(t.id);
        switch (m.outcome) {
          case publish::MergedFile::Outcome::Conflicts:
            std::cerr << "ptmpl pull: " << path << ": " << m.conflicts.size()
                      << (m.conflicts.size() == 1 ? " conflict" : " conflicts")
                      << " between the file's edits and the changes to template " << id << " on the service since "
                      << m.base_updated_at << " (now " << t.updated_at << "); nothing written:\n"
                      << publish::conflict_lines(m.conflicts, "  ") << "  (`ptmpl diff --three-way " << path
                      << "` shows both sides' changes; resolve them in the file or on the service, then pull "
                         "--merge again)\n";
            exit = std::max(exit, int{kFindings});
            continue;
          case publish::MergedFile::Outcome::Kept:
            std::cerr << "ptmpl pull: " << path << ": template " << id << " has not changed on the service since "
                      << m.base_updated_at << "; the file's edits are kept as they are\n";
            break;
          case publish::MergedFile::Outcome::Merged:
            std::cerr << "ptmpl pull: " << path << ": merged the changes to template " << id << " on the service ("
                      << m.base_updated_at << " → " << t.updated_at << ") with the file's edits\n";
            break;
          case publish::MergedFile::Outcome::Replaced:
            break;
        }
        keep_base(t, path);
        std::cout << path << "\n";
        continue;
      }
      auto pulled = publish::write_pulled(path, t, o->force);
      if (!pulled.ok()) {
        exit = std::max(exit, report_error("pull", pulled.error()));
        continue;
      }
      if (!pulled.value().backup.empty())
        std::cerr << "ptmpl pull: " << path << ": its previous bytes saved as " << pulled.value().backup << "\n";
      keep_base(t, path);
      std::cout << path << "\n";
    }
    return exit;
  };
}

// ---------------------------------------------------------------------------------------------
// push

namespace {

/// `[#########.........]  45/200` on a terminal's line, redrawn in place.
void draw_progress(std::size_t done, std::size_t total) {
  constexpr std::size_t kWidth = 30;
  std::size_t filled = total == 0 ? kWidth : done * kWidth / total;
  std::cerr << "\r\033[2K[" << std::string(filled, '#') << std::string(kWidth - filled, '.') << "] " << done << "/"
            << total << std::flush;
}

/// Prints why `plan` cannot be pushed (lint findings, refusals) and returns the exit code;
/// nullopt when it is ready.
std::optional<int> refuse_plan(const publish::PushPlan& plan) {
  if (plan.lint.has_errors()) {
    for (const LintedFile& file : plan.lint.files)
      if (file.error) std::cerr << "ptmpl push: " << file.error->message << "\n";
    return int{kUsage};
  }
  if (plan.lint.failed) {
    std::cerr << format_report(ReportFormat::Text, plan.lint);
    std::cerr << "ptmpl push: nothing pushed: fix the errors above first\n";
    return int{kFindings};
  }
  if (plan.refused.empty()) return std::nullopt;
  int exit = int{kOk};
  for (const Error& refusal : plan.refused)
    exit = std::max(exit, report_error("push", {refusal.code, refusal.message + "; nothing pushed"}));
  return exit;
}

/// Prints each document's outcome in the order of the files, as soon as those before it are
/// done, with a progress bar on a terminal; then the summary line.
class PushReport {
 public:
  /// `json`: standard output gets the JSON document at the end instead of a line per file.
  PushReport(const std::vector<publish::LocalTemplate>& files, bool progress, bool json)
      : files_(files), progress_(progress), json_(json), finished_(files.size(), nullptr) {
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
    std::cerr << "ptmpl push: " << files_.size() << (files_.size() == 1 ? " template: " : " templates: ") << summary
              << "\n";
  }

 private:
  void print(const publish::LocalTemplate& file, const publish::PushOutcome& out) const {
    switch (out.action) {
      case publish::PushAction::Failed:
      case publish::PushAction::Conflict:
        std::cerr << "ptmpl push: " << file.path << ": " << to_string(out.action) << ": " << out.message << "\n";
        break;
      case publish::PushAction::WouldCreate:
      case publish::PushAction::WouldUpdate:
        if (!json_) std::cout << publish::dry_run_plan(file, out) << std::flush;
        break;
      default:
        if (!out.warning.empty()) std::cerr << "ptmpl push: " << file.path << ": warning: " << out.warning << "\n";
        if (json_) break;
        std::cout << file.path << ": " << to_string(out.action) << " template " << out.id << " \"" << file.title << "\""
                  << (out.backup.empty() ? "" : " (its previous version saved as " + out.backup + ")") << "\n"
                  << std::flush;
    }
  }

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

std::function<int()> setup_push(CLI::App& app) {
  struct Options {
    ServiceOptions service;
    std::vector<std::string> paths;
    publish::PushOptions push;
    std::string config;
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
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  app.add_flag("--force", o->push.force,
               "overwrite templates changed on the service since they were pulled (their version is saved first)");
  app.add_option("--backup-dir", o->push.backup_dir,
                 "where the service's version of a template is saved before it is overwritten")
      ->capture_default_str();
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
    auto paths = expand_paths(o->paths);
    if (!paths.ok()) {
      return report_error("push", paths.error());
    }
    LintSettings settings;
    if (!o->config.empty()) settings.config_path = o->config;
    publish::PushPlan plan = publish::plan_push(paths.value(), settings);
    if (std::optional<int> refused = refuse_plan(plan)) return *refused;
    auto pacer = std::make_shared<publish::Pacer>();
    auto first = make_client(o->service, pacer);  // checks the address and the token once
    if (!first.ok()) return report_error("push", first.error());
    // One push at a time per service address on this machine (a dry run creates nothing).
    std::optional<publish::PushLock> push_lock;
    if (!o->push.dry_run) {
      std::string dir = publish::push_lock_dir(environment("XDG_STATE_HOME"), environment("HOME"));
      if (dir.empty())
        return report_error("push", Error::usage("no place for the push lock: set HOME or XDG_STATE_HOME"));
      auto taken = publish::PushLock::take(dir, first.value()->base_url(), [](const std::string& message) {
        std::cerr << "ptmpl push: " << message << "\n";
      });
      if (!taken.ok()) return report_error("push", taken.error());
      push_lock.emplace(std::move(taken).value());
      o->push.base_dir =
          publish::base_store_dir(environment("XDG_STATE_HOME"), environment("HOME"), first.value()->base_url());
    }
    std::mutex spare_mutex;
    std::unique_ptr<publish::Client> spare = std::move(first).value();
    auto make = [&]() -> std::unique_ptr<publish::Client> {
      {
        std::lock_guard lock(spare_mutex);
        if (spare) return std::move(spare);
      }
      return std::move(make_client(o->service, pacer)).value();
    };
    const std::vector<publish::LocalTemplate>& files = plan.documents;
    const bool json = o->format == "json";
    PushReport report(files, ::isatty(STDERR_FILENO) && !o->service.verbose && files.size() > 1, json);
    auto outcomes = publish::push_templates(
        files, o->push, make,
        [&](std::size_t index, const publish::PushOutcome& outcome) { report.done(index, outcome); });
    report.summarize();
    int exit = push_exit_code(outcomes);
    if (json) {
      if (auto shown = write_stdout(publish::push_outcomes_json(files, outcomes)); !shown.ok())
        return std::max(exit, report_error("push", shown.error()));
    }
    return exit;
  };
}

// ---------------------------------------------------------------------------------------------
// diff

namespace {

/// `diff --three-way`: the file and the service's copy, each against the base.
int diff_three_way(const std::string& path, const ServiceOptions& service) {
  auto bytes = FileText::read(path);
  if (!bytes.ok()) return report_error("diff", bytes.error());
  auto local = publish::read_local_template(path, std::string(bytes.value().text()));
  if (!local.ok()) return report_error("diff", local.error());
  if (!local.value().id)
    return report_error("diff", Error::usage(path +
                                             ": it has no \"id\": it was never pulled or pushed, so there is no base "
                                             "to compare with (`ptmpl diff " +
                                             path + "` compares it with the service's copy)"));
  const std::string id = std::to_string(*local.value().id);
  auto client = make_client(service);
  if (!client.ok()) return report_error("diff", client.error());
  const std::string bases =
      publish::base_store_dir(environment("XDG_STATE_HOME"), environment("HOME"), client.value()->base_url());
  auto base_text = bases.empty() ? Result<std::optional<std::string>>(std::optional<std::string>())
                                 : publish::load_base(bases, *local.value().id);
  if (!base_text.ok()) return report_error("diff", base_text.error());
  if (!base_text.value())
    return report_error("diff", Error::usage(path + ": no base of template " + id +
                                             " is recorded on this machine: pull it first (`ptmpl pull " + id +
                                             " -o DIR`; each pull and push records the version it agreed on with "
                                             "the service)"));
  auto base = publish::read_local_template(bases + "/" + id + ".json", std::move(*base_text.value()));
  if (!base.ok()) return report_error("diff", base.error());
  if (base.value().updated_at != local.value().updated_at)
    return report_error("diff", Error::usage(path + ": the base recorded for template " + id + " is its version of " +
                                             base.value().updated_at + ", but the file was pulled at " +
                                             (local.value().updated_at.empty() ? std::string("no recorded version")
                                                                               : local.value().updated_at) +
                                             ": there is no base for this file"));
  auto remote = client.value()->get(*local.value().id, true);
  if (!remote.ok()) return report_error("diff", remote.error());
  auto theirs_text = publish::template_document(remote.value());
  if (!theirs_text.ok()) return report_error("diff", theirs_text.error());
  auto theirs = publish::read_local_template("template " + id, std::move(theirs_text).value());
  if (!theirs.ok()) return report_error("diff", theirs.error());
  auto diff = publish::diff_three_way(base.value(), local.value(), theirs.value());
  if (!diff.ok()) return report_error("diff", diff.error());
  const publish::ThreeWayDiff& d = diff.value();
  std::string out = "--- base:    template " + id + " " + json::quoted(base.value().title) + " (updated_at " +
                    base.value().updated_at + "), as last pulled or pushed on this machine\n";
  out += "+++ local:   " + path + "\n";
  out += "+++ service: template " + id + " " + json::quoted(remote.value().title) + " (updated_at " +
         remote.value().updated_at + ")\n";
  out += "local changes:" + std::string(d.local.empty() ? " none\n" : "\n");
  out += publish::changes_text(d.local, "  ");
  out += "service changes:" + std::string(d.remote.empty() ? " none\n" : "\n");
  out += publish::changes_text(d.remote, "  ");
  if (d.conflicts.empty()) {
    out += "conflicts: none";
    out += d.local.empty() || d.remote.empty() ? "\n" : " (`ptmpl pull --merge` merges them)\n";
  } else {
    out += "conflicts: " + std::to_string(d.conflicts.size()) +
           " (`ptmpl pull --merge` writes nothing until they are resolved)\n";
    out += publish::conflict_lines(d.conflicts, "  ");
  }
  if (auto shown = write_stdout(out); !shown.ok()) return report_error("diff", shown.error());
  return d.local.empty() && d.remote.empty() ? int{kOk} : int{kFindings};
}

}  // namespace

std::function<int()> setup_diff(CLI::App& app) {
  struct Options {
    ServiceOptions service;
    std::string path;
    bool three_way = false;
  };
  auto o = std::make_shared<Options>();
  add_service_options(app, o->service);
  app.add_option("file", o->path, "a template document")->required();
  app.add_flag("--three-way", o->three_way,
               "show what changed in the file and what changed on the service since the version last pulled or "
               "pushed (the base), and where they conflict");
  app.footer(
      "Compares the file with the template it was pulled from (its \"id\"), or with your template of the same\n"
      "title. Output: the differences, story by story, as text.\n"
      "Exit codes: 0 the same (--three-way: neither side changed), 1 they differ, 2 usage error,\n"
      "unreadable or invalid file, no base recorded (--three-way), 3 network or service error.\n\n"
      "Example:\n  ptmpl diff templates/website-launch.json\n  ptmpl diff --three-way templates/website-launch.json");
  return [o] {
    if (o->three_way) return diff_three_way(o->path, o->service);
    auto bytes = FileText::read(o->path);
    if (!bytes.ok()) {
      return report_error("diff", bytes.error());
    }
    auto local = publish::read_local_template(o->path, std::string(bytes.value().text()));
    if (!local.ok()) {
      return report_error("diff", local.error());
    }
    auto client = make_client(o->service);
    if (!client.ok()) {
      return report_error("diff", client.error());
    }
    auto remote = publish::find_remote(*client.value(), local.value());
    if (!remote.ok()) return report_error("diff", remote.error());
    if (!remote.value()) {
      std::cout << o->path << ": not on the service (no template of yours is titled \"" << local.value().title
                << "\"); push would create it\n";
      return int{kFindings};
    }
    const publish::RemoteTemplate& copy = *remote.value();
    std::string diff = publish::diff_template(local.value(), copy);
    if (diff.empty()) {
      std::cout << o->path << ": the same as template " << copy.id << " on the service\n";
      return int{kOk};
    }
    std::cout << diff;
    return int{kFindings};
  };
}

// ---------------------------------------------------------------------------------------------
// sandbox

std::function<int()> setup_sandbox(CLI::App& app) {
  struct Options {
    SandboxOptions sandbox;
    std::string listen = "127.0.0.1:0";
    std::string faults = "429,503,drop";
  };
  auto o = std::make_shared<Options>();
  app.add_option("--listen", o->listen, "address and port to serve on (port 0: any free port)")->capture_default_str();
  app.add_option("--data-dir", o->sandbox.data_dir, "directory of the stored templates (and the generated TLS files)")
      ->required();
  app.add_option("--tokens-file", o->sandbox.tokens_file, "accepted bearer tokens: one `token user_id` per line")
      ->required();
  app.add_flag("--http", o->sandbox.http, "serve plain HTTP instead of HTTPS (on a loopback address only)");
  app.add_option("--cert", o->sandbox.cert_file, "server certificate (PEM) to use instead of a generated one");
  app.add_option("--key", o->sandbox.key_file, "private key (PEM) of --cert");
  app.add_option("--ca", o->sandbox.ca_file, "CA certificate to print for clients with --cert (default: --cert)");
  app.add_option("--fail-rate", o->sandbox.fail_rate, "fraction of requests answered with an injected fault")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--faults", o->faults, "kinds of injected faults: 429, 503, drop, drop-after")->capture_default_str();
  app.add_option("--retry-after", o->sandbox.retry_after_seconds, "Retry-After seconds sent with an injected 429")
      ->capture_default_str()
      ->check(CLI::Range(0, 3600));
  app.add_option("--seed", o->sandbox.seed, "random seed of the injected faults")->capture_default_str();
  app.add_option("--hold-after", o->sandbox.hold_after,
                 "after this many templates are created or updated, hold every further request unanswered")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--oauth-clients", o->sandbox.oauth_clients_file,
                 "OAuth applications, one `client_id client_secret redirect_uri` per line (enables /oauth/…)");
  app.add_option("--oauth-user", o->sandbox.oauth_user_id, "user id who approves at /oauth/authorize")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--head-timeout", o->sandbox.head_timeout_seconds,
                 "seconds a request's TLS handshake, request line and headers may take as a whole")
      ->capture_default_str()
      ->check(CLI::Range(1, 3600));
  app.add_option("--max-connections-per-client", o->sandbox.max_connections_per_client,
                 "connections open at once from one client address; more are closed unread")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  app.footer(
      "Prints `listening on <base-url> ca=<CA certificate>` as its first line, then serves until SIGTERM.\n"
      "Exit codes: 0 stopped by SIGTERM or SIGINT, 2 usage error, cannot listen or bad data\n"
      "directory, 3 the server stopped with an error.\n\n"
      "Example:\n  echo 'sandbox-token 1' > tokens && chmod 600 tokens\n"
      "  ptmpl sandbox --listen 127.0.0.1:8443 --data-dir sandbox-data --tokens-file tokens");
  return [o] {
    auto colon = o->listen.rfind(':');
    auto port = colon == std::string::npos ? std::nullopt : std::optional<std::string>(o->listen.substr(colon + 1));
    int port_number = -1;
    try {
      if (port && !port->empty() && port->find_first_not_of("0123456789") == std::string::npos)
        port_number = std::stoi(*port);
    } catch (const std::exception&) {
      port_number = -1;
    }
    if (port_number < 0 || port_number > 65535) {
      std::cerr << "ptmpl sandbox: --listen: expected HOST:PORT, got '" << o->listen << "'\n";
      return int{kUsage};
    }
    std::string host = o->listen.substr(0, colon);
    if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    o->sandbox.host = host;
    o->sandbox.port = port_number;
    o->sandbox.faults.clear();
    std::stringstream kinds(o->faults);
    for (std::string kind; std::getline(kinds, kind, ',');)
      if (!kind.empty()) o->sandbox.faults.push_back(kind);

    // Every thread the server starts inherits this mask, so SIGTERM reaches only sigwait below.
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGTERM);
    sigaddset(&stop_signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

    auto sandbox = Sandbox::start(o->sandbox);
    if (!sandbox.ok()) {
      return report_error("sandbox", sandbox.error());
    }
    Sandbox& server = *sandbox.value();
    std::cout << "listening on " << server.base_url() << " ca=" << server.ca_path() << std::endl;
    bool served = true;
    std::thread serving([&] {
      served = server.serve();
      // Serving ended by itself: wake the sigwait below (a process-directed signal).
      if (!served) ::kill(::getpid(), SIGTERM);
    });
    int signal_number = 0;
    sigwait(&stop_signals, &signal_number);
    server.stop();
    serving.join();
    if (!served) {
      std::cerr << "ptmpl sandbox: the server stopped with an error\n";
      return int{kNetwork};
    }
    return int{kOk};
  };
}

}  // namespace ptmpl::cli
