// The language server, by concern: JSON-RPC 2.0 messages, read with the project's JSON reader
// and written with its emitter. Error codes are JSON-RPC's and LSP's.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "libtemplate/core/json.hpp"
#include "libtemplate/core/json_emitter.hpp"
#include "lsp/text.hpp"

namespace ptmpl::lsp {

namespace error_code {
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
inline constexpr int kServerNotInitialized = -32002;
inline constexpr int kRequestFailed = -32803;
inline constexpr int kRequestCancelled = -32800;
}  // namespace error_code

/// One message from the client: a request (with an id), a notification (without), or a
/// response to a request of the server's (ignored). Move-only; the tree points into `text`.
class Message {
 public:
  /// Parses a body. On failure: nullopt, and `code`/`error` say what to answer (with the id
  /// when one could be read, else null).
  static std::unique_ptr<Message> parse(std::string body, int& code, std::string& error, std::string& id_json);

  [[nodiscard]] bool is_request() const { return has_id_; }
  [[nodiscard]] bool is_response() const { return method_.empty(); }
  /// The id as JSON text (`7`, `"a"`), for the reply.
  [[nodiscard]] const std::string& id() const { return id_; }
  [[nodiscard]] const std::string& method() const { return method_; }
  /// The params (null when absent).
  [[nodiscard]] const json::Value& params() const { return params_; }

 private:
  std::string text_;
  json::Document document_;
  bool has_id_ = false;
  std::string id_;
  std::string method_;
  json::Value params_;
};

/// The member `key` of `value` when `value` is an object holding it, else nullptr.
[[nodiscard]] const json::Value* member(const json::Value* value, std::string_view key);
/// A string member's text, or nullopt.
[[nodiscard]] std::optional<std::string_view> string_member(const json::Value* value, std::string_view key);
/// An integer member, or nullopt.
[[nodiscard]] std::optional<std::int64_t> integer_member(const json::Value* value, std::string_view key);
/// An LSP Position object (`{"line", "character"}`), or nullopt when it is not one.
[[nodiscard]] std::optional<Position> read_position(const json::Value* value);
/// An LSP Range object, or nullopt.
[[nodiscard]] std::optional<Range> read_range(const json::Value* value);

void write_position(JsonEmitter& out, Position position);
void write_range(JsonEmitter& out, Range range);

/// `{"jsonrpc":"2.0","id":ID,"result":RESULT}`; `result_json` is JSON text.
[[nodiscard]] std::string response(std::string_view id_json, std::string_view result_json);
/// `{"jsonrpc":"2.0","id":ID,"error":{"code":C,"message":M}}`; `id_json` "null" when unknown.
[[nodiscard]] std::string error_response(std::string_view id_json, int code, std::string_view message);
/// `{"jsonrpc":"2.0","method":M,"params":PARAMS}`; `params_json` is JSON text.
[[nodiscard]] std::string notification(std::string_view method, std::string_view params_json);

}  // namespace ptmpl::lsp
