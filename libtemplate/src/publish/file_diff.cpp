// `ptmpl diff`: a file against the service's copy, and three ways with the base; the text and
// the JSON of what they found.
#include "libtemplate/publish/file_diff.hpp"

#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/json.hpp"
#include "publish/change_text.hpp"
#include "publish/publish_support.hpp"

namespace ptmpl::publish {
namespace {

TemplateVersion version_of(const RemoteTemplate& copy) {
  return {copy.id, copy.title, copy.updated_at};
}

/// `template 3 "Office Move" (updated_at 2026-11-21T16:42:05.120Z)`
std::string version_text(const TemplateVersion& version) {
  return "template " + std::to_string(version.id) + " " + json::quoted(version.title) +
         (version.updated_at.empty() ? "" : " (updated_at " + version.updated_at + ")");
}

void write_version(JsonEmitter& out, JsonKey name, const TemplateVersion& version) {
  out.key(name);
  out.begin_object(JsonLayout::Line);
  out.member("id", version.id);
  out.member("title", version.title);
  out.key("updated_at");
  if (version.updated_at.empty())
    out.null();
  else
    out.string(version.updated_at);
  out.end_object();
}

/// An error met while comparing the file `path`, naming it (one diff compares many files).
Error of_file(const std::string& path, Error error) {
  error.message = path + ": " + error.message;
  return error;
}

}  // namespace

Result<LocalTemplate> read_template_document(const std::string& path) {
  auto bytes = FileText::read_text(path);
  if (!bytes.ok()) return bytes.error();
  return read_local_template(path, std::string(bytes.value().text()));
}

Result<FileDiff> diff_with_service(Client& client, const LocalTemplate& local) {
  auto remote = find_remote(client, local);
  if (!remote.ok()) return of_file(local.path, remote.error());
  FileDiff diff;
  diff.path = local.path;
  diff.title = local.title;
  if (remote.value()) {
    diff.service = version_of(*remote.value());
    diff.changes = compare_template(local, &*remote.value());
  }
  return diff;
}

std::string diff_template(const LocalTemplate& local, const RemoteTemplate& remote) {
  const FileDiff diff{local.path, local.title, version_of(remote), compare_template(local, &remote)};
  return diff.differs() ? diff_text(diff) : "";
}

Status check_has_base(const LocalTemplate& local) {
  if (local.id) return Done{};
  return Error::usage(local.path +
                      ": it has no \"id\": it was never pulled or pushed, so there is no base to compare with "
                      "(`ptmpl diff " +
                      local.path + "` compares it with the service's copy)");
}

Result<ThreeWayFileDiff> diff_three_way_with_service(Client& client, const LocalTemplate& local,
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
  if (!remote.ok()) return of_file(path, remote.error());
  auto theirs_text = template_document(remote.value());
  if (!theirs_text.ok()) return of_file(path, theirs_text.error());
  auto theirs = read_local_template("template " + id, std::move(theirs_text).value());
  if (!theirs.ok()) return of_file(path, theirs.error());
  auto changes = diff_three_way(base.value(), local, theirs.value());
  if (!changes.ok()) return of_file(path, changes.error());
  return ThreeWayFileDiff{path, local.title, TemplateVersion{*local.id, base.value().title, base.value().updated_at},
                          version_of(remote.value()), std::move(changes).value()};
}

std::string diff_text(const FileDiff& diff) {
  if (!diff.service)
    return diff.path + ": not on the service (no template of yours is titled " + json::quoted(diff.title) +
           "); push would create it\n";
  if (!diff.differs())
    return diff.path + ": the same as template " + std::to_string(diff.service->id) + " on the service\n";
  std::string out = "--- service: " + version_text(*diff.service) + "\n";
  out += "+++ local:   " + diff.path + "\n";
  detail::append_changes(out, diff.changes, "");
  return out;
}

std::string diff_text(const ThreeWayFileDiff& diff) {
  const ThreeWayDiff& d = diff.changes;
  std::string out = "--- base:    " + version_text(diff.base) + ", as last pulled or pushed on this machine\n";
  out += "+++ local:   " + diff.path + "\n";
  out += "+++ service: " + version_text(diff.service) + "\n";
  out += "local changes:" + std::string(d.local.empty() ? " none\n" : "\n");
  detail::append_changes(out, d.local, "  ");
  out += "service changes:" + std::string(d.remote.empty() ? " none\n" : "\n");
  detail::append_changes(out, d.remote, "  ");
  if (d.conflicts.empty()) {
    out += "conflicts: none";
    out += d.local.empty() || d.remote.empty() ? "\n" : " (`ptmpl pull --merge` merges them)\n";
  } else {
    out += "conflicts: " + std::to_string(d.conflicts.size()) +
           " (`ptmpl pull --merge` writes nothing until they are resolved)\n";
    out += conflict_lines(d.conflicts, "  ");
  }
  return out;
}

void write_diff_json(JsonEmitter& out, const FileDiff& diff) {
  out.begin_object();
  out.member("file", diff.path);
  out.member("title", diff.title);
  out.member("result", !diff.service ? "not on the service" : diff.differs() ? "different" : "same");
  if (!diff.service) {
    out.key("service");
    out.null();
  } else {
    write_version(out, "service", *diff.service);
    out.key("changes");
    detail::write_changes_json(out, diff.changes, {"service", "local"});
  }
  out.end_object();
}

void write_diff_json(JsonEmitter& out, const ThreeWayFileDiff& diff) {
  const ThreeWayDiff& d = diff.changes;
  out.begin_object();
  out.member("file", diff.path);
  out.member("title", diff.title);
  out.member("result", diff.differs() ? "different" : "same");
  write_version(out, "base", diff.base);
  write_version(out, "service", diff.service);
  out.key("local_changes");
  detail::write_changes_json(out, d.local, {"base", "local"});
  out.key("service_changes");
  detail::write_changes_json(out, d.remote, {"base", "service"});
  out.key("conflicts");
  out.begin_array();
  for (const MergeConflict& c : d.conflicts) {
    out.begin_object(JsonLayout::Line);
    out.key("story");
    detail::write_story_name(out, c.story);
    out.key("key");
    if (c.key.empty())
      out.null();
    else
      out.string(c.key);
    if (c.values) {
      for (auto [name, value] :
           {std::pair{JsonKey("base"), &c.values->base}, std::pair{JsonKey("local"), &c.values->local},
            std::pair{JsonKey("service"), &c.values->service}}) {
        if (!*value) continue;
        out.key(name);
        out.raw(**value);
      }
    } else {
      out.member("what", c.what);
    }
    out.end_object();
  }
  out.end_array();
  out.end_object();
}

void write_diff_error_json(JsonEmitter& out, const std::string& path, const Error& error) {
  out.begin_object();
  out.member("file", path);
  out.member("result", "error");
  out.member("error", error.message);
  out.end_object();
}

}  // namespace ptmpl::publish
