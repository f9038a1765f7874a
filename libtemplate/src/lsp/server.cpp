// The language server, by concern: the session (lsp.hpp's serve()). The reading thread
// takes messages in order, keeps the open documents and queues work: requests go to request
// threads, taken in order and each answered with the documents as they were when it arrived;
// lints go to lint threads, the newest version of a document replacing one still waiting. So a
// request is answered while a lint or a slow request runs, a cancelled request that has not
// been answered gets RequestCancelled (long work asks whether it is cancelled as it goes), and
// diagnostics are published only for the version still open. Every message goes out whole
// through the session's one FrameWriter.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <ostream>
#include <set>
#include <thread>

#include <unistd.h>

#include "libtemplate/core/version.hpp"
#include "libtemplate/lsp/lsp.hpp"
#include "lsp/code_actions.hpp"
#include "lsp/diagnostics.hpp"
#include "lsp/documents.hpp"
#include "lsp/features.hpp"
#include "lsp/framing.hpp"
#include "lsp/jsonrpc.hpp"
#include "lsp/workspace.hpp"

namespace ptmpl::lsp {

namespace {

using Snapshot = std::shared_ptr<const OpenDocument>;
using Documents = std::map<std::string, Snapshot, std::less<>>;

// What initialize answers: what the server does (docs/commands/lsp.md lists each).
std::string capabilities() {
  JsonEmitter out(JsonLayout::Compact);
  out.begin_object();
  out.key("capabilities");
  out.begin_object();
  out.member("positionEncoding", "utf-16");
  out.key("textDocumentSync");
  out.begin_object();
  out.key("openClose");
  out.boolean(true);
  out.member("change", 2);  // incremental
  out.key("save");
  out.begin_object();
  out.key("includeText");
  out.boolean(false);
  out.end_object();
  out.end_object();
  out.key("codeActionProvider");
  out.begin_object();
  out.key("codeActionKinds");
  out.begin_array();
  out.string("quickfix");
  out.string("source.fixAll");
  out.end_array();
  out.end_object();
  out.key("documentFormattingProvider");
  out.boolean(true);
  out.key("definitionProvider");
  out.boolean(true);
  out.key("referencesProvider");
  out.boolean(true);
  out.key("renameProvider");
  out.begin_object();
  out.key("prepareProvider");
  out.boolean(true);
  out.end_object();
  out.key("hoverProvider");
  out.boolean(true);
  out.key("completionProvider");
  out.begin_object();
  out.key("triggerCharacters");
  out.begin_array();
  out.string("\"");
  out.string(":");
  out.end_array();
  out.end_object();
  out.key("documentSymbolProvider");
  out.boolean(true);
  out.key("workspaceSymbolProvider");
  out.boolean(true);
  out.end_object();
  out.key("serverInfo");
  out.begin_object();
  out.member("name", "ptmpl");
  out.member("version", kVersion);
  out.end_object();
  out.end_object();
  return out.finish();
}

// `window/logMessage` params: type 1 error, 2 warning, 3 info.
std::string log_params(int type, std::string_view message) {
  JsonEmitter out(JsonLayout::Compact);
  out.begin_object();
  out.member("type", type);
  out.member("message", json::valid_utf8(message));
  out.end_object();
  return out.finish();
}

// The id of $/cancelRequest's params, as JSON text (as Message::id() writes it).
std::optional<std::string> cancelled_id(const json::Value& params) {
  const json::Value* id = member(&params, "id");
  if (id == nullptr) return std::nullopt;
  if (id->is_number()) return std::string(id->text());
  if (id->is_string()) return json::quoted(id->text());
  return std::nullopt;
}

class Server {
 public:
  Server(FrameWriter& out, const ServerOptions& options) : out_(out), options_(options) {}

  int run(std::istream& in) {
    unsigned lint_threads = options_.jobs;
    if (lint_threads == 0) lint_threads = std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
    std::vector<std::thread> requests;
    for (unsigned i = 0; i < std::max(options_.request_threads, 1u); ++i)
      requests.emplace_back([this] { request_loop(); });
    std::vector<std::thread> linters;
    for (unsigned i = 0; i < lint_threads; ++i) linters.emplace_back([this] { lint_loop(); });

    FrameReader reader(in);
    while (!exit_) {
      Frame frame = reader.read();
      if (frame.status == FrameStatus::End) break;
      if (frame.status == FrameStatus::Invalid) {
        send(error_response("null", error_code::kParseError, frame.error));
        continue;
      }
      int code = 0;
      std::string error;
      std::string id = "null";
      std::unique_ptr<Message> message;
      try {
        message = Message::parse(std::move(frame.body), code, error, id);
      } catch (const std::exception& e) {
        code = error_code::kInternalError;
        error = e.what();
      }
      if (message == nullptr) {
        send(error_response(id, code, error));
        continue;
      }
      if (message->is_response()) continue;
      try {
        dispatch(std::move(message));
      } catch (const std::exception& e) {
        log(1, std::string("ptmpl lsp: ") + e.what());
      }
    }

    {
      std::unique_lock lock(mutex_);
      // After shutdown, what came before it is answered first (shutdown itself waits for the
      // lints in flight); without shutdown, the server stops at once.
      if (shutdown_) idle_.wait(lock, [&] { return open_requests_.empty(); });
      stop_ = true;
    }
    work_.notify_all();
    for (std::thread& t : requests) t.join();
    for (std::thread& t : linters) t.join();
    return shutdown_ && exit_ ? 0 : 1;
  }

