// Lint rules: every registered rule has a page and test data, and each rule reports exactly the
// findings worked out by hand from tests/data/rules/<id>/*.json and listed in
// tests/data/rules/<id>/expected.txt (line, column, pointer, severity, message).
//
// Conventions the expectations follow (docs/semantics.md §2, §6 and docs/rules/*.md):
//   - line and column are 1-based; the column counts Unicode code points;
//   - a finding about a value points at the value's first character; a finding about a story
//     that lacks a key points at the story's opening '{'; a duplicate key points at the
//     repeated (later) key;
//   - anything inside a raw_json string is reported at that string's opening quote in the file,
//     and syntax / duplicate-key messages start with "in the raw_json string at line L,
//     column C" (a place in the decoded text);
//   - pointers are in the story list ("/0/sub_stories/2/title"); template-level values are
//     pointed at in the file ("/project_template/title").
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "libtemplate/core/bundled.hpp"
#include "libtemplate/core/lint.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path kRoot{PTMPL_SOURCE_DIR};
const fs::path kRuleData = kRoot / "tests" / "data" / "rules";

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Every rule's id: selected, the rules that are off by default (a group's) run too.
const std::vector<std::string>& every_rule() {
  static const std::vector<std::string> ids = [] {
    std::vector<std::string> out;
    for (const ptmpl::RuleInfo& rule : ptmpl::rule_catalogue()) out.emplace_back(rule.id);
    return out;
  }();
  return ids;
}

/// Lints a file of the repository, named relative to its root (as a user would type it), with
/// every rule on.
std::vector<ptmpl::Diagnostic> lint_file(const std::string& relative, ptmpl::LintOptions options = {}) {
  if (options.select.empty()) options.select = every_rule();
  return ptmpl::lint_text(relative, read_bytes(kRoot / relative), options);
}

std::vector<ptmpl::Diagnostic> of_rule(const std::vector<ptmpl::Diagnostic>& all, std::string_view rule) {
  std::vector<ptmpl::Diagnostic> out;
  std::copy_if(all.begin(), all.end(), std::back_inserter(out),
               [&](const ptmpl::Diagnostic& d) { return d.rule == rule; });
  return out;
}

std::string repeat(std::string_view text, std::size_t times) {
  std::string out;
  for (std::size_t i = 0; i < times; ++i) out += text;
  return out;
}

std::string describe(const ptmpl::Diagnostic& d) {
  std::ostringstream out;
  out << d.path << ":" << d.line << ":" << d.column << ": " << ptmpl::to_string(d.severity) << ": " << d.message << " ["
      << d.rule << "] at \"" << d.pointer << "\"";
  return out.str();
}

std::string describe(const std::vector<ptmpl::Diagnostic>& all) {
  std::string out;
  for (const auto& d : all) out += "  " + describe(d) + "\n";
  return out.empty() ? "  (none)\n" : out;
}

/// One finding worked out by hand.
struct Expected {
  ptmpl::Severity severity;
  std::uint64_t line;
  std::uint64_t column;
  std::string pointer;
  std::string message_has;          ///< must occur in the message
  std::string message_starts = {};  ///< when set, the message must start with it
};

/// A file of tests/data/rules/<rule>/ and every finding of <rule> it must give, in order.
struct RuleCase {
  std::string rule;
  std::string file;  ///< under tests/data/rules/<rule>/
  std::vector<Expected> findings;
  ptmpl::LintOptions options = {};
};

void PrintTo(const RuleCase& c, std::ostream* os) {
  *os << c.rule << "/" << c.file;
}

std::string relative_path(const RuleCase& c) {
  return "tests/data/rules/" + c.rule + "/" + c.file;
}

constexpr auto kError = ptmpl::Severity::Error;
constexpr auto kWarning = ptmpl::Severity::Warning;

std::vector<std::string> split(std::string_view line, std::string_view separator) {
  std::vector<std::string> out;
  for (;;) {
    std::size_t cut = line.find(separator);
    std::string_view field = line.substr(0, cut);
    while (!field.empty() && field.front() == ' ') field.remove_prefix(1);
    while (!field.empty() && field.back() == ' ') field.remove_suffix(1);
    out.emplace_back(field);
    if (cut == std::string_view::npos) return out;
    line.remove_prefix(cut + separator.size());
  }
}

