// The language server's protocol side, driven through serve() with framed messages in string
// streams: lifecycle, robustness, cancellation, routing to the language features.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <span>

#include "libtemplate/core/generator.hpp"
#include "libtemplate/core/version.hpp"
#include "lsp/features.hpp"
#include "lsp_session.hpp"

namespace ptmpl::lsp::lsp_server_test {
namespace {

using testing::document_params;
using testing::error_code_of;
using testing::position_params;
using testing::run_session;
using testing::Script;

constexpr std::string_view kUri = "file:///nowhere/plan.json";
constexpr std::string_view kPlan = R"({
  "project_template": {
    "title": "Plan",
    "raw_json": [
      {"title": "Build", "temp_id": 1, "relative_start_date": 0, "relative_due_date": 4, "duration": 5},
      {"title": "Ship", "temp_id": 2, "relative_start_date": 5, "relative_due_date": 6, "duration": 2,
       "dependencies": [{"source_id": 1, "target_id": 2, "type": 2}]}
    ]
  }
}
)";

TEST(LspServer, InitializeAnnouncesEveryCapability) {
  Script script;
  script.initialize().shutdown();
  auto t = run_session(script.text());
  EXPECT_EQ(t.exit_code, 0);
  const json::Value* init = t.response("0");
  ASSERT_NE(init, nullptr);
  const json::Value* caps = resolve_pointer(*init, "/result/capabilities");
  ASSERT_NE(caps, nullptr) << t.bodies.front();
  EXPECT_EQ(resolve_pointer(*init, "/result/serverInfo/name")->text(), "ptmpl");
  EXPECT_EQ(resolve_pointer(*init, "/result/serverInfo/version")->text(), kVersion);
  auto at = [&](std::string_view pointer) { return json::resolve_pointer(*caps, pointer); };
  EXPECT_EQ(at("/textDocumentSync/change")->as_int64(), 2);
  EXPECT_EQ(at("/textDocumentSync/openClose")->as_bool(), true);
  EXPECT_EQ(at("/codeActionProvider/codeActionKinds/0")->text(), "quickfix");
  EXPECT_EQ(at("/codeActionProvider/codeActionKinds/1")->text(), "source.fixAll");
  for (std::string_view provider : {"/documentFormattingProvider", "/definitionProvider", "/referencesProvider",
                                    "/hoverProvider", "/documentSymbolProvider", "/workspaceSymbolProvider"})
    EXPECT_EQ(at(provider)->as_bool(), true) << provider;
  EXPECT_EQ(at("/renameProvider/prepareProvider")->as_bool(), true);
  EXPECT_EQ(at("/completionProvider/triggerCharacters/0")->text(), "\"");
  EXPECT_EQ(at("/completionProvider/triggerCharacters/1")->text(), ":");
  ASSERT_NE(t.response("9999"), nullptr);
  EXPECT_TRUE(t.response("9999")->find("result")->is_null());
}

TEST(LspServer, ExitCodeIsZeroOnlyAfterShutdown) {
  Script clean;
  clean.initialize().shutdown();
  EXPECT_EQ(run_session(clean.text()).exit_code, 0);
  Script abrupt;
  abrupt.initialize().notify("exit");
  EXPECT_EQ(run_session(abrupt.text()).exit_code, 1);
  Script ended;  // the input ends: no exit at all
  ended.initialize();
  EXPECT_EQ(run_session(ended.text()).exit_code, 1);
}

TEST(LspServer, RequestsBeforeInitializeAreRefusedAndAfterShutdownToo) {
  Script script;
  script.request(1, "textDocument/hover", position_params(kUri, 0, 0)).initialize();
  script.request(9999, "shutdown", "null").request(2, "textDocument/hover", position_params(kUri, 0, 0));
  script.notify("exit");
  auto t = run_session(script.text());
  EXPECT_EQ(error_code_of(t.response("1")), -32002);
  EXPECT_EQ(error_code_of(t.response("2")), -32600);
  EXPECT_EQ(t.exit_code, 0);
}