 private:
  using CancelFlag = std::shared_ptr<std::atomic<bool>>;

  struct Job {
    std::unique_ptr<Message> message;
    Documents documents;  // as they were when the request arrived
    CancelFlag cancelled;
  };

  void send(std::string_view body) { out_.write(body); }
  void log(int type, std::string_view message) { send(notification("window/logMessage", log_params(type, message))); }

  // On the reading thread, in the order the client sent.
  void dispatch(std::unique_ptr<Message> message) {
    const std::string& method = message->method();
    if (!message->is_request()) {
      notify(*message);
      return;
    }
    if (method == "initialize") {
      if (initialized_) {
        send(error_response(message->id(), error_code::kInvalidRequest, "initialize was already received"));
        return;
      }
      initialize(message->params());
      initialized_ = true;
      send(response(message->id(), capabilities()));
      return;
    }
    if (!initialized_) {
      send(error_response(message->id(), error_code::kServerNotInitialized,
                          "the server is not initialized: initialize comes first"));
      return;
    }
    if (shutdown_) {
      send(error_response(message->id(), error_code::kInvalidRequest, "the server is shut down: only exit remains"));
      return;
    }
    if (method == "shutdown") shutdown_ = true;
    {
      std::lock_guard lock(mutex_);
      auto cancelled = std::make_shared<std::atomic<bool>>(false);
      open_requests_[message->id()] = cancelled;
      jobs_.push_back({std::move(message), documents_, std::move(cancelled)});
    }
    work_.notify_all();
  }

  void notify(const Message& message) {
    const std::string& method = message.method();
    if (method == "exit") {
      exit_ = true;
      return;
    }
    if (method == "$/cancelRequest") {
      if (auto id = cancelled_id(message.params())) {
        std::lock_guard lock(mutex_);
        if (auto it = open_requests_.find(*id); it != open_requests_.end()) it->second->store(true);
      }
      idle_.notify_all();  // a request waiting for a lint gives up
      return;
    }
    // Before initialize, notifications are dropped; `$/…` ones and unknown ones always are.
    if (!initialized_ || shutdown_) return;
    const json::Value& params = message.params();
    if (method == "textDocument/didOpen") {
      const json::Value* item = member(&params, "textDocument");
      auto uri = string_member(item, "uri");
      auto text = string_member(item, "text");
      if (!uri || !text) return log(1, "didOpen without textDocument.uri and text");
      auto document = std::make_shared<OpenDocument>();
      document->uri = std::string(*uri);
      document->path = path_from_uri(*uri);
      document->text = std::string(*text);
      document->version = integer_member(item, "version").value_or(0);
      update(std::move(document));
    } else if (method == "textDocument/didChange") {
      const json::Value* item = member(&params, "textDocument");
      auto uri = string_member(item, "uri");
      const json::Value* changes = member(&params, "contentChanges");
      if (!uri || changes == nullptr || !changes->is_array())
        return log(1, "didChange without textDocument.uri and contentChanges");
      Snapshot current = find(*uri);
      if (current == nullptr) return log(2, "didChange of a document that is not open: " + std::string(*uri));
      auto document = std::make_shared<OpenDocument>(*current);
      for (const json::Value& change : changes->items()) {
        if (std::string problem = apply_change(document->text, change); !problem.empty())
          return log(1, "didChange of " + std::string(*uri) + ": " + problem + "; the change is not applied");
      }
      document->version = integer_member(item, "version").value_or(current->version + 1);
      update(std::move(document));
    } else if (method == "textDocument/didSave") {
      // A save may change what is around the document (its .ptmpl.json): lint it again.
      if (auto uri = string_member(member(&params, "textDocument"), "uri")) {
        if (Snapshot current = find(*uri)) schedule_lint(current);
      }
    } else if (method == "textDocument/didClose") {
      auto uri = string_member(member(&params, "textDocument"), "uri");
      if (!uri) return;
      {
        std::lock_guard lock(mutex_);
        auto it = documents_.find(*uri);
        if (it == documents_.end()) return;
        documents_.erase(it);
        pending_.erase(std::string(*uri));
        outcomes_.erase(std::string(*uri));
      }
      // A closed document shows no findings.
      send(notification("textDocument/publishDiagnostics", "{\"uri\":" + json::quoted(*uri) + ",\"diagnostics\":[]}"));
    }
  }

