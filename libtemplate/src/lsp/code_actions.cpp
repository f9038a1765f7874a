// The language server, by concern: code actions and formatting (code_actions.hpp).
#include "lsp/code_actions.hpp"

#include "libtemplate/core/fix.hpp"
#include "libtemplate/core/template_file.hpp"
#include "libtemplate/core/writer.hpp"
#include "lsp/documents.hpp"
#include "lsp/jsonrpc.hpp"

namespace ptmpl::lsp {

namespace {

bool before(Position a, Position b) {
  return a.line < b.line || (a.line == b.line && a.character < b.character);
}

// True when the two ranges share a position (an empty range touching the other counts).
bool touches(Range a, Range b) {
  return !before(a.end, b.start) && !before(b.end, a.start);
}

// `{"changes": {uri: [edit]}}` for one edit of the document.
void write_edit(JsonEmitter& out, const OpenDocument& document, const TextPositions& positions, std::uint64_t begin,
                std::uint64_t end, std::string_view replacement) {
  out.begin_object();
  out.key("changes");
  out.begin_object();
  out.key(document.uri);
  out.begin_array();
  out.begin_object();
  out.key("range");
  write_range(out, positions.range(begin, end));
  out.member("newText", replacement);
  out.end_object();
  out.end_array();
  out.end_object();
  out.end_object();
}

std::string shortened(std::string_view text, std::size_t most) {
  if (text.size() <= most) return std::string(text);
  std::size_t cut = most;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "…";
}

}  // namespace

Reply code_actions(const OpenDocument& document, const LintOutcome& outcome, Range range, ActionKinds kinds,
                   std::string_view help_uri_base, const Cancellation& cancel) {
  TextPositions positions(document.text);
  JsonEmitter out(JsonLayout::Compact);
  out.begin_array();
  if (kinds.quickfix) {
    for (const Diagnostic& finding : outcome.findings) {
      if (cancel.requested()) return cancelled_reply();
      if (!finding.fix) continue;
      const Fix& fix = *finding.fix;
      if (fix.offset + fix.length > document.text.size()) continue;
      if (!touches(finding_range(positions, document.text, finding), range)) continue;
      std::string title = "Fix " + finding.rule + ": " +
                          (fix.replacement.empty() ? std::string("remove it")
                                                   : "write " + shortened(json::valid_utf8(fix.replacement), 60));
      if (fix.unsafe) title += " (unsafe)";
      out.begin_object();
      out.member("title", title);
      out.member("kind", "quickfix");
      out.key("diagnostics");
      out.begin_array();
      write_diagnostic(out, document, positions, finding, help_uri_base);
      out.end_array();
      out.key("isPreferred");
      out.boolean(!fix.unsafe);
      out.key("edit");
      write_edit(out, document, positions, fix.offset, fix.offset + fix.length, fix.replacement);
      out.end_object();
    }
  }
  if (kinds.fix_all) {
    if (cancel.requested()) return cancelled_reply();
    FixResult fixed = apply_fixes(document.text, outcome.findings);
    if (fixed.applied > 0 && fixed.text != document.text) {
      ByteEdit edit = smallest_edit(document.text, fixed.text);
      out.begin_object();
      out.member("title", "Fix all safe problems");
      out.member("kind", "source.fixAll");
      out.key("edit");
      write_edit(out, document, positions, edit.begin, edit.end, edit.replacement);
      out.end_object();
    }
  }
  out.end_array();
  return {out.finish(), 0, {}};
}

Reply format_document(const OpenDocument& document) {
  ReadOptions read;
  read.build_model = false;  // fmt rewrites the tree; it needs no model
  TemplateFile file =
      TemplateFile::parse(document.path.empty() ? document.uri : document.path, FileText::borrow(document.text), read);
  const json::Document& doc = file.document();
  auto refuse = [&](const json::ParseIssue& issue, std::string_view why) {
    json::Position at = doc.position(issue.offset);
    return Reply{"null", error_code::kRequestFailed,
                 format_place(file.path(), at.line, at.column) + ": " + issue.message + std::string(why)};
  };
  if (!doc.ok()) return refuse(doc.issues().front(), "; the document is not formatted");
  if (doc.truncated()) {
    for (const json::ParseIssue& issue : doc.issues())
      if (issue.type == json::ParseIssue::Type::TooDeep)
        return refuse(issue, "; fmt does not rewrite a document it cannot read whole");
  }
  std::string canonical = write_canonical(doc.root(), file.shape());
  if (canonical == document.text) return {"[]", 0, {}};
  TextPositions positions(document.text);
  ByteEdit edit = smallest_edit(document.text, canonical);
  JsonEmitter out(JsonLayout::Compact, edit.replacement.size() + 128);
  out.begin_array();
  out.begin_object();
  out.key("range");
  write_range(out, positions.range(edit.begin, edit.end));
  out.member("newText", edit.replacement);
  out.end_object();
  out.end_array();
  return {out.finish(), 0, {}};
}

}  // namespace ptmpl::lsp
