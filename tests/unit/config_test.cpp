// The lint configuration: found upward, checked against its schema, severities, options,
// ignores, fail_on and max_depth.
#include <gtest/gtest.h>

#include <algorithm>

#include "libtemplate/core/config.hpp"
#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/hash.hpp"
#include "libtemplate/core/lint.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

using testing::source_path;

std::string data(const std::string& relative) {
  return source_path("tests/data/config/" + relative);
}

TEST(Config, FoundInTheFilesDirectoryOrAbove) {
  EXPECT_EQ(find_config(data("project/templates/plan.json")), data("project/.ptmpl.json"));
  EXPECT_EQ(find_config(data("project/templates/legacy/old.json")), data("project/.ptmpl.json"));
  EXPECT_EQ(find_config(data("project/.ptmpl.json")), data("project/.ptmpl.json"));
}

TEST(Config, ReadsSeveritiesIgnoresAndFailOn) {
  auto config = LintConfig::load(data("project/.ptmpl.json"));
  ASSERT_TRUE(config.ok()) << config.error().message;
  const LintConfig& c = config.value();
  ASSERT_NE(c.rule("duplicate-key"), nullptr);
  EXPECT_EQ(c.rule("duplicate-key")->severity, Severity::Error);
  EXPECT_TRUE(c.rule("temp-id-missing")->off);
  EXPECT_EQ(c.rule("story-type-invalid")->severity, Severity::Warning);
  ASSERT_NE(c.rule("story-type-invalid")->options, nullptr);
  EXPECT_TRUE(c.rule("story-type-invalid")->options->is_object());
  EXPECT_EQ(c.rule("schema"), nullptr);
  ASSERT_EQ(c.ignore().size(), 3u);
  EXPECT_EQ(c.ignore()[0].files, "templates/legacy/*.json");
  EXPECT_EQ(c.ignore()[1].temp_id, "kickoff");
  EXPECT_EQ(c.ignore()[2].pointer, "/2");
  EXPECT_EQ(c.fail_on(), Severity::Warning);
  EXPECT_FALSE(c.max_depth().has_value());
}

// A run holds one record per file, in the order given: a file not linted carries its Error,
// a linted one the content_hash of its bytes when asked for.
TEST(Config, ARunHoldsOneRecordPerFile) {
  LintSettings settings;
  settings.fingerprint = true;
  const std::string plan = data("project/templates/plan.json");
  const std::string missing = data("project/templates/missing.json");
  LintRun run = lint_files({plan, missing}, settings);
  ASSERT_EQ(run.files.size(), 2u);
  EXPECT_EQ(run.files[0].path, plan);
  EXPECT_FALSE(run.files[0].error.has_value());
  auto bytes = FileText::read(plan);
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(run.files[0].fingerprint, content_hash(bytes.value().text()));
  EXPECT_EQ(run.files[1].path, missing);
  ASSERT_TRUE(run.files[1].error.has_value());
  EXPECT_EQ(run.files[1].error->code, ErrorCode::kNotFound);
  EXPECT_EQ(run.linted_count(), 1u);
  EXPECT_TRUE(run.has_errors());
}

TEST(Config, AppliedToEveryFileBelowIt) {
  LintRun run = lint_files({data("project/templates/plan.json"), data("project/templates/legacy/old.json")});
  ASSERT_FALSE(run.has_errors()) << run.files[0].error->message;
  ASSERT_EQ(run.diagnostics.size(), 3u);
  // duplicate-key raised to error.
  EXPECT_EQ(run.diagnostics[0].rule, "duplicate-key");
  EXPECT_EQ(run.diagnostics[0].severity, Severity::Error);
  EXPECT_EQ(run.diagnostics[0].line, 2u);
  // story-type-invalid lowered to warning; the story's missing title is ignored by temp_id,
  // story /2's schema finding by pointer, temp-id-missing is off.
  EXPECT_EQ(run.diagnostics[1].rule, "story-type-invalid");
  EXPECT_EQ(run.diagnostics[1].severity, Severity::Warning);
  EXPECT_EQ(run.diagnostics[2].rule, "schema");
  EXPECT_EQ(run.diagnostics[2].pointer, "/3/duration");
  // old.json's schema finding is ignored by the files glob.
  for (const Diagnostic& d : run.diagnostics) EXPECT_EQ(d.path, data("project/templates/plan.json"));
  EXPECT_TRUE(run.failed);
}