  void initialize(const json::Value& params) {
    std::vector<std::string> folders;
    if (const json::Value* list = member(&params, "workspaceFolders"); list != nullptr && list->is_array()) {
      for (const json::Value& folder : list->items())
        if (auto uri = string_member(&folder, "uri")) folders.push_back(path_from_uri(*uri));
    }
    if (folders.empty()) {
      if (auto root = string_member(&params, "rootUri")) folders.push_back(path_from_uri(*root));
    }
    if (folders.empty()) {
      if (auto root = string_member(&params, "rootPath")) folders.emplace_back(*root);
    }
    std::erase_if(folders, [](const std::string& f) { return f.empty(); });
    workspace_.set_folders(std::move(folders));
  }

  Snapshot find(std::string_view uri) {
    std::lock_guard lock(mutex_);
    auto it = documents_.find(uri);
    return it == documents_.end() ? nullptr : it->second;
  }

  void update(std::shared_ptr<OpenDocument> document) {
    Snapshot snapshot = std::move(document);
    {
      std::lock_guard lock(mutex_);
      documents_[snapshot->uri] = snapshot;
    }
    schedule_lint(snapshot);
  }

  void schedule_lint(const Snapshot& document) {
    {
      std::lock_guard lock(mutex_);
      pending_[document->uri] = document;  // replaces an older version still waiting
    }
    work_.notify_all();
  }

  // A lint thread: takes a waiting document that no other thread is linting.
  void lint_loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
      auto ready = pending_.end();
      work_.wait(lock, [&] {
        if (stop_) return true;
        ready = std::find_if(pending_.begin(), pending_.end(),
                             [&](const auto& item) { return !linting_.contains(item.first); });
        return ready != pending_.end();
      });
      if (stop_) return;
      Snapshot document = ready->second;
      pending_.erase(ready);
      linting_.insert(document->uri);
      lock.unlock();
      auto outcome = std::make_shared<LintOutcome>();
      try {
        *outcome = lint_document(*document);
      } catch (const std::exception& e) {
        outcome->version = document->version;
        outcome->errors.push_back(std::string("lint failed: ") + e.what());
      }
      std::string params = diagnostics_params(*document, *outcome, options_.help_uri_base);
      lock.lock();
      linting_.erase(document->uri);
      // Published only while this text is still the document's: a newer version, or a close,
      // makes it stale. Sent under the lock, so no newer result can overtake it.
      auto it = documents_.find(document->uri);
      if (it != documents_.end() && it->second == document) {
        outcomes_[document->uri] = {document, outcome};
        send(notification("textDocument/publishDiagnostics", params));
      }
      idle_.notify_all();
      work_.notify_all();
    }
  }