TEST(LspServer, MalformedMessagesGetTheProtocolsErrorsAndTheServerGoesOn) {
  Script script;
  script.initialize();
  script.send("{\"jsonrpc\":\"2.0\",\"id\":1,");                            // not JSON
  script.send("[1,2]");                                                     // not an object
  script.send("{\"jsonrpc\":\"2.0\",\"id\":3}");                            // no method
  script.send("{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"x\"}");          // an id of the wrong kind
  script.request(5, "textDocument/unheardOf");                              // unknown request
  script.notify("textDocument/unheardOf");                                  // unknown notification: ignored
  script.notify("$/setTrace", "{\"value\":\"off\"}");                       // `$/` notification: ignored
  script.raw("Content-Length: x\r\n\r\n{}");                                // garbage header
  script.request(6, "textDocument/documentSymbol", document_params(kUri));  // never opened
  script.shutdown();
  auto t = run_session(script.text());
  ASSERT_GE(t.messages.size(), 8u);
  // Initialize, -32700, -32600, -32600, -32600, -32601, -32700 (header), 6, shutdown.
  std::vector<std::pair<std::string, std::int64_t>> got;
  for (const json::Document& m : t.messages) {
    const json::Value* id = m.root().find("id");
    if (id == nullptr) continue;
    got.emplace_back(id->is_null() ? "null" : std::string(id->text()), error_code_of(&m.root()));
  }
  std::vector<std::pair<std::string, std::int64_t>> want = {{"0", 0},         {"null", -32700}, {"null", -32600},
                                                            {"3", -32600},    {"null", -32600}, {"5", -32601},
                                                            {"null", -32700}, {"6", 0},         {"9999", 0}};
  // Requests are answered on their own thread, framing errors at once: the order may differ.
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got, want);
  EXPECT_TRUE(t.response("6")->find("result")->is_null());
  EXPECT_EQ(t.exit_code, 0);
}

TEST(LspServer, InputEndingMidMessageEndsTheSessionCleanly) {
  Script script;
  script.initialize().open(kUri, kPlan).raw("Content-Length: 500\r\n\r\n{\"jsonrpc\":\"2.0\",");
  auto t = run_session(script.text());
  EXPECT_EQ(t.exit_code, 1);
  EXPECT_NE(t.response("0"), nullptr);
}

TEST(LspServer, FeatureRequestsAreRoutedToTheFeaturesWithTheOpenText) {
  OpenDocument document{std::string(kUri), "/nowhere/plan.json", std::string(kPlan), 1};
  Script script;
  script.initialize().open(kUri, kPlan);
  script.request(1, "textDocument/definition", position_params(kUri, 6, 29));
  script.request(
      2, "textDocument/references",
      document_params(kUri, ",\"position\":{\"line\":4,\"character\":47},\"context\":{\"includeDeclaration\":true}"));
  script.request(3, "textDocument/prepareRename", position_params(kUri, 4, 47));
  script.request(4, "textDocument/rename",
                 document_params(kUri, ",\"position\":{\"line\":4,\"character\":47},\"newName\":\"build\""));
  script.request(5, "textDocument/hover", position_params(kUri, 4, 20));
  script.request(6, "textDocument/completion", position_params(kUri, 4, 9));
  script.request(7, "textDocument/documentSymbol", document_params(kUri));
  script.request(8, "workspace/symbol", "{\"query\":\"Bu\"}");
  script.shutdown();
  auto t = run_session(script.text());
  auto result_of = [&](std::string_view id) -> std::string {
    const json::Value* r = t.response(id);
    if (r == nullptr) return "<no response>";
    if (r->find("error") != nullptr) return "<error>";
    int i = t.index_of_response(id);
    // The result as written, for comparison with the feature's own text.
    const json::Value* result = r->find("result");
    std::string_view body = t.bodies[static_cast<std::size_t>(i)];
    auto end = json::value_end(body, *result);
    return std::string(body.substr(result->offset(), *end - result->offset()));
  };
  auto same = [&](std::string_view id, const Reply& direct) {
    if (direct.error_code != 0) {
      EXPECT_EQ(error_code_of(t.response(id)), direct.error_code) << id;
    } else {
      EXPECT_EQ(result_of(id), direct.result) << id;
    }
  };
  same("1", definition(document, {6, 29}));
  same("2", references(document, {4, 47}, true));
  same("3", prepare_rename(document, {4, 47}));
  same("4", rename(document, {4, 47}, "build"));
  same("5", hover(document, {4, 20}));
  same("6", completion(document, {4, 9}));
  same("7", document_symbols(document));
  same("8", workspace_symbols(std::span(&document, 1), "Bu"));
}

// A document big enough that linting or formatting it takes a while.
std::string big_template(std::size_t stories = 5000) {
  auto generated = generate_template({.stories = stories, .depth = 3, .deps = std::nullopt, .seed = 3});
  return generated.ok() ? generated.value() : std::string();
}

std::string one_line(std::string_view text) {
  std::string out;
  for (char c : text)
    if (c != '\n') out += c;
  return out;
}

