// The service's answers, read with the project's JSON tree: list and single-template
// envelopes, the error envelope, Retry-After.
#include "api/envelope.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <thread>

#include "libtemplate/json.hpp"

namespace ptmpl::api::detail {
namespace {

/// One template of an envelope; `body` is the text it was parsed from, of which its `json` is
/// the template's part, as the service wrote it.
Result<RemoteTemplate> read_template(const json::Value& object, std::string_view body) {
  if (!object.is_object()) return Error::service("a template in the response is not an object");
  RemoteTemplate t;
  const json::Value* id = object.find("id");
  if (id == nullptr) return Error::service("a template in the response has no id");
  if (std::optional<std::int64_t> number = id->as_int64()) {
    t.id = *number;
  } else if (id->is_string()) {
    std::string_view s = id->text();
    if (std::from_chars(s.data(), s.data() + s.size(), t.id).ec != std::errc())
      return Error::service("a template in the response has a non-numeric id");
  } else {
    return Error::service("a template in the response has no usable id");
  }
  auto text = [&](std::string_view key) -> std::optional<std::string> {
    const json::Value* v = object.find(key);
    if (v == nullptr || !v->is_string()) return std::nullopt;
    return std::string(v->text());
  };
  t.title = text("title").value_or("");
  t.updated_at = text("updated_at").value_or("");
  t.raw_json = text("raw_json");
  std::uint64_t end = json::value_end(body, object).value_or(object.offset());
  t.json = std::string(body.substr(object.offset(), end - object.offset()));
  return t;
}

}  // namespace

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string describe_errors(const std::string& body) {
  json::Document doc = json::Document::parse(body);
  const json::Value* errors = doc.root().find("errors");
  if (errors == nullptr || !errors->is_array() || errors->items().empty()) {
    std::string excerpt = body.substr(0, 200);
    return excerpt.empty() ? "no error details" : "unexpected body: " + excerpt;
  }
  std::string out;
  for (const json::Value& e : errors->items()) {
    if (!out.empty()) out += "; ";
    auto str = [&](std::string_view key) {
      const json::Value* v = e.find(key);
      return v != nullptr && v->is_string() ? std::string(v->text()) : std::string();
    };
    std::string type = str("type"), message = str("message"), field = str("field");
    out += (type.empty() ? "error" : type) + ": " + message;
    if (!field.empty()) out += " (field " + field + ")";
  }
  return out;
}

// The templates of an envelope, taken in the order of `results` (API reference, rule 2: the
// map may hold other objects of the same type, and its order means nothing). Of duplicate
// keys, the last is used, as everywhere.
Result<TemplatePage> read_envelope(const std::string& body) {
  // The templates' JSON is read again as trees (pull writes it as documents), which keep at
  // most this depth: a deeper response is refused whole rather than cut.
  json::ParseOptions options;
  options.max_depth = json::kMaxDepthLimit;
  json::Document doc = json::Document::parse(body, options);
  if (doc.truncated())
    return Error::service("the response is nested deeper than " + std::to_string(json::kMaxDepthLimit) + " levels");
  if (!doc.ok() || !doc.root().is_object()) return Error::service("the response is not a JSON object");
  const json::Value* results = doc.root().find("results");
  const json::Value* map = doc.root().find("project_templates");
  if (results == nullptr || !results->is_array()) return Error::service("the response has no `results` array");
  TemplatePage page;
  if (const json::Value* count = doc.root().find("count"); count != nullptr && count->as_int64())
    page.count = *count->as_int64();
  for (const json::Value& entry : results->items()) {
    const json::Value* key = entry.find("key");
    const json::Value* id = entry.find("id");
    if (key == nullptr || id == nullptr) continue;
    if (!key->is_string() || key->text() != "project_templates") continue;
    std::string id_text = id->is_string()  ? std::string(id->text())
                          : id->as_int64() ? std::to_string(*id->as_int64())
                                           : std::string();
    if (map == nullptr || !map->is_object()) return Error::service("the response has no `project_templates` map");
    const json::Value* found = map->find(id_text);
    if (found == nullptr) return Error::service("`results` names template " + id_text + ", which the map lacks");
    auto t = read_template(*found, body);
    if (!t.ok()) return t.error();
    page.templates.push_back(std::move(t).value());
  }
  return page;
}

Result<RemoteTemplate> single(const std::string& body) {
  auto page = read_envelope(body);
  if (!page.ok()) return page.error();
  if (page.value().templates.size() != 1)
    return Error::service("expected one template in the response, got " +
                          std::to_string(page.value().templates.size()));
  return std::move(page.value().templates.front());
}

std::optional<std::chrono::milliseconds> retry_after(const HttpResponse& response) {
  std::string value = response.header("Retry-After");
  long seconds = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size() || seconds < 0) return std::nullopt;
  return std::chrono::milliseconds(seconds * 1000);
}

}  // namespace ptmpl::api::detail
