// The language server, by concern: what the language features know about one document's text,
// read once per text and shared (features.hpp). The stories of the file's own tree with the
// byte range of each object, every temp_id, source_id and target_id value with its range, the
// temp_ids of each template, and (on demand) each template's schedule and roll-ups.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "libtemplate/core/calendar.hpp"
#include "libtemplate/core/dependency_graph.hpp"
#include "libtemplate/core/json_emitter.hpp"
#include "libtemplate/core/rollup.hpp"
#include "libtemplate/core/schedule.hpp"
#include "libtemplate/core/template_file.hpp"
#include "lsp/features.hpp"
#include "lsp/text.hpp"

namespace ptmpl::lsp::features {

/// LSP error codes the features answer with.
inline constexpr int kInvalidParams = -32602;
inline constexpr int kRequestFailed = -32803;

/// A place that names a story by temp_id: its own `temp_id` value, or a dependency's
/// `source_id` or `target_id`.
struct IdSite {
  enum class Role : std::uint8_t { Declaration, Source, Target };
  std::uint64_t begin = 0;  ///< byte offset of the value (its opening quote for a string)
  std::uint64_t end = 0;    ///< one past its last byte
  Role role = Role::Declaration;
  std::size_t story = 0;  ///< the story that holds it (index in Analysis::stories())
  std::size_t templ = 0;  ///< the template it belongs to (index in Analysis::templates())
  TempId id;              ///< canonical (canonical_temp_id()): equal ids name the same story
  bool written_as_string = false;
};

/// One story of the file's own tree (not one inside a raw_json string).
struct StoryEntry {
  const Story* story = nullptr;
  std::size_t templ = 0;    ///< index in Analysis::templates()
  std::size_t index = 0;    ///< its pre-order index in its template (StoryIndex, Schedule, Rollup)
  std::size_t parent = 0;   ///< index in Analysis::stories() of its parent, or kNoParent
  std::uint64_t begin = 0;  ///< byte offset of the story object's `{`
  std::uint64_t end = 0;    ///< one past its `}`
};

/// What hover shows of a template: its schedule (when it has one) and its roll-ups.
struct TemplatePlan {
  std::unique_ptr<ScheduledTemplate> planned;  ///< null when the file cannot be scheduled
  std::unique_ptr<Rollup> rollup;
  std::optional<Calendar> calendar;  ///< the document's calendar block, as `ptmpl schedule` reads it
  std::optional<Date> finish;        ///< the block's deadline, when it placed day 0 (docs/semantics.md §14)
  std::string problem;               ///< why there are no scheduled dates (empty when there are)
  std::string calendar_problem;      ///< why the calendar block is not used (empty when it is, or absent)
};

/// One document's text read for the language features. Built once per text (analysis_of()),
/// then only read, from any thread; plan() computes a template's schedule on first use.
class Analysis {
 public:
  static constexpr std::size_t npos = kNoParent;

  Analysis(std::string_view text, std::string_view path);
  Analysis(const Analysis&) = delete;
  Analysis& operator=(const Analysis&) = delete;

  [[nodiscard]] const std::string& text() const { return text_; }
  [[nodiscard]] const TemplateFile& file() const { return *file_; }
  /// False when the text is not valid JSON (there are then no stories).
  [[nodiscard]] bool parsed() const { return file_->document().ok(); }
  [[nodiscard]] const TextPositions& positions() const { return positions_; }
  [[nodiscard]] Range range(std::uint64_t begin, std::uint64_t end) const { return positions_.range(begin, end); }

  [[nodiscard]] std::span<const TemplateSource> templates() const { return file_->templates(); }
  /// The stories of every template whose story list is written in the file itself, in
  /// document order (each template's pre-order).
  [[nodiscard]] std::span<const StoryEntry> stories() const { return stories_; }
  /// Every temp_id, source_id and target_id value, by offset.
  [[nodiscard]] std::span<const IdSite> sites() const { return sites_; }

  /// The site whose value holds `offset` (its last byte counts: a cursor just after the value
  /// is still on it), or nullptr.
  [[nodiscard]] const IdSite* site_at(std::uint64_t offset) const;
  /// The innermost story whose object holds `offset`, or npos.
  [[nodiscard]] std::size_t story_at(std::uint64_t offset) const;
  /// The stories of template `templ` whose temp_id is `id` (canonical), in document order.
  [[nodiscard]] std::span<const std::size_t> declarations(std::size_t templ, const TempId& id) const;
  /// Every site of template `templ` that names `id` (canonical), in document order.
  [[nodiscard]] std::vector<const IdSite*> sites_naming(std::size_t templ, const TempId& id) const;

  /// Template `templ`'s schedule, roll-ups and calendar, computed on first use.
  [[nodiscard]] const TemplatePlan& plan(std::size_t templ) const;

  /// An object's end: one past the `}` or `]` that closes the container opening at `offset`.
  [[nodiscard]] std::optional<std::uint64_t> container_end(std::uint64_t offset) const;

 private:
  void index_containers();
  void index_stories();

  std::string text_;
  std::unique_ptr<TemplateFile> file_;
  TextPositions positions_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> containers_;  // (open, one past close), by open
  std::vector<StoryEntry> stories_;
  std::vector<std::size_t> by_offset_;  // stories_ indices by begin
  std::vector<IdSite> sites_;
  std::vector<std::unordered_map<TempId, std::vector<std::size_t>, TempIdHash>> declared_;  // per template
  mutable std::vector<std::unique_ptr<TemplatePlan>> plans_;
  mutable std::mutex plans_mutex_;
};

/// The analysis of `document`'s text: from a small cache keyed by the text (the last few texts
/// asked about), else read now. Never null.
[[nodiscard]] std::shared_ptr<const Analysis> analysis_of(const OpenDocument& document);

/// Writes an LSP Range / Location.
void write_range(JsonEmitter& json, const Range& range);
void write_location(JsonEmitter& json, std::string_view uri, const Range& range);

/// The text of `json` as a Reply's result.
[[nodiscard]] Reply result_of(JsonEmitter& json);
[[nodiscard]] Reply error_of(int code, std::string message);

/// A temp_id as its text (`temp_id_key`).
[[nodiscard]] std::string id_text(const TempId& id);

}  // namespace ptmpl::lsp::features
