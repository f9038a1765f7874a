// A workspace (project) made from a template: what `ptmpl apply` asks the service for
// (docs/commands/apply.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "libtemplate/publish/publish.hpp"

namespace ptmpl::publish {

/// The fields of `POST /workspaces.json` (API reference, "Workspace create fields") that apply sends.
struct NewWorkspace {
  std::string title;
  std::string creator_role = "maven";  ///< "maven" (the consultant role) or "buyer" (the client role)
  std::string start_date;              ///< YYYY-MM-DD
  /// project_tracker_template_id; nullopt when not known yet (a dry run of a template to create).
  std::optional<std::int64_t> template_id;
  /// The template's is_budgeted, budget (when budgeted) and currency, as compact JSON text;
  /// nullopt where the template does not set them.
  std::optional<std::string> budgeted;
  std::optional<std::string> price;
  std::optional<std::string> currency;
};

/// The workspace `local` makes from `start_date`: titled `title`, else as the template is;
/// `budgeted` is the template's is_budgeted, `price` its budget when it is budgeted (both in
/// major units of the currency: docs/semantics.md §5), `currency` its currency.
[[nodiscard]] NewWorkspace workspace_of(const LocalTemplate& local, std::string start_date,
                                        std::optional<std::string> title);

/// The request body `{"workspace": {…}}`, compact; project_tracker_template_id is null when the
/// id is not known yet.
[[nodiscard]] std::string workspace_body(const NewWorkspace& workspace);

}  // namespace ptmpl::publish
