// Reading the sandbox's requests: query parameters and JSON bodies into what the store is asked
// for, or the errors the API reference answers with. Pure functions (no store, no socket), so the
// server and the fuzz targets read requests the same way.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "sandbox/template_store.hpp"
#include "sandbox/workspace_store.hpp"

namespace ptmpl::sandbox {

/// Decoded query parameters, as cpp-httplib gives them (httplib::Params).
using Params = std::multimap<std::string, std::string>;

/// One entry of the API's error envelope `{"errors":[{"type","message","field"?}]}`.
struct FieldError {
  std::string type;
  std::string message;
  std::string field;  // empty: none
};

/// A request refused before the store is touched: its HTTP status and the envelope's errors.
struct RequestError {
  int status = 400;
  std::vector<FieldError> errors;
};

/// The page a list request asks for (API reference, "Common query parameters").
struct Paging {
  std::int64_t page = 1;
  std::int64_t per_page = 20;
  /// With both `limit` and `offset` given, they choose the slice (page and per_page are then
  /// derived from them).
  std::optional<std::int64_t> limit;
  std::optional<std::int64_t> offset;
  /// The index of the first match on the page, and how many the page holds at most.
  [[nodiscard]] std::pair<std::size_t, std::size_t> slice() const;
};

/// What `GET /project_templates.json` asks for.
struct ListRequest : Paging {
  TemplateQuery query;
  bool with_raw_json = false;
  bool include_users = false;
};

/// The first value of parameter `name`, or "" when it is absent.
[[nodiscard]] std::string param_value(const Params& params, const char* name);

/// A decimal integer that fits 64 bits, the whole of `text`; nullopt otherwise.
[[nodiscard]] std::optional<std::int64_t> parse_int(std::string_view text);

/// Whether `optional_fields` (comma-separated) names raw_json.
[[nodiscard]] bool wants_raw_json(const Params& params);

/// Reads the filters, order and paging of a list request. Fails with status 400 and one error
/// per bad parameter (`per_page must be an integer from 1 to 200`).
[[nodiscard]] std::variant<ListRequest, RequestError> read_list_request(const Params& params);

/// What `GET /workspaces.json` asks for.
struct WorkspaceListRequest : Paging {
  WorkspaceQuery query;
};

/// Whether the filter `include_archived` is given and true (a show route takes it too).
[[nodiscard]] bool wants_archived(const Params& params);

/// Reads the filters (include_archived, budgeted, matching, has_participant), only, order
/// (`updated_at`, the one field) and paging of a workspace list request. Fails with status 400
/// and one error per bad parameter.
[[nodiscard]] std::variant<WorkspaceListRequest, RequestError> read_workspace_list_request(const Params& params);

/// Reads the JSON body of a workspace create (`creating`) or update and applies its `workspace`
/// fields onto `w` (API reference, "Workspace create fields" and "Workspace update fields"; others
/// are ignored). `template_visible` says whether the caller may use a project template id. The
/// failures of apply_template_body, with `workspace` for `project_template`; a title, a
/// creator_role (create), a date that is not YYYY-MM-DD, a currency, price, access_level or
/// project_tracker_template_id the reference does not allow are 422, one error per field.
[[nodiscard]] std::optional<RequestError> apply_workspace_body(
    std::string_view body, StoredWorkspace& w, bool creating,
    const std::function<bool(std::int64_t template_id)>& template_visible);

/// Reads the JSON body of a create (`creating`) or update and applies its `project_template`
/// fields onto `t`. Fails with 422 when the body is not UTF-8 (the error names the field
/// holding the first bad byte, and where it is); 400 when it is not JSON (the parser's reason
/// and where: a number out of range, a lone surrogate escape, a syntax error) or not an
/// object; 422 when `project_template` is missing or a field is invalid (one error per field,
/// `t` then partly applied and not to be stored). Of duplicate keys the last is applied, as
/// the service does.
[[nodiscard]] std::optional<RequestError> apply_template_body(std::string_view body, StoredTemplate& t, bool creating);

}  // namespace ptmpl::sandbox
