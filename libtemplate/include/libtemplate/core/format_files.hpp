// `ptmpl fmt` on one file: canonical form printed, checked or written back.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/result.hpp"

namespace ptmpl {

struct FormatOptions {
  enum class Mode {
    Print,  ///< the canonical form, for standard output
    Check,  ///< the file's name, for standard output, when it is not canonical
    Write,  ///< the file rewritten (atomically) when it is not canonical; standard input printed
    Diff,   ///< a unified diff from the file to its canonical form, when it is not canonical
  };
  Mode mode = Mode::Print;
  /// Read standard input ("-") in place of the file, and name it this in messages.
  std::string stdin_filename;
};

/// What format_file did with one file.
struct FormattedFile {
  /// Found below a directory, it holds another program's plan or JSON of no template shape: left alone.
  bool not_template = false;
  bool not_canonical = false;  ///< it is not in canonical form (Check)
  bool rewritten = false;      ///< it was rewritten in canonical form (Write)
  /// For standard output: the canonical form (Print; Write of standard input), the file's
  /// name and a newline (Check, when not canonical), or the diff to the canonical form (Diff).
  std::string output;
  /// A syntax error, or nesting too deep to read the file whole, as lint shows a finding
  /// (`FILE:LINE:COL: error: … [json-syntax]`, a line); the file is left alone.
  std::string finding;
  /// The file could not be read, is another program's plan (named), or could not be rewritten.
  std::optional<Error> error;
};

/// Formats the template `file` (named, or found below a directory) as `options` ask: the file is
/// read, told apart as lint tells it (read_selected_template), and its tree written in canonical
/// form (write_canonical); Check compares as it writes, never holding the canonical form whole.
/// Write rewrites it with rewrite_file (never through a link out of the directory it was found in).
[[nodiscard]] FormattedFile format_file(const SelectedFile& file, const FormatOptions& options);

/// format_file() of bytes already read: `text` holds the file `path` (which names it in
/// messages), named on the command line. Write, which has no file to rewrite, gives the
/// canonical form as Print does.
[[nodiscard]] FormattedFile format_text(const std::string& path, std::string_view text, const FormatOptions& options);

}  // namespace ptmpl
