// The rules of a large file split over two threads (LintOptions::threads) find exactly what
// they find on one: the same findings, fixes and related places, in the same order.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "libtemplate/core/generator.hpp"
#include "libtemplate/core/lint.hpp"
#include "libtemplate/core/template_file.hpp"

namespace ptmpl {
namespace {

// Replaces every `every`-th occurrence of `from` in `text` by `to`.
void spoil(std::string& text, const std::string& from, const std::string& to, std::size_t every) {
  std::size_t seen = 0;
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
    if (++seen % every == 0) {
      text.replace(at, from.size(), to);
      at += to.size();
    } else {
      at += from.size();
    }
  }
}

// A generated template of 6,000 stories (above the size from which the rules are split) with
// mistakes sprinkled over it, each the matter of a different rule.
std::string spoiled_template() {
  GenerateOptions options;
  options.stories = 6000;
  options.depth = 4;
  options.seed = 11;
  std::string text = generate_template(options).value();
  spoil(text, "\"duration\": 3,", "\"duration\": -3,", 7);                        // amount / schema / duration
  spoil(text, "\"type\": 2,", "\"type\": 9,", 11);                                // dependency-type-invalid
  spoil(text, "\"story_type\": \"task\"", "\"story_type\": \"tsak\"", 13);        // story-type-invalid
  spoil(text, "\"billable\": true", "\"billable\": true, \"titel\": \"x\"", 17);  // key-misspelt
  spoil(text, "\"relative_due_date\": 1,", "\"relative_due_date\": -40,", 5);     // date-order, violated
  spoil(text, "\"temp_id\": 4", "\"temp_id\": 3", 3);                             // temp-id-duplicate, targets
  spoil(text, "\"lag\": 0", "\"lag\": 0.5", 19);                                  // dependency-lag-invalid
  return text;
}

TEST(LintThreads, TwoThreadsFindWhatOneFinds) {
  const std::string text = spoiled_template();
  const TemplateFile file = TemplateFile::parse("spoiled.json", FileText::borrow(text));
  ASSERT_TRUE(file.document().ok());
  LintOptions one;
  LintOptions two;
  two.threads = 2;
  const std::vector<Diagnostic> alone = lint(file, one);
  const std::vector<Diagnostic> split = lint(file, two);

  std::set<std::string> rules;
  for (const Diagnostic& d : alone) rules.insert(d.rule);
  ASSERT_GE(rules.size(), 8U) << "the template should break many rules";

  ASSERT_EQ(split.size(), alone.size());
  for (std::size_t i = 0; i < alone.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(split[i].rule, alone[i].rule);
    EXPECT_EQ(split[i].severity, alone[i].severity);
    EXPECT_EQ(split[i].line, alone[i].line);
    EXPECT_EQ(split[i].column, alone[i].column);
    EXPECT_EQ(split[i].pointer, alone[i].pointer);
    EXPECT_EQ(split[i].message, alone[i].message);
    EXPECT_EQ(split[i].fix.has_value(), alone[i].fix.has_value());
    if (split[i].fix && alone[i].fix) {
      EXPECT_EQ(split[i].fix->offset, alone[i].fix->offset);
      EXPECT_EQ(split[i].fix->replacement, alone[i].fix->replacement);
    }
    ASSERT_EQ(split[i].related.size(), alone[i].related.size());
    for (std::size_t r = 0; r < alone[i].related.size(); ++r)
      EXPECT_EQ(split[i].related[r].message, alone[i].related[r].message);
  }
}

}  // namespace
}  // namespace ptmpl