TEST(Config, FailOnFromTheConfigurationOrTheCommandLine) {
  LintSettings settings;
  settings.config_path = data("project/.ptmpl.json");
  // Only a warning left when the errors are off: the configuration's fail_on (warning) fails it.
  auto text = testing::read_source("tests/data/config/project/templates/plan.json");
  LintRun run = lint_files({data("project/templates/legacy/old.json")}, settings);
  EXPECT_TRUE(run.diagnostics.empty());
  EXPECT_FALSE(run.failed);
  settings.fail_on = Severity::Error;
  LintRun strict = lint_files({data("project/templates/plan.json")}, settings);
  EXPECT_TRUE(strict.failed) << "two errors remain";
}

TEST(Config, NoConfigurationWhenAskedNot) {
  LintSettings settings;
  settings.discover_config = false;
  LintRun run = lint_files({data("project/templates/legacy/old.json")}, settings);
  ASSERT_EQ(run.diagnostics.size(), 1u);
  EXPECT_EQ(run.diagnostics[0].rule, "schema");
}

struct BadConfig {
  const char* file;
  const char* message;
};

class InvalidConfig : public ::testing::TestWithParam<BadConfig> {};

TEST_P(InvalidConfig, IsAnErrorNamingThePlace) {
  auto config = LintConfig::load(data(GetParam().file));
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.error().message, data(GetParam().file) + GetParam().message);
  // And linting with it stops with that error (exit code 2 in the CLI).
  LintSettings settings;
  settings.config_path = data(GetParam().file);
  LintRun run = lint_files({data("project/templates/plan.json")}, settings);
  ASSERT_EQ(run.files.size(), 1u);
  ASSERT_TRUE(run.files[0].error.has_value());
  EXPECT_EQ(run.files[0].error->code, config.error().code);
  EXPECT_EQ(run.files[0].error->message, config.error().message);
  EXPECT_EQ(run.linted_count(), 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Config, InvalidConfig,
    ::testing::Values(
        BadConfig{"bad-json.ptmpl.json", ":2:33: expected a member name in double quotes"},
        BadConfig{
            "unknown-rule.ptmpl.json",
            ":4:5: unknown rule \"temp-id-duplcate\" (did you mean \"temp-id-duplicate\"?); ptmpl rules lists them"},
        BadConfig{"bad-severity.ptmpl.json",
                  ":2:23: `schema` must be one of \"off\", \"info\", \"warning\", \"error\"; found \"fatal\""},
        BadConfig{"unknown-key.ptmpl.json",
                  ":3:14: `config` does not allow the key `ignores` (did you mean `ignore`?)"}),
    [](const ::testing::TestParamInfo<BadConfig>& param) {
      std::string name = param.param.file;
      name = name.substr(0, name.find('.'));
      std::replace(name.begin(), name.end(), '-', '_');
      return name;
    });

// A misspelt key or value is named with the key or value meant; an enumerated value with every
// value allowed (the schema's enum), wherever it is: a rule's severity in either form, fail_on.
TEST(Config, MisspeltKeysAndValuesSayWhatWasMeant) {
  auto message = [](std::string_view text) {
    auto config = LintConfig::parse("c.json", text);
    return config.ok() ? std::string("(read)") : config.error().message;
  };
  const std::string severities = "must be one of \"off\", \"info\", \"warning\", \"error\"";
  EXPECT_EQ(message(R"({"rules": {"title-missing": "eror"}})"),
            "c.json:1:29: `title-missing` " + severities + "; found \"eror\" (did you mean \"error\"?)");
  EXPECT_EQ(message(R"({"rules": {"title-missing": {"severity": "warnig"}}})"),
            "c.json:1:42: `severity` " + severities + "; found \"warnig\" (did you mean \"warning\"?)");
  EXPECT_EQ(message(R"({"rules": {"title-missing": {"severty": "error"}}})"),
            "c.json:1:41: `config/rules/title-missing` does not allow the key `severty` (did you mean `severity`?)");
  EXPECT_EQ(message(R"({"fail_on": "Warning"})"),
            "c.json:1:13: `fail_on` must be one of \"error\", \"warning\", \"info\"; found \"Warning\" (did you mean "
            "\"warning\"?)");
  EXPECT_EQ(message(R"({"ignore": [{"rule": "schema", "tempid": 4}]})"),
            "c.json:1:42: `config/ignore/0` does not allow the key `tempid` (did you mean `temp_id`?)");
  EXPECT_EQ(message(R"({"max_dept": 3})"),
            "c.json:1:14: `config` does not allow the key `max_dept` (did you mean `max_depth`?)");
  EXPECT_EQ(message(R"({"extend_exclude": []})"),
            "c.json:1:20: `config` does not allow the key `extend_exclude` (did you mean `extend-exclude`?)");
  // Nothing near: the allowed values are still listed, and no guess is made.
  EXPECT_EQ(message(R"({"rules": {"schema": "loud"}})"), "c.json:1:22: `schema` " + severities + "; found \"loud\"");
  EXPECT_EQ(message(R"({"colour": true})"), "c.json:1:12: `config` does not allow the key `colour`");
  EXPECT_EQ(message(R"({"rules": {"tempid-missing": "off"}})"),
            "c.json:1:12: unknown rule \"tempid-missing\" (did you mean \"temp-id-missing\"?); ptmpl rules lists them");
}

