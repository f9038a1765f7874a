// Format names, the rows a preview shows, and the choice of renderer.
#include "libtemplate/core/preview.hpp"

#include <array>

#include "preview/renderers.hpp"

namespace ptmpl {

namespace {

constexpr std::array<std::string_view, 7> kFormatNames = {"gantt", "table", "json", "csv", "mermaid", "svg", "html"};

// Marks every critical story (within the depth shown) and the parents that contain it.
std::vector<bool> critical_with_parents(const Schedule& schedule, std::size_t max_depth) {
  const DependencyGraph& graph = schedule.graph();
  std::vector<bool> keep(schedule.size(), false);
  for (std::size_t i = 0; i < schedule.size(); ++i) {
    if (!schedule[i].critical || schedule.depth(i) >= max_depth) continue;
    // Walk up until a story already kept: each story is marked once, so this is linear.
    for (std::size_t at = i; at != Schedule::npos && !keep[at]; at = graph.parent(at)) keep[at] = true;
  }
  return keep;
}

}  // namespace

std::string_view to_string(PreviewFormat format) {
  return kFormatNames[static_cast<std::size_t>(format)];
}

std::optional<PreviewFormat> parse_preview_format(std::string_view name) {
  for (std::size_t i = 0; i < kFormatNames.size(); ++i)
    if (kFormatNames[i] == name) return static_cast<PreviewFormat>(i);
  return std::nullopt;
}

std::vector<PreviewRow> preview_rows(const Schedule& schedule, const PreviewOptions& options) {
  std::vector<PreviewRow> rows;
  if (!schedule.ok()) return rows;
  const std::size_t max_depth = options.depth.value_or(Schedule::npos);
  std::vector<bool> keep;
  if (options.critical_only) keep = critical_with_parents(schedule, max_depth);
  // position[d]: the 1-based position of the current story of level d among its siblings.
  std::vector<std::size_t> position;
  for (std::size_t i = 0; i < schedule.size(); ++i) {
    const std::size_t depth = schedule.depth(i);
    position.resize(depth + 1, 0);
    ++position[depth];
    if (depth >= max_depth || (options.critical_only && !keep[i])) continue;
    PreviewRow row;
    row.index = i;
    row.depth = depth;
    for (std::size_t level = 0; level <= depth; ++level) {
      if (level > 0) row.outline += '.';
      row.outline += std::to_string(position[level]);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string render_preview(const Schedule& schedule, PreviewFormat format, const PreviewOptions& options) {
  std::vector<PreviewRow> rows = preview_rows(schedule, options);
  switch (format) {
    case PreviewFormat::Gantt:
      return preview::render_gantt(schedule, rows, options);
    case PreviewFormat::Table:
      return preview::render_table(schedule, rows, options);
    case PreviewFormat::Json:
      return preview::render_json(schedule, rows, options);
    case PreviewFormat::Csv:
      return preview::render_csv(schedule, rows, options);
    case PreviewFormat::Mermaid:
      return preview::render_mermaid(schedule, rows, options);
    case PreviewFormat::Svg:
      return preview::render_svg(schedule, rows, options);
    case PreviewFormat::Html:
      return preview::render_html(schedule, rows, options);
  }
  return {};
}

void render_preview_to(const Schedule& schedule, PreviewFormat format, const PreviewOptions& options,
                       const std::function<void(std::string_view)>& out) {
  if (format == PreviewFormat::Json) {
    preview::render_json_to(schedule, preview_rows(schedule, options), options, out);
    return;
  }
  out(render_preview(schedule, format, options));
}

}  // namespace ptmpl