// tests/data/rules/<rule>/expected.txt: every finding of <rule> in each of its files, counted
// by hand, one per line, in output order:
//   file [--max-depth N] | severity | line:column | pointer | message contains [| message starts with]
// Lines starting with '#' explain how each place was counted.
std::vector<RuleCase> read_expected(const std::string& rule) {
  std::vector<RuleCase> cases;
  std::ifstream in(kRuleData / rule / "expected.txt");
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f = split(line, " | ");
    if (f.size() < 5 || f.size() > 6) {
      ADD_FAILURE() << rule << "/expected.txt:" << number << ": expected 5 or 6 fields";
      continue;
    }
    std::vector<std::string> file = split(f[0], " ");
    ptmpl::LintOptions options;
    if (file.size() == 3 && file[1] == "--max-depth")
      options.max_depth = static_cast<std::uint32_t>(std::stoul(file[2]));
    Expected e{f[1] == "error"     ? kError
               : f[1] == "warning" ? kWarning
                                   : ptmpl::Severity::Info,
               0,
               0,
               f[3],
               f[4],
               f.size() == 6 ? f[5] : std::string()};
    std::vector<std::string> place = split(f[2], ":");
    e.line = std::stoull(place.at(0));
    e.column = std::stoull(place.at(1));
    if (cases.empty() || cases.back().file != file[0]) cases.push_back({rule, file[0], {}, options});
    cases.back().findings.push_back(e);
  }
  return cases;
}

const std::vector<RuleCase>& rule_cases() {
  static const std::vector<RuleCase> cases = [] {
    std::vector<RuleCase> all;
    for (const ptmpl::RuleInfo& rule : ptmpl::rule_catalogue())
      for (RuleCase& c : read_expected(std::string(rule.id))) all.push_back(std::move(c));
    return all;
  }();
  return cases;
}

