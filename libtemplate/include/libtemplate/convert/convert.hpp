// Converting external plans into templates (docs/semantics.md §7). Each reader turns a plan into a template
// document in canonical form and reports every approximation or loss as a diagnostic with its
// own id (never silently); `strict` makes those errors.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/core/calendar.hpp"
#include "libtemplate/core/diagnostic.hpp"
#include "libtemplate/core/report.hpp"
#include "libtemplate/core/result.hpp"
#include "libtemplate/core/template_file.hpp"

namespace ptmpl {

class TemplateFile;

/// The plan formats the converters read, detected from the content.
enum class PlanFormat : std::uint8_t {
  Mspdi,     ///< Microsoft Project XML (a `Project` root in the MS Project namespace)
  Gan,       ///< GanttProject (a `project` root element)
  Csv,       ///< our CSV columns (a header row naming `title` and another of them)
  Mpp,       ///< Microsoft Project's own .mpp (a compound file whose `\1CompObj` names MSProject.MPP*)
  Xlsx,      ///< an Excel workbook (a zip archive holding parts under `xl/`)
  Xer,       ///< Primavera P6's XER export (a first line starting `ERMHDR`)
  Pmxml,     ///< Primavera P6's XML export (an XML root `APIBusinessObjects`)
  Template,  ///< one of our own JSON shapes
  Unknown,
};

/// Looks at the first bytes (after a byte order mark and XML prolog, comments and whitespace):
/// `{`/`[` is a template, an XML root `Project` MSPDI, `project` GanttProject and
/// `APIBusinessObjects` PMXML; `ERMHDR` starts an XER file; a first line whose comma-separated
/// cells name `title` and at least one other CSV column is CSV; a compound file (signature D0
/// CF 11 E0 A1 B1 1A E1) whose `\1CompObj` names an MSProject.MPP format is .mpp; a zip archive
/// with parts under `xl/` is a workbook.
[[nodiscard]] PlanFormat detect_plan_format(std::string_view text);

struct ConvertOptions {
  /// Approximations and losses are errors instead of warnings.
  bool strict = false;
  /// Under `strict`, the finding ids that keep their own severity (`--allow`, docs/semantics.md
  /// §7: a plan whose rates or progress are expected still converts strictly).
  std::vector<std::string> allow{};
  /// A workbook's sheet to read (`--sheet`): its name; empty, the first that holds a plan.
  std::string sheet{};
  /// A Primavera P6 export's project to read (`--project`): its ID (short name) or object id;
  /// empty, the file's only project.
  std::string project{};
};

/// One converted plan: the template document and what the conversion could not carry over.
struct Conversion {
  std::string document;  ///< a template document (canonical form); CSV from export_csv, bytes from export_xlsx
  std::vector<Diagnostic> diagnostics;  ///< sorted (path, line, column, rule)
  /// A plan converted into a template: the date of its day 0, as its calendar block records it.
  std::optional<Date> day_zero;
  /// Where day 0 comes from, for the summary: "the plan's start", "the earliest task's start".
  std::string day_zero_source;
};

/// What `ptmpl convert` says of a plan's day 0 after its findings: `day 0 is 2027-12-20 (the
/// plan's start), recorded in the template's calendar block`; empty without a day 0.
[[nodiscard]] std::string day_zero_note(const Conversion& conversion);

/// The conversion diagnostics a reader can report: id, default severity, one-line summary, and
/// how the text report words several of them in one file, folded into one line
/// (conversion_group_message): `{n}` is their count, `{topics}` what they are about (the keys
/// dropped, the columns ignored: Diagnostic::topics).
struct ConversionRule {
  std::string_view id;
  Severity severity;
  std::string_view summary;
  std::string_view group;
};
[[nodiscard]] std::span<const ConversionRule> conversion_rules();

/// The severity a finding of `rule` has: its own, or under `strict` an error unless `allow`
/// names it. The one rule every reader and writer applies.
[[nodiscard]] Severity conversion_severity(const ConversionRule& rule, bool strict, std::span<const std::string> allow);

/// Refuses (kUsage, with the nearest id) an `allow` that names no conversion finding.
[[nodiscard]] Status check_allowed(std::span<const std::string> allow);

/// How many findings of one rule in one file `ptmpl convert` folds into one line of its text
/// report (fewer are listed one by one; `--verbose` lists every one).
inline constexpr std::size_t kConversionGroupFrom = 3;

/// The message of the line standing for `findings` (several of one rule in one file, in order):
/// the rule's ConversionRule::group with the count and the topics filled in, e.g.
/// `assignments not written on 71 stories: no CSV column, or a value of the wrong type`. Topics
/// are listed most frequent first (at most 6, then "and N more"), each with its count when
/// they do not all cover every finding (`assignments (71), checklist (3)`).
[[nodiscard]] std::string conversion_group_message(const std::vector<const Diagnostic*>& findings);

/// How `ptmpl convert` reports a conversion: the text summary counts plans ("1 plan converted:
/// …", or "1 plan not converted: …" when `converted` is false: --strict found errors), and
/// repeats of a rule are folded from kConversionGroupFrom on (unless `verbose`).
[[nodiscard]] ReportOptions conversion_report_options(bool converted, bool verbose = false);

/// Microsoft Project XML (MSPDI, Project 2002–2019) → template document. `path` names the
/// file in messages. Fails (with path, line and column) only when the text is not
/// well-formed XML or not an MSPDI project; everything else converts, with diagnostics.
/// No DTD is processed and no entity but XML's five predefined ones is expanded.
[[nodiscard]] Result<Conversion> convert_mspdi(std::string_view text, const std::string& path,
                                               const ConvertOptions& options = {});

/// GanttProject `.gan` (versions 2.0–3.3) → template document. `path` names the file in
/// messages. Fails (with path, line and column) only when the text is not well-formed XML or
/// its root is not `<project>`; everything else converts, with diagnostics. No DTD is
/// processed and no entity but XML's five predefined ones is expanded.
[[nodiscard]] Result<Conversion> convert_gan(std::string_view text, const std::string& path,
                                             const ConvertOptions& options = {});

/// Any plan detect_plan_format() recognises → template document, by the reader for its format.
/// Fails as that reader does, or with a message naming the formats when the text is none of
/// them (or is already a template). A compound file is refused naming what is wrong with it, or
/// what it holds instead of a plan; an MPP14 .mpp is read (its tasks and links; see
/// docs/commands/convert.md), another .mpp format is refused naming it.
[[nodiscard]] Result<Conversion> convert_plan(std::string_view text, const std::string& path,
                                              const ConvertOptions& options = {});

/// Reads the file at `path` ("-": standard input) and converts it as convert_plan() does. A
/// compound file (.mpp) is not read whole: only its header and the sectors its tables name, so
/// a plan padded to gigabytes costs what the plan holds.
[[nodiscard]] Result<Conversion> convert_plan_file(const std::string& path, const ConvertOptions& options = {});

/// A file where a template is read by `schedule` and `stats`: the template, and when the file is
/// another program's plan, the note saying it was converted first.
struct TemplateOrPlan {
  TemplateFile file;
  /// `plan.mpp: a plan, converted to a template first (4 findings: ptmpl convert plan.mpp lists
  /// them)`; empty for a template.
  std::string note;
};

/// Reads `path` as a template, or — a plan told by its first 64 KiB as convert tells it (a
/// compound file, MSPDI, .gan, CSV) — converts it first as convert_plan_file() does and reads
/// the template it becomes. Standard input ("-") is read as a template.
[[nodiscard]] Result<TemplateOrPlan> read_template_or_plan(const std::string& path, const ReadOptions& options = {});

/// A plan file and what became of it: its conversion, or why it was not converted.
struct PlanFileConversion {
  std::string path;
  Result<Conversion> conversion;
  /// A Primavera P6 export of several projects converts into one template each: the project's ID
  /// (its short name); empty for any other plan.
  std::string project{};
};

/// Reads and converts each of `paths` as convert_plan_file() does, on up to `jobs` threads (0: one
/// per core), each file independently: one that cannot be read or converted has its Error and
/// the rest convert. Results come in the order of `paths`; a Primavera P6 export of several
/// projects, when its options name none, gives one result for each project, in the file's order. What `ptmpl convert
/// a.mpp b.xml plans/ -o templates/` does with many plans (docs/commands/convert.md, "Many plans at once").
[[nodiscard]] std::vector<PlanFileConversion> convert_plan_files(std::span<const std::string> paths,
                                                                 const ConvertOptions& options = {}, unsigned jobs = 0);
/// The same with each plan's own options, `options[i]` for `paths[i]` (the settings of the
/// `.ptmpl.json` nearest to each); `options` is as long as `paths`.
[[nodiscard]] std::vector<PlanFileConversion> convert_plan_files(std::span<const std::string> paths,
                                                                 std::span<const ConvertOptions> options,
                                                                 unsigned jobs = 0);

/// CSV (the columns of docs/commands/convert.md) → template document. Fails with the file,
/// row and column (`plan.csv:row 7, column "start": "12x" is not a whole number`) on the first
/// cell that cannot be read, a quote out of place, invalid UTF-8, or a header without a
/// `title` column; unknown columns are findings.
[[nodiscard]] Result<Conversion> convert_csv(std::string_view text, const std::string& path,
                                             const ConvertOptions& options = {});

/// Template (any shape of docs/semantics.md §2 holding one template) → CSV with every column, a UTF-8 byte
/// order mark and CRLF line ends. What a CSV cannot hold (template metadata, checklists,
/// assignments, unknown keys, values of the wrong type, links without both ends) is a
/// finding. Fails on invalid JSON, or a file holding no template or several.
[[nodiscard]] Result<Conversion> export_csv(std::string_view text, const std::string& path,
                                            const ConvertOptions& options = {});

struct ExportOptions {
  /// The date of day 0. Working-day offsets become dates through the template's calendar block
  /// (docs/semantics.md §4: its week, holidays and working dates; Monday to Friday without one), and this
  /// start overrides the block's; absent, the block's start, else `default_start`.
  std::optional<Date> start;
  Date default_start = *parse_date("2027-01-04");
  /// What MS Project XML has no place for is an error instead of a warning.
  bool strict = false;
  /// Under `strict`, the finding ids that keep their own severity.
  std::vector<std::string> allow{};
};

/// Template → Microsoft Project XML, one project per file (a file with several templates is
/// refused). Schema order, one "Standard" calendar (the calendar block's week, and its holidays
/// and working dates as exceptions), declared starts as start-no-earlier-than
/// constraints, links on their successors, costs and work, notes, resources and assignments.
/// Tags, checklists and other keys MSPDI has no place for are findings (`mspdi-export-*`).
/// Fails on a template the reader cannot read or the scheduler cannot schedule, or whose
/// calendar block has a problem (calendar-invalid).
[[nodiscard]] Result<Conversion> export_mspdi(const TemplateFile& file, const ExportOptions& options = {});

/// The same for the template `text` of the file `path` (named in messages). Fails (kUsage)
/// when `text` is no template (JSON), and (kInvalid) at the place of its syntax error.
[[nodiscard]] Result<Conversion> export_mspdi(std::string_view text, const std::string& path,
                                              const ExportOptions& options = {});

/// Template → Excel workbook (`.xlsx`; Conversion::document holds its bytes). The sheet
/// "Stories" has export_csv's header and one row per story, grouped by outline level (summary
/// rows above), with numbers as numbers, the date columns (a calendar start: `options.start`,
/// else the calendar block's) as date cells, and text always as string cells, never formulas;
/// "Assignments" has each story's assignees, "Calendar" the calendar block. What a workbook cannot
/// hold (template metadata, checklists, a text over 32,767 characters, a date before 1900, rows
/// beyond a sheet's 1,048,576) is a finding (`xlsx-export-*`). The workbook is made in a private
/// temporary folder, removed after. Fails as export_csv does, and (kOutputFailed) when the
/// workbook cannot be made.
[[nodiscard]] Result<Conversion> export_xlsx(std::string_view text, const std::string& path,
                                             const ExportOptions& options = {});

}  // namespace ptmpl
