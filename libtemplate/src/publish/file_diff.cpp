// `ptmpl diff`: a file against the service's copy, and three ways with the base.
#include "libtemplate/publish/file_diff.hpp"

#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/json.hpp"
#include "publish/change_text.hpp"

namespace ptmpl::publish {

Result<LocalTemplate> read_template_document(const std::string& path) {
  auto bytes = FileText::read_text(path);
  if (!bytes.ok()) return bytes.error();
  return read_local_template(path, std::string(bytes.value().text()));
}

Result<DiffReport> diff_with_service(Client& client, const LocalTemplate& local) {
  auto remote = find_remote(client, local);
  if (!remote.ok()) return remote.error();
  if (!remote.value())
    return DiffReport{local.path + ": not on the service (no template of yours is titled \"" + local.title +
                          "\"); push would create it\n",
                      true};
  const RemoteTemplate& copy = *remote.value();
  std::string diff = diff_template(local, copy);
  if (diff.empty())
    return DiffReport{local.path + ": the same as template " + std::to_string(copy.id) + " on the service\n", false};
  return DiffReport{std::move(diff), true};
}

Status check_has_base(const LocalTemplate& local) {
  if (local.id) return Done{};
  return Error::usage(local.path +
                      ": it has no \"id\": it was never pulled or pushed, so there is no base to compare with "
                      "(`ptmpl diff " +
                      local.path + "` compares it with the service's copy)");
}

Result<DiffReport> diff_three_way_with_service(Client& client, const LocalTemplate& local,
                                               const std::string& base_dir) {
  if (auto has_base = check_has_base(local); !has_base.ok()) return has_base.error();
  const std::string& path = local.path;
  const std::string id = std::to_string(*local.id);
  auto base_text = base_dir.empty() ? Result<std::optional<std::string>>(std::optional<std::string>())
                                    : load_base(base_dir, *local.id);
  if (!base_text.ok()) return base_text.error();
  if (!base_text.value())
    return Error::usage(path + ": no base of template " + id +
                        " is recorded on this machine: pull it first (`ptmpl pull " + id +
                        " -o DIR`; each pull and push records the version it agreed on with the service)");
  auto base = read_local_template(base_dir + "/" + id + ".json", std::move(*base_text.value()));
  if (!base.ok()) return base.error();
  if (base.value().updated_at != local.updated_at)
    return Error::usage(path + ": the base recorded for template " + id + " is its version of " +
                        base.value().updated_at + ", but the file was pulled at " +
                        (local.updated_at.empty() ? std::string("no recorded version") : local.updated_at) +
                        ": there is no base for this file");
  auto remote = client.get(*local.id, true);
  if (!remote.ok()) return remote.error();
  auto theirs_text = template_document(remote.value());
  if (!theirs_text.ok()) return theirs_text.error();
  auto theirs = read_local_template("template " + id, std::move(theirs_text).value());
  if (!theirs.ok()) return theirs.error();
  auto diff = diff_three_way(base.value(), local, theirs.value());
  if (!diff.ok()) return diff.error();
  const ThreeWayDiff& d = diff.value();
  std::string out = "--- base:    template " + id + " " + json::quoted(base.value().title) + " (updated_at " +
                    base.value().updated_at + "), as last pulled or pushed on this machine\n";
  out += "+++ local:   " + path + "\n";
  out += "+++ service: template " + id + " " + json::quoted(remote.value().title) + " (updated_at " +
         remote.value().updated_at + ")\n";
  out += "local changes:" + std::string(d.local.empty() ? " none\n" : "\n");
  out += changes_text(d.local, "  ");
  out += "service changes:" + std::string(d.remote.empty() ? " none\n" : "\n");
  out += changes_text(d.remote, "  ");
  if (d.conflicts.empty()) {
    out += "conflicts: none";
    out += d.local.empty() || d.remote.empty() ? "\n" : " (`ptmpl pull --merge` merges them)\n";
  } else {
    out += "conflicts: " + std::to_string(d.conflicts.size()) +
           " (`ptmpl pull --merge` writes nothing until they are resolved)\n";
    out += conflict_lines(d.conflicts, "  ");
  }
  return DiffReport{std::move(out), !d.local.empty() || !d.remote.empty()};
}

}  // namespace ptmpl::publish
