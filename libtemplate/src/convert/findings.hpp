// What every converter shares: the one table of conversion findings, and building a finding
// that points into the converted file. Private to the converters.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "libtemplate/convert.hpp"
#include "libtemplate/diagnostic.hpp"
#include "libtemplate/json.hpp"
#include "libtemplate/result.hpp"

namespace ptmpl::detail {

/// The registered rule `id` (precondition: it is in the table; a test checks every id used).
[[nodiscard]] const ConversionRule& conversion_rule(std::string_view id);

/// `path:line:col: not UTF-8 text` at the first byte of `text` that is not valid UTF-8; nullopt
/// when all of it is. The XML readers need it too: pugixml passes the bytes of a UTF-8 document
/// through unchecked, and they would end up in the template the converter writes.
[[nodiscard]] std::optional<Error> not_utf8_error(std::string_view text, const std::string& path);

/// Collects the findings of one conversion of `text` (named `path` in messages).
class FindingSink {
 public:
  FindingSink(std::string_view text, const std::string& path, const ConvertOptions& options)
      : text_(text), path_(path), options_(options), lines_(text) {}

  /// A finding of rule `id` at byte `offset` of the text (negative: the whole file), with
  /// its line, column and excerpt; with `strict`, an error.
  void report(std::string_view id, std::ptrdiff_t offset, std::string message);

  [[nodiscard]] json::Position position(std::uint64_t offset) const { return lines_.position(offset); }
  /// The findings, sorted (path, line, column, rule); the sink is left empty.
  [[nodiscard]] std::vector<Diagnostic> take();

 private:
  std::string_view text_;
  const std::string& path_;
  ConvertOptions options_;
  json::LineIndex lines_;
  std::vector<Diagnostic> diagnostics_;
};

}  // namespace ptmpl::detail
