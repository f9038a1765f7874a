#include "sandbox/request.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <sstream>

#include <rapidjson/document.h>

#include "json_nesting.hpp"

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

/// Applies the `project_template` fields of a create or update body onto `t`.
std::vector<FieldError> apply_fields(const rapidjson::Value& body, StoredTemplate& t, bool creating) {
  std::vector<FieldError> errors;
  auto invalid = [&](const char* field, std::string message) {
    errors.push_back({"validation", std::move(message), field});
  };
  auto find = [&](const char* key) -> const rapidjson::Value* {
    auto it = body.FindMember(key);
    return it == body.MemberEnd() ? nullptr : &it->value;
  };
  if (const auto* v = find("title")) {
    if (!v->IsString()) {
      invalid("title", "title must be a string");
    } else {
      std::string title(v->GetString(), v->GetStringLength());
      if (title.find_first_not_of(" \t\r\n") == std::string::npos)
        invalid("title", "title can't be blank");
      else
        t.title = title;
    }
  } else if (creating) {
    invalid("title", "title can't be blank");
  }
  if (const auto* v = find("description")) {
    if (v->IsString())
      t.description.assign(v->GetString(), v->GetStringLength());
    else if (v->IsNull())
      t.description.clear();
    else
      invalid("description", "description must be a string");
  }
  if (const auto* v = find("raw_json")) {
    if (!v->IsString()) {
      invalid("raw_json", "raw_json must be a string holding JSON text");
    } else {
      std::string raw(v->GetString(), v->GetStringLength());
      rapidjson::Document doc;
      detail::parse_iteratively(doc, raw);
      if (doc.HasParseError() || !(doc.IsArray() || doc.IsObject()))
        invalid("raw_json", "raw_json is not valid JSON (an array of stories)");
      else
        t.raw_json = std::move(raw);
    }
  }
  for (const char* key : {"shared", "is_budgeted"}) {
    if (const auto* v = find(key)) {
      if (!v->IsBool()) {
        invalid(key, std::string(key) + " must be true or false");
      } else {
        (std::string_view(key) == "shared" ? t.shared : t.is_budgeted) = v->GetBool();
      }
    }
  }
  if (const auto* v = find("budget")) {
    if (v->IsNull())
      t.budget.reset();
    else if (v->IsNumber() && std::isfinite(v->GetDouble()) && v->GetDouble() >= 0)
      t.budget = v->GetDouble();
    else
      invalid("budget", "budget must be a non-negative number");
  }
  if (const auto* v = find("currency")) {
    std::string_view c = v->IsString() ? std::string_view(v->GetString(), v->GetStringLength()) : "";
    if (c.size() == 3 && std::all_of(c.begin(), c.end(), [](char ch) { return ch >= 'A' && ch <= 'Z'; }))
      t.currency = std::string(c);
    else
      invalid("currency", "currency must be a three-letter ISO 4217 code");
  }
  if (const auto* v = find("duration")) {
    if (v->IsNull())
      t.duration.reset();
    else if (v->IsInt64() && v->GetInt64() >= 0)
      t.duration = v->GetInt64();
    else
      invalid("duration", "duration must be a non-negative integer (days)");
  }
  return errors;
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
    auto v = parse_int(param(name));
    if (!v || *v < min || *v > max) {
      errors.push_back({"validation",
                        std::string(name) + " must be an integer from " + std::to_string(min) +
                            (max == INT32_MAX ? std::string(" up") : " to " + std::to_string(max)),
                        name});
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
  rapidjson::Document doc;
  detail::parse_iteratively(doc, body);
  if (doc.HasParseError() || !doc.IsObject())
    return RequestError{400, {{"validation", "the request body must be a JSON object", ""}}};
  auto it = doc.FindMember("project_template");
  if (it == doc.MemberEnd() || !it->value.IsObject())
    return RequestError{422, {{"validation", "project_template is missing or not an object", "project_template"}}};
  auto errors = apply_fields(it->value, t, creating);
  if (!errors.empty()) return RequestError{422, std::move(errors)};
  return std::nullopt;
}

}  // namespace ptmpl::sandbox
