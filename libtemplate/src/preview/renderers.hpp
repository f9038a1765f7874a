// One renderer per preview format (one source file each); render_preview() picks one.
#pragma once

#include <functional>
#include <span>
#include <string>

#include "libtemplate/core/preview.hpp"

namespace ptmpl::preview {

/// Each takes a schedule that is ok() and the rows preview_rows() selected from it.
[[nodiscard]] std::string render_gantt(const Schedule& schedule, std::span<const PreviewRow> rows,
                                       const PreviewOptions& options);
[[nodiscard]] std::string render_table(const Schedule& schedule, std::span<const PreviewRow> rows,
                                       const PreviewOptions& options);
[[nodiscard]] std::string render_json(const Schedule& schedule, std::span<const PreviewRow> rows,
                                      const PreviewOptions& options);
/// render_json()'s text in pieces (render_preview_to()).
void render_json_to(const Schedule& schedule, std::span<const PreviewRow> rows, const PreviewOptions& options,
                    const std::function<void(std::string_view)>& out);
[[nodiscard]] std::string render_csv(const Schedule& schedule, std::span<const PreviewRow> rows,
                                     const PreviewOptions& options);
[[nodiscard]] std::string render_mermaid(const Schedule& schedule, std::span<const PreviewRow> rows,
                                         const PreviewOptions& options);
[[nodiscard]] std::string render_svg(const Schedule& schedule, std::span<const PreviewRow> rows,
                                     const PreviewOptions& options);
[[nodiscard]] std::string render_html(const Schedule& schedule, std::span<const PreviewRow> rows,
                                      const PreviewOptions& options);

}  // namespace ptmpl::preview
