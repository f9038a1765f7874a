#include "libtemplate/core/fix.hpp"
#include "libtemplate/core/hash.hpp"

#include <algorithm>
#include <map>

#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/lint.hpp"

namespace ptmpl {

FixResult apply_fixes(std::string_view text, const std::vector<Diagnostic>& findings, const FixOptions& options) {
  FixResult result;
  std::vector<const Fix*> fixes;
  for (const Diagnostic& d : findings) {
    if (!d.fix || d.fix->offset + d.fix->length > text.size()) continue;
    if (d.fix->unsafe && !options.unsafe)
      ++result.withheld;
    else
      fixes.push_back(&*d.fix);
  }
  std::stable_sort(fixes.begin(), fixes.end(), [](const Fix* a, const Fix* b) { return a->offset < b->offset; });
  result.text.reserve(text.size());
  std::uint64_t copied = 0;
  for (const Fix* fix : fixes) {
    if (fix->offset < copied) {
      ++result.skipped;
      continue;
    }
    result.text.append(text.substr(copied, fix->offset - copied));
    result.text += fix->replacement;
    copied = fix->offset + fix->length;
    ++result.applied;
  }
  result.text.append(text.substr(copied));
  return result;
}

std::size_t FixFilesOutcome::changed() const {
  return static_cast<std::size_t>(
      std::count_if(files.begin(), files.end(), [](const FixedFile& f) { return f.changed; }));
}

FixFilesOutcome fix_files(const LintRun& run, bool dry_run, const FixOptions& options) {
  std::map<std::string, std::vector<Diagnostic>> by_file;
  for (const Diagnostic& d : run.diagnostics)
    if (d.fix && d.path != "-") by_file[d.path].push_back(d);
  std::map<std::string_view, std::uint64_t> linted;
  for (const LintedFile& file : run.files)
    if (!file.error) linted.emplace(file.path, file.fingerprint);
  FixFilesOutcome out;
  for (const auto& [path, findings] : by_file) {
    auto bytes = FileText::read(path);
    if (!bytes.ok()) {
      out.error = bytes.error();
      return out;
    }
    auto fingerprint_then = linted.find(path);
    if (fingerprint_then == linted.end() || content_hash(bytes.value().text()) != fingerprint_then->second) {
      out.error = Error::conflict(path + ": changed since it was linted; no fix applied (run lint again)");
      return out;
    }
    FixResult fixed = apply_fixes(bytes.value().text(), findings, options);
    FixedFile& file = out.files.emplace_back();
    file.path = path;
    file.changed = fixed.text != bytes.value().text();
    file.withheld = fixed.withheld;
    if (dry_run) {
      for (const Diagnostic& d : findings)
        file.plan += "# " + format_place(d.path, d.line, d.column) + ": " +
                     (!d.fix->unsafe   ? "safe fix"
                      : options.unsafe ? "unsafe fix"
                                       : "unsafe fix, not applied (--unsafe-fixes applies it)") +
                     " [" + d.rule + "]\n";
      if (file.changed) file.plan += unified_diff(path, bytes.value().text(), fixed.text);
      continue;
    }
    if (!file.changed) continue;
    auto tree = options.trees.find(path);
    if (Status written = rewrite_file(path, bytes.value().text(), fixed.text,
                                      tree != options.trees.end() ? tree->second : std::string());
        !written.ok()) {
      out.error = written.error();
      return out;
    }
    file.applied = fixed.applied;
  }
  return out;
}

}  // namespace ptmpl
