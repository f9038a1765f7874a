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

}  // namespace ptmpl::report
