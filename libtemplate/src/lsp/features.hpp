// The language server, by concern: the language features that read one document (or the
// workspace's) and answer a request: navigation, rename, hover, completion, symbols. Each takes
// the documents and the request's parameters and gives the JSON text of the response's
// `result` (or an error), so the protocol side (server.cpp) only frames it.
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "lsp/text.hpp"

namespace ptmpl::lsp {

/// What a feature answers: the JSON text of `result` ("null" when there is nothing), or an
/// error (a JSON-RPC/LSP error code and message) when `error_code` is not 0.
struct Reply {
  std::string result = "null";
  int error_code = 0;
  std::string error_message;
};

/// Whether the client has cancelled the request being answered (`$/cancelRequest`). Long work
/// asks between pieces (a story, a finding, a document) and gives up with cancelled_reply().
class Cancellation {
 public:
  /// Never cancelled.
  Cancellation() = default;
  /// Cancelled once `flag` is set (by another thread); `flag` outlives this.
  explicit Cancellation(const std::atomic<bool>& flag) : flag_(&flag) {}
  [[nodiscard]] bool requested() const { return flag_ != nullptr && flag_->load(std::memory_order_relaxed); }

 private:
  const std::atomic<bool>* flag_ = nullptr;
};

/// The answer to a request given up: RequestCancelled (-32800).
[[nodiscard]] Reply cancelled_reply();

/// textDocument/definition: from a `source_id`/`target_id` value to the story with that temp_id.
[[nodiscard]] Reply definition(const OpenDocument& document, Position position);
/// textDocument/references of the temp_id under the position (on a story's `temp_id` value or a
/// dependency naming it): every dependency naming it, and the definition when asked.
[[nodiscard]] Reply references(const OpenDocument& document, Position position, bool include_declaration);
/// textDocument/prepareRename: the range of the temp_id under the position, or an error.
[[nodiscard]] Reply prepare_rename(const OpenDocument& document, Position position);
/// textDocument/rename of a temp_id in its story and every dependency: a WorkspaceEdit.
[[nodiscard]] Reply rename(const OpenDocument& document, Position position, std::string_view new_name);
/// textDocument/hover on a story or a temp_id.
[[nodiscard]] Reply hover(const OpenDocument& document, Position position);
/// textDocument/completion at the position.
[[nodiscard]] Reply completion(const OpenDocument& document, Position position);
/// textDocument/documentSymbol: the story tree.
[[nodiscard]] Reply document_symbols(const OpenDocument& document, const Cancellation& cancel = {});
/// workspace/symbol over these documents (the open ones and the workspace folder's templates).
[[nodiscard]] Reply workspace_symbols(std::span<const OpenDocument> documents, std::string_view query,
                                      const Cancellation& cancel = {});

}  // namespace ptmpl::lsp
