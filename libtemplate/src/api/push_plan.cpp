// Deciding a push before anything is sent (plan_push), and which of the service's templates a
// document publishes to (find_remote), for push and diff alike.
#include <map>
#include <string_view>
#include <utility>

#include "libtemplate/file_io.hpp"
#include "libtemplate/publish.hpp"

namespace ptmpl::api {

PushPlan plan_push(const std::vector<std::string>& paths, const LintSettings& lint_settings) {
  PushPlan plan;
  // Each file is read once: these bytes are linted, and these bytes are sent.
  std::vector<std::string> read_paths;
  std::vector<std::string> texts;
  for (const std::string& path : paths) {
    auto bytes = FileText::read(path);
    if (!bytes.ok()) {
      plan.refused.push_back(bytes.error());
      continue;
    }
    read_paths.push_back(path);
    texts.emplace_back(bytes.value().text());
  }
  std::vector<std::string_view> views(texts.begin(), texts.end());
  plan.lint = lint_texts(read_paths, views, lint_settings);

  std::map<std::string, std::string> new_titles;  // title → file, for documents without an id
  std::map<std::int64_t, std::string> ids;        // id → file
  for (std::size_t i = 0; i < read_paths.size(); ++i) {
    const std::string& path = read_paths[i];
    auto local = read_local_template(path, std::move(texts[i]));
    if (!local.ok()) {
      plan.refused.push_back(local.error());
      continue;
    }
    if (local.value().id) {
      auto [it, fresh] = ids.emplace(*local.value().id, path);
      if (!fresh) {
        plan.refused.push_back(
            Error::conflict(path + " and " + it->second + " both hold template " + std::to_string(it->first)));
        continue;
      }
    } else {
      auto [it, fresh] = new_titles.emplace(local.value().title, path);
      if (!fresh) {
        plan.refused.push_back(Error::conflict(path + " and " + it->second + " are both titled \"" + it->first +
                                               "\" and have no id: one template on the service cannot be both"));
        continue;
      }
    }
    plan.documents.push_back(std::move(local).value());
  }
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

}  // namespace ptmpl::api
