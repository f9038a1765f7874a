// ReadOptions::release_text: a large file keeps its tree and model, not its bytes; whatever
// asks for the bytes later gets them read again, and a file changed meanwhile is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "libtemplate/core/generator.hpp"
#include "libtemplate/core/lint.hpp"
#include "libtemplate/core/template_file.hpp"

namespace ptmpl::release_text_test {
namespace {

// Replaces the first `from` after `after` in `text` by `to` (the test's own edits must take).
void replace_first(std::string& text, std::string_view after, std::string_view from, std::string_view to) {
  const std::size_t at = text.find(from, text.find(after));
  if (at == std::string::npos) throw std::logic_error("no " + std::string(from) + " in the generated template");
  text.replace(at, from.size(), to);
}

// A generated template past 1 MiB with findings of several kinds, and values the reader does
// not keep as the text's own bytes: escapes in strings and keys, non-ASCII text (columns count
// code points), a key written twice, numbers spelled with a fraction and an exponent, a string
// longer than those stored once.
std::string template_with_findings() {
  GenerateOptions options;
  options.stories = 2000;  // about 1.3 MiB
  std::string text = generate_template(options).value();
  replace_first(text, "\"raw_json\"", "\"title\": \"", "\"title\": \" \", \"bogus_key\": 1e3, \"old_title\": \"");
  replace_first(text, "\"raw_json\"", "\"relative_due_date\": ", "\"relative_due_date\": \"x\", \"was_due\": ");
  replace_first(text, "", "\"description\": \"",
                "\"description\": \"Z\u00fcrich \\u00e9t\\u00e9 \\n\", \"d\\u0065scription\": \"");
  replace_first(text, "", "\"budget\": ", "\"budget\": 1.5e2, \"budget\": ");
  replace_first(text, "\"raw_json\"", "\"checklist\": [",
                "\"notes\": \"" + std::string(100, 'n') + "\", \"checklist\": [");
  return text;
}

class ReleaseText : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) / ("ptmpl-release-text-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    text_ = template_with_findings();
    ASSERT_GE(text_.size(), std::size_t{1} << 20);
    path_ = write("big.json", text_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& content) {
    std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << content;
    return path;
  }

  static ReadOptions releasing() {
    ReadOptions options;
    options.release_text = true;
    return options;
  }

  std::filesystem::path dir_;
  std::string text_;
  std::string path_;
};

// Both trees alike, value by value: kind, offset, text of scalars, members and items.
void expect_same_tree(const json::Value& root_a, const json::Value& root_b, std::size_t at_least = 10000) {
  std::vector<std::pair<const json::Value*, const json::Value*>> stack{{&root_a, &root_b}};
  std::size_t compared = 0;
  while (!stack.empty()) {
    auto [a, b] = stack.back();
    stack.pop_back();
    ++compared;
    ASSERT_EQ(a->kind(), b->kind());
    ASSERT_EQ(a->offset(), b->offset());
    ASSERT_EQ(a->text(), b->text()) << "at offset " << a->offset();
    ASSERT_EQ(a->unique_keys(), b->unique_keys());
    ASSERT_EQ(a->items().size(), b->items().size());
    ASSERT_EQ(a->members().size(), b->members().size());
    for (std::size_t i = 0; i < a->items().size(); ++i) stack.emplace_back(&a->items()[i], &b->items()[i]);
    for (std::size_t i = 0; i < a->members().size(); ++i) {
      const json::Member& ma = a->members()[i];
      const json::Member& mb = b->members()[i];
      ASSERT_EQ(ma.key.text(), mb.key.text());
      ASSERT_EQ(ma.key.offset(), mb.key.offset());
      stack.emplace_back(&ma.value, &mb.value);
    }
  }
  EXPECT_GT(compared, at_least);
}

TEST(DetachText, EverySizeOfTextMovesWithinItsOwnBytes) {
  // Strings of every size from 0 to 70 bytes, each twice and once as a key, with numbers and
  // escapes between them and no whitespace: the store runs right behind what it reads.
  std::string text = "[";
  for (std::size_t n = 0; n <= 70; ++n) {
    std::string s;
    for (std::size_t k = 0; k < n; ++k) s += static_cast<char>('a' + (n * 7 + k * 3) % 26);
    text += "\"" + s + "\",{\"" + s + "\":" + std::to_string(n * 1000003) + "},\"" + s + "\\n\",\"" + s + "\",-1.5e" +
            std::to_string(n) + ",";
  }
  text += "true]";
  std::string bytes = text;  // the document's own bytes, moved within
  json::Document detached = json::Document::parse(bytes);
  ASSERT_TRUE(detached.ok());
  const json::Document kept = json::Document::parse(text);
  bool asked = false;
  const std::size_t used = detached.detach_text(bytes.data(), [&] {
    asked = true;
    return std::pair<std::shared_ptr<const void>, std::string_view>(nullptr, text);
  });
  EXPECT_LT(used, text.size() * 2 / 3);  // no quotes, commas or braces; short texts once
  std::fill(bytes.begin() + static_cast<std::ptrdiff_t>(used), bytes.end(), '#');  // what the caller gives back
  expect_same_tree(detached.root(), kept.root(), 300);
  EXPECT_FALSE(asked) << "the tree needs no text";
  EXPECT_EQ(detached.position(text.find("true")).column, text.find("true") + 1);
  EXPECT_TRUE(asked);
}

TEST_F(ReleaseText, TheTreeIsTheSameWithoutTheBytes) {
  TemplateFile released = TemplateFile::read(path_, releasing()).value();
  ASSERT_TRUE(released.text_released());
  const TemplateFile kept = TemplateFile::parse(path_, FileText::borrow(text_));
  ASSERT_FALSE(kept.text_released());
  expect_same_tree(released.document().root(), kept.document().root());

  // The model too: a story's strings and numbers, read from the tree's new place.
  const auto& a = released.templates().at(0).model.stories;
  const auto& b = kept.templates().at(0).model.stories;
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].title, b[i].title);
    EXPECT_EQ(a[i].relative_start_date, b[i].relative_start_date);
    EXPECT_EQ(a[i].checklist.has_value(), b[i].checklist.has_value());
  }
}

