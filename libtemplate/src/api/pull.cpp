// `ptmpl pull` writing a template document over a file that may hold edits not pushed yet.
#include <sys/stat.h>

#include <filesystem>

#include "libtemplate/file_io.hpp"
#include "libtemplate/publish.hpp"

namespace ptmpl::api {

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
                             "` shows how they differ; push it first, or pull with --force, which saves the file "
                             "to " +
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

}  // namespace ptmpl::api
