#include "sandbox/request.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <sstream>

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
    if (c.size() == 3 && std::all_of(c.begin(), c.end(), [](char ch) { return ch >= 'A' && ch <= 'Z'; }))
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

/// The member of the body's `project_template` whose value holds byte `offset`, or "". Read
/// from a copy of `body` with every byte that is not UTF-8 replaced by '?', so offsets stay.
std::string field_holding(std::string_view body, std::uint64_t offset) {
  std::string readable(body);
  for (std::size_t from = 0; from < readable.size();) {
    auto bad = json::invalid_utf8_offset(std::string_view(readable).substr(from));
    if (!bad) break;
    readable[from + *bad] = '?';
    from += *bad + 1;
  }
  json::Document doc = json::Document::parse(readable);
  const json::Value* fields = doc.ok() ? doc.root().find("project_template") : nullptr;
  if (fields == nullptr || !fields->is_object()) return "";
  for (const json::Member& m : fields->members()) {
    auto end = json::value_end(readable, m.value);
    if (m.value.offset() <= offset && end && offset < *end) return std::string(m.key.text());
  }
  return "";
}

/// A body that is not UTF-8 is refused as the service refuses an invalid field: 422, with
/// the field that holds the first bad byte when it is one of project_template's.
std::optional<RequestError> refuse_unless_utf8(std::string_view body) {
  auto bad = json::invalid_utf8_offset(body);
  if (!bad) return std::nullopt;
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(body[*bad]));
  std::string field = field_holding(body, *bad);
  return RequestError{422,
                      {{"validation",
                        (field.empty() ? "the request body" : field) + " is not valid UTF-8: byte " + hex + " at " +
                            where(json::LineIndex(body), *bad) + " does not start a valid sequence",
                        field}}};
}

}  // namespace

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
  if (has_param(params, "only")) {
    query.only.emplace();
    for (const auto& part : split_commas(param("only"))) {
      if (auto id = parse_int(part))
        query.only->push_back(*id);
      else
        errors.push_back({"validation", "only must be comma-separated ids, not '" + part + "'", "only"});
    }
  }
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
  auto number = [&](const char* name, std::int64_t fallback, std::int64_t min, std::int64_t max) -> std::int64_t {
    if (!has_param(params, name)) return fallback;
    const std::string text = param(name);
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
  request.page = number("page", 1, 1, INT32_MAX);
  request.per_page = number("per_page", 20, 1, kMaxPerPage);
  std::int64_t limit = number("limit", 0, 1, INT32_MAX);
  std::int64_t offset = number("offset", 0, 0, INT32_MAX);
  request.with_raw_json = wants_raw_json(params);
  if (request.with_raw_json && !query.only)
    errors.push_back({"validation", "optional_fields is not accepted on this request without only", "optional_fields"});
  auto includes = split_commas(param("include"));
  request.include_users = std::find(includes.begin(), includes.end(), "user") != includes.end();
  if (!errors.empty()) return RequestError{400, std::move(errors)};
  if (has_param(params, "limit") && has_param(params, "offset")) {  // page and per_page are then ignored
    request.limit = limit;
    request.offset = offset;
    request.per_page = limit;
    request.page = offset / limit + 1;
  }
  return request;
}

std::optional<RequestError> apply_template_body(std::string_view body, StoredTemplate& t, bool creating) {
  if (auto refused = refuse_unless_utf8(body)) return refused;
  json::Document doc = json::Document::parse(body);
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
  const json::Value* fields = doc.root().find("project_template");
  if (fields == nullptr || !fields->is_object())
    return RequestError{422, {{"validation", "project_template is missing or not an object", "project_template"}}};
  auto errors = apply_fields(*fields, t, creating);
  if (!errors.empty()) return RequestError{422, std::move(errors)};
  return std::nullopt;
}

}  // namespace ptmpl::sandbox
