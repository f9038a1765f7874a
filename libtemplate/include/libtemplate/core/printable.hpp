// Text printed for a person (messages, file names, tables, CSV on a terminal) made safe to show:
// nothing read from a file or a service can drive the terminal.
#pragma once

#include <string>
#include <string_view>

namespace ptmpl {

/// `text` (a path, a message that may quote a title) made safe for a terminal or a CI log: every
/// control character — C0, DEL and C1 (U+0080 to U+009F, where U+009B is a one-byte CSI) — is
/// written as a visible `\u00XX`, and a byte that is not part of valid UTF-8 as `\xNN`, so a
/// file cannot send escape sequences, ring the bell or start a line of its own.
[[nodiscard]] std::string printable(std::string_view text);

/// printable() for a text of lines: each line escaped as printable() escapes it, the line
/// breaks between them kept (LF, or CR LF as CSV ends its rows); a CR anywhere else is escaped.
[[nodiscard]] std::string printable_lines(std::string_view text);

}  // namespace ptmpl
