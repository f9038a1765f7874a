// Test support for the language server: a client's messages framed into a string, a session of
// serve() over string streams, and the server's framed answers read back as JSON.
#pragma once

#include <deque>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/core/json.hpp"
#include "libtemplate/lsp/lsp.hpp"
#include "lsp/framing.hpp"

namespace ptmpl::lsp::testing {

/// What a client sends, in order.
class Script {
 public:
  Script& raw(std::string_view bytes) {
    text_ += bytes;
    return *this;
  }
  Script& send(std::string_view body) { return raw(frame(body)); }
  Script& request(int id, std::string_view method, std::string_view params = "{}") {
    return send(R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":")" + std::string(method) +
                R"(","params":)" + std::string(params) + "}");
  }
  Script& notify(std::string_view method, std::string_view params = "{}") {
    return send(R"({"jsonrpc":"2.0","method":")" + std::string(method) + R"(","params":)" + std::string(params) + "}");
  }
  /// initialize (id 0, with `root` as rootUri when given) and initialized.
  Script& initialize(std::string_view root_uri = {}) {
    std::string params = root_uri.empty() ? "{}" : "{\"rootUri\":" + json::quoted(root_uri) + "}";
    request(0, "initialize", params);
    return notify("initialized");
  }
  /// shutdown (id 9999), then exit.
  Script& shutdown() {
    request(9999, "shutdown", "null");
    return notify("exit");
  }
  Script& open(std::string_view uri, std::string_view text, int version = 1) {
    return notify("textDocument/didOpen", "{\"textDocument\":{\"uri\":" + json::quoted(uri) +
                                              ",\"languageId\":\"json\",\"version\":" + std::to_string(version) +
                                              ",\"text\":" + json::quoted(text) + "}}");
  }
  /// A didChange replacing the whole text.
  Script& change(std::string_view uri, int version, std::string_view text) {
    return notify("textDocument/didChange", "{\"textDocument\":{\"uri\":" + json::quoted(uri) +
                                                ",\"version\":" + std::to_string(version) +
                                                "},\"contentChanges\":[{\"text\":" + json::quoted(text) + "}]}");
  }
  /// A didChange replacing a range (lines and UTF-16 characters from 0).
  Script& change(std::string_view uri, int version, int line0, int char0, int line1, int char1, std::string_view text) {
    return notify("textDocument/didChange",
                  "{\"textDocument\":{\"uri\":" + json::quoted(uri) + ",\"version\":" + std::to_string(version) +
                      "},\"contentChanges\":[{\"range\":{\"start\":{\"line\":" + std::to_string(line0) +
                      ",\"character\":" + std::to_string(char0) + "},\"end\":{\"line\":" + std::to_string(line1) +
                      ",\"character\":" + std::to_string(char1) + "}},\"text\":" + json::quoted(text) + "}]}");
  }
  [[nodiscard]] const std::string& text() const { return text_; }

 private:
  std::string text_;
};

/// "textDocument":{"uri":…} params with more members after it (`more` starts with ',' or is empty).
inline std::string document_params(std::string_view uri, std::string_view more = {}) {
  return "{\"textDocument\":{\"uri\":" + json::quoted(uri) + "}" + std::string(more) + "}";
}
inline std::string position_params(std::string_view uri, int line, int character) {
  return document_params(
      uri, ",\"position\":{\"line\":" + std::to_string(line) + ",\"character\":" + std::to_string(character) + "}");
}

/// What the server wrote, message by message, and how it ended.
struct Transcript {
  std::deque<std::string> bodies;
  std::deque<json::Document> messages;
  int exit_code = -1;

  /// The index of the response to `id` (JSON text: `7`, `"a"`, `null`), or -1.
  [[nodiscard]] int index_of_response(std::string_view id) const {
    for (std::size_t i = 0; i < messages.size(); ++i) {
      const json::Value& m = messages[i].root();
      const json::Value* v = m.find("id");
      if (v == nullptr || m.find("method") != nullptr) continue;
      std::string text = v->is_string() ? json::quoted(v->text()) : v->is_null() ? "null" : std::string(v->text());
      if (text == id) return static_cast<int>(i);
    }
    return -1;
  }
  /// The response to `id`, or nullptr.
  [[nodiscard]] const json::Value* response(std::string_view id) const {
    int i = index_of_response(id);
    return i < 0 ? nullptr : &messages[static_cast<std::size_t>(i)].root();
  }
  /// The params of every notification of `method`, in order, with their message indexes.
  [[nodiscard]] std::vector<std::pair<std::size_t, const json::Value*>> notifications(std::string_view method) const {
    std::vector<std::pair<std::size_t, const json::Value*>> out;
    for (std::size_t i = 0; i < messages.size(); ++i) {
      const json::Value* m = messages[i].root().find("method");
      if (m != nullptr && m->text() == method) out.emplace_back(i, messages[i].root().find("params"));
    }
    return out;
  }
  /// The last publishDiagnostics params for `uri`, or nullptr.
  [[nodiscard]] const json::Value* last_diagnostics(std::string_view uri) const {
    const json::Value* last = nullptr;
    for (auto [i, params] : notifications("textDocument/publishDiagnostics")) {
      const json::Value* u = params->find("uri");
      if (u != nullptr && u->text() == uri) last = params;
    }
    return last;
  }
};

/// Runs serve() over `input` (one lint thread unless told) and reads back every message.
inline Transcript run_session(const std::string& input, ServerOptions options = {.jobs = 1, .help_uri_base = {}}) {
  std::istringstream in(input);
  std::ostringstream out;
  Transcript transcript;
  transcript.exit_code = serve(in, out, options);
  std::istringstream written(out.str());
  FrameReader reader(written);
  for (;;) {
    Frame frame = reader.read();
    if (frame.status != FrameStatus::Message) break;
    transcript.bodies.push_back(std::move(frame.body));
    transcript.messages.push_back(json::Document::parse(transcript.bodies.back()));
  }
  return transcript;
}

/// The error code of a response, or 0 when it has none.
inline std::int64_t error_code_of(const json::Value* response) {
  if (response == nullptr) return 0;
  const json::Value* error = response->find("error");
  if (error == nullptr) return 0;
  const json::Value* code = error->find("code");
  return code != nullptr ? code->as_int64().value_or(0) : 0;
}

}  // namespace ptmpl::lsp::testing
