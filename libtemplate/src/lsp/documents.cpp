// The language server, by concern: changing open documents (documents.hpp).
#include "lsp/documents.hpp"

#include <algorithm>

#include "lsp/jsonrpc.hpp"

namespace ptmpl::lsp {

std::string apply_change(std::string& text, const json::Value& change) {
  const json::Value* new_text = member(&change, "text");
  if (new_text == nullptr || !new_text->is_string()) return "a content change without a \"text\" string";
  const json::Value* range_value = member(&change, "range");
  if (range_value == nullptr) {
    text.assign(new_text->text());
    return {};
  }
  std::optional<Range> range = read_range(range_value);
  if (!range) return "a content change whose range is not a Range";
  TextPositions positions(text);
  std::uint64_t begin = positions.offset(range->start);
  std::uint64_t end = positions.offset(range->end);
  if (end < begin) std::swap(begin, end);
  text.replace(begin, end - begin, new_text->text());
  return {};
}

namespace {

bool continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// True when a cut at `at` falls inside a character or between "\r" and "\n".
bool bad_cut(std::string_view text, std::uint64_t at) {
  if (at == 0 || at >= text.size()) return false;
  return continuation(text[at]) || (text[at - 1] == '\r' && text[at] == '\n');
}

}  // namespace

ByteEdit smallest_edit(std::string_view before, std::string_view after) {
  std::uint64_t limit = std::min(before.size(), after.size());
  std::uint64_t prefix = 0;
  while (prefix < limit && before[prefix] == after[prefix]) ++prefix;
  while (prefix > 0 && (bad_cut(before, prefix) || bad_cut(after, prefix))) --prefix;
  std::uint64_t suffix = 0;
  while (suffix < limit - prefix && before[before.size() - 1 - suffix] == after[after.size() - 1 - suffix]) ++suffix;
  while (suffix > 0 && (bad_cut(before, before.size() - suffix) || bad_cut(after, after.size() - suffix))) --suffix;
  return {prefix, before.size() - suffix, std::string(after.substr(prefix, after.size() - suffix - prefix))};
}

}  // namespace ptmpl::lsp
