#include "sandbox/request.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "libtemplate/core/dates.hpp"
#include "libtemplate/core/json.hpp"

namespace ptmpl::sandbox {
namespace {

constexpr std::int64_t kMaxPerPage = 200;  // API reference, Limits

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');)
    if (!part.empty()) parts.push_back(part);
  return parts;
}

bool truthy(const std::string& v) {
  return v == "true" || v == "1" || v == "yes";
}

bool has_param(const Params& params, const char* name) {
  return params.find(name) != params.end();
}

/// A three-letter ISO 4217 code.
bool valid_currency(std::string_view c) {
  return c.size() == 3 && std::all_of(c.begin(), c.end(), [](char ch) { return ch >= 'A' && ch <= 'Z'; });
}

/// Applies the `project_template` fields of a create or update body onto `t`. Of duplicate
/// keys, the last is the one applied, as the service does.
std::vector<FieldError> apply_fields(const json::Value& body, StoredTemplate& t, bool creating) {
  std::vector<FieldError> errors;
  auto invalid = [&](const char* field, std::string message) {
    errors.push_back({"validation", std::move(message), field});
  };
  if (const json::Value* v = body.find("title")) {
    if (!v->is_string()) {
      invalid("title", "title must be a string");
    } else if (v->text().find_first_not_of(" \t\r\n") == std::string_view::npos) {
      invalid("title", "title can't be blank");
    } else {
      t.title = v->text();
    }
  } else if (creating) {
    invalid("title", "title can't be blank");
  }
  if (const json::Value* v = body.find("description")) {
    if (v->is_string())
      t.description = v->text();
    else if (v->is_null())
      t.description.clear();
    else
      invalid("description", "description must be a string");
  }
  if (const json::Value* v = body.find("raw_json")) {
    auto holds_json = [](std::string_view text) {
      json::Document stories = json::Document::parse(text);
      return stories.ok() && (stories.root().is_array() || stories.root().is_object());
    };
    if (!v->is_string())
      invalid("raw_json", "raw_json must be a string holding JSON text");
    else if (!holds_json(v->text()))
      invalid("raw_json", "raw_json is not valid JSON (an array of stories)");
    else
      t.raw_json = v->text();
  }
  for (const char* key : {"shared", "is_budgeted"}) {
    if (const json::Value* v = body.find(key)) {
      if (std::optional<bool> b = v->as_bool())
        (std::string_view(key) == "shared" ? t.shared : t.is_budgeted) = *b;
      else
        invalid(key, std::string(key) + " must be true or false");
    }
  }
  if (const json::Value* v = body.find("budget")) {
    std::optional<double> budget = v->as_double();
    if (v->is_null())
      t.budget.reset();
    else if (budget && std::isfinite(*budget) && *budget >= 0)
      t.budget = *budget;
    else
      invalid("budget", "budget must be a non-negative number");
  }
  if (const json::Value* v = body.find("currency")) {
    std::string_view c = v->is_string() ? v->text() : "";
    if (valid_currency(c))
      t.currency = std::string(c);
    else
      invalid("currency", "currency must be a three-letter ISO 4217 code");
  }
  if (const json::Value* v = body.find("duration")) {
    std::optional<std::int64_t> days = v->as_int64();
    if (v->is_null())
      t.duration.reset();
    else if (days && *days >= 0)
      t.duration = *days;
    else
      invalid("duration", "duration must be a non-negative integer (days)");
  }
  return errors;
}

/// "line L, column C" of `offset`.
std::string where(const json::LineIndex& lines, std::uint64_t offset) {
  json::Position at = lines.position(offset);
  return "line " + std::to_string(at.line) + ", column " + std::to_string(at.column);
}

/// The member of the body's object `key` whose value holds byte `offset`, or "". Read from a
/// copy of `body` with every byte that is not UTF-8 replaced by '?', so offsets stay.
std::string field_holding(std::string_view body, std::uint64_t offset, std::string_view key) {
  std::string readable(body);
  for (std::size_t from = 0; from < readable.size();) {
    auto bad = json::invalid_utf8_offset(std::string_view(readable).substr(from));
    if (!bad) break;
    readable[from + *bad] = '?';
    from += *bad + 1;
  }
  json::Document doc = json::Document::parse(readable);
  const json::Value* fields = doc.ok() ? doc.root().find(key) : nullptr;
  if (fields == nullptr || !fields->is_object()) return "";
  for (const json::Member& m : fields->members()) {
    auto end = json::value_end(readable, m.value);
    if (m.value.offset() <= offset && end && offset < *end) return std::string(m.key.text());
  }
  return "";
}

/// A body that is not UTF-8 is refused as the service refuses an invalid field: 422, with
/// the field that holds the first bad byte when it is one of the object `key`'s.
std::optional<RequestError> refuse_unless_utf8(std::string_view body, std::string_view key) {
  auto bad = json::invalid_utf8_offset(body);
  if (!bad) return std::nullopt;
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(body[*bad]));
  std::string field = field_holding(body, *bad, key);
  return RequestError{422,
                      {{"validation",
                        (field.empty() ? "the request body" : field) + " is not valid UTF-8: byte " + hex + " at " +
                            where(json::LineIndex(body), *bad) + " does not start a valid sequence",
                        field}}};
}