TEST_F(ReleaseText, ShortTextsWrittenManyTimesAreStoredOnce) {
  TemplateFile released = TemplateFile::read(path_, releasing()).value();
  const auto& stories = released.templates().at(0).model.stories;
  ASSERT_GE(stories.size(), 2u);
  auto title_key = [](const Story& s) { return s.origin.node.members()[1].key; };
  ASSERT_EQ(title_key(stories[0]).text(), "title");
  EXPECT_EQ(title_key(stories[0]).text().data(), title_key(stories[1]).text().data());
}

TEST_F(ReleaseText, TheBytesComeBackForPositionsAndTheyAreTheFilesOwn) {
  TemplateFile released = TemplateFile::read(path_, releasing()).value();
  const TemplateFile kept = TemplateFile::parse(path_, FileText::borrow(text_));
  EXPECT_EQ(released.text(), text_);
  EXPECT_EQ(released.document().text(), text_);
  const std::size_t at = text_.find("Z\u00fcrich");
  EXPECT_EQ(released.document().position(at + 8).column, kept.document().position(at + 8).column);
  EXPECT_EQ(released.document().position(at + 8).line, kept.document().position(at + 8).line);
}

TEST_F(ReleaseText, LintFindsTheSameWithTheBytesLetGo) {
  // lint_files lets a large file's bytes go; lint_texts of the same bytes keeps them.
  LintRun from_file = lint_files({path_});
  const std::string_view bytes = text_;
  LintRun from_text = lint_texts({path_}, {&bytes, 1});
  ASSERT_FALSE(from_file.has_errors()) << from_file.files.front().error->message;
  ASSERT_EQ(from_file.diagnostics.size(), from_text.diagnostics.size());
  ASSERT_GE(from_file.diagnostics.size(), 4u);
  std::vector<std::string> rules;
  for (std::size_t i = 0; i < from_file.diagnostics.size(); ++i) {
    const Diagnostic& a = from_file.diagnostics[i];
    const Diagnostic& b = from_text.diagnostics[i];
    EXPECT_EQ(a.rule, b.rule);
    EXPECT_EQ(a.message, b.message);
    EXPECT_EQ(a.line, b.line);
    EXPECT_EQ(a.column, b.column);
    EXPECT_EQ(a.pointer, b.pointer);
    EXPECT_EQ(a.excerpt, b.excerpt);
    EXPECT_EQ(a.excerpt_column, b.excerpt_column);
    ASSERT_EQ(a.fix.has_value(), b.fix.has_value()) << a.rule;
    if (a.fix) {
      EXPECT_EQ(a.fix->offset, b.fix->offset);
      EXPECT_EQ(a.fix->length, b.fix->length);
      EXPECT_EQ(a.fix->replacement, b.fix->replacement);
    }
    rules.push_back(a.rule);
  }
  for (const char* rule : {"title-missing", "unknown-field", "schema", "duplicate-key"})
    EXPECT_NE(std::find(rules.begin(), rules.end(), rule), rules.end()) << rule;
}

