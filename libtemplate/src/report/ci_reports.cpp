// Formats for CI systems: GitHub workflow commands, JUnit XML, GitLab Code Quality.
#include <map>

#include "libtemplate/core/hash.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/json_emitter.hpp"
#include "libtemplate/core/printable.hpp"
#include "output/xml_escape.hpp"
#include "report/formats.hpp"

namespace ptmpl::report {

namespace {

// GitHub documents this escaping for workflow commands: the message (data) escapes %, CR and
// LF; property values also ':' and ','. The runner decodes only those, and the log shows every
// other byte as it is, so the rest of each value goes through `printable`: an ESC or BEL from a
// title would otherwise reach the log's terminal emulation.
std::string github_escape(std::string_view text, bool property) {
  std::string out;
  std::size_t run_start = 0;
  auto flush = [&](std::size_t end) { out += printable(text.substr(run_start, end - run_start)); };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char* escaped = nullptr;
    switch (text[i]) {
      case '%':
        escaped = "%25";
        break;
      case '\r':
        escaped = "%0D";
        break;
      case '\n':
        escaped = "%0A";
        break;
      case ':':
        escaped = property ? "%3A" : nullptr;
        break;
      case ',':
        escaped = property ? "%2C" : nullptr;
        break;
      default:
        break;
    }
    if (escaped == nullptr) continue;
    flush(i);
    out += escaped;
    run_start = i + 1;
  }
  flush(text.size());
  return out;
}

// The JUnit text: valid UTF-8 (a path may hold any bytes), through the one XML escaper.
std::string xml_escape(std::string_view raw) {
  return detail::xml_escaped(json::valid_utf8(raw), detail::XmlContext::Attribute);
}

// As the text format writes it, control characters shown as escapes: XML 1.0 cannot hold most
// C0 controls at all, and a report viewer is a terminal of its own.
std::string finding_line(const Diagnostic& d) {
  return printable(format_place(d.path, d.line, d.column) + ": " + std::string(to_string(d.severity)) + ": " +
                   d.message + " [" + d.rule + "]");
}

}  // namespace

std::string github(const LintRun& run) {
  std::string out;
  for (const Diagnostic& d : run.diagnostics) {
    const char* command = d.severity == Severity::Error     ? "error"
                          : d.severity == Severity::Warning ? "warning"
                                                            : "notice";
    out += "::" + std::string(command) + " file=" + github_escape(d.path, true);
    if (d.line > 0) out += ",line=" + std::to_string(d.line) + ",col=" + std::to_string(d.column);
    out += ",title=" + github_escape(d.rule, true) + "::" + github_escape(d.message, false) + "\n";
  }
  return out;
}

std::string junit(const LintRun& run, const ReportOptions& options) {
  std::map<std::string_view, std::vector<const Diagnostic*>> by_file;
  for (const Diagnostic& d : run.diagnostics) by_file[d.path].push_back(&d);
  std::size_t failures = 0;
  std::string cases;
  for (const LintedFile& file : run.files) {
    if (file.error) continue;
    const std::string& path = file.path;
    const std::vector<const Diagnostic*>& findings = by_file[path];
    std::string failing, other;
    std::size_t failing_count = 0;
    for (const Diagnostic* d : findings) {
      if (d->severity >= options.fail_on) {
        failing += finding_line(*d) + "\n";
        ++failing_count;
      } else {
        other += finding_line(*d) + "\n";
      }
    }
    cases +=
        "    <testcase name=\"" + xml_escape(path) + "\" classname=\"ptmpl." + std::string(options.command) + "\">";
    if (failing_count > 0) {
      ++failures;
      cases += "\n      <failure type=\"" + std::string(options.command) + "\" message=\"" +
               std::to_string(failing_count) + (failing_count == 1 ? " finding" : " findings") + "\">" +
               xml_escape(failing) + "</failure>";
    }
    if (!other.empty()) cases += "\n      <system-out>" + xml_escape(other) + "</system-out>";
    cases += failing_count > 0 || !other.empty() ? "\n    </testcase>\n" : "</testcase>\n";
  }
  std::string counts =
      "tests=\"" + std::to_string(run.linted_count()) + "\" failures=\"" + std::to_string(failures) + "\"";
  const std::string suite = "ptmpl " + std::string(options.command);
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"" + suite + "\" " + counts +
         ">\n  <testsuite name=\"" + suite + "\" " + counts + " errors=\"0\" skipped=\"0\">\n" + cases +
         "  </testsuite>\n</testsuites>\n";
}

std::string gitlab(const LintRun& run) {
  // The fingerprint names the finding, not its line, so it survives edits elsewhere in the
  // file; identical findings are told apart by their order.
  std::map<std::uint64_t, std::size_t> seen;
  JsonEmitter out;
  out.begin_array();
  for (const Diagnostic& d : run.diagnostics) {
    std::uint64_t hash = fnv1a(d.path + '\0' + d.rule + '\0' + d.pointer + '\0' + d.message);
    std::size_t occurrence = seen[hash]++;
    if (occurrence > 0) hash = fnv1a(std::to_string(occurrence), hash);
    const char* severity = d.severity == Severity::Error ? "major" : d.severity == Severity::Warning ? "minor" : "info";
    out.begin_object(JsonLayout::Line);
    out.member("description", d.message);
    out.member("check_name", d.rule);
    out.member("fingerprint", hash_hex(hash));
    out.member("severity", severity);
    out.key("location");
    out.begin_object();
    out.member("path", json::valid_utf8(d.path));
    out.key("lines");
    out.begin_object();
    out.member("begin", d.line > 0 ? d.line : 1);
    out.end_object();
    out.end_object();
    out.end_object();
  }
  out.end_array();
  return out.finish();
}

}  // namespace ptmpl::report