/// The object `key` of a create or update body, parsed into `doc`; or why the body is refused
/// (apply_template_body).
std::variant<const json::Value*, RequestError> body_object(std::string_view body, std::string_view key,
                                                           json::Document& doc) {
  if (auto refused = refuse_unless_utf8(body, key)) return *refused;
  doc = json::Document::parse(body);
  if (!doc.ok()) {
    const json::ParseIssue& issue = doc.issues().front();
    return RequestError{
        400,
        {{"validation",
          "the request body is not valid JSON: " + issue.message + " (" + where(doc.lines(), issue.offset) + ")", ""}}};
  }
  if (!doc.root().is_object())
    return RequestError{
        400,
        {{"validation", "the request body must be a JSON object, found " + std::string(json::kind_name(doc.root())),
          ""}}};
  const json::Value* fields = doc.root().find(key);
  if (fields == nullptr || !fields->is_object())
    return RequestError{422, {{"validation", std::string(key) + " is missing or not an object", std::string(key)}}};
  return fields;
}

/// Reads page, per_page, limit and offset into `paging`; a bad one adds its error.
void read_paging(const Params& params, Paging& paging, std::vector<FieldError>& errors) {
  auto number = [&](const char* name, std::int64_t fallback, std::int64_t min, std::int64_t max) -> std::int64_t {
    if (!has_param(params, name)) return fallback;
    const std::string text = param_value(params, name);
    auto v = parse_int(text);
    std::string why;
    if (!v && !text.empty() && text.find_first_not_of("0123456789") == std::string::npos)
      why = " is " + text + ", beyond the largest the service takes (" + std::to_string(max) + ")";
    else if (!v)
      why = " must be an integer, found \"" + text + "\"";
    else if (*v < min)
      why = " is " + std::to_string(*v) + "; it must be at least " + std::to_string(min);
    else if (*v > max)
      why = " is " + std::to_string(*v) + ", beyond the largest the service takes (" + std::to_string(max) + ")";
    if (!why.empty()) {
      errors.push_back({"validation", std::string(name) + why, name});
      return fallback;
    }
    return *v;
  };
  paging.page = number("page", 1, 1, INT32_MAX);
  paging.per_page = number("per_page", 20, 1, kMaxPerPage);
  std::int64_t limit = number("limit", 0, 1, INT32_MAX);
  std::int64_t offset = number("offset", 0, 0, INT32_MAX);
  if (errors.empty() && has_param(params, "limit") && has_param(params, "offset")) {
    // page and per_page are then ignored
    paging.limit = limit;
    paging.offset = offset;
    paging.per_page = limit;
    paging.page = offset / limit + 1;
  }
}

/// Reads `only` (comma-separated ids) into `only`; a bad id adds its error.
void read_only(const Params& params, std::optional<std::vector<std::int64_t>>& only, std::vector<FieldError>& errors) {
  if (!has_param(params, "only")) return;
  only.emplace();
  for (const auto& part : split_commas(param_value(params, "only"))) {
    if (auto id = parse_int(part))
      only->push_back(*id);
    else
      errors.push_back({"validation", "only must be comma-separated ids, not '" + part + "'", "only"});
  }
}

