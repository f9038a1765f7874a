// `ptmpl diff`: a template document against the service's copy, or three ways with its base.
#include <memory>
#include <string>

#include "commands.hpp"
#include "libtemplate/core/file_io.hpp"
#include "libtemplate/publish/file_diff.hpp"
#include "service_client.hpp"

namespace ptmpl::cli {

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
    auto local = publish::read_template_document(o->path);
    if (!local.ok()) return report_error("diff", local.error());
    // Without an id there is no base: said before the service is looked for.
    if (o->three_way) {
      if (auto has_base = publish::check_has_base(local.value()); !has_base.ok())
        return report_error("diff", has_base.error());
    }
    auto client = make_client(o->service);
    if (!client.ok()) return report_error("diff", client.error());
    auto diff = o->three_way
                    ? publish::diff_three_way_with_service(*client.value(), local.value(), base_dir_of(*client.value()))
                    : publish::diff_with_service(*client.value(), local.value());
    if (!diff.ok()) return report_error("diff", diff.error());
    if (auto shown = write_for_person(diff.value().text); !shown.ok()) return report_error("diff", shown.error());
    return diff.value().differs ? int{kFindings} : int{kOk};
  };
}

}  // namespace ptmpl::cli
