// Reading without the model's regular-key marks, for the tests that check them.
//
// Story::irregular_keys lets rules skip the tree for a key that holds nothing the model does
// not show. Read without the marks, every written key is irregular, which sends every check to
// the tree: the slow answer that tests compare the fast one with (tests/unit/model_test.cpp).
// No program wants that answer, so the switch is not in the public headers.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/model.hpp"
#include "libtemplate/core/template_file.hpp"

namespace ptmpl::detail {

/// ptmpl::stories_from_json(), which is this with `mark_regular_keys` set.
[[nodiscard]] std::span<const Story> stories_from_json(const json::Value& list, json::Arena& arena,
                                                       std::string_view pointer_prefix, bool mark_regular_keys);

/// Builds a TemplateFile (a friend of it): TemplateFile::parse() is parse() with
/// `mark_regular_keys` set.
struct TemplateFileReader {
  const ReadOptions& options;
  bool mark_regular_keys = true;

  [[nodiscard]] TemplateFile parse(std::string path, FileText bytes) const;

 private:
  void collect_template(TemplateFile& file, const json::Value& project_template, std::string pointer,
                        const json::Value* assignments) const;
  [[nodiscard]] std::span<const Story> stories(TemplateFile& file, const TemplateSource& source) const;
  void read_templates(TemplateFile& file) const;
  static std::size_t release_text(TemplateFile& file);
};

}  // namespace ptmpl::detail
