// The base of a template: the version the last pull or push agreed on with the service, kept
// by ptmpl so that `diff --three-way` and `pull --merge` can tell whose edit is whose.
#include <filesystem>

#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/hash.hpp"
#include "libtemplate/core/writer.hpp"
#include "libtemplate/publish/publish.hpp"
#include "publish/publish_support.hpp"

namespace ptmpl::publish {
namespace {

std::string base_path(const std::string& dir, std::int64_t id) {
  return (std::filesystem::path(dir) / (std::to_string(id) + ".json")).string();
}

/// `local` as the service would hold it: the fields of its project_template (the last of each
/// key) and its story list.
RemoteTemplate as_remote(const LocalTemplate& local) {
  RemoteTemplate out;
  out.id = local.id.value_or(0);
  out.title = local.title;
  out.updated_at = local.updated_at;
  out.raw_json = local.stories;
  json::Document doc = json::Document::parse(local.text);
  const json::Value* pt = doc.ok() && doc.root().is_object() ? doc.root().find("project_template") : nullptr;
  out.json = pt != nullptr ? write_compact(json::last_of_each_key(*pt, doc.arena()), Shape::Unknown) : "{}";
  return out;
}

}  // namespace

std::string state_dir(std::optional<std::string_view> xdg_state_home, std::optional<std::string_view> home) {
  // XDG: a relative value is to be ignored.
  if (xdg_state_home && !xdg_state_home->empty() && xdg_state_home->front() == '/')
    return (std::filesystem::path(*xdg_state_home) / "ptmpl").string();
  if (home && !home->empty()) return (std::filesystem::path(*home) / ".local" / "state" / "ptmpl").string();
  return "";
}

namespace {

// `state_dir()/KIND/<hash of the address>`: what is kept per service address.
std::string per_service_dir(std::optional<std::string_view> xdg_state_home, std::optional<std::string_view> home,
                            std::string_view kind, const std::string& base_url) {
  const std::string state = state_dir(xdg_state_home, home);
  if (state.empty()) return state;
  return (std::filesystem::path(state) / kind / hash_hex(fnv1a(detail::address_key(base_url)))).string();
}

}  // namespace

std::string base_store_dir(std::optional<std::string_view> xdg_state_home, std::optional<std::string_view> home,
                           const std::string& base_url) {
  return per_service_dir(xdg_state_home, home, "bases", base_url);
}

std::string backup_store_dir(std::optional<std::string_view> xdg_state_home, std::optional<std::string_view> home,
                             const std::string& base_url) {
  return per_service_dir(xdg_state_home, home, "backups", base_url);
}

Status record_base(const std::string& dir, const RemoteTemplate& remote) {
  auto document = template_document(remote);
  if (!document.ok()) return document.error();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Error::output_failed(dir + ": cannot create the directory of bases: " + ec.message());
  // Most pushes and pulls agree on what the base already holds: it is then left as it is (a
  // push of 1,000 unchanged templates flushed 2,000 times to disk before).
  return write_file_atomic_if_changed(base_path(dir, remote.id), document.value());
}

Result<std::optional<std::string>> load_base(const std::string& dir, std::int64_t id) {
  const std::string path = base_path(dir, id);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::optional<std::string>();
  auto bytes = FileText::read_text(path);
  if (!bytes.ok()) return bytes.error();
  return std::optional<std::string>(std::string(bytes.value().text()));
}

RemoteTemplate pushed_version(const LocalTemplate& local, RemoteTemplate answer) {
  if (!answer.raw_json && local.stories) answer.raw_json = local.stories;
  return answer;
}

Result<ThreeWayDiff> diff_three_way(const LocalTemplate& base, const LocalTemplate& local,
                                    const LocalTemplate& remote) {
  ThreeWayDiff out;
  const RemoteTemplate base_copy = as_remote(base);
  out.local = compare_template(local, &base_copy);
  out.remote = compare_template(remote, &base_copy);
  auto merged = merge_templates(base.text, local.text, remote.text);
  if (!merged.ok()) return merged.error();
  out.conflicts = std::move(merged.value().conflicts);
  return out;
}

}  // namespace ptmpl::publish
