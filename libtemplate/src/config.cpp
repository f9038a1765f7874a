#include "libtemplate/config.hpp"
#include "libtemplate/diagnostic.hpp"

#include <filesystem>
#include <unordered_map>

#include <fnmatch.h>

#include "libtemplate/lint.hpp"
#include "libtemplate/template_file.hpp"
#include "rules/rule.hpp"
#include "spelling.hpp"

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

// "unknown rule "x"" with a suggestion from the catalogue.
std::string unknown_rule(std::string_view id) {
  std::vector<std::string_view> ids;
  for (const RuleInfo& rule : rule_catalogue()) ids.push_back(rule.id);
  std::string message = "unknown rule \"" + std::string(id) + "\"";
  if (auto suggestion = closest(id, ids)) message += " (did you mean \"" + std::string(*suggestion) + "\"?)";
  return message + "; ptmpl rules lists them";
}

// True when `pointer` is `prefix` or lies below it.
bool within(std::string_view pointer, std::string_view prefix) {
  return pointer.starts_with(prefix) &&
         (pointer.size() == prefix.size() || prefix.empty() || pointer[prefix.size()] == '/');
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
  if (auto violation = rules::check_config_schema(root)) {
    const json::Value* at = json::resolve_pointer(root, violation->pointer);
    return Error::invalid(place(file, at != nullptr ? *at : root) + violation->message);
  }
  if (const json::Value* rules = root.find("rules")) {
    for (const json::Member& m : rules->members()) {
      if (find_rule(m.key.text()) == nullptr) return Error::invalid(place(file, m.key) + unknown_rule(m.key.text()));
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
      const json::Value* rule = entry.find("rule");
      if (find_rule(rule->text()) == nullptr) return Error::invalid(place(file, *rule) + unknown_rule(rule->text()));
      IgnoreEntry e;
      e.rule = rule->text();
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
  if (const json::Value* fail_on = root.find("fail_on")) config.fail_on_ = parse_severity(fail_on->text());
  return config;
}

Result<LintConfig> LintConfig::load(const std::string& path) {
  auto bytes = FileText::read(path);
  if (!bytes.ok()) return bytes.error();
  return parse(path, bytes.value().text());
}

bool LintConfig::ignores(const Diagnostic& finding, const TemplateFile& file) const {
  for (const IgnoreEntry& entry : ignore_) {
    if (entry.rule != finding.rule) continue;
    if (entry.files) {
      // Globs are relative to the configuration's directory; '*' also crosses '/'.
      std::error_code ec;
      std::filesystem::path relative =
          std::filesystem::relative(std::filesystem::absolute(finding.path, ec),
                                    std::filesystem::absolute(directory_.empty() ? "." : directory_, ec), ec);
      if (ec || ::fnmatch(entry.files->c_str(), relative.string().c_str(), 0) != 0) continue;
    }
    if (entry.pointer && !within(finding.pointer, *entry.pointer)) continue;
    if (entry.temp_id) {
      // The story the finding is about: the innermost one whose pointer holds the finding's.
      const Story* about = nullptr;
      for (const TemplateSource& source : file.templates()) {
        for_each_story(source.model.stories, [&](const Story& story, int) {
          if (within(finding.pointer, story.origin.pointer) &&
              (about == nullptr || story.origin.pointer.size() > about->origin.pointer.size()))
            about = &story;
        });
      }
      if (about == nullptr || !about->temp_id || temp_id_key(*about->temp_id) != *entry.temp_id) continue;
    }
    return true;
  }
  return false;
}

std::optional<std::string> find_config(const std::string& file) {
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::absolute(file, ec).parent_path();
  if (ec) return std::nullopt;
  for (;;) {
    std::filesystem::path candidate = dir / ".ptmpl.json";
    if (std::filesystem::is_regular_file(candidate, ec)) return candidate.string();
    if (!dir.has_parent_path() || dir.parent_path() == dir) return std::nullopt;
    dir = dir.parent_path();
  }
}

}  // namespace ptmpl
