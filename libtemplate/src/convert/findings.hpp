// What every converter shares: the one table of conversion findings, and building a finding
// that points into the converted file. Private to the converters.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "convert/plan/plan.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/dependency_graph.hpp"
#include "libtemplate/core/diagnostic.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/result.hpp"
#include "libtemplate/core/template_file.hpp"

namespace ptmpl::detail {

/// The registered rule `id` (precondition: it is in the table; a test checks every id used).
[[nodiscard]] const ConversionRule& conversion_rule(std::string_view id);

/// `path:line:col: not UTF-8 text` at the first byte of `text` that is not valid UTF-8; nullopt
/// when all of it is. The XML readers need it too: pugixml passes the bytes of a UTF-8 document
/// through unchecked, and they would end up in the template the converter writes.
[[nodiscard]] std::optional<Error> not_utf8_error(std::string_view text, const std::string& path);

/// The error for text holding a NUL byte, at the first one: no text plan holds one (it is binary
/// data, or zeros padding a file, which FileText::read_text() stops at). `what` says what the
/// text is not ("not a CSV plan").
[[nodiscard]] std::optional<Error> nul_byte_error(std::string_view text, const std::string& path,
                                                  std::string_view what);

/// Levels of sub_stories a converted template may have, the same for every reader (MSPDI,
/// `.gan`, CSV): each level is two levels of JSON (the story and its sub_stories array) and the
/// template document adds four, within the nesting bound lint and fmt read by default (256).
/// It also bounds the depth of the tree the readers build and write canonically (the writer
/// recurses once per level), whatever the input's nesting.
inline constexpr std::size_t kMaxStoryLevels = 100;

/// The one error of every reader for a plan nested deeper: `PLACE: NAME would be nested LEVELS
/// levels deep; a template holds at most 100 (the nesting lint and fmt read)`.
[[nodiscard]] Error too_deep_error(std::string_view place, std::string_view name, std::size_t levels);

/// Why a template file cannot be exported (MSPDI, CSV): a syntax error, or a nesting deeper than
/// the parser keeps (the stories below would be lost); nullopt when it can be.
[[nodiscard]] std::optional<Error> unexportable(const TemplateFile& file);

/// Calls `visit(value, pointer, expected)` for every item of a story list or sub_stories array
/// that is not a story (an object), and for every sub_stories that is not an array: the model
/// leaves them out, so an export reports them. `pointer` is the value's JSON pointer in its
/// document; `expected` says what it should be ("a story (an object)", "a list of stories").
void for_each_non_story(
    const TemplateSource& source,
    const std::function<void(const json::Value&, const std::string&, std::string_view expected)>& visit);

class FindingSink;

/// Where a reader wrote the dependency `index` of the story written `source`-th, which leads
/// into the story written `target`-th (stories are written in pre-order, by StoryWriter).
using LinkPlace = std::function<plan::Place(std::size_t source, std::size_t index, std::size_t target)>;

/// Reports each dependency cycle of the template `document` a reader wrote as a finding of
/// `rule` (`csv-dependency-cycle`, …), at the source's place of the link that closes it. A
/// template with a cycle converts, but cannot be scheduled.
void report_cycles(std::string_view document, const std::string& path, std::string_view rule, const LinkPlace& place_of,
                   FindingSink& findings);
/// The same for `cycles` of `graph`, the graph of a template a reader wrote and has read back.
void report_cycles(const DependencyGraph& graph, std::span<const Cycle> cycles, std::string_view rule,
                   const LinkPlace& place_of, FindingSink& findings);

/// Collects the findings of one conversion of `text` (named `path` in messages).
class FindingSink {
 public:
  FindingSink(std::string_view text, const std::string& path, const ConvertOptions& options)
      : text_(text), path_(path), options_(options), lines_(text) {}

  /// A finding of rule `id` at byte `offset` of the text (negative: the whole file), with
  /// its line, column and excerpt; with `strict`, an error. `topics`: what it is about, named
  /// the same in each repeat (Diagnostic::topics), for the rules whose group message lists them.
  void report(std::string_view id, std::ptrdiff_t offset, std::string message, std::vector<std::string> topics = {});

  /// A finding at `place`: a byte of the text as above, or a row of a binary file's table or a
  /// sheet's cell, which the message names after what it says (`… (the task table's row 12)`,
  /// `… (sheet Tasks, cell B17)`).
  void report(std::string_view id, const plan::Place& place, std::string message, std::vector<std::string> topics = {});
  /// `path:line:column` of a place in the text; `path (the task table's row 12)` of a row.
  [[nodiscard]] std::string place_text(const plan::Place& place) const;
  /// The sheet a workbook's cells (plan::Place::cell) are on, named in their places:
  /// `plan.xlsx (sheet Tasks, cell B17)`.
  void set_sheet(std::string sheet) { sheet_ = std::move(sheet); }

  [[nodiscard]] json::Position position(std::uint64_t offset) const { return lines_.position(offset); }
  /// The findings, sorted (path, line, column, rule), or for a binary source in the order of
  /// the plan (the project's, then its calendars', tasks' with their links, resources' and
  /// assignments'; in the order reported within one); the sink is left empty.
  [[nodiscard]] std::vector<Diagnostic> take();

 private:
  /// `plan::describe(place)`, with the sheet of a cell: "sheet Tasks, cell B17".
  [[nodiscard]] std::string describe(const plan::Place& place) const;

  std::string_view text_;
  const std::string& path_;
  ConvertOptions options_;
  std::string sheet_;
  json::LineIndex lines_;
  std::vector<Diagnostic> diagnostics_;
  /// For a binary source's findings: each one's place in the plan's order (see take()).
  std::vector<std::pair<int, std::uint32_t>> plan_order_;
  bool binary_ = false;
};

}  // namespace ptmpl::detail
