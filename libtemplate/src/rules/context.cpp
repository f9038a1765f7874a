// What a rule sees and how it reports (rule.hpp): findings placed in the file, with excerpts
// and fixes, as the configuration's settings of each rule leave them.
#include "rules/rule.hpp"

#include <algorithm>
#include <tuple>

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

const ScheduleHealth& Context::health(const TemplateSource& source) {
  return shared_.get(shared_.health, source, [&] {
    return std::make_unique<ScheduleHealth>(graph(source), health_thresholds(settings_), health_deadline(source.model));
  });
}

bool Context::enabled(const RuleInfo& rule) const {
  if (!select_.empty() && !selects(select_, rule)) return false;
  const RuleSetting* configured = setting(rule.id);
  if (configured != nullptr && configured->off) return false;
  // A rule of a group is off unless something names it.
  return rule.group.empty() || configured != nullptr || !select_.empty();
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
  last_ = nullptr;
  const RuleInfo* info = find_rule(rule);
  if (info != nullptr && !enabled(*info)) return;
  if (const RuleSetting* configured = setting(rule); configured != nullptr && configured->severity)
    severity = *configured->severity;
  // The rule, not each finding, decides whether its fix is safe (docs/semantics.md §6): one place.
  if (fix) {
    fix->unsafe = info == nullptr || info->fix != FixKind::Safe;
  }
  Diagnostic finding;
  finding.rule = rule;
  finding.severity = severity;
  finding.message = std::move(message);
  finding.path = file_.path();
  finding.pointer = std::move(pointer);
  finding.fix = std::move(fix);
  if (ignores_ && ignores_(finding)) return;
  if (!listed_.lists(rule, offset, finding.pointer, finding.message)) {
    listed_.leave_out(rule, severity, offset, finding.pointer);
    return;
  }
  json::Position p = file_.document().position(offset);
  finding.line = p.line;
  finding.column = p.column;
  std::tie(finding.excerpt, finding.excerpt_column) = make_excerpt(file_.text(), offset);
  last_ = &listed_.list(offset, std::move(finding));
}

std::vector<Diagnostic> Context::take() {
  return listed_.take([&](Diagnostic& finding, std::uint64_t offset) {
    finding.path = file_.path();
    json::Position p = file_.document().position(offset);
    finding.line = p.line;
    finding.column = p.column;
    std::tie(finding.excerpt, finding.excerpt_column) = make_excerpt(file_.text(), offset);
  });
}

void Context::relate(const TemplateSource& source, const json::Value& at, std::string message) {
  if (last_ == nullptr) return;
  // Inside a raw_json string, the place in the file is the string itself (as report()).
  std::uint64_t offset = source.raw_json_string ? source.raw_json_string->offset() : at.offset();
  json::Position p = file_.document().position(offset);
  last_->related.push_back({offset, p.line, p.column, std::move(message)});
}

bool ListedFindings::before(std::size_t a, std::size_t b) const {
  const Listed& x = listed_[a];
  const Listed& y = listed_[b];
  return std::tie(x.offset, x.finding.pointer, x.finding.message) <
         std::tie(y.offset, y.finding.pointer, y.finding.message);
}

bool ListedFindings::lists(std::string_view rule, std::uint64_t offset, std::string_view pointer,
                           std::string_view message) const {
  auto it = rules_.find(rule);
  if (it == rules_.end() || it->second.heap.size() < kFindingsPerRule) return true;
  const Listed& last = listed_[it->second.heap.front()];
  using Key = std::tuple<std::uint64_t, std::string_view, std::string_view>;
  return Key(offset, pointer, message) < Key(last.offset, last.finding.pointer, last.finding.message);
}

Diagnostic& ListedFindings::list(std::uint64_t offset, Diagnostic finding) {
  auto it = rules_.find(finding.rule);
  if (it == rules_.end()) it = rules_.emplace(finding.rule, OfRule{}).first;
  std::vector<std::size_t>& heap = it->second.heap;
  auto later = [this](std::size_t a, std::size_t b) { return before(a, b); };
  std::size_t at = listed_.size();
  if (heap.size() < kFindingsPerRule) {
    listed_.push_back({offset, std::move(finding)});
    heap.push_back(at);
  } else {
    std::pop_heap(heap.begin(), heap.end(), later);
    at = heap.back();
    Listed& last = listed_[at];
    leave_out(last.finding.rule, last.finding.severity, last.offset, last.finding.pointer);
    last = {offset, std::move(finding)};
  }
  std::push_heap(heap.begin(), heap.end(), later);
  return listed_[at].finding;
}

void ListedFindings::leave_out(std::string_view rule, Severity severity, std::uint64_t offset, std::string_view pointer,
                               std::size_t count) {
  auto it = rules_.find(rule);
  if (it == rules_.end()) it = rules_.emplace(std::string(rule), OfRule{}).first;
  LeftOut& left = it->second.left_out[static_cast<std::size_t>(severity)];
  const bool first = left.count == 0;
  left.count += count;
  using Key = std::pair<std::uint64_t, std::string_view>;
  if (first || Key(offset, pointer) < Key(left.offset, left.pointer)) {
    left.offset = offset;
    left.pointer = pointer;
  }
}

void ListedFindings::merge(ListedFindings&& other) {
  for (Listed& listed : other.listed_) {
    const Diagnostic& finding = listed.finding;
    if (lists(finding.rule, listed.offset, finding.pointer, finding.message))
      list(listed.offset, std::move(listed.finding));
    else
      leave_out(finding.rule, finding.severity, listed.offset, finding.pointer);
  }
  for (const auto& [rule, of_rule] : other.rules_) {
    for (std::size_t severity = 0; severity < of_rule.left_out.size(); ++severity) {
      const LeftOut& left = of_rule.left_out[severity];
      if (left.count > 0) leave_out(rule, static_cast<Severity>(severity), left.offset, left.pointer, left.count);
    }
  }
  other = {};
}

std::vector<Diagnostic> ListedFindings::take(const std::function<void(Diagnostic&, std::uint64_t)>& place) {
  std::vector<Diagnostic> out;
  out.reserve(listed_.size());
  for (Listed& listed : listed_) out.push_back(std::move(listed.finding));
  for (const auto& [rule, of_rule] : rules_) {
    for (std::size_t severity = 0; severity < of_rule.left_out.size(); ++severity) {
      const LeftOut& left = of_rule.left_out[severity];
      if (left.count == 0) continue;
      Diagnostic rest;
      rest.rule = rule;
      rest.severity = static_cast<Severity>(severity);
      rest.message = std::to_string(left.count) +
                     " more findings of this rule in this file, the first here, are not listed: lint lists at most " +
                     std::to_string(kFindingsPerRule) + " findings of a rule in a file";
      rest.pointer = left.pointer;
      rest.count = left.count;
      place(rest, left.offset);
      out.push_back(std::move(rest));
    }
  }
  *this = {};
  return out;
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