std::string case_name(const testing::TestParamInfo<RuleCase>& info) {
  std::string name = info.param.rule + "_" + info.param.file;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

// ---------------------------------------------------------------------------------------------
// Each rule reports exactly the findings worked out by hand.

class RuleFindings : public testing::TestWithParam<RuleCase> {};

TEST_P(RuleFindings, ExactFindingsOfTheRule) {
  const RuleCase& c = GetParam();
  const std::string path = relative_path(c);
  const std::vector<ptmpl::Diagnostic> all = lint_file(path, c.options);
  const std::vector<ptmpl::Diagnostic> found = of_rule(all, c.rule);

  ASSERT_EQ(found.size(), c.findings.size()) << "findings of " << c.rule << " in " << path << ":\n" << describe(found);
  for (std::size_t i = 0; i < found.size(); ++i) {
    const ptmpl::Diagnostic& d = found[i];
    const Expected& e = c.findings[i];
    SCOPED_TRACE("finding " + std::to_string(i) + ": " + describe(d));
    EXPECT_EQ(d.rule, c.rule);
    EXPECT_EQ(d.path, path);
    EXPECT_EQ(d.severity, e.severity);
    EXPECT_EQ(d.line, e.line);
    EXPECT_EQ(d.column, e.column);
    EXPECT_EQ(d.pointer, e.pointer);
    EXPECT_NE(d.message.find(e.message_has), std::string::npos) << "expected in the message: " << e.message_has;
    if (!e.message_starts.empty()) {
      EXPECT_TRUE(d.message.starts_with(e.message_starts))
          << "expected the message to start with: " << e.message_starts;
    }
  }
}

TEST_P(RuleFindings, FindingsAreSorted) {
  const RuleCase& c = GetParam();
  const std::vector<ptmpl::Diagnostic> all = lint_file(relative_path(c), c.options);
  EXPECT_TRUE(std::is_sorted(all.begin(), all.end())) << describe(all);
}

INSTANTIATE_TEST_SUITE_P(LintRules, RuleFindings, testing::ValuesIn(rule_cases()), case_name);

// ---------------------------------------------------------------------------------------------
// pass.json: near-identical to fail.json, without the defect.

std::vector<std::string> registered_ids() {
  std::vector<std::string> ids;
  for (const ptmpl::RuleInfo& rule : ptmpl::rule_catalogue()) ids.emplace_back(rule.id);
  return ids;
}

class RulePass : public testing::TestWithParam<std::string> {};

TEST_P(RulePass, PassFileHasNoFindingOfTheRule) {
  const std::string& id = GetParam();
  const std::string path = "tests/data/rules/" + id + "/pass.json";
  ASSERT_TRUE(fs::is_regular_file(kRoot / path)) << path;
  const std::vector<ptmpl::Diagnostic> all = lint_file(path);
  EXPECT_TRUE(of_rule(all, id).empty()) << describe(of_rule(all, id));
  // The pass files are valid templates: nothing may stop the other rules from reading them.
  EXPECT_TRUE(of_rule(all, "json-syntax").empty()) << describe(all);
}

INSTANTIATE_TEST_SUITE_P(LintRules, RulePass, testing::ValuesIn(registered_ids()),
                         [](const testing::TestParamInfo<std::string>& rule_info) {
                           std::string name = rule_info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// ---------------------------------------------------------------------------------------------
// Registry completeness: a rule without a page or without tests fails the build.

TEST(RuleRegistry, EveryRuleHasAPageAndTestData) {
  ASSERT_FALSE(ptmpl::rule_catalogue().empty());
  std::set<std::string> with_cases;
  for (const RuleCase& c : rule_cases()) with_cases.insert(c.rule);

  for (const ptmpl::RuleInfo& rule : ptmpl::rule_catalogue()) {
    const std::string id(rule.id);
    SCOPED_TRACE("rule " + id);
    // (a) the page, on disk and built in.
    const fs::path page = kRoot / "docs" / "rules" / (id + ".md");
    EXPECT_TRUE(fs::is_regular_file(page)) << "missing " << page;
    const std::optional<std::string_view> doc = ptmpl::rule_documentation(id);
    ASSERT_TRUE(doc.has_value()) << "rule_documentation(\"" << id << "\") has no page";
    EXPECT_FALSE(doc->empty());
    EXPECT_NE(doc->find(id), std::string_view::npos) << "the page does not name its rule";
    EXPECT_NE(doc->find("`" + std::string(ptmpl::to_string(rule.severity)) + "`"), std::string_view::npos)
        << "the page does not give the default severity " << ptmpl::to_string(rule.severity);
    if (fs::is_regular_file(page)) {
      EXPECT_EQ(read_bytes(page), *doc) << "the built-in page is out of date";
    }
    EXPECT_FALSE(rule.summary.empty());

    // (b) the test data.
    const fs::path dir = kRuleData / id;
    EXPECT_TRUE(fs::is_regular_file(dir / "fail.json")) << "missing " << dir / "fail.json";
    EXPECT_TRUE(fs::is_regular_file(dir / "pass.json")) << "missing " << dir / "pass.json";

    // (c) fail.json triggers the rule.
    if (fs::is_regular_file(dir / "fail.json")) {
      const auto found = of_rule(lint_file("tests/data/rules/" + id + "/fail.json"), id);
      EXPECT_FALSE(found.empty()) << "fail.json does not trigger " << id;
    }
    // And expected.txt lists its exact findings.
    EXPECT_TRUE(with_cases.contains(id)) << "no expected findings for " << id << " in " << (dir / "expected.txt");
  }
}

TEST(RuleRegistry, EveryPageAndDataDirectoryBelongsToARule) {
  for (const auto& entry : fs::directory_iterator(kRoot / "docs" / "rules")) {
    if (entry.path().extension() != ".md") continue;
    EXPECT_NE(ptmpl::find_rule(entry.path().stem().string()), nullptr)
        << entry.path() << " documents a rule that is not registered";
  }
  for (const auto& entry : fs::directory_iterator(kRuleData)) {
    if (!entry.is_directory()) continue;
    EXPECT_NE(ptmpl::find_rule(entry.path().filename().string()), nullptr)
        << entry.path() << " holds test data for a rule that is not registered";
  }
}

TEST(RuleRegistry, CatalogueIsSortedByIdWithoutDuplicates) {
  const auto catalogue = ptmpl::rule_catalogue();
  for (std::size_t i = 1; i < catalogue.size(); ++i) EXPECT_LT(catalogue[i - 1].id, catalogue[i].id) << "at " << i;
  for (const ptmpl::RuleInfo& rule : catalogue) {
    // Stable kebab-case ids (docs/semantics.md §6).
    EXPECT_FALSE(rule.id.empty());
    EXPECT_TRUE(std::all_of(rule.id.begin(), rule.id.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    })) << rule.id;
    EXPECT_NE(rule.id.front(), '-');
    EXPECT_NE(rule.id.back(), '-');
    EXPECT_EQ(rule.id.find("--"), std::string_view::npos) << rule.id;
    const ptmpl::RuleInfo* found = ptmpl::find_rule(rule.id);
    ASSERT_NE(found, nullptr) << rule.id;
    EXPECT_EQ(found->id, rule.id);
  }
  EXPECT_EQ(ptmpl::find_rule("no-such-rule"), nullptr);
}

TEST(RuleRegistry, DefaultSeverities) {
  const std::vector<std::pair<std::string_view, ptmpl::Severity>> expected = {
      {"duplicate-key", kWarning}, {"json-syntax", kError},        {"nesting-depth", kWarning},
      {"schema", kError},          {"story-type-invalid", kError}, {"temp-id-duplicate", kError},
      {"temp-id-missing", kError}, {"title-missing", kError},
  };
  for (const auto& [id, severity] : expected) {
    const ptmpl::RuleInfo* rule = ptmpl::find_rule(id);
    ASSERT_NE(rule, nullptr) << id;
    EXPECT_EQ(rule->severity, severity) << id;
  }
}

// ---------------------------------------------------------------------------------------------
// Rule-specific behaviour.

TEST(LintJsonSyntax, NoOtherRuleRunsOnAFileThatDoesNotParse) {
  for (const char* file : {"tests/data/rules/json-syntax/fail.json", "tests/data/rules/json-syntax/fail-utf8.json"}) {
    const auto all = lint_file(file);
    ASSERT_EQ(all.size(), 1u) << file << ":\n" << describe(all);
    EXPECT_EQ(all[0].rule, "json-syntax");
  }
}

TEST(LintJsonSyntax, InvalidUtf8IsReportedWhereTheByteIs) {
  // The data file must really hold a raw 0xFF byte, right after "Café opening ".
  const std::string bytes = read_bytes(kRuleData / "json-syntax" / "fail-utf8.json");
  const std::size_t at = bytes.find('\xFF');
  ASSERT_NE(at, std::string::npos);
  EXPECT_EQ(bytes.substr(at - 15, 15), "\"Caf\xC3\xA9 opening ");

  const auto found = of_rule(lint_file("tests/data/rules/json-syntax/fail-utf8.json"), "json-syntax");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].line, 2u);
  EXPECT_EQ(found[0].column, 27u);  // code points, not bytes (28)
}