/// A date field of a workspace: YYYY-MM-DD, a real date; null or "" clears it.
void read_date(const json::Value& fields, const char* key, std::string& into, std::vector<FieldError>& errors) {
  const json::Value* v = fields.find(key);
  if (v == nullptr) return;
  if (v->is_null() || (v->is_string() && v->text().empty())) {
    into.clear();
  } else if (v->is_string() && v->text().size() == 10 && parse_date(v->text())) {
    into = std::string(v->text());
  } else {
    errors.push_back({"validation", std::string(key) + " must be a date, YYYY-MM-DD", key});
  }
}

/// Applies the `workspace` fields of a create or update body onto `w` (API reference).
std::vector<FieldError> apply_workspace_fields(const json::Value& fields, StoredWorkspace& w, bool creating,
                                               const std::function<bool(std::int64_t)>& template_visible) {
  std::vector<FieldError> errors;
  auto invalid = [&](const char* field, std::string message) {
    errors.push_back({"validation", std::move(message), field});
  };
  if (const json::Value* v = fields.find("title")) {
    if (!v->is_string())
      invalid("title", "title must be a string");
    else if (v->text().find_first_not_of(" \t\r\n") == std::string_view::npos)
      invalid("title", "title can't be blank");
    else
      w.title = v->text();
  } else if (creating) {
    invalid("title", "title can't be blank");
  }
  if (creating) {
    const json::Value* role = fields.find("creator_role");
    if (role != nullptr && role->is_string() && (role->text() == "maven" || role->text() == "buyer"))
      w.creator_role = role->text();
    else
      invalid("creator_role", "creator_role must be maven (the consultant role) or buyer (the client role)");
  }
  if (const json::Value* v = fields.find("description")) {
    if (v->is_string())
      w.description = v->text();
    else if (v->is_null())
      w.description.clear();
    else
      invalid("description", "description must be a string");
  }
  for (const char* key : {"budgeted", "archived"}) {
    const json::Value* v = fields.find(key);
    if (v == nullptr || (creating && std::string_view(key) == "archived")) continue;  // archived: an update field
    if (std::optional<bool> b = v->as_bool())
      (std::string_view(key) == "budgeted" ? w.budgeted : w.archived) = *b;
    else
      invalid(key, std::string(key) + " must be true or false");
  }
  if (const json::Value* v = fields.find("currency")) {
    if (v->is_string() && valid_currency(v->text()))
      w.currency = std::string(v->text());
    else
      invalid("currency", "currency must be a three-letter ISO 4217 code");
  }
  // API reference: price is the starting budget in the base currency on create, the budget in
  // cents on update.
  if (const json::Value* v = fields.find("price")) {
    std::optional<double> price = v->as_double();
    constexpr double kMostCents = 9.0e15;  // exact in a double
    if (v->is_null()) {
      w.price_in_cents.reset();
    } else if (price && std::isfinite(*price) && *price >= 0 && *price * (creating ? 100 : 1) <= kMostCents &&
               (creating || v->as_int64())) {
      w.price_in_cents = std::llround(*price * (creating ? 100 : 1));
    } else {
      invalid("price", creating ? "price must be a non-negative amount in the workspace's currency"
                                : "price must be a non-negative whole number of cents");
    }
  }
  read_date(fields, "start_date", w.start_date, errors);
  read_date(fields, "due_date", w.due_date, errors);
  if (const json::Value* v = fields.find("access_level")) {
    std::string_view level = v->is_string() ? v->text() : "";
    if (level == "invitation" || level == "open" || level == "admins")
      w.access_level = std::string(level);
    else
      invalid("access_level", "access_level must be invitation, open or admins");
  }
  if (const json::Value* v = fields.find("project_tracker_template_id"); creating && v != nullptr && !v->is_null()) {
    std::optional<std::int64_t> id = v->is_string() ? parse_int(v->text()) : v->as_int64();
    if (!id || *id <= 0)
      invalid("project_tracker_template_id", "project_tracker_template_id must be the id of a project template");
    else if (!template_visible(*id))
      invalid("project_tracker_template_id", "project_tracker_template_id " + std::to_string(*id) +
                                                 " is not a project template owned by or shared with you");
    else
      w.project_tracker_template_id = id;
  }
  return errors;
}

}  // namespace

std::pair<std::size_t, std::size_t> Paging::slice() const {
  if (limit && offset) return {static_cast<std::size_t>(*offset), static_cast<std::size_t>(*limit)};
  return {static_cast<std::size_t>(page - 1) * static_cast<std::size_t>(per_page), static_cast<std::size_t>(per_page)};
}

