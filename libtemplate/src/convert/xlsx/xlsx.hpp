// Excel workbooks (`.xlsx`) → template (docs/commands/convert.md, "Excel"). Private to the
// converters.
#pragma once

#include <string>
#include <string_view>

#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/result.hpp"

namespace ptmpl::detail {

/// The template of the workbook `bytes` (named `path` in messages). The sheet read is
/// `options.sheet`, or else the first that holds a plan, in one of three layouts told apart by
/// their header rows: ptmpl's own export (its CSV columns, read as a CSV plan is), Microsoft
/// Project's "export to Excel" and a generic plan sheet (columns named through one table of
/// synonyms), both read into the plan model and built as MSPDI is. Fails with kUsage for a
/// sheet name the workbook has not (the message lists its sheets), kInvalid for bytes that are
/// not a workbook, a part too large or damaged, or a workbook with no plan sheet.
[[nodiscard]] Result<Conversion> convert_xlsx(std::string_view bytes, const std::string& path,
                                              const ConvertOptions& options);

}  // namespace ptmpl::detail