TEST(LintTempIdMissing, ErrorWithDependenciesWarningWithout) {
  // docs/rules/temp-id-missing.md, "Example that triggers it".
  const std::string text =
      "[\n"
      "  {\"title\": \"Design\",\n"
      "   \"dependencies\": [{\"source_id\": 1, \"target_id\": 2, \"type\": 2, \"lag\": 0}]},\n"
      "  {\"title\": \"Build\", \"temp_id\": 2},\n"
      "  {\"title\": \"Retrospective\"}\n"
      "]\n";
  const auto found = of_rule(ptmpl::lint_text("example.json", text), "temp-id-missing");
  ASSERT_EQ(found.size(), 2u) << describe(found);
  EXPECT_EQ(found[0].pointer, "/0");
  EXPECT_EQ(found[0].severity, kError);
  EXPECT_EQ(found[0].line, 2u);
  EXPECT_EQ(found[0].column, 3u);
  EXPECT_EQ(found[1].pointer, "/2");
  EXPECT_EQ(found[1].severity, kWarning);
  EXPECT_EQ(found[1].line, 5u);
  EXPECT_EQ(found[1].column, 3u);

  // The same story with a temp_id is not reported at all.
  const auto fixed =
      ptmpl::lint_text("example.json",
                       "[{\"title\": \"Design\", \"temp_id\": 1,"
                       " \"dependencies\": [{\"source_id\": 1, \"target_id\": 2, \"type\": 2, \"lag\": 0}]},"
                       " {\"title\": \"Build\", \"temp_id\": 2}]");
  EXPECT_TRUE(of_rule(fixed, "temp-id-missing").empty()) << describe(fixed);
}

