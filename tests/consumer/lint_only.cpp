// Uses the installed libtemplate's core alone (ptmpl::core): lints a template file and a story
// list given as text, and checks what the library found. Usage: lint_only TEMPLATE (a file with
// a duplicate temp_id).
#include <libtemplate/core/diagnostic.hpp>
#include <libtemplate/core/lint.hpp>
#include <libtemplate/core/template_file.hpp>

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

namespace {

int fail(const std::string& message) {
  std::cerr << "lint_only: " << message << "\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return fail("usage: lint_only TEMPLATE");

  auto file = ptmpl::TemplateFile::read(argv[1]);
  if (!file.ok()) return fail(file.error().message);
  const std::vector<ptmpl::Diagnostic> findings = ptmpl::lint(file.value());
  const bool duplicate = std::any_of(findings.begin(), findings.end(), [](const ptmpl::Diagnostic& d) {
    return d.rule == "temp-id-duplicate" && d.severity == ptmpl::Severity::Error && d.line > 0;
  });
  if (!duplicate) return fail(std::string(argv[1]) + ": no temp-id-duplicate error found");

  const std::vector<ptmpl::Diagnostic> clean =
      ptmpl::lint_text("clean.json", R"([{"title": "Kick-off", "temp_id": 1}, {"title": "Review", "temp_id": 2}])");
  if (!clean.empty()) return fail("clean.json: " + clean.front().message + " [" + clean.front().rule + "]");

  if (ptmpl::find_rule("temp-id-duplicate") == nullptr) return fail("rule temp-id-duplicate is not registered");

  std::cout << "linted " << argv[1] << ": " << findings.size() << " findings, a temp-id-duplicate among them; "
            << ptmpl::rule_catalogue().size() << " rules\n";
  return 0;
}
