#include "libtemplate/core/config.hpp"
#include "libtemplate/core/diagnostic.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <unordered_map>

#include <fnmatch.h>

#include "libtemplate/core/rules.hpp"
#include "libtemplate/core/spelling.hpp"
#include "libtemplate/core/template_file.hpp"
#include "rules/rule.hpp"

namespace ptmpl {

LintConfig::LintConfig() = default;
LintConfig::~LintConfig() = default;
LintConfig::LintConfig(LintConfig&&) noexcept = default;
LintConfig& LintConfig::operator=(LintConfig&&) noexcept = default;

const RuleSetting* LintConfig::rule(std::string_view id) const {
  auto it = rules_.find(id);
  return it == rules_.end() ? nullptr : &it->second;
}

namespace {

std::string place(const TemplateFile& file, const json::Value& value) {
  json::Position p = file.document().position(value.offset());
  return format_place(file.path(), p.line, p.column) + ": ";
}

// True when `pointer` is `prefix` or lies below it.
bool within(std::string_view pointer, std::string_view prefix) {
  return pointer.starts_with(prefix) &&
         (pointer.size() == prefix.size() || prefix.empty() || pointer[prefix.size()] == '/');
}

// True when the glob `pattern` matches `path` relative to the directory `base` ("" is the
// current one); '*' also crosses '/'.
bool matches_relative(std::string_view pattern, const std::string& path, const std::string& base) {
  std::error_code ec;
  std::filesystem::path relative = std::filesystem::relative(
      std::filesystem::absolute(path, ec), std::filesystem::absolute(base.empty() ? "." : base, ec), ec);
  return !ec && ::fnmatch(std::string(pattern).c_str(), relative.string().c_str(), 0) == 0;
}

// A configuration is told at most this many of its problems: the first in the file. (A file of
// a million misspelt keys would take a minute to check whole, for a list nobody reads.)
constexpr std::size_t kMaxConfigProblems = 100;

// What is wrong with `option` of `rule`'s options: a name the rule does not have, or a value
// that is not a number in its range; nullopt when nothing is.
std::optional<std::string> option_problem(const RuleInfo& rule, const json::Member& option) {
  const RuleOption* known = find_rule_option(rule, option.key.text());
  if (known == nullptr) {
    std::vector<std::string_view> names;
    for (const RuleOption& o : rule.options) names.push_back(o.name);
    std::string message = std::string(rule.id) + " has no option " + json::quoted(option.key.text());
    if (auto suggestion = closest(option.key.text(), names))
      message += " (did you mean " + json::quoted(*suggestion) + "?)";
    return message + (names.empty() ? "; it takes none" : "; docs/rules/" + std::string(rule.id) + ".md lists them");
  }
  const std::optional<double> value = option.value.is_number() ? option.value.as_double() : std::nullopt;
  if (value && *value >= known->min && *value <= known->max && (!known->integer || option.value.as_int64()))
    return std::nullopt;
  auto number = [](double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", x);
    return std::string(text);
  };
  return "option " + json::quoted(option.key.text()) + " of " + std::string(rule.id) + " is " +
         rules::describe(option.value) + ", not " + (known->integer ? "a whole number" : "a number") + " from " +
         number(known->min) + " to " + number(known->max);
}

// Every problem of a configuration that is valid JSON, one line each ("FILE:LINE:COL: what"),
// in the order of the file: violations of its schema and rule ids the catalogue does not hold
// (one problem per place: an ignore entry's `rule` that breaks the schema is not also unknown).
// nullopt when there is none.
std::optional<std::string> config_problems(const TemplateFile& file) {
  const json::Value& root = file.document().root();
  // Each kind up to one past the bound, in file order: the first of the merged list are then
  // the first of the file, and one past the bound says that more were left out.
  const std::size_t limit = kMaxConfigProblems + 1;
  std::vector<std::pair<std::uint64_t, std::string>> problems;  // offset, line
  std::size_t rule_ids = 0;
  auto add_unknown_rule = [&](const json::Value& at, std::string_view id) {
    if (rule_ids++ < limit) problems.emplace_back(at.offset(), place(file, at) + unknown_rule_message(id));
  };
  for (rules::SchemaViolation& violation : rules::check_config_schema(root, limit))
    problems.emplace_back(violation.at->offset(), place(file, *violation.at) + violation.message);
  if (!root.is_object()) return problems.empty() ? std::nullopt : std::optional(problems.front().second);
  if (const json::Value* rules = root.find("rules"); rules != nullptr && rules->is_object())
    for (const json::Member& m : rules->members()) {
      const json::Value* options = m.value.is_object() ? m.value.find("options") : nullptr;
      if (is_rule_group(m.key.text())) {
        if (options != nullptr)
          problems.emplace_back(options->offset(), place(file, *options) + "the group " + json::quoted(m.key.text()) +
                                                       " takes a severity, not options: set them on its rules");
      } else if (const RuleInfo* rule = find_rule(m.key.text()); rule == nullptr) {
        add_unknown_rule(m.key, m.key.text());
      } else if (options != nullptr && options->is_object()) {
        for (const json::Member& option : options->members())
          if (auto problem = option_problem(*rule, option))
            problems.emplace_back(option.key.offset(), place(file, option.key) + *problem);
      }
    }
  if (const json::Value* ignore = root.find("ignore"); ignore != nullptr && ignore->is_array())
    for (const json::Value& entry : ignore->items())
      if (const json::Value* rule = entry.is_object() ? entry.find("rule") : nullptr;
          rule != nullptr && rule->is_string() && find_rule(rule->text()) == nullptr)
        add_unknown_rule(*rule, rule->text());
  if (problems.empty()) return std::nullopt;
  std::stable_sort(problems.begin(), problems.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string lines;
  std::size_t told = 0;
  for (std::size_t i = 0; i < problems.size(); ++i) {
    if (i > 0 && problems[i].first == problems[i - 1].first) continue;
    if (told++ == kMaxConfigProblems) {
      lines += "\n" + file.path() + ": more problems follow; the first " + std::to_string(kMaxConfigProblems) +
               " of a configuration are named";
      break;
    }
    if (!lines.empty()) lines += '\n';
    lines += problems[i].second;
  }
  return lines;
}

}  // namespace

Result<LintConfig> LintConfig::parse(const std::string& path, std::string_view text) {
  LintConfig config;
  config.path_ = path;
  config.directory_ = std::filesystem::path(path).parent_path().string();
  ReadOptions read;
  read.build_model = false;
  config.source_ = std::make_unique<TemplateFile>(TemplateFile::parse(path, FileText(std::string(text)), read));
  const TemplateFile& file = *config.source_;
  const json::Document& doc = file.document();
  if (!doc.ok()) {
    const json::ParseIssue& issue = doc.issues().front();
    json::Position p = doc.position(issue.offset);
    return Error::invalid(format_place(path, p.line, p.column) + ": " + issue.message);
  }
  const json::Value& root = doc.root();
  if (std::optional<std::string> problems = config_problems(file)) return Error::invalid(std::move(*problems));
  if (const json::Value* rules = root.find("rules")) {
    // A group's setting first, then its rules' own, which win over it.
    for (const json::Member& m : rules->members()) {
      if (!is_rule_group(m.key.text())) continue;
      RuleSetting setting;
      const json::Value* severity = m.value.is_string() ? &m.value : m.value.find("severity");
      if (severity != nullptr) {
        setting.off = severity->text() == "off";
        setting.severity = parse_severity(severity->text());
      }
      for (const RuleInfo& rule : rule_catalogue())
        if (rule.group == m.key.text()) config.rules_[std::string(rule.id)] = setting;
    }
    for (const json::Member& m : rules->members()) {
      if (is_rule_group(m.key.text())) continue;
      RuleSetting setting;
      const json::Value* severity = m.value.is_string() ? &m.value : m.value.find("severity");
      if (severity != nullptr) {
        setting.off = severity->text() == "off";
        setting.severity = parse_severity(severity->text());
      }
      setting.options = m.value.find("options");
      config.rules_[std::string(m.key.text())] = setting;
    }
  }
  if (const json::Value* ignore = root.find("ignore")) {
    for (const json::Value& entry : ignore->items()) {
      IgnoreEntry e;
      if (const json::Value* rule = entry.find("rule")) e.rule = rule->text();
      if (const json::Value* files = entry.find("files")) e.files = std::string(files->text());
      if (const json::Value* pointer = entry.find("pointer")) e.pointer = std::string(pointer->text());
      if (const json::Value* temp_id = entry.find("temp_id")) e.temp_id = std::string(temp_id->text());
      config.ignore_.push_back(std::move(e));
    }
  }
  if (const json::Value* depth = root.find("max_depth")) {
    auto n = depth->as_int64();
    if (!n || *n > INT32_MAX) return Error::invalid(place(file, *depth) + "max_depth is out of range");
    config.max_depth_ = static_cast<std::uint32_t>(*n);
  }
  for (auto [key, globs] :
       {std::pair{"exclude", &config.exclude_}, std::pair{"extend-exclude", &config.extend_exclude_}})
    if (const json::Value* list = root.find(key))
      for (const json::Value& glob : list->items()) globs->emplace_back(glob.text());
  if (const json::Value* fail_on = root.find("fail_on")) config.fail_on_ = parse_severity(fail_on->text());
  if (const json::Value* convert = root.find("convert")) {
    if (const json::Value* strict = convert->find("strict")) config.convert_.strict = strict->as_bool();
    if (const json::Value* allow = convert->find("allow"))
      for (const json::Value& id : allow->items()) {
        const json::Position p = doc.position(id.offset());
        config.convert_.allow.push_back({std::string(id.text()), format_place(path, p.line, p.column)});
      }
  }
  if (const json::Value* capacity = root.find("capacity"))
    for (const json::Member& role : capacity->members()) {
      const json::Position p = doc.position(role.value.offset());
      config.capacity_.push_back(
          {std::string(role.key.text()), std::string(role.value.text()), format_place(path, p.line, p.column)});
    }
  return config;
}

Result<LintConfig> LintConfig::load(const std::string& path) {
  auto bytes = FileText::read(path);
  if (!bytes.ok()) return bytes.error();
  return parse(path, bytes.value().text());
}

bool LintConfig::ignores(const Diagnostic& finding, const TemplateFile& file) const {
  for (const IgnoreEntry& entry : ignore_) {
    if (!entry.rule.empty() && entry.rule != finding.rule) continue;
    if (entry.files && !matches_relative(*entry.files, finding.path, directory_)) continue;
    if (entry.pointer && !within(finding.pointer, *entry.pointer)) continue;
    if (entry.temp_id) {
      // The story the finding is about: the innermost one whose pointer holds the finding's.
      // Only a story whose pointer holds it can have a descendant that does, and of siblings
      // at most one does: a descent from the top, not a walk of every story.
      const Story* about = nullptr;
      std::size_t about_size = 0;
      for (const TemplateSource& source : file.templates()) {
        std::span<const Story> list = source.model.stories;
        while (!list.empty()) {
          const Story* inside = nullptr;
          for (const Story& story : list) {
            const std::string pointer = story.pointer();
            if (!within(finding.pointer, pointer)) continue;
            inside = &story;
            if (about == nullptr || pointer.size() > about_size) {
              about = &story;
              about_size = pointer.size();
            }
            break;
          }
          list = inside != nullptr ? inside->sub_stories : std::span<const Story>();
        }
      }
      if (about == nullptr || !about->temp_id || temp_id_key(*about->temp_id) != *entry.temp_id) continue;
    }
    return true;
  }
  return false;
}

bool LintConfig::skips_file(const std::string& path) const {
  for (const IgnoreEntry& entry : ignore_)
    if (entry.rule.empty() && entry.files && !entry.pointer && !entry.temp_id &&
        matches_relative(*entry.files, path, directory_))
      return true;
  return false;
}

Result<HealthThresholds> health_thresholds_for(const std::string& path, const std::optional<std::string>& config_path,
                                               bool discover) {
  std::optional<std::string> config = config_path;
  if (!config && discover && path != "-") config = find_config(path);
  if (!config) return HealthThresholds{};
  auto loaded = LintConfig::load(*config);
  if (!loaded.ok()) return loaded.error();
  return health_thresholds(&loaded.value().rules());
}

bool exclude_matches(std::string_view pattern, const std::string& path, bool directory, const std::string& base) {
  if (pattern.ends_with('/')) {
    if (!directory) return false;
    pattern.remove_suffix(1);
  }
  if (pattern.starts_with("./")) pattern.remove_prefix(2);
  if (pattern.empty()) return false;
  if (pattern.find('/') == std::string_view::npos) {
    std::string name = std::filesystem::path(path).filename().string();
    return ::fnmatch(std::string(pattern).c_str(), name.c_str(), 0) == 0;
  }
  return matches_relative(pattern, path, base);
}

Result<std::vector<SelectedFile>> select_files(const std::vector<std::string>& paths,
                                               const SelectionSettings& settings) {
  // The configuration of each directory walked, read once (one is found per directory, not per
  // file: the files of a directory share it).
  std::map<std::string, LintConfig> configs;
  std::map<std::string, const LintConfig*> config_of_directory;
  std::optional<Error> failure;
  auto config_for = [&](const std::string& path) -> const LintConfig* {
    std::optional<std::string> config_path = settings.config_path;
    std::string directory = std::filesystem::path(path).parent_path().string();
    if (!config_path) {
      if (!settings.discover_config) return nullptr;
      auto known = config_of_directory.find(directory);
      if (known != config_of_directory.end()) return known->second;
      config_path = find_config(path);
      if (!config_path) return config_of_directory[directory] = nullptr;
    }
    auto it = configs.find(*config_path);
    if (it == configs.end()) {
      auto loaded = LintConfig::load(*config_path);
      if (!loaded.ok()) {
        if (!failure) failure = loaded.error();
        return config_of_directory[directory] = nullptr;
      }
      it = configs.emplace(*config_path, std::move(loaded).value()).first;
    }
    return config_of_directory[directory] = &it->second;
  };
  SkipPath skip = [&](const std::string& path, bool directory) {
    const LintConfig* config = config_for(path);
    const std::string base = config != nullptr ? config->directory() : std::string();
    const std::vector<std::string>* exclude = settings.exclude ? &*settings.exclude : nullptr;
    if (exclude == nullptr && config != nullptr) exclude = &config->exclude();
    // --exclude's globs are relative to the current directory, the configuration's to its own.
    const std::string exclude_base = settings.exclude ? std::string() : base;
    if (exclude != nullptr)
      for (const std::string& glob : *exclude)
        if (exclude_matches(glob, path, directory, exclude_base)) return true;
    if (config != nullptr) {
      for (const std::string& glob : config->extend_exclude())
        if (exclude_matches(glob, path, directory, base)) return true;
      if (!directory && config->skips_file(path)) return true;
    }
    for (const std::string& glob : settings.extend_exclude)
      if (exclude_matches(glob, path, directory, "")) return true;
    return settings.ignored && settings.ignored(path, directory);
  };
  auto walked = walk_paths(paths, skip);
  if (settings.force_exclude && walked.ok()) {
    auto excluded = [&](const SelectedFile& file) {
      if (!file.named || file.unlisted) return false;
      if (skip(file.path, false)) return true;
      // The directories in the path as given (a hook names files relative to the repository),
      // never those above an absolute path's repository.
      if (std::filesystem::path(file.path).is_absolute()) return false;
      for (std::filesystem::path dir = std::filesystem::path(file.path).parent_path(); !dir.empty() && dir != ".";
           dir = dir.parent_path())
        if (skip(dir.string(), true)) return true;
      return false;
    };
    std::erase_if(walked.value(), excluded);
    for (SelectedFile& file : walked.value()) file.named = false;  // taken as found: tree stays empty
  }
  if (failure) return *failure;  // a configuration that cannot be read, asked about here or above
  return walked;
}

std::optional<std::string> find_config(const std::string& file) {
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::absolute(file, ec).lexically_normal().parent_path();
  if (ec) return std::nullopt;
  for (;;) {
    std::filesystem::path candidate = dir / ".ptmpl.json";
    if (std::filesystem::is_regular_file(candidate, ec)) return candidate.string();
    if (!dir.has_parent_path() || dir.parent_path() == dir) return std::nullopt;
    dir = dir.parent_path();
  }
}

}  // namespace ptmpl
