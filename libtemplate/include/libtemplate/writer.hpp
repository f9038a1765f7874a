// Writing templates: the canonical pretty form (what `fmt` prints) and the API form.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/json.hpp"
#include "libtemplate/template_file.hpp"

namespace ptmpl {

/// The canonical form of a document of `shape`: 2-space indent, one element per line,
/// documented keys in SPEC §3 order then unknown keys in their original order (duplicates kept,
/// in order), numbers as spelled, strings as UTF-8 with only `"`, `\` and control characters
/// escaped, a final newline. A raw_json string is kept as it is. Writing the canonical form of
/// a canonical file gives the same bytes. Precondition: the tree holds no Truncated values.
[[nodiscard]] std::string write_canonical(const json::Value& root, Shape shape);

/// The same ordering rules, without whitespace (no final newline).
[[nodiscard]] std::string write_compact(const json::Value& root, Shape shape);

/// The body the service's create and update endpoints take: `{"project_template": {…}}` with
/// raw_json as a string holding the compact canonical story list. `project_template` is the
/// template object of a template document.
[[nodiscard]] std::string write_api_body(const json::Value& project_template);

/// Writes JSON text in the canonical layout as it goes (2-space indent, one element per line,
/// `[]` and `{}` when empty), for programs that produce large templates without building a
/// tree first (the converters). The caller writes keys in canonical order; the result is then
/// exactly what write_canonical() would print for it. Call finish() once, after the root.
class JsonEmitter {
 public:
  explicit JsonEmitter(std::string& out) : out_(&out) {}

  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  void key(std::string_view name);

  void string(std::string_view text);
  void integer(std::int64_t n);
  void boolean(bool b);
  /// A number given as valid JSON number text.
  void number(std::string_view spelling);
  /// `null`.
  void null();
  /// A value given as valid JSON text, written as it is (on one line where it stands).
  void raw(std::string_view json_text);
  /// `"name": value` in one call.
  void member(std::string_view name, std::string_view text) { key(name), string(text); }
  void member(std::string_view name, std::int64_t n) { key(name), integer(n); }

  /// The final newline.
  void finish() { *out_ += '\n'; }

 private:
  void before_value();
  void close(char bracket);
  void newline();

  std::string* out_;
  std::vector<bool> has_items_;  ///< per open container: something written in it yet
  bool after_key_ = false;
};

}  // namespace ptmpl
