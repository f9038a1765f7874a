// `ptmpl diff`: template documents against the service's copies, or three ways with their bases;
// each file in turn over one client, as text or as one JSON document.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "file_selection.hpp"
#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/json_emitter.hpp"
#include "libtemplate/publish/file_diff.hpp"
#include "service_client.hpp"

namespace ptmpl::cli {
namespace {

struct DiffOptions {
  ServiceOptions service;
  std::vector<std::string> paths;
  bool three_way = false;
  std::string format = "text";
};

/// Compares the files one after another, creating the client when the first file needs it, and
/// prints each file's section as it is done (text), or keeps its entry for the JSON at the end.
class DiffRun {
 public:
  explicit DiffRun(const DiffOptions& options) : options_(options), json_(options.format == "json") {
    out_.begin_object();
    out_.key("files");
    out_.begin_array();
  }

  /// Compares `path`; false when the run cannot go on (no client could be made: reported).
  bool compare(const std::string& path) {
    auto local = publish::read_template_document(path);
    if (!local.ok()) return failed(path, local.error());
    // Without an id there is no base: said before the service is looked for.
    if (options_.three_way) {
      if (auto has_base = publish::check_has_base(local.value()); !has_base.ok()) return failed(path, has_base.error());
    }
    if (!client_) {
      auto made = make_client(options_.service);
      if (!made.ok()) {
        exit_ = std::max(exit_, report_error("diff", made.error()));
        return false;
      }
      client_ = std::move(made).value();
    }
    return options_.three_way
               ? shown(path, publish::diff_three_way_with_service(*client_, local.value(), base_dir_of(*client_)))
               : shown(path, publish::diff_with_service(*client_, local.value()));
  }

  /// The worst exit code so far.
  [[nodiscard]] int exit_code() const { return exit_; }

  /// Writes the JSON document (--format json) and returns the exit code of the whole run: the
  /// worst of every file's.
  int finish() {
    if (!json_) return exit_;
    out_.end_array();
    out_.end_object();
    if (auto written = write_result("-", out_.finish()); !written.ok())
      exit_ = std::max(exit_, report_error("diff", written.error()));
    return exit_;
  }

 private:
  template <class Diff>
  bool shown(const std::string& path, const Result<Diff>& diff) {
    if (!diff.ok()) return failed(path, diff.error());
    exit_ = std::max(exit_, diff.value().differs() ? int{kFindings} : int{kOk});
    if (json_) {
      publish::write_diff_json(out_, diff.value());
    } else if (auto written = write_for_person(publish::diff_text(diff.value())); !written.ok()) {
      exit_ = std::max(exit_, report_error("diff", written.error()));
    }
    return true;
  }

  bool failed(const std::string& path, const Error& error) {
    exit_ = std::max(exit_, report_error("diff", error));
    if (json_) publish::write_diff_error_json(out_, path, error);
    return true;
  }

  const DiffOptions& options_;
  const bool json_;
  std::unique_ptr<publish::Client> client_;
  JsonEmitter out_;
  int exit_ = kOk;
};

}  // namespace

std::function<int()> setup_diff(CLI::App& app) {
  auto o = std::make_shared<DiffOptions>();
  add_service_options(app, o->service);
  app.add_option("paths", o->paths, "template documents, or directories searched for *.json as by ptmpl lint")
      ->required();
  app.add_flag("--three-way", o->three_way,
               "show what changed in the file and what changed on the service since the version last pulled or "
               "pushed (the base), and where they conflict");
  app.add_option("--format", o->format,
                 "text (the differences as people read them, long values shown around the change) or json "
                 "(every file, every change with both values whole)")
      ->check(one_of({"text", "json"}))
      ->capture_default_str();
  app.footer(
      "Compares each file with the template it was pulled from (its \"id\"), or with your template of the same\n"
      "title. Directories: *.json files below them, as ptmpl lint selects them; each file is compared in turn.\n"
      "Output: the differences, story by story, a section per file (text), or one JSON document (json).\n"
      "Exit codes: 0 the same (--three-way: neither side changed), 1 they differ, 2 usage error,\n"
      "unreadable or invalid file, no base recorded (--three-way), 3 network or service error; the worst\n"
      "file's for many.\n\n"
      "Example:\n  ptmpl diff templates/website-launch.json\n  ptmpl diff templates/ --format json\n"
      "  ptmpl diff --three-way templates/website-launch.json");
  return [o] {
    // Below a directory, the files lint would read (git's ignore rules, .ptmpl.json's exclude).
    auto selected = select_cli_files(o->paths, SelectionOptions{}, std::nullopt, true);
    if (!selected.ok()) return report_error("diff", selected.error());
    // What stood in the way of the walk is reported; the files found are compared all the same.
    int selection_status = kOk;
    for (const Error& problem : selected.value().problems)
      selection_status = std::max(selection_status, report_error("diff", problem));
    DiffRun run(*o);
    // Without a client no file can be compared: the JSON still lists the files that were.
    for (const SelectedFile& file : selected.value().files)
      if (!run.compare(file.path)) break;
    return std::max(selection_status, run.finish());
  };
}

}  // namespace ptmpl::cli