std::string param_value(const Params& params, const char* name) {
  auto it = params.find(name);
  return it == params.end() ? std::string() : it->second;
}

std::optional<std::int64_t> parse_int(std::string_view text) {
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

bool wants_raw_json(const Params& params) {
  auto fields = split_commas(param_value(params, "optional_fields"));
  return std::find(fields.begin(), fields.end(), "raw_json") != fields.end();
}

std::variant<ListRequest, RequestError> read_list_request(const Params& params) {
  ListRequest request;
  TemplateQuery& query = request.query;
  std::vector<FieldError> errors;
  auto param = [&](const char* name) { return param_value(params, name); };
  query.mine = truthy(param("mine"));
  query.by_title = param("by_title");
  read_only(params, query.only, errors);
  if (has_param(params, "order")) {
    std::string order = param("order");
    auto colon = order.find(':');
    std::string field = order.substr(0, colon);
    std::string direction = colon == std::string::npos ? "asc" : order.substr(colon + 1);
    static const std::vector<std::string> kFields = {"title",  "updated_at",  "duration",
                                                     "budget", "description", "is_budgeted"};
    if (std::find(kFields.begin(), kFields.end(), field) == kFields.end() ||
        (direction != "asc" && direction != "desc"))
      errors.push_back({"validation",
                        "order must be <field>:asc|desc with field one of title, updated_at, duration, budget, "
                        "description, is_budgeted",
                        "order"});
    query.order_field = field;
    query.descending = direction == "desc";
  }
  read_paging(params, request, errors);
  request.with_raw_json = wants_raw_json(params);
  if (request.with_raw_json && !query.only)
    errors.push_back({"validation", "optional_fields is not accepted on this request without only", "optional_fields"});
  auto includes = split_commas(param("include"));
  request.include_users = std::find(includes.begin(), includes.end(), "user") != includes.end();
  if (!errors.empty()) return RequestError{400, std::move(errors)};
  return request;
}

bool wants_archived(const Params& params) {
  return truthy(param_value(params, "include_archived"));
}

std::variant<WorkspaceListRequest, RequestError> read_workspace_list_request(const Params& params) {
  WorkspaceListRequest request;
  WorkspaceQuery& query = request.query;
  std::vector<FieldError> errors;
  query.include_archived = wants_archived(params);
  query.matching = param_value(params, "matching");
  if (has_param(params, "budgeted")) query.budgeted = truthy(param_value(params, "budgeted"));
  if (has_param(params, "has_participant")) {
    query.has_participant = parse_int(param_value(params, "has_participant"));
    if (!query.has_participant)
      errors.push_back({"validation", "has_participant must be a user id", "has_participant"});
  }
  read_only(params, query.only, errors);
  if (has_param(params, "order")) {
    const std::string order = param_value(params, "order");
    if (order == "updated_at" || order == "updated_at:asc")
      query.descending = false;
    else if (order != "updated_at:desc")
      errors.push_back(
          {"validation", "order must be updated_at:asc or updated_at:desc (the one valid field)", "order"});
  }
  read_paging(params, request, errors);
  if (!errors.empty()) return RequestError{400, std::move(errors)};
  return request;
}

std::optional<RequestError> apply_workspace_body(std::string_view body, StoredWorkspace& w, bool creating,
                                                 const std::function<bool(std::int64_t)>& template_visible) {
  json::Document doc;
  auto read = body_object(body, "workspace", doc);
  if (auto* refused = std::get_if<RequestError>(&read)) return std::move(*refused);
  auto errors = apply_workspace_fields(*std::get<const json::Value*>(read), w, creating, template_visible);
  if (!errors.empty()) return RequestError{422, std::move(errors)};
  return std::nullopt;
}

std::optional<RequestError> apply_template_body(std::string_view body, StoredTemplate& t, bool creating) {
  json::Document doc;
  auto read = body_object(body, "project_template", doc);
  if (auto* refused = std::get_if<RequestError>(&read)) return std::move(*refused);
  auto errors = apply_fields(*std::get<const json::Value*>(read), t, creating);
  if (!errors.empty()) return RequestError{422, std::move(errors)};
  return std::nullopt;
}

}  // namespace ptmpl::sandbox