  // A request thread: takes the oldest request waiting; the others answer meanwhile.
  void request_loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
      work_.wait(lock, [&] { return stop_ || !jobs_.empty(); });
      if (stop_) return;
      Job job = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      const std::string id = job.message->id();
      std::string body;
      if (!*job.cancelled) {
        Reply reply;
        try {
          reply = answer(job);
        } catch (const std::exception& e) {
          reply = {"null", error_code::kInternalError, std::string("the request failed: ") + e.what()};
        }
        body = reply.error_code != 0 ? error_response(id, reply.error_code, reply.error_message)
                                     : response(id, reply.result);
      }
      // Cancelled before it started or while it ran: the error LSP asks for, not the answer.
      if (*job.cancelled) body = error_response(id, error_code::kRequestCancelled, "the request was cancelled");
      send(body);
      lock.lock();
      open_requests_.erase(id);
      idle_.notify_all();
    }
  }

  // The lint of `document`: the one published for this version when there is one (waited for
  // while it is queued or running, rather than done twice), else a fresh one; null when the
  // request is cancelled meanwhile.
  std::shared_ptr<const LintOutcome> outcome_of(const Snapshot& document, const std::atomic<bool>& cancelled) {
    {
      std::unique_lock lock(mutex_);
      idle_.wait(lock, [&] {
        auto queued = pending_.find(document->uri);
        return stop_ || cancelled ||
               ((queued == pending_.end() || queued->second != document) && !linting_.contains(document->uri));
      });
      if (cancelled) return nullptr;
      auto it = outcomes_.find(document->uri);
      if (it != outcomes_.end() && it->second.first == document) return it->second.second;
    }
    return std::make_shared<LintOutcome>(lint_document(*document));
  }

  Reply answer(Job& job) {
    const Message& message = *job.message;
    const std::string& method = message.method();
    const json::Value& params = message.params();
    const Cancellation cancel(*job.cancelled);
    if (method == "shutdown") {
      // Work in flight finishes first: every request before it is answered, every lint queued
      // is published (or found stale).
      std::unique_lock lock(mutex_);
      idle_.wait(lock, [&] { return stop_ || (pending_.empty() && linting_.empty() && open_requests_.size() == 1); });
      return {};
    }
    if (method == "workspace/symbol") {
      auto query = string_member(&params, "query").value_or("");
      std::vector<OpenDocument> documents;
      std::set<std::string, std::less<>> open_paths;
      for (const auto& [uri, document] : job.documents) {
        documents.push_back(*document);
        open_paths.insert(document->path.empty() ? uri : document->path);
      }
      std::vector<OpenDocument> files;
      {
        std::lock_guard lock(workspace_mutex_);
        files = workspace_.templates();
      }
      for (OpenDocument& file : files)
        if (!open_paths.contains(file.path)) documents.push_back(std::move(file));
      return workspace_symbols(documents, query, cancel);
    }
    static const std::set<std::string, std::less<>> kDocumentMethods = {
        "textDocument/definition",     "textDocument/references", "textDocument/prepareRename",
        "textDocument/rename",         "textDocument/hover",      "textDocument/completion",
        "textDocument/documentSymbol", "textDocument/codeAction", "textDocument/formatting"};
    if (!kDocumentMethods.contains(method)) return {"null", error_code::kMethodNotFound, "unknown method " + method};

    auto uri = string_member(member(&params, "textDocument"), "uri");
    if (!uri) return {"null", error_code::kInvalidParams, method + " without textDocument.uri"};
    auto found = job.documents.find(*uri);
    // A document the client never opened: nothing to answer from (the server reads only what
    // the client sends).
    if (found == job.documents.end()) return {"null", 0, {}};
    const Snapshot& document = found->second;
    if (method == "textDocument/documentSymbol") return document_symbols(*document, cancel);
    if (method == "textDocument/formatting") return format_document(*document);
    if (method == "textDocument/codeAction") {
      auto range = read_range(member(&params, "range"));
      if (!range) return {"null", error_code::kInvalidParams, "codeAction without a range"};
      ActionKinds kinds;
      if (const json::Value* only = member(member(&params, "context"), "only"); only != nullptr && only->is_array()) {
        kinds = {false, false};
        for (const json::Value& kind : only->items()) {
          std::string_view k = kind.text();
          if (k == "quickfix") kinds.quickfix = true;
          if (k == "source" || k == "source.fixAll") kinds.fix_all = true;
        }
      }
      auto outcome = outcome_of(document, *job.cancelled);
      if (outcome == nullptr) return cancelled_reply();
      return code_actions(*document, *outcome, *range, kinds, options_.help_uri_base, cancel);
    }
    auto position = read_position(member(&params, "position"));
    if (!position) return {"null", error_code::kInvalidParams, method + " without a position"};
    if (method == "textDocument/definition") return definition(*document, *position);
    if (method == "textDocument/references") {
      bool declaration = false;
      if (const json::Value* v = member(member(&params, "context"), "includeDeclaration"))
        declaration = v->as_bool().value_or(false);
      return references(*document, *position, declaration);
    }
    if (method == "textDocument/prepareRename") return prepare_rename(*document, *position);
    if (method == "textDocument/rename") {
      auto name = string_member(&params, "newName");
      if (!name) return {"null", error_code::kInvalidParams, "rename without newName"};
      return rename(*document, *position, *name);
    }
    if (method == "textDocument/hover") return hover(*document, *position);
    return completion(*document, *position);
  }

  FrameWriter& out_;
  ServerOptions options_;

  // The reading thread's own.
  bool initialized_ = false;
  bool shutdown_ = false;
  bool exit_ = false;
  // Its folders set at initialize, before any request is queued.
  std::mutex workspace_mutex_;
  Workspace workspace_;

  // Shared, under mutex_.
  std::mutex mutex_;
  std::condition_variable work_;  // a job, a lint, or stop
  std::condition_variable idle_;  // a lint finished, or a request was answered
  bool stop_ = false;
  Documents documents_;
  std::deque<Job> jobs_;
  std::map<std::string, CancelFlag> open_requests_;  // ids queued or running, set once cancelled
  std::map<std::string, Snapshot> pending_;
  std::set<std::string> linting_;
  std::map<std::string, std::pair<Snapshot, std::shared_ptr<const LintOutcome>>> outcomes_;
};

}  // namespace

int serve(std::istream& in, std::ostream& out, const ServerOptions& options) {
  FrameWriter writer(out);
  Server server(writer, options);
  return server.run(in);
}

int serve_stdio(std::istream& in, const ServerOptions& options) {
  FrameWriter writer(STDOUT_FILENO);
  Server server(writer, options);
  return server.run(in);
}

}  // namespace ptmpl::lsp
