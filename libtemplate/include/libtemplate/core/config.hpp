// The lint configuration file, `.ptmpl.json` (schemas/config.schema.json).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/core/diagnostic.hpp"
#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/result.hpp"
#include "libtemplate/core/rules.hpp"

namespace ptmpl {

class TemplateFile;

/// Silences findings: of `rule`, in files matching `files`, at or below `pointer`, about the
/// story with `temp_id`. Fields that are absent match everything. An entry with `files` alone
/// skips those files whole: a directory walk does not select them (select_files()).
struct IgnoreEntry {
  std::string rule;                    ///< empty: every rule
  std::optional<std::string> files;    ///< glob over the path relative to the config's directory
  std::optional<std::string> pointer;  ///< a finding's pointer equal to it or below it
  std::optional<std::string> temp_id;  ///< in temp_id_key() form
};

/// The settings of `ptmpl convert` (the `convert` object): each allowed id with its place in
/// the file (`.ptmpl.json:4:14`, its quote), where the command names one that is no conversion finding.
struct ConvertSettings {
  std::optional<bool> strict;
  struct Allowed {
    std::string id;
    std::string place;
  };
  std::vector<Allowed> allow;
};

/// A role's weekly capacity for `schedule --hours` (the `capacity` object): the value as
/// written (`40h/week`, its form checked by the schema) and its place (`.ptmpl.json:3:17`).
struct CapacitySetting {
  std::string role;
  std::string per_week;
  std::string place;
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
  /// Every rule the file mentions, by id.
  [[nodiscard]] const RuleSettings& rules() const { return rules_; }
  [[nodiscard]] const std::vector<IgnoreEntry>& ignore() const { return ignore_; }
  [[nodiscard]] std::optional<std::uint32_t> max_depth() const { return max_depth_; }
  [[nodiscard]] std::optional<Severity> fail_on() const { return fail_on_; }
  /// Globs of files and directories a directory walk skips (`exclude`, `extend-exclude`).
  [[nodiscard]] const std::vector<std::string>& exclude() const { return exclude_; }
  [[nodiscard]] const std::vector<std::string>& extend_exclude() const { return extend_exclude_; }
  [[nodiscard]] const ConvertSettings& convert() const { return convert_; }
  [[nodiscard]] const std::vector<CapacitySetting>& capacity() const { return capacity_; }

  /// True when an `ignore` entry with `files` and nothing else matches `path`: the file is
  /// skipped whole.
  [[nodiscard]] bool skips_file(const std::string& path) const;

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
  RuleSettings rules_;
  std::vector<IgnoreEntry> ignore_;
  std::optional<std::uint32_t> max_depth_;
  std::optional<Severity> fail_on_;
  std::vector<std::string> exclude_;
  std::vector<std::string> extend_exclude_;
  ConvertSettings convert_;
  std::vector<CapacitySetting> capacity_;
};

/// The nearest `.ptmpl.json` in the directory of `file` or any directory above it.
[[nodiscard]] std::optional<std::string> find_config(const std::string& file);

/// The thresholds of schedule health for the file `path` (`ptmpl health`): the options of the
/// `health-…` rules in the configuration `config_path`, else in the nearest `.ptmpl.json` when
/// `discover` (not for "-"); DCMA's without one. Fails as LintConfig::load().
[[nodiscard]] Result<HealthThresholds> health_thresholds_for(const std::string& path,
                                                             const std::optional<std::string>& config_path,
                                                             bool discover);

/// True when the glob `pattern` matches `path` (docs/commands/lint.md, "Selecting files"): a
/// pattern without '/' matches the name of the file or directory (`node_modules`, `*.tmp.json`);
/// one with '/' matches the path relative to `base` ('*' crosses '/'; `legacy/*`). A trailing
/// '/' matches directories only.
[[nodiscard]] bool exclude_matches(std::string_view pattern, const std::string& path, bool directory,
                                   const std::string& base);

/// Which files below a directory `lint` and `fmt` take.
struct SelectionSettings {
  /// The configuration whose `exclude`, `extend-exclude` and whole-file `ignore` entries apply
  /// (`--config`); otherwise the nearest `.ptmpl.json` of each file, when `discover_config`.
  std::optional<std::string> config_path;
  bool discover_config = true;
  std::optional<std::vector<std::string>> exclude;  ///< `--exclude`: replaces the configuration's
  std::vector<std::string> extend_exclude;          ///< `--extend-exclude`: added to them
  /// Files ignored by the version control (.gitignore); none when unset.
  SkipPath ignored;
  /// `--force-exclude`: a file named goes through the same selection as one found below a
  /// directory — skipped when it or a directory above it (in the path as given) is excluded
  /// or ignored, and taken as found (a file that is not a template is passed over in silence),
  /// so a hook that names every changed file checks what a walk of the repository would.
  bool force_exclude = false;
};

/// walk_paths() with the selection of `settings`: what the configuration and the command line
/// exclude, and what `ignored` says, is skipped below a directory (a file named is kept).
/// Fails (kInvalid) on a configuration that cannot be read, naming it; otherwise as walk_paths.
Result<std::vector<SelectedFile>> select_files(const std::vector<std::string>& paths,
                                               const SelectionSettings& settings);

}  // namespace ptmpl
