// For tests of the JSON reader: Document::parse reads a text with a tokenizer of its own and
// falls back on RapidJSON's reader for anything but a plain valid text. Here are RapidJSON's
// reading alone, the reference the fast reader must match exactly, and the comparison of both
// (the unit tests and the template_reader fuzz target use it).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "json/tree_access.hpp"
#include "libtemplate/core/json.hpp"

namespace ptmpl::json {

/// The document as RapidJSON's reader alone reads `text`.
inline Document parse_reference(std::string_view text, const ParseOptions& options = {}) {
  return detail::TreeAccess::read(text, options, false);
}

/// Where the trees `a` (read from `text_a`) and `b` (from `text_b`) first differ, or "" when they
/// are the same: kind, offset, duplicate-key mark, text, whether the text is the source's own
/// bytes (not a copy), and every child in order.
inline std::string tree_difference(const Value& a, std::string_view text_a, const Value& b, std::string_view text_b) {
  struct Pair {
    Value a, b;
    std::string pointer;
  };
  auto in_source = [](const Value& v, std::string_view text) {
    const char* p = v.text().data();
    return p != nullptr && p >= text.data() && p < text.data() + text.size();
  };
  std::vector<Pair> stack{{a, b, ""}};
  while (!stack.empty()) {
    const Pair pair = stack.back();
    stack.pop_back();
    const Value& x = pair.a;
    const Value& y = pair.b;
    const std::string& at = pair.pointer;
    if (x.kind() != y.kind()) return at + ": kind " + std::string(kind_name(x)) + " / " + std::string(kind_name(y));
    if (x.offset() != y.offset())
      return at + ": offset " + std::to_string(x.offset()) + " / " + std::to_string(y.offset());
    if (x.text() != y.text())
      return at + ": text \"" + std::string(x.text()) + "\" / \"" + std::string(y.text()) + "\"";
    if (in_source(x, text_a) != in_source(y, text_b)) return at + ": one text is the source's bytes, the other a copy";
    if (x.unique_keys() != y.unique_keys()) return at + ": duplicate-key mark";
    if (x.items().size() != y.items().size()) return at + ": item count";
    if (x.members().size() != y.members().size()) return at + ": member count";
    for (std::size_t i = 0; i < x.items().size(); ++i)
      stack.push_back({x.items()[i], y.items()[i], at + "/" + std::to_string(i)});
    for (std::size_t i = 0; i < x.members().size(); ++i) {
      const Member& m = x.members()[i];
      const Member& n = y.members()[i];
      stack.push_back({m.key, n.key, at + "/" + std::to_string(i) + "(key)"});
      stack.push_back({m.value, n.value, at + "/" + pointer_escape(m.key.text())});
    }
  }
  return "";
}

/// Where Document::parse's reading of `text` differs from the reference's, or "" when the two
/// documents are the same: validity, truncation, every issue (type, offsets, message, pointer)
/// and the tree.
inline std::string reading_difference(std::string_view text, const ParseOptions& options = {}) {
  const Document fast = Document::parse(text, options);
  const Document reference = parse_reference(text, options);
  if (fast.ok() != reference.ok())
    return fast.ok() ? "read as valid, the reference as not" : "read as invalid, the reference as valid";
  if (fast.truncated() != reference.truncated()) return "truncation";
  if (fast.issues().size() != reference.issues().size())
    return std::to_string(fast.issues().size()) + " issues, the reference " + std::to_string(reference.issues().size());
  for (std::size_t i = 0; i < fast.issues().size(); ++i) {
    const ParseIssue& x = fast.issues()[i];
    const ParseIssue& y = reference.issues()[i];
    if (x.type != y.type || x.offset != y.offset || x.other_offset != y.other_offset || x.message != y.message ||
        x.pointer != y.pointer)
      return "issue " + std::to_string(i) + ": " + std::to_string(x.offset) + " " + x.message + " (" + x.pointer +
             ") / " + std::to_string(y.offset) + " " + y.message + " (" + y.pointer + ")";
  }
  return tree_difference(fast.root(), text, reference.root(), text);
}

}  // namespace ptmpl::json
