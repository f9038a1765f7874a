// `ptmpl pull` writing a template document over a file that may hold edits not pushed yet.
#include <sys/stat.h>

#include <filesystem>

#include "libtemplate/core/file_io.hpp"
#include "libtemplate/publish/publish.hpp"

namespace ptmpl::publish {

Result<PulledFile> write_pulled(const std::string& path, const RemoteTemplate& remote, bool force) {
  auto document = template_document(remote);
  if (!document.ok()) return document.error();
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    // A new file, or a device / FIFO written in place (write_output's rules).
    if (auto written = write_output(path, document.value()); !written.ok()) return written.error();
    return PulledFile{};
  }
  auto existing = FileText::read(path);
  if (!existing.ok()) return existing.error();
  std::string before(existing.value().text());
  document.value() = with_file_own_keys(document.value(), before);
  if (before == document.value()) return PulledFile{true, ""};
  PulledFile pulled;
  auto local = read_local_template(path, before);
  bool nothing_lost = local.ok() && same_content(local.value(), remote);
  if (!nothing_lost) {
    if (!force) {
      std::string why = !local.ok() ? "it is not a template document ptmpl can compare"
                        : (local.value().updated_at.empty() || local.value().updated_at == remote.updated_at)
                            ? "it holds edits not pushed to template " + std::to_string(remote.id)
                            : "it differs from template " + std::to_string(remote.id) +
                                  ", which changed on the service since (" + local.value().updated_at + " → " +
                                  remote.updated_at + "), so it may hold edits not pushed yet";
      return Error::conflict(path + ": " + why + "; not overwritten (`ptmpl diff " + path +
                             "` shows how they differ; push it first, pull with --merge to merge the service's changes "
                             "into it, or pull with --force, which saves the file to " +
                             path + ".bak first)");
    }
    std::string backup = path + ".bak";
    for (int n = 1; std::filesystem::exists(backup); ++n) backup = path + ".bak." + std::to_string(n);
    if (auto saved = write_file_atomic(backup, before); !saved.ok())
      return Error::output_failed(path + ": not overwritten: cannot save it first: " + saved.error().message);
    pulled.backup = backup;
  }
  if (auto written = rewrite_file(path, before, document.value()); !written.ok()) return written.error();
  return pulled;
}

Result<MergedFile> merge_pulled(const std::string& path, const RemoteTemplate& remote, const std::string& base_dir) {
  struct stat st {};
  auto replaced = [&]() -> Result<MergedFile> {
    auto pulled = write_pulled(path, remote, false);
    if (!pulled.ok()) return pulled.error();
    return MergedFile{};
  };
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return replaced();
  auto existing = FileText::read(path);
  if (!existing.ok()) return existing.error();
  const std::string before(existing.value().text());
  auto local = read_local_template(path, before);
  if (!local.ok()) return Error::invalid(local.error().message + "; cannot merge into it");
  if (same_content(local.value(), remote)) return replaced();

  const std::string id = std::to_string(remote.id);
  const std::string no_base = path + ": cannot merge: ";
  const std::string by_hand =
      " (`ptmpl diff " + path + "` shows how it differs from the service's copy; merge by hand, or pull with --force)";
  if (base_dir.empty()) return Error::conflict(no_base + "no place for bases: set HOME or XDG_STATE_HOME" + by_hand);
  auto base = load_base(base_dir, remote.id);
  if (!base.ok()) return Error::conflict(no_base + "its base: " + base.error().message + by_hand);
  if (!base.value())
    return Error::conflict(no_base + "no base of template " + id +
                           " is recorded on this machine (each pull and push records the version it agreed on with "
                           "the service)" +
                           by_hand);
  auto base_local = read_local_template(base_dir + "/" + id + ".json", *base.value());
  if (!base_local.ok()) return Error::conflict(no_base + base_local.error().message + by_hand);
  MergedFile out;
  out.base_updated_at = base_local.value().updated_at;
  if (local.value().updated_at != out.base_updated_at)
    return Error::conflict(
        no_base + "the base recorded for template " + id + " is its version of " + out.base_updated_at +
        ", but the file was pulled at " +
        (local.value().updated_at.empty() ? std::string("no recorded version") : local.value().updated_at) + by_hand);
  if (remote.updated_at == out.base_updated_at) {
    out.outcome = MergedFile::Outcome::Kept;
    return out;
  }
  auto theirs = template_document(remote);
  if (!theirs.ok()) return theirs.error();
  auto merged = merge_templates(*base.value(), before, theirs.value());
  if (!merged.ok()) return Error::invalid(path + ": cannot merge: " + merged.error().message);
  if (!merged.value().conflicts.empty()) {
    out.outcome = MergedFile::Outcome::Conflicts;
    out.conflicts = std::move(merged.value().conflicts);
    return out;
  }
  if (auto written = rewrite_file(path, before, merged.value().document); !written.ok()) return written.error();
  out.outcome = MergedFile::Outcome::Merged;
  return out;
}

}  // namespace ptmpl::publish
