// Lint findings: data, not errors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ptmpl {

enum class Severity { Info, Warning, Error };

[[nodiscard]] std::string_view to_string(Severity severity);
[[nodiscard]] std::optional<Severity> parse_severity(std::string_view text);

/// "PATH:LINE:COLUMN" — or "PATH" when `line` is 0 (no place known) — the one way a place in a
/// file is written, in findings and in errors alike. Lines and columns count from 1.
[[nodiscard]] std::string format_place(std::string_view path, std::uint64_t line, std::uint64_t column);

/// A repair of a finding: replace `length` bytes at `offset` of the file with `replacement`.
/// Everything else in the file stays byte for byte. A safe fix only restates what the file
/// already says (a duration from its span); an unsafe one changes what the author declared (a
/// template budget recomputed from the stories, a key renamed): `lint --fix` applies it only
/// with `--unsafe-fixes` (docs/semantics.md §6). The rule decides which (RuleInfo::fix).
struct Fix {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  std::string replacement;
  bool unsafe = false;
};

/// A second place a finding is about (the first definition of a duplicated temp_id, a story of a
/// dependency cycle), and what it is there.
struct RelatedPlace {
  std::uint64_t offset = 0;  ///< byte offset in the file
  std::uint64_t line = 0;    ///< 1-based
  std::uint64_t column = 0;  ///< 1-based, in Unicode code points
  std::string message;
};

/// One finding: which rule, how bad, what, and exactly where.
struct Diagnostic {
  std::string rule;
  Severity severity = Severity::Error;
  std::string message;
  std::string path;
  std::uint64_t line = 0;    ///< 1-based; 0 when the finding concerns the whole file
  std::uint64_t column = 0;  ///< 1-based, in Unicode code points
  /// JSON pointer of the offending value: in the story list for stories (e.g.
  /// `/3/sub_stories/0/temp_id`), in the file for template-level values.
  std::string pointer;
  /// The source line around the column (at most ~100 characters, tabs as spaces), for the
  /// excerpt under a finding on a terminal; `excerpt_column` is the column within it.
  std::string excerpt;
  std::uint64_t excerpt_column = 0;
  /// Set when `--fix` can repair the finding (with `--unsafe-fixes` when the fix is unsafe).
  std::optional<Fix> fix;
  /// What the finding is about, named the same way in each of its repeats (the keys a converter
  /// does not write, a column it ignores): the text report counts them when it folds repeats of
  /// a rule into one line (ReportOptions::group_message). Empty for most findings.
  std::vector<std::string> topics;
  /// Other places the finding concerns, in the order the message names them (editors show them
  /// under the finding; SARIF's relatedLocations). Empty for most findings.
  std::vector<RelatedPlace> related;
  /// How many findings this one stands for: 1, or, for the finding lint adds after the first
  /// kFindingsPerRule findings of a rule in a file, how many more it found there and left out
  /// (at the place of the first of them). Summaries and statistics count by it.
  std::size_t count = 1;
};

/// At most this many findings of one rule in one file are listed (the first in the file, in
/// the order of operator<); one more finding stands for the rest (Diagnostic::count), so that
/// a file repeating one mistake a million times is reported in memory of its own size.
inline constexpr std::size_t kFindingsPerRule = 1000;

/// The excerpt of the line of `text` that holds byte `offset`: the whole line when it has at
/// most 100 characters, else 100 of them around the offset (40 before it, more when the line
/// ends sooner; cut ends marked "…"), and the 1-based column of `offset` in the excerpt.
/// Reads only the window, however long the line.
[[nodiscard]] std::pair<std::string, std::uint64_t> make_excerpt(std::string_view text, std::uint64_t offset);

/// Orders by path, line, column, rule (the order every output format uses).
[[nodiscard]] bool operator<(const Diagnostic& a, const Diagnostic& b);

struct Summary {
  std::size_t error = 0;
  std::size_t warning = 0;
  std::size_t info = 0;
};

[[nodiscard]] Summary summarize(const std::vector<Diagnostic>& diagnostics);

}  // namespace ptmpl
