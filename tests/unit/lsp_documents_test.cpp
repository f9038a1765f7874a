// The language server's documents and diagnostics through serve(): lint's findings as
// diagnostics on open and change, configuration, versions, related places, code actions and
// formatting.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "libtemplate/core/fix.hpp"
#include "libtemplate/core/lint.hpp"
#include "libtemplate/core/writer.hpp"
#include "lsp/documents.hpp"
#include "lsp/workspace.hpp"
#include "lsp_session.hpp"

namespace ptmpl::lsp {
namespace {

namespace fs = std::filesystem;
using testing::document_params;
using testing::error_code_of;
using testing::run_session;
using testing::Script;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A directory of its own, removed at the end.
struct TempDir {
  fs::path path;
  TempDir() {
    path =
        fs::temp_directory_path() / ("ptmpl-lsp-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                                     "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::string member_text(const json::Value& v, std::string_view pointer) {
  const json::Value* at = json::resolve_pointer(v, pointer);
  if (at == nullptr) return "<none>";
  return at->is_string() ? std::string(at->text()) : at->is_number() ? std::string(at->text()) : "<kind>";
}

// A broken template (tests/data/rules/temp-id-duplicate/fail.json): the diagnostics are lint's
// findings one for one: rule, message, severity, place; with a link to each rule's page and the
// first definition as related information.
TEST(LspDocuments, DiagnosticsAreLintsFindingsOneForOne) {
  const fs::path sample = fs::path(PTMPL_SOURCE_DIR) / "tests/data/rules/temp-id-duplicate/fail.json";
  std::string text = read_file(sample);
  std::string uri = uri_from_path(sample.string());
  Script script;
  script.initialize().open(uri, text).shutdown();
  auto t = run_session(script.text(), {.jobs = 1, .help_uri_base = "https://example.org/ptmpl/"});
  const json::Value* published = t.last_diagnostics(uri);
  ASSERT_NE(published, nullptr);
  EXPECT_EQ(member_text(*published, "/version"), "1");
  LintRun run = lint_files({sample.string()});
  const std::vector<Diagnostic>& findings = run.diagnostics;
  ASSERT_FALSE(findings.empty());
  auto diagnostics = published->find("diagnostics")->items();
  ASSERT_EQ(diagnostics.size(), findings.size());
  TextPositions positions(text);
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const Diagnostic& f = findings[i];
    const json::Value& d = diagnostics[i];
    EXPECT_EQ(member_text(d, "/code"), f.rule);
    EXPECT_EQ(member_text(d, "/message"), f.message);
    EXPECT_EQ(member_text(d, "/source"), "ptmpl");
    EXPECT_EQ(member_text(d, "/severity"), f.severity == Severity::Error     ? "1"
                                           : f.severity == Severity::Warning ? "2"
                                                                             : "3");
    EXPECT_EQ(member_text(d, "/codeDescription/href"), "https://example.org/ptmpl/docs/rules/" + f.rule + ".md");
    Position start = positions.from_line_column(f.line, f.column);
    EXPECT_EQ(member_text(d, "/range/start/line"), std::to_string(start.line));
    EXPECT_EQ(member_text(d, "/range/start/character"), std::to_string(start.character));
    if (f.rule == "temp-id-duplicate") {
      ASSERT_EQ(f.related.size(), 1u);
      Position first = positions.from_line_column(f.related[0].line, f.related[0].column);
      EXPECT_EQ(member_text(d, "/relatedInformation/0/location/uri"), uri);
      EXPECT_EQ(member_text(d, "/relatedInformation/0/location/range/start/line"), std::to_string(first.line));
      EXPECT_NE(member_text(d, "/relatedInformation/0/message").find("first defined here"), std::string::npos);
      // The range covers the offending value (a scalar: the temp_id).
      EXPECT_EQ(member_text(d, "/range/end/line"), std::to_string(start.line));
      EXPECT_NE(member_text(d, "/range/end/character"), std::to_string(start.character));
    }
  }
  // Line 5 (1-based) holds the first temp_id 2: the related place of the first duplicate.
  auto first_duplicate = std::find_if(diagnostics.begin(), diagnostics.end(), [](const json::Value& d) {
    return member_text(d, "/code") == "temp-id-duplicate";
  });
  ASSERT_NE(first_duplicate, diagnostics.end());
  EXPECT_EQ(member_text(*first_duplicate, "/relatedInformation/0/location/range/start/line"), "4");
}

TEST(LspDocuments, ACycleNamesEachOfItsStoriesAsRelatedInformation) {
  const fs::path sample = fs::path(PTMPL_SOURCE_DIR) / "tests/data/rules/dependency-cycle/fail.json";
  std::string text = read_file(sample);
  Script script;
  script.initialize().open("file:///nowhere/cycle.json", text).shutdown();
  auto t = run_session(script.text());
  const json::Value* published = t.last_diagnostics("file:///nowhere/cycle.json");
  ASSERT_NE(published, nullptr);
  bool seen = false;
  for (const json::Value& d : published->find("diagnostics")->items()) {
    if (member_text(d, "/code") != "dependency-cycle") continue;
    seen = true;
    const json::Value* related = d.find("relatedInformation");
    ASSERT_NE(related, nullptr);
    EXPECT_GE(related->items().size(), 2u);
    EXPECT_NE(member_text(d, "/relatedInformation/0/message").find("is in the cycle (1 of"), std::string::npos);
  }
  EXPECT_TRUE(seen);
}

constexpr std::string_view kValid = R"({
  "project_template": {
    "title": "Plan",
    "raw_json": [
      {"title": "Build", "temp_id": 1, "relative_start_date": 0, "relative_due_date": 4, "duration": 5}
    ]
  }
}
)";

TEST(LspDocuments, IncrementalAndFullChangesAreLintedForTheirVersion) {
  std::string uri = "file:///nowhere/plan.json";
  Script script;
  script.initialize().open(uri, kValid);
  // Line 4: `"duration": 5` → `"duration": 9` (the span is 5 days): duration-mismatch.
  std::string line4 = std::string(
      R"(      {"title": "Build", "temp_id": 1, "relative_start_date": 0, "relative_due_date": 4, "duration": )");
  int at = static_cast<int>(line4.size());
  script.change(uri, 2, 4, at, 4, at + 1, "9");
  script.shutdown();
  auto t = run_session(script.text());
  const json::Value* last = t.last_diagnostics(uri);
  ASSERT_NE(last, nullptr);
  EXPECT_EQ(member_text(*last, "/version"), "2");
  EXPECT_EQ(member_text(*last, "/diagnostics/0/code"), "duration-mismatch");
  EXPECT_EQ(member_text(*last, "/diagnostics/0/range/start/line"), "4");
  EXPECT_EQ(member_text(*last, "/diagnostics/0/range/start/character"), std::to_string(at));

  // A full change back to the valid text clears them.
  Script full;
  std::string broken(kValid);
  broken.replace(broken.find("\"duration\": 5"), 13, "\"duration\": 9");
  full.initialize().open(uri, broken).change(uri, 7, kValid).shutdown();
  auto t2 = run_session(full.text());
  const json::Value* cleared = t2.last_diagnostics(uri);
  ASSERT_NE(cleared, nullptr);
  EXPECT_EQ(member_text(*cleared, "/version"), "7");
  EXPECT_TRUE(cleared->find("diagnostics")->items().empty());
}

TEST(LspDocuments, NoStaleDiagnosticsAfterANewerVersion) {
  std::string uri = "file:///nowhere/plan.json";
  std::string broken(kValid);
  broken.replace(broken.find("\"duration\": 5"), 13, "\"duration\": 9");
  Script script;
  script.initialize().open(uri, broken);
  for (int v = 2; v <= 30; ++v) script.change(uri, v, v % 2 == 0 ? kValid : broken);
  script.change(uri, 31, kValid);
  script.shutdown();
  auto t = run_session(script.text(), {.jobs = 2, .help_uri_base = {}});
  std::int64_t newest = 0;
  for (auto [i, params] : t.notifications("textDocument/publishDiagnostics")) {
    std::int64_t version = params->find("version")->as_int64().value_or(-1);
    EXPECT_GT(version, newest) << "a diagnostics for version " << version << " after " << newest;
    newest = version;
  }
  EXPECT_EQ(newest, 31);
  EXPECT_TRUE(t.last_diagnostics(uri)->find("diagnostics")->items().empty());
}

TEST(LspDocuments, ADocumentThatIsNotJsonGetsLintsSyntaxFinding) {
  std::string text = "{\"project_template\": {\"title\": \"x\",";
  Script script;
  script.initialize().open("file:///nowhere/cut.json", text).shutdown();
  auto t = run_session(script.text());
  const json::Value* published = t.last_diagnostics("file:///nowhere/cut.json");
  ASSERT_NE(published, nullptr);
  auto findings = lint_text("/nowhere/cut.json", text);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(member_text(*published, "/diagnostics/0/code"), "json-syntax");
  EXPECT_EQ(member_text(*published, "/diagnostics/0/message"), findings[0].message);
}

TEST(LspDocuments, TheNearestConfigurationAppliesAndADeletedFileKeepsWorking) {
  TempDir dir;
  fs::create_directories(dir.path / "sub");
  std::ofstream(dir.path / ".ptmpl.json") << R"({"rules": {"duration-mismatch": "warning"}})";
  fs::path file = dir.path / "sub" / "plan.json";
  std::string broken(kValid);
  broken.replace(broken.find("\"duration\": 5"), 13, "\"duration\": 9");
  std::ofstream(file) << broken;
  std::string uri = uri_from_path(file.string());
  Script script;
  script.initialize().open(uri, broken);
  auto t = run_session(script.text() + Script().shutdown().text());
  const json::Value* published = t.last_diagnostics(uri);
  ASSERT_NE(published, nullptr);
  EXPECT_EQ(member_text(*published, "/diagnostics/0/code"), "duration-mismatch");
  EXPECT_EQ(member_text(*published, "/diagnostics/0/severity"), "2");  // as configured

  // Deleted while open: the text the client sent is what is linted.
  fs::remove(file);
  Script after;
  after.initialize().open(uri, broken).change(uri, 2, kValid).shutdown();
  auto t2 = run_session(after.text());
  const json::Value* cleared = t2.last_diagnostics(uri);
  ASSERT_NE(cleared, nullptr);
  EXPECT_EQ(member_text(*cleared, "/version"), "2");
  EXPECT_TRUE(cleared->find("diagnostics")->items().empty());

  // An invalid configuration is shown, not a crash.
  std::ofstream(dir.path / ".ptmpl.json") << R"({"rules": {"no-such-rule": "off"}})";
  Script bad;
  bad.initialize().open(uri, broken).shutdown();
  auto t3 = run_session(bad.text());
  const json::Value* shown = t3.last_diagnostics(uri);
  ASSERT_NE(shown, nullptr);
  EXPECT_NE(member_text(*shown, "/diagnostics/0/message").find("no-such-rule"), std::string::npos);
}

TEST(LspDocuments, ClosingADocumentClearsItsDiagnostics) {
  std::string uri = "file:///nowhere/plan.json";
  Script script;
  script.initialize().open(uri, "not json").notify("textDocument/didClose", document_params(uri)).shutdown();
  auto t = run_session(script.text());
  const json::Value* last = t.last_diagnostics(uri);
  ASSERT_NE(last, nullptr);
  EXPECT_TRUE(last->find("diagnostics")->items().empty());
}

// Applies the single TextEdit of `edits` (an array) to `text`.
std::string apply_text_edits(std::string text, const json::Value& edits) {
  // Edits apply back to front so earlier ranges stay valid.
  auto items = edits.items();
  for (auto it = items.rbegin(); it != items.rend(); ++it) {
    TextPositions positions(text);
    auto position = [&](std::string_view pointer) {
      return Position{
          static_cast<std::uint32_t>(json::resolve_pointer(*it, std::string(pointer) + "/line")->as_int64().value()),
          static_cast<std::uint32_t>(
              json::resolve_pointer(*it, std::string(pointer) + "/character")->as_int64().value())};
    };
    std::uint64_t begin = positions.offset(position("/range/start"));
    std::uint64_t end = positions.offset(position("/range/end"));
    text.replace(begin, end - begin, it->find("newText")->text());
  }
  return text;
}

TEST(LspDocuments, CodeActionsOfferEachFixAndFixAllSafe) {
  std::string uri = "file:///nowhere/plan.json";
  // duration 9 over a 5-day span: a safe fix; "titel": an unsafe one (a key renamed).
  std::string text = R"({
  "project_template": {
    "title": "Plan",
    "raw_json": [
      {"title": "Build", "temp_id": 1, "relative_start_date": 0, "relative_due_date": 4, "duration": 9},
      {"titel": "Ship", "temp_id": 2, "relative_start_date": 5, "relative_due_date": 6, "duration": 2}
    ]
  }
}
)";
  Script script;
  script.initialize().open(uri, text);
  script.request(
      1, "textDocument/codeAction",
      document_params(
          uri,
          R"(,"range":{"start":{"line":0,"character":0},"end":{"line":9,"character":0}},"context":{"diagnostics":[]})"));
  script.request(
      2, "textDocument/codeAction",
      document_params(
          uri,
          R"(,"range":{"start":{"line":4,"character":0},"end":{"line":4,"character":200}},"context":{"diagnostics":[],"only":["quickfix"]})"));
  script.shutdown();
  auto t = run_session(script.text());
  const json::Value* all = t.response("1");
  ASSERT_NE(all, nullptr);
  auto actions = all->find("result")->items();
  std::vector<Diagnostic> findings = lint_text("/nowhere/plan.json", text);
  const json::Value* safe = nullptr;
  const json::Value* unsafe = nullptr;
  const json::Value* fix_all = nullptr;
  for (const json::Value& a : actions) {
    std::string title = member_text(a, "/title");
    if (member_text(a, "/kind") == "source.fixAll")
      fix_all = &a;
    else if (title.find("(unsafe)") != std::string::npos)
      unsafe = &a;
    else if (title.find("duration-mismatch") != std::string::npos)
      safe = &a;
  }
  ASSERT_NE(safe, nullptr) << t.bodies[static_cast<std::size_t>(t.index_of_response("1"))];
  ASSERT_NE(unsafe, nullptr);
  ASSERT_NE(fix_all, nullptr);
  EXPECT_EQ(safe->find("isPreferred")->as_bool(), true);
  EXPECT_EQ(unsafe->find("isPreferred")->as_bool(), false);
  EXPECT_EQ(member_text(*safe, "/kind"), "quickfix");
  EXPECT_EQ(member_text(*safe, "/diagnostics/0/code"), "duration-mismatch");
  EXPECT_EQ(member_text(*fix_all, "/title"), "Fix all safe problems");
  // Fix all gives what `lint --fix` gives; the quick fix, the one fix.
  auto edits_of = [&](const json::Value& action) {
    return json::resolve_pointer(action, "/edit/changes")->members()[0].value;
  };
  EXPECT_EQ(apply_text_edits(text, edits_of(*fix_all)), apply_fixes(text, findings).text);
  std::string fixed = apply_text_edits(text, edits_of(*safe));
  EXPECT_NE(fixed.find("\"duration\": 5}"), std::string::npos);
  std::string renamed = apply_text_edits(text, edits_of(*unsafe));
  EXPECT_NE(renamed.find("{\"title\": \"Ship\""), std::string::npos);