TEST_F(ReleaseText, AFileChangedBeforeItsBytesAreReadAgainIsRefused) {
  TemplateFile released = TemplateFile::read(path_, releasing()).value();
  std::string changed = text_;
  changed[changed.find("Check item 1")] = 'c';  // the same size, one byte changed
  write("big.json", changed);
  try {
    (void)released.document().position(10);
    FAIL() << "a changed file gave positions";
  } catch (const Failure& e) {
    EXPECT_EQ(e.error().code, ErrorCode::kConflict);
    EXPECT_NE(e.error().message.find(path_ + ": changed while ptmpl was reading it"), std::string::npos)
        << e.error().message;
  }
  // Asked again (another rule, another thread): refused again, never another file's bytes.
  EXPECT_THROW((void)released.text(), Failure);

  TemplateFile gone = TemplateFile::read(path_, releasing()).value();
  std::filesystem::remove(path_);
  try {
    (void)gone.text();
    FAIL() << "a removed file gave bytes";
  } catch (const Failure& e) {
    EXPECT_EQ(e.error().code, ErrorCode::kNotFound) << e.error().message;
  }
}

TEST_F(ReleaseText, ASmallFileLetsGoToo) {
  // Its strings are copied into the tree's arena (a large file's move within its own pages).
  std::string small = generate_template({}).value();
  small.insert(small.find("\"title\": \"", small.find("raw_json")) + 10, "\u00e9 ");
  ASSERT_LT(small.size(), std::size_t{1} << 20);
  const std::string path = write("small.json", small);
  TemplateFile released = TemplateFile::read(path, releasing()).value();
  EXPECT_TRUE(released.text_released());
  const TemplateFile kept = TemplateFile::parse(path, FileText::borrow(small));
  expect_same_tree(released.document().root(), kept.document().root(), 500);
  EXPECT_EQ(released.text(), small);
}

TEST_F(ReleaseText, BytesThatCannotBeReadAgainAreKept) {
  // Borrowed bytes (an editor's buffer) and standard input, even redirected from a file.
  TemplateFile borrowed = TemplateFile::parse(path_, FileText::borrow(text_), releasing());
  EXPECT_FALSE(borrowed.text_released());
  testing::CliRun from_stdin = testing::run_ptmpl("lint --no-config --format json - < " + path_);
  testing::CliRun from_file = testing::run_ptmpl("lint --no-config --format json " + path_);
  EXPECT_EQ(from_stdin.exit, 1) << from_stdin.err;
  EXPECT_EQ(from_file.exit, 1) << from_file.err;
  EXPECT_NE(from_stdin.out.find("\"line\":"), std::string::npos) << from_stdin.out.substr(0, 300);
}

TEST_F(ReleaseText, ScheduleOfAFileLettingGoIsTheScheduleOfItsBytes) {
  // `schedule` lets a named file's bytes go; standard input is kept (it cannot be read again).
  GenerateOptions options;
  options.stories = 2000;
  const std::string plan = write("plan.json", generate_template(options).value());
  ASSERT_GE(std::filesystem::file_size(plan), std::size_t{1} << 20);
  testing::CliRun from_file = testing::run_ptmpl("schedule --format json " + plan);
  testing::CliRun from_stdin = testing::run_ptmpl("schedule --format json - < " + plan);
  ASSERT_EQ(from_file.exit, 0) << from_file.err;
  EXPECT_EQ(from_file.out, from_stdin.out);
  EXPECT_GT(from_file.out.size(), 10000u);
}

}  // namespace
}  // namespace ptmpl::release_text_test