TEST(LintNestingDepth, BoundIsConfigurable) {
  const std::string path = "tests/data/rules/nesting-depth/depth-12.json";
  // 12 levels: reported with a bound of 10 or 11, not with 12 or the default 256.
  EXPECT_EQ(of_rule(lint_file(path, {.max_depth = 10}), "nesting-depth").size(), 1u);
  const auto at_11 = of_rule(lint_file(path, {.max_depth = 11}), "nesting-depth");
  ASSERT_EQ(at_11.size(), 1u);
  EXPECT_EQ(at_11[0].line, 2u);
  EXPECT_EQ(at_11[0].column, 56u);
  EXPECT_EQ(at_11[0].pointer, "/0/grid" + repeat("/0", 9));
  EXPECT_TRUE(of_rule(lint_file(path, {.max_depth = 12}), "nesting-depth").empty());
  EXPECT_TRUE(of_rule(lint_file(path), "nesting-depth").empty());
  // Nothing else is wrong with the file but its undocumented key (an unknown-field info).
  for (const ptmpl::Diagnostic& d : lint_file(path)) EXPECT_EQ(d.rule, "unknown-field") << describe(d);
}

TEST(LintNestingDepth, DeepFileIsReadAboveTheBound) {
  const auto all = lint_file("tests/data/rules/nesting-depth/fail.json");
  EXPECT_EQ(of_rule(all, "nesting-depth").size(), 1u);
  EXPECT_TRUE(of_rule(all, "json-syntax").empty());
  const auto with_higher_bound = lint_file("tests/data/rules/nesting-depth/fail.json", {.max_depth = 400});
  EXPECT_TRUE(of_rule(with_higher_bound, "nesting-depth").empty()) << describe(with_higher_bound);

  // The value below the bound is cut, but the stories after it are still read and linted:
  // the story on line 3 (its '{' at column 3) has no temp_id.
  const std::string text = "[\n  {\"title\": \"Deep\", \"temp_id\": 1, \"x\": " + repeat("[", 300) + repeat("]", 300) +
                           "},\n  {\"title\": \"After the deep value\"}\n]\n";
  std::vector<ptmpl::Diagnostic> found = ptmpl::lint_text("deep.json", text);
  std::erase_if(found, [](const ptmpl::Diagnostic& d) { return d.rule == "unknown-field"; });  // the key "x"
  ASSERT_EQ(found.size(), 2u) << describe(found);
  EXPECT_EQ(found[0].rule, "nesting-depth");
  EXPECT_EQ(found[0].line, 2u);
  EXPECT_EQ(found[1].rule, "temp-id-missing");
  EXPECT_EQ(found[1].pointer, "/1");
  EXPECT_EQ(found[1].line, 3u);
  EXPECT_EQ(found[1].column, 3u);
}

// ---------------------------------------------------------------------------------------------
// samples/lint-demo-broken.json: every finding, checked by hand against the file.

