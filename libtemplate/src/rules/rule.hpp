// Private: what a rule sees and how it reports.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/lint.hpp"

namespace ptmpl::rules {

/// A lint run over one file. Rules read the file and append findings.
class Context {
 public:
  Context(const TemplateFile& file, const LintOptions& options) : file_(file), options_(options) {}

  [[nodiscard]] const TemplateFile& file() const { return file_; }
  [[nodiscard]] const LintOptions& options() const { return options_; }

  /// Reports at a value of `source`'s tree (a story, a key's value, a template field).
  void report(std::string_view rule, Severity severity, const TemplateSource& source, const json::Value& at,
              std::string pointer, std::string message);
  /// Reports at a byte offset of the file itself.
  void report_at_offset(std::string_view rule, Severity severity, std::uint64_t offset, std::string pointer,
                        std::string message);

  /// "line 40" for a value of `source`, for messages that name a second place.
  [[nodiscard]] std::string line_of(const TemplateSource& source, const json::Value& at) const;

  [[nodiscard]] std::vector<Diagnostic> take() { return std::move(diagnostics_); }

 private:
  void add(std::string_view rule, Severity severity, std::uint64_t offset, std::string pointer, std::string message);

  const TemplateFile& file_;
  const LintOptions& options_;
  std::vector<Diagnostic> diagnostics_;
};

using Check = void (*)(Context&);

// One function per rule; each lives in the file of its family.
void check_duplicate_key(Context& context);
void check_json_syntax(Context& context);
void check_nesting_depth(Context& context);
void check_schema(Context& context);
void check_story_type_invalid(Context& context);
void check_temp_id_duplicate(Context& context);
void check_temp_id_missing(Context& context);
void check_template_title_missing(Context& context);
void check_title_missing(Context& context);

}  // namespace ptmpl::rules
