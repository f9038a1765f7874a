// ptmpl gen: valid, consistent, deterministic.
#include <gtest/gtest.h>

#include <set>
#include <unordered_map>

#include "libtemplate/core/generator.hpp"
#include "libtemplate/core/lint.hpp"
#include "libtemplate/core/writer.hpp"

namespace ptmpl::generator_test {
namespace {

struct Interval {
  std::int64_t start, finish;  // half-open (docs/semantics.md §4)
};

TEST(Generator, SameSeedSameBytesOtherSeedOtherBytes) {
  GenerateOptions options;
  options.stories = 300;
  options.seed = 42;
  std::string a = generate_template(options).value();
  EXPECT_EQ(a, generate_template(options).value());
  options.seed = 43;
  EXPECT_NE(a, generate_template(options).value());
}

TEST(Generator, ExactlyTheLinksAskedForOrAClearError) {
  GenerateOptions options;
  options.stories = 10;
  options.depth = 1;  // 10 leaves: 1 + 2 + … + 9 = 45 distinct backward links
  options.deps = 45;
  auto all = generate_template(options);
  ASSERT_TRUE(all.ok());
  TemplateFile file = TemplateFile::parse("gen.json", FileText::borrow(all.value()));
  std::size_t links = 0;
  for_each_story(file.templates().at(0).model.stories, [&](const Story& s, int) { links += s.dependencies.size(); });
  EXPECT_EQ(links, 45u);
  options.deps = 46;
  auto too_many = generate_template(options);
  ASSERT_FALSE(too_many.ok());
  EXPECT_EQ(too_many.error().message,
            "--deps 46 is more than 10 stories can hold: their 10 leaves allow at most 45 distinct links");
}

TEST(Generator, OutputIsCanonicalAndLintsClean) {
  for (std::size_t depth : {1u, 3u, 6u}) {
    GenerateOptions options;
    options.stories = 2000;
    options.depth = depth;
    options.seed = depth;
    std::string text = generate_template(options).value();
    TemplateFile file = TemplateFile::parse("gen.json", FileText(text));
    ASSERT_TRUE(file.document().ok());
    EXPECT_EQ(write_canonical(file.document().root(), file.shape()), text);
    std::vector<Diagnostic> findings = lint(file);
    EXPECT_TRUE(findings.empty()) << findings.size() << " findings, first: " << findings[0].message;
  }
}

TEST(Generator, DatesSatisfyEveryLinkAndMetadataAgrees) {
  GenerateOptions options;
  options.stories = 5000;
  options.depth = 4;
  options.deps = 6000;
  options.seed = 9;
  std::string text = generate_template(options).value();
  TemplateFile file = TemplateFile::parse("gen.json", FileText(text));
  const TemplateSource& source = file.templates().at(0);
  const Template& t = source.model;

  std::unordered_map<std::string, Interval> interval;
  std::set<std::string> ids;
  std::size_t count = 0, links = 0;
  std::int64_t first = INT64_MAX, last = INT64_MIN, budget = 0;
  std::set<std::int64_t> types;
  bool lead = false, lag = false;
  int max_depth = 0;
  for_each_story(t.stories, [&](const Story& s, int depth) {
    ++count;
    max_depth = std::max(max_depth, depth);
    ASSERT_TRUE(s.temp_id && s.relative_start_date && s.relative_due_date && s.duration);
    EXPECT_TRUE(ids.insert(temp_id_key(*s.temp_id)).second) << "temp_id unique";
    bool milestone = s.effective_type() == StoryType::Milestone;
    std::int64_t start = *s.relative_start_date, due = *s.relative_due_date;
    EXPECT_EQ(*s.duration, milestone ? 0 : due - start + 1);
    interval[temp_id_key(*s.temp_id)] = {start, milestone ? start : due + 1};
    first = std::min(first, start);
    last = std::max(last, due);
    for (const Story& child : s.sub_stories) {
      EXPECT_GE(*child.relative_start_date, start);
      EXPECT_LE(*child.relative_due_date, due);
    }
    if (!s.is_parent()) budget += s.budget_estimate_in_cents.value_or(0);
  });
  for_each_story(t.stories, [&](const Story& s, int) {
    for (const Dependency& d : s.dependencies) {
      ++links;
      EXPECT_EQ(temp_id_key(*d.source_id), temp_id_key(*s.temp_id));
      const Interval& a = interval.at(temp_id_key(*d.source_id));
      const Interval& b = interval.at(temp_id_key(*d.target_id));
      std::int64_t lag_days = *d.lag;
      types.insert(*d.type);
      lead |= lag_days < 0;
      lag |= lag_days > 0;
      switch (*d.type) {
        case 0:
          EXPECT_GE(b.start, a.start + lag_days);
          break;  // SS
        case 1:
          EXPECT_GE(b.finish, a.start + lag_days);
          break;  // SF
        case 2:
          EXPECT_GE(b.start, a.finish + lag_days);
          break;  // FS
        case 3:
          EXPECT_GE(b.finish, a.finish + lag_days);
          break;  // FF
        default:
          ADD_FAILURE() << "type " << *d.type;
      }
    }
  });
  EXPECT_EQ(count, 5000u);
  EXPECT_EQ(max_depth, 3);
  EXPECT_EQ(links, 6000u);
  EXPECT_EQ(types, (std::set<std::int64_t>{0, 1, 2, 3}));
  EXPECT_TRUE(lead && lag);
  EXPECT_EQ(t.item_count, 5000);
  EXPECT_EQ(t.duration, last + 1 - first);
  ASSERT_TRUE(t.budget);
  std::string units = std::to_string(budget / 100);
  if (budget % 100 != 0) units += (budget % 100 < 10 ? ".0" : ".") + std::to_string(budget % 100);
  EXPECT_EQ(t.budget->text(), units);
}

}  // namespace
}  // namespace ptmpl::generator_test
