// Deciding a push before anything is sent (plan_push), and which of the service's templates a
// document publishes to (find_remote), for push and diff alike.
#include <map>
#include <string_view>
#include <utility>

#include "libtemplate/core/file_io.hpp"
#include "libtemplate/publish/publish.hpp"

namespace ptmpl::publish {

ReadFiles read_files(const std::vector<std::string>& paths) {
  ReadFiles files;
  for (const std::string& path : paths) {
    auto bytes = FileText::read_text(path);
    if (!bytes.ok()) {
      files.unreadable.push_back(bytes.error());
      continue;
    }
    files.paths.push_back(path);
    files.texts.emplace_back(bytes.value().text());
  }
  return files;
}

LocalDocuments LocalDocuments::read(ReadFiles files) {
  LocalDocuments out;
  std::map<std::string, std::string> new_titles;  // title → file, for documents without an id
  for (std::size_t i = 0; i < files.paths.size(); ++i) {
    const std::string& path = files.paths[i];
    auto local = read_local_template(path, std::move(files.texts[i]));
    if (!local.ok()) {
      out.refused_.push_back(local.error());
      continue;
    }
    if (std::optional<std::int64_t> id = local.value().id) {
      std::vector<std::string>& holders = out.holders_[*id];
      holders.push_back(path);
      if (holders.size() > 1) {
        out.refused_.push_back(
            Error::conflict(path + " and " + holders.front() + " both hold template " + std::to_string(*id)));
        continue;
      }
    } else {
      auto [it, fresh] = new_titles.emplace(local.value().title, path);
      if (!fresh) {
        out.refused_.push_back(Error::conflict(path + " and " + it->second + " are both titled \"" + it->first +
                                               "\" and have no id: one template on the service cannot be both"));
        continue;
      }
    }
    out.documents_.push_back(std::move(local).value());
  }
  return out;
}

Result<std::optional<std::string>> LocalDocuments::file_of(std::int64_t id) const {
  auto it = holders_.find(id);
  if (it == holders_.end()) return std::optional<std::string>();
  if (it->second.size() == 1) return std::optional<std::string>(it->second.front());
  std::string files;
  for (std::size_t i = 0; i < it->second.size(); ++i)
    files += (i == 0 ? "" : i + 1 == it->second.size() ? " and " : ", ") + it->second[i];
  return Error::conflict(files + (it->second.size() == 2 ? " both" : " all") + " hold template " + std::to_string(id) +
                         ": keep the id in one of them only");
}

PushPlan plan_push(const std::vector<std::string>& paths, const LintSettings& lint_settings) {
  PushPlan plan;
  // Each file is read once: these bytes are linted, and these bytes are sent.
  ReadFiles files = read_files(paths);
  plan.refused = std::move(files.unreadable);
  std::vector<std::string_view> views(files.texts.begin(), files.texts.end());
  plan.lint = lint_texts(files.paths, views, lint_settings);
  LocalDocuments documents = LocalDocuments::read(std::move(files));
  plan.refused.insert(plan.refused.end(), documents.refused().begin(), documents.refused().end());
  plan.documents = std::move(documents.documents());
  return plan;
}

Result<std::optional<RemoteTemplate>> find_remote(Client& client, const LocalTemplate& local) {
  if (local.id) {
    auto found = client.get(*local.id, true);
    if (!found.ok()) {
      Error error = found.error();
      if (error.code == ErrorCode::kNotFound)
        error.message += " (deleted on the service? remove \"id\" and \"updated_at\" from the file to create it anew)";
      return error;
    }
    return std::optional<RemoteTemplate>(std::move(found).value());
  }
  auto matches = client.find_by_title(local.title);
  if (!matches.ok()) return matches.error();
  if (matches.value().empty()) return std::optional<RemoteTemplate>();
  if (matches.value().size() > 1) {
    std::string ids;
    for (const auto& t : matches.value()) ids += (ids.empty() ? "" : ", ") + std::to_string(t.id);
    return Error::conflict(std::to_string(matches.value().size()) + " of your templates are titled \"" + local.title +
                           "\" (ids " + ids + "): add the \"id\" of the one to update to the file");
  }
  auto found = client.get(matches.value().front().id, true);
  if (!found.ok()) return found.error();
  return std::optional<RemoteTemplate>(std::move(found).value());
}

}  // namespace ptmpl::publish
