// The JSON tree (json.hpp), by concern: line and column of an offset, computed on demand
// (clean files never pay for them).
#include "libtemplate/core/json.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace ptmpl::json {

// ---------------------------------------------------------------------------------------------
// LineIndex

namespace {

constexpr std::uint64_t kCheckpointBlock = 4096;

bool starts_code_point(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
}

}  // namespace

const std::vector<std::uint64_t>& LineIndex::starts() const {
  std::call_once(lines_built_, [this] {
    starts_.push_back(0);
    const char* base = text_.data();
    const char* p = base;
    const char* end = base + text_.size();
    while (p < end) {
      const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
      if (nl == nullptr) break;
      p = static_cast<const char*>(nl) + 1;
      starts_.push_back(static_cast<std::uint64_t>(p - base));
    }
  });
  return starts_;
}

std::uint64_t LineIndex::code_points_before(std::uint64_t offset) const {
  // One checkpoint per block that an offset in [0, size] can fall in: the end of the text is
  // an offset too (an error at end of file), and when the size is a multiple of the block it
  // starts a block of its own.
  std::call_once(checkpoints_built_, [this] {
    checkpoints_.reserve(text_.size() / kCheckpointBlock + 1);
    std::uint64_t count = 0;
    for (std::uint64_t block = 0; block <= text_.size(); block += kCheckpointBlock) {
      checkpoints_.push_back(count);
      std::uint64_t stop = std::min<std::uint64_t>(block + kCheckpointBlock, text_.size());
      for (std::uint64_t i = block; i < stop; ++i) count += starts_code_point(text_[i]) ? 1 : 0;
    }
  });
  offset = std::min<std::uint64_t>(offset, text_.size());
  std::uint64_t block = offset / kCheckpointBlock;
  std::uint64_t count = checkpoints_[block];
  for (std::uint64_t i = block * kCheckpointBlock; i < offset; ++i) count += starts_code_point(text_[i]) ? 1 : 0;
  return count;
}

std::uint64_t LineIndex::line_count() const {
  return starts().size();
}

std::uint64_t LineIndex::line_start(std::uint64_t line) const {
  return starts()[line - 1];
}

std::uint64_t LineIndex::line_of(std::uint64_t offset) const {
  const std::vector<std::uint64_t>& at = starts();
  return static_cast<std::uint64_t>(std::upper_bound(at.begin(), at.end(), offset) - at.begin());
}

Position LineIndex::position(std::uint64_t offset) const {
  offset = std::min<std::uint64_t>(offset, text_.size());
  const std::uint64_t line = line_of(offset);
  const std::uint64_t start = starts_[line - 1];
  std::uint64_t column = 1 + code_points_before(offset) - code_points_before(start);
  // A byte order mark is not part of the text: the first value on line 1 is column 1.
  if (start == 0 && offset >= 3 && text_.starts_with("\xEF\xBB\xBF")) --column;
  return {line, column};
}

std::string_view LineIndex::line_text(std::uint64_t line) const {
  const std::vector<std::uint64_t>& at = starts();
  if (line == 0 || line > at.size()) return {};
  std::uint64_t start = at[line - 1];
  std::uint64_t end = line < at.size() ? at[line] - 1 : text_.size();
  auto view = text_.substr(start, end - start);
  if (!view.empty() && view.back() == '\r') view.remove_suffix(1);
  return view;
}

}  // namespace ptmpl::json
