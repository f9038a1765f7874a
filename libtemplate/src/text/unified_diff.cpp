// A unified diff of two texts, line by line (unified_diff.hpp): what `lint --fix --diff` and
// `fmt --diff` print.
#include "libtemplate/core/unified_diff.hpp"

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

namespace ptmpl {

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

namespace {

// One line of an edit script: kept (' '), removed ('-') or added ('+').
struct LineEdit {
  char mark;
  std::string_view line;
};

// The shortest edit script from `a` to `b` (Myers' O(ND) diff, after the common first and last
// lines are set aside). Past kMaxEdits differences the middle is shown as removed, then added:
// the search's memory grows with the square of the differences.
std::vector<LineEdit> line_edits(std::span<const std::string_view> a, std::span<const std::string_view> b) {
  constexpr std::ptrdiff_t kMaxEdits = 2000;
  const auto prefix = static_cast<std::size_t>(std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first - a.begin());
  const auto suffix = static_cast<std::size_t>(std::mismatch(a.rbegin(), a.rend() - static_cast<std::ptrdiff_t>(prefix),
                                                             b.rbegin(), b.rend() - static_cast<std::ptrdiff_t>(prefix))
                                                   .first -
                                               a.rbegin());
  const auto x = a.subspan(prefix, a.size() - prefix - suffix);
  const auto y = b.subspan(prefix, b.size() - prefix - suffix);
  std::vector<LineEdit> out;
  for (std::size_t i = 0; i < prefix; ++i) out.push_back({' ', a[i]});

  const auto n = static_cast<std::ptrdiff_t>(x.size());
  const auto m = static_cast<std::ptrdiff_t>(y.size());
  const std::ptrdiff_t limit = std::min(n + m, kMaxEdits);
  // v[k + offset]: the furthest x on diagonal k; trace[d]: v before step d.
  const std::ptrdiff_t offset = limit + 1;
  std::vector<std::ptrdiff_t> v(static_cast<std::size_t>(2 * offset + 1), 0);
  std::vector<std::vector<std::ptrdiff_t>> trace;
  auto at = [&](std::vector<std::ptrdiff_t>& row, std::ptrdiff_t k) -> std::ptrdiff_t& {
    return row[static_cast<std::size_t>(k + offset)];
  };
  auto from_above = [&](std::vector<std::ptrdiff_t>& row, std::ptrdiff_t d, std::ptrdiff_t k) {
    return k == -d || (k != d && at(row, k - 1) < at(row, k + 1));
  };
  bool found = false;
  for (std::ptrdiff_t d = 0; d <= limit && !found; ++d) {
    trace.push_back(v);
    for (std::ptrdiff_t k = -d; k <= d && !found; k += 2) {
      std::ptrdiff_t i = from_above(v, d, k) ? at(v, k + 1) : at(v, k - 1) + 1;
      std::ptrdiff_t j = i - k;
      for (; i < n && j < m && x[static_cast<std::size_t>(i)] == y[static_cast<std::size_t>(j)]; ++i, ++j) {
      }
      at(v, k) = i;
      found = i >= n && j >= m;
    }
  }
  std::vector<LineEdit> middle;
  if (!found) {
    for (auto line : x) middle.push_back({'-', line});
    for (auto line : y) middle.push_back({'+', line});
  } else {
    // Back from the end along the steps taken, collected in reverse.
    std::ptrdiff_t i = n, j = m;
    for (auto d = static_cast<std::ptrdiff_t>(trace.size()) - 1; d >= 0; --d) {
      std::vector<std::ptrdiff_t>& row = trace[static_cast<std::size_t>(d)];
      const std::ptrdiff_t k = i - j;
      const std::ptrdiff_t previous_k = from_above(row, d, k) ? k + 1 : k - 1;
      const std::ptrdiff_t previous_i = at(row, previous_k);
      const std::ptrdiff_t previous_j = previous_i - previous_k;
      for (; i > previous_i && j > previous_j; --i, --j) middle.push_back({' ', x[static_cast<std::size_t>(i - 1)]});
      if (d == 0) break;
      if (i == previous_i)
        middle.push_back({'+', y[static_cast<std::size_t>(previous_j)]});
      else
        middle.push_back({'-', x[static_cast<std::size_t>(previous_i)]});
      i = previous_i;
      j = previous_j;
    }
    std::reverse(middle.begin(), middle.end());
  }
  out.insert(out.end(), middle.begin(), middle.end());
  for (std::size_t i = a.size() - suffix; i < a.size(); ++i) out.push_back({' ', a[i]});
  return out;
}

}  // namespace

std::string unified_diff(std::string_view path, std::string_view before, std::string_view after) {
  if (before == after) return {};
  const std::vector<std::string_view> a = lines_of(before), b = lines_of(after);
  const std::vector<LineEdit> edits = line_edits(a, b);
  // git's convention: a/ and b/ before the path (an absolute path loses its leading '/').
  std::string_view name = path.starts_with('/') ? path.substr(1) : path;
  std::string out = "--- a/" + std::string(name) + "\n+++ b/" + std::string(name) + "\n";
  constexpr std::size_t kContext = 3;
  // Line numbers before each edit, in `before` and in `after`.
  std::vector<std::size_t> line_a(edits.size() + 1, 0), line_b(edits.size() + 1, 0);
  for (std::size_t e = 0; e < edits.size(); ++e) {
    line_a[e + 1] = line_a[e] + (edits[e].mark != '+' ? 1 : 0);
    line_b[e + 1] = line_b[e] + (edits[e].mark != '-' ? 1 : 0);
  }
  std::size_t e = 0;
  while (e < edits.size()) {
    if (edits[e].mark == ' ') {
      ++e;
      continue;
    }
    // A hunk: from kContext lines before the first change to kContext after the last change
    // followed by at most 2 * kContext unchanged lines (their contexts touch: git's one hunk).
    const std::size_t start = e > kContext ? e - kContext : 0;
    std::size_t last = e;
    for (std::size_t f = e + 1; f < edits.size() && f <= last + 2 * kContext + 1; ++f)
      if (edits[f].mark != ' ') last = f;
    const std::size_t end = std::min(edits.size(), last + kContext + 1);
    const std::size_t count_a = line_a[end] - line_a[start], count_b = line_b[end] - line_b[start];
    out += "@@ -" + std::to_string(line_a[start] + (count_a > 0 ? 1 : 0)) + "," + std::to_string(count_a) + " +" +
           std::to_string(line_b[start] + (count_b > 0 ? 1 : 0)) + "," + std::to_string(count_b) + " @@\n";
    for (std::size_t k = start; k < end; ++k) append_line(out, edits[k].mark, edits[k].line);
    e = end;
  }
  return out;
}

}  // namespace ptmpl
