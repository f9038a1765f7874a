// The language server, by concern: JSON-RPC 2.0 messages (jsonrpc.hpp).
#include "lsp/jsonrpc.hpp"

#include <limits>

namespace ptmpl::lsp {

std::unique_ptr<Message> Message::parse(std::string body, int& code, std::string& error, std::string& id_json) {
  auto message = std::make_unique<Message>();
  message->text_ = std::move(body);
  id_json = "null";
  // The text lives in the Message, which is not moved: the tree's views stay valid.
  message->document_ = json::Document::parse(message->text_);
  const json::Document& doc = message->document_;
  if (!doc.ok()) {
    code = error_code::kParseError;
    const json::ParseIssue& issue = doc.issues().front();
    json::Position at = doc.position(issue.offset);
    error = "the message is not JSON: " + issue.message + " at line " + std::to_string(at.line) + ", column " +
            std::to_string(at.column);
    return nullptr;
  }
  const json::Value& root = doc.root();
  if (!root.is_object()) {
    code = error_code::kInvalidRequest;
    error = "a JSON-RPC message is an object, not " + std::string(json::kind_name(root));
    return nullptr;
  }
  if (const json::Value* id = root.find("id")) {
    if (id->is_number() || id->is_string()) {
      message->has_id_ = true;
      message->id_ = id->is_number() ? std::string(id->text()) : json::quoted(id->text());
      id_json = message->id_;
    } else if (!id->is_null()) {
      code = error_code::kInvalidRequest;
      error = "the id of a request is a number or a string";
      return nullptr;
    }
  }
  const json::Value* method = root.find("method");
  if (method == nullptr) {
    // A response to a request of the server's (it sends none that need one) is dropped.
    if (root.find("result") != nullptr || root.find("error") != nullptr) return message;
    code = error_code::kInvalidRequest;
    error = "the message has no method";
    return nullptr;
  }
  if (!method->is_string() || method->text().empty()) {
    code = error_code::kInvalidRequest;
    error = "the method is not a non-empty string";
    return nullptr;
  }
  message->method_ = std::string(method->text());
  if (const json::Value* params = root.find("params")) message->params_ = *params;
  return message;
}

const json::Value* member(const json::Value* value, std::string_view key) {
  if (value == nullptr || !value->is_object()) return nullptr;
  return value->find(key);
}

std::optional<std::string_view> string_member(const json::Value* value, std::string_view key) {
  const json::Value* v = member(value, key);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return v->text();
}

std::optional<std::int64_t> integer_member(const json::Value* value, std::string_view key) {
  const json::Value* v = member(value, key);
  if (v == nullptr) return std::nullopt;
  return v->as_int64();
}

std::optional<Position> read_position(const json::Value* value) {
  auto line = integer_member(value, "line");
  auto character = integer_member(value, "character");
  constexpr auto kMax = std::numeric_limits<std::uint32_t>::max();
  if (!line || !character || *line < 0 || *character < 0 || *line > kMax || *character > kMax) return std::nullopt;
  return Position{static_cast<std::uint32_t>(*line), static_cast<std::uint32_t>(*character)};
}

std::optional<Range> read_range(const json::Value* value) {
  auto start = read_position(member(value, "start"));
  auto end = read_position(member(value, "end"));
  if (!start || !end) return std::nullopt;
  return Range{*start, *end};
}

void write_position(JsonEmitter& out, Position position) {
  out.begin_object();
  out.member("line", position.line);
  out.member("character", position.character);
  out.end_object();
}

void write_range(JsonEmitter& out, Range range) {
  out.begin_object();
  out.key("start");
  write_position(out, range.start);
  out.key("end");
  write_position(out, range.end);
  out.end_object();
}

std::string response(std::string_view id_json, std::string_view result_json) {
  JsonEmitter out(JsonLayout::Compact, result_json.size() + 48);
  out.begin_object();
  out.member("jsonrpc", "2.0");
  out.key("id");
  out.raw(id_json);
  out.key("result");
  out.raw(result_json);
  out.end_object();
  return out.finish();
}

std::string error_response(std::string_view id_json, int code, std::string_view message) {
  JsonEmitter out(JsonLayout::Compact);
  out.begin_object();
  out.member("jsonrpc", "2.0");
  out.key("id");
  out.raw(id_json);
  out.key("error");
  out.begin_object();
  out.member("code", code);
  out.member("message", json::valid_utf8(message));
  out.end_object();
  out.end_object();
  return out.finish();
}

std::string notification(std::string_view method, std::string_view params_json) {
  JsonEmitter out(JsonLayout::Compact, params_json.size() + 64);
  out.begin_object();
  out.member("jsonrpc", "2.0");
  out.member("method", method);
  out.key("params");
  out.raw(params_json);
  out.end_object();
  return out.finish();
}

}  // namespace ptmpl::lsp