// Every problem is named, one line each in the order of the file: schema violations at any
// depth and rule ids the catalogue does not hold. A value is named once: an ignore entry whose
// `rule` is of the wrong kind is not also said to lack its `rule`.
TEST(Config, EveryProblemIsNamedInOneError) {
  auto config = LintConfig::parse("c.json", R"({"rules": {"title-missing": "eror", "tempid-missing": "off"},
 "ignore": [{"rule": 5}, {"rule": "schema", "tempid": 4}, {"rule": "duplicat-key"}],
 "exclude": ["", "drafts", ""], "colour": true})");
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.error().code, ErrorCode::kInvalid);
  EXPECT_EQ(config.error().message,
            "c.json:1:29: `title-missing` must be one of \"off\", \"info\", \"warning\", \"error\"; found \"eror\" "
            "(did you mean \"error\"?)\n"
            "c.json:1:37: unknown rule \"tempid-missing\" (did you mean \"temp-id-missing\"?); ptmpl rules lists them\n"
            "c.json:2:22: `rule` must be a string, found an integer\n"
            "c.json:2:55: `config/ignore/1` does not allow the key `tempid` (did you mean `temp_id`?)\n"
            "c.json:2:68: unknown rule \"duplicat-key\" (did you mean \"duplicate-key\"?); ptmpl rules lists them\n"
            "c.json:3:14: `config/exclude/0` must not be empty\n"
            "c.json:3:28: `config/exclude/2` must not be empty\n"
            "c.json:3:43: `config` does not allow the key `colour`");
}

// A file of a great many problems is told its first 100, and that more follow.
TEST(Config, TheFirstHundredProblemsAreNamed) {
  std::string text = "{\"rules\": {";
  for (int i = 0; i < 150; ++i)
    text += (i > 0 ? ", \"" : "\"") + std::string("no-rule-") + std::to_string(i) + "\": \"off\"";
  text += "}, \"ignore\": [";
  for (int i = 0; i < 150; ++i) text += (i > 0 ? ", " : "") + std::string("{\"rulle\": 1}");
  text += "]}";
  auto config = LintConfig::parse("c.json", text);
  ASSERT_FALSE(config.ok());
  const std::string& message = config.error().message;
  EXPECT_EQ(std::count(message.begin(), message.end(), '\n'), 100) << message;
  EXPECT_TRUE(message.starts_with("c.json:1:12: unknown rule \"no-rule-0\"")) << message;
  EXPECT_NE(message.find("unknown rule \"no-rule-99\""), std::string::npos);
  EXPECT_EQ(message.find("no-rule-100\""), std::string::npos);
  EXPECT_TRUE(message.ends_with("\nc.json: more problems follow; the first 100 of a configuration are named"))
      << message;
}

// Of duplicate keys the last is used, as in templates (and only the last is checked).
TEST(Config, TheLastOfDuplicateKeysIsUsed) {
  auto config = LintConfig::parse("dup.ptmpl.json", R"({"max_depth": 3, "fail_on": "error",
    "rules": {"temp-id-missing": {"severity": 5}, "duplicate-key": "error", "temp-id-missing": "off",
              "duplicate-key": "info"},
    "ignore": [{"rule": "story-type-invalid"}], "max_depth": 40, "fail_on": "warning",
    "ignore": [{"rule": "title-missing", "pointer": "/0", "pointer": "/1"}]})");
  ASSERT_TRUE(config.ok()) << config.error().message;
  const LintConfig& c = config.value();
  EXPECT_EQ(c.max_depth(), 40u);
  EXPECT_EQ(c.fail_on(), Severity::Warning);
  ASSERT_NE(c.rule("temp-id-missing"), nullptr);
  EXPECT_TRUE(c.rule("temp-id-missing")->off);
  EXPECT_EQ(c.rule("duplicate-key")->severity, Severity::Info);
  ASSERT_EQ(c.ignore().size(), 1u);
  EXPECT_EQ(c.ignore()[0].rule, "title-missing");
  EXPECT_EQ(c.ignore()[0].pointer, "/1");
}

TEST(Config, MissingFileIsAnError) {
  auto config = LintConfig::load(data("nope.json"));
  ASSERT_FALSE(config.ok());
  EXPECT_NE(config.error().message.find("nope.json: cannot open"), std::string::npos);
}

}  // namespace
}  // namespace ptmpl
