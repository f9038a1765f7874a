// `ptmpl pull`: fetching the templates asked for and writing each over the file that holds
// it, which may hold edits not pushed yet.
#include "libtemplate/publish/pull.hpp"

#include <sys/stat.h>
#include <algorithm>

#include <filesystem>
#include <system_error>

#include "libtemplate/core/file_io.hpp"
#include "libtemplate/publish/publish.hpp"
#include "publish/change_text.hpp"

namespace ptmpl::publish {
namespace {

/// The templates `selection` names, fetched with raw_json; fills `out`'s `unavailable`,
/// `listing` and `stopped`.
std::vector<RemoteTemplate> fetch(Client& client, const PullSelection& selection, PullOutcome& out) {
  std::vector<RemoteTemplate> templates;
  if (!selection.ids.empty()) {
    for (auto id : selection.ids) {
      auto t = client.get(id, true);
      if (!t.ok()) {
        // A template the client cannot use, or one not there, does not stop the others.
        if (t.error().code == ErrorCode::kNetwork || t.error().code == ErrorCode::kInsecure) {
          out.stopped = t.error();
          return {};
        }
        out.unavailable.push_back(t.error());
        continue;
      }
      templates.push_back(std::move(t).value());
    }
    return templates;
  }
  ListQuery query;
  query.mine = selection.mine;
  query.by_title = selection.title;
  query.with_raw_json = true;
  auto all = client.list_all(query, &out.listing);
  if (!all.ok()) {
    out.listing = {};  // a listing that failed says nothing of its pages
    out.stopped = all.error();
    return {};
  }
  for (auto& t : all.value())
    if (selection.title.empty() || t.title == selection.title) templates.push_back(std::move(t));
  if (!selection.title.empty() && templates.empty())
    out.stopped = Error::not_found("no template is titled \"" + selection.title + "\"");
  return templates;
}

/// What pull --merge tells of a merge done (nothing when the file was replaced), or the
/// conflicts it met.
std::optional<std::string> merge_note(const std::string& path, const RemoteTemplate& remote, const MergedFile& merged) {
  const std::string id = std::to_string(remote.id);
  switch (merged.outcome) {
    case MergedFile::Outcome::Conflicts:
      return path + ": " + std::to_string(merged.conflicts.size()) +
             (merged.conflicts.size() == 1 ? " conflict" : " conflicts") +
             " between the file's edits and the changes to template " + id + " on the service since " +
             merged.base_updated_at + " (now " + remote.updated_at + "); nothing written:\n" +
             conflict_lines(merged.conflicts, "  ") + "  (`ptmpl diff --three-way " + path +
             "` shows both sides' changes; resolve them in the file or on the service, then pull --merge again)";
    case MergedFile::Outcome::Kept:
      return path + ": template " + id + " has not changed on the service since " + merged.base_updated_at +
             "; the file's edits are kept as they are";
    case MergedFile::Outcome::Merged:
      return path + ": merged the changes to template " + id + " on the service (" + merged.base_updated_at + " → " +
             remote.updated_at + ") with the file's edits";
    case MergedFile::Outcome::Replaced:
      break;
  }
  return std::nullopt;
}

/// Writes (or merges) `remote` into `path` as `options` ask, then records its base.
void pull_into(const std::string& path, const RemoteTemplate& remote, const PullOptions& options, PulledTemplate& out) {
  if (options.merge) {
    auto merged = merge_pulled(path, remote, options.base_dir);
    if (!merged.ok()) {
      out.error = merged.error();
      return;
    }
    if (auto note = merge_note(path, remote, merged.value())) out.notes.push_back(std::move(*note));
    if (merged.value().outcome == MergedFile::Outcome::Conflicts) {
      out.conflicts = true;
      return;
    }
  } else {
    auto pulled = write_pulled(path, remote, options.force);
    if (!pulled.ok()) {
      out.error = pulled.error();
      return;
    }
    if (!pulled.value().backup.empty())
      out.notes.push_back(path + ": its previous bytes saved as " + pulled.value().backup);
  }
  out.written = true;
  // What was written is the version the file and the service now agree on: its base.
  if (options.base_dir.empty()) return;
  if (auto kept = record_base(options.base_dir, remote); !kept.ok())
    out.notes.push_back(path + ": warning: cannot record the base of template " + std::to_string(remote.id) +
                        " (`pull --merge` needs it): " + kept.error().message);
}

}  // namespace

Status PullSelection::check() const {
  int given = (ids.empty() ? 0 : 1) + (all ? 1 : 0) + (mine ? 1 : 0) + (title.empty() ? 0 : 1);
  if (given != 1) return Error::usage("name what to pull: ids, --all, --mine or --title (one of them)");
  return Done{};
}

PullOutcome pull_templates(Client& client, const PullSelection& selection, const PullOptions& options) {
  PullOutcome out;
  if (auto checked = selection.check(); !checked.ok()) {
    out.stopped = checked.error();
    return out;
  }
  std::vector<RemoteTemplate> templates = fetch(client, selection, out);
  if (out.stopped) return out;
  std::error_code ec;
  std::filesystem::create_directories(options.output_dir, ec);
  if (ec) {
    out.stopped = Error::output_failed(options.output_dir + ": cannot create the directory: " + ec.message());
    return out;
  }
  // A template some file under the directory already holds goes into that file, found as push
  // finds it (a file that cannot be read or is not a template document holds none).
  auto below = expand_paths({options.output_dir});
  if (!below.ok()) {
    out.stopped = below.error();
    return out;
  }
  LocalDocuments present = LocalDocuments::read(read_files(below.value()));
  // Each template on its own: one that cannot be written does not stop the others.
  for (const RemoteTemplate& t : templates) {
    PulledTemplate& pulled = out.templates.emplace_back();
    pulled.id = t.id;
    auto holder = present.file_of(t.id);
    if (!holder.ok()) {
      pulled.error = Error{holder.error().code, holder.error().message + "; not pulled"};
      continue;
    }
    pulled.path =
        holder.value().value_or((std::filesystem::path(options.output_dir) / pulled_file_name(t.id, t.title)).string());
    pull_into(pulled.path, t, options, pulled);
  }
  return out;
}

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
  auto local = read_local_template(path, before);
  bool nothing_lost = local.ok() && same_content(local.value(), remote);
  // The file already holds this version of the template — its stories, its title and every
  // field it writes, its id and updated_at: it is left byte for byte as its author wrote it
  // (number spellings, the keys written and not the service's defaults). A file whose stories
  // or title were taken out is written again.
  auto holds_title = [&] {
    return std::any_of(local.value().fields.begin(), local.value().fields.end(),
                       [](const auto& field) { return field.first == "title"; });
  };
  if (nothing_lost && local.value().stories && holds_title() && local.value().id == remote.id &&
      local.value().updated_at == remote.updated_at)
    return PulledFile{true, ""};
  document.value() = with_file_own_keys(document.value(), before);
  if (before == document.value()) return PulledFile{true, ""};
  PulledFile pulled;
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
