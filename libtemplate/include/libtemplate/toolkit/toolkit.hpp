// The library in a few calls that own what they return (docs/library.md): lint, fmt, convert,
// schedule, stats, the schemas and the rules. Each gives plain data — findings as records,
// documents as the JSON text `ptmpl COMMAND --format json` prints, made by the same writers —
// or an Error whose code is the kind the command line maps to its exit code
// (docs/semantics.md §6). No call keeps state between calls, so any may run on several threads
// at once. What the Python module binds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "libtemplate/core/diagnostic.hpp"
#include "libtemplate/core/result.hpp"
#include "libtemplate/core/rules.hpp"

namespace ptmpl::toolkit {

/// What a call reads: the file `path` ("-": standard input), or `bytes` that the caller keeps
/// alive for the call, which `path` then only names (in findings and messages, and where lint
/// looks for a `.ptmpl.json`).
struct Input {
  std::string path = "-";
  std::optional<std::string_view> bytes{};

  [[nodiscard]] static Input file(std::string path) { return {std::move(path), std::nullopt}; }
  [[nodiscard]] static Input text(std::string_view bytes, std::string name = "-") { return {std::move(name), bytes}; }
};

/// A finding of lint or of a conversion, with the fields `--format json` gives it.
struct Finding {
  std::string rule;
  Severity severity = Severity::Error;
  std::string message;
  std::string path;
  std::uint64_t line = 0;    ///< 1-based; 0 when the finding is about the whole file
  std::uint64_t column = 0;  ///< 1-based, in Unicode code points
  std::string pointer;       ///< JSON pointer of the value concerned
};

// The fields a caller may leave out have initializers, `{}` included, so that a request names
// only what it sets: `{.strict = true}`.
struct LintRequest {
  /// The configuration to lint with (`--config`), by path or as text (named `.ptmpl.json` in
  /// messages, its globs relative to the current directory); at most one of the two.
  std::optional<std::string> config_path{};
  std::optional<std::string> config_text{};
  /// Without either: the nearest `.ptmpl.json` at or above the input's directory, unless false
  /// (`--no-config`). Text named "-" has no directory and finds none.
  bool discover_config = true;
  /// Only the findings of these rules (ids as `rules()` gives them, or a group's name:
  /// `schedule-health`, whose rules are off unless named); every rule's when empty (`--select`).
  std::vector<std::string> select{};
};

struct LintResult {
  std::vector<Finding> findings;  ///< sorted by path, line, column, rule
  std::string json;               ///< the same, as `ptmpl lint --format json` prints them
};

/// Lints a template as `ptmpl lint` does (another program's plan is refused, not linted; text
/// that is no JSON is a `json-syntax` finding); a folder, the templates in it and below
/// (walk_paths: not hidden ones, nor node_modules; git's ignore rules are the command line's
/// alone). Fails when the path does not exist (kNotFound), a file cannot be read (kUnreadable),
/// holds a plan (kInvalid, naming the way to convert it), or the configuration cannot be read or
/// is invalid; kUsage for both configurations at once or an unknown rule in `select`.
[[nodiscard]] Result<LintResult> lint(const Input& input, const LintRequest& request = {});

/// The canonical form of the template `text` (named `name` in messages), as `ptmpl fmt` prints
/// it. Fails (kInvalid) on text that is no JSON or nests too deep to be read whole, with the
/// finding `ptmpl fmt` prints (`-:1:5: error: … [json-syntax]`), and on another program's plan.
[[nodiscard]] Result<std::string> format(std::string_view text, const std::string& name = "-");

struct ConvertRequest {
  /// "template" (a plan into a template document), "mspdi", "csv" or "xlsx" (a template into MS
  /// Project XML, CSV or an Excel workbook), as `ptmpl convert --to`.
  std::string to = "template";
  /// Every approximation or loss is an error (`--strict`): nothing is converted when there is one.
  bool strict = false;
  /// With `strict`: the findings of these ids (docs/commands/convert.md) stay as they are.
  std::vector<std::string> allow{};
  /// `to` mspdi or xlsx: the date of day 0, YYYY-MM-DD (`--start`); else the template's calendar
  /// block's, else (mspdi) today; a workbook without one has no date columns.
  std::optional<std::string> start{};
};

struct Converted {
  /// The template document, MS Project XML, CSV or the workbook's bytes; "" when `failed`.
  std::string document;
  std::vector<Finding> findings;  ///< what the conversion approximated or lost, sorted
  std::string json;               ///< the findings as `ptmpl convert --format json` prints them
  bool failed = false;            ///< a finding is an error (`strict`): nothing converted
};

/// Converts a plan of any format `ptmpl convert` reads (MS Project .mpp or XML, GanttProject,
/// CSV, an Excel workbook, a Primavera P6 XER or PMXML export; detected from the content) into a
/// template document, or a template into MS Project XML, CSV or an Excel workbook. Fails when
/// the input cannot be read (kNotFound, kUnreadable), is not what `to` converts from or cannot
/// be read as it (kInvalid or kUsage, as the command line), and (kUsage) on a `to`, `start` or
/// `allow` that names nothing.
[[nodiscard]] Result<Converted> convert(const Input& input, const ConvertRequest& request = {});

struct ScheduleRequest {
  /// Day 0, YYYY-MM-DD (`--start`): dates are shown. Otherwise the calendar block's start,
  /// else working-day offsets.
  std::optional<std::string> start{};
  /// A deadline, YYYY-MM-DD (`--finish`): day 0 is the latest start for which the project ends
  /// on it (docs/semantics.md §14); the project gains `finish` and `latest_start`. Not with `start`
  /// (kUsage).
  std::optional<std::string> finish{};
  /// Ignore declared start dates (`--asap`).
  bool asap = false;
  /// Which template of a file holding several (an API response), from 1 (`--template`); 0 for
  /// a file holding one.
  std::size_t template_number = 0;
  /// A `duration` or relative date the scheduler cannot take as written is an error (kInvalid,
  /// a line per value) instead of a warning (`--strict`; preview.hpp: schedule_value_warnings).
  bool strict = false;
};

/// A document as `--format json` prints it, and the warnings the command gives on standard
/// error beside it.
struct JsonOutput {
  std::string json;
  std::vector<std::string> warnings;  ///< e.g. dependencies that do not constrain the schedule
};

/// The schedule of a template, as `ptmpl schedule --format json` prints it, with the warnings
/// the command gives (values read as absent, links that do not constrain). Fails when the file
/// cannot be read (kNotFound, kUnreadable), is no template or none to schedule (kInvalid, at
/// the place), holds several and none is chosen (kUsage), has a calendar block with a problem,
/// or a dependency cycle (kInvalid, a line per cycle), or with `strict`, a value it cannot take.
[[nodiscard]] Result<JsonOutput> schedule(const Input& input, const ScheduleRequest& request = {});

/// The template's totals, as `ptmpl stats --format json` prints them. Fails as schedule()
/// does, and (kInvalid) on an estimate whose total is no amount.
[[nodiscard]] Result<JsonOutput> stats(const Input& input, const ScheduleRequest& request = {});

struct HealthRequest {
  /// Which template of a file holding several, from 1 (`--template`); 0 for a file holding one.
  std::size_t template_number = 0;
  /// The configuration whose `health-…` rule options set the thresholds (`--config`), by path;
  /// without it, the nearest `.ptmpl.json` at or above the input's directory, unless
  /// `discover_config` is false (`--no-config`: DCMA's thresholds).
  std::optional<std::string> config_path{};
  bool discover_config = true;
};

/// The schedule-health assessment (DCMA 14-point) of a template or plan, as `ptmpl health
/// --format json` prints it (docs/commands/health.md), with the warnings the command gives.
/// Fails as schedule() does, and when the configuration cannot be read or is invalid.
[[nodiscard]] Result<JsonOutput> health(const Input& input, const HealthRequest& request = {});

/// The JSON Schema `raw_json`, `template` or `config`, as `ptmpl schema NAME` prints it;
/// kUsage for another name.
[[nodiscard]] Result<std::string> schema(std::string_view name);

/// A lint rule, as `ptmpl rules` lists it.
struct Rule {
  std::string id;
  Severity severity = Severity::Error;  ///< its default
  FixKind fix = FixKind::None;          ///< what `lint --fix` can do about its findings
  std::string summary;
  std::string group;  ///< "" or the group that is off by default (`schedule-health`)
};

/// Every lint rule, sorted by id.
[[nodiscard]] std::vector<Rule> rules();

}  // namespace ptmpl::toolkit
