// Reading the three file shapes of docs/semantics.md §2 into the model, keeping the JSON tree for
// positions and faithful rewriting.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/model.hpp"
#include "libtemplate/core/result.hpp"
#include "libtemplate/core/shape.hpp"

namespace ptmpl {

/// One template found in a file: its model and where its parts are.
struct TemplateSource {
  Template model;
  /// JSON pointer of the project_template object in the file ("" for a bare story list).
  std::string template_pointer;
  /// The story list: a pointer into `file.document()` or into a decoded raw_json string.
  const json::Value* story_list = nullptr;
  const json::Document* story_document = nullptr;
  /// Pointer of the story list inside its document's story-list root: "" for an array,
  /// "/stories" for a {"stories": [...]} object. Story pointers start with it.
  std::string story_prefix;
  /// When raw_json is a string: its value in the file (positions inside it map to it).
  std::optional<json::Value> raw_json_string;
};

struct ReadOptions {
  json::ParseOptions parse;
  /// Build the typed model of every story (lint needs it; `fmt`, which only rewrites the
  /// tree, does not). When false, `Template::stories` stay empty.
  bool build_model = true;
  /// Let go of the file's bytes once they are parsed (`lint`, `schedule` and `stats` of a large
  /// file): the strings and numbers of the tree move to the front of the bytes and every page
  /// after them goes back to the system, so that what stays is the tree and the model, not a
  /// text that is mostly whitespace and keys. Whatever asks for the text later (a position, an
  /// excerpt, a fix) gets it read again from the path, once, and a file that no longer holds
  /// the same bytes is then an error (ptmpl::Failure, kConflict). Only a file that parsed and
  /// was read from a regular file's path (a small one's strings are copied to the tree's arena);
  /// ignored for standard input and borrowed bytes.
  bool release_text = false;
};

namespace detail {
struct TemplateFileReader;
}

/// A parsed file: its bytes, its tree and the templates it holds. Move-only; the templates
/// point into the trees, which point into the bytes.
class TemplateFile {
 public:
  [[nodiscard]] const std::string& path() const { return path_; }
  /// The file's bytes (read again if they were let go: ReadOptions::release_text).
  [[nodiscard]] std::string_view text() const { return released_ ? document_->text() : bytes_.text(); }
  [[nodiscard]] const json::Document& document() const { return *document_; }
  /// Whether the bytes were let go after parsing (ReadOptions::release_text took effect).
  [[nodiscard]] bool text_released() const { return released_; }
  [[nodiscard]] Shape shape() const { return shape_; }
  [[nodiscard]] const std::vector<TemplateSource>& templates() const { return templates_; }
  /// Decoded raw_json strings, one Document each (their issues are reported at the string).
  [[nodiscard]] const std::vector<std::unique_ptr<json::Document>>& inner_documents() const { return inner_documents_; }

  /// Position in the file of a value of `source`'s story tree (for a value inside a raw_json
  /// string, the position of that string).
  [[nodiscard]] json::Position position_of(const TemplateSource& source, const json::Value& value) const;

  /// Parses `bytes`; `path` names the file in messages. Never fails: syntax errors are in
  /// `document().issues()` and then there are no templates.
  static TemplateFile parse(std::string path, FileText bytes, const ReadOptions& options = {});
  /// Reads and parses a file; fails when it cannot be read or is a plan (foreign_plan.hpp).
  static Result<TemplateFile> read(const std::string& path, const ReadOptions& options = {});

 private:
  friend struct detail::TemplateFileReader;  // parse() and read() build files through it (src/)

  std::string path_;
  FileText bytes_;
  std::unique_ptr<json::Document> document_;
  Shape shape_ = Shape::Unknown;
  std::vector<TemplateSource> templates_;
  std::vector<std::unique_ptr<std::string>> inner_texts_;
  std::vector<std::unique_ptr<json::Document>> inner_documents_;
  bool released_ = false;  // ReadOptions::release_text took effect: `bytes_` holds the tree's strings only
};

/// A file given to a command that reads templates (lint, fmt), told apart as both tell it.
struct SelectedTemplate {
  /// The file read as a template; its document may hold syntax errors (for the command to
  /// report). Empty when it is not a template.
  std::optional<TemplateFile> file;
  /// Named on the command line, another program's plan: the error that says how to convert it
  /// (plan_instead_of_template).
  std::optional<Error> plan;
  /// Found below a directory, another program's plan or valid JSON of none of the template
  /// shapes (a package.json): skipped, and counted as not a template.
  bool not_template = false;
};

/// Reads `bytes` as the file `path` (TemplateFile::parse) unless it is no template:
/// another program's plan (`plan` when the file was named, `not_template` when it was
/// `found_in_directory`), or, found in a directory, valid JSON of no template shape.
[[nodiscard]] SelectedTemplate read_selected_template(std::string path, FileText bytes, bool found_in_directory,
                                                      const ReadOptions& options = {});

}  // namespace ptmpl