TEST(LintDemo, ExactFindings) {
  struct Row {
    std::string rule;
    ptmpl::Severity severity;
    std::uint64_t line, column;
    std::string pointer;
  };
  // 50:25  "duration": "5"                          value of /0/sub_stories/1/duration
  // 68:11  '{' of the story without a title         /0/sub_stories/2
  // 87:13  the second "title" key                   /0/sub_stories/3/title
  // 108:22 "title": "   "                           /0/sub_stories/4/title
  // 151:27 "story_type": "epic"                     /1/sub_stories/0/story_type
  // 169:11 '{' of "Send pre-read pack…" (has deps)  /1/sub_stories/1
  // 213:24 "temp_id": 10 (first on line 126)        /1/sub_stories/3/temp_id
  // 226:11 '{' of "Update the account plan"         /1/sub_stories/4
  const std::vector<Row> expected = {
      {"schema", kError, 50, 25, "/0/sub_stories/1/duration"},
      {"title-missing", kError, 68, 11, "/0/sub_stories/2"},
      {"duplicate-key", kWarning, 87, 13, "/0/sub_stories/3/title"},
      {"title-missing", kError, 108, 22, "/0/sub_stories/4/title"},
      {"story-type-invalid", kError, 151, 27, "/1/sub_stories/0/story_type"},
      {"temp-id-missing", kError, 169, 11, "/1/sub_stories/1"},
      {"temp-id-duplicate", kError, 213, 24, "/1/sub_stories/3/temp_id"},
      {"temp-id-missing", kWarning, 226, 11, "/1/sub_stories/4"},
  };
  // As `ptmpl lint` shows it: the default rules (schedule-health is off until selected).
  const auto found =
      ptmpl::lint_text("samples/lint-demo-broken.json", read_bytes(kRoot / "samples/lint-demo-broken.json"), {});
  ASSERT_EQ(found.size(), expected.size()) << describe(found);
  for (std::size_t i = 0; i < expected.size(); ++i) {
    SCOPED_TRACE("finding " + std::to_string(i) + ": " + describe(found[i]));
    EXPECT_EQ(found[i].rule, expected[i].rule);
    EXPECT_EQ(found[i].severity, expected[i].severity);
    EXPECT_EQ(found[i].line, expected[i].line);
    EXPECT_EQ(found[i].column, expected[i].column);
    EXPECT_EQ(found[i].pointer, expected[i].pointer);
  }
  // Both places of the duplicate temp_id are named.
  const auto duplicate = of_rule(found, "temp-id-duplicate");
  ASSERT_EQ(duplicate.size(), 1u);
  EXPECT_NE(duplicate[0].message.find("first defined at line 126"), std::string::npos) << duplicate[0].message;
  const auto key = of_rule(found, "duplicate-key");
  ASSERT_EQ(key.size(), 1u);
  EXPECT_NE(key[0].message.find("first at line 86"), std::string::npos) << key[0].message;
}

}  // namespace