  // Only quick fixes, only on line 4: the safe one.
  auto line4 = t.response("2")->find("result")->items();
  ASSERT_EQ(line4.size(), 1u);
  EXPECT_NE(member_text(line4[0], "/title").find("duration-mismatch"), std::string::npos);
}

TEST(LspDocuments, FormattingGivesFmtsOutputAndRefusesABrokenDocument) {
  std::string uri = "file:///nowhere/plan.json";
  std::string messy = R"({"project_template":{"raw_json":[{"temp_id":1,"title":"Build"}],"title":"Plan"}})";
  Script script;
  script.initialize().open(uri, messy);
  script.request(1, "textDocument/formatting", document_params(uri, R"(,"options":{"tabSize":2,"insertSpaces":true})"));
  script.open("file:///nowhere/cut.json", "{\n  \"project_template\": {\"title\": ");
  script.request(2, "textDocument/formatting", document_params("file:///nowhere/cut.json", R"(,"options":{})"));
  script.shutdown();
  auto t = run_session(script.text());
  const json::Value* formatted = t.response("1");
  ASSERT_NE(formatted, nullptr);
  auto doc = json::Document::parse(messy);
  EXPECT_EQ(apply_text_edits(messy, *formatted->find("result")), write_canonical(doc.root(), detect_shape(doc.root())));
  const json::Value* refused = t.response("2");
  EXPECT_EQ(error_code_of(refused), -32803);
  std::string message = member_text(*refused, "/error/message");
  EXPECT_NE(message.find("cut.json:2:"), std::string::npos) << message;
  EXPECT_EQ(refused->find("result"), nullptr);
}

