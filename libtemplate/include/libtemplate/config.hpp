// The lint configuration file, `.ptmpl.json` (schemas/config.schema.json).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/diagnostic.hpp"
#include "libtemplate/json.hpp"
#include "libtemplate/result.hpp"

namespace ptmpl {

class TemplateFile;

/// How one rule is configured: `"off"`, a severity, or `{"severity": …, "options": {…}}`.
struct RuleSetting {
  bool off = false;
  std::optional<Severity> severity;      ///< when set, replaces the rule's own severity
  const json::Value* options = nullptr;  ///< the rule's options object, owned by the LintConfig
};

/// Silences findings: of `rule`, in files matching `files`, at or below `pointer`, about the
/// story with `temp_id`. Fields that are absent match everything.
struct IgnoreEntry {
  std::string rule;
  std::optional<std::string> files;    ///< glob over the path relative to the config's directory
  std::optional<std::string> pointer;  ///< a finding's pointer equal to it or below it
  std::optional<std::string> temp_id;  ///< in temp_id_key() form
};

class LintConfig {
 public:
  LintConfig();
  ~LintConfig();
  LintConfig(LintConfig&&) noexcept;
  LintConfig& operator=(LintConfig&&) noexcept;

  /// Where it was read from ("" for the default configuration) and the directory its globs
  /// are relative to.
  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] const std::string& directory() const { return directory_; }

  /// The setting of `rule`, or nullptr when the file does not mention it.
  [[nodiscard]] const RuleSetting* rule(std::string_view id) const;
  [[nodiscard]] const std::vector<IgnoreEntry>& ignore() const { return ignore_; }
  [[nodiscard]] std::optional<std::uint32_t> max_depth() const { return max_depth_; }
  [[nodiscard]] std::optional<Severity> fail_on() const { return fail_on_; }

  /// True when `ignore` silences `finding` (whose story, for temp_id entries, is looked up
  /// in `file`).
  [[nodiscard]] bool ignores(const Diagnostic& finding, const TemplateFile& file) const;

  /// Reads and checks a configuration file: valid JSON, valid against the config schema, and
  /// naming only registered rules. Errors name the file, line and column.
  static Result<LintConfig> load(const std::string& path);
  /// The same from text (`path` names it in messages and anchors its globs).
  static Result<LintConfig> parse(const std::string& path, std::string_view text);

 private:
  std::string path_;
  std::string directory_;
  std::unique_ptr<TemplateFile> source_;  // keeps the option values alive
  std::map<std::string, RuleSetting, std::less<>> rules_;
  std::vector<IgnoreEntry> ignore_;
  std::optional<std::uint32_t> max_depth_;
  std::optional<Severity> fail_on_;
};

/// The nearest `.ptmpl.json` in the directory of `file` or any directory above it.
[[nodiscard]] std::optional<std::string> find_config(const std::string& file);

}  // namespace ptmpl