namespace {

// ---------------------------------------------------------------------------------------------
// Safe and unsafe fixes (docs/semantics.md §6): the rule decides, its page says so, its findings carry it.

TEST(RuleRegistry, EveryPageSaysWhichKindItsFixIs) {
  for (const ptmpl::RuleInfo& rule : ptmpl::rule_catalogue()) {
    const std::string id(rule.id);
    SCOPED_TRACE("rule " + id);
    const std::optional<std::string_view> doc = ptmpl::rule_documentation(id);
    ASSERT_TRUE(doc.has_value());
    const bool says_safe = doc->find("Fix: **safe**") != std::string_view::npos;
    const bool says_unsafe = doc->find("Fix: **unsafe**") != std::string_view::npos;
    EXPECT_EQ(says_safe, rule.fix == ptmpl::FixKind::Safe) << "the page and the table disagree";
    EXPECT_EQ(says_unsafe, rule.fix == ptmpl::FixKind::Unsafe) << "the page and the table disagree";
    // Every fix a finding of the rule carries is of the rule's kind.
    for (const auto& entry : fs::directory_iterator(kRuleData / id)) {
      if (entry.path().extension() != ".json") continue;
      for (const ptmpl::Diagnostic& d :
           of_rule(lint_file("tests/data/rules/" + id + "/" + entry.path().filename().string()), id)) {
        if (!d.fix) continue;
        EXPECT_NE(rule.fix, ptmpl::FixKind::None) << describe(d);
        EXPECT_EQ(d.fix->unsafe, rule.fix == ptmpl::FixKind::Unsafe) << describe(d);
      }
    }
  }
  EXPECT_EQ(ptmpl::find_rule("duration-mismatch")->fix, ptmpl::FixKind::Safe);
  EXPECT_EQ(ptmpl::find_rule("tag-list-format")->fix, ptmpl::FixKind::Safe);
  EXPECT_EQ(ptmpl::find_rule("template-item-count-mismatch")->fix, ptmpl::FixKind::Safe);
  EXPECT_EQ(ptmpl::find_rule("template-budget-mismatch")->fix, ptmpl::FixKind::Unsafe);
  EXPECT_EQ(ptmpl::find_rule("template-duration-mismatch")->fix, ptmpl::FixKind::Unsafe);
  EXPECT_EQ(ptmpl::find_rule("key-misspelt")->fix, ptmpl::FixKind::Unsafe);
}

// ---------------------------------------------------------------------------------------------
// key-misspelt: the fix renames the key, and only when that leaves no duplicate.

std::string with_fixes(std::string text, const std::vector<ptmpl::Diagnostic>& found) {
  // From the end, so earlier offsets stay valid.
  for (auto it = found.rbegin(); it != found.rend(); ++it)
    if (it->fix) text.replace(it->fix->offset, it->fix->length, it->fix->replacement);
  return text;
}

TEST(KeyMisspelt, FixRenamesTheKeyAndTheContentIsRead) {
  const std::string text = R"([{"title": "Launch", "temp_id": 1, "sub_storys": [{"title": "Copy", "temp_id": 2}]}])";
  const auto found = of_rule(ptmpl::lint_text("t.json", text), "key-misspelt");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, ptmpl::Severity::Error);
  EXPECT_NE(found[0].message.find(R"(did you mean "sub_stories"?)"), std::string::npos) << found[0].message;
  ASSERT_TRUE(found[0].fix.has_value());
  EXPECT_TRUE(found[0].fix->unsafe);
  const std::string fixed = with_fixes(text, found);
  EXPECT_EQ(fixed, R"([{"title": "Launch", "temp_id": 1, "sub_stories": [{"title": "Copy", "temp_id": 2}]}])");
  EXPECT_TRUE(ptmpl::lint_text("t.json", fixed).empty()) << describe(ptmpl::lint_text("t.json", fixed));
}

TEST(KeyMisspelt, NoRenameWhenTheDocumentedKeyIsAlsoWritten) {
  const std::string text = R"([{"title": "Launch", "temp_id": 1, "tempId": 2}])";
  const auto found = of_rule(ptmpl::lint_text("t.json", text), "key-misspelt");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_FALSE(found[0].fix.has_value());
  EXPECT_NE(found[0].message.find("is also written in this object, so no fix renames the key"), std::string::npos);
}

TEST(KeyMisspelt, TemplateKeysAreRenamedEvenWhenRawJsonIsAString) {
  const std::string text =
      R"({"project_template": {"title": "T", "curency": "EUR", "raw_json": "[{\"title\": \"A\", \"tempID\": 1}]"}})";
  const auto found = of_rule(ptmpl::lint_text("t.json", text), "key-misspelt");
  ASSERT_EQ(found.size(), 2u) << describe(found);
  EXPECT_EQ(found[0].pointer, "/project_template/curency");
  ASSERT_TRUE(found[0].fix.has_value()) << "a key of the file itself";
  EXPECT_EQ(found[0].fix->replacement, "\"currency\"");
  EXPECT_EQ(found[1].pointer, "/0/tempID");
  EXPECT_FALSE(found[1].fix.has_value()) << "inside a raw_json string: escaped text";
}