TEST(LspDocuments, SmallestEditCutsAtWholeCharactersAndLineEnds) {
  ByteEdit e = smallest_edit("a\xC3\xA9z", "a\xC3\xA8z");  // é → è share their first byte
  EXPECT_EQ(e.begin, 1u);
  EXPECT_EQ(e.end, 3u);
  EXPECT_EQ(e.replacement, "\xC3\xA8");
  ByteEdit crlf = smallest_edit("a\r\nb", "a\rb");
  EXPECT_EQ(std::string("a\r\nb").replace(crlf.begin, crlf.end - crlf.begin, crlf.replacement), "a\rb");
  EXPECT_NE(crlf.begin, 2u);
  ByteEdit same = smallest_edit("abc", "abc");
  EXPECT_EQ(same.begin, same.end);
  EXPECT_TRUE(same.replacement.empty());
}

TEST(LspDocuments, TheWorkspaceListsTemplatesSkippingOtherJsonAndBuildFolders) {
  TempDir dir;
  for (const char* sub : {"a", ".git", "build", "node_modules"}) fs::create_directories(dir.path / sub);
  std::ofstream(dir.path / "one.json") << kValid;
  std::ofstream(dir.path / "a" / "two.json") << "[{\"title\": \"x\", \"temp_id\": 1}]";
  std::ofstream(dir.path / "package.json") << R"({"name": "x"})";
  std::ofstream(dir.path / "broken.json") << "{";
  std::ofstream(dir.path / ".git" / "three.json") << kValid;
  std::ofstream(dir.path / "build" / "four.json") << kValid;
  std::ofstream(dir.path / "node_modules" / "five.json") << kValid;
  Workspace workspace;
  workspace.set_folders({dir.path.string()});
  auto found = workspace.templates();
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].path, (dir.path / "a" / "two.json").string());
  EXPECT_EQ(found[1].path, (dir.path / "one.json").string());
  EXPECT_EQ(found[1].uri, uri_from_path(found[1].path));
  EXPECT_EQ(found[1].text, kValid);
  // Bounded: one template at most.
  Workspace bounded(WorkspaceLimits{.max_files = 1, .max_entries = 100000, .max_file_size = 1 << 20});
  bounded.set_folders({dir.path.string()});
  EXPECT_EQ(bounded.templates().size(), 1u);
}

}  // namespace
}  // namespace ptmpl::lsp
