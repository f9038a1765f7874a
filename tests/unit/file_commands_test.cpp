// The library behind fmt and lint --fix on files, and the sandbox's --listen.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "libtemplate/core/fix.hpp"
#include "libtemplate/core/format_files.hpp"
#include "libtemplate/core/hash.hpp"
#include "libtemplate/core/lint.hpp"
#include "libtemplate/core/template_file.hpp"
#include "libtemplate/sandbox/sandbox.hpp"

namespace ptmpl::testing {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name)
      : path(fs::temp_directory_path() / ("ptmpl-" + name + "-" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  [[nodiscard]] std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name) << text;
    return (path / name).string();
  }
};

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const char* const kNotCanonical = R"([{"title": "A", "temp_id": 1}])";

TEST(ReadSelectedTemplate, PlansAndOtherJsonAreToldApartAsLintTellsThem) {
  const std::string plan = "<?xml version=\"1.0\"?><Project xmlns=\"http://schemas.microsoft.com/project\"></Project>";
  SelectedTemplate named = read_selected_template("plan.xml", FileText(std::string(plan)), false);
  ASSERT_TRUE(named.plan);
  EXPECT_EQ(named.plan->code, ErrorCode::kInvalid);
  EXPECT_FALSE(named.file);
  EXPECT_TRUE(read_selected_template("plan.xml", FileText(std::string(plan)), true).not_template);
  EXPECT_TRUE(read_selected_template("package.json", FileText(std::string(R"({"name": "x"})")), true).not_template);
  SelectedTemplate broken = read_selected_template("t.json", FileText(std::string("[{")), true);
  ASSERT_TRUE(broken.file);
  EXPECT_FALSE(broken.file->document().ok());
}

TEST(FormatFile, ChecksWritesAndPrintsTheCanonicalForm) {
  TempDir dir("fmt");
  const std::string path = dir.write("t.json", kNotCanonical);
  FormattedFile checked = format_file({path}, {FormatOptions::Mode::Check, ""});
  EXPECT_TRUE(checked.not_canonical);
  EXPECT_EQ(checked.output, path + "\n");
  FormattedFile printed = format_file({path}, {});
  EXPECT_FALSE(printed.rewritten);
  EXPECT_EQ(read_text(path), kNotCanonical);
  FormattedFile written = format_file({path}, {FormatOptions::Mode::Write, ""});
  EXPECT_TRUE(written.rewritten);
  EXPECT_TRUE(written.output.empty());
  EXPECT_EQ(read_text(path), printed.output);
  EXPECT_FALSE(format_file({path}, {FormatOptions::Mode::Check, ""}).not_canonical);
}

TEST(FormatFile, ASyntaxErrorIsAFindingAndTheFileIsLeftAlone) {
  TempDir dir("fmt-broken");
  const std::string path = dir.write("t.json", "[{\"title\": }]");
  FormattedFile out = format_file({path}, {FormatOptions::Mode::Write, ""});
  EXPECT_EQ(out.finding.rfind(path + ":1:", 0), 0U) << out.finding;
  EXPECT_NE(out.finding.find(": error: "), std::string::npos);
  EXPECT_NE(out.finding.find("[json-syntax]\n"), std::string::npos);
  EXPECT_FALSE(out.rewritten);
  EXPECT_EQ(read_text(path), "[{\"title\": }]");
  FormattedFile missing = format_file({(dir.path / "none.json").string()}, {});
  ASSERT_TRUE(missing.error);
  EXPECT_EQ(missing.error->exit_code(), 2);
  EXPECT_TRUE(format_file({dir.write("package.json", R"({"name": "x"})"), false, dir.path.string()}, {}).not_template);
}

Diagnostic fixable(const std::string& path, std::uint64_t offset, std::uint64_t length, std::string replacement,
                   bool unsafe = false) {
  Diagnostic d;
  d.path = path;
  d.rule = "some-rule";
  d.line = 1;
  d.column = offset + 1;
  d.fix = Fix{offset, length, std::move(replacement)};
  d.fix->unsafe = unsafe;
  return d;
}

TEST(FixFiles, AppliesTheSafeFixesToTheBytesLinted) {
  TempDir dir("fix");
  const std::string text = R"([{"title": "A", "duration": 0}])";
  const std::string path = dir.write("t.json", text);
  LintRun run;
  run.files = {{.path = path, .fingerprint = content_hash(text), .error = {}}};
  run.diagnostics = {fixable(path, 2, 7, "\"name\""), fixable(path, 28, 1, "1", true)};

  FixFilesOutcome dry = fix_files(run, true);
  ASSERT_FALSE(dry.error);
  ASSERT_EQ(dry.files.size(), 1U);
  EXPECT_EQ(dry.changed(), 1U);
  EXPECT_NE(dry.files[0].plan.find("# " + path + ":1:3: safe fix [some-rule]\n"), std::string::npos);
  EXPECT_NE(dry.files[0].plan.find("unsafe fix, not applied (--unsafe-fixes applies it) [some-rule]\n"),
            std::string::npos);
  EXPECT_EQ(read_text(path), text);

  FixFilesOutcome fixed = fix_files(run, false);
  ASSERT_FALSE(fixed.error);
  ASSERT_EQ(fixed.files.size(), 1U);
  EXPECT_EQ(fixed.files[0].applied, 1U);
  EXPECT_EQ(fixed.files[0].withheld, 1U);
  EXPECT_EQ(read_text(path), R"([{"name": "A", "duration": 0}])");

  // The file no longer holds the bytes linted: no fix, and an error saying so.
  FixFilesOutcome stale = fix_files(run, false);
  ASSERT_TRUE(stale.error);
  EXPECT_EQ(stale.error->code, ErrorCode::kConflict);
  EXPECT_TRUE(stale.files.empty());
}

TEST(SandboxListen, HostAndPortAreReadAndAnythingElseIsRefused) {
  SandboxOptions options;
  ASSERT_TRUE(set_listen_address(options, "[::1]:8443").ok());
  EXPECT_EQ(options.host, "::1");
  EXPECT_EQ(options.port, 8443);
  ASSERT_TRUE(set_listen_address(options, "127.0.0.1:0065535").ok());
  EXPECT_EQ(options.port, 65535);
  for (const char* bad : {"localhost", "host:", "host:65536", "host:-1", "host:99999999999", "host:8x"}) {
    Status refused = set_listen_address(options, bad);
    ASSERT_FALSE(refused.ok()) << bad;
    EXPECT_EQ(refused.error().message, std::string("--listen: expected HOST:PORT, got '") + bad + "'");
  }
  EXPECT_EQ(fault_kinds("429,,drop,"), (std::vector<std::string>{"429", "drop"}));
}

}  // namespace
}  // namespace ptmpl::testing
