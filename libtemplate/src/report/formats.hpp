// Private: one function per output format (report.hpp documents them).
#pragma once

#include <string>

#include "libtemplate/core/report.hpp"

namespace ptmpl::report {

std::string text(const LintRun& run, const ReportOptions& options);
std::string json(const LintRun& run, const ReportOptions& options);
std::string sarif(const LintRun& run, const ReportOptions& options);
std::string github(const LintRun& run);
std::string junit(const LintRun& run, const ReportOptions& options);
std::string gitlab(const LintRun& run);

/// `text` (a path, a message that may quote a title) made safe for a terminal or a CI log: every
/// control character — C0, DEL and C1 (U+0080 to U+009F, where U+009B is a one-byte CSI) — is
/// written as a visible `\u00XX`, and a byte that is not part of valid UTF-8 as `\xNN`, so a
/// file cannot send escape sequences, ring the bell or start a line of its own.
std::string printable(std::string_view text);

}  // namespace ptmpl::report
