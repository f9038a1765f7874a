// The service's answers, read with the project's JSON tree: list and single-template
// envelopes, the error envelope, Retry-After.
#include "publish/envelope.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <thread>
#include <vector>

#include "libtemplate/core/json.hpp"
#include "text/text_width.hpp"

namespace ptmpl::publish::detail {
namespace {

/// A byte of the service's answer that is not part of valid UTF-8: where its stand-in (U+FFFD)
/// is in the text that was parsed, and the byte itself.
struct BadByte {
  std::uint64_t at;
  unsigned char byte;
};

/// `body` with each byte that is not part of valid UTF-8 replaced by U+FFFD, so that the parser
/// takes the rest; `bad` gets where each one went.
std::string mark_invalid_utf8(std::string_view body, std::vector<BadByte>& bad) {
  std::string out;
  out.reserve(body.size() + 16);
  while (auto at = json::invalid_utf8_offset(body)) {
    out.append(body.substr(0, *at));
    bad.push_back({out.size(), static_cast<unsigned char>(body[*at])});
    out.append("\xEF\xBF\xBD");
    body.remove_prefix(*at + 1);
  }
  out.append(body);
  return out;
}

/// One template of an envelope; `body` is the text it was parsed from, of which its `json` is
/// the template's part, as the service wrote it. A template holding one of `bad` is refused,
/// naming the field: text that is not UTF-8 cannot be shown, written as JSON or pushed back.
/// `*text_unusable` tells that error from an envelope the client cannot read at all.
Result<RemoteTemplate> read_template(const json::Value& object, std::string_view body, const std::vector<BadByte>& bad,
                                     std::string_view noun, bool* text_unusable) {
  const std::string one = "a " + std::string(noun) + " in the response";
  if (!object.is_object()) return Error::service(one + " is not an object");
  RemoteTemplate t;
  const json::Value* id = object.find("id");
  if (id == nullptr) return Error::service(one + " has no id");
  // Only a whole id is one: a prefix read as a number ("1/../../x" as 1) would name another
  // template, and the file pull writes would be another's.
  if (std::optional<std::int64_t> number = id->as_int64(); number && *number > 0) {
    t.id = *number;
  } else if (std::optional<std::int64_t> spelt = id->is_string() ? template_id(id->text()) : std::nullopt) {
    t.id = *spelt;
  } else if (id->is_string() || number) {
    return Error::service(one + " has an id that is not a whole number from 1 to 2^63-1: " +
                          (number ? std::to_string(*number) : quoted_excerpt(id->text())));
  } else {
    return Error::service(one + " has no usable id");
  }
  auto text = [&](std::string_view key) -> std::optional<std::string> {
    const json::Value* v = object.find(key);
    if (v == nullptr || !v->is_string()) return std::nullopt;
    return std::string(v->text());
  };
  std::uint64_t end = json::value_end(body, object).value_or(object.offset());
  std::string_view whole = body.substr(object.offset(), end - object.offset());
  auto within = [&](std::uint64_t from, std::uint64_t to) -> const BadByte* {
    for (const BadByte& b : bad)
      if (b.at >= from && b.at < to) return &b;
    return nullptr;
  };
  if (const BadByte* first = within(object.offset(), end)) {
    *text_unusable = true;
    std::string where = "its JSON";
    std::uint64_t offset = first->at - object.offset();
    for (const char* key : {"title", "description", "updated_at", "raw_json"}) {
      const json::Value* v = object.find(key);
      if (v == nullptr) continue;
      std::uint64_t v_end = json::value_end(body, *v).value_or(v->offset());
      if (first->at >= v->offset() && first->at < v_end) {
        where = std::string("its ") + key;
        offset = first->at - v->offset() - (v->is_string() ? 1 : 0);  // in the text, after the quote
        break;
      }
    }
    return Error::service(std::string(noun) + " " + std::to_string(t.id) + ": " + where + " is not UTF-8 text (byte " +
                          hex_byte(first->byte) + " at offset " + std::to_string(offset) + ")");
  }
  // Escapes can spell what is not UTF-8 too (a lone surrogate).
  for (const char* key : {"title", "description", "updated_at", "raw_json"}) {
    const json::Value* v = object.find(key);
    if (v == nullptr || !v->is_string()) continue;
    if (auto at = json::invalid_utf8_offset(v->text())) {
      *text_unusable = true;
      return Error::service(std::string(noun) + " " + std::to_string(t.id) + ": its " + key +
                            " is not UTF-8 text (byte " + hex_byte(static_cast<unsigned char>(v->text()[*at])) +
                            " at offset " + std::to_string(*at) + " of its decoded text)");
    }
  }
  t.title = text("title").value_or("");
  t.updated_at = text("updated_at").value_or("");
  t.raw_json = text("raw_json");
  t.json = std::string(whole);
  return t;
}

}  // namespace

std::string hex_byte(unsigned char byte) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%02X", byte);
  return text;
}

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
  // What a person reads: the first kShownErrors, each text cut at kShownColumns.
  constexpr std::size_t kShownErrors = 20;
  constexpr std::size_t kShownColumns = 500;
  std::string out;
  std::size_t shown = 0;
  for (const json::Value& e : errors->items()) {
    if (shown == kShownErrors) {
      out += "; … and " + std::to_string(errors->items().size() - shown) + " more";
      break;
    }
    ++shown;
    if (!out.empty()) out += "; ";
    auto str = [&](std::string_view key) {
      const json::Value* v = e.find(key);
      return v != nullptr && v->is_string() ? truncate_to_width(v->text(), kShownColumns) : std::string();
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
Result<TemplatePage> read_envelope(const std::string& raw_body, Collection collection) {
  // Bytes that are not UTF-8 spoil only the templates holding them (read_template).
  std::vector<BadByte> bad;
  std::string marked;
  if (json::invalid_utf8_offset(raw_body)) marked = mark_invalid_utf8(raw_body, bad);
  const std::string& body = bad.empty() ? raw_body : marked;
  // The templates' JSON is read again as trees (pull writes it as documents), which keep at
  // most this depth: a deeper response is refused whole rather than cut.
  json::ParseOptions options;
  options.max_depth = json::kMaxDepthLimit;
  json::Document doc = json::Document::parse(body, options);
  if (doc.truncated())
    return Error::service("the response is nested deeper than " + std::to_string(json::kMaxDepthLimit) + " levels");
  if (!doc.ok() || !doc.root().is_object()) return Error::service("the response is not a JSON object");
  const json::Value* results = doc.root().find("results");
  const json::Value* map = doc.root().find(collection.key);
  if (results == nullptr || !results->is_array()) return Error::service("the response has no `results` array");
  TemplatePage page;
  if (const json::Value* count = doc.root().find("count"); count != nullptr && count->as_int64())
    page.count = *count->as_int64();
  for (const json::Value& entry : results->items()) {
    const json::Value* key = entry.find("key");
    const json::Value* id = entry.find("id");
    if (key == nullptr || id == nullptr) continue;
    if (!key->is_string() || key->text() != collection.key) continue;
    std::string id_text = id->is_string()  ? std::string(id->text())
                          : id->as_int64() ? std::to_string(*id->as_int64())
                                           : std::string();
    if (map == nullptr || !map->is_object())
      return Error::service("the response has no `" + std::string(collection.key) + "` map");
    const json::Value* found = map->find(id_text);
    if (found == nullptr)
      return Error::service("`results` names " + std::string(collection.noun) + " " + id_text +
                            ", which the map lacks");
    bool text_unusable = false;
    auto t = read_template(*found, body, bad, collection.noun, &text_unusable);
    if (!t.ok() && !text_unusable) return t.error();
    if (!t.ok()) {
      page.skipped.emplace_back(template_id(id_text).value_or(0), t.error());
      continue;
    }
    page.templates.push_back(std::move(t).value());
  }
  return page;
}

Result<RemoteTemplate> single(const std::string& body, Collection collection) {
  auto page = read_envelope(body, collection);
  if (!page.ok()) return page.error();
  if (page.value().templates.empty() && page.value().skipped.size() == 1) return page.value().skipped.front().second;
  if (page.value().templates.size() != 1)
    return Error::service("expected one " + std::string(collection.noun) + " in the response, got " +
                          std::to_string(page.value().templates.size()));
  return std::move(page.value().templates.front());
}

std::optional<std::chrono::milliseconds> retry_after(const HttpResponse& response) {
  std::string value = response.header("Retry-After");
  if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  // Any number of seconds is a wait: one past what milliseconds hold waits as long as they do
  // (the client caps every wait far below), never wraps to a negative or no wait.
  constexpr std::int64_t kMostSeconds = std::chrono::milliseconds::max().count() / 1000;
  std::int64_t seconds = kMostSeconds;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
  if (ec != std::errc() || seconds > kMostSeconds) seconds = kMostSeconds;
  return std::chrono::milliseconds(seconds * 1000);
}

}  // namespace ptmpl::publish::detail
