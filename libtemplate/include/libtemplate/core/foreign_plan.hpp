// Plans of other programs where a template is read (docs/semantics.md §2: detection by content): what `ptmpl
// convert` reads, never a template. The core looks only at signatures, so that it stays free
// of the converters (docs/design.md, "Plans where a template is read").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "libtemplate/core/result.hpp"

namespace ptmpl {

enum class ForeignPlan : std::uint8_t {
  None,
  CompoundFile,  ///< signature D0 CF 11 E0 A1 B1 1A E1: Microsoft Project's .mpp (or an Office 97-2003 file)
  Mspdi,         ///< XML whose root element is `Project` (Microsoft Project XML)
  Gan,           ///< XML whose root element is `project` (GanttProject)
  Pmxml,         ///< XML whose root element is `APIBusinessObjects` (Primavera P6's XML export)
  Xer,           ///< text whose first line starts `ERMHDR` (Primavera P6's XER export)
  Workbook,      ///< a zip archive (signature `PK\3\4`) holding a part under `xl/`: an Excel workbook
};

/// Which plan `bytes` are: a compound file by its signature, a workbook by a zip's signature and
/// a part name under `xl/` within the first 64 KiB; after a byte order mark (UTF-8, or UTF-16
/// for XER) and whitespace, an XER file by `ERMHDR`, XML (`<`) by its root element, the first
/// one not after `<?` or `<!` within the first 64 KiB. Bytes that start a JSON value are no
/// plan after one look at their first byte.
[[nodiscard]] ForeignPlan recognise_plan(std::string_view bytes);

/// The error for a plan where a template is read (ErrorCode::kInvalid, exit 2), naming the file
/// and the way out: `plan.mpp: a Microsoft Project file (MPP14), not a template: convert it
/// first: ptmpl convert plan.mpp -o plan.json`. Nothing when `bytes` are no plan.
[[nodiscard]] std::optional<Error> plan_instead_of_template(std::string_view bytes, const std::string& path);

}  // namespace ptmpl