TEST(LspServer, RequestsAreAnsweredWhileALintRuns) {
  std::string big = big_template();
  ASSERT_GT(big.size(), 1'000'000u);
  Script script;
  script.initialize().open("file:///nowhere/big.json", big).open(kUri, kPlan);
  script.request(1, "textDocument/documentSymbol", document_params(kUri));
  script.shutdown();
  auto t = run_session(script.text());
  // The small request's answer comes before the big document's diagnostics.
  auto published = t.notifications("textDocument/publishDiagnostics");
  std::size_t big_at = 0;
  for (auto [i, params] : published)
    if (params->find("uri")->text() == "file:///nowhere/big.json") big_at = i;
  ASSERT_GT(big_at, 0u);
  EXPECT_LT(static_cast<std::size_t>(t.index_of_response("1")), big_at);
}

TEST(LspServer, CancelledRequestsGetRequestCancelledAndTheServerGoesOn) {
  std::string big = big_template(10000);
  std::string uri = "file:///nowhere/big.json";
  Script script;
  // Formatting the big document (not canonical: one line) keeps the one request thread busy
  // while the next two requests wait behind it.
  script.initialize().open(uri, one_line(big));
  script.request(1, "textDocument/formatting",
                 document_params(uri, ",\"options\":{\"tabSize\":2,\"insertSpaces\":true}"));
  script.request(2, "textDocument/documentSymbol", document_params(kUri));
  script.request(3, "textDocument/documentSymbol", document_params(kUri));
  script.notify("$/cancelRequest", "{\"id\":2}");
  script.notify("$/cancelRequest", "{\"id\":1}");
  script.notify("$/cancelRequest", "{\"id\":77}");  // no such request: nothing happens
  script.shutdown();
  auto t = run_session(script.text(), {.jobs = 1, .help_uri_base = {}, .request_threads = 1});
  EXPECT_EQ(error_code_of(t.response("1")), -32800);
  EXPECT_EQ(error_code_of(t.response("2")), -32800);
  ASSERT_NE(t.response("3"), nullptr);
  EXPECT_EQ(error_code_of(t.response("3")), 0);
  EXPECT_EQ(t.response("77"), nullptr);
  EXPECT_EQ(t.exit_code, 0);
}

TEST(LspServer, ARequestIsAnsweredWhileASlowOneRuns) {
  // The story tree of 10,000 stories written on one line against a hover on a small document:
  // the hover, asked second, is answered first.
  std::string uri = "file:///nowhere/big.json";
  Script script;
  script.initialize().open(uri, one_line(big_template(10000))).open(kUri, kPlan);
  script.request(1, "textDocument/documentSymbol", document_params(uri));
  script.request(2, "textDocument/hover", position_params(kUri, 4, 10));
  script.shutdown();
  auto t = run_session(script.text());
  ASSERT_NE(t.response("1"), nullptr);
  ASSERT_NE(t.response("2"), nullptr);
  EXPECT_EQ(error_code_of(t.response("2")), 0);
  EXPECT_LT(t.index_of_response("2"), t.index_of_response("1"));
  EXPECT_EQ(t.exit_code, 0);
}

TEST(LspServer, ACancelledCodeActionStopsWaitingForItsLint) {
  // The code actions of a big document need its lint, which a lint thread is running: the
  // cancel ends the wait at once, long before the lint is published.
  std::string uri = "file:///nowhere/big.json";
  Script script;
  script.initialize().open(uri, one_line(big_template(10000)));
  script.request(1, "textDocument/codeAction",
                 document_params(uri, R"(,"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":9}},)"
                                      R"("context":{"diagnostics":[]})"));
  script.notify("$/cancelRequest", "{\"id\":1}");
  script.shutdown();
  auto t = run_session(script.text());
  EXPECT_EQ(error_code_of(t.response("1")), -32800);
  auto published = t.notifications("textDocument/publishDiagnostics");
  ASSERT_EQ(published.size(), 1u);
  EXPECT_LT(static_cast<std::size_t>(t.index_of_response("1")), published[0].first);
}

TEST(LspServer, LongFeaturesGiveUpOnceCancelled) {
  OpenDocument document{std::string(kUri), "", std::string(kPlan), 1};
  std::atomic<bool> flag = true;
  const Cancellation cancelled(flag);
  EXPECT_EQ(document_symbols(document, cancelled).error_code, -32800);
  EXPECT_EQ(workspace_symbols(std::span(&document, 1), "", cancelled).error_code, -32800);
  flag = false;
  EXPECT_EQ(document_symbols(document, cancelled).error_code, 0);
}

}  // namespace
}  // namespace ptmpl::lsp::lsp_server_test