TEST(KeyMisspelt, KeysNearNoDocumentedKeyStayUnknownFieldInfo) {
  const auto all = ptmpl::lint_text("t.json", R"([{"title": "A", "temp_id": 1, "notes": "x", "endDay": 3}])");
  EXPECT_TRUE(of_rule(all, "key-misspelt").empty()) << describe(all);
  const auto unknown = of_rule(all, "unknown-field");
  ASSERT_EQ(unknown.size(), 2u);
  for (const auto& d : unknown) {
    EXPECT_EQ(d.severity, ptmpl::Severity::Info);
    EXPECT_FALSE(d.fix.has_value());
  }
}

TEST(KeyMisspelt, ADocumentedKeyWithOneWordDroppedAddedOrSwapped) {
  // Words are the parts between '_': `in` dropped, `date` dropped, two words swapped, `day` added.
  const std::string text =
      R"([{"title": "A", "temp_id": 1, "time_estimate_minutes": 60}, {"title": "B", "temp_id": 2, "relative_start": 1},)"
      R"( {"title": "C", "temp_id": 3, "start_relative_date": 1}, {"title": "D", "temp_id": 4, "relative_due_date_day": 2}])";
  const auto all = ptmpl::lint_text("t.json", text);
  const auto found = of_rule(all, "key-misspelt");
  ASSERT_EQ(found.size(), 4u) << describe(all);
  const std::pair<std::string_view, std::string_view> expected[] = {
      {"/0/time_estimate_minutes", "time_estimate_in_minutes"},
      {"/1/relative_start", "relative_start_date"},
      {"/2/start_relative_date", "relative_start_date"},
      {"/3/relative_due_date_day", "relative_due_date"}};
  for (std::size_t i = 0; i < found.size(); ++i) {
    EXPECT_EQ(found[i].pointer, expected[i].first);
    EXPECT_EQ(found[i].severity, ptmpl::Severity::Error);
    EXPECT_NE(found[i].message.find("did you mean \"" + std::string(expected[i].second) + "\"?"), std::string::npos)
        << found[i].message;
    ASSERT_TRUE(found[i].fix.has_value());
    EXPECT_EQ(found[i].fix->replacement, "\"" + std::string(expected[i].second) + "\"");
  }
  EXPECT_TRUE(of_rule(all, "unknown-field").empty()) << describe(all);
}

TEST(KeyMisspelt, WordsAwayFromNoOneDocumentedKeyStayUnknownField) {
  // `relative_date` drops a word of both relative_start_date and relative_due_date (no single
  // key it means); `story_title` and `sub` share one word at most with `title`, `sub_stories`;
  // `start_date` and `due_date` (dates, as `schedule --start` writes them) drop the first word.
  const auto all = ptmpl::lint_text("t.json", R"([{"title": "A", "temp_id": 1, "relative_date": 1, "story_title": "x",)"
                                              R"( "sub": 2, "start_date": "2027-03-01", "due_date": "2027-03-05"}])");
  EXPECT_TRUE(of_rule(all, "key-misspelt").empty()) << describe(all);
  EXPECT_EQ(of_rule(all, "unknown-field").size(), 5u) << describe(all);
}

// ---------------------------------------------------------------------------------------------
// project_template_assignments inside project_template (docs/semantics.md §2).

TEST(AssignmentsInsideTheTemplate, ReadAsTheListBesideIt) {
  const auto all = lint_file("tests/data/rules/assignment-unknown/fail-inside.json");
  EXPECT_EQ(of_rule(all, "assignment-unknown").size(), 1u) << describe(all);
  EXPECT_TRUE(of_rule(all, "unknown-field").empty()) << "a documented key of project_template\n" << describe(all);
  EXPECT_TRUE(of_rule(all, "key-misspelt").empty()) << describe(all);
  EXPECT_TRUE(of_rule(all, "assignment-list-twice").empty()) << describe(all);
}

TEST(AssignmentsInsideTheTemplate, BothListsAreReadWhenBothAreWritten) {
  const auto all = lint_file("tests/data/rules/assignment-list-twice/fail.json");
  EXPECT_EQ(of_rule(all, "assignment-list-twice").size(), 1u) << describe(all);
  EXPECT_TRUE(of_rule(all, "assignment-unknown").empty()) << "100 is listed inside, 200 beside\n" << describe(all);
}

}  // namespace
