// What a rule sees and how it reports (rule.hpp): findings placed in the file, with excerpts
// and fixes, as the configuration's settings of each rule leave them.
#include "rules/rule.hpp"

namespace ptmpl::rules {

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
  std::optional<std::uint64_t> end = json::value_end(file_.text(), value);
  if (!end) return std::nullopt;
  return Fix{value.offset(), *end - value.offset(), std::move(replacement)};
}

const StoryIndex& Context::index(const TemplateSource& source) {
  return shared_.get(shared_.indices, source, [&] { return std::make_unique<StoryIndex>(source.model.stories); });
}
const DependencyGraph& Context::graph(const TemplateSource& source) {
  return shared_.get(shared_.graphs, source, [&] { return std::make_unique<DependencyGraph>(index(source)); });
}
const DeclaredIntervals& Context::intervals(const TemplateSource& source) {
  return shared_.get(shared_.intervals, source, [&] { return std::make_unique<DeclaredIntervals>(index(source)); });
}
const Rollup& Context::rollup(const TemplateSource& source) {
  return shared_.get(shared_.rollups, source, [&] { return std::make_unique<Rollup>(index(source)); });
}

const RuleSetting* Context::setting(std::string_view rule) const {
  if (settings_ == nullptr) return nullptr;
  auto it = settings_->find(rule);
  return it == settings_->end() ? nullptr : &it->second;
}

const json::Value* Context::rule_options(std::string_view rule) const {
  const RuleSetting* found = setting(rule);
  return found != nullptr ? found->options : nullptr;
}

void Context::add(std::string_view rule, Severity severity, std::uint64_t offset, std::string pointer,
                  std::string message, std::optional<Fix> fix) {
  last_kept_ = false;
  if (const RuleSetting* configured = setting(rule)) {
    if (configured->off) return;
    if (configured->severity) severity = *configured->severity;
  }
  // The rule, not each finding, decides whether its fix is safe (docs/semantics.md §6): one place.
  if (fix) {
    const RuleInfo* info = find_rule(rule);
    fix->unsafe = info == nullptr || info->fix != FixKind::Safe;
  }
  json::Position p = file_.document().position(offset);
  auto [excerpt, column] = make_excerpt(file_.text(), offset);
  diagnostics_.push_back({std::string(rule),
                          severity,
                          std::move(message),
                          file_.path(),
                          p.line,
                          p.column,
                          std::move(pointer),
                          std::move(excerpt),
                          column,
                          std::move(fix),
                          {},
                          {}});
  last_kept_ = true;
}

void Context::relate(const TemplateSource& source, const json::Value& at, std::string message) {
  if (!last_kept_ || diagnostics_.empty()) return;
  // Inside a raw_json string, the place in the file is the string itself (as report()).
  std::uint64_t offset = source.raw_json_string ? source.raw_json_string->offset() : at.offset();
  json::Position p = file_.document().position(offset);
  diagnostics_.back().related.push_back({offset, p.line, p.column, std::move(message)});
}

std::string describe(const json::Value& v) {
  std::string kind(json::kind_name(v));
  if (v.is_number()) return kind + " (" + std::string(v.text()) + ")";
  if (v.is_string()) return kind + " (" + json::quoted(v.text()) + ")";
  return kind;
}

std::string Context::line_of(const TemplateSource& source, const json::Value& at) const {
  json::Position p = file_.position_of(source, at);
  return "line " + std::to_string(p.line);
}

}  // namespace ptmpl::rules
