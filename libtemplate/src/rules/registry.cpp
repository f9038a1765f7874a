// The rule table: every rule, alphabetical by id. `ptmpl rules` prints from it.
#include <algorithm>
#include <array>
#include <atomic>
#include <thread>

#include "rules/rule.hpp"

namespace ptmpl {

namespace {

struct Rule {
  RuleInfo info;
  rules::Check check;
};

constexpr std::array kRules = {
    Rule{{"duplicate-key", Severity::Warning, "the same key appears twice in one object"}, rules::check_duplicate_key},
    Rule{{"json-syntax", Severity::Error, "the file is not valid JSON (or not valid UTF-8)"}, rules::check_json_syntax},
    Rule{{"nesting-depth", Severity::Warning, "arrays and objects nest deeper than the bound (default 256)"},
         rules::check_nesting_depth},
    Rule{{"schema", Severity::Error, "a value has the wrong type or shape for the bundled JSON Schema"},
         rules::check_schema},
    Rule{{"story-type-invalid", Severity::Error, "story_type is not task, deliverable or milestone"},
         rules::check_story_type_invalid},
    Rule{{"temp-id-duplicate", Severity::Error, "two stories share a temp_id"}, rules::check_temp_id_duplicate},
    Rule{{"temp-id-missing", Severity::Error, "a story has no temp_id (error when its dependencies need one)"},
         rules::check_temp_id_missing},
    Rule{{"template-title-missing", Severity::Error, "the template has no title, or a blank one"},
         rules::check_template_title_missing},
    Rule{{"title-missing", Severity::Error, "a story has no title, or a blank one"}, rules::check_title_missing},
};

constexpr bool sorted_by_id() {
  for (std::size_t i = 1; i < kRules.size(); ++i)
    if (!(kRules[i - 1].info.id < kRules[i].info.id)) return false;
  return true;
}
static_assert(sorted_by_id(), "keep the rule table alphabetical");

std::array<RuleInfo, kRules.size()> make_catalogue() {
  std::array<RuleInfo, kRules.size()> out{};
  for (std::size_t i = 0; i < kRules.size(); ++i) out[i] = kRules[i].info;
  return out;
}

const std::array<RuleInfo, kRules.size()> kCatalogue = make_catalogue();

}  // namespace

std::span<const RuleInfo> rule_catalogue() {
  return kCatalogue;
}

const RuleInfo* find_rule(std::string_view id) {
  auto it = std::lower_bound(kCatalogue.begin(), kCatalogue.end(), id,
                             [](const RuleInfo& r, std::string_view key) { return r.id < key; });
  return it != kCatalogue.end() && it->id == id ? &*it : nullptr;
}

std::vector<Diagnostic> lint(const TemplateFile& file, const LintOptions& options) {
  rules::Context context(file, options);
  for (const Rule& rule : kRules) rule.check(context);
  std::vector<Diagnostic> out = context.take();
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Diagnostic> lint_text(const std::string& path, std::string_view text, const LintOptions& options) {
  ReadOptions read;
  read.parse.max_depth = options.max_depth;
  TemplateFile file = TemplateFile::parse(path, FileText::borrow(text), read);
  return lint(file, options);
}

LintRun lint_files(const std::vector<std::string>& paths, const LintOptions& options, unsigned jobs) {
  struct Slot {
    std::vector<Diagnostic> diagnostics;
    std::string error;
    bool read = false;
  };
  std::vector<Slot> slots(paths.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    ReadOptions read;
    read.parse.max_depth = options.max_depth;
    for (std::size_t i = next++; i < paths.size(); i = next++) {
      auto file = TemplateFile::read(paths[i], read);
      if (!file.ok()) {
        slots[i].error = file.error().message;
        continue;
      }
      slots[i].read = true;
      slots[i].diagnostics = lint(file.value(), options);
    }
  };
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
  jobs = static_cast<unsigned>(std::min<std::size_t>(jobs, paths.size()));
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(work);
  work();
  for (std::thread& t : threads) t.join();

  LintRun run;
  for (Slot& slot : slots) {
    if (!slot.read) {
      run.read_errors.push_back(std::move(slot.error));
      continue;
    }
    ++run.files;
    run.diagnostics.insert(run.diagnostics.end(), std::make_move_iterator(slot.diagnostics.begin()),
                           std::make_move_iterator(slot.diagnostics.end()));
  }
  std::stable_sort(run.diagnostics.begin(), run.diagnostics.end());
  return run;
}

namespace rules {

void Context::report(std::string_view rule, Severity severity, const TemplateSource& source, const json::Value& at,
                     std::string pointer, std::string message, std::optional<Fix> fix) {
  // Inside a raw_json string, the place in the file is the string itself.
  add(rule, severity, source.raw_json_string ? source.raw_json_string->offset() : at.offset(), std::move(pointer),
      std::move(message), std::move(fix));
}

void Context::report_at_offset(std::string_view rule, Severity severity, std::uint64_t offset, std::string pointer,
                               std::string message, std::optional<Fix> fix) {
  add(rule, severity, offset, std::move(pointer), std::move(message), std::move(fix));
}

std::optional<Fix> Context::replace_value(const TemplateSource& source, const json::Value& value,
                                          std::string replacement) const {
  if (source.raw_json_string) return std::nullopt;
  std::optional<std::uint64_t> end = json::scalar_end(file_.text(), value);
  if (!end) return std::nullopt;
  return Fix{value.offset(), *end - value.offset(), std::move(replacement)};
}

void Context::add(std::string_view rule, Severity severity, std::uint64_t offset, std::string pointer,
                  std::string message, std::optional<Fix> fix) {
  json::Position p = file_.document().position(offset);
  auto [excerpt, column] = make_excerpt(file_.text(), offset);
  diagnostics_.push_back({std::string(rule), severity, std::move(message), file_.path(), p.line, p.column,
                          std::move(pointer), std::move(excerpt), column, std::move(fix)});
}

std::string Context::line_of(const TemplateSource& source, const json::Value& at) const {
  json::Position p = file_.position_of(source, at);
  return "line " + std::to_string(p.line);
}

}  // namespace rules
}  // namespace ptmpl
