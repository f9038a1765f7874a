// `ptmpl fmt` on one file.
#include "libtemplate/core/format_files.hpp"
#include "libtemplate/core/unified_diff.hpp"

#include "libtemplate/core/diagnostic.hpp"
#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/template_file.hpp"
#include "libtemplate/core/writer.hpp"

namespace ptmpl {
namespace {

std::string place(const TemplateFile& file, std::uint64_t offset) {
  json::Position p = file.document().position(offset);
  return format_place(file.path(), p.line, p.column);
}

// Formats the bytes of the file `selected_file` (`name` in messages) as `options` ask; Write rewrites
// it unless it is "-".
FormattedFile format_bytes(const SelectedFile& selected_file, const std::string& name, FileText bytes,
                           const FormatOptions& options) {
  const std::string& path = selected_file.path;
  FormattedFile out;
  ReadOptions read_options;
  read_options.build_model = false;  // fmt rewrites the tree; it needs no model
  SelectedTemplate selected = read_selected_template(name, std::move(bytes), !selected_file.named, read_options);
  out.not_template = selected.not_template;
  out.error = std::move(selected.plan);
  if (!selected.file) return out;
  const TemplateFile& file = *selected.file;
  const json::Document& doc = file.document();
  if (!doc.ok()) {
    const json::ParseIssue& issue = doc.issues().front();
    out.finding = place(file, issue.offset) + ": error: " + issue.message + " [json-syntax]\n";
    return out;
  }
  if (doc.truncated()) {
    const json::ParseIssue* deep = nullptr;
    for (const json::ParseIssue& issue : doc.issues())
      if (issue.type == json::ParseIssue::Type::TooDeep && deep == nullptr) deep = &issue;
    out.finding = place(file, deep->offset) + ": error: " + deep->message +
                  "; fmt does not rewrite a file it cannot read whole [nesting-depth]\n";
    return out;
  }
  if (options.mode == FormatOptions::Mode::Check) {
    // Compared as it is written: a large file's canonical form is never held whole.
    out.not_canonical = !is_canonical(doc.root(), file.shape(), file.text());
    if (out.not_canonical) out.output = file.path() + "\n";
    return out;
  }
  std::string canonical = write_canonical(doc.root(), file.shape());
  if (options.mode == FormatOptions::Mode::Diff) {
    out.not_canonical = canonical != file.text();
    out.output = unified_diff(file.path(), file.text(), canonical);
    return out;
  }
  if (options.mode == FormatOptions::Mode::Print || path == "-") {
    out.output = std::move(canonical);
    return out;
  }
  if (canonical == file.text()) return out;
  if (Status written = rewrite_file(path, file.text(), canonical, selected_file.tree); !written.ok()) {
    out.error = written.error();
    return out;
  }
  out.rewritten = true;
  return out;
}

}  // namespace

FormattedFile format_file(const SelectedFile& selected, const FormatOptions& options) {
  const bool from_stdin = !options.stdin_filename.empty();
  auto bytes = FileText::read_text(from_stdin ? "-" : selected.path);
  if (!bytes.ok()) {
    FormattedFile out;
    out.error = bytes.error();
    return out;
  }
  return format_bytes(selected, from_stdin ? options.stdin_filename : selected.path, std::move(bytes).value(), options);
}

FormattedFile format_text(const std::string& path, std::string_view text, const FormatOptions& options) {
  return format_bytes(SelectedFile{"-"}, path, FileText::borrow(text), options);
}

}  // namespace ptmpl
