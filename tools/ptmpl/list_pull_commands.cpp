// `ptmpl list` and `ptmpl pull`: the service's templates listed, and written into files.
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>

#include "commands.hpp"
#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/json_emitter.hpp"
#include "libtemplate/core/printable.hpp"
#include "libtemplate/core/writer.hpp"
#include "libtemplate/publish/publish.hpp"
#include "libtemplate/publish/pull.hpp"
#include "service_client.hpp"

namespace ptmpl::cli {

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
  app.add_option("--format", o->format, "table or json")->check(one_of({"table", "json"}))->capture_default_str();
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
    int exit = report_listing("list", notes);
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
      if (auto shown = write_result("-", out.finish()); !shown.ok()) return report_error("list", shown.error());
      return exit;
    }
    if (auto shown = write_for_person(publish::list_table(all.value())); !shown.ok())
      return report_error("list", shown.error());
    return exit;
  };
}

std::function<int()> setup_pull(CLI::App& app) {
  struct Options {
    ServiceOptions service;
    std::vector<std::string> ids;  // as given: each must spell a whole id (publish::template_id)
    publish::PullSelection selection;
    publish::PullOptions pull;
  };
  auto o = std::make_shared<Options>();
  add_service_options(app, o->service);
  app.add_option("ids", o->ids, "ids of the templates to pull");
  app.add_flag("--all", o->selection.all, "every template the token's user can see");
  app.add_flag("--mine", o->selection.mine, "every template made by the token's user");
  app.add_option("--title", o->selection.title, "the templates whose title is exactly this");
  app.add_option("-o,--output-dir", o->pull.output_dir, "directory to write <id>-<title>.json files into")
      ->capture_default_str();
  auto* force = app.add_flag("--force", o->pull.force,
                             "overwrite a file that holds something the service does not (edits not pushed yet), "
                             "saving it to FILE.bak first");
  app.add_flag("--merge", o->pull.merge,
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
    for (const std::string& text : o->ids) {
      std::optional<std::int64_t> id = publish::template_id(text);
      if (!id)
        return report_error("pull", Error::usage(publish::quoted_excerpt(text) +
                                                 " is not a template id: a whole number from 1 to 2^63-1, in "
                                                 "decimal digits alone"));
      o->selection.ids.push_back(*id);
    }
    if (auto checked = o->selection.check(); !checked.ok()) return report_error("pull", checked.error());
    auto client = make_client(o->service);
    if (!client.ok()) {
      return report_error("pull", client.error());
    }
    o->pull.base_dir = base_dir_of(*client.value());
    publish::PullOutcome pulled = publish::pull_templates(*client.value(), o->selection, o->pull);
    int exit = int{kOk};
    for (const Error& e : pulled.unavailable) exit = std::max(exit, report_error("pull", e));
    exit = std::max(exit, report_listing("pull", pulled.listing));
    if (pulled.stopped) return report_error("pull", *pulled.stopped);
    for (const publish::PulledTemplate& t : pulled.templates) {
      if (t.error) exit = std::max(exit, report_error("pull", *t.error));
      for (const std::string& note : t.notes) report_note("pull", note);
      if (t.conflicts) exit = std::max(exit, int{kFindings});
      if (t.written) std::cout << printable(t.path) << "\n";
    }
    return exit;
  };
}

}  // namespace ptmpl::cli
