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

namespace {

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    std::size_t end = text.find('\n');
    std::size_t take = end == std::string_view::npos ? text.size() : end + 1;
    lines.push_back(text.substr(0, take));
    text.remove_prefix(take);
  }
  return lines;
}

void append_line(std::string& out, char mark, std::string_view line) {
  out += mark;
  out += line;
  if (line.empty() || line.back() != '\n') out += "\n\\ No newline at end of file\n";
}

}  // namespace

std::string unified_diff(std::string_view path, std::string_view before, std::string_view after) {
  if (before == after) return {};
  std::vector<std::string_view> a = lines_of(before), b = lines_of(after);
  // git's convention: a/ and b/ before the path (an absolute path loses its leading '/').
  std::string_view name = path.starts_with('/') ? path.substr(1) : path;
  std::string out = "--- a/" + std::string(name) + "\n+++ b/" + std::string(name) + "\n";
  if (a.size() != b.size()) {
    out += "@@ -1," + std::to_string(a.size()) + " +1," + std::to_string(b.size()) + " @@\n";
    for (auto line : a) append_line(out, '-', line);
    for (auto line : b) append_line(out, '+', line);
    return out;
  }
  constexpr std::size_t kContext = 3;
  std::size_t n = a.size();
  std::size_t i = 0;
  while (i < n) {
    if (a[i] == b[i]) {
      ++i;
      continue;
    }
    // A hunk: from kContext lines before the first change to kContext after the last change
    // that is followed by fewer than 2 * kContext unchanged lines.
    std::size_t start = i > kContext ? i - kContext : 0;
    std::size_t last = i;
    for (std::size_t j = i + 1; j < n && j <= last + 2 * kContext; ++j)
      if (a[j] != b[j]) last = j;
    std::size_t end = std::min(n, last + kContext + 1);
    std::size_t count = end - start;
    out += "@@ -" + std::to_string(start + 1) + "," + std::to_string(count) + " +" + std::to_string(start + 1) + "," +
           std::to_string(count) + " @@\n";
    for (std::size_t k = start; k < end;) {
      if (a[k] == b[k]) {
        append_line(out, ' ', a[k++]);
        continue;
      }
      std::size_t run = k;  // a run of changed lines: all removals, then all additions
      while (run < end && a[run] != b[run]) ++run;
      for (std::size_t r = k; r < run; ++r) append_line(out, '-', a[r]);
      for (std::size_t r = k; r < run; ++r) append_line(out, '+', b[r]);
      k = run;
    }
    i = end;
  }
  return out;
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
